"""How an :class:`~threadgraph.bot.answer.Answer` is shown on each platform, and the
platform-neutral helpers the adapters share.

Nothing here imports a platform SDK: Telegram messages are HTML strings with their inline keyboard
as Bot API JSON, Slack messages are Block Kit dicts, the console gets plain lines.

Every reply has the same shape, answer first: the answer text (split between messages only at
paragraph, line or word boundaries, never inside a formatting tag), then at most three short
sources (the document's title and section, the line, a link when the document has an address;
"+N more" when the evidence comes from more documents), then the suggested follow-ups. The full
evidence (every fact and passage) stays out of the reply: it is behind a "Sources" button
(Telegram: an inline button whose callback sends :func:`telegram_sources_html`; Slack: a button
beside 👍/👎 whose action posts :func:`slack_sources_blocks` to the clicking user) and in
``threadgraph ask --json``.
"""

from __future__ import annotations

import html
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from ..bot.answer import Answer, Citation, Fact
from ..bot.citations import cited_docs, citation_title
from ..bot.compose import excerpt, fact_line as fact_sentence
from ..knowledge.records import PAGE_LINES, cite

Measure = Callable[[str], int]

_RELATION_ARROWS = {"SUBSTITUTES": "⇄", "CONTAINS": "⊃", "RELATED": "~"}


def _cut_point(text: str, limit: int, measure: Measure) -> int:
    """Largest prefix length ``n`` (``1 <= n <= len(text)``) with ``measure(text[:n]) <= limit``.

    Binary search, so ``measure`` may be any monotone function (``len`` or the length of the
    escaped text). Always returns at least 1 so callers make progress."""
    lo, hi = 1, len(text)
    if measure(text) <= limit:
        return len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid]) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return lo


def split_text(text: str, limit: int, measure: Measure = len) -> list[str]:
    """Split ``text`` into chunks with ``measure(chunk) <= limit``.

    Chunks are cut at the last paragraph break (blank line) that fits, else the last line
    break, else the last space, else inside a word. Separators at a cut are dropped; no
    other character is lost, so ``"".join`` of the chunks equals ``text`` minus the
    whitespace at the cuts. ``measure`` lets callers count the escaped form (e.g.
    ``lambda s: len(html.escape(s))``). Returns ``[]`` for empty text.

    Raises ``ValueError`` when ``limit < 1``."""
    if limit < 1:
        raise ValueError("limit must be >= 1")
    chunks: list[str] = []
    rest = text.strip("\n")
    while rest:
        if measure(rest) <= limit:
            chunks.append(rest)
            break
        n = _cut_point(rest, limit, measure)
        head = rest[:n]
        cut = -1
        for sep in ("\n\n", "\n", " "):
            i = head.rfind(sep)
            if i > 0:
                cut, skip = i, len(sep)
                break
        if cut <= 0:
            cut, skip = n, 0
        chunks.append(rest[:cut].rstrip("\n"))
        rest = rest[cut + skip :].lstrip("\n")
    return [c for c in chunks if c]


def pack(pieces: Iterable[str], limit: int, sep: str = "\n\n", measure: Measure = len) -> list[str]:
    """Greedily join ``pieces`` with ``sep`` into messages of at most ``limit`` (by ``measure``).

    Each piece must already fit (``measure(piece) <= limit``); a piece is never split here,
    so formatting inside a piece (e.g. an HTML tag pair) is never broken. Raises
    ``ValueError`` when a piece is too long."""
    out: list[str] = []
    current = ""
    for piece in pieces:
        if measure(piece) > limit:
            raise ValueError(f"piece of size {measure(piece)} exceeds limit {limit}")
        candidate = piece if not current else current + sep + piece
        if measure(candidate) <= limit:
            current = candidate
        else:
            out.append(current)
            current = piece
    if current:
        out.append(current)
    return out


def paragraphs(text: str) -> list[str]:
    """The non-empty paragraphs (blank-line separated) of ``text``, stripped."""
    return [p.strip() for p in re.split(r"\n\s*\n", text or "") if p.strip()]


def fact_line(fact: Fact) -> str:
    """One plain-text line for a fact, e.g. ``X ⇄ Y (condition) — dishes/Z.md:12``."""
    arrow = _RELATION_ARROWS.get(fact.relation, fact.relation)
    props = fact.properties or {}
    extras = [str(props[k]) for k in ("amount", "condition", "context") if props.get(k)]
    if props.get("required") is False:
        extras.append("optional")
    extra = f" ({', '.join(extras)})" if extras else ""
    return f"{fact.subject} {arrow} {fact.object}{extra} — {source_ref(fact.source.doc, fact.source.section, fact.source.line)}"


def source_ref(doc: str, section: str = "", line: int = 0) -> str:
    """``doc § section:line`` with the empty parts left out (a PDF's line
    reads as its page: ``doc § section, p. 48``, see
    :func:`~threadgraph.knowledge.records.cite`)."""
    ref = doc
    if section:
        ref += f" § {section}"
    if line:
        where = cite(doc, line)[len(doc):]
        ref += where if where.startswith(":") else f",{where}"
    return ref


def source_lines(answer: Answer) -> list[str]:
    """One line per distinct source document/section used by the answer's passages (in order)."""
    seen: set[str] = set()
    out: list[str] = []
    for p in answer.passages:
        ref = source_ref(p.doc, p.section, p.line)
        if ref not in seen:
            seen.add(ref)
            out.append(ref)
    return out


# ---------------------------------------------------------------------------------------------
# Answer-first replies: the answer, at most three sources, the follow-ups; evidence on demand

#: Telegram's limit on one message (characters of the HTML text).
TELEGRAM_LIMIT = 4096
#: Slack's limit on the text of one section block / context element.
SLACK_TEXT_LIMIT = 3000
#: Blocks of a Slack sources message at most (Slack allows 50).
SLACK_SOURCE_BLOCKS = 40
#: Prefix of the Telegram callback data of the "Sources" button (the answer id follows; ≤ 64 bytes).
SOURCES_CALLBACK = "threadgraph_sources:"
#: ``action_id`` of the Slack "Sources" button (its ``value`` is the answer id).
SOURCES_ACTION = "threadgraph_sources"
#: Characters of a passage shown in the full evidence.
EVIDENCE_PASSAGE_CHARS = 300


def _zh(answer: Answer) -> bool:
    return answer.language == "zh"


def _t(answer: Answer, zh: str, en: str) -> str:
    return zh if _zh(answer) else en


def line_label(answer: Answer, line: int, doc: str = "") -> str:
    """"第 12 行" / "line 12" (``""`` without a line); for a PDF ``doc`` whose line holds a
    page (:func:`~threadgraph.knowledge.records.page_line`) "第 48 页" / "p. 48"."""
    if not line:
        return ""
    if doc.lower().endswith(".pdf") and line >= PAGE_LINES:
        page = line // PAGE_LINES
        return _t(answer, f"第 {page} 页", f"p. {page}")
    return _t(answer, f"第 {line} 行", f"line {line}")


def more_sources(answer: Answer) -> int:
    """How many more documents the evidence comes from than the sources shown."""
    return max(0, cited_docs(answer.facts, answer.passages) - len(answer.sources))


def sources_label(answer: Answer) -> str:
    """The label of the "Sources" button: "📄 Sources (N)" / "📄 来源（N）"."""
    n = len(answer.facts) + len(answer.passages)
    return _t(answer, f"📄 来源（{n}）", f"📄 Sources ({n})")


def has_evidence(answer: Answer) -> bool:
    """The answer cites facts or passages (so a "Sources" button has something to show)."""
    return bool(answer.facts or answer.passages)


def console_sources(answer: Answer) -> list[str]:
    """The console's source lines: ``title · line N · url`` for each shown source."""
    out = []
    for c in answer.sources:
        parts = [c.title, line_label(answer, c.line, c.doc), c.url or ""]
        out.append(" · ".join(p for p in parts if p))
    more = more_sources(answer)
    if more:
        out.append(_t(answer, f"另有 {more} 个来源（--json 查看全部证据）", f"+{more} more (all evidence with --json)"))
    return out


def evidence_lines(answer: Answer) -> list[str]:
    """The full evidence as plain lines: one per fact (a sentence in the
    answer's language, then its document, section and line) and one per passage
    (its document and section, line, and an excerpt)."""
    lang = "zh" if _zh(answer) else "en"
    out = []
    for f in answer.facts:
        where = citation_title(f.source.doc, f.source.section, {})
        out.append(f"{fact_sentence(lang, f)} — {where}" + (f", {line_label(answer, f.source.line, f.source.doc)}" if f.source.line else ""))
    for p in answer.passages:
        where = citation_title(p.doc, p.section, {})
        body = "; ".join(x.lstrip("-*• ").strip() for x in excerpt(p.text, "", EVIDENCE_PASSAGE_CHARS).splitlines() if x.strip())
        out.append(f"{where}" + (f", {line_label(answer, p.line, p.doc)}" if p.line else "") + f": {body}")
    return out


# -- Telegram ------------------------------------------------------------------------------------


@dataclass
class TelegramMessage:
    """One Telegram message: ``html`` (parse mode HTML, every KB and user string
    escaped, at most 4096 characters) and its ``reply_markup`` (an
    ``InlineKeyboardMarkup`` as Bot API JSON, or ``None``)."""

    html: str
    reply_markup: dict | None = None


def telegram_escape(text: str) -> str:
    """``text`` escaped for Telegram's HTML parse mode (``&``, ``<``, ``>``)."""
    return html.escape(text, quote=False)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as Telegram counts message length (an emoji counts 2)."""
    return len(text.encode("utf-16-le")) // 2


def telegram_len(text: str) -> int:
    """Telegram's measure of ``text`` once escaped: UTF-16 code units of :func:`telegram_escape`."""
    return utf16_len(telegram_escape(text))


_tg_esc, _u16, _tg_len = telegram_escape, utf16_len, telegram_len


def _tg_link(title: str, url: str | None) -> str:
    if url and url.startswith(("http://", "https://")):
        return f'<a href="{html.escape(url, quote=True)}">{_tg_esc(title)}</a>'
    return _tg_esc(title)


def telegram_sources_line(answer: Answer) -> str:
    """The HTML line of the shown sources: "📄 <a>Title</a> (line 12) · …" (+N more)."""
    return _sources_line(answer, _tg_link, _tg_esc)


def _sources_line(answer: Answer, link: Callable[[str, str | None], str], esc: Callable[[str], str]) -> str:
    """"📄 " + each shown source (``link(title, url)`` and its escaped line label) joined by
    " · ", then "+N more"; ``""`` without sources. ``link``/``esc`` make it a platform's markup."""
    parts = []
    for c in answer.sources:
        label = line_label(answer, c.line, c.doc)
        parts.append(link(c.title, c.url) + (f" ({esc(label)})" if label else ""))
    more = more_sources(answer)
    if more:
        parts.append(esc(_t(answer, f"另有 {more} 个", f"+{more} more")))
    return "📄 " + " · ".join(parts) if parts else ""


def sources_keyboard(answer: Answer, answer_id: str | None) -> dict | None:
    """The inline keyboard with the "Sources" button (callback data
    :data:`SOURCES_CALLBACK` + ``answer_id``), or ``None`` without an id or evidence."""
    if not answer_id or not has_evidence(answer):
        return None
    return {"inline_keyboard": [[{"text": sources_label(answer), "callback_data": SOURCES_CALLBACK + answer_id}]]}


def telegram_messages(answer: Answer, answer_id: str | None = None, limit: int = TELEGRAM_LIMIT) -> list[TelegramMessage]:
    """The Telegram messages of ``answer`` (each at most ``limit`` UTF-16 code units of HTML): the answer text (paragraphs; a
    long one split at line or word boundaries), the sources line, the
    follow-ups; messages are cut only between complete pieces, so each is
    well-formed HTML. The last message carries the "Sources" keyboard."""
    pieces: list[str] = []
    for para in paragraphs(answer.answer) or ["…"]:
        pieces += [_tg_esc(x) for x in split_text(para, limit, _tg_len)]
    line = telegram_sources_line(answer)
    if line and _u16(line) <= limit:
        pieces.append(line)
    if answer.follow_ups:
        mark = "💬 " if answer.found else "❓ "
        lines = [mark + _tg_esc(x) for q in answer.follow_ups for x in split_text(q, limit - _u16(mark), _tg_len)]
        pieces += pack(lines, limit, "\n", _u16)
    msgs = [TelegramMessage(h) for h in pack(pieces, limit, "\n\n", _u16)]
    if msgs:
        msgs[-1].reply_markup = sources_keyboard(answer, answer_id)
    return msgs


def telegram_sources_html(answer: Answer, limit: int = TELEGRAM_LIMIT) -> list[str]:
    """The full evidence of ``answer`` as Telegram HTML messages (what the
    "Sources" button sends): a heading, then one line per fact and passage."""
    head = "<b>" + _tg_esc(_t(answer, "来源与证据", "Sources and evidence")) + "</b>"
    lines = [head]
    for c in answer.sources:
        lines.append("📄 " + _tg_link(c.title, c.url) + (f" ({_tg_esc(line_label(answer, c.line, c.doc))})" if c.line else ""))
    for x in evidence_lines(answer):
        lines += ["• " + _tg_esc(p) for p in split_text(x, limit - 2, _tg_len)]
    if len(lines) == 1:
        lines.append(_tg_esc(_t(answer, "这个回答没有引用证据。", "This answer cites no evidence.")))
    return pack(lines, limit, "\n", _u16)


# -- Slack ---------------------------------------------------------------------------------------


def _sl_esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _sl_len(text: str) -> int:
    return len(_sl_esc(text))


def _sl_link(title: str, url: str | None) -> str:
    if url and url.startswith(("http://", "https://")) and not re.search(r"[|<>\s]", url):
        return f"<{url}|{_sl_esc(title).replace('|', '¦')}>"
    return _sl_esc(title)


def slack_sources_text(answer: Answer) -> str:
    """The mrkdwn line of the shown sources ("📄 <url|Title> (line 12) · …", +N more)."""
    return _sources_line(answer, _sl_link, _sl_esc)[:SLACK_TEXT_LIMIT]


def slack_blocks(answer: Answer) -> list[dict[str, Any]]:
    """The content blocks of ``answer`` (before any buttons): the answer text
    in mrkdwn sections of at most 3000 characters, the sources in one context
    block, the follow-ups in another. All KB and user text is escaped."""
    blocks: list[dict] = [{"type": "section", "text": {"type": "mrkdwn", "text": _sl_esc(chunk)}}
                          for chunk in split_text(answer.answer or "…", SLACK_TEXT_LIMIT, _sl_len)]
    line = slack_sources_text(answer)
    if line:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": line}]})
    if answer.follow_ups:
        mark = "💬 " if answer.found else "❓ "
        texts = pack([x for q in answer.follow_ups for x in split_text(mark + q, SLACK_TEXT_LIMIT, _sl_len)],
                     SLACK_TEXT_LIMIT, "\n", _sl_len)
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": _sl_esc(x)} for x in texts[:10]]})
    return blocks


def slack_sources_button(answer: Answer, answer_id: str) -> dict[str, Any]:
    """The "Sources" button element (``action_id`` :data:`SOURCES_ACTION`, ``value`` the answer id)."""
    return {"type": "button", "action_id": SOURCES_ACTION, "value": answer_id,
            "text": {"type": "plain_text", "text": sources_label(answer), "emoji": True}}


def slack_sources_blocks(answer: Answer) -> list[dict[str, Any]]:
    """The full evidence of ``answer`` as Block Kit (what the "Sources" button
    posts): a heading section, then the evidence lines packed into sections of
    at most 3000 characters (at most :data:`SLACK_SOURCE_BLOCKS` blocks)."""
    head = "*" + _sl_esc(_t(answer, "来源与证据", "Sources and evidence")) + "*"
    lines = [head] + ["📄 " + _sl_link(c.title, c.url) + (f" ({_sl_esc(line_label(answer, c.line, c.doc))})" if c.line else "")
                      for c in answer.sources]
    for x in evidence_lines(answer):
        lines += ["• " + _sl_esc(p) for p in split_text(x, SLACK_TEXT_LIMIT - 2, _sl_len)]
    texts = pack(lines, SLACK_TEXT_LIMIT, "\n")
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": x}} for x in texts[:SLACK_SOURCE_BLOCKS]]
    if len(texts) > SLACK_SOURCE_BLOCKS:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": _sl_esc(
            _t(answer, "……证据太多，其余见 --json。", "… more evidence than fits; see --json."))}]})
    return blocks


#: What the adapters say besides answers, from ``adapters/messages.yaml``: name → {lang: text}.
_MESSAGES: dict[str, dict[str, str]] = yaml.safe_load(
    Path(__file__).with_name("messages.yaml").read_text(encoding="utf-8"))
#: Languages the adapters' own messages are written in (the first is the fallback).
LANGUAGES = ("en", "zh")


def language(code: str | None) -> str:
    """The message language for a platform language code (Telegram's ``language_code``, an IETF
    tag such as ``"zh-hans"``, ``"zh-TW"`` or ``"en"``): ``"zh"`` for any Chinese tag, else
    ``"en"``. ``None`` or ``""`` gives ``"en"``."""
    primary = (code or "").replace("_", "-").split("-")[0].strip().lower()
    return primary if primary in LANGUAGES else LANGUAGES[0]


def message(name: str, lang: str = "en") -> str:
    """The adapters' message ``name`` (a key of ``messages.yaml``) in ``lang`` (``"en"`` or
    ``"zh"``; any other falls back to English). Raises ``KeyError`` for an unknown name."""
    texts = _MESSAGES[name]
    return texts.get(lang) or texts[LANGUAGES[0]]


#: The reply to /help and /start in English: what the bot answers, an example question, the commands.
HELP_TEXT: str = message("help", "en")
#: The reply when answering failed.
APOLOGY_TEXT: str = message("apology", "en")
#: Longest answer text an adapter delivers (characters); longer text is cut (see :func:`cap_answer`).
MAX_ANSWER_CHARS = 12_000


def cap_answer(answer: Answer, limit: int = MAX_ANSWER_CHARS) -> Answer:
    """``answer`` with its text cut to at most ``limit`` characters (plus a short "answer
    shortened" note in the answer's language), at the last paragraph, line, sentence or space
    boundary in the last quarter before the limit; ``answer`` itself when it fits. Bounds what
    one answer can cost on a platform: e.g. a 200,000-character LLM answer becomes at most
    ``limit`` characters, i.e. a few messages."""
    text = answer.answer or ""
    if len(text) <= limit:
        return answer
    head = text[:limit]
    cut = -1
    for sep in ("\n\n", "\n", "。", ". ", "！", "? ", "？", " "):
        i = head.rfind(sep)
        if i >= limit * 3 // 4:
            cut = i + (len(sep) if sep in ("。", "！", "？") else 0)
            break
    head = head[:cut] if cut > 0 else head
    note = message("answer_cut", "zh" if answer.language == "zh" else "en")
    return answer.model_copy(update={"answer": head.rstrip() + "\n\n" + note})


class TTLSet:
    """A bounded set whose members expire after ``ttl`` seconds (thread-safe).

    ``add_if_new(key)`` returns True the first time a key is seen within its lifetime."""

    def __init__(self, ttl: float = 3600.0, max_size: int = 50_000):
        self.ttl, self.max_size = ttl, max_size
        self._items: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def _expire(self, now: float) -> None:
        while self._items:
            key, t = next(iter(self._items.items()))
            if now - t > self.ttl or len(self._items) > self.max_size:
                self._items.popitem(last=False)
            else:
                break

    def add_if_new(self, key: str) -> bool:
        """Add ``key``; True when it was not present (or had expired)."""
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            if key in self._items:
                return False
            self._items[key] = now
            return True

    def add(self, key: str) -> None:
        """Add or refresh ``key``."""
        now = time.monotonic()
        with self._lock:
            self._items.pop(key, None)
            self._items[key] = now
            self._expire(now)

    def __contains__(self, key: str) -> bool:
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            return key in self._items
