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
from ..knowledge.records import cite

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


#: What the adapters say besides answers, from ``adapters/messages.yaml``.
_MESSAGES = yaml.safe_load(Path(__file__).with_name("messages.yaml").read_text(encoding="utf-8"))
#: The reply to /help and /start: what the bot answers, an example question, the commands.
HELP_TEXT: str = _MESSAGES["help"]
#: The reply when answering failed.
APOLOGY_TEXT: str = _MESSAGES["apology"]


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
