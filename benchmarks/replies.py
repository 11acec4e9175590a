"""Replies as a user sees them: for a fixed list of conversations (the examples
of issue 11), print each answer rendered for Telegram (the HTML messages, with
their inline keyboard when there is one) and for Slack (the Block Kit
messages as JSON), as Markdown.

Run it before and after a change to compare what users get. The KB of the
bundled corpora is (re)built with the current code in
``<bench dir>/corpora`` (the one ``benchmarks/eval.py`` uses; the embedding
cache makes a rebuild quick); ``--reuse`` takes the KB there as it is, and
``--data-dir`` points at another KB. No LLM is used. Sources link to the
corpora's upstream repositories (:data:`SOURCE_URLS`) when the code has the
``source_urls`` setting.

Usage: ``python benchmarks/replies.py [--out FILE] [--reuse] [--data-dir DIR]``
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

#: The conversations shown: each inner list is asked in order in one fresh thread
#: (the examples of issue 11 on the bundled corpora).
CONVERSATIONS: list[list[str]] = [
    ["红烧肉没有冰糖怎么办"],
    ["可乐鸡翅没有可乐怎么办"],
    ["宫保鸡丁没有花生可以吗？"],
    ["宫保鸡丁没有花生用什么代替?"],
    ["番茄炒蛋怎么做？"],
    ["What do I need for Kung Pao chicken?", "and without peanuts?"],
    ["回锅肉可以不放豆瓣酱吗？"],
    ["西红柿炒鸡蛋一定要放糖吗？"],
    ["我家没有烤箱，能做什么甜点？"],
    ["有豆腐但不用肉的菜"],
    ["What are the severity levels?"],
    ["What are the different roles during an incident?"],
    ["who writes the postmortem?"],
    ["What are the steps after an incident?"],
    ["宫保鸡丁怎么做？"],
    ["哪些菜用到鸡蛋？"],
    ["宫保鸡丁需要哪些原料？", "那鱼香肉丝呢？", "这两款有哪些共同的原料？"],
    ["Who can stand in for the Incident Commander?"],
]


#: Where the bundled corpora are published (their SOURCE files), so the sources are links.
SOURCE_URLS = {
    "corpora/howtocook": "https://github.com/Anduin2017/HowToCook/blob/cbeb5367/{path}?plain=1#L{line}",
    "corpora/pagerduty-incident-response":
        "https://github.com/PagerDuty/incident-response-docs/blob/e8a6182/{path}?plain=1#L{line}",
}


def telegram_sources(answer) -> str | None:
    """What a click on Telegram's "Sources" button sends (visible text), when the renderer has one."""
    from threadgraph.adapters import render

    if not hasattr(render, "telegram_sources_html"):
        return None
    return "\n\n".join(visible(h) for h in render.telegram_sources_html(answer))


def telegram(answer, answer_id: str) -> list[dict]:
    """The Telegram messages of ``answer``: ``{"html", "reply_markup"}`` each
    (the adapters' renderer; the keyboard when the renderer gives one)."""
    from threadgraph.adapters import render

    if hasattr(render, "telegram_messages"):
        return [{"html": m.html, "reply_markup": m.reply_markup} for m in render.telegram_messages(answer, answer_id)]
    from threadgraph.adapters.telegram import render_html

    return [{"html": h, "reply_markup": None} for h in render_html(answer)]


def slack(answer, answer_id: str) -> list[dict]:
    """The Slack messages of ``answer`` (``{"text", "blocks"}`` each)."""
    from threadgraph.adapters.slack import render_answer

    return render_answer(answer, answer_id)


def visible(html: str) -> str:
    """The text a Telegram user sees of ``html`` (tags dropped, entities decoded)."""
    import html as H
    import re

    return H.unescape(re.sub(r"<[^>]+>", "", html))


def main(argv: list[str] | None = None) -> int:
    """Build (or reuse) the KB, ask every conversation, print the Markdown report."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="write the Markdown here as well as to stdout")
    ap.add_argument("--data-dir", type=Path, help="a KB data folder (default: the evaluation KB in the bench dir)")
    ap.add_argument("--reuse", action="store_true", help="use the KB in the data folder as it is")
    args = ap.parse_args(argv)

    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.memory import ThreadMemory
    from threadgraph.bot.message import IncomingMessage, ThreadKey

    data_dir = args.data_dir or C.bench_dir() / "corpora"
    if not (args.reuse or args.data_dir):
        C.ensure_kb(data_dir, [C.CORPORA], seed_cache_from=C.bench_dir() / "howtocook")
    settings = C.settings(data_dir)
    if "source_urls" in type(settings).model_fields:
        settings = settings.model_copy(update={"source_urls": SOURCE_URLS})
    with tempfile.TemporaryDirectory() as tmp:
        bot = ThreadGraphBot(settings, memory=ThreadMemory(Path(tmp) / "memory.sqlite"))
        out: list[str] = []
        summary = ["| # | question | intent | found | answer chars | Telegram: messages, visible chars | Slack: messages, blocks |",
                   "|---|---|---|---|---|---|---|"]
        for n, conv in enumerate(CONVERSATIONS, 1):
            thread = ThreadKey(platform="console", thread=f"replies-{n}-{uuid.uuid4().hex[:6]}")
            for text in conv:
                ans = bot.answer(IncomingMessage(thread=thread, user="replies", text=text))
                tg = telegram(ans, "ANSWER-ID")
                sl = slack(ans, "ANSWER-ID")
                seen = "\n\n".join(visible(m["html"]) for m in tg)
                summary.append(f"| {n} | {text} | {ans.intent} | {str(ans.found).lower()} | {len(ans.answer)} | "
                               f"{len(tg)}, {len(seen)} | {len(sl)}, {sum(len(m['blocks']) for m in sl)} |")
                out += [f"## {n}. {text}", "",
                        f"intent `{ans.intent}` · found {str(ans.found).lower()} · answer {len(ans.answer)} chars · "
                        f"Telegram {len(tg)} message(s), {len(seen)} visible chars · Slack {len(sl)} message(s), "
                        f"{sum(len(m['blocks']) for m in sl)} blocks", "",
                        "**Telegram, as the user sees it**", "", "```text", seen, "```", "",
                        "<details><summary>Telegram HTML sent</summary>", "", "```html"]
                for m in tg:
                    out.append(m["html"])
                    if m["reply_markup"]:
                        out.append("<!-- reply_markup: " + json.dumps(m["reply_markup"], ensure_ascii=False) + " -->")
                out += ["```", "", "</details>", ""]
                clicked = telegram_sources(ans)
                if clicked:
                    out += ["<details><summary>Telegram: what the Sources button sends</summary>", "", "```text",
                            clicked, "```", "", "</details>", ""]
                out += ["<details><summary>Slack Block Kit</summary>", "", "```json",
                        json.dumps(sl, ensure_ascii=False, indent=1), "```", "", "</details>", ""]
    head = ["# Replies as users see them", "",
            "Generated by `benchmarks/replies.py` (bundled corpora, no LLM). Per question: the Telegram "
            "messages (the text the user sees, then the HTML as sent) and the Slack messages (Block Kit JSON).", ""]
    text = "\n".join(head + summary + [""] + out)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
