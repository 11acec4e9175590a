"""Passages for retrieval: section-aware chunks of a parsed document.

A new passage starts at every H2/H3 heading; long sections are split between
blocks, a single long block at sentence ends (:func:`split_spans`). Tabular
documents are grouped a number of rows at a time.
"""

from __future__ import annotations

import re

from ..knowledge.records import Chunk, stable_id
from ..knowledge.text import detect_language, sentence_spans
from .document import Block, ParsedDocument

CHUNK_MAX_CHARS = 800
TABLE_ROWS_PER_CHUNK = 20
TABLE_CHUNK_MAX_CHARS = 2400


def _block_text(b: Block) -> str:
    if b.kind == "item":
        indent = "  " * max(0, b.level - 1)
        return f"{indent}{b.order}. {b.text}" if b.ordered else f"{indent}- {b.text}"
    return b.text


_CLAUSE_END = re.compile(r"(?<=[，、,：:])")


def _cut_points(text: str, rx: re.Pattern) -> list[int]:
    return [m.start() for m in rx.finditer(text) if 0 < m.start() < len(text)]


def split_spans(text: str, limit: int) -> list[tuple[int, str]]:
    """Split one over-long block into ``(offset, piece)`` pieces of at most
    ``limit`` characters: greedily packed whole sentences (see
    :func:`~..knowledge.text.sentence_spans`); a sentence longer than ``limit``
    is cut at the last space, else after a clause mark (，、,:), else hard
    (CJK text without punctuation). Pieces are stripped; ``offset`` is where
    the piece starts in ``text``."""
    pieces: list[tuple[int, str]] = []

    def emit(a: int, b: int) -> None:
        raw = text[a:b]
        lead = len(raw) - len(raw.lstrip())
        if raw.strip():
            pieces.append((a + lead, raw.strip()))

    bounds = [0, *(a for a, _ in sentence_spans(text)[1:]), len(text)]
    start = 0  # start of the current piece
    prev = 0  # last sentence boundary inside the current piece
    for b in bounds[1:]:
        if len(text[start:b].strip()) <= limit:
            prev = b
            continue
        if prev > start:  # close the piece at the last sentence end that fits
            emit(start, prev)
            start = prev
        while len(text[start:b].strip()) > limit:  # one sentence longer than limit
            seg = text[start:start + limit + 1]
            lead = len(seg) - len(seg.lstrip())
            window = text[start:start + lead + limit + 1]
            cut = window.rfind(" ", 0, lead + limit + 1)
            if cut <= lead:
                marks = [c for c in _cut_points(window[:lead + limit], _CLAUSE_END) if c > lead]
                cut = marks[-1] if marks else lead + limit
            emit(start, start + cut)
            start += cut
        prev = b
    emit(start, len(text))
    return pieces


def _piece_line(b: Block, text: str, offset: int) -> int:
    """Source line of the piece starting at ``offset`` of block ``b``'s
    ``text`` (soft line breaks map to source lines; capped at the block's
    last line)."""
    return min(b.line + text.count("\n", 0, offset), max(b.line, b.end_line))


def make_table_chunks(doc: ParsedDocument, rows_per_chunk: int = TABLE_ROWS_PER_CHUNK,
                      max_chars: int = TABLE_CHUNK_MAX_CHARS) -> list[Chunk]:
    """Passages of a tabular document (CSV/TSV/JSON/JSONL).

    Data rows (text ``"column: value; column: value"``) are grouped
    ``rows_per_chunk`` at a time (fewer when the group would exceed
    ``max_chars``; a single longer row is split at sentence ends); a new
    group starts for each table (section = its JSON key path). JSON text
    leaves (``"key.path: text"``) are grouped the same way by size. ``line``
    is the first row's source line, so a passage cites the row it starts at."""
    chunks: list[Chunk] = []
    buf: list[str] = []
    start = 0
    cur: tuple = ("", "")

    def flush() -> None:
        nonlocal buf
        text = "\n".join(buf).strip()
        if text:
            chunks.append(Chunk(stable_id(doc.rel, start, len(chunks)), doc.rel, cur[1], text, start,
                                detect_language(text) or doc.language))
        buf = []

    for b in doc.blocks:
        if b.kind == "row" and b.header:
            continue
        key = (b.kind, " > ".join(b.path))
        t = b.text.strip()
        if not t:
            continue
        if key != cur:
            flush()
            cur = key
        if len(t) > max_chars:
            flush()
            for off, piece in split_spans(t, max_chars):
                start = _piece_line(b, t, off)
                buf = [piece]
                flush()
            continue
        size = sum(len(x) + 1 for x in buf)
        if buf and (size + len(t) > max_chars or (b.kind == "row" and len(buf) >= rows_per_chunk)):
            flush()
        if not buf:
            start = b.line
        buf.append(t)
    flush()
    return chunks


def _continues(path: tuple[str, ...], cur: tuple[str, ...]) -> bool:
    """A block with heading path ``path`` belongs to the passage group ``cur``."""
    return path[:len(cur)] == cur or (bool(path) and cur[:len(path)] == path)


def make_chunks(doc: ParsedDocument, max_chars: int = CHUNK_MAX_CHARS) -> list[Chunk]:
    """Section-aware passages of ``doc`` (tabular documents without records
    that are documents of their own: see :func:`make_table_chunks`).

    A new passage starts at every H2/H3 (deeper headings stay inside their
    H3; the heading text itself is not in ``text`` but in ``section``).
    Sections longer than ``max_chars`` are split between blocks (paragraphs,
    list items, rows), a single longer block at sentence ends. ``line`` is the
    first source line of the passage, and line ``k`` (0-based) of ``text`` is
    source line ``line + k``: the blank lines between blocks are kept, so a
    sentence quoted from a passage cites its own line. ``id`` is
    ``stable_id(doc, line)``."""
    if doc.tabular and not doc.parts:
        return make_table_chunks(doc)
    groups: list[tuple[tuple[str, ...], list[Block]]] = []
    cur_path: tuple[str, ...] | None = None
    for b in doc.blocks:
        if b.kind == "heading":
            if b.level <= 3 or cur_path is None:
                key = b.path[:2] if b.level > 3 else b.path
                groups.append((key, []))
                cur_path = key
            continue
        if not groups or (cur_path is not None and not _continues(b.path, cur_path)):
            # content outside the current section (the body after front-matter sections)
            key = b.path[:3]
            groups.append((key, []))
            cur_path = key
        groups[-1][1].append(b)
    chunks: list[Chunk] = []
    for path, blocks in groups:
        section = " > ".join(path)
        buf: list[str] = []
        start = 0
        size = 0
        last = 0  # source line of the last text line in buf

        def flush() -> None:
            nonlocal buf, size
            text = "".join(buf).strip()
            if text:
                chunks.append(Chunk(stable_id(doc.rel, start, len(chunks)), doc.rel, section, text, start,
                                    detect_language(text) or doc.language))
            buf, size = [], 0

        for b in blocks:
            t = _block_text(b)
            if not t.strip():
                continue
            if len(t) > max_chars:
                flush()
                for off, piece in split_spans(t, max_chars):
                    start = _piece_line(b, t, off)
                    buf, size = [piece], len(piece)
                    flush()
                continue
            # the blank lines between blocks are kept, so line ``start + k`` of text is source line
            sep = "\n" * max(1, b.line - last) if buf else ""
            if size + len(sep) + len(t) > max_chars and buf:
                flush()
                sep = ""
            if not buf:
                start = b.line
            buf += [sep, t]
            last = b.line + t.count("\n")
            size += len(sep) + len(t)
        flush()
    return chunks

