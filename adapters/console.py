"""The console adapter: a terminal conversation with rich rendering.

Used by ``threadgraph chat`` and ``make demo``. Commands: ``/reset`` clears
the thread's memory, ``/quit`` (or Ctrl-D) leaves.
"""

from __future__ import annotations

import getpass
import logging

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from . import render
from ..bot.answer import Answer
from ..bot.message import IncomingMessage, ThreadKey

log = logging.getLogger(__name__)


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


def chat(bot, console: Console | None = None, thread: str = "console", retrieval: str = "hybrid") -> None:
    """Run an interactive conversation until ``/quit`` or end of input."""
    console = console or Console()
    key = ThreadKey(platform="console", thread=thread)
    console.print("[bold]threadgraph[/bold] — ask about recipes or incident response. /reset clears memory, /quit leaves.")
    while True:
        try:
            text = console.input("[bold cyan]you>[/bold cyan] ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if not text:
            continue
        if text in ("/quit", "/exit", "/q"):
            return
        if text == "/reset":
            bot.reset(key)
            console.print("[dim]memory of this thread cleared[/dim]")
            continue
        ask_and_render(bot, console, key, text, retrieval)
