"""The one triple type: a :class:`Fact` read from the graph, with its
:class:`Source`. Retrieval returns it, the intents compose from it and
``Answer.facts`` carries it as the public JSON contract (``id``, ``subject``,
``relation``, ``object``, ``properties``, ``source``); the ids of its ends, the
object's type and the confidence travel with it but are not serialized.
(Ingest builds its edges as :class:`~threadgraph.knowledge.records.Triple`,
keyed by entity ids, before they are stored.)
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class Source(BaseModel):
    """Where a fact was read: document path (relative to the ingest root),
    heading path and 1-based line."""

    doc: str
    section: str = ""
    line: int = 0


class Fact(BaseModel):
    """One graph triple with provenance. ``id`` is stable across runs for the
    same KB (``f-`` + 16 hex); ``subject``/``object`` are names; ``relation``
    is ``CONTAINS``, ``SUBSTITUTES`` or ``RELATED`` (a neighbourhood fact may
    carry another edge label); ``properties`` are relation-specific
    (``required``, ``amount``, ``context``, ``context_name``, ``condition``,
    ``symmetric``, ``predicate``, ``hop``, ``via``, ``text``, ``order``).

    Not serialized: ``subject_id``/``object_id`` (entity ids), ``object_type``
    (the object entity's type, when retrieved) and ``confidence`` in [0, 1]."""

    id: str
    subject: str
    relation: str
    object: str
    properties: dict = Field(default_factory=dict)
    source: Source
    subject_id: str = Field("", exclude=True)
    object_id: str = Field("", exclude=True)
    object_type: str = Field("", exclude=True)
    confidence: float = Field(1.0, exclude=True)

    @property
    def doc(self) -> str:
        """The source document (``source.doc``)."""
        return self.source.doc

    @property
    def section(self) -> str:
        """The source heading path (``source.section``)."""
        return self.source.section

    @property
    def line(self) -> int:
        """The 1-based source line (``source.line``, 0 when unknown)."""
        return self.source.line
