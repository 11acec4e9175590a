"""Plain-text reader (``.txt``): paragraphs split at blank lines."""

from __future__ import annotations

from pathlib import Path

from ..document import Block
from .base import Reader, Reading, register


def parse_text(text: str) -> list[Block]:
    """Split plain text into paragraph blocks at blank lines (1-based lines)."""
    blocks: list[Block] = []
    buf: list[str] = []
    start = 0
    for no, raw in enumerate(text.split("\n"), 1):
        if raw.strip():
            if not buf:
                start = no
            buf.append(raw.rstrip())
        elif buf:
            blocks.append(Block("paragraph", "\n".join(buf).strip(), start, no - 1))
            buf = []
    if buf:
        blocks.append(Block("paragraph", "\n".join(buf).strip(), start, start + len(buf) - 1))
    return blocks


def read(path: Path, text: str) -> Reading:
    """The :class:`Reading` of a plain-text file (see :func:`parse_text`)."""
    return Reading(parse_text(text), "text")


READER = register(Reader("text", (".txt",), read))
