"""Loading: turn an :class:`~threadgraph.knowledge.records.Extraction` into a
complete knowledge-base build (Kùzu graph + LanceDB passages + manifest) beside
the live one, then swap it in atomically.

An ingest killed at any point leaves the previous KB in place (see
:mod:`threadgraph.knowledge.kb`).
"""

from __future__ import annotations

import csv
import hashlib
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from ..knowledge import kb as kbmod
from ..knowledge.graph import GraphStore
from ..knowledge.records import Extraction, SkippedFile
from ..knowledge.vectors import VectorStore

log = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``; called as work advances."""


@dataclass
class IngestReport:
    """What an ingest did: ``documents`` read, ``counts`` per table
    (``CONTAINS``, ``SUBSTITUTES``, ``RELATED``, ``MENTIONS``, ``Chunk``…)
    and ``entity_types`` per entity type, ``skipped`` files with path, line
    and reason, ``warnings`` (e.g. no embedding model), ``seconds`` wall time
    of building and publishing, ``build`` the published folder,
    ``embedding_model`` its name (None: full-text only) and ``review`` the
    counts of an applied ``--graph-csv`` review (None when none was) and
    ``llm`` the :class:`~.llm_extract.LLMExtractReport` of LLM extraction
    (calls, tokens, cache hits, dropped and unparsable; None when it was off)."""

    documents: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    entity_types: dict[str, int] = field(default_factory=dict)
    skipped: list[SkippedFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    build: Path | None = None
    embedding_model: str | None = None
    review: dict[str, int] | None = None
    llm: object | None = None

    @property
    def ok(self) -> bool:
        """True when no input file failed."""
        return not self.skipped


def _fingerprint(paths: Sequence[Path]) -> str:
    h = hashlib.sha1()
    for p in sorted(str(Path(x).resolve()) for x in paths):
        h.update(p.encode())
    return h.hexdigest()[:16]


def build_kb(
    extraction: Extraction,
    data_dir: Path,
    *,
    embedder=None,
    embedder_error: str | None = None,
    inputs: Sequence[Path] = (),
    batch_size: int = 16,
    progress: Progress | None = None,
) -> IngestReport:
    """Write ``extraction`` as a new build under ``data_dir`` and publish it.

    ``embedder`` (an :class:`~threadgraph.knowledge.embeddings.Embedder`) embeds
    chunks and entity names; when it is None the graph and the full-text index
    are still built and ``embedder_error`` is reported as a warning.
    Returns an :class:`IngestReport`.
    """
    started = time.perf_counter()
    report = IngestReport(documents=len(extraction.documents), skipped=list(extraction.skipped))
    if embedder_error:
        report.warnings.append(embedder_error)
    report.llm = extraction.llm
    if extraction.llm is not None:
        report.warnings.extend(getattr(extraction.llm, "warnings", []))
    tmp, final = kbmod.new_build_dir(data_dir)
    entities = sorted(extraction.entities.values(), key=lambda e: e.id)
    chunks = sorted(extraction.chunks, key=lambda c: (c.doc, c.line, c.id))
    triples = sorted(extraction.triples, key=lambda t: t.id)

    chunk_vecs = ent_vecs = None
    linkable = [e for e in entities if e.type not in ("section", "step")]
    if embedder is not None:
        from ..knowledge.embeddings import EmbeddingCache

        cache = EmbeddingCache(Path(data_dir) / "cache" / "embeddings.sqlite")
        try:
            texts = [f"{c.section}\n{c.text}" if c.section else c.text for c in chunks]
            chunk_vecs = cache.embed(
                embedder, texts, batch_size=batch_size,
                progress=(lambda d, t: progress("embedding passages", d, t)) if progress else None,
            )
            ent_vecs = cache.embed(embedder, [e.name for e in linkable], kind="query") if linkable else None
        finally:
            cache.close()
        report.embedding_model = embedder.name

    if progress:
        progress("writing graph", 0, 1)
    counts = GraphStore.build(tmp / "graph.kuzu", entities, triples, chunks)
    if progress:
        progress("writing graph", 1, 1)
        progress("writing passages", 0, 1)
    VectorStore.build(tmp / "vectors", chunks, chunk_vecs, linkable, ent_vecs)
    if progress:
        progress("writing passages", 1, 1)
    _write_merges(tmp / "merges.csv", extraction)
    types: dict[str, int] = {}
    for e in entities:
        types[e.type] = types.get(e.type, 0) + 1
    report.counts = counts
    report.entity_types = dict(sorted(types.items()))
    kbmod.write_manifest(
        tmp,
        {
            "embedding_model": embedder.name if embedder is not None else None,
            "dim": embedder.dim if embedder is not None else None,
            "embedding_model_path": str(embedder.path.resolve()) if embedder is not None and embedder.path else None,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "counts": counts,
            "entity_types": report.entity_types,
            "documents": report.documents,
            "inputs": [str(Path(p).resolve()) for p in inputs],
            "inputs_fingerprint": _fingerprint(inputs),
            "skipped": [{"path": s.path, "line": s.line, "reason": s.reason} for s in report.skipped],
        },
    )
    report.build = kbmod.publish_build(data_dir, tmp, final)
    report.seconds = time.perf_counter() - started
    return report


def _write_merges(path: Path, extraction: Extraction) -> None:
    """Normalization decisions for human review (``surface → canonical``)."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["surface", "canonical", "type", "method", "score", "doc", "line"])
        for m in sorted(extraction.merges, key=lambda m: (m.type, m.canonical, m.surface, m.doc, m.line)):
            w.writerow([m.surface, m.canonical, m.type, m.method, f"{m.score:.1f}", m.doc, m.line])
