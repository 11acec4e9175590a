"""The first hour (issue 13): true help with a description for every option,
a chat with /help that starts clean, serve's log lines and its exit without
a platform, and a KB without full-text index or vectors that still answers."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys

import click
import pytest
from rich.console import Console

from conftest import TINY_MODEL, TINY_NAME, tiny_settings


def test_every_command_and_option_has_a_description():
    import typer.main

    from threadgraph.cli import app

    group = typer.main.get_command(app)
    assert set(group.commands) >= {"ingest", "sources", "remove", "export-graph", "ask", "chat", "demo", "serve", "eval"}
    for name, cmd in group.commands.items():
        assert cmd.help, name
        for p in cmd.params:
            if isinstance(p, click.Option) and p.name != "help":
                assert p.help, f"{name} {p.opts}"
            if isinstance(p, click.Argument):
                assert getattr(p, "help", None), f"{name} {p.name}"
    ingest_help = " ".join(p.help or "" for p in group.commands["ingest"].params)
    assert "PDF" in ingest_help and "DOCX" in ingest_help


def test_serve_without_a_platform_exits_nonzero_with_a_clear_message(tmp_path, kb_dir):
    env = {k: v for k, v in os.environ.items() if k not in ("SLACK_BOT_TOKEN", "TELEGRAM_BOT_TOKEN", "SLACK_APP_TOKEN")}
    env.update(HF_HUB_OFFLINE="1", THREADGRAPH_EMBEDDING_MODEL=TINY_NAME, THREADGRAPH_EMBEDDING_MODEL_PATH=str(TINY_MODEL))
    r = subprocess.run([sys.executable, "-m", "threadgraph.cli", "serve", "--data-dir", str(kb_dir)], env=env,
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2
    assert "no platform is configured" in r.stderr and "TELEGRAM_BOT_TOKEN" in r.stderr


def test_served_answers_are_logged_in_one_line_without_user_text(bot, caplog):
    from threadgraph.bot.message import IncomingMessage, ThreadKey
    from threadgraph.cli import _LoggedBot

    logged = _LoggedBot(bot)
    with caplog.at_level(logging.INFO, logger="threadgraph.serve"):
        ans = logged.answer(IncomingMessage(thread=ThreadKey(platform="slack", channel="C1", thread="171.5"),
                                            text="who can stand in for the Scribe?"))
    lines = [r.getMessage() for r in caplog.records if r.name == "threadgraph.serve"]
    assert len(lines) == 1
    assert lines[0].startswith("answered platform=slack thread=slack//C1/171.5 intent=stand_in found=True ms=")
    assert "Scribe" not in lines[0] and ans.found
    assert logged.settings is bot.settings  # everything else is the bot's


def test_chat_help_reset_and_quit(bot):
    from threadgraph.adapters.console import chat

    buf = io.StringIO()
    lines = iter(["/help", "宫保鸡丁需要哪些原料？", "/reset", "那鱼香肉丝呢？", "/quit"])
    chat(bot, Console(file=buf, width=120), thread="ux", read_line=lambda: next(lines))
    text = buf.getvalue()
    assert "/reset" in text and "Ctrl-R" in text  # the help
    assert "memory of this thread cleared" in text


def test_demo_script_and_chat_use_separate_threads(kb_dir, monkeypatch):
    from threadgraph import cli

    seen = {}

    def fake_chat(bot, console, thread, **kw):
        seen["chat"] = thread

    asked = []
    monkeypatch.setattr("threadgraph.adapters.console.chat", fake_chat)
    monkeypatch.setattr("threadgraph.adapters.console.ask_and_render", lambda bot, out, thread, q: asked.append(thread))
    monkeypatch.setattr(cli, "_settings", lambda d: tiny_settings(kb_dir))
    cli.demo(data_dir=None, interactive=True)
    assert len(set(asked)) == 1 and seen["chat"] != asked[0].thread


def test_kb_without_fts_index_or_vectors_answers_plainly(tmp_path):
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.message import IncomingMessage, ThreadKey
    from threadgraph.ingest.load import build_kb
    from threadgraph.knowledge.records import Extraction

    for vectors in (True, False):
        data = tmp_path / f"d{vectors}"
        s = tiny_settings(data)
        embedder = None
        if vectors:
            from threadgraph.knowledge.embeddings import load_embedder

            embedder = load_embedder(s)
        build_kb(Extraction(), data, embedder=embedder)  # what an empty ingest used to publish
        bot = ThreadGraphBot(s)
        for mode in ("hybrid", "graph", "vector"):
            for q in ("who can stand in for the Scribe?", "宫保鸡丁怎么做", "what is a SEV-1?"):
                a = bot.answer(IncomingMessage(thread=ThreadKey(platform="t", thread=f"{mode}{q}"), text=q), retrieval=mode)
                assert not a.found and a.answer


def test_ingest_summary_names_the_local_model_folder_it_used(tmp_path):
    """A newcomer saw only the hub name while the local int8 folder was used: the
    summary names both."""
    from threadgraph import cli
    from threadgraph.ingest.service import run_ingest

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Tea\n\n## Ingredients\n\n- black tea\n- honey (optional)\n",
                                           encoding="utf-8")
    report = run_ingest([tmp_path / "docs"], tiny_settings(tmp_path / "data"))
    buf = io.StringIO()
    old = cli.console
    cli.console = Console(file=buf, width=300)
    try:
        cli.print_report(report)
    finally:
        cli.console = old
    row = next(line for line in buf.getvalue().splitlines() if "embedding model" in line)
    assert TINY_NAME in row and f"local files: {TINY_MODEL}" in row
