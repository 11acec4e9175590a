"""The ingest use cases the command line, the demo, tests and benchmarks call:
build a knowledge base from documents (:func:`run_ingest`) and export the
live graph for review (:func:`export_current_graph`). Nothing here prints;
progress goes to a callback.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..knowledge.embeddings import EmbeddingUnavailable, load_embedder
from ..knowledge.graph import GraphStore
from ..knowledge.kb import current_build
from .load import IngestReport, Progress, build_kb
from .pipeline import extract_corpus
from .review import apply_review, export_graph


def run_ingest(paths: Sequence[Path], settings, *, graph_csv: Path | None = None,
               progress: Progress | None = None) -> IngestReport:
    """Extract, embed and load ``paths`` (files and/or folders) into a new
    build under ``settings.data_dir`` (a :class:`~...settings.Settings`) and
    swap it in; returns the :class:`~.load.IngestReport`.

    ``graph_csv`` is a folder with a reviewed ``nodes.csv``/``edges.csv``
    pair applied to the extraction first (its counts go to
    ``report.review``); ``progress(stage, done, total)`` is called as work
    advances (stage ``"reading documents"`` per file, then embedding and
    writing stages). Without a usable embedding model the graph and the
    full-text index are still built and the reason is a report warning.
    Malformed files are reported in ``report.skipped`` (path, line, reason)
    and never stop the run. Raises :class:`~.review.ReviewError` for a bad
    review folder."""
    def file_progress(path: str, done: int = 0, total: int = 0) -> None:
        if progress is not None:
            progress("reading documents", done, total)

    extraction = extract_corpus(list(paths), settings=settings, progress=file_progress)
    review = apply_review(extraction, graph_csv) if graph_csv is not None else None
    embedder, err = None, None
    try:
        embedder = load_embedder(settings)
    except EmbeddingUnavailable as exc:
        err = f"no embedding model: {exc} — built the graph and full-text index without vectors"
    report = build_kb(
        extraction, settings.data_dir, embedder=embedder, embedder_error=err, inputs=list(paths),
        batch_size=settings.embedding_batch_size, progress=progress,
    )
    report.review = review
    return report


def export_current_graph(data_dir: Path, out_dir: Path) -> tuple[int, int]:
    """Write the live KB's ``nodes.csv`` and ``edges.csv`` (with confidence
    and provenance) into ``out_dir``; returns ``(nodes, edges)`` written.
    Raises :class:`~...knowledge.kb.KBNotFound` when ``data_dir`` holds no
    knowledge base."""
    graph = GraphStore(current_build(data_dir) / "graph.kuzu", read_only=True)
    try:
        return export_graph(graph, out_dir)
    finally:
        graph.close()
