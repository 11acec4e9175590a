"""The intent hook spec, and the per-question context the hooks work with.

An intent is one module under ``bot/intents/`` holding an :class:`Intent`
subclass (its slots, its retrieval call, its composition) and, beside it, a
YAML data file of the same name (its phrase patterns per language, its words,
its description for the LLM). Every hook has a default, so a handler
implements only what its intent needs. The core calls them for the handler of
the question's intent, in this order:

============  ===================================  ==========================================
stage         hook                                 does
============  ===================================  ==========================================
understand    ``read(u, match, body, linker)``     one of its patterns matched: fill ``u``
              ``after_llm(u)``                     the LLM understood the question as it
resolve       ``prepare(q, u, state)``             the understood intent: reshape or redirect
              ``refine(q, u)``                     the resolved intent: adjust before memory
              ``recall(q, u, state)``              fill missing slots from the thread memory
retrieve      ``retrieve(c) -> Draft | None``      parameterized Cypher (knowledge.retrieval)
compose       ``compose(c, d)``                    answer text from the graph facts
              ``use_passages(c, d)``               once the passages are known
              ``extend(c, d)``                     after the generic passage fallback
              ``missing(c) -> str``                what a "no evidence" answer is about
============  ===================================  ==========================================

Attributes: ``needs`` (entity types its slots take, main first), ``slots``
(regex group → entity types to link), ``memorable`` (becomes the thread's last
intent), ``open_ended`` (may be answered from passages alone), ``facts_suffice``
(graph facts count as an answer before any text), ``fallback`` (its patterns are
tried only when no other pattern matched, in the question's own language),
``statement`` (it answers a message that only states thread constraints, see
:mod:`threadgraph.bot.constraints`; one handler at most).

After the answer, ``remember(q, state)`` lets the handler keep more than the
slots in the thread's memory (e.g. the pantry).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ...knowledge.text import has_cjk
from ...knowledge.vectors import Hit
from ..answer import Passage
from ..constraints import Screen
from ..linker import Linker, Mention
from ..memory import ASKED_ITEM, RememberedEntity, ThreadState
from ..query import CTX_TYPES, ITEM_TYPES, Query, Understanding
from ..slots import read_slots, rebalance

if TYPE_CHECKING:  # pragma: no cover
    import re

    from ...knowledge.kb import KnowledgeBase

#: Entity types each regex group links to unless an intent says otherwise.
DEFAULT_SLOTS: dict[str, tuple[str, ...]] = {
    "ctx": CTX_TYPES, "ctx2": CTX_TYPES,
    "item": ITEM_TYPES, "item2": ITEM_TYPES, "excl": ITEM_TYPES, "cand": ITEM_TYPES,
}


def remembered(e: RememberedEntity) -> Mention:
    """A mention of an entity recalled from the thread's memory."""
    return Mention(e.name, e.name, e.type, e.id, -1, "memory")


def recall_slot(q: Query, state: ThreadState, slot: str, into: list[Mention]) -> None:
    """Append the entity remembered in memory ``slot`` (if any) to ``into`` and note it in ``q.from_memory``."""
    e = state.slots.get(slot)
    if e is not None:
        into.append(remembered(e))
        q.from_memory.append(e.name)


def named_unknown_ctx(q: Query, u: Understanding) -> bool:
    """The question named a context the KB does not know (so memory must not stand in for it)."""
    return bool(q.unknown) and bool(u.slot_texts.get("ctx"))


def named_unknown_item(q: Query, u: Understanding) -> bool:
    """The question named an item the KB does not know (so memory must not stand in for it)."""
    return bool(q.unknown) and bool(u.slot_texts.get("item") or u.slot_texts.get("excl"))


def add_unslotted_recipe(u: Understanding, body: str, linker: Linker) -> None:
    """A recipe named outside the pattern's slots ("For the X, can I use Y instead of Z?")
    is the question's context: the first recipe a scan of ``body`` finds that overlaps no
    slot's mention (nor the proposed candidate) is added to ``u.mentions``."""
    taken = [m.surface.casefold() for m in u.mentions + u.excluded + ([u.candidate] if u.candidate else [])]
    for m in linker.scan(body):
        if m.type != "recipe" or not m.id:
            continue
        s = m.surface.casefold()
        if any(s in x or x in s for x in taken if x):
            continue
        u.mentions.append(m)
        return


@dataclass
class Draft:
    """An answer in the making. ``facts`` are the graph facts it cites (best
    first); ``parts`` holds whatever else the intent's ``compose`` needs from
    its ``retrieve``; ``hits``/``passages`` the LanceDB passages; ``found``
    whether the evidence answers the question."""

    facts: list[Fact] = field(default_factory=list)
    text: str = ""
    follow_ups: list[str] = field(default_factory=list)
    parts: dict[str, Any] = field(default_factory=dict)
    hits: list[Hit] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    found: bool = False


class Context:
    """One question being answered: the KB, the resolved :class:`Query`, the
    retrieval ``mode`` (``hybrid``, ``graph`` or ``vector``), the settings,
    the KB's linker, the ``thread`` key, the bot's per-build cache of
    ``contains`` lists and the ``screen`` of the thread's constraints
    (:class:`~threadgraph.bot.constraints.Screen`; an empty one by default)."""

    def __init__(self, kb: "KnowledgeBase", q: Query, mode: str, settings, linker: Linker, *,
                 thread: str = "", cache: dict | None = None, screen: Screen | None = None):
        self.kb, self.q, self.mode, self.settings, self.linker = kb, q, mode, settings, linker
        self.thread = thread
        self._cache = cache if cache is not None else {}
        self.screen = screen if screen is not None else Screen(kb)

    @property
    def graph(self):
        """The KB's :class:`~threadgraph.knowledge.graph.GraphStore`."""
        return self.kb.graph

    @property
    def lang(self) -> str:
        """The question's language (``"zh"`` or ``"en"``)."""
        return self.q.language

    @property
    def use_graph(self) -> bool:
        """Graph facts are retrieved (modes ``hybrid`` and ``graph``)."""
        return self.mode in ("hybrid", "graph")

    @property
    def use_passages(self) -> bool:
        """Passages are retrieved (modes ``hybrid`` and ``vector``)."""
        return self.mode in ("hybrid", "vector")

    @property
    def ctx(self) -> Mention | None:
        """The first context (recipe or document), if any."""
        return self.q.ctx[0] if self.q.ctx else None

    @property
    def item(self) -> Mention | None:
        """The first item (ingredient or tool), if any."""
        return self.q.items[0] if self.q.items else None

    @property
    def role(self) -> Mention | None:
        """The first role, if any."""
        return self.q.roles[0] if self.q.roles else None

    @cached_property
    def item_ids(self) -> list[str]:
        """Ids of the asked items with their variants (see :meth:`expand_items`)."""
        return self.expand_items(self.q.items, self.ctx)

    def contains(self, parent_id: str) -> list[Fact]:
        """``knowledge.retrieval.contains`` memoized per KB build (a build is immutable once published)."""
        key = (str(self.graph.path), parent_id)  # the build folder: a reloaded KB never sees the old entries
        hit = self._cache.get(key)
        if hit is None:
            hit = R.contains(self.graph, parent_id)
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[key] = hit
        return hit

    def surfaces(self) -> dict[str, set[str]]:
        """Entity id → every surface (name or alias) the KB recorded for it,
        built once per KB build (cached in the shared answer cache)."""
        key = ("surfaces", str(self.graph.path))
        index = self._cache.get(key)
        if index is None:
            index = {}
            for n in self.kb.names:
                index.setdefault(n.id, set()).add(n.surface)
            self._cache[key] = index
        return index

    def glossary(self):
        """The :class:`~threadgraph.knowledge.glossary.Glossary` of the KB's names (their names
        in the other language), built once per KB build (cached in the shared answer cache)."""
        from ...knowledge.glossary import Glossary

        key = ("glossary", str(self.graph.path))
        g = self._cache.get(key)
        if g is None:
            g = Glossary((n.surface, n.type) for n in self.kb.names)
            self._cache[key] = g
        return g

    def written_names(self, facts: list[Fact]) -> dict[str, str]:
        """Object id → the name as the facts' source passages write it, for each object whose
        KB name (canonical, e.g. after the alias table) those passages do not contain while one
        of its aliases they do: a recipe that lists "土豆" is answered with 土豆, not the
        canonical 马铃薯. Objects written as the KB names them are left out."""
        chunks = R.source_chunks(self.graph, [(f.source.doc, f.source.line) for f in facts], limit=max(1, len(facts)))
        text = "\n".join(h.text for h in chunks)
        if not text:
            return {}
        index = self.surfaces()
        out: dict[str, str] = {}
        for f in facts:
            if f.object_id and f.object_id not in out and f.object not in text:
                written = [x for x in index.get(f.object_id, ()) if x and x in text]
                if written:
                    out[f.object_id] = max(written, key=len)
        return out

    def expand_items(self, items: list[Mention], ctx: Mention | None) -> list[str]:
        """Item ids plus the context's own items whose name starts or ends with
        an asked one, or (without a context) the KB's prefixed variants of it
        (Chinese compounds are head-final: a "cooked X" is an X)."""
        ids = [m.id for m in items if m.id]
        names = [m.name for m in items if m.name]
        if ctx and ctx.id and names:
            for f in self.contains(ctx.id):
                if any(f.object.endswith(n) or f.object.startswith(n) for n in names) and f.object_id not in ids:
                    ids.append(f.object_id)
        elif names:
            for oid in R.head_variants(self.graph, [n for n in names if len(n) >= 2]):
                if oid not in ids:
                    ids.append(oid)
        return ids

    def own_chunks(self, ctx: Mention):
        """The chunks of the document recipe ``ctx`` is defined in, in source order; when that
        document defines several recipes (a recipe collection in one file), only the chunks under
        a heading naming ``ctx``. ``[]`` when its document is unknown."""
        doc = ctx.doc
        if not doc and ctx.id:
            rows = self.graph.query("MATCH (e:Entity) WHERE e.id = $id AND e.doc <> '' RETURN e.doc AS doc", {"id": ctx.id})
            doc = rows[0]["doc"] if rows else ""
        if not doc:
            return []
        hits = R.doc_chunks(self.graph, doc)
        rows = self.graph.query("MATCH (e:Entity) WHERE e.doc = $doc AND e.type = 'recipe' RETURN count(*) AS n", {"doc": doc})
        if rows and rows[0]["n"] > 1:
            name = ctx.name.casefold()
            hits = [h for h in hits if name in (h.section or "").split(" > ")[0].casefold()]
        return hits

    def role_titles(self, role: Mention) -> list[str]:
        """The role's name and aliases, singular and plural (the section
        titles that describe it)."""
        names = list(dict.fromkeys([role.name] + [n.surface for n in self.kb.names if n.id == role.id]))
        return names + [n + "s" for n in names if n.isascii() and not n.endswith("s")]


class Intent:
    """Base class of the intent handlers (see the module docstring for the hooks)."""

    name: str = ""
    needs: tuple[str, ...] = ()
    slots: dict[str, tuple[str, ...]] = DEFAULT_SLOTS
    memorable: bool = True
    open_ended: bool = False
    facts_suffice: bool = False
    #: with no graph fact, a line of the asked recipe naming the asked item with an alternative or
    #: a condition answers (:func:`threadgraph.bot.reader.read_item_lines`)
    reads_item_lines: bool = False
    #: with no graph fact, the list a document gives under the asked name (the sub-items of a list
    #: item naming it, the list under a heading naming it) answers (:func:`threadgraph.bot.reader.read_parts`)
    reads_parts: bool = False
    #: the answer is about one recipe as a whole: a dish name several recipes share must say which
    whole_dish: bool = False
    fallback: bool = False
    statement: bool = False

    # -- data ----------------------------------------------------------------------
    @functools.cached_property
    def data(self) -> dict:
        """The parsed ``<module>.yaml`` beside the handler's module (``{}`` when there is none)."""
        path = Path(sys.modules[type(self).__module__].__file__).with_suffix(".yaml")
        if not path.exists():
            return {}
        return yaml.safe_load(path.read_text(encoding="utf-8")) or {}

    def patterns(self, lang: str) -> list[tuple[int, str]]:
        """``(rank, regular expression)`` of the intent's phrase patterns in ``lang``, by rank."""
        return sorted((self.data.get("patterns") or {}).get(lang, {}).items())

    @property
    def description(self) -> str | None:
        """How the LLM prompt explains the intent (``None``: not offered to the LLM)."""
        return self.data.get("llm")

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other spellings of the intent's name an LLM may answer with."""
        return tuple(self.data.get("llm_aliases") or ())

    @property
    def fills_item(self) -> bool:
        """An item (ingredient/tool) is one of its slots."""
        return "ingredient" in self.needs

    # -- understand ------------------------------------------------------------------
    def read(self, u: Understanding, match: "re.Match", body: str, linker: Linker) -> None:
        """One of the intent's patterns matched ``body``: link its groups to
        the types in :attr:`slots`, then repair the slot boundaries."""
        read_slots(u, match.groupdict(), linker, self.slots)
        rebalance(u, body, linker, needs_item=self.fills_item)
        if "recipe" in self.needs[1:] and not any(m.type in CTX_TYPES for m in u.mentions):
            add_unslotted_recipe(u, body, linker)

    def after_llm(self, u: Understanding) -> None:
        """The LLM read the question as this intent (``u`` is linked already)."""

    # -- resolve ---------------------------------------------------------------------
    def prepare(self, q: Query, u: Understanding, state: ThreadState) -> None:
        """The question was understood as this intent: reshape ``q`` or
        redirect it (``q.intent``) to another intent, e.g. from the thread's last one."""

    def refine(self, q: Query, u: Understanding) -> None:
        """``q`` resolved to this intent: last adjustments before memory fills slots."""

    def recalls_ctx(self, q: Query, u: Understanding) -> bool:
        """A missing context may be taken from memory (when a recipe is one of the slots)."""
        return True

    def recall(self, q: Query, u: Understanding, state: ThreadState) -> None:
        """Fill the intent's missing slots from the thread's memory, unless the
        question named an unknown entity for them. A missing recipe is the dish the last
        answer was about when that was a family of recipes (``state.dish``), else the
        remembered recipe."""
        if ("recipe" in self.needs and not q.ctx and not q.asked_ctx and state.dish and not named_unknown_ctx(q, u)
                and self.recalls_ctx(q, u)):
            # the last answer was about a dish no single recipe is (a family of recipes): the
            # follow-up is about that dish too, not about a recipe remembered from before it
            q.asked_ctx = state.dish
            q.from_memory.append(state.dish)
        elif ("recipe" in self.needs and not q.ctx and state.slots.get("ctx") and not named_unknown_ctx(q, u)
                and self.recalls_ctx(q, u)):
            recall_slot(q, state, "ctx", q.ctx)
        if self.fills_item and not q.items and state.slots.get("item") and not named_unknown_item(q, u):
            recall_slot(q, state, "item", q.items)
        elif (self.fills_item and not q.items and not q.unknown and state.slots.get(ASKED_ITEM)
              and (q.ctx or q.asked_ctx)):
            # "And in <dish>?" after a question about an item the KB has no entity for (that the
            # answer found written): the same item, asked about the new dish, read from its passages
            e = state.slots[ASKED_ITEM]
            q.unknown.append(Mention(e.name, e.name, "unknown", None, -1, "memory"))
            q.from_memory.append(e.name)
        if "role" in self.needs and not q.roles and state.slots.get("role") and not named_unknown_item(q, u):
            recall_slot(q, state, "role", q.roles)

    # -- retrieve and compose ----------------------------------------------------------
    def retrieve(self, c: Context) -> Draft | None:
        """The graph evidence (graph modes only); ``None`` when the slots it needs are empty."""
        return None

    def compose(self, c: Context, d: Draft) -> None:
        """Set ``d.text`` (and ``d.follow_ups``) from the facts ``retrieve`` found."""

    def use_passages(self, c: Context, d: Draft) -> None:
        """The passages are in ``d``: answer from them or reorder them."""

    def excerpt_question(self, c: Context) -> str:
        """The question passage excerpts should start near (``""``: at the passage start)."""
        return c.q.text

    def extend(self, c: Context, d: Draft) -> None:
        """Last word after the generic passage fallback."""

    def remember(self, q: Query, state: ThreadState) -> None:
        """After the answer to ``q``: keep what the intent needs in the
        thread's memory beyond the filled slots (default: nothing)."""

    def remembers(self, q: Query) -> bool:
        """Whether ``q`` becomes the thread's last question (default: :attr:`memorable`)."""
        return self.memorable

    def missing(self, c: Context) -> str:
        """What a "no evidence" answer says is missing (``""``: the question): the first recipe or
        item, as the question wrote it when the KB name is its other-language translation."""
        q = c.q
        for ms in (q.ctx, q.items):
            if ms:
                m = ms[0]
                # the question's own words, never a translation the linker read them as
                own = m.surface and m.surface.casefold() in q.text.casefold() and m.surface.casefold() != m.name.casefold()
                return m.surface if own and has_cjk(m.name) != has_cjk(m.surface) else m.name
        return ""


#: The registered handlers by name, in registration order (see :mod:`threadgraph.bot.intents`).
REGISTRY: dict[str, Intent] = {}


def register(cls: type[Intent]) -> type[Intent]:
    """Class decorator: register one instance of the handler ``cls`` under
    ``cls.name``. Raises ``ValueError`` for a missing or duplicate name."""
    if not cls.name or cls.name in REGISTRY:
        raise ValueError(f"intent handler {cls.__name__} needs a unique name, not {cls.name!r}")
    REGISTRY[cls.name] = cls()
    return cls
