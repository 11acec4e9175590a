"""The ``threadgraph`` command line (typer + rich).

Commands: ``ingest``, ``sources``, ``remove``, ``export-graph``, ``ask``,
``chat``, ``demo``, ``serve``, ``eval``. Exit codes: 0 success, 1 some input
was skipped or an answer could not be produced, 2 usage or configuration
error, 3 an ingest or removal refused to publish a worse knowledge base (the
current one is unchanged).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
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


FORMATS = "Markdown, text, HTML, reStructuredText, AsciiDoc, CSV/TSV, JSON, JSON Lines, PDF, DOCX"
DATA_DIR_HELP = "Data folder holding the KB, embedding cache and thread memory (default $THREADGRAPH_DATA_DIR or ./data)."
VERBOSE_HELP = "Log at INFO level on stderr."
EXIT_REFUSED = 3


def _progress_bar(show: bool):
    """A rich progress display on stderr: one bar per stage with done/total,
    elapsed time and time left."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    return Progress(
        TextColumn("{task.description:<20}"), BarColumn(), MofNCompleteColumn(), TextColumn("elapsed"),
        TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(), console=console, disable=not show,
        transient=True,
    )


def _stage_callback(bar):
    tasks: dict[str, int] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=max(total, 1))
        bar.update(tasks[stage], completed=done, total=max(total, 1))

    return progress


def run_ingest(paths: list[Path], settings: Settings, *, graph_csv: Path | None = None, show_progress: bool = True,
               replace: bool = False, no_vectors: bool = False):
    """:func:`~threadgraph.ingest.service.run_ingest` with progress bars on
    stderr (reading: one step per document; embedding: per model batch, with
    time left); returns its :class:`~threadgraph.ingest.load.IngestReport`."""
    from .ingest.service import run_ingest as ingest_use_case

    with _progress_bar(show_progress) as bar:
        report = ingest_use_case(paths, settings, graph_csv=graph_csv, progress=_stage_callback(bar),
                                 replace=replace, no_vectors=no_vectors)
    if report.review is not None:
        console.print(f"applied review from {report.review_dir}: {report.review}")
    return report


def print_report(report) -> None:
    """Render an ingest report as a rich table on stderr, then what was
    skipped and any warning."""
    if getattr(report, "unchanged", False):
        console.print(f"[green]up to date[/green]: nothing changed since the current knowledge base was built "
                      f"({report.documents} documents, {report.build}); nothing to do.")
        for s in report.skipped:
            where = f"{s.path}:{s.line}" if s.line else s.path
            console.print(f"[yellow]skipped[/yellow] {escape(where)}: {escape(s.reason)}")
        return
    t = Table(title="threadgraph ingest", show_header=False)
    for label, items in (("added", report.added), ("updated", report.updated), ("replaced (now inside a new folder)", report.dropped),
                         ("removed", report.removed)):
        for x in items:
            t.add_row(label, x)
    before = f" (before: {report.documents_before})" if report.documents_before and report.documents_before != report.documents else ""
    t.add_row("documents", f"{report.documents}{before}")
    for typ, n in report.entity_types.items():
        t.add_row(f"entities: {typ}", str(n))
    for key in ("CONTAINS", "SUBSTITUTES", "RELATED", "MENTIONS", "Chunk"):
        t.add_row("passages" if key == "Chunk" else key, str(report.counts.get(key, 0)))
    where = getattr(report, "embedding_model_path", None)
    t.add_row("embedding model", (f"{report.embedding_model} (local files: {where})" if report.embedding_model and where
                                  else report.embedding_model or "none (full-text search only)"))
    if report.embedding_model:
        t.add_row("texts embedded now", f"{report.embedded} passages and names (anything else came from the cache)")
    llm = getattr(report, "llm", None)
    if llm is not None:
        t.add_row("LLM extraction", f"{llm.model}: {llm.sections} sections, {llm.facts} facts added")
        t.add_row("LLM calls / tokens", f"{llm.calls} / {llm.tokens} ({llm.prompt_tokens} prompt + {llm.completion_tokens} completion)")
        t.add_row("LLM cache hits", str(llm.cache_hits))
        t.add_row("LLM dropped", f"{llm.dropped_unanchored} unanchored, {llm.rejected} rejected, {llm.duplicates} duplicates")
        t.add_row("LLM sections skipped", f"{llm.unparsable} unparsable, {llm.failed} failed")
    t.add_row("skipped files", str(len(report.skipped)))
    t.add_row("seconds", f"{report.seconds:.1f}")
    t.add_row("knowledge base", str(report.build))
    console.print(t)
    for s in report.skipped:
        where = f"{s.path}:{s.line}" if s.line else s.path
        console.print(f"[yellow]skipped[/yellow] {escape(where)}: {escape(s.reason)}")
    for w in report.warnings:
        console.print(f"[yellow]warning[/yellow] {escape(w)}")


def _refused(exc: Exception) -> None:
    console.print(f"[red]refused[/red]: {escape(str(exc))}")
    raise typer.Exit(EXIT_REFUSED)


@app.command()
def ingest(
    paths: list[Path] = typer.Argument(..., help=f"Files or folders to add or update ({FORMATS})."),
    replace: bool = typer.Option(False, "--replace", help="Rebuild from exactly PATHS, dropping every other source of the KB."),
    no_vectors: bool = typer.Option(False, "--no-vectors", help="Build without embeddings (full-text search only), even over a KB that has them."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    llm: Optional[bool] = typer.Option(None, "--llm/--no-llm", help="Also extract facts with the configured LLM (default THREADGRAPH_LLM_EXTRACT, off); needs OPENAI_API_KEY."),
    graph_csv: Optional[Path] = typer.Option(None, "--graph-csv", help="Apply a reviewed nodes.csv/edges.csv pair from this folder (remembered for later builds); rows of its candidates.csv with status accepted become graph facts (extractor reader-reviewed), rejected ones are not proposed again."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help=VERBOSE_HELP),
) -> None:
    """Add or update PATHS in the knowledge base (every other source is kept,
    and re-read); the new KB is built beside the live one, then swapped in.

    Refuses (exit 3, the live KB unchanged) to publish a KB with no document,
    to lose more than half of the documents without --replace, and to drop
    the vectors of a KB that has them without --no-vectors. The embedding
    model is THREADGRAPH_EMBEDDING_MODEL(_PATH), else the current KB's."""
    _logging(verbose)
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        console.print(f"[red]error[/red]: not found: {', '.join(map(str, missing))}")
        raise typer.Exit(2)
    settings = _settings(data_dir)
    if llm is not None:
        settings = settings.model_copy(update={"llm_extract": llm})
    from .ingest.review import ReviewError
    from .ingest.service import IngestRefused
    from .knowledge.kb import IngestBusy

    try:
        report = run_ingest(paths, settings, graph_csv=graph_csv, show_progress=sys.stderr.isatty(),
                            replace=replace, no_vectors=no_vectors)
    except (ReviewError, IngestBusy) as exc:
        console.print(f"[red]error[/red]: {escape(str(exc))}")
        raise typer.Exit(2)
    except IngestRefused as exc:
        _refused(exc)
    print_report(report)
    raise typer.Exit(0 if report.ok else 1)


def _short(path: str) -> str:
    """``path`` relative to the working folder when inside it, else with ``~`` for home."""
    p = Path(path)
    try:
        return p.relative_to(Path.cwd()).as_posix() or "."
    except ValueError:
        pass
    try:
        return "~/" + p.relative_to(Path.home()).as_posix()
    except ValueError:
        return path


@app.command()
def sources(
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the sources as a JSON list."),
) -> None:
    """List what the knowledge base holds: each source (file or folder) with
    its documents, facts, passages and last ingest."""
    import dataclasses
    import json

    from .ingest.service import list_sources
    from .knowledge.kb import KBNotFound, current_build, read_manifest

    settings = _settings(data_dir)
    try:
        rows = list_sources(settings.data_dir)
        build = current_build(settings.data_dir)
        manifest = read_manifest(build)
    except KBNotFound as exc:
        console.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(2)
    if as_json:
        print(json.dumps([dataclasses.asdict(r) for r in rows], ensure_ascii=False, indent=1))
        return
    model = manifest.get("embedding_model") or "none (full-text search only)"
    t = Table(title=f"knowledge base {build.name} · {manifest.get('documents', 0)} documents · model {model}")
    for col in ("source", "documents", "facts", "passages", "last ingest", "document ids"):
        t.add_column(col, justify="right" if col in ("documents", "facts", "passages") else "left", overflow="fold")
    for r in rows:
        name = _short(r.path) + ("/" if r.kind == "dir" else "")
        if not r.exists:
            name += " [red](missing)[/red]"
        if r.exclude:
            name += f" [dim](without {', '.join(r.exclude)})[/dim]"
        ids = (r.prefix or "") + ("*" if r.kind == "dir" else Path(r.path).name)
        t.add_row(name, str(r.documents), str(r.facts), str(r.passages), r.ingested.replace("T", " ").rstrip("Z"), escape(ids))
    out.print(t)


@app.command()
def remove(
    path: str = typer.Argument(..., help="A source (as given to ingest), a file or folder inside one, or a document id as cited."),
    no_vectors: bool = typer.Option(False, "--no-vectors", help="Rebuild without embeddings (full-text search only)."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    verbose: bool = typer.Option(False, "--verbose", "-v", help=VERBOSE_HELP),
) -> None:
    """Drop PATH from the knowledge base with every fact and passage read from
    it; the rest is re-read and a new KB swapped in. Refuses (exit 3) to
    leave the KB empty."""
    from .ingest.service import IngestRefused, remove_source
    from .knowledge.kb import IngestBusy, KBNotFound

    _logging(verbose)
    settings = _settings(data_dir)
    try:
        with _progress_bar(sys.stderr.isatty()) as bar:
            report = remove_source(path, settings, no_vectors=no_vectors, progress=_stage_callback(bar))
    except (KBNotFound, IngestBusy) as exc:
        console.print(f"[red]error[/red]: {escape(str(exc))}")
        raise typer.Exit(2)
    except IngestRefused as exc:
        _refused(exc)
    print_report(report)


@app.command("export-graph")
def export_graph_cmd(
    out_dir: Path = typer.Argument(..., help="Folder to write nodes.csv, edges.csv and candidates.csv into."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Write the current KB's nodes and edges (with confidence and provenance) as CSV for review.

    Also writes candidates.csv: the facts the bot's reader found in passages
    (candidates.jsonl of the data folder), one pending row each with the edge
    it would become (SUBSTITUTES for a substitute or stand-in, CONTAINS with
    required=false for an optional item), names, document and line. Set
    status to accepted or rejected and run `ingest --graph-csv DIR`: accepted
    rows become graph facts (extractor reader-reviewed, their confidence);
    rejected ones are not exported again."""
    from .ingest.service import export_current_graph
    from .knowledge.kb import KBNotFound

    settings = _settings(data_dir)
    try:
        n, e, c = export_current_graph(settings.data_dir, out_dir)
    except KBNotFound as exc:
        console.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(2)
    console.print(f"wrote {n} nodes, {e} edges and {c} pending reader candidates to {out_dir}")


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
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    verbose: bool = typer.Option(False, "--verbose", "-v", help=VERBOSE_HELP),
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
    thread: Optional[str] = typer.Option(None, "--thread", help="Continue this thread's conversation (default: a new thread, so the chat starts clean)."),
    retrieval: str = typer.Option("hybrid", "--retrieval", help=RETRIEVAL_HELP),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """A console conversation with line editing and history (/help lists
    commands and examples, /reset clears the thread's memory, /quit leaves)."""
    import time as _time

    from .adapters.console import chat as run_chat

    _logging(False)
    settings = _settings(data_dir)
    bot = _open_bot(settings)
    run_chat(bot, out, thread=thread or f"chat-{_time.strftime('%Y%m%dT%H%M%S')}", retrieval=retrieval,
             history=Path(settings.data_dir) / "chat_history")


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
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    interactive: Optional[bool] = typer.Option(None, "--chat/--no-chat", help="Open chat after the script (default: when run in a terminal)."),
) -> None:
    """Ingest the bundled corpora if no KB exists, show a scripted conversation
    (in its own thread), then open a chat that starts clean."""
    import time as _time

    from .adapters.console import ask_and_render, chat as run_chat
    from .bot.message import ThreadKey
    from .ingest.service import IngestRefused
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
        console.print(f"[bold]{reason} {corpora} (the first run embeds ~2,700 passages and ~1,500 names; later runs use the cache)…[/bold]")
        try:
            report = run_ingest([corpora], settings, show_progress=sys.stderr.isatty())
        except IngestRefused as exc:
            _refused(exc)
        print_report(report)
    bot = _open_bot(settings)
    stamp = _time.strftime("%Y%m%dT%H%M%S")
    thread = ThreadKey(platform="console", thread=f"demo-script-{stamp}")
    for q in DEMO_SCRIPT:
        out.print(f"\n[bold cyan]you>[/bold cyan] {q}")
        ask_and_render(bot, out, thread, q)
    if interactive is None:
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        out.print()
        run_chat(bot, out, thread=f"demo-chat-{stamp}", history=Path(settings.data_dir) / "chat_history")


class _LoggedBot:
    """The bot as served: every answer is logged as one INFO line
    (``answered platform=… thread=… intent=… found=… ms=…``; no user text,
    no secrets). Everything else is the wrapped bot's."""

    def __init__(self, bot) -> None:
        self._bot = bot
        self._log = logging.getLogger("threadgraph.serve")

    def answer(self, message, *args, **kwargs):
        """Answer through the wrapped bot and log the outcome (or the failure) in one line."""
        import time as _time

        t0 = _time.perf_counter()
        key = getattr(message, "thread", None)
        platform = getattr(key, "platform", "?")
        thread = key.key() if key is not None else "?"
        try:
            ans = self._bot.answer(message, *args, **kwargs)
        except Exception:
            self._log.info("failed platform=%s thread=%s ms=%.0f", platform, thread, (_time.perf_counter() - t0) * 1000)
            raise
        self._log.info("answered platform=%s thread=%s intent=%s found=%s ms=%.0f", platform, thread,
                       ans.intent, ans.found, (_time.perf_counter() - t0) * 1000)
        return ans

    def __getattr__(self, name):
        return getattr(self._bot, name)


@app.command()
def serve(
    platforms: list[str] = typer.Argument(None, help="slack, telegram or all (default: every platform whose token is set)."),
    role: str = typer.Option("all", "--role", help="all, http (Events API + webhook) or worker (Socket Mode + polling)."),
    host: str = typer.Option("0.0.0.0", "--host", help="Address the HTTP endpoints listen on."),
    port: Optional[int] = typer.Option(None, "--port", help="HTTP port (default $PORT, then the platform's setting)."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    workers: int = typer.Option(1, "--workers", min=1, help="Processes on this machine sharing the HTTP port (SO_REUSEPORT) and the state; restarted when they die."),
    worker_index: Optional[int] = typer.Option(None, "--worker-index", hidden=True),
    insecure_webhook: bool = typer.Option(False, "--insecure-webhook",
                                          help="Serve the Telegram webhook without THREADGRAPH_TELEGRAM_WEBHOOK_SECRET (accepts forged updates)."),
) -> None:
    """Run the Slack and/or Telegram bot (HTTP endpoints, Socket Mode, long
    polling). Logs the KB build and model at start and one line per answered
    message; exits 2 when no platform is configured."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from .adapters.serve import install_log_redaction, plan, serve as run_serve, serve_workers
    from .bot.state import StateUnavailable

    settings = _settings(data_dir)
    redactor = install_log_redaction(settings)
    names = tuple(platforms or ["all"])
    try:
        served = plan(settings, names, role, worker_index or 0, insecure_webhook)
    except ValueError as exc:
        console.print(f"[red]error[/red]: {redactor.redact(str(exc))}")
        raise typer.Exit(2)
    if settings.slack_bot_token is None and settings.telegram_bot_token is None:
        console.print("[red]error[/red]: no platform is configured: set SLACK_BOT_TOKEN (with SLACK_SIGNING_SECRET "
                      "or SLACK_APP_TOKEN) and/or TELEGRAM_BOT_TOKEN — see the README, section Slack and Telegram.")
        raise typer.Exit(2)
    if workers > 1:
        args = [*names, "--role", role, "--host", host]
        if port is not None:
            args += ["--port", str(port)]
        if data_dir is not None:
            args += ["--data-dir", str(data_dir)]
        if insecure_webhook:
            args.append("--insecure-webhook")
        raise typer.Exit(serve_workers(workers, args))
    bot = _open_bot(settings)
    kb = bot.kb.get()
    log = logging.getLogger("threadgraph.serve")
    log.info("serving knowledge base %s (%s documents, %s passages) with embedding model %s; slack=%s telegram=%s",
             kb.build, kb.manifest.get("documents", "?"), (kb.manifest.get("counts") or {}).get("Chunk", "?"),
             kb.manifest.get("embedding_model") or "none (full-text search only)", served.slack or "off",
             served.telegram or "off")
    try:
        run_serve(_LoggedBot(bot), settings, platforms=names, role=role, host=host, port=port,
                  worker_index=worker_index, insecure_webhook=insecure_webhook)
    except (ValueError, StateUnavailable) as exc:
        console.print(f"[red]error[/red]: {redactor.redact(str(exc))}")
        raise typer.Exit(2)
    except Exception:  # noqa: BLE001 - through the redacting log handler, never a raw traceback
        log.exception("serve failed")
        raise typer.Exit(1)


@app.command("eval")
def eval_cmd(
    cases: list[Path] = typer.Argument(..., help="Case files (JSON lines) or folders of *.jsonl."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
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
