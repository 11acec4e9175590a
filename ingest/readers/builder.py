"""Block building shared by the line- and event-based readers (HTML,
reStructuredText, AsciiDoc): :class:`BlockBuilder` gives their blocks the
same heading-path, nesting and numbering semantics as Markdown's, and
:class:`ListStack` tracks list nesting for line-based formats."""

from __future__ import annotations

import re

from ..document import Block


class BlockBuilder:
    """Accumulates blocks with Markdown-equivalent semantics.

    The first level-1 heading is the document title (kept in ``h1``, not in
    heading paths); later headings maintain the heading path. List items get
    ``level`` (nesting depth), ``ordered``, ``order`` and ``parent``
    (index of the enclosing list item's block or -1)."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.heads: list[tuple[int, str]] = []
        self.path: tuple[str, ...] = ()
        self.h1 = ""

    def heading(self, level: int, text: str, line: int) -> None:
        """Add a heading of ``level`` (1-6)."""
        text = re.sub(r"\s+", " ", text).strip()
        while self.heads and self.heads[-1][0] >= level:
            self.heads.pop()
        if level == 1 and not self.h1 and text:
            self.h1 = text
        elif text:
            self.heads.append((level, text))
        self.path = tuple(h[1] for h in self.heads)
        self.blocks.append(Block("heading", text, line, line, self.path, level))

    def item(self, text: str, line: int, end: int, *, depth: int, ordered: bool, order: int, parent: int,
             bolds: list[str] | None = None, lead: str = "") -> int:
        """Add a list item; returns its block index."""
        self.blocks.append(Block("item", text, line, max(line, end), self.path, level=depth, ordered=ordered,
                                 order=order, parent=parent, bolds=list(bolds or []), lead_bold=lead))
        return len(self.blocks) - 1

    def paragraph(self, text: str, line: int, end: int, parent: int = -1, bolds: list[str] | None = None,
                  lead: str = "") -> None:
        """Add a paragraph (skipped when blank)."""
        if text.strip():
            self.blocks.append(Block("paragraph", text.strip(), line, max(line, end), self.path, parent=parent,
                                     bolds=list(bolds or []), lead_bold=lead))

    def row(self, cells: list[str], line: int, header: bool) -> None:
        """Add a table row (skipped when all cells are empty)."""
        if any(c.strip() for c in cells):
            self.blocks.append(Block("row", " | ".join(cells), line, line, self.path, header=header,
                                     cells=list(cells)))

    def code(self, text: str, line: int, end: int, parent: int = -1) -> None:
        """Add a code/preformatted block (skipped when blank)."""
        text = text.strip("\n")
        if text.strip():
            self.blocks.append(Block("code", text, line, max(line, end), self.path, parent=parent))


class ListStack:
    """Item nesting for line-based formats: ``place(depth, ordered)`` gives the
    item's order within its list and its parent block index."""

    def __init__(self) -> None:
        self.stack: list[list] = []  # [depth key, ordered, counter, block index]

    def close(self) -> None:
        """Forget all open lists (a heading or a non-item line ends them)."""
        self.stack.clear()

    def place(self, key: int, ordered: bool) -> tuple[int, int, int]:
        """``(depth, order, parent)`` for a new item at indentation/marker
        depth ``key``."""
        while self.stack and self.stack[-1][0] > key:
            self.stack.pop()
        if self.stack and self.stack[-1][0] == key and self.stack[-1][1] == ordered:
            self.stack[-1][2] += 1
        else:
            if self.stack and self.stack[-1][0] == key:
                self.stack.pop()
            self.stack.append([key, ordered, 1, -1])
        parent = self.stack[-2][3] if len(self.stack) >= 2 else -1
        return len(self.stack), self.stack[-1][2], parent

    def set_block(self, idx: int) -> None:
        """Record block ``idx`` as the innermost open item."""
        self.stack[-1][3] = idx

    def current(self) -> int:
        """Block index of the innermost open item, or -1."""
        return self.stack[-1][3] if self.stack else -1
