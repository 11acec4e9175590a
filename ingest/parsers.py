"""Read one file safely and turn it into a :class:`ParsedDocument`.

Markdown is parsed with markdown-it-py (CommonMark + the GFM table rule); the
token ``.map`` gives 0-based source line ranges, which we turn into 1-based
lines. The result is a flat, ordered list of :class:`Block` objects (headings,
paragraphs, list items, table rows, code) each carrying its heading path, so the
extractors never touch markdown syntax. Plain ``.txt`` files become paragraph
blocks (split at blank lines) with an empty heading path.

Pre-processing keeps line numbers right:

* YAML front matter (``---`` on line 1 ... ``---``) is blanked out line by line
  and its simple ``key: value`` pairs are returned in ``front_matter``.
* HTML comments ``<!-- ... -->`` are replaced by the same number of newlines.
* Images (``![alt](src)``) are dropped from the text.

Bad input raises :class:`DocumentError` with the path, a 1-based line (0 when
the whole file is bad) and a human reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown"})
TEXT_EXTENSIONS = frozenset({".txt"})
SUPPORTED_EXTENSIONS = MARKDOWN_EXTENSIONS | TEXT_EXTENSIONS

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMAGE_MD = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")

_MD = MarkdownIt("commonmark", {"html": True}).enable("table")


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
class ParsedDocument:
    """A parsed file: ``rel`` is the posix path relative to the ingest root,
    ``title`` the first H1 (or front-matter ``title``, or the file stem),
    ``h1`` the first H1 text or ``""``, ``blocks`` in source order,
    ``front_matter`` simple ``key: value`` pairs, ``language`` ``"zh"``/``"en"``,
    ``markdown`` whether it was parsed as markdown."""

    path: Path
    rel: str
    title: str
    h1: str
    blocks: list[Block]
    front_matter: dict[str, str]
    language: str
    markdown: bool = True

    @property
    def stem(self) -> str:
        """File name without extension."""
        return self.path.stem


def detect_language(text: str) -> str:
    """``"zh"`` when CJK characters make up at least 30 % of the letters of
    ``text`` (CJK + Latin), else ``"en"``; ``""`` for text without letters."""
    cjk = len(_CJK.findall(text))
    lat = len(_LATIN.findall(text))
    if cjk + lat == 0:
        return ""
    return "zh" if cjk / (cjk + lat) >= 0.3 else "en"


def read_text(path: Path) -> str:
    """Read ``path`` as UTF-8 (a BOM is dropped).

    Raises :class:`DocumentError` for an empty/whitespace-only file (line 0),
    a binary file (line of the first NUL byte) or invalid UTF-8 (line of the
    first bad byte)."""
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


def _strip_front_matter(text: str) -> tuple[str, dict[str, str]]:
    """Blank out a leading ``---`` YAML block line by line; return the text and
    its simple ``key: value`` pairs."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return text, {}
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            meta: dict[str, str] = {}
            for ln in lines[1:i]:
                m = re.match(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$", ln)
                if m:
                    meta[m.group(1).lower()] = m.group(2).strip().strip("'\"")
            return "\n" * i + "\n" + "\n".join(lines[i + 1 :]), meta
    return text, {}


def _blank_comments(text: str) -> str:
    return _HTML_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def _inline_text(tok) -> str:
    """Plain text of an inline token: text, code spans and link texts kept,
    images and HTML tags dropped, soft breaks become newlines."""
    return _inline(tok)[0]


def _inline(tok) -> tuple[str, list[str], str]:
    """``(text, bold texts, leading bold text)`` of an inline token."""
    out: list[str] = []
    bolds: list[str] = []
    lead = ""
    cur: list[str] | None = None
    starts = False
    for idx, ch in enumerate(tok.children or ()):
        t = ch.type
        if t == "text" or t == "code_inline":
            out.append(ch.content)
            if cur is not None:
                cur.append(ch.content)
        elif t in ("softbreak", "hardbreak"):
            out.append("\n")
        elif t == "strong_open":
            cur = []
            starts = not "".join(out).strip()
        elif t == "strong_close" and cur is not None:
            b = "".join(cur).strip()
            if b:
                bolds.append(b)
                if starts and not lead:
                    lead = b
            cur = None
    return "".join(out).strip(), bolds, lead


def parse_markdown(text: str) -> tuple[list[Block], str]:
    """Parse markdown ``text`` into blocks; returns ``(blocks, first_h1)``.

    Expects front matter and comments to be handled already (see
    :func:`parse_file`)."""
    tokens = _MD.parse(text)
    blocks: list[Block] = []
    heads: list[tuple[int, str]] = []  # (level, title)
    path: tuple[str, ...] = ()
    h1 = ""
    # list state: stack of [ordered, counter, depth]; item stack of block indices
    lists: list[list] = []
    items: list[int] = []  # block index of each open list item (-2 if no text yet)
    item_pending: list[tuple[int, int]] = []  # (start line, end line) for open items
    in_table_head = False
    row_cells: list[str] = []
    row_line = 0
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        t = tok.type
        if t == "heading_open":
            level = int(tok.tag[1])
            inline = tokens[i + 1]
            title = _inline_text(inline)
            title = re.sub(r"\s+", " ", title).strip().rstrip("#").strip()
            while heads and heads[-1][0] >= level:
                heads.pop()
            is_title = level == 1 and not h1 and bool(title)
            if is_title:
                h1 = title  # the document title is not part of section paths
            elif title:
                heads.append((level, title))
            path = tuple(h[1] for h in heads)
            ln = tok.map[0] + 1 if tok.map else 0
            blocks.append(Block("heading", title, ln, ln, path, level))
            i += 3
            continue
        if t in ("bullet_list_open", "ordered_list_open"):
            start = int(tok.attrGet("start") or 1) if t == "ordered_list_open" else 1
            lists.append([t == "ordered_list_open", start - 1])
        elif t in ("bullet_list_close", "ordered_list_close"):
            if lists:
                lists.pop()
        elif t == "list_item_open":
            if lists:
                lists[-1][1] += 1
            items.append(-2)
            m = tok.map or [0, 0]
            item_pending.append((m[0] + 1, m[1]))
        elif t == "list_item_close":
            if items:
                items.pop()
                item_pending.pop()
        elif t == "inline" and items and items[-1] == -2:
            # first inline inside the current list item = the item's own text
            ordered, counter = lists[-1] if lists else (False, 0)
            parent = next((b for b in reversed(items[:-1]) if b >= 0), -1)
            start, end = item_pending[-1]
            ln = tok.map[0] + 1 if tok.map else start
            txt, bolds, lead = _inline(tok)
            blocks.append(
                Block("item", txt, ln, max(ln, tok.map[1] if tok.map else end), path,
                      level=len(lists), ordered=ordered, order=counter, parent=parent,
                      bolds=bolds, lead_bold=lead)
            )
            items[-1] = len(blocks) - 1
        elif t == "inline" and tokens[i - 1].type == "paragraph_open":
            m = tokens[i - 1].map or [0, 0]
            txt, bolds, lead = _inline(tok)
            if txt:
                parent = next((b for b in reversed(items) if b >= 0), -1)
                blocks.append(Block("paragraph", txt, m[0] + 1, m[1], path, parent=parent,
                                    bolds=bolds, lead_bold=lead))
        elif t == "thead_open":
            in_table_head = True
        elif t == "thead_close":
            in_table_head = False
        elif t == "tr_open":
            row_cells = []
            row_line = tok.map[0] + 1 if tok.map else 0
        elif t == "inline" and tokens[i - 1].type in ("th_open", "td_open"):
            row_cells.append(_inline_text(tok))
        elif t == "tr_close":
            if any(row_cells):
                blocks.append(Block("row", " | ".join(row_cells), row_line, row_line, path,
                                    header=in_table_head, cells=list(row_cells)))
        elif t in ("code_block", "fence"):
            m = tok.map or [0, 0]
            txt = tok.content.strip("\n")
            if txt.strip():
                parent = next((b for b in reversed(items) if b >= 0), -1)
                blocks.append(Block("code", txt, m[0] + 1, m[1], path, parent=parent))
        i += 1
    return blocks, h1


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


def parse_file(path: Path, rel: str | None = None) -> ParsedDocument:
    """Read and parse one ``.md``/``.markdown``/``.txt`` file.

    ``rel`` is the document path recorded in provenance (defaults to the file
    name). Raises :class:`DocumentError` for unsupported extensions and for
    the read errors of :func:`read_text`."""
    ext = path.suffix.lower()
    if ext not in SUPPORTED_EXTENSIONS:
        raise DocumentError(path, 0, "unsupported file type")
    text = read_text(path)
    rel = rel or path.name
    if ext in MARKDOWN_EXTENSIONS:
        text, meta = _strip_front_matter(text)
        text = _blank_comments(text)
        text = _IMAGE_MD.sub("", text)
        blocks, h1 = parse_markdown(text)
        markdown = True
    else:
        meta, h1 = {}, ""
        blocks = parse_text(text)
        markdown = False
    if not any(b.text.strip() for b in blocks):
        raise DocumentError(path, 0, "empty file (no text after parsing)")
    title = h1 or meta.get("title", "") or path.stem
    sample = " ".join(b.text for b in blocks[:200])
    return ParsedDocument(path, rel, title, h1, blocks, meta, detect_language(sample) or "en", markdown)
