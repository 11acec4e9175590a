"""The structured answer: a public JSON contract (``threadgraph ask --json``).

Keep the field names and shapes stable; adapters render this and evaluation
scores it. The triple type :class:`Fact` (with its :class:`Source`) is the
one retrieval returns (:mod:`threadgraph.knowledge.facts`), re-exported here;
only its contract fields are serialized.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..knowledge.facts import Fact, Source

__all__ = ["Answer", "Citation", "EntityRef", "Fact", "Passage", "Source"]


class EntityRef(BaseModel):
    """An entity the answer is about (linked to the KB when ``id`` is set)."""

    name: str
    type: str = "unknown"
    id: str | None = None


class Passage(BaseModel):
    """One retrieved text chunk (a hit); ``score`` is the retriever's relevance
    (higher is better, scale depends on the retriever)."""

    id: str
    doc: str
    section: str = ""
    text: str
    score: float = 0.0
    line: int = 0


class Citation(BaseModel):
    """A short human source line shown under an answer: the document's
    ``title`` (with the section when it says more), the ``doc`` path, the
    ``section``, the 1-based ``line`` and the document's ``url`` (``None``
    when the document has no address)."""

    title: str
    doc: str
    section: str = ""
    line: int = 0
    url: str | None = None


class Answer(BaseModel):
    """What threadgraph replies.

    ``found`` is false when the KB holds no evidence; ``answer`` is text in the
    question's language; ``facts``/``passages`` are exactly the evidence used;
    ``follow_ups`` are suggested next questions (or "did you mean" candidates
    when nothing was found). ``sources`` (optional, added later: readers of
    older answers get ``[]``) are at most three short citations of that
    evidence, one per document, as adapters show them under the answer."""

    thread: str
    question: str
    intent: str
    found: bool
    answer: str
    language: str = "zh"
    entities: list[EntityRef] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    follow_ups: list[str] = Field(default_factory=list)
    sources: list[Citation] = Field(default_factory=list)
