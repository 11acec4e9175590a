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
HTML_EXTENSIONS = frozenset({".html", ".htm", ".xhtml"})
RST_EXTENSIONS = frozenset({".rst", ".rest"})
ASCIIDOC_EXTENSIONS = frozenset({".adoc", ".asciidoc", ".asc"})
DELIMITED_EXTENSIONS = frozenset({".csv", ".tsv", ".tab"})
JSON_EXTENSIONS = frozenset({".json"})
JSONL_EXTENSIONS = frozenset({".jsonl", ".ndjson"})
TABLE_FORMATS = frozenset({"csv", "json", "jsonl"})
SUPPORTED_EXTENSIONS = (MARKDOWN_EXTENSIONS | TEXT_EXTENSIONS | HTML_EXTENSIONS | RST_EXTENSIONS
                        | ASCIIDOC_EXTENSIONS | DELIMITED_EXTENSIONS | JSON_EXTENSIONS | JSONL_EXTENSIONS)

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMAGE_MD = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")

_MD = MarkdownIt("commonmark", {"html": True}).enable("table")

# kramdown IAL / attr_list suffixes: ``{:target="_blank"}``, ``{: .class}``, ``{#id .class key=val}``
_ATTR_LIST = re.compile(
    r"[ \t]*\{:[^{}\n]*\}"
    r"|[ \t]*\{[ \t]*[#.][A-Za-z_][\w-]*(?:[ \t]+(?:[#.][A-Za-z_][\w-]*|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s}]+)))*[ \t]*\}")
# MkDocs / Python-Markdown admonitions: ``!!! tip "Title"``, ``???+ aside hide-arrow "Title"``, ``??? note``
_ADMONITION = re.compile(
    r"^(?P<ind>[ \t]*)(?:!!!|\?\?\?\+?)[ \t]*(?P<kind>[A-Za-z][\w-]*)?(?:[ \t]+[\w-]+)*[ \t]*"
    r"(?:\"(?P<t1>[^\"]*)\"|'(?P<t2>[^']*)')?[ \t]*$")
_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_SETEXT_DASH = re.compile(r"^ {0,3}-+[ \t]*$")
_BLOCK_START = re.compile(r"^(?:[#>*+=`~|<-]|\d+[.)])")


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
class ParsedDocument:
    """A parsed file: ``rel`` is the posix path relative to the ingest root,
    ``title`` the first H1 (or front-matter ``title``, or the file stem),
    ``h1`` the first H1 text or ``""``, ``blocks`` in source order,
    ``front_matter`` simple ``key: value`` pairs, ``language`` ``"zh"``/``"en"``,
    ``markdown`` whether it was parsed as markdown, ``format`` the reader
    used (``markdown``, ``text``, ``html``, ``rst``, ``asciidoc``, ``csv``,
    ``json``, ``jsonl``), ``tables`` the
    :class:`~threadgraph.ingest.formats.TableData` of tabular formats (their
    rows are also ``row`` blocks, text ``"column: value; …"``) and
    ``row_errors`` ``(line, reason)`` for rows/objects that were skipped."""

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

    @property
    def tabular(self) -> bool:
        """True for CSV/TSV/JSON/JSONL documents."""
        return self.format in TABLE_FORMATS

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


def strip_attr_lists(text: str) -> str:
    """``text`` without kramdown/attr_list suffixes (``{:target="_blank"}``,
    ``{: .class}``, ``{#id}``)."""
    return _ATTR_LIST.sub("", text) if "{" in text else text


def _indent(line: str) -> int:
    exp = line.expandtabs(4)
    return len(exp) - len(exp.lstrip(" "))


def unwrap_admonitions(text: str) -> str:
    """Rewrite MkDocs admonitions so they parse as normal text, line for line.

    The marker line (``!!! tip "Flexible Structure"``, ``???+ aside
    hide-arrow "…"``, ``??? note``) becomes its title (the capitalised type
    when no title is given, nothing for ``""``) and the 4-space-indented body
    is dedented, so a title directly followed by its body parses as one
    paragraph ("Title\\nbody…") instead of an indented code block. The number
    of lines never changes, so source lines stay right. Fenced code blocks
    are left alone; nested admonitions are unwrapped too."""
    if "!!!" not in text and "???" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    fence = ""
    i, n = 0, len(lines)
    while i < n:
        ln = lines[i]
        fm = _FENCE_OPEN.match(ln)
        if fence:
            if fm and fm.group(1)[0] == fence[0] and len(fm.group(1)) >= len(fence) \
                    and not ln.strip().lstrip(fence[0]):
                fence = ""
            out.append(ln)
            i += 1
            continue
        if fm:
            fence = fm.group(1)
            out.append(ln)
            i += 1
            continue
        m = _ADMONITION.match(ln)
        if not m:
            out.append(ln)
            i += 1
            continue
        ind = m.group("ind").expandtabs(4)
        title = m.group("t1") if m.group("t1") is not None else m.group("t2")
        if title is None:
            title = (m.group("kind") or "").replace("-", " ").capitalize()
        title = title.strip()
        if title:
            title = re.sub(r"^(\d+)([.)])", r"\1\\\2", title)
            if _BLOCK_START.match(title) and not title[0].isdigit():
                title = "\\" + title
        out.append(ind + title if title else "")
        body_ind = len(ind) + 4
        body: list[str] = []
        j = i + 1
        while j < n:
            bl = lines[j]
            if not bl.strip():
                body.append("")
            elif _indent(bl) >= body_ind:
                body.append(bl.expandtabs(4)[body_ind:])
            else:
                break
            j += 1
        if body:
            out.extend(ind + b if b else "" for b in unwrap_admonitions("\n".join(body)).split("\n"))
        if j < n and (body[-1] if body else title) and _SETEXT_DASH.match(lines[j]):
            # "---" right after the body ends the admonition (a rule), it must not
            # turn the body's last paragraph into a setext heading
            out.append(lines[j].replace("-", "*"))
            j += 1
        i = j
    return "\n".join(out)


def _inline_text(tok) -> str:
    """Plain text of an inline token: text, code spans and link texts kept,
    images and HTML tags dropped, soft breaks become newlines."""
    return _inline(tok)[0]


def _inline(tok) -> tuple[str, list[str], str]:
    """``(text, bold texts, leading bold text)`` of an inline token; attr
    lists (``{:target="_blank"}``) are removed from text (not code spans)."""
    out: list[str] = []
    bolds: list[str] = []
    lead = ""
    cur: list[str] | None = None
    starts = False
    run: list[str] = []  # consecutive plain text, cleaned together

    def flush_run() -> None:
        if run:
            out.append(strip_attr_lists("".join(run)))
            run.clear()

    for ch in tok.children or ():
        t = ch.type
        if t == "text":
            run.append(ch.content)
            if cur is not None:
                cur.append(ch.content)
            continue
        flush_run()
        if t == "code_inline":
            out.append(ch.content)
            if cur is not None:
                cur.append(ch.content)
        elif t in ("softbreak", "hardbreak"):
            out.append("\n")
        elif t == "strong_open":
            cur = []
            starts = not "".join(out).strip()
        elif t == "strong_close" and cur is not None:
            b = strip_attr_lists("".join(cur)).strip()
            if b:
                bolds.append(b)
                if starts and not lead:
                    lead = b
            cur = None
    flush_run()
    text = "\n".join(x.rstrip() for x in "".join(out).split("\n"))
    return text.strip(), bolds, lead


def _html_fragment(content: str, first_line: int) -> list[Block]:
    """Blocks of a raw HTML block inside Markdown, read with the HTML reader
    of :mod:`threadgraph.ingest.formats` (table rows as ``"cell | cell"``,
    lists, paragraphs, code); ``first_line`` is the 1-based source line of
    the fragment's first line, added to the reader's lines."""
    from threadgraph.ingest.formats import _HTMLBlocks

    p = _HTMLBlocks()
    p.feed(content)
    p.close()
    off = first_line - 1
    out = []
    for b in p.b.blocks:
        b.line += off
        b.end_line = max(b.line, b.end_line + off)
        b.text = strip_attr_lists(b.text)
        b.cells = [strip_attr_lists(c) for c in b.cells]
        if b.kind == "row":
            b.text = " | ".join(b.cells)
        out.append(b)
    return out


def parse_markdown(text: str) -> tuple[list[Block], str]:
    """Parse markdown ``text`` into blocks; returns ``(blocks, first_h1)``.

    Expects front matter and comments to be handled already (see
    :func:`parse_file`). MkDocs admonitions are unwrapped first (see
    :func:`unwrap_admonitions`); raw HTML blocks are read with the HTML
    reader (see :func:`_html_fragment`) under the current heading path."""
    tokens = _MD.parse(unwrap_admonitions(text))
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
        elif t == "html_block" and tok.content.strip():
            m = tok.map or [0, 0]
            outer = next((b for b in reversed(items) if b >= 0), -1)
            base = len(blocks)
            for hb in _html_fragment(tok.content, m[0] + 1):
                if hb.kind == "heading":
                    title = hb.text
                    while heads and heads[-1][0] >= hb.level:
                        heads.pop()
                    if hb.level == 1 and not h1 and title:
                        h1 = title
                    elif title:
                        heads.append((hb.level, title))
                    path = tuple(h[1] for h in heads)
                    hb.path = path
                else:
                    hb.path = path + hb.path
                    hb.parent = hb.parent + base if hb.parent >= 0 else outer
                blocks.append(hb)
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


def _table_blocks(tables: list, leaves: list[tuple[str, str, int]]) -> list[Block]:
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


def _parse_tabular(path: Path, text: str, ext: str) -> tuple[str, list, list[tuple[str, str, int]], list, str]:
    """``(format, tables, leaves, row_errors, title)`` of a CSV/TSV/JSON/JSONL
    file; raises :class:`DocumentError` when nothing parses. A ``.json`` file
    holding JSON Lines, or a ``.jsonl`` file holding one (pretty-printed)
    JSON document, is read by content."""
    import json

    from threadgraph.ingest.formats import TableError, read_delimited, read_json, read_jsonl

    if ext in DELIMITED_EXTENSIONS:
        try:
            data = read_delimited(text, tab_default=ext != ".csv")
        except TableError as err:
            raise DocumentError(path, err.line, err.reason) from None
        return "csv", [data], [], list(data.errors), ""

    def as_json() -> tuple[str, list, list, list, str]:
        try:
            tables, leaves = read_json(text)
        except json.JSONDecodeError as exc:
            raise DocumentError(path, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
        except RecursionError:
            raise DocumentError(path, 0, "JSON nested too deeply") from None
        title = next((t for k, t, _ in leaves if k.lower() in ("title", "name")), "")
        if not any(t.records for t in tables) and not leaves:
            raise DocumentError(path, 1, "JSON holds no text")
        return "json", tables, leaves, [], title

    def as_jsonl() -> tuple[str, list, list, list, str]:
        try:
            data = read_jsonl(text)
        except TableError as err:
            raise DocumentError(path, err.line, err.reason) from None
        return "jsonl", [data], [], list(data.errors), ""

    multi = sum(1 for ln in text.split("\n") if ln.strip().startswith("{") and ln.strip().endswith("}")) >= 2
    if ext in JSON_EXTENSIONS:
        try:
            return as_json()
        except DocumentError as err:
            if multi and "Extra data" in err.reason:
                return as_jsonl()
            raise
    try:
        return as_jsonl()
    except DocumentError as err:
        try:
            return as_json()  # one pretty-printed document in a .jsonl file
        except DocumentError:
            raise err from None


def parse_file(path: Path, rel: str | None = None) -> ParsedDocument:
    """Read and parse one document file.

    Formats by extension: Markdown (``.md``/``.markdown``), plain text
    (``.txt``), HTML (``.html``/``.htm``/``.xhtml``), reStructuredText
    (``.rst``/``.rest``), AsciiDoc (``.adoc``/``.asciidoc``/``.asc``),
    CSV/TSV (``.csv``/``.tsv``/``.tab``), JSON (``.json``) and JSON Lines
    (``.jsonl``/``.ndjson``); see :mod:`threadgraph.ingest.formats`. An
    ``.rst``/``.adoc`` file whose content starts with HTML markup is parsed
    as HTML.

    ``rel`` is the document path recorded in provenance (defaults to the file
    name). Raises :class:`DocumentError` for unsupported extensions, for the
    read errors of :func:`read_text`, for invalid JSON (line from
    :class:`json.JSONDecodeError`) and for tables where no row parses (line
    of the first bad row)."""
    ext = path.suffix.lower()
    if ext not in SUPPORTED_EXTENSIONS:
        raise DocumentError(path, 0, "unsupported file type")
    text = read_text(path)
    rel = rel or path.name
    tables: list = []
    row_errors: list[tuple[int, str]] = []
    fmt_title = ""
    if ext in MARKDOWN_EXTENSIONS:
        text, meta = _strip_front_matter(text)
        text = _blank_comments(text)
        text = _IMAGE_MD.sub("", text)
        blocks, h1 = parse_markdown(text)
        fmt = "markdown"
    elif ext in TEXT_EXTENSIONS:
        meta, h1 = {}, ""
        blocks = parse_text(text)
        fmt = "text"
    elif ext in DELIMITED_EXTENSIONS | JSON_EXTENSIONS | JSONL_EXTENSIONS:
        fmt, tables, leaves, row_errors, fmt_title = _parse_tabular(path, text, ext)
        meta, h1 = ({"title": fmt_title} if fmt_title else {}), ""
        blocks = _table_blocks(tables, leaves)
    else:
        from threadgraph.ingest.formats import looks_like_html, parse_asciidoc, parse_html, parse_rst

        if ext in HTML_EXTENSIONS or (text.lstrip().startswith("<") and looks_like_html(text)):
            blocks, h1, meta = parse_html(text)
            fmt = "html"
        elif ext in RST_EXTENSIONS:
            blocks, h1, meta = parse_rst(text)
            fmt = "rst"
        else:
            blocks, h1, meta = parse_asciidoc(text)
            fmt = "asciidoc"
    if not any(b.text.strip() for b in blocks):
        raise DocumentError(path, 0, "empty file (no text after parsing)")
    title = h1 or meta.get("title", "") or path.stem
    sample = " ".join(b.text for b in blocks[:200])
    return ParsedDocument(path, rel, title, h1, blocks, meta, detect_language(sample) or "en", fmt == "markdown",
                          fmt, tables, row_errors)
