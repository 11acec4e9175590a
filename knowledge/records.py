"""Plain records exchanged between ingest and the knowledge stores.

Ingest produces these; :mod:`threadgraph.knowledge.graph` and
:mod:`threadgraph.knowledge.vectors` store them. They are dataclasses (not
pydantic) because a full corpus yields tens of thousands of them.

Entity ids are ``"{type}:{canonical name}"`` (e.g. ``"ingredient:X"``,
``"recipe:Y"``, ``"role:Z"``), so the same thing named
in two documents is one node. Use :func:`entity_id` to build them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

EntityType = Literal[
    "recipe", "ingredient", "tool", "document", "section", "step", "role", "artifact", "concept"
]
Relation = Literal["CONTAINS", "SUBSTITUTES", "RELATED"]


def entity_id(type_: str, name: str) -> str:
    """Canonical id of an entity: ``"{type}:{name}"`` with ``name`` stripped."""
    return f"{type_}:{name.strip()}"


def stable_id(*parts: object, prefix: str = "") -> str:
    """A short deterministic id (sha1 of the parts, 16 hex chars), so re-ingesting
    the same input yields the same ids."""
    digest = hashlib.sha1("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:16]
    return f"{prefix}{digest}"


PAGE_LINES = 1000
"""Paged formats (PDF) record ``line = page × PAGE_LINES + line on the page``."""


def page_line(page: int, line: int) -> int:
    """The ``line`` recorded for line ``line`` (1-based) of page ``page`` of a
    paged document (PDF): ``page × 1000 + line``."""
    return page * PAGE_LINES + min(line, PAGE_LINES - 1)


def cite(doc: str, line: int = 0) -> str:
    """How a source position reads in a citation: ``"doc:12"``, for a PDF
    ``"doc p. 48"`` (its line holds the page, see :func:`page_line`), just
    ``"doc"`` without a line."""
    if not line:
        return doc
    if doc.lower().endswith(".pdf") and line >= PAGE_LINES:
        return f"{doc} p. {line // PAGE_LINES}"
    return f"{doc}:{line}"


@dataclass(slots=True)
class Provenance:
    """Where a fact came from: ``doc`` is the document path relative to the
    ingest root (posix), ``section`` the heading path (``"必备原料和工具 > 可选原料"``),
    ``line`` the 1-based source line, ``extractor`` the rule's name and
    ``confidence`` in [0, 1]."""

    doc: str
    section: str = ""
    line: int = 0
    extractor: str = ""
    confidence: float = 1.0


@dataclass(slots=True)
class Entity:
    """A graph node. ``type`` is one of :data:`EntityType`; ``aliases`` are other
    surface names that link to it; ``language`` is ``"zh"``, ``"en"`` or ``""``;
    ``doc`` is the defining document for recipes/documents/sections/steps
    (empty for shared things like ingredients and roles); ``text`` is the full
    text of a step (empty otherwise)."""

    id: str
    name: str
    type: str
    aliases: list[str] = field(default_factory=list)
    language: str = ""
    doc: str = ""
    text: str = ""


@dataclass(slots=True)
class Triple:
    """A typed edge ``subject -[relation]-> object`` between entity ids.

    ``properties`` by relation:

    * ``CONTAINS``: ``required`` (bool), ``amount`` (str, as written, e.g.
      ``"150g"``), ``order`` (int, position in the parent).
    * ``SUBSTITUTES``: ``context`` (entity id the substitution holds in, e.g.
      the recipe; ``""`` when general), ``condition`` (str, e.g. ``"没有时"`` /
      ``"if the incident is small"``), ``symmetric`` (bool).
    * ``RELATED``: ``predicate`` (str).
    """

    subject: str
    relation: str
    object: str
    properties: dict = field(default_factory=dict)
    provenance: Provenance = field(default_factory=lambda: Provenance(doc=""))

    @property
    def id(self) -> str:
        """Deterministic fact id (``f-`` + 16 hex chars)."""
        p = self.provenance
        ctx = self.properties.get("context", "") if self.relation == "SUBSTITUTES" else ""
        pred = self.properties.get("predicate", "") if self.relation == "RELATED" else ""
        return stable_id(self.subject, self.relation, self.object, ctx, pred, p.doc, p.line, prefix="f-")


@dataclass(slots=True)
class Chunk:
    """A passage for retrieval: ``text`` of one section (or part of a long one)
    of ``doc``, starting at source ``line``; ``entity_ids`` are the entities it
    MENTIONS (filled during loading when empty)."""

    id: str
    doc: str
    section: str
    text: str
    line: int = 0
    language: str = ""
    entity_ids: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Merge:
    """A normalization decision kept for review: ``surface`` was mapped to
    ``canonical`` by ``method`` (``alias``, ``clean`` or ``fuzzy``) with
    ``score`` (0-100 for fuzzy, 100 otherwise)."""

    surface: str
    canonical: str
    type: str
    method: str
    score: float = 100.0
    doc: str = ""
    line: int = 0


@dataclass(slots=True)
class SkippedFile:
    """A file that was not ingested: ``path``, 1-based ``line`` (0 when the
    whole file is bad) and a human ``reason``."""

    path: str
    reason: str
    line: int = 0


@dataclass
class Extraction:
    """Everything ingest found in a set of documents, ready to load.

    ``documents`` maps the relative doc path to its title; ``skipped`` lists
    files that were reported and not ingested; ``llm`` is the report of LLM
    extraction (:class:`threadgraph.ingest.llm_extract.LLMExtractReport`),
    ``None`` when it did not run."""

    entities: dict[str, Entity] = field(default_factory=dict)
    triples: list[Triple] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    merges: list[Merge] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    documents: dict[str, str] = field(default_factory=dict)
    llm: object | None = None

    def add_entity(self, entity: Entity) -> Entity:
        """Insert ``entity`` or merge its aliases into the existing node with the
        same id; returns the stored entity."""
        have = self.entities.get(entity.id)
        if have is None:
            self.entities[entity.id] = entity
            return entity
        for a in entity.aliases:
            if a not in have.aliases and a != have.name:
                have.aliases.append(a)
        if not have.text and entity.text:
            have.text = entity.text
        return have
