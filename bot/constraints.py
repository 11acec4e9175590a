"""Thread-long constraints: allergies, diets, missing equipment and dislikes
that a user states once ("我对花生过敏", "we're vegetarian", "no oven",
"我不吃辣") and that filter every later answer in the thread.

* **Detection** (:func:`detect`) is data: the clause patterns, diet words,
  question modifiers ("vegetarian dishes", "不辣的菜") and answer phrasing are
  in ``bot/lexicon/constraints.yaml``; what a word means in KB names comes
  from the category table (:mod:`threadgraph.knowledge.categories`) and the
  linker. A message is cut into clauses; a clause that is wholly a constraint
  statement is taken out, the rest is the question.
* **Storage**: :class:`Constraint` is a plain record; the thread keeps them as
  dicts in :attr:`ThreadState.constraints` (``/reset`` forgets them).
* **Application** (:class:`Screen`): for one question over one KB, which
  ingredient/tool ids the constraints forbid and which recipes break them
  (their ingredients, their tools, or a tool their text says they need).
  Intents call :meth:`Screen.keep_recipes`, :meth:`Screen.keep_items` and
  :meth:`Screen.forbidden_ids`; :func:`annotate` flags a named recipe that
  breaks a constraint and says which constraints filtered the answer.

Detection and storage live in :mod:`threadgraph.bot.constraint_detect`,
application here; every name of both is importable from this module.
"""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Callable, Iterable, TypeVar

from ..knowledge import categories as cat
from ..knowledge import retrieval as R
from ..knowledge.text import name_key, split_sentences
from .constraint_detect import (  # noqa: F401 - re-exported: detection is imported from here
    KINDS,
    Constraint,
    Detection,
    data,
    detect,
    link_thing,
    remember,
    stored,
)
from .linker import Linker

if TYPE_CHECKING:  # pragma: no cover
    from ..knowledge.kb import KnowledgeBase

T = TypeVar("T")

__all__ = ["KINDS", "Constraint", "Detection", "Screen", "annotate", "category_index", "data", "detect", "flag_text",
           "keep_notes", "link_thing", "noted_text", "remember", "stored"]


# -- application -----------------------------------------------------------------------
_CACHE: dict[tuple, object] = {}
_CACHE_LOCK = threading.Lock()


def _cached(key: tuple, make: Callable[[], T]) -> T:
    hit = _CACHE.get(key)
    if hit is None:
        hit = make()
        with _CACHE_LOCK:
            if len(_CACHE) > 2048:
                _CACHE.clear()
            _CACHE[key] = hit
    return hit  # type: ignore[return-value]


def category_index(kb: "KnowledgeBase") -> cat.CategoryIndex:
    """The category index of ``kb``'s names (built once per KB build)."""
    ents = {}
    if str(kb.build) not in cat._INDEXES:  # noqa: SLF001 - only to skip collecting names when cached
        for n in kb.names:
            ents.setdefault(n.id, (n.id, n.name, n.type, n.doc))
    return cat.index_for(str(kb.build), ents.values())


class Screen:
    """The constraints in force for one question over one KB.

    ``constraints``: the thread's constraints plus the question's transient
    ones; ``stated``: those the message itself stated (acknowledged in the
    answer). ``applied`` collects the constraints that changed the answer
    (what the note names); ``scope`` the recipe kinds the question is limited to."""

    def __init__(self, kb: "KnowledgeBase | None" = None, constraints: list[Constraint] | None = None, *,
                 stated: list[Constraint] | None = None, scope: list[str] | None = None):
        self.kb = kb
        self.constraints = list(constraints or [])
        self.stated = list(stated or [])
        self.scope = list(scope or [])
        self.applied: list[Constraint] = []
        self.added: list[str] = []
        self._breaking: dict[str, list[tuple[str, Constraint]]] = {}

    def __bool__(self) -> bool:
        return bool(self.constraints)

    @property
    def _build(self) -> str:
        return str(self.kb.build) if self.kb is not None else ""

    @functools.cached_property
    def index(self) -> cat.CategoryIndex | None:
        """The KB's category index (``None`` without a KB)."""
        return category_index(self.kb) if self.kb is not None else None

    def _ids_of(self, c: Constraint) -> frozenset[str]:
        """The ingredient/tool ids constraint ``c`` forbids."""
        def make() -> frozenset[str]:
            idx = self.index
            if idx is None:
                return frozenset()
            types = ("tool",) if c.kind == "equipment" else ("ingredient",)
            ids: set[str] = set(c.ids)
            for key in c.categories:
                ids |= idx.ids(key)
            if not c.categories:  # a named thing: its name and its compounds (香菜 → 香菜叶)
                for term in dict.fromkeys([name_key(c.label)] + [name_key(n) for n in c.names]):
                    ids |= idx.containing(term, types)
            return frozenset(ids)
        return _cached((self._build, "ids", c.key), make)

    @functools.cached_property
    def forbidden(self) -> dict[str, Constraint]:
        """Forbidden ingredient/tool id → the (first) constraint it breaks."""
        out: dict[str, Constraint] = {}
        for c in self.constraints:
            for i in self._ids_of(c):
                out.setdefault(i, c)
        return out

    def forbidden_ids(self) -> list[str]:
        """Every forbidden ingredient/tool id (sorted; ``[]`` without constraints)."""
        return sorted(self.forbidden)

    def _tool_recipes(self, c: Constraint) -> dict[str, str]:
        """Recipes whose text says they need a tool ``c`` rules out (recipe id
        → the tool's name), beyond their ingredient lists: a sentence of the
        recipe's document mentions the tool and no cue of ``tool_optional_cues``."""
        def make() -> dict[str, str]:
            if self.kb is None or c.kind != "equipment":
                return {}
            ids = sorted(self._ids_of(c))
            idx = self.index
            names = [idx.names.get(i, "") for i in ids] if idx else []
            names = [n for n in dict.fromkeys(names + [c.label]) if n]
            cues = [w.casefold() for lst in (data().get("tool_optional_cues") or {}).values() for w in lst]
            docs: dict[str, str] = {}
            for row in R.mentioning_chunks(self.kb.graph, ids):
                for s in split_sentences(row["text"] or ""):
                    low = s.casefold()
                    hit = next((n for n in names if n.casefold() in low), None)
                    if hit and not any(w in low for w in cues):
                        docs.setdefault(row["doc"], hit)
                        break
            return {r["id"]: docs[r["doc"]] for r in R.recipes_of_docs(self.kb.graph, sorted(docs))}
        return _cached((self._build, "tools", c.key), make)

    def breaking(self, recipe_ids: Iterable[str]) -> dict[str, list[tuple[str, Constraint]]]:
        """For each of ``recipe_ids`` that breaks a constraint: ``[(what
        breaks it — an ingredient or tool name, the constraint)]``. Recipes
        that break nothing are left out."""
        ids = [r for r in dict.fromkeys(recipe_ids) if r and r not in self._breaking]
        if ids and self.constraints and self.kb is not None:
            got: dict[str, list[tuple[str, Constraint]]] = {r: [] for r in ids}
            forb = self.forbidden
            if forb:
                for rid, pairs in R.recipes_using(self.kb.graph, sorted(forb), ids).items():
                    got[rid] += [(name, forb[i]) for i, name in pairs]
            for c in self.constraints:
                tools = self._tool_recipes(c)
                for rid in ids:
                    if rid in tools and not any(n == tools[rid] for n, _ in got[rid]):
                        got[rid].append((tools[rid], c))
            self._breaking.update(got)
        return {r: self._breaking[r] for r in dict.fromkeys(recipe_ids) if self._breaking.get(r)}

    def blocked_recipes(self) -> set[str]:
        """Recipes whose text needs a ruled-out tool (see :meth:`_tool_recipes`); ingredient
        lists are checked by the queries that take :meth:`forbidden_ids`."""
        out: set[str] = set()
        for c in self.constraints:
            out |= set(self._tool_recipes(c))
        return out

    def note_applied(self, constraints: Iterable[Constraint]) -> None:
        """Record that ``constraints`` changed the answer."""
        for c in constraints:
            if c.key not in {x.key for x in self.applied}:
                self.applied.append(c)

    def keep_recipes(self, items: list[T], recipe_of: Callable[[T], str]) -> list[T]:
        """``items`` without those whose recipe (``recipe_of(item)``) breaks a
        constraint; the constraints that removed something are recorded."""
        if not self.constraints or not items:
            return items
        bad = self.breaking([recipe_of(x) for x in items])
        if not bad:
            return items
        self.note_applied(c for pairs in bad.values() for _, c in pairs)
        return [x for x in items if recipe_of(x) not in bad]

    def keep_items(self, items: list[T], item_of: Callable[[T], str]) -> list[T]:
        """``items`` without those naming a forbidden ingredient or tool
        (``item_of(item)`` its id); the constraints that removed something are recorded."""
        if not self.constraints or not items:
            return items
        forb = self.forbidden
        out = [x for x in items if item_of(x) not in forb]
        if len(out) < len(items):
            self.note_applied(forb[item_of(x)] for x in items if item_of(x) in forb)
        return out

    def forbids_name(self, name: str, linker: Linker) -> Constraint | None:
        """The constraint a thing called ``name`` (free text, e.g. a stand-in
        read from a passage) breaks, or ``None``: its linked KB entity is
        forbidden, or the name belongs to a ruled-out category or contains a
        ruled-out thing's name."""
        if not self.constraints or not name:
            return None
        m = link_thing(linker, name, ("ingredient", "tool"))
        if m.id and m.id in self.forbidden:
            return self.forbidden[m.id]
        key = name_key(name)
        for c in self.constraints:
            if any(cat.belongs(k, name) for k in c.categories if k in cat.table()):
                return c
            terms = [name_key(x) for x in [c.label] + c.names if x]
            if not c.categories and any(t and (t in key if not t.isascii() else f" {t} " in f" {key} ") for t in terms):
                return c
        return None

    def keep_named(self, items: list[T], name_of: Callable[[T], str], linker: Linker) -> list[T]:
        """``items`` without those whose thing (``name_of(item)``, free text)
        a constraint rules out (:meth:`forbids_name`); removals are recorded."""
        if not self.constraints or not items:
            return items
        out = []
        for x in items:
            hit = self.forbids_name(name_of(x), linker)
            if hit is None:
                out.append(x)
            else:
                self.note_applied([hit])
        return out

    def in_scope(self, recipe_ids: Iterable[str]) -> set[str]:
        """Those of ``recipe_ids`` of the question's recipe kinds (all of them without a scope)."""
        ids = set(recipe_ids)
        if not self.scope or self.index is None:
            return ids
        allowed: set[str] = set()
        for key in self.scope:
            allowed |= self.index.ids(key)
        return ids & allowed

    def reasons(self, lang: str, constraints: Iterable[Constraint] | None = None) -> str:
        """The reasons of ``constraints`` (default: the applied ones), joined."""
        cs = list(self.applied if constraints is None else constraints)
        sep = data()["and"]["zh" if lang == "zh" else "en"]
        return sep.join(dict.fromkeys(c.reason(lang) for c in cs))

    def note(self, lang: str) -> str:
        """"（已按你对花生过敏排除）" / "(filtered: you said you're allergic to
        peanuts)" for the applied constraints; ``""`` when none applied."""
        if not self.applied:
            return ""
        return data()["filtered"]["zh" if lang == "zh" else "en"].format(reasons=self.reasons(lang))


def flag_text(lang: str, recipe: str, pairs: list[tuple[str, Constraint]]) -> str:
    """"注意：X用到A、B（你对Y过敏）。" for a recipe that breaks constraints."""
    items = list(dict.fromkeys(n for n, _ in pairs))
    reasons = data()["and"]["zh" if lang == "zh" else "en"].join(dict.fromkeys(c.reason(lang) for _, c in pairs))
    key = "flagged_tool" if all(c.kind == "equipment" for _, c in pairs) else "flagged"
    joined = "、".join(items) if lang == "zh" else ", ".join(items)
    return data()[key]["zh" if lang == "zh" else "en"].format(recipe=recipe, items=joined, reasons=reasons)


def noted_text(lang: str, stated: list[Constraint]) -> str:
    """"记住了：你对花生过敏。" for constraints stated beside a question."""
    sep = data()["and"]["zh" if lang == "zh" else "en"]
    return data()["noted"]["zh" if lang == "zh" else "en"].format(reasons=sep.join(c.reason(lang) for c in stated))


def annotate(screen: Screen, lang: str, recipes: list[tuple[str, str]], text: str, *,
             items: list[str] = (), acknowledge: bool = True) -> str:
    """``text`` with what the constraints did: first a flag line for each of
    ``recipes`` (``(id, name)``, the recipes the answer is about) that breaks
    a constraint and for asked ``items`` (ids) a constraint forbids, the
    "filtered" note when a constraint changed the answer, and — when
    ``acknowledge`` — "记住了：…" for constraints stated with the question."""
    if not screen:
        return text
    lines = []
    for rid, name in recipes:
        pairs = screen.breaking([rid]).get(rid)
        if pairs:
            lines.append(flag_text(lang, name, pairs))
    stated = {c.key for c in screen.stated}  # just acknowledged: no need to warn about it again
    hit = [screen.forbidden[i] for i in items if i in screen.forbidden and screen.forbidden[i].key not in stated]
    if hit:
        lines.append(data()["flagged_item"]["zh" if lang == "zh" else "en"].format(reasons=screen.reasons(lang, hit)))
    note = screen.note(lang)
    out = text
    if lines:  # a warning comes first: a long answer (a whole procedure) must not bury it
        out = "\n".join(lines) + ("\n" if out else "") + out
    if note and note not in out:
        out = out + ("" if lang == "zh" else " ") + note if out else note
        lines.append(note)
    if acknowledge and screen.stated:
        head = noted_text(lang, screen.stated)
        out = head + ("\n" if out else "") + out
        lines.insert(0, head)
    screen.added = lines
    return out


def keep_notes(screen: Screen, text: str) -> str:
    """``text`` (e.g. an LLM's wording of an answer) with the constraint
    lines :func:`annotate` added to the deterministic answer that it lacks."""
    missing = [x for x in screen.added if x not in text]
    return text + ("\n" + "\n".join(missing) if missing else "")
