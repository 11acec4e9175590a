"""Corpus-level merging: what is one thing stays one thing.

Three steps the pipeline runs around the extractors:

* :func:`document_units` — a file whose reader found several records that are
  documents of their own (the recipes of a JSON array, see
  :class:`~.document.Part`) is extracted record by record.
* :func:`merge_duplicate_facts` — a recipe that exists in two files (same
  name, or names with one :func:`~..knowledge.text.name_key`: one ``recipe``
  node, see :func:`merge_recipe_spellings`) is one recipe with both sources: its
  ``CONTAINS`` edges are not doubled (the first file's edge is kept, an
  amount only the other gives is carried over) and a ``SUBSTITUTES`` edge
  stated in both for that recipe is kept once; each extra source is recorded as a
  :class:`~..knowledge.records.Merge` (method ``"same name"``).
* :func:`merge_contained_names` — undeclared aliases: in one document, a
  shorter name of a person-like type (``lexicon/names.yaml``
  ``contained_alias``) contained in exactly one longer name of the same type
  ("Holmes", "Mr. Holmes", "Sherlock" / "Sherlock Holmes") is merged into it
  (method ``"contained"``) when every document that mentions it agrees; a
  modifier word ("Deputy Shift Lead" vs "Shift Lead"), a lower-case extra
  word ("internal stakeholders" vs "stakeholders") or a common noun against a
  capitalised name ("team" vs "Harbour Team Leader") keeps them apart.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

from ..knowledge.records import Entity, Extraction, Merge
from ..knowledge.text import has_cjk, name_key
from .cues import lexicon
from .document import Block, ParsedDocument

RECORD_FORMAT = "record"
"""``ParsedDocument.format`` of one record read as a document of its own."""


# --------------------------------------------------------------------------- units
def record_document(doc: ParsedDocument, index: int) -> ParsedDocument:
    """Part ``index`` of ``doc`` as a document of its own: its blocks (copied)
    with the record title out of heading paths and the title heading at
    level 1, ``h1``/``title`` the record's title, ``front_matter`` its title
    and url, ``format`` :data:`RECORD_FORMAT`, the same ``rel`` (provenance
    names the file). Raises ``IndexError`` for a part that does not exist."""
    part = doc.parts[index]
    src = doc.blocks[part.start:part.end]
    out: list[Block] = []
    for i, b in enumerate(src):
        nb = replace(b, cells=list(b.cells), bolds=list(b.bolds))
        nb.path = b.path[1:] if b.path[:1] == (part.title,) else b.path
        nb.parent = b.parent - part.start if part.start <= b.parent < part.end else -1
        if i == 0 and b.kind == "heading":
            nb.level, nb.path = 1, ()
        out.append(nb)
    meta = {"title": part.title} if part.title else {}
    if part.url:
        meta["url"] = part.url
    return ParsedDocument(doc.path, doc.rel, part.title or doc.title, part.title, out, meta, doc.language,
                          False, RECORD_FORMAT, url=part.url)


def document_units(doc: ParsedDocument) -> list[ParsedDocument]:
    """The documents the extractors see for ``doc``: ``[doc]`` itself, or,
    when its reader found records that are documents of their own
    (``doc.parts``), one :func:`record_document` per record, plus ``doc``
    itself when it also holds tables (its rows go to the table extractor)."""
    if not doc.parts:
        return [doc]
    units = [record_document(doc, i) for i in range(len(doc.parts))]
    if doc.tabular and any(t.records for t in doc.tables):
        units.append(doc)
    return units


# --------------------------------------------------------------------------- same recipe, two files
def merge_recipe_spellings(ex: Extraction) -> None:
    """Make recipes whose names differ only in spelling one node, in place:
    recipe entities with the same :func:`~..knowledge.text.name_key`
    (雞胸肉沙拉 / 鸡胸肉沙拉, "Pancakes" / "pancakes") keep the first one's id
    and name, the others' names become its aliases, their facts move over,
    and each is recorded as a :class:`Merge` (method ``"normalize"``)."""
    first: dict[str, Entity] = {}
    moved: dict[str, str] = {}
    for e in list(ex.entities.values()):
        if e.type != "recipe":
            continue
        k = name_key(e.name)
        have = first.setdefault(k, e)
        if have is e:
            continue
        moved[e.id] = have.id
        for a in [e.name, *e.aliases]:
            if a != have.name and a not in have.aliases:
                have.aliases.append(a)
        ex.merges.append(Merge(e.name, have.name, "recipe", "normalize", 100.0, e.doc, 0))
        del ex.entities[e.id]
    if moved:
        for t in ex.triples:
            t.subject = moved.get(t.subject, t.subject)
            t.object = moved.get(t.object, t.object)
            if t.relation == "SUBSTITUTES" and t.properties.get("context") in moved:
                t.properties["context"] = moved[t.properties["context"]]


def merge_duplicate_facts(ex: Extraction) -> None:
    """Merge, in place, the facts of one recipe found in several files.

    ``CONTAINS`` edges with the same subject and object (a recipe listing an
    ingredient in two files) are kept once — the first in document order —
    with an amount or ``required=False`` the dropped one adds carried over;
    ``SUBSTITUTES`` edges with the same ends in the same recipe are kept
    once (general ones, stated by several documents, keep each source). For
    every recipe with facts from more than one file, each further file is
    recorded in ``ex.merges`` (``surface`` = ``canonical`` = the recipe
    name, type ``recipe``, method ``"same name"``, doc/line of that file's
    first fact). Recipe spellings are merged first
    (:func:`merge_recipe_spellings`)."""
    merge_recipe_spellings(ex)
    kept: dict[tuple, object] = {}
    out = []
    sources: dict[str, dict[str, int]] = defaultdict(dict)
    for t in ex.triples:
        if t.relation == "CONTAINS" and t.subject.startswith("recipe:"):
            src = sources[t.subject]
            if t.provenance.doc not in src:
                src[t.provenance.doc] = t.provenance.line
            key = ("C", t.subject, t.object)
        elif t.relation == "SUBSTITUTES" and str(t.properties.get("context", "")).startswith("recipe:"):
            key = ("S", t.subject, t.object, t.properties["context"])
        else:
            out.append(t)
            continue
        have = kept.get(key)
        if have is None:
            kept[key] = t
            out.append(t)
            continue
        if t.relation == "CONTAINS":
            if t.properties.get("amount") and not have.properties.get("amount"):
                have.properties["amount"] = t.properties["amount"]
            if t.properties.get("required") is False:
                have.properties["required"] = False
    ex.triples[:] = out
    for rid, docs in sources.items():
        if len(docs) < 2:
            continue
        name = ex.entities[rid].name if rid in ex.entities else rid.split(":", 1)[1]
        for doc, line in list(docs.items())[1:]:
            ex.merges.append(Merge(name, name, "recipe", "same name", 100.0, doc, line))


# --------------------------------------------------------------------------- undeclared aliases
_NAMES = lexicon("names").get("contained_alias", {})
_ALIAS_TYPES = frozenset(_NAMES.get("types", []))
_HONORIFIC = re.compile(r"^(?:%s)\.?\s+|\s*(?:%s)$" % ("|".join(_NAMES.get("honorifics", []) or ["(?!)"]),
                                                       "|".join(_NAMES.get("honorific_suffixes", []) or ["(?!)"])), re.I)
_MODIFIERS = frozenset(w.lower() for w in _NAMES.get("modifiers", []))
_WORD = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*")


def _tokens(name: str) -> list[str]:
    return _WORD.findall(name)


def base_name(name: str) -> str:
    """``name`` without a leading honorific (``"Mr. Holmes"`` → ``"Holmes"``;
    ``contained_alias.honorifics`` of ``lexicon/names.yaml``)."""
    return _HONORIFIC.sub("", name).strip() or name.strip()


def contained_in(short: str, long: str) -> bool:
    """True when name ``short`` is a part of name ``long`` that can stand for
    it (both without honorifics): Latin — its words are a contiguous run of
    ``long``'s words, none written in lower case where ``long`` capitalises it
    (a common noun, ``team`` or ``manager``, is not the short form of
    ``Harbour Team Leader`` or ``Depot Manager``), and every other word of
    ``long`` is capitalised and not a modifier (``Holmes``/``Sherlock`` in
    ``Sherlock Holmes``, not ``Shift Lead`` in ``Deputy Shift Lead`` nor
    ``stakeholders`` in ``internal stakeholders``); CJK — ``long`` starts or
    ends with it (two characters or more) and the rest is not a modifier."""
    s, lg = base_name(short), base_name(long)
    if has_cjk(s) or has_cjk(lg):
        if len(s) < 2 or len(lg) <= len(s):
            return False
        rest = lg[len(s):] if lg.startswith(s) else (lg[:-len(s)] if lg.endswith(s) else None)
        return rest is not None and rest.strip() not in _MODIFIERS
    sw = _tokens(s)
    st, lt = [w.lower() for w in sw], _tokens(lg)
    if not st or len(lt) <= len(st):
        return False
    low = [w.lower() for w in lt]
    for i in range(len(lt) - len(st) + 1):
        if low[i:i + len(st)] == st:
            if any(w[:1].islower() and lw[:1].isupper() for w, lw in zip(sw, lt[i:i + len(st)])):
                return False  # a common noun ("the team") is not the short form of a capitalised name
            rest = lt[:i] + lt[i + len(st):]
            return all(w[:1].isupper() and w.lower() not in _MODIFIERS for w in rest)
    return False


def merge_contained_names(ex: Extraction) -> None:
    """Merge, in place, undeclared aliases within documents (see the module
    docstring). Per document, the entities of the ``contained_alias`` types
    it mentions (in its facts and passages) are grouped by their name without
    honorific (``Mr. Holmes`` and ``Holmes`` are one group); a group whose
    name is :func:`contained_in` exactly one maximal longer group of the same
    type merges into that group's longest name, a group of several names
    (honorific forms only) into its longest name without honorific. The
    merged entity's names become aliases of the kept one, every fact and
    passage link moves over, and a :class:`Merge` (method ``"contained"``) is
    recorded per merged name (doc and line: the first document, in sorted
    order, that mentions it). Since an entity is one node for the whole
    corpus, a name merges only when every document that mentions it decides
    the same target: a name ambiguous in one document (in two longer ones),
    or used in a document without any longer name holding it, stays its own
    node everywhere. Deterministic: documents and names in sorted order."""
    if not _ALIAS_TYPES:
        return
    per_doc: dict[str, dict[str, int]] = defaultdict(dict)
    for t in ex.triples:
        for eid in (t.subject, t.object):
            e = ex.entities.get(eid)
            if e is not None and e.type in _ALIAS_TYPES:
                per_doc[t.provenance.doc].setdefault(eid, t.provenance.line)
    for c in ex.chunks:
        for eid in c.entity_ids:
            e = ex.entities.get(eid)
            if e is not None and e.type in _ALIAS_TYPES:
                per_doc[c.doc].setdefault(eid, c.line)
    # an entity is one node for the whole corpus: a merge decided in one
    # document rewrites its facts in every document, so each document that
    # mentions the shorter name must decide the same target (vote per document)
    votes: dict[str, dict[str, tuple[str | None, int]]] = defaultdict(dict)  # eid -> doc -> (target id, line)
    for doc in sorted(per_doc):
        by_type: dict[str, dict[str, list[Entity]]] = defaultdict(lambda: defaultdict(list))
        for eid in sorted(per_doc[doc]):
            if eid not in ex.entities:
                continue
            e = ex.entities[eid]
            by_type[e.type][name_key(base_name(e.name))].append(e)
        for groups in by_type.values():
            def head(members: list[Entity]) -> Entity:
                plain = [m for m in members if base_name(m.name) == m.name.strip()]
                return max(plain or members, key=lambda m: (len(m.name), m.name))
            reps = {k: head(v) for k, v in groups.items()}
            keys = sorted(groups, key=lambda k: (len(base_name(reps[k].name)), k))
            for k in keys:
                short = base_name(reps[k].name)
                outer = [o for o in keys if o != k and contained_in(short, reps[o].name)]
                maximal = [o for o in outer if not any(o2 != o and contained_in(base_name(reps[o].name), reps[o2].name)
                                                       for o2 in outer)]
                target = reps[maximal[0]] if len(maximal) == 1 else (reps[k] if len(groups[k]) > 1 else None)
                if len(maximal) > 1:
                    target = None
                for e in groups[k]:
                    if target is None or e.id != target.id:
                        votes[e.id][doc] = (target.id if target is not None else None, per_doc[doc][e.id])
    moved: dict[str, str] = {}
    for eid in sorted(votes):
        targets = {t for t, _ in votes[eid].values()}
        if len(targets) != 1 or None in targets:
            continue  # ambiguous, or used on its own, in some document
        target = ex.entities[targets.pop()]
        moved[eid] = target.id
        e = ex.entities[eid]
        for a in [e.name, *e.aliases]:
            if a != target.name and a not in target.aliases:
                target.aliases.append(a)
        doc = min(votes[eid])
        ex.merges.append(Merge(e.name, target.name, e.type, "contained", 100.0, doc, votes[eid][doc][1]))
    if not moved:
        return

    def final(i: str) -> str:
        seen = set()
        while i in moved and i not in seen:
            seen.add(i)
            i = moved[i]
        return i

    for t in ex.triples:
        t.subject, t.object = final(t.subject), final(t.object)
    ex.triples[:] = [t for t in ex.triples if t.subject != t.object]
    for c in ex.chunks:
        c.entity_ids = list(dict.fromkeys(final(i) for i in c.entity_ids))
    for sid in moved:
        ex.entities.pop(sid, None)
