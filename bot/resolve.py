"""Resolve: from what the text says (:class:`Understanding`) to a complete
:class:`Query`, with the thread's memory.

The mentions are sorted into slots by entity type; then the handler of the
understood intent may reshape or redirect the question (``prepare``: an
elliptical "and X?" continues the last intent), the handler of the resulting
intent adjusts it (``refine``) and fills missing slots from memory
(``recall``). A follow-up that names nothing and finds nothing in memory is
marked ``dangling_pronoun`` (asked back), unless its intent may be answered from
passages alone: then the thread's previous question is searched with it, or, on
a thread's first turn, a question with words of its own is answered as asked.
"""

from __future__ import annotations

from . import intents
from .antecedent import ANTECEDENT_WORDS, antecedent_text, own_words
from .memory import ThreadState
from .query import CTX_TYPES, ITEM_TYPES, Query, Understanding

#: Slot groups whose text names what a question asks about (kept as written in ``Query.asked_texts``).
ASKED_GROUPS = ("item", "item2", "cand", "excl")


def resolve(u: Understanding, state: ThreadState) -> Query:
    """Fill the question's slots from its own mentions, then from the
    thread's memory for follow-ups (pronouns, "那…呢", "and without X?"). A
    newly named entity of a type replaces the remembered one of that type.
    Raises ``KeyError`` when ``u.intent`` is not a registered intent."""
    q = Query(intent=u.intent, language=u.language, text=u.text, candidate=u.candidate, task=u.slot_texts.get("task", ""),
              asked_texts=[u.slot_texts[g] for g in ASKED_GROUPS if u.slot_texts.get(g)],
              asked_ctx=u.slot_texts.get("ctx", ""))
    for m in u.mentions:
        if m.type == "unknown":
            q.unknown.append(m)
        elif m.type in CTX_TYPES:
            q.ctx.append(m)
        elif m.type == "role":
            q.roles.append(m)
        elif m.type in ITEM_TYPES:
            q.items.append(m)
        # sections/steps/concepts are ignored as slots
    for m in u.excluded:
        (q.unknown if m.type == "unknown" else q.excluded).append(m)
    intents.get(q.intent).prepare(q, u, state)
    intents.get(q.intent).refine(q, u)
    if q.unknown and u.elliptical and not (q.ctx or q.items or q.roles):
        return q  # "and <unknown thing>?": do not answer about the remembered one
    intents.get(q.intent).recall(q, u, state)
    if u.follow_up and not (q.ctx or q.items or q.roles or q.excluded or q.unknown):
        asked = [x["text"] for x in state.turns if x.get("role") == "user" and x.get("text")]
        if (not intents.get(q.intent).open_ended and not asked and u.language == "en"
                and own_words(u.text) >= ANTECEDENT_WORDS):
            # a thread's first question that says enough beyond its pronoun ("a client who doesn't
            # use Slack needs access: how do we add them?") points inside itself: it names nothing
            # the graph intent can take, so it is answered as an open question from the passages
            q.intent = OPEN_INTENT
        elif not intents.get(q.intent).open_ended:
            q.dangling_pronoun = True  # a question about named things with none named: ask back
        elif asked:
            # what the pronoun refers to is in the previous question, or a name its answer gave
            q.context_text = antecedent_text(state, asked[-1], u.text)
        elif own_words(u.text) < FIRST_TURN_WORDS:
            q.dangling_pronoun = True  # a first turn that says little beyond its pronoun: ask back
    return q


#: The intent a question goes to when it is answered from passages alone (``understand`` gives it
#: to every question no pattern matched).
OPEN_INTENT = "general"

#: Content words (or Chinese character bigrams) a thread's first question needs beyond its pronoun
#: for the pronoun to point inside it ("who gets the incident if it is not acknowledged?").
FIRST_TURN_WORDS = 3


