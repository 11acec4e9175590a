"""Categories of names — meat, dairy, nuts, spicy, staples, "an oven", desserts —
as data (``knowledge/lexicon/categories.yaml``), applied to a knowledge base's
own names.

A name belongs to a category when its :func:`~threadgraph.knowledge.text.name_key`
is one of the category's ``members`` or matches one of its ``patterns``
(shell-style ``*`` / ``?``), is not one of its ``except`` entries (names or
patterns), or belongs to a category it ``includes``. Recipe kinds also match on
a folder of the recipe's source document (``folders``). ``labels`` are the
words people use for a category ("肉", "dairy", "甜点").

:class:`CategoryIndex` maps every category to the ids of a KB's entities in it
(built once per KB build; :func:`index_for`).
"""

from __future__ import annotations

import fnmatch
import functools
import re
import threading
from dataclasses import dataclass
from typing import Iterable

from .text import has_cjk, lexicon, name_key, normalize

#: The sections of the data file and the entity types their categories apply to.
KINDS: dict[str, tuple[str, ...]] = {"ingredients": ("ingredient",), "tools": ("tool",), "recipes": ("recipe",)}


@dataclass(frozen=True)
class Category:
    """One category of the table: ``key`` (e.g. ``"meat"``), ``kind``
    (``ingredients``, ``tools`` or ``recipes``), ``labels`` per language,
    ``includes`` (other category keys), ``folders`` (recipe kinds: document
    folders) and ``interchangeable`` (its members stand for each other when a
    cook says what they have)."""

    key: str
    kind: str
    labels: dict[str, tuple[str, ...]]
    includes: tuple[str, ...]
    folders: tuple[str, ...]
    interchangeable: bool
    _members: frozenset[str]
    _match: re.Pattern | None
    _except_names: frozenset[str]
    _except: re.Pattern | None

    def direct(self, key: str) -> bool:
        """``key`` (a :func:`name_key`) is listed or matches a pattern, and is not excepted."""
        if self.excepted(key):
            return False
        return key in self._members or (self._match is not None and self._match.fullmatch(key) is not None)

    def excepted(self, key: str) -> bool:
        """``key`` is one of the category's ``except`` names or patterns."""
        return key in self._except_names or (self._except is not None and self._except.fullmatch(key) is not None)

    def label(self, lang: str) -> str:
        """The first label in ``lang`` (else the key)."""
        return (self.labels.get(lang) or self.labels.get("en") or (self.key,))[0]


def _pattern(items: list[str]) -> re.Pattern | None:
    pats = [fnmatch.translate(normalize(p)) for p in items if any(ch in p for ch in "*?[")]
    if not pats:
        return None
    # fnmatch.translate gives "(?s:...)\Z"; strip the anchor so fullmatch does the anchoring
    return re.compile("|".join(p.replace("\\Z", "") for p in pats))


@functools.lru_cache(maxsize=1)
def table() -> dict[str, Category]:
    """Every category of ``lexicon/categories.yaml`` by key (cached). Raises
    ``ValueError`` when two sections define one key or an ``includes`` names
    an unknown category."""
    data = lexicon("categories") or {}
    out: dict[str, Category] = {}
    for kind in KINDS:
        for key, spec in (data.get(kind) or {}).items():
            if key in out:
                raise ValueError(f"category {key!r} is defined twice in categories.yaml")
            spec = spec or {}
            members = [str(m) for m in spec.get("members") or []]
            excepts = [str(m) for m in spec.get("except") or []]
            labels = {lang: tuple(str(x) for x in words) for lang, words in (spec.get("labels") or {}).items()}
            out[key] = Category(
                key=key, kind=kind, labels=labels,
                includes=tuple(spec.get("includes") or ()),
                folders=tuple(str(f).casefold() for f in spec.get("folders") or ()),
                interchangeable=bool(spec.get("interchangeable", False)),
                _members=frozenset(name_key(m) for m in members if not any(ch in m for ch in "*?[")),
                _match=_pattern([str(p) for p in spec.get("patterns") or []]),
                _except_names=frozenset(name_key(m) for m in excepts if not any(ch in m for ch in "*?[")),
                _except=_pattern(excepts),
            )
    for c in out.values():
        bad = [k for k in c.includes if k not in out]
        if bad:
            raise ValueError(f"category {c.key!r} includes unknown categories {bad}")
    return out


def get(key: str) -> Category:
    """The category ``key``. Raises ``KeyError`` for an unknown key."""
    return table()[key]


@functools.lru_cache(maxsize=1)
def _labels() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in table().values():
        for words in c.labels.values():
            for w in words:
                out.setdefault(name_key(w), [])
                if c.key not in out[name_key(w)]:
                    out[name_key(w)].append(c.key)
    return out


def labelled(text: str, kind: str | None = None) -> list[str]:
    """Keys of the categories (of ``kind`` when given) one of whose labels is
    ``text`` (after normalization), in table order; ``[]`` when none."""
    keys = _labels().get(name_key(text), [])
    return [k for k in keys if kind is None or table()[k].kind == kind]


def bare_label(text: str) -> str:
    """``text`` without the quantifiers that open it ("any X" → "X", "任何X" → "X";
    ``label_quantifiers`` of knowledge/lexicon/categories.yaml); ``text`` when none opens it."""
    t = text.strip()
    for w in sorted(lexicon("categories").get("label_quantifiers") or [], key=len, reverse=True):
        w = str(w)
        if t.casefold().startswith(w.casefold()) and len(t) > len(w):
            rest = t[len(w):]
            if has_cjk(w) or rest[:1].isspace():
                return rest.strip()
    return t


def label_words(kind: str) -> list[tuple[str, str]]:
    """``(label, category key)`` for every label of the categories of ``kind``."""
    return [(w, c.key) for c in table().values() if c.kind == kind for words in c.labels.values() for w in words]


def belongs(key: str, name: str, doc: str = "", _seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``name`` (a KB name; ``doc`` its source document, for recipe
    kinds) is in category ``key``, directly or through ``includes``. Raises
    ``KeyError`` for an unknown key."""
    c = table()[key]
    k = name_key(name)
    if c.excepted(k):
        return False
    if c.direct(k):
        return True
    if c.folders and doc:
        parts = [p.casefold() for p in re.split(r"[\\/]", doc)[:-1]]
        if any(f in parts for f in c.folders):
            return True
    return any(belongs(sub, name, doc, _seen | {key}) for sub in c.includes if sub not in _seen)


def categories_of(name: str, kind: str = "ingredients", doc: str = "") -> list[str]:
    """Keys of every category of ``kind`` that ``name`` belongs to, in table order."""
    return [k for k, c in table().items() if c.kind == kind and belongs(k, name, doc)]


class CategoryIndex:
    """The ids of a KB's entities in each category. ``entities`` are
    ``(id, name, type, doc)`` tuples (one per entity; aliases are not needed:
    the canonical name decides)."""

    def __init__(self, entities: Iterable[tuple[str, str, str, str]]):
        self._ids: dict[str, frozenset[str]] = {}
        self.names: dict[str, str] = {}
        self._keys: dict[str, str] = {}
        self.types: dict[str, str] = {}
        by_kind: dict[str, list[tuple[str, str, list[str]]]] = {k: [] for k in KINDS}
        for eid, name, etype, doc in entities:
            if eid in self.names:
                continue
            self.names[eid] = name
            self.types[eid] = etype
            self._keys[eid] = k = name_key(name)
            folders = [p.casefold() for p in re.split(r"[\\/]", doc)[:-1]] if doc else []
            for kind, types in KINDS.items():
                if etype in types:
                    by_kind[kind].append((eid, k, folders))
        direct: dict[str, set[str]] = {}
        for key, c in table().items():
            ids = set()
            for eid, k, folders in by_kind[c.kind]:
                if c.direct(k) or (c.folders and any(f in folders for f in c.folders) and not c.excepted(k)):
                    ids.add(eid)
            direct[key] = ids

        def close(key: str, seen: frozenset[str]) -> set[str]:
            c = table()[key]
            ids = set(direct[key])
            for sub in c.includes:
                if sub not in seen:
                    ids |= {i for i in close(sub, seen | {key}) if not c.excepted(self._keys.get(i, ""))}
            return ids

        for key in table():
            self._ids[key] = frozenset(close(key, frozenset()))

    def key(self, eid: str) -> str:
        """The :func:`name_key` of entity ``eid``'s name (``""`` when unknown)."""
        return self._keys.get(eid, "")

    def ids(self, key: str) -> frozenset[str]:
        """Ids of the KB's entities in category ``key`` (empty for an unknown key)."""
        return self._ids.get(key, frozenset())

    def containing(self, term: str, types: tuple[str, ...]) -> set[str]:
        """Ids of the entities of ``types`` whose name contains ``term`` (a
        :func:`name_key`): as a substring for Chinese (two characters or more;
        a one-character term only as the whole name), as whole words for
        Latin script."""
        if not term:
            return set()
        latin = term.isascii()
        out = set()
        for eid, k in self._keys.items():
            if self.types.get(eid) not in types:
                continue
            if k == term:
                out.add(eid)
            elif latin:
                if f" {term} " in f" {k} ":
                    out.add(eid)
            elif len(term) >= 2 and term in k:
                out.add(eid)
        return out


_INDEXES: dict[str, CategoryIndex] = {}
_LOCK = threading.Lock()


def index_for(build_key: str, entities: Iterable[tuple[str, str, str, str]]) -> CategoryIndex:
    """The :class:`CategoryIndex` of the KB build ``build_key`` (built from
    ``entities`` on first use, then reused; a few builds are kept)."""
    idx = _INDEXES.get(build_key)
    if idx is None:
        with _LOCK:
            idx = _INDEXES.get(build_key)
            if idx is None:
                idx = CategoryIndex(entities)
                if len(_INDEXES) >= 4:
                    _INDEXES.clear()
                _INDEXES[build_key] = idx
    return idx
