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
    """Settings from the environment with ``--data-dir`` applied; a data
    folder that is a file is a usage error (exit 2)."""
    from pydantic import ValidationError

    try:
        s = Settings()
    except ValidationError as exc:
        console.print(f"[red]error[/red]: invalid configuration: {exc}")
        raise typer.Exit(2)
    if data_dir is not None:
        s = s.model_copy(update={"data_dir": data_dir})
    if Path(s.data_dir).exists() and not Path(s.data_dir).is_dir():
        console.print(f"[red]error[/red]: data folder {s.data_dir} is a file, not a folder")
        raise typer.Exit(2)
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


def _open_bot(settings: Settings):
    """The bot over the KB in ``settings.data_dir``; a missing KB or an
    unusable embedding model is a usage error (exit 2)."""
    from .bot.core import ThreadGraphBot
    from .knowledge.embeddings import EmbeddingUnavailable
    from .knowledge.kb import KBHandle, KBNotFound, ModelMismatch

    handle = KBHandle(settings.data_dir, settings)
    try:
        handle.get()  # before anything is written into the data folder
    except (KBNotFound, ModelMismatch, EmbeddingUnavailable) as exc:
        console.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(2)
    return ThreadGraphBot(settings, kb=handle)


RETRIEVAL_HELP = "hybrid (graph + passages, default), graph (Cypher only) or vector (LanceDB hits only)."
#: Longest ``ask --jsonl`` input line (bytes); a longer line is an error and is skipped.
MAX_JSONL_LINE_BYTES = 1 << 20


def _jsonl_requests(stream, thread: str, retrieval: str):
    """Read ``ask --jsonl`` requests from the binary ``stream``, one per line.

    Yields ``(line number, request, error)`` for every non-blank line: ``request`` is
    ``{"thread": str, "text": str, "retrieval": str}`` (defaults ``thread`` and ``retrieval``
    from the command line) and ``error`` None, or ``request`` None and ``error`` a short reason
    that never quotes the input: a line over :data:`MAX_JSONL_LINE_BYTES`, not UTF-8, not JSON
    (including JSON nested too deeply to parse), not an object with a ``"text"`` string, an
    unknown ``retrieval``, or text/thread holding a lone surrogate (not encodable Unicode)."""
    import json

    from .bot.core import RETRIEVAL_MODES

    lineno = 0
    while True:
        raw = stream.readline(MAX_JSONL_LINE_BYTES + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > MAX_JSONL_LINE_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                raw = stream.readline(MAX_JSONL_LINE_BYTES)
            yield lineno, None, f"line longer than {MAX_JSONL_LINE_BYTES} bytes"
            continue
        if not raw.strip():
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield lineno, None, f"not UTF-8 (bad byte at offset {exc.start})"
            continue
        try:
            req = json.loads(line)
        except RecursionError:
            yield lineno, None, "JSON nested too deeply"
            continue
        except ValueError as exc:
            yield lineno, None, f"not JSON ({getattr(exc, 'msg', 'invalid')})"
            continue
        if not isinstance(req, dict) or not isinstance(req.get("text"), str):
            yield lineno, None, 'expected an object with a "text" string'
            continue
        mode = req.get("retrieval", retrieval)
        if mode not in RETRIEVAL_MODES:
            yield lineno, None, f"unknown retrieval (use {', '.join(RETRIEVAL_MODES)})"
            continue
        key = req.get("thread", thread)
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            yield lineno, None, '"thread" must be a string'
            continue
        key = str(key)
        try:
            req["text"].encode("utf-8")
            key.encode("utf-8")
        except UnicodeEncodeError:
            yield lineno, None, "text or thread holds a lone surrogate (not valid Unicode)"
            continue
        yield lineno, {"thread": key, "text": req["text"], "retrieval": mode}, None


@app.command()
def ask(
    question: Optional[str] = typer.Argument(None, help="The question (omit with --jsonl)."),
    thread: str = typer.Option("cli", "--thread", help="Thread key; memory persists across invocations with the same key."),
    as_json: bool = typer.Option(False, "--json", help="Print the Answer as JSON (the public contract)."),
    jsonl: bool = typer.Option(False, "--jsonl", help='Read {"thread": ..., "text": ...[, "retrieval": ...]} lines on stdin, write one answer JSON (or {"error": ..., "line": N}) per line.'),
    retrieval: str = typer.Option("hybrid", "--retrieval", help=RETRIEVAL_HELP),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir"),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Answer one question (or a stream of JSON lines) from the knowledge base."""
    import json

    from .bot.core import RETRIEVAL_MODES
    from .bot.message import IncomingMessage, ThreadKey

    _logging(verbose)
    if retrieval not in RETRIEVAL_MODES:
        console.print(f"[red]error[/red]: --retrieval must be hybrid, graph or vector, not {retrieval!r}")
        raise typer.Exit(2)
    bot = _open_bot(_settings(data_dir))
    if jsonl:
        failed = 0
        for lineno, req, error in _jsonl_requests(sys.stdin.buffer, thread, retrieval):
            if error is None:
                try:
                    ans = bot.answer(IncomingMessage(thread=ThreadKey.parse(req["thread"]), text=req["text"]),
                                     retrieval=req["retrieval"])
                    print(ans.model_dump_json(), flush=True)
                    continue
                except Exception as exc:  # noqa: BLE001 - one bad line never ends the stream
                    logging.getLogger("threadgraph.cli").debug("stdin line %d failed", lineno, exc_info=True)
                    error = f"could not be answered ({type(exc).__name__})"
            failed += 1
            print(json.dumps({"error": f"stdin line {lineno}: {error}", "line": lineno}, ensure_ascii=False),
                  flush=True)
        raise typer.Exit(1 if failed else 0)
    if not question:
        console.print("[red]error[/red]: give a QUESTION or --jsonl")
        raise typer.Exit(2)
    ans = bot.answer(IncomingMessage(thread=ThreadKey.parse(thread), text=question), retrieval=retrieval)
    if as_json:
        print(ans.model_dump_json(indent=2))
    else:
        from .adapters.console import render_answer

        render_answer(out, ans)


@app.command()
def chat(
    thread: str = typer.Option("console", "--thread"),
    retrieval: str = typer.Option("hybrid", "--retrieval", help=RETRIEVAL_HELP),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir"),
) -> None:
    """A console conversation (/reset clears the thread's memory, /quit leaves)."""
    from .adapters.console import chat as run_chat

    _logging(False)
    run_chat(_open_bot(_settings(data_dir)), out, thread=thread, retrieval=retrieval)


DEMO_SCRIPT = [
    "宫保鸡丁没有手枪腿用什么代替？",
    "那干辣椒呢？",
    "宫保鸡丁需要哪些原料？",
    "西红柿炒鸡蛋一定要放糖吗？",
    "哪些菜用到花生？",
    "who can stand in for the Incident Commander?",
    "and the Scribe?",
]


@app.command()
def demo(
    data_dir: Optional[Path] = typer.Option(None, "--data-dir"),
    interactive: Optional[bool] = typer.Option(None, "--chat/--no-chat", help="Open chat after the script (default: when run in a terminal)."),
) -> None:
    """Ingest the bundled corpora if no KB exists, show a scripted conversation, then chat."""
    from .adapters.console import ask_and_render, chat as run_chat
    from .bot.message import ThreadKey
    from .knowledge.kb import KBNotFound, current_build, read_manifest

    _logging(False)
    settings = _settings(data_dir)
    corpora = Path(__file__).resolve().parent / "corpora"
    if not corpora.exists():
        corpora = Path("corpora")
    reason = None
    try:
        manifest = read_manifest(current_build(settings.data_dir))
        if manifest.get("embedding_model") is None and settings.embedding_model_path is not None:
            reason = "The knowledge base has no vectors and a model folder is now configured: re-ingesting with it"
    except KBNotFound:
        reason = "No knowledge base yet: ingesting"
    if reason:
        console.print(f"[bold]{reason} {corpora} (the first run embeds ~2,700 passages; later runs use the cache)…[/bold]")
        report = run_ingest([corpora], settings, show_progress=sys.stderr.isatty())
        print_report(report)
    bot = _open_bot(settings)
    import time as _time

    thread = ThreadKey(platform="console", thread=f"demo-{int(_time.time())}")
    for q in DEMO_SCRIPT:
        out.print(f"\n[bold cyan]you>[/bold cyan] {q}")
        ask_and_render(bot, out, thread, q)
    if interactive is None:
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        out.print()
        run_chat(bot, out, thread=thread.thread)


@app.command()
def serve(
    platforms: list[str] = typer.Argument(None, help="slack, telegram or all (default all configured)."),
    role: str = typer.Option("all", "--role", help="all, http (Events API + webhook) or worker (Socket Mode + polling)."),
    host: str = typer.Option("0.0.0.0", "--host"),
    port: Optional[int] = typer.Option(None, "--port", help="HTTP port (default $PORT, then the platform's setting)."),
    insecure_webhook: bool = typer.Option(False, "--insecure-webhook",
                                          help="Serve the Telegram webhook without THREADGRAPH_TELEGRAM_WEBHOOK_SECRET (accepts forged updates)."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir"),
) -> None:
    """Run the Slack and/or Telegram bot (HTTP endpoints, Socket Mode, long polling)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from .adapters.serve import install_log_redaction, serve as run_serve

    settings = _settings(data_dir)
    redactor = install_log_redaction(settings)
    bot = _open_bot(settings)
    try:
        run_serve(bot, settings, platforms=tuple(platforms or ["all"]), role=role, host=host, port=port,
                  insecure_webhook=insecure_webhook)
    except ValueError as exc:
        console.print(f"[red]error[/red]: {redactor.redact(str(exc))}")
        raise typer.Exit(2)
    except Exception:  # noqa: BLE001 - through the redacting log handler, never a raw traceback
        logging.getLogger("threadgraph.serve").exception("serve failed")
        raise typer.Exit(1)


@app.command("eval")
def eval_cmd(
    cases: list[Path] = typer.Argument(..., help="Case files (JSON lines) or folders of *.jsonl."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir"),
    retrieval: str = typer.Option("all", "--retrieval", help="hybrid, graph, vector or all (the three on the same cases)."),
    out_path: Optional[Path] = typer.Option(None, "--out", help="Write the report as JSON here."),
    show_failures: bool = typer.Option(False, "--failures", help="List each failed case and why."),
) -> None:
    """Score conversation cases per case set and retrieval mode (pass rate,
    not-found accuracy, latency p50/p95); exit 2 when a case file cannot be read."""
    import json
    import tempfile

    from .evaluation import MODES, CaseError, load_cases, run_eval
    from .bot.memory import ThreadMemory

    _logging(False)
    modes = list(MODES) if retrieval == "all" else [retrieval]
    if any(m not in MODES for m in modes):
        console.print(f"[red]error[/red]: --retrieval must be hybrid, graph, vector or all, not {retrieval!r}")
        raise typer.Exit(2)
    try:
        loaded = load_cases(cases)
    except (CaseError, FileNotFoundError) as exc:
        console.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(2)
    settings = _settings(data_dir)
    bot = _open_bot(settings)
    with tempfile.TemporaryDirectory(prefix="threadgraph-eval-") as tmp:
        bot.memory = ThreadMemory(Path(tmp) / "memory.sqlite")  # eval threads never touch the KB's memory
        report = run_eval(bot, loaded, modes, meta={"data_dir": str(settings.data_dir), "cases": [str(c) for c in cases]})
    sets = list(dict.fromkeys(s.set for s in report.stats))
    pct = lambda v: "-" if v is None else f"{100 * v:.0f}%"  # noqa: E731
    for set_name in sets:
        t = Table(title=f"threadgraph eval: {set_name}")
        for col in ("mode", "cases", "turns", "pass rate", "turn pass", "not-found acc", "found acc", "p50 ms", "p95 ms"):
            t.add_column(col, justify="left" if col == "mode" else "right")
        for m in modes:
            s = report.stat(set_name, m)
            t.add_row(m, str(s.cases), str(s.turns), f"{pct(s.pass_rate)} ({s.passed_cases})", pct(s.turn_pass_rate),
                      f"{pct(s.notfound_accuracy)} of {s.notfound_turns}", f"{pct(s.found_accuracy)} of {s.found_turns}",
                      f"{s.latency_p50_ms:.1f}", f"{s.latency_p95_ms:.1f}")
        out.print(t)
    if show_failures:
        for r in report.failures():
            bad = next(t for t in r.turns if not t.passed)
            why = "; ".join(filter(None, [
                f"missing {bad.missing}" if bad.missing else "",
                f"forbidden {bad.forbidden}" if bad.forbidden else "",
                "" if bad.found_ok else f"found={bad.found_got} (expected {bad.found_expected})",
            ]))
            out.print(f"[red]FAIL[/red] {r.mode:6} {r.id}: {bad.text!r} -> {why}")
    if out_path is not None:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
        console.print(f"wrote {out_path}")


def main() -> None:  # pragma: no cover
    """Entry point for ``python -m threadgraph.cli``."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
