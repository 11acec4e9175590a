"""The two records a question becomes on its way through the core.

:class:`Understanding` is what :func:`~threadgraph.bot.understand.understand`
read from the text alone; :class:`Query` is what
:func:`~threadgraph.bot.resolve.resolve` made of it with the thread's memory:
an intent plus the entities filling its slots.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .linker import Mention

#: Entity types that fill the context slot (``Query.ctx``) and the item slot (``Query.items``).
CTX_TYPES = ("recipe", "document")
ITEM_TYPES = ("ingredient", "tool")


@dataclass
class Understanding:
    """The parsed question: ``intent``, ``language``, ``mentions`` in text
    order, ``excluded`` (things the user lacks / wants without),
    ``slot_texts`` (raw slot strings from the matched rule), ``confident``
    (a rule matched and its slots linked), ``follow_up`` (the text leaned on
    the thread's memory), ``elliptical`` (an elliptical follow-up such as
    "and X?": a new unknown entity must not fall back to the remembered one),
    ``rule`` (which pattern matched, ``intent/lang/rank``, or ``"llm"``)."""

    text: str
    intent: str
    language: str
    mentions: list[Mention] = field(default_factory=list)
    excluded: list[Mention] = field(default_factory=list)
    slot_texts: dict[str, str] = field(default_factory=dict)
    confident: bool = False
    follow_up: bool = False
    elliptical: bool = False
    rule: str = ""
    candidate: Mention | None = None  # "can Y replace X?": the proposed stand-in Y


@dataclass
class Query:
    """A resolved question: intent plus the entities filling its slots."""

    intent: str
    language: str
    text: str
    ctx: list[Mention] = field(default_factory=list)  # recipes / documents
    items: list[Mention] = field(default_factory=list)  # ingredients / tools
    roles: list[Mention] = field(default_factory=list)
    excluded: list[Mention] = field(default_factory=list)
    unknown: list[Mention] = field(default_factory=list)
    reverse: bool = False  # "what can X cover" rather than "who can cover X"
    candidate: Mention | None = None  # "can Y replace X?": the proposed stand-in
    task: str = ""  # "who is responsible for <task>"
    definition: str = ""  # "what is <term>" about something that is not a role
    dangling_pronoun: bool = False  # a pronoun with nothing in memory
    from_memory: list[str] = field(default_factory=list)
    #: "and X?" about one item of the remembered recipe: every line of the recipe naming X answers
    focus: bool = False
    #: "which X is best for R?": which kind of item the recipe takes, from its own lines
    kind: bool = False
    #: a follow-up that names nothing and finds nothing in memory: the thread's previous question,
    #: searched with it ("What if it isn't available?" after "how do I sign in to X?")
    context_text: str = ""
    #: the item and candidate phrases as the question wrote them (its slot texts), linked or not
    asked_texts: list[str] = field(default_factory=list)
    #: the recipe / document phrase as the question wrote it (its ``ctx`` slot), linked or not
    asked_ctx: str = ""
    #: entities the answer itself named (not the question): the one recipe a "which recipes use X"
    #: answer lists is what a following "它" / "it" refers to
    answered: list[Mention] = field(default_factory=list)
    #: the question's embedding, as the passage search computed it (``None`` until then, or
    #: without an embedder): answers read from passages rank sentences by it
    vector: object = None
    #: the names the answer listed asking "which one do you mean?" and the asked phrase they share
    #: (a general dish name several recipes are kinds of): a next reply picking one re-asks the question
    choices: list[str] = field(default_factory=list)
    choice_of: str = ""

    def named(self) -> list[Mention]:
        """The linked mentions in slot order: contexts, items, roles."""
        return self.ctx + self.items + self.roles
