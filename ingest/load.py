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
    ``embedding_model`` its name (None: full-text only) and ``embedding_model_path`` the
    local model folder it was loaded from (None: by name), ``review`` the
    counts of an applied ``--graph-csv`` review (None when none was), from
    ``review_dir``; ``llm`` the :class:`~.llm_extract.LLMExtractReport` of
    LLM extraction (calls, tokens, cache hits, dropped and unparsable; None
    when it was off). :func:`~.service.run_ingest` also fills ``sources`` (the
    manifest entries: path, prefix, documents, facts, passages, last
    ingest), ``added`` / ``updated`` / ``dropped`` source roots,
    :func:`~.service.remove_source` fills ``removed``; ``documents_before``
    is the previous KB's document count, ``timings`` seconds per stage
    (``read``, ``embed``, ``graph``, ``passages``) and ``embedded`` how many
    passages met the model (the rest came from the cache or were
    duplicates); ``unchanged`` is True when nothing was rebuilt because the
    current KB was built from exactly the same input (``build`` is then the
    current one)."""

    documents: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    entity_types: dict[str, int] = field(default_factory=dict)
    skipped: list[SkippedFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    build: Path | None = None
    embedding_model: str | None = None
    embedding_model_path: str | None = None
    review: dict[str, int] | None = None
    llm: object | None = None
    review_dir: Path | None = None
    sources: list[dict] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    documents_before: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    embedded: int = 0
    unchanged: bool = False

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
    extra_manifest: dict | None = None,
) -> IngestReport:
    """Write ``extraction`` as a new build under ``data_dir`` and publish it.

    ``embedder`` (an :class:`~threadgraph.knowledge.embeddings.Embedder`) embeds
    chunks and entity names; when it is None the graph and the full-text index
    are still built and ``embedder_error`` is reported as a warning.
    ``extra_manifest`` entries (sources, review folder) are written into the
    manifest. Returns an :class:`IngestReport`; on any error the unfinished
    build folder is deleted and the current KB stays as it was.
    """
    started = time.perf_counter()
    report = IngestReport(documents=len(extraction.documents), skipped=list(extraction.skipped))
    if embedder_error:
        report.warnings.append(embedder_error)
    report.llm = extraction.llm
    if extraction.llm is not None:
        report.warnings.extend(getattr(extraction.llm, "warnings", []))
    tmp, final = kbmod.new_build_dir(data_dir)
    try:
        _write_build(extraction, data_dir, tmp, report, embedder=embedder, inputs=inputs, batch_size=batch_size,
                     progress=progress, extra_manifest=extra_manifest or {})
        report.build = kbmod.publish_build(data_dir, tmp, final)
    except BaseException:
        kbmod.abandon_build(tmp)
        raise
    report.seconds = time.perf_counter() - started
    return report


def _write_build(extraction: Extraction, data_dir: Path, tmp: Path, report: IngestReport, *, embedder, inputs,
                 batch_size: int, progress: Progress | None, extra_manifest: dict) -> None:
    """Embed, write the graph, the passages and the manifest into ``tmp``."""
    entities = sorted(extraction.entities.values(), key=lambda e: e.id)
    chunks = sorted(extraction.chunks, key=lambda c: (c.doc, c.line, c.id))
    triples = sorted(extraction.triples, key=lambda t: t.id)

    chunk_vecs = ent_vecs = None
    linkable = [e for e in entities if e.type not in ("section", "step")]
    t0 = time.perf_counter()
    if embedder is not None:
        from ..knowledge.embeddings import EmbeddingCache

        cache = EmbeddingCache(Path(data_dir) / "cache" / "embeddings.sqlite")
        try:
            texts = [passage_text(c) for c in chunks]
            stats: dict[str, int] = {}
            chunk_vecs = cache.embed(
                embedder, texts, kind=getattr(embedder, "passage_kind", "passage"), batch_size=batch_size,
                progress=(lambda d, t: progress("embedding passages", d, t)) if progress else None, stats=stats,
            )
            ent_vecs = cache.embed(embedder, [e.name for e in linkable], kind="query", stats=stats) if linkable else None
            report.embedded = stats.get("embedded", 0)
        finally:
            cache.close()
        report.embedding_model = embedder.name
        report.embedding_model_path = str(embedder.path) if embedder.path else None
    report.timings["embed"] = round(time.perf_counter() - t0, 2)

    t0 = time.perf_counter()
    if progress:
        progress("writing graph", 0, 1)
    counts = GraphStore.build(tmp / "graph.kuzu", entities, triples, chunks)
    if progress:
        progress("writing graph", 1, 1)
        progress("writing passages", 0, 1)
    report.timings["graph"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    VectorStore.build(tmp / "vectors", chunks, chunk_vecs, linkable, ent_vecs)
    if progress:
        progress("writing passages", 1, 1)
    report.timings["passages"] = round(time.perf_counter() - t0, 2)
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
            "passage_tokens": getattr(embedder, "passage_tokens", None) if embedder is not None else None,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "counts": counts,
            "entity_types": report.entity_types,
            "documents": report.documents,
            "inputs": [str(Path(p).resolve()) for p in inputs],
            "inputs_fingerprint": _fingerprint(inputs),
            "skipped": [{"path": s.path, "line": s.line, "reason": s.reason} for s in report.skipped],
            **extra_manifest,
        },
    )


def passage_text(chunk) -> str:
    """The text a passage is embedded from: its heading path, then its text."""
    return f"{chunk.section}\n{chunk.text}" if chunk.section else chunk.text


def _write_merges(path: Path, extraction: Extraction) -> None:
    """Normalization decisions for human review (``surface → canonical``)."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["surface", "canonical", "type", "method", "score", "doc", "line"])
        for m in sorted(extraction.merges, key=lambda m: (m.type, m.canonical, m.surface, m.doc, m.line)):
            w.writerow([m.surface, m.canonical, m.type, m.method, f"{m.score:.1f}", m.doc, m.line])
