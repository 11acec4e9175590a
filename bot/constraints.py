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
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, TypeVar

from ..knowledge import bilingual
from ..knowledge import categories as cat
from ..knowledge import retrieval as R
from ..knowledge.text import has_cjk, name_key, split_sentences
from . import words
from .linker import Linker, clean_slot, is_pronoun

if TYPE_CHECKING:  # pragma: no cover
    from ..knowledge.kb import KnowledgeBase
    from .memory import ThreadState

T = TypeVar("T")

#: The kinds of constraint, in the order their patterns are tried.
KINDS = ("diet", "allergy", "equipment", "dislike")


@functools.lru_cache(maxsize=1)
def data() -> dict:
    """The parsed ``bot/lexicon/constraints.yaml`` (cached)."""
    return words.lexicon("constraints")


@functools.lru_cache(maxsize=1)
def _rx() -> dict:
    d = data()
    kinds = {kind: {lang: [re.compile(p, re.I) for p in pats] for lang, pats in (d["kinds"].get(kind) or {}).items()}
             for kind in KINDS}
    mods = {lang: [re.compile(p, re.I) for p in pats] for lang, pats in (d.get("modifiers") or {}).items()}
    diet_words = {}
    for key, spec in (d.get("diets") or {}).items():
        for w in spec.get("words") or []:
            diet_words[name_key(str(w))] = key
    return {"split": re.compile(d["clause_split"], re.I), "lead": re.compile(d["lead"], re.I),
            "listq": re.compile("|".join(d.get("list_question") or ["(?!)"]), re.I),
            "list": re.compile(d["list_split"], re.I), "kinds": kinds, "mods": mods, "diet_words": diet_words}


@dataclass
class Constraint:
    """One constraint: ``kind`` (``allergy``, ``diet``, ``equipment`` or
    ``dislike``), ``label`` as the user said it, the ``lang`` they said it in,
    ``labels`` (the thing's name per language, for the answer's note),
    ``categories`` it rules out (keys of the category table), the KB entity
    ``ids``/``names`` it names, and ``transient`` (it limits only the question
    it came with, e.g. "vegetarian dishes with tofu")."""

    kind: str
    label: str
    lang: str = "zh"
    labels: dict[str, str] = field(default_factory=dict)
    categories: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    transient: bool = False

    @property
    def key(self) -> tuple:
        """Identity: two statements of the same thing are one constraint."""
        return (self.kind, tuple(sorted(self.categories)), tuple(sorted(self.ids)),
                "" if (self.categories or self.ids) else name_key(self.label))

    def shown(self, lang: str) -> str:
        """The thing's name in ``lang`` (as said when no other is known)."""
        return self.labels.get(lang) or self.label

    def what(self, lang: str) -> str:
        """What the constraint rules out, in ``lang``: the thing, or for a
        diet the categories it excludes ("肉、海鲜、荤油")."""
        if self.kind == "diet" and self.categories:
            names = [cat.get(k).label(lang) for k in self.categories if k in cat.table()]
            return ("、" if lang == "zh" else ", ").join(names)
        return self.shown(lang)

    def reason(self, lang: str) -> str:
        """"你对花生过敏" / "you said you're allergic to peanuts"."""
        tpl = data()["notes"][self.kind]
        return tpl["zh" if lang == "zh" else "en"].format(x=self.shown(lang))

    def to_dict(self) -> dict:
        """A JSON-serializable dict (stored in :attr:`ThreadState.constraints`)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Constraint | None":
        """The constraint stored as ``d``; ``None`` when ``d`` is not one (unknown keys are ignored)."""
        try:
            return cls(kind=str(d["kind"]), label=str(d.get("label", "")), lang=str(d.get("lang", "zh")),
                       labels=dict(d.get("labels") or {}), categories=list(d.get("categories") or []),
                       ids=list(d.get("ids") or []), names=list(d.get("names") or []),
                       transient=bool(d.get("transient", False)))
        except (KeyError, TypeError, ValueError):
            return None


@dataclass
class Detection:
    """What :func:`detect` found in a message: the ``constraints`` it states
    (to remember), the ``transient`` ones that limit only this question,
    ``rest`` (the message without the constraint clauses; ``""`` when it was
    only constraints), ``question`` (the text to understand: ``rest`` with the
    clauses of the kinds in ``keep_in_question`` put back — "no grill at
    home" is part of "how do I make suya?") and ``scope`` (recipe kinds it
    names, e.g. ``["dessert"]``)."""

    constraints: list[Constraint] = field(default_factory=list)
    transient: list[Constraint] = field(default_factory=list)
    rest: str = ""
    scope: list[str] = field(default_factory=list)
    question: str = ""

    @property
    def statement(self) -> bool:
        """The message only states constraints."""
        return bool(self.constraints) and not self.rest


def _clauses(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of the clauses of ``text`` (separators excluded)."""
    spans, last = [], 0
    for m in _rx()["split"].finditer(text):
        if m.start() > last:
            spans.append((last, m.start()))
        last = max(last, m.end())
    if last < len(text):
        spans.append((last, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def link_thing(linker: Linker, text: str, types: tuple[str, ...]):
    """``linker.link(text, types)``, else the first of ``text``'s
    cross-language equivalents (:mod:`threadgraph.knowledge.bilingual`) that
    links ("peanuts" → 花生); the unknown mention when none does."""
    m = linker.link(text, types)
    if m.id:
        return m
    for alt in bilingual.equivalents(text, types):
        got = linker.link(alt, types)
        if got.id and got.method != "fuzzy":
            got.surface = m.surface
            return got
    return m


def _other_lang_name(linker: Linker, eid: str, lang: str) -> str:
    """A surface of entity ``eid`` in the script of ``lang`` (``""`` when none)."""
    want_cjk = lang == "zh"
    best = ""
    for surface, ents in linker.by_surface.items():
        if has_cjk(surface) != want_cjk or not any(e.id == eid for e in ents):
            continue
        if want_cjk or re.fullmatch(r"[a-z][a-z' -]*", surface):
            if not best or len(surface) < len(best):
                best = surface
    return best


def _thing(x: str, kind: str, lang: str, linker: Linker, *, known_only: bool = False) -> Constraint | None:
    """The constraint of ``kind`` on one named thing ``x``; ``None`` when ``x``
    names nothing this kind can hold (with ``known_only``: nothing the
    category table or the KB knows)."""
    x = clean_slot(x)
    x = re.sub(r"^(?:any|some|the|an?|all|most|raw|fresh)\s+|\s+(?:food|foods|products?|dishes|at all)$", "", x, flags=re.I).strip()
    x = re.sub(r"(?:的东西|的食物|的菜|类|的|了|啦|呢)$", "", x).strip()
    if not x or is_pronoun(x) or x.casefold() in ("it", "that", "this", "them", "time", "idea", "clue"):
        return None
    section = "tools" if kind == "equipment" else "ingredients"
    types = tuple(data().get("types", {}).get(kind) or ("ingredient",))
    other = "en" if lang == "zh" else "zh"
    cats = cat.labelled(x, section)
    if cats:
        c = cat.get(cats[0])
        return Constraint(kind, x, lang, {lang: x, other: c.label(other)}, categories=cats)
    m = link_thing(linker, x, types)
    if m.id:
        cats = cat.labelled(m.name, section)
        alt = m.name if has_cjk(m.name) == (other == "zh") else next(
            (e for e in bilingual.equivalents(m.name, types) if has_cjk(e) == (other == "zh")), "") or _other_lang_name(
            linker, m.id, other)
        labels = {lang: x, other: alt}
        return Constraint(kind, x, lang, {k: v for k, v in labels.items() if v}, categories=cats, ids=[m.id], names=[m.name])
    if known_only or kind in (data().get("needs_known") or ()):
        return None
    if (has_cjk(x) and len(x) >= 2) or (not has_cjk(x) and len(x) >= 3 and len(x.split()) <= 3):
        return Constraint(kind, x, lang, {lang: x})
    return None


def _diet(d: str, lang: str) -> Constraint | None:
    key = _rx()["diet_words"].get(name_key(d))
    if key is None:
        return None
    spec = data()["diets"][key]
    return Constraint("diet", d, lang, dict(spec.get("label") or {}), categories=list(spec.get("excludes") or []))


def _clause_constraints(clause: str, lang: str, linker: Linker) -> list[Constraint]:
    """The constraints stated by ``clause`` when it is wholly a constraint statement, else ``[]``."""
    body = _rx()["lead"].sub("", clause.strip()).strip(" \t.。!！")
    if not body:
        return []
    langs = [lang] + [x for x in ("zh", "en") if x != lang]
    for kind in KINDS:
        for lg in langs:
            for rx in _rx()["kinds"][kind].get(lg, []):
                m = rx.fullmatch(body)
                if not m:
                    continue
                g = m.groupdict()
                said = "zh" if has_cjk(body) else "en"
                if g.get("d"):
                    c = _diet(g["d"], said)
                    return [c] if c else []
                whole = _thing(g.get("x") or "", kind, said, linker, known_only=True)
                if whole is not None:  # "mortar and pestle" is one thing when the KB says so
                    return [whole]
                found = [c for part in _rx()["list"].split(g.get("x") or "") if part.strip()
                         for c in [_thing(part, kind, said, linker)] if c is not None]
                if found:
                    return found
    return []


def _modifiers(text: str, lang: str) -> list[Constraint]:
    """Transient constraints from words that limit this question only."""
    d = data()
    out: list[Constraint] = []
    for lg, rxs in _rx()["mods"].items():
        for rx in rxs:
            for m in rx.finditer(text):
                groups = {k: v for k, v in m.groupdict().items() if v}
                word = next(iter(groups.values()), m.group(0)).casefold()
                is_diet = any(k.startswith("d") for k in groups)
                dk = (d.get("modifier_diets") or {}).get(word, word) if is_diet else ""
                c = None
                if is_diet:
                    c = _diet(dk, lg)
                    if c is None and dk in (d.get("diets") or {}):
                        spec = d["diets"][dk]
                        c = Constraint("diet", word, lg, dict(spec.get("label") or {}), categories=list(spec.get("excludes") or []))
                else:
                    key = (d.get("modifier_categories") or {}).get(word)
                    if key:
                        cc = cat.get(key)
                        c = Constraint("dislike", word, lg, {"zh": cc.label("zh"), "en": cc.label("en")}, categories=[key])
                if c is not None and c.key not in {x.key for x in out}:
                    c.transient = True
                    out.append(c)
    return out


def _scope(text: str, linker: Linker) -> list[str]:
    """Recipe kinds the text names ("甜点", "desserts") outside any KB name."""
    taken = [(m.start, m.start + len(m.surface)) for m in linker.scan(text)]
    out = []
    for label, key in sorted(cat.label_words("recipes"), key=lambda p: -len(p[0])):
        rx = re.escape(label) if has_cjk(label) else rf"\b{re.escape(label)}\b"
        for m in re.finditer(rx, text, re.I):
            if any(a <= m.start() < b or a < m.end() <= b for a, b in taken):
                continue
            if key not in out:
                out.append(key)
            break
    return out


def detect(text: str, lang: str, linker: Linker) -> Detection:
    """Find the constraints ``text`` states (whole clauses such as
    "我对花生过敏", "we're vegetarian", "我家没有烤箱"), the transient limits
    of its question ("vegetarian", "不辣的") and the recipe kinds it names.
    ``lang`` is the message's language; ``linker`` links the named things to
    the KB. Never raises on odd input; returns an empty :class:`Detection`
    (``rest`` = the text) when nothing is found."""
    out = Detection(rest=text, question=text)
    if not text.strip():
        return out
    cut: list[tuple[int, int, bool]] = []
    keep_kinds = set(data().get("keep_in_question") or ())
    for a, b in _clauses(text):
        got = _clause_constraints(text[a:b], lang, linker)
        if got:
            cut.append((a, b, all(c.kind in keep_kinds for c in got)))
            for c in got:
                if c.key not in {x.key for x in out.constraints}:
                    out.constraints.append(c)
    if cut:
        out.rest = _without(text, [(a, b) for a, b, _ in cut])
        listing = _rx()["listq"].search(out.rest) if out.rest else None
        out.question = "" if not out.rest else out.rest if listing else _without(
            text, [(a, b) for a, b, kept in cut if not kept])
    question = out.question
    if question:
        out.transient = [c for c in _modifiers(question, lang) if c.key not in {x.key for x in out.constraints}]
        out.scope = _scope(question, linker)
    return out


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` without the clause ``spans``, its loose ends and filler trimmed
    (``""`` when nothing but filler remains)."""
    keep, last = [], 0
    for a, b in spans:
        keep.append(text[last:a])
        last = b
    keep.append(text[last:])
    rest = "".join(keep)
    rest = re.sub(r"^[\s，,。.;；:：!！—–-]+|[\s，,;；:：—–-]+$", "", rest)
    rest = re.sub(r"^(?:so|and|but|then|所以|那|那么|请问)\b[\s,，]*", "", rest, flags=re.I).strip()
    filler = r"(?:请|请你|麻烦|记住|记一下|记下|哦|哈|啊|呀|吧|谢谢|thanks|thank you|please|thx|ok|okay|[\s,，。.!！?？])*"
    return "" if re.fullmatch(filler, rest, re.I) else rest


def stored(state: "ThreadState") -> list[Constraint]:
    """The constraints remembered in ``state`` (unreadable entries skipped)."""
    return [c for c in (Constraint.from_dict(d) for d in state.constraints) if c is not None]


def remember(state: "ThreadState", found: Iterable[Constraint], limit: int = 20) -> list[Constraint]:
    """Add the stated constraints ``found`` to ``state`` (a repeated one is
    not added twice; at most ``limit`` are kept) and return the new ones."""
    have = {c.key for c in stored(state)}
    new = []
    for c in found:
        if c.transient or c.key in have:
            continue
        have.add(c.key)
        state.constraints.append(c.to_dict())
        new.append(c)
    state.constraints = state.constraints[-limit:]
    return new


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
    """"注意：宫保鸡丁用到熟花生、生花生（你对花生过敏）。" for a recipe that breaks constraints."""
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
    """``text`` with what the constraints did: a flag line for each of
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
    if lines:
        out = out + ("\n" if out else "") + "\n".join(lines)
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
