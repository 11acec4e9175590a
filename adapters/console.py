"""The console adapter: a terminal conversation with rich rendering.

Used by ``threadgraph chat`` and ``make demo``. In a terminal the prompt is a
prompt_toolkit line editor (arrow keys, Ctrl-A/E, history kept across
sessions in ``<data dir>/chat_history``, Ctrl-R search); piped input is read
line by line. Commands: ``/help`` (commands and example questions),
``/reset`` clears the thread's memory, ``/quit`` (or Ctrl-D) leaves.
"""

from __future__ import annotations

import getpass
import logging
import sys
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from . import render
from ..bot.answer import Answer
from ..bot.message import IncomingMessage, ThreadKey
from ..knowledge.records import cite

log = logging.getLogger(__name__)

HELP = """[bold]Commands[/bold]
  /help    this help
  /reset   forget this conversation (follow-ups start over)
  /quit    leave (also Ctrl-D)
[bold]Ask in plain words[/bold], English or Chinese; follow-ups reuse the conversation:
  who can stand in for the Incident Commander?   → and the Scribe?
  what does the Scribe do?
  宫保鸡丁没有手枪腿用什么代替？                   → 那干辣椒呢？
  哪些菜用到花生？ · 西红柿炒鸡蛋一定要放糖吗？
Line editing: ←/→, Home/End, ↑/↓ for earlier questions, Ctrl-R to search them."""


def render_answer(console: Console, ans: Answer, *, show_sources: bool = True, evidence: bool = False) -> None:
    """Print ``ans`` answer first: the text in a panel, then (``show_sources``)
    a dim section with at most three sources (title, line, link), then the
    follow-ups. ``evidence`` also prints every fact and passage (the full
    evidence is always in ``threadgraph ask --json``). All KB text is escaped for rich."""
    style = "green" if ans.found else "yellow"
    title = f"{ans.intent} · {'found' if ans.found else 'no evidence'}"
    console.print(Panel(escape(ans.answer), title=title, border_style=style, expand=False))
    if show_sources:
        for line in render.console_sources(ans):
            console.print(f"[dim]📄 {escape(line)}[/dim]")
    if evidence:
        for line in render.evidence_lines(ans):
            console.print(f"[dim]  • {escape(line)}[/dim]")
    if ans.follow_ups:
        console.print("[dim]try: " + escape(" | ".join(ans.follow_ups)) + "[/dim]")


def ask_and_render(bot, console: Console, thread: ThreadKey, text: str, retrieval: str = "hybrid") -> Answer | None:
    """Send one message through the core and render the answer; an exception
    in the core is logged and reported politely, never raised."""
    try:
        ans = bot.answer(IncomingMessage(thread=thread, user=getpass.getuser(), text=text), retrieval=retrieval)
    except Exception:  # noqa: BLE001 - a console session must survive a failing question
        log.exception("could not answer %r", text[:80])
        console.print("[red]Sorry, something went wrong answering that; the error is in the log.[/red]")
        return None
    render_answer(console, ans)
    return ans


def line_reader(console: Console, history: Path | None = None) -> Callable[[], str]:
    """A function reading one line of input: a prompt_toolkit session (line
    editing, persistent history in ``history``) when stdin and stdout are a
    terminal, else plain ``input``. Raises EOFError at end of input and
    KeyboardInterrupt on Ctrl-C."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.formatted_text import HTML
            from prompt_toolkit.history import FileHistory, InMemoryHistory

            hist = InMemoryHistory()
            if history is not None:
                try:
                    history.parent.mkdir(parents=True, exist_ok=True)
                    hist = FileHistory(str(history))
                except OSError:
                    pass
            session = PromptSession(history=hist, enable_history_search=True)
            return lambda: session.prompt(HTML("<b><ansicyan>you&gt;</ansicyan></b> "))
        except ImportError:  # pragma: no cover - prompt_toolkit is a dependency
            pass
    return lambda: console.input("[bold cyan]you>[/bold cyan] ")


def chat(bot, console: Console | None = None, thread: str = "console", retrieval: str = "hybrid", *,
         history: Path | None = None, read_line: Callable[[], str] | None = None) -> None:
    """Run an interactive conversation in ``thread`` until ``/quit`` or end of
    input. ``history`` is the prompt history file (terminal only);
    ``read_line`` replaces the input function (tests)."""
    console = console or Console()
    key = ThreadKey(platform="console", thread=thread)
    read = read_line or line_reader(console, history)
    console.print("[bold]threadgraph[/bold] — ask about recipes or incident response. "
                  "/help for examples, /reset clears memory, /quit leaves.")
    while True:
        try:
            text = read().strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if not text:
            continue
        if text in ("/quit", "/exit", "/q"):
            return
        if text in ("/help", "/?", "help"):
            console.print(HELP)
            continue
        if text == "/reset":
            bot.reset(key)
            console.print("[dim]memory of this thread cleared[/dim]")
            continue
        ask_and_render(bot, console, key, text, retrieval)
