"""Plain-text reader (``.txt``): paragraphs split at blank lines; a recipe written as plain text
("Ingredients:" over its lines, "Directions:" over numbered steps) is read by its section labels."""

from __future__ import annotations

import re
from pathlib import Path

from ..document import Block
from .base import Reader, Reading, register
from .markdown import label_headings, parse_markdown


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


_TITLE_LINE = re.compile(r"^[^\n.!?:：]{2,60}$")


def read(path: Path, text: str) -> Reading:
    """The :class:`Reading` of a plain-text file (see :func:`parse_text`). A text laid out as a recipe, whose
    section labels :func:`~.markdown.label_headings` finds ("Ingredients:" opening its lines), is read as
    Markdown with those labels as headings; its first line, when it stands alone and reads as a title
    (short, no sentence mark), is the title."""
    labelled = label_headings(text)
    if labelled == text:
        return Reading(parse_text(text), "text")
    lines = labelled.split("\n")
    if lines and _TITLE_LINE.match(lines[0].strip()) and (len(lines) == 1 or not lines[1].strip()):
        lines[0] = "# " + lines[0].strip()
    blocks, h1, _fm = parse_markdown("\n".join(lines))
    return Reading(blocks, "text", h1)


READER = register(Reader("text", (".txt",), read))
