"""Detection and storage of thread-long constraints (see :mod:`threadgraph.bot.constraints`,
which re-exports every name here): :func:`detect` finds the allergies, diets, missing
equipment and dislikes a message states (patterns and words in
``bot/lexicon/constraints.yaml``); :class:`Constraint` is the stored record,
:func:`stored` / :func:`remember` read and extend :attr:`ThreadState.constraints`."""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Iterable

from ..knowledge import bilingual
from ..knowledge import categories as cat
from ..knowledge.text import has_cjk, name_key
from . import words
from .linker import Linker, clean_slot, is_pronoun

if TYPE_CHECKING:  # pragma: no cover
    from .memory import ThreadState

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
