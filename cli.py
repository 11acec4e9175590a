"""The ``threadgraph`` command line (typer + rich).

Commands: ``ingest``, ``export-graph``, ``ask``, ``chat``, ``demo``,
``serve``, ``eval``. Exit codes: 0 success, 1 some input failed or an answer
could not be produced, 2 usage or configuration error.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from .settings import Settings

app = typer.Typer(add_completion=False, no_args_is_help=True, help="threadgraph: Graph-RAG answers for chat threads.")
console = Console(stderr=True)
out = Console()


def _settings(data_dir: Optional[Path]) -> Settings:
    s = Settings()
    if data_dir is not None:
        s = s.model_copy(update={"data_dir": data_dir})
    return s


def _logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


def run_ingest(paths: list[Path], settings: Settings, *, graph_csv: Path | None = None, show_progress: bool = True):
    """Extract, embed and load ``paths`` into ``settings.data_dir``; returns the
    :class:`~threadgraph.ingest.load.IngestReport`. Shared by ``ingest`` and ``demo``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .ingest.load import build_kb
    from .ingest.pipeline import extract_corpus
    from .knowledge.embeddings import EmbeddingUnavailable, load_embedder

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, disable=not show_progress, transient=True,
    ) as bar:
        tasks: dict[str, int] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=max(total, 1))
            bar.update(tasks[stage], completed=done, total=max(total, 1))

        def file_progress(path: str, done: int = 0, total: int = 0) -> None:
            progress("reading documents", done, total)

        extraction = extract_corpus(list(paths), settings=settings, progress=file_progress)
        if graph_csv is not None:
            from .ingest.review import apply_review

            stats = apply_review(extraction, graph_csv)
            console.print(f"applied review from {graph_csv}: {stats}")
        embedder, err = None, None
        try:
            embedder = load_embedder(settings)
        except EmbeddingUnavailable as exc:
            err = f"no embedding model: {exc} — built the graph and full-text index without vectors"
        return build_kb(
            extraction, settings.data_dir, embedder=embedder, embedder_error=err, inputs=paths,
            batch_size=settings.embedding_batch_size, progress=progress,
        )


def print_report(report) -> None:
    """Render an ingest report as a rich table on stderr."""
    t = Table(title="threadgraph ingest", show_header=False)
    t.add_row("documents", str(report.documents))
    for typ, n in report.entity_types.items():
        t.add_row(f"entities: {typ}", str(n))
    for key in ("CONTAINS", "SUBSTITUTES", "RELATED", "MENTIONS", "Chunk"):
        t.add_row("chunks" if key == "Chunk" else key, str(report.counts.get(key, 0)))
    t.add_row("embedding model", report.embedding_model or "none (full-text only)")
    t.add_row("skipped files", str(len(report.skipped)))
    t.add_row("seconds", f"{report.seconds:.1f}")
    t.add_row("knowledge base", str(report.build))
    console.print(t)
    for s in report.skipped:
        where = f"{s.path}:{s.line}" if s.line else s.path
        console.print(f"[yellow]skipped[/yellow] {where}: {s.reason}")
    for w in report.warnings:
        console.print(f"[yellow]warning[/yellow] {w}")


@app.command()
def ingest(
    paths: list[Path] = typer.Argument(..., help="Files or folders to ingest (.md, .markdown, .txt)."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="KB folder (default THREADGRAPH_DATA_DIR or ./data)."),
    graph_csv: Optional[Path] = typer.Option(None, "--graph-csv", help="Apply a reviewed nodes.csv/edges.csv pair from this folder."),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Build the knowledge base from PATHS beside the live one, then swap it in."""
    _logging(verbose)
    missing = [p for p in paths if not p.exists()]
    if missing:
        console.print(f"[red]error[/red]: not found: {', '.join(map(str, missing))}")
        raise typer.Exit(2)
    settings = _settings(data_dir)
    from .ingest.review import ReviewError

    try:
        report = run_ingest(paths, settings, graph_csv=graph_csv, show_progress=sys.stderr.isatty())
    except ReviewError as exc:
        console.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(2)
    print_report(report)
    raise typer.Exit(0 if report.ok else 1)


@app.command("export-graph")
def export_graph_cmd(
    out_dir: Path = typer.Argument(..., help="Folder to write nodes.csv and edges.csv into."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir"),
) -> None:
    """Write the current KB's nodes and edges (with confidence and provenance) as CSV for review."""
    from .ingest.review import export_graph
    from .knowledge.graph import GraphStore
    from .knowledge.kb import KBNotFound, current_build

    settings = _settings(data_dir)
    try:
        build = current_build(settings.data_dir)
    except KBNotFound as exc:
        console.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(2)
    graph = GraphStore(build / "graph.kuzu", read_only=True)
    n, e = export_graph(graph, out_dir)
    graph.close()
    console.print(f"wrote {n} nodes and {e} edges to {out_dir}")


def main() -> None:  # pragma: no cover
    """Entry point for ``python -m threadgraph.cli``."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
