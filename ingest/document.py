"""The document model every reader produces and every extractor reads.

A reader (:mod:`.readers`) turns one file into a :class:`ParsedDocument`: a
flat, ordered list of :class:`Block` objects (headings, paragraphs, list
items, table rows, code) each carrying its heading path and 1-based source
lines, so the extractors never touch markup. Tabular formats also keep their
rows as :class:`Record` lists.

Bad input raises :class:`DocumentError` with the path, a 1-based line (0 when
the whole file is bad) and a human reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

#: ``ParsedDocument.format`` values of the tabular readers (rows → records).
TABLE_FORMATS = frozenset({"csv", "json", "jsonl"})


class DocumentError(Exception):
    """A file that cannot be ingested.

    ``path`` is the file path as given, ``line`` the 1-based line of the
    problem (0 when it concerns the whole file) and ``reason`` a short human
    explanation (``"empty file"``, ``"binary file (NUL byte)"``,
    ``"not valid UTF-8"``, ``"unsupported file type"``)."""

    def __init__(self, path: str | Path, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
        self.path = str(path)
        self.line = line
        self.reason = reason


@dataclass(slots=True)
class Block:
    """One structural element of a document.

    ``kind`` is ``"heading"``, ``"paragraph"``, ``"item"`` (list item),
    ``"row"`` (table row, cells joined by ``" | "``; ``cells`` holds them) or
    ``"code"``. ``line``/``end_line`` are 1-based inclusive source lines.
    ``path`` is the heading path the block lives under (for a heading: the
    path including itself); the document's first H1 (its title) is not part
    of paths. For headings ``level`` is 1-6; for items it is
    the list nesting depth (1 = top level). ``ordered`` marks numbered-list
    items, ``order`` is the 1-based position within its list, ``parent`` the
    index (in ``ParsedDocument.blocks``) of the enclosing list item or -1,
    ``header`` marks table header rows. ``bolds`` are the texts set in
    ``**bold**`` and ``lead_bold`` the bold text the block starts with (the
    term of a ``**Term** - definition`` line), ``""`` if none."""

    kind: str
    text: str
    line: int
    end_line: int
    path: tuple[str, ...] = ()
    level: int = 0
    ordered: bool = False
    order: int = 0
    parent: int = -1
    header: bool = False
    cells: list[str] = field(default_factory=list)
    bolds: list[str] = field(default_factory=list)
    lead_bold: str = ""


@dataclass(slots=True)
class Record:
    """One row of tabular data (a CSV/TSV row or a JSON object): ``line`` is
    the 1-based source line where it starts, ``fields`` the ``(column,
    value)`` pairs in column order; a value is a string, or a list of
    strings for JSON arrays of scalars."""

    line: int
    fields: list[tuple[str, str | list[str]]]

    def text(self) -> str:
        """The row as ``"column: value; column: value"`` (empty values left
        out, list values joined by ``", "``)."""
        parts = []
        for k, v in self.fields:
            val = ", ".join(v) if isinstance(v, list) else v
            if val.strip():
                parts.append(f"{k}: {val.strip()}")
        return "; ".join(parts)


@dataclass(slots=True)
class Part:
    """A run of blocks that is a document of its own inside a file (one
    recipe record of a JSON array): ``blocks[start:end]`` of the file's
    :class:`ParsedDocument`, the first being its title heading; ``title`` the
    record's title, ``line`` its 1-based first line, ``url`` its address
    (``""`` if none). See :func:`~.merge.document_units`."""

    start: int
    end: int
    title: str
    line: int
    url: str = ""


@dataclass(slots=True)
class ParsedDocument:
    """A parsed file: ``rel`` is the posix path relative to the ingest root,
    ``title`` the first H1 (or front-matter ``title``, or the file stem),
    ``h1`` the first H1 text or ``""``, ``blocks`` in source order,
    ``front_matter`` the document's metadata as ``key: text`` pairs (YAML
    front matter of Markdown, RST/AsciiDoc fields, the HTML ``<title>``),
    ``language`` ``"zh"``/``"en"``, ``markdown`` whether it was parsed as
    Markdown, ``format`` the reader used (``markdown``, ``text``, ``html``,
    ``rst``, ``asciidoc``, ``csv``, ``json``, ``jsonl``; ``record`` for one
    :class:`Part` read as a document of its own), ``tables`` the
    :class:`~.readers.tabular.TableData` of tabular formats (their rows are
    also ``row`` blocks, text ``"column: value; …"``), ``row_errors``
    ``(line, reason)`` for rows/objects (or front matter) that were skipped,
    ``parts`` the records that are documents of their own (:class:`Part`)
    and ``url`` the document's own address when its metadata gives one
    (front matter ``url``/``permalink``/``source``; ``""`` otherwise), kept for
    citations."""

    path: Path
    rel: str
    title: str
    h1: str
    blocks: list[Block]
    front_matter: dict[str, str]
    language: str
    markdown: bool = True
    format: str = "markdown"
    tables: list = field(default_factory=list)
    row_errors: list[tuple[int, str]] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    url: str = ""

    @property
    def tabular(self) -> bool:
        """True for CSV/TSV/JSON/JSONL documents."""
        return self.format in TABLE_FORMATS

    @property
    def stem(self) -> str:
        """File name without extension."""
        return self.path.stem


def read_text(path: Path) -> str:
    """Read ``path`` as UTF-8 (a BOM is dropped).

    Raises :class:`DocumentError` for an unreadable file (line 0), an
    empty/whitespace-only file (line 0), a binary file (line of the first
    NUL byte) or invalid UTF-8 (line of the first bad byte)."""
    try:
        data = path.read_bytes()
    except OSError as exc:  # unreadable, vanished, a directory...
        raise DocumentError(path, 0, f"cannot read file: {exc.strerror or exc}") from None
    nul = data.find(b"\x00")
    if nul >= 0:
        raise DocumentError(path, data.count(b"\n", 0, nul) + 1, "binary file (NUL byte)")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DocumentError(path, line, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})") from None
    if not text.strip():
        raise DocumentError(path, 0, "empty file")
    return text
