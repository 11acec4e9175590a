"""What the tabular readers (CSV/TSV, JSON, JSON Lines) share: the
:class:`TableData` they produce, the :class:`TableError` they raise, and
:func:`table_blocks`, which turns tables into ``row`` blocks so tabular
documents chunk like the others. :mod:`..tables` gives the columns meaning."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..document import Block, Record


@dataclass(slots=True)
class TableData:
    """Records read from a tabular file: ``columns`` in first-seen order,
    ``records`` with their 1-based lines, ``errors`` as ``(line, reason)``
    for rows/objects that were skipped."""

    columns: list[str] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    section: str = ""


class TableError(Exception):
    """A tabular file that yields nothing: ``line`` (1-based, 0 = whole file)
    and ``reason``."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


def table_blocks(tables: list, leaves: list[tuple[str, str, int]]) -> list[Block]:
    """Row blocks for tabular data (a header row, then one row per record
    with text ``"column: value; …"``), and paragraph blocks for JSON leaves
    (``"key.path: text"``)."""
    blocks: list[Block] = []
    for t in tables:
        path = (t.section,) if t.section else ()
        if t.records:
            first = t.records[0].line
            blocks.append(Block("row", " | ".join(t.columns), max(1, first - 1), max(1, first - 1), path,
                                header=True, cells=list(t.columns)))
        for r in t.records:
            cells = [", ".join(v) if isinstance(v, list) else v for _, v in r.fields]
            blocks.append(Block("row", r.text(), r.line, r.line, path, cells=cells))
    for key, text, line in leaves:
        blocks.append(Block("paragraph", f"{key}: {text}" if key else text, line, line + text.count("\n")))
    return blocks
