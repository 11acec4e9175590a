"""Sections to ask about, and parsed facts anchored and mapped into triples.

:func:`_sections` turns the extraction's passages into :class:`_Section`
requests; :class:`_Mapper` anchors each fact's subject in its section or
document, resolves names to entities and merges the triples under the rule
facts."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Sequence

from ...knowledge.records import Entity, Extraction, Provenance, Triple, entity_id
from ...knowledge.text import DictLinker, detect_language, has_cjk, name_key
from ..document import ParsedDocument
from ..items import is_tool
from ..normalize import Normalizer, clean_name
from .report import LLMExtractReport
from .schema import CONFIDENCE_CAP, USER_PROMPT, ExtractedFact

MIN_SECTION_CHARS = 8
"""Shorter sections are not sent (nothing to relate)."""
MAX_NAME_CHARS = 60
MAX_NAME_WORDS = 8
MAX_CJK_NAME_CHARS = 16
EXTRACTOR = "llm"

# --------------------------------------------------------------------------- sections


@dataclass
class _Section:
    doc: str
    title: str
    section: str
    text: str
    line: int
    end_line: int
    user: str = ""
    key: str = ""


def _sections(ex: Extraction, docs: Sequence[ParsedDocument]) -> list[_Section]:
    """One section per passage of ``ex.chunks`` (document order), with the
    source-line range it covers (up to the next passage of its document)."""
    titles = {d.rel: d.title for d in docs}
    by_doc: dict[str, list] = {}
    for c in ex.chunks:
        by_doc.setdefault(c.doc, []).append(c)
    out = []
    for doc, chunks in by_doc.items():
        chunks = sorted(chunks, key=lambda c: c.line)
        for i, c in enumerate(chunks):
            if len(c.text.strip()) < MIN_SECTION_CHARS:
                continue
            end = chunks[i + 1].line - 1 if i + 1 < len(chunks) and chunks[i + 1].line > c.line else 10**9
            title = titles.get(doc, ex.documents.get(doc, ""))
            s = _Section(doc, title, c.section, c.text, c.line, end)
            s.user = USER_PROMPT.format(title=title or doc, section=c.section or "(top)", text=c.text)
            out.append(s)
    return out


# --------------------------------------------------------------------------- anchoring and mapping


def _key_text(text: str) -> str:
    return DictLinker.key(text)


_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


@functools.lru_cache(maxsize=8192)
def _name_keys(name: str) -> tuple[str, ...]:
    """The normalized forms of ``name``: as written, and with an English plural folded."""
    return tuple(k for k in dict.fromkeys([DictLinker.key(name), name_key(name)]) if k)


def _bounded(hay: str, start: int, end: int, k: str) -> bool:
    """True when ``hay[start:end]`` (== ``k``) does not start or end inside a
    Latin word; a plural ending (``s``/``es``) may follow."""
    if k[0] in _ALNUM and start > 0 and hay[start - 1] in _ALNUM:
        return False
    if k[-1] in _ALNUM:
        for tail in ("", "s", "es"):
            if hay.startswith(tail, end) and (end + len(tail) >= len(hay) or hay[end + len(tail)] not in _ALNUM):
                return True
        return False
    return True


def _has_name(hay: str, name: str) -> bool:
    """True when normalized ``hay`` (see :func:`_key_text`) contains ``name``
    (normalized; Latin names on word boundaries, an English plural allowed)."""
    for k in _name_keys(name):
        at = hay.find(k)
        while at != -1:
            if _bounded(hay, at, at + len(k), k):
                return True
            at = hay.find(k, at + 1)
    return False


_SENTENCE_MARK = re.compile(r"[。！？；!?;\n]")

#: Entity types a subject may link to, per relation (first = the type of a new entity).
_SUBJECT_TYPES = {
    "substitutes": ("ingredient", "tool", "role", "artifact", "concept"),
    "contains": ("recipe",),
    "stand_in": ("role", "concept", "tool", "artifact"),
    "fallback": ("tool", "artifact", "concept", "role"),
    "responsible_for": ("role",),
}


class _Mapper:
    """Turns parsed facts into triples for one extraction (main thread only)."""

    def __init__(self, ex: Extraction, docs: Sequence[ParsedDocument], norm: Normalizer, report: LLMExtractReport):
        self.ex, self.norm, self.report = ex, norm, report
        self.docs = {d.rel: d for d in docs}
        self.linker: DictLinker[str] = DictLinker()
        for e in ex.entities.values():
            self._register(e)
        self.recipes_of: dict[str, list[str]] = {}
        for e in ex.entities.values():
            if e.type == "recipe" and e.doc:
                self.recipes_of.setdefault(e.doc, []).append(e.id)
        self.seen = {(t.subject, t.relation, t.object, t.provenance.doc) for t in ex.triples}
        self.order: dict[str, int] = {}
        for t in ex.triples:
            if t.relation == "CONTAINS":
                self.order[t.subject] = max(self.order.get(t.subject, 0), int(t.properties.get("order", 0) or 0))
        self._doc_hay: dict[str, str] = {}
        self._sec_hay: dict[tuple, str] = {}
        self._blocks: dict[str, list[tuple[int, str]]] = {}

    def _register(self, e: Entity) -> None:
        if e.type in ("document", "section", "step"):
            return
        for s in (e.name, *e.aliases):
            if s:
                self.linker.add(s, e.id)

    # -- text of a document --------------------------------------------------------
    def _lines(self, doc: str) -> list[tuple[int, str]]:
        """``(source line, normalized text)`` of every line of every block of ``doc``."""
        if doc not in self._blocks:
            d = self.docs.get(doc)
            rows: list[tuple[int, str]] = []
            if d is not None:
                for b in d.blocks:
                    for i, ln in enumerate(b.text.split("\n")):
                        if ln.strip():
                            rows.append((b.line + i, _key_text(ln)))
            self._blocks[doc] = rows
        return self._blocks[doc]

    def _hay(self, doc: str) -> str:
        if doc not in self._doc_hay:
            d = self.docs.get(doc)
            parts = [self.ex.documents.get(doc, "")]
            if d is not None:
                parts += [d.title, d.h1, *(str(v) for v in d.front_matter.values())]
            keys = [_key_text(p) for p in parts if p] + [t for _, t in self._lines(doc)]
            self._doc_hay[doc] = "\n".join(keys)
        return self._doc_hay[doc]

    def section_text(self, s: _Section) -> str:
        """Normalized heading path and text of section ``s`` (computed once)."""
        k = (s.doc, s.line, s.section)
        if k not in self._sec_hay:
            self._sec_hay[k] = _key_text(f"{s.section}\n{s.text}")
        return self._sec_hay[k]

    def anchored(self, s: _Section, names: Sequence[str]) -> bool:
        """True when the section (heading path and text) or its document names one of ``names``."""
        sec = self.section_text(s)
        return any(n and (_has_name(sec, n) or _has_name(self._hay(s.doc), n)) for n in names)

    def line_of(self, s: _Section, subj_names: Sequence[str], obj: str) -> int:
        """Source line of the fact: the first line of the section naming both
        subject and object, else the subject, else the object, else the
        section's first line."""
        rows = [(n, t) for n, t in self._lines(s.doc) if s.line <= n <= s.end_line]
        for want_obj, want_subj in ((True, True), (False, True), (True, False)):
            for n, t in rows:
                if want_subj and not any(_has_name(t, x) for x in subj_names if x):
                    continue
                if want_obj and not _has_name(t, obj):
                    continue
                return n
        return s.line

    # -- entities -------------------------------------------------------------------
    def _linked(self, name: str, types: Sequence[str]) -> Entity | None:
        ids = self.linker.get(name)
        for t in types:
            for i in ids:
                e = self.ex.entities.get(i)
                if e is not None and e.type == t:
                    return e
        return None

    def _new(self, name: str, type_: str, doc: str, line: int, lang: str) -> Entity | None:
        if not _plausible(name):
            return None
        canon = self.norm.canonical(name, type_, doc=doc, line=line) if type_ in ("ingredient", "tool", "role") \
            else clean_name(name, type_)
        if not canon or not _plausible(canon):
            return None
        have = self.ex.entities.get(entity_id(type_, canon)) or self._linked(canon, (type_,))
        if have is not None:
            return have
        return Entity(entity_id(type_, canon), canon, type_, [], detect_language(canon) or lang,
                      doc if type_ == "recipe" else "")

    def _kind(self, name: str) -> str:
        return "tool" if is_tool(clean_name(name, "ingredient")) else "ingredient"

    # -- one fact -------------------------------------------------------------------
    def add(self, s: _Section, f: ExtractedFact) -> None:
        """Anchor, map and merge one fact of section ``s`` (counts in the report)."""
        rel = f.relation
        subj_name, obj_name = f.subject.strip(), f.object.strip()
        if not subj_name or not obj_name:
            self.report.rejected += 1
            return
        doc = self.docs.get(s.doc)
        lang = doc.language if doc is not None else ""
        types = _SUBJECT_TYPES[rel]
        subj = self._linked(subj_name, types)
        names = [subj_name, clean_name(subj_name, "role")]
        if subj is not None:
            names += [subj.name, *subj.aliases]
        if not self.anchored(s, names):
            self.report.dropped_unanchored += 1
            return
        line = self.line_of(s, names, obj_name)
        new: list[Entity] = []
        if subj is None:
            if rel == "contains":
                subj = self._contains_subject(s, subj_name)
                if subj is not None and subj.id not in self.ex.entities:
                    new.append(subj)
            else:
                t = self._kind(subj_name) if rel == "substitutes" else types[0]
                subj = self._new(subj_name, t, s.doc, line, lang)
                if subj is not None and subj.id not in self.ex.entities:
                    new.append(subj)
        if subj is None:
            self.report.rejected += 1
            return
        if rel == "contains":
            obj_types: tuple[str, ...] = ("ingredient", "tool")
            default = self._kind(obj_name)
        elif rel == "responsible_for":
            obj_types, default = ("artifact", "concept"), "artifact"
        else:
            obj_types, default = (subj.type,), subj.type
        obj = self._linked(obj_name, obj_types)
        if obj is None:
            obj = self._new(obj_name, default, s.doc, line, lang)
            if obj is not None and obj.id not in self.ex.entities and all(obj.id != e.id for e in new):
                new.append(obj)
        if obj is None or obj.id == subj.id:
            self.report.rejected += 1
            return
        triple = self._triple(s, f, subj, obj, line)
        k = (triple.subject, triple.relation, triple.object, s.doc)
        if k in self.seen:
            self.report.duplicates += 1
            return
        self.seen.add(k)
        for e in new:
            self._register(self.ex.add_entity(e))
        if triple.relation == "CONTAINS":
            self.order[subj.id] = triple.properties["order"]
            ids = self.recipes_of.setdefault(s.doc, [])
            if subj.id not in ids:  # the document now states this recipe (a copy of it may live elsewhere)
                ids.append(subj.id)
        self.ex.triples.append(triple)
        self.report.facts += 1

    def _contains_subject(self, s: _Section, name: str) -> Entity | None:
        """The recipe a ``contains`` fact is about: a recipe of the document
        whose name (or alias) ``name`` is, or the document's only recipe when
        ``name`` is the document title; without any recipe in the document, a
        new recipe named after the title (not yet added) when ``name`` is the
        title. ``None`` otherwise."""
        title = (self.ex.documents.get(s.doc) or s.title or "").strip()
        k = name_key(name)
        ids = self.recipes_of.get(s.doc, [])
        for rid in ids:
            e = self.ex.entities[rid]
            if k in {name_key(x) for x in (e.name, *e.aliases) if x}:
                return e
        if not title or k != name_key(title):
            return None
        if len(ids) == 1:
            return self.ex.entities[ids[0]]
        if ids:
            return None
        return self.ex.entities.get(entity_id("recipe", title)) or Entity(
            entity_id("recipe", title), title, "recipe", [], detect_language(title) or "", s.doc)

    def _context(self, s: _Section) -> str:
        """The recipe a substitution in section ``s`` holds in: the document's
        only recipe, else the one recipe of the document the section names,
        else ``""``."""
        ids = self.recipes_of.get(s.doc, [])
        if len(ids) <= 1:
            return ids[0] if ids else ""
        sec = self.section_text(s)
        named = [i for i in ids if _has_name(sec, self.ex.entities[i].name)]
        return named[0] if len(named) == 1 else ""

    def _triple(self, s: _Section, f: ExtractedFact, subj: Entity, obj: Entity, line: int) -> Triple:
        prov = Provenance(s.doc, s.section, line, EXTRACTOR, round(min(f.confidence, CONFIDENCE_CAP), 3))
        if f.relation == "contains":
            props = {"required": True if f.required is None else bool(f.required), "amount": f.amount,
                     "order": self.order.get(subj.id, 0) + 1}
            return Triple(subj.id, "CONTAINS", obj.id, props, prov)
        if f.relation == "responsible_for":
            return Triple(subj.id, "RELATED", obj.id, {"predicate": "responsible_for"}, prov)
        props = {"context": self._context(s) if f.relation == "substitutes" else "",
                 "condition": f.condition, "symmetric": False}
        if f.amount:
            props["amount"] = f.amount
        return Triple(subj.id, "SUBSTITUTES", obj.id, props, prov)


def _plausible(name: str) -> bool:
    """A name, not a sentence: at most :data:`MAX_NAME_CHARS` characters
    (:data:`MAX_CJK_NAME_CHARS` in Chinese), :data:`MAX_NAME_WORDS` words, no
    sentence punctuation."""
    name = name.strip()
    if not name or len(name) > MAX_NAME_CHARS or _SENTENCE_MARK.search(name):
        return False
    if has_cjk(name):
        return len(name) <= MAX_CJK_NAME_CHARS
    return len(name.split()) <= MAX_NAME_WORDS
