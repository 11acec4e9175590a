"""Platform-neutral rendering helpers shared by the Slack and Telegram adapters.

Nothing here imports a platform SDK. The functions turn an :class:`~threadgraph.bot.answer.Answer`
into plain-text pieces (answer paragraphs, one line per fact, one line per source) and split long
text into chunks that respect a platform's size limit, preferring paragraph boundaries, then line
boundaries, then spaces, and only cutting inside a word as a last resort.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Callable, Iterable

import yaml

from ..bot.answer import Answer, Fact

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
    """``doc § section:line`` with the empty parts left out."""
    ref = doc
    if section:
        ref += f" § {section}"
    if line:
        ref += f":{line}"
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
