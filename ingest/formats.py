"""Readers for the non-Markdown formats: HTML, reStructuredText, AsciiDoc,
CSV/TSV and JSON/JSON Lines.

Prose formats (HTML, RST, AsciiDoc) are turned into the same flat list of
:class:`~threadgraph.ingest.parsers.Block` objects as Markdown (headings with
heading paths, list items with nesting/numbering, paragraphs, table rows,
code), with 1-based source lines, so the recipe/SOP/role extractors apply
unchanged.

Tabular formats (CSV/TSV, JSON arrays of objects, JSON Lines) become
:class:`~threadgraph.ingest.parsers.Record` lists (one per row/object, with
the row's 1-based source line); :mod:`threadgraph.ingest.tables` gives the
columns meaning. Other JSON becomes paragraph blocks of its string leaves,
each prefixed by its key path.

Everything here is stdlib only (``html.parser``, ``csv``, ``json``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from threadgraph.ingest.parsers import Block, Record

__all__ = [
    "BlockBuilder", "TableData", "parse_html", "parse_rst", "parse_asciidoc", "read_delimited", "read_json",
    "read_jsonl", "looks_like_html",
]


# =========================================================================== builder
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


class _ListStack:
    """Item nesting for line-based formats: ``push(depth, ordered)`` gives the
    item's order within its list and its parent block index."""

    def __init__(self) -> None:
        self.stack: list[list] = []  # [depth key, ordered, counter, block index]

    def close(self) -> None:
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
        self.stack[-1][3] = idx

    def current(self) -> int:
        return self.stack[-1][3] if self.stack else -1


# =========================================================================== HTML
_DROP = frozenset({"script", "style", "nav", "noscript", "template", "svg", "iframe", "head", "button", "select",
                   "canvas", "object"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                   "track", "wbr"})
_BLOCKISH = frozenset({
    "p", "div", "section", "article", "main", "header", "footer", "aside", "blockquote", "ul", "ol", "li", "table",
    "thead", "tbody", "tfoot", "tr", "td", "th", "pre", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
    "hr", "figure", "figcaption", "details", "summary", "body", "html", "form", "fieldset", "address", "caption",
    "center",
})
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_HTML_SNIFF = re.compile(r"<!doctype\s+html|<html[\s>]|<body[\s>]|<(?:h[1-6]|p|ul|ol|li|div|table)[\s>]", re.I)


def looks_like_html(text: str) -> bool:
    """True when the start of ``text`` contains an HTML doctype or common
    structural tags (used to accept HTML content whatever the extension)."""
    return bool(_HTML_SNIFF.search(text[:4096]))


class _HTMLBlocks(HTMLParser):
    """Event handler building blocks; see :func:`parse_html`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.b = BlockBuilder()
        self.title = ""
        self.drop: list[str] = []  # open dropped elements
        self.in_title = False
        # current text buffer (paragraph / item / heading / dt / dd text)
        self.buf: list[str] = []
        self.buf_line = 0
        self.buf_end = 0
        self.bolds: list[str] = []
        self.lead = ""
        self.bold_depth = 0
        self.bold_buf: list[str] = []
        self.bold_at_start = False
        self.heading: tuple[int, int] | None = None  # (level, line)
        # lists: [ordered, counter]; items: [block index or -2, line]
        self.lists: list[list] = []
        self.items: list[list] = []
        # tables
        self.row: list[str] | None = None
        self.row_line = 0
        self.row_header = True
        self.cell: list[str] | None = None
        self.in_thead = False
        # pre
        self.pre: list[str] | None = None
        self.pre_line = 0
        self.dt = ""  # pending definition term
        self.dt_line = 0
        self.ld_json: list[list] = []  # [line, text] of <script type="application/ld+json">
        self.ld_open = False

    # ------------------------------------------------------------------ text
    def _line(self) -> int:
        return self.getpos()[0]

    def handle_data(self, data: str) -> None:
        if self.drop:
            if self.ld_open and self.drop[-1] == "script":
                self.ld_json[-1][1] += data
            return
        if self.in_title:
            self.title += data
            return
        if self.pre is not None:
            if not self.pre:
                self.pre_line = self._line() + (len(data) - len(data.lstrip("\n")))
            self.pre.append(data)
            return
        if self.cell is not None:
            self.cell.append(data)
            return
        if not data.strip():
            if self.buf:
                self.buf.append(" ")
            return
        line = self._line() + data[: len(data) - len(data.lstrip())].count("\n")
        if not "".join(self.buf).strip():
            self.buf_line = line
        self.buf_end = self._line() + data.rstrip().count("\n")
        self.buf.append(data)
        if self.bold_depth:
            self.bold_buf.append(data)

    def _text(self) -> str:
        txt = "".join(self.buf)
        lines = [re.sub(r"[ \t\r\f\v\n]+", " ", part).strip() for part in txt.split("\x00")]
        return "\n".join(x for x in lines if x)

    def _flush(self) -> None:
        """Emit the text buffer as the pending item, a dt/dd pair or a paragraph."""
        text = self._text()
        line, end, bolds, lead = self.buf_line, self.buf_end, self.bolds, self.lead
        self.buf, self.bolds, self.lead = [], [], ""
        if not text:
            return
        if self.heading is not None:
            return  # headings flush themselves
        if self.items and self.items[-1][0] == -2:
            ordered, counter = self.lists[-1] if self.lists else (False, 0)
            parent = next((i for i, _ in reversed(self.items[:-1]) if i >= 0), -1)
            idx = self.b.item(text, self.items[-1][1], end, depth=max(1, len(self.lists)), ordered=ordered,
                              order=counter, parent=parent, bolds=bolds, lead=lead)
            self.items[-1][0] = idx
            return
        parent = next((i for i, _ in reversed(self.items) if i >= 0), -1)
        self.b.paragraph(text, line, end, parent, bolds, lead)

    # ------------------------------------------------------------------ tags
    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _VOID:
            if tag == "br" and not self.drop:
                if self.cell is not None:
                    self.cell.append(" ")
                elif self.pre is not None:
                    self.pre.append("\n")
                else:
                    self.buf.append("\x00")
            elif tag == "hr" and not self.drop:
                self._flush()
            return
        if tag in _DROP or self.drop:
            self.drop.append(tag)
            if tag == "script" and any(k == "type" and (v or "").strip().lower() == "application/ld+json"
                                       for k, v in attrs):
                self.ld_json.append([self._line(), ""])
                self.ld_open = True
            return
        if tag == "title":
            self.in_title = True
            return
        if self.pre is not None:
            return
        if self.cell is not None and tag not in ("td", "th", "tr", "table", "thead", "tbody", "tfoot"):
            if tag in _BLOCKISH:
                self.cell.append(" ")
            return
        if tag in ("strong", "b") and self.heading is None:
            if self.bold_depth == 0:
                self.bold_buf = []
                self.bold_at_start = not "".join(self.buf).strip()
            self.bold_depth += 1
            return
        if tag not in _BLOCKISH:
            return
        # implicit closes (HTML allows omitting </p>, </li>, </td>, </tr>)
        if tag == "li" and self.items and self.lists and len(self.items) >= len(self.lists):
            self._end_li()
        if tag in ("td", "th") and self.cell is not None:
            self._end_cell()
        if tag == "tr" and self.row is not None:
            self._end_row()
        self._flush()
        if tag in _HEADINGS:
            self.heading = (_HEADINGS[tag], self._line())
        elif tag in ("ul", "ol"):
            start = 1
            for k, v in attrs:
                if k == "start" and v and v.strip().lstrip("-").isdigit():
                    start = int(v)
            self.lists.append([tag == "ol", start - 1])
        elif tag == "li":
            if self.lists:
                for k, v in attrs:
                    if k == "value" and v and v.strip().isdigit():
                        self.lists[-1][1] = int(v) - 1
                self.lists[-1][1] += 1
            self.items.append([-2, self._line()])
        elif tag == "thead":
            self.in_thead = True
        elif tag == "tr":
            self.row, self.row_line, self.row_header = [], self._line(), True
        elif tag in ("td", "th"):
            if self.row is None:
                self.row, self.row_line, self.row_header = [], self._line(), True
            self.cell = []
            if tag == "td":
                self.row_header = False
        elif tag == "pre":
            self.pre, self.pre_line = [], self._line()
        elif tag == "dt":
            self.dt, self.dt_line = "", self._line()

    def handle_endtag(self, tag: str) -> None:
        if self.drop:
            if tag in self.drop:
                while self.drop and self.drop.pop() != tag:
                    pass
            if tag == "script":
                self.ld_open = False
            return
        if tag == "title":
            self.in_title = False
            return
        if tag == "pre" and self.pre is not None:
            text = "".join(self.pre)
            end = self.pre_line + text.strip("\n").count("\n")
            parent = next((i for i, _ in reversed(self.items) if i >= 0), -1)
            self.b.code(text, self.pre_line, end, parent)
            self.pre = None
            return
        if self.pre is not None:
            return
        if tag in ("td", "th"):
            if self.cell is not None:
                self._end_cell()
            return
        if tag == "tr":
            if self.cell is not None:
                self._end_cell()
            if self.row is not None:
                self._end_row()
            return
        if tag == "thead":
            self.in_thead = False
            return
        if tag == "table":
            if self.cell is not None:
                self._end_cell()
            if self.row is not None:
                self._end_row()
            return
        if self.cell is not None:
            return
        if tag in ("strong", "b") and self.bold_depth:
            self.bold_depth -= 1
            if self.bold_depth == 0:
                b = re.sub(r"\s+", " ", "".join(self.bold_buf)).strip()
                if b:
                    self.bolds.append(b)
                    if self.bold_at_start and not self.lead:
                        self.lead = b
            return
        if tag not in _BLOCKISH:
            return
        if tag in _HEADINGS and self.heading is not None:
            level, line = self.heading
            text = self._text()
            self.buf, self.bolds, self.lead = [], [], ""
            self.heading = None
            if text:
                self.b.heading(level, text, line)
            return
        if tag == "dt":
            self.dt = self._text()
            self.buf, self.bolds, self.lead = [], [], ""
            return
        if tag == "dd" and self.dt:
            text = self._text()
            self.buf, self.bolds, self.lead = [], [], ""
            parent = next((i for i, _ in reversed(self.items) if i >= 0), -1)
            self.b.paragraph(f"{self.dt} - {text}" if text else self.dt, self.dt_line, self.buf_end or self.dt_line,
                             parent, [self.dt], self.dt)
            self.dt = ""
            return
        if tag == "li":
            if self.items:
                self._end_li()
            return
        if tag in ("ul", "ol"):
            if self.items and len(self.items) >= len(self.lists) and self.lists:
                self._end_li()
            if self.lists:
                self.lists.pop()
            return
        self._flush()

    def _end_li(self) -> None:
        self._flush()
        self.items.pop()

    def _end_cell(self) -> None:
        if self.row is not None and self.cell is not None:
            self.row.append(re.sub(r"\s+", " ", "".join(self.cell)).strip())
        self.cell = None

    def _end_row(self) -> None:
        if self.row:
            self.b.row(self.row, self.row_line, self.in_thead or self.row_header)
        self.row = None

    def close(self) -> None:
        super().close()
        if self.cell is not None:
            self._end_cell()
        if self.row is not None:
            self._end_row()
        while self.items:
            self._end_li()
        self._flush()


def _promote_pseudo_headings(blocks: list[Block]) -> None:
    """Web pages often title a list with a bold or colon-ended paragraph
    (``<p><strong>Ingredients</strong></p>``, ``<p>You will need:</p>``)
    instead of a heading. Such a short paragraph (≤ 6 words, all bold or
    ending in ``:``) directly followed by a top-level list item becomes a
    heading one level below the enclosing one; heading paths are then
    recomputed."""
    changed = False
    for i, b in enumerate(blocks[:-1]):
        nxt = blocks[i + 1]
        if b.kind != "paragraph" or b.parent >= 0 or nxt.kind != "item" or nxt.level != 1:
            continue
        t = b.text.strip()
        if len(t.split()) > 6 or len(t) > 40 or "\n" in t:
            continue
        if not (t.rstrip(":：") == (b.lead_bold or "").rstrip(":：") or t.endswith((":", "："))):
            continue
        b.kind, b.text, b.bolds, b.lead_bold = "heading", t.rstrip(":：").strip(), [], ""
        b.level = -1
        changed = True
    if not changed:
        return
    heads: list[tuple[int, str]] = []
    title_seen = False
    real = 1  # level of the last real heading
    for b in blocks:
        if b.kind == "heading":
            if b.level == -1:
                b.level = min(6, real + 1)
            else:
                real = b.level
            while heads and heads[-1][0] >= b.level:
                heads.pop()
            if b.level == 1 and not title_seen:
                title_seen = True
            else:
                heads.append((b.level, b.text))
        b.path = tuple(h[1] for h in heads)


_ING_PATH = re.compile(r"ingredient|原料|材料|配料|食材|用料", re.I)


def _ld_recipes(value) -> list[dict]:
    """schema.org ``Recipe`` objects in a JSON-LD value (``@graph`` and
    lists included)."""
    out: list[dict] = []
    if isinstance(value, list):
        for v in value:
            out.extend(_ld_recipes(v))
    elif isinstance(value, dict):
        t = value.get("@type")
        types = t if isinstance(t, list) else [t]
        if "Recipe" in types:
            out.append(value)
        for k in ("@graph", "mainEntity"):
            if k in value:
                out.extend(_ld_recipes(value[k]))
    return out


def _ld_steps(value) -> list[str]:
    """Instruction texts of ``recipeInstructions`` (a string, a list of
    strings, ``HowToStep`` objects or ``HowToSection`` lists)."""
    if isinstance(value, str):
        return [x.strip() for x in re.split(r"\n+", value) if x.strip()]
    if isinstance(value, list):
        return [s for v in value for s in _ld_steps(v)]
    if isinstance(value, dict):
        if "itemListElement" in value:
            return _ld_steps(value["itemListElement"])
        t = value.get("text") or value.get("name") or ""
        return [t.strip()] if isinstance(t, str) and t.strip() else []
    return []


def _add_ld_recipe(b: BlockBuilder, ld: list[list]) -> None:
    """When the visible page has no ingredients list, use the first
    schema.org ``Recipe`` in its JSON-LD: an ``Ingredients`` section of
    ``recipeIngredient`` items and an ``Instructions`` section of numbered
    ``recipeInstructions`` steps, all at the line of the ``<script>`` tag."""
    if any(blk.kind == "item" and any(_ING_PATH.search(p) for p in blk.path) for blk in b.blocks):
        return
    for line, raw in ld:
        try:
            recipes = _ld_recipes(json.loads(raw))
        except (ValueError, RecursionError):
            continue
        for r in recipes:
            ings = [i.strip() for i in (r.get("recipeIngredient") or r.get("ingredients") or [])
                    if isinstance(i, str) and i.strip()]
            if not ings:
                continue
            name = r.get("name") if isinstance(r.get("name"), str) else ""
            if not b.h1 and name:
                b.heading(1, name, line)
            b.heading(2, "Ingredients", line)
            for k, i in enumerate(ings, 1):
                b.item(i, line, line, depth=1, ordered=False, order=k, parent=-1)
            steps = _ld_steps(r.get("recipeInstructions"))
            if steps:
                b.heading(2, "Instructions", line)
                for k, st in enumerate(steps, 1):
                    b.item(st, line, line, depth=1, ordered=True, order=k, parent=-1)
            return


def parse_html(text: str) -> tuple[list[Block], str, dict[str, str]]:
    """Parse HTML ``text`` with the stdlib :class:`html.parser.HTMLParser`.

    Returns ``(blocks, first_h1, meta)`` where ``meta`` holds ``title`` from
    ``<title>`` when present. ``h1``–``h6`` become headings, ``li`` items
    (``ol``/``ul`` nesting → ``level``/``parent``; ``ol`` numbering honours
    ``start``/``value`` → ``order``), ``p``/``div``/loose text paragraphs,
    ``tr`` table rows (header when in ``thead`` or made of ``th`` only),
    ``pre`` code blocks, ``<dt>Term</dt><dd>def</dd>`` a ``"Term - def"``
    paragraph whose ``lead_bold`` is the term; ``<strong>``/``<b>`` fill
    ``bolds``. ``script``/``style``/``nav``/``head`` (and similar
    non-content elements) are dropped. Lines are 1-based source lines from
    :meth:`HTMLParser.getpos`. A short bold or colon-ended paragraph right
    before a list is promoted to a heading (see
    :func:`_promote_pseudo_headings`). A page without a visible ingredients
    list but with a schema.org ``Recipe`` in ``<script
    type="application/ld+json">`` gets its ingredients and instructions from
    there (see :func:`_add_ld_recipe`). Never raises on malformed markup."""
    p = _HTMLBlocks()
    p.feed(text)
    p.close()
    _promote_pseudo_headings(p.b.blocks)
    _add_ld_recipe(p.b, p.ld_json)
    meta = {"title": re.sub(r"\s+", " ", p.title).strip()} if p.title.strip() else {}
    return p.b.blocks, p.b.h1, meta


# =========================================================================== reStructuredText
_RST_ADORN = re.compile(r"^([=\-`:'\"~^_*+#.<>])\1{2,}\s*$")
_RST_BULLET = re.compile(r"^(?P<ind>\s*)(?P<m>[-*+•‣⁃])\s+(?P<t>.*)$")
_RST_ENUM = re.compile(r"^(?P<ind>\s*)(?P<m>(?:\d+|#|[a-zA-Z]|[ivxlcdm]+)[.)]|\((?:\d+|#|[a-zA-Z])\))\s+(?P<t>.*)$")
_RST_FIELD = re.compile(r"^:(?P<k>[A-Za-z][\w -]*):\s*(?P<v>.*)$")


def _rst_inline(text: str) -> tuple[str, list[str]]:
    """Plain text and bold spans of RST inline markup."""
    bolds = [m.group(1).strip() for m in re.finditer(r"\*\*(.+?)\*\*", text)]
    text = re.sub(r"`([^`<]+?)\s*<[^>]+>`_{1,2}", r"\1", text)  # `text <url>`_
    text = re.sub(r":[\w:-]+:`([^`]+)`", r"\1", text)  # :role:`text`
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"``(.+?)``", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    text = re.sub(r"`([^`]+)`_{0,2}", r"\1", text)
    text = re.sub(r"\|([\w -]+)\|", r"\1", text)
    return re.sub(r"\s+", " ", text).strip(), bolds


def parse_rst(text: str) -> tuple[list[Block], str, dict[str, str]]:
    """Parse reStructuredText into blocks: ``(blocks, title, meta)``.

    Section titles are a text line with an underline (optionally an
    overline) of one repeated punctuation character at least as long as the
    title; heading levels follow the order in which adornment styles first
    appear (the first style is level 1, i.e. the document title). Bullet
    (``-``/``*``/``+``) and enumerated (``1.``, ``1)``, ``(a)``, ``#.``)
    lists nest by indentation; ``::`` / ``.. code-block::`` literal blocks
    become code; other directives and comments (``..``) are skipped; leading
    ``:field: value`` lines go to ``meta``. Everything else is paragraphs."""
    lines = text.split("\n")
    b = BlockBuilder()
    styles: list[tuple[str, bool]] = []
    meta: dict[str, str] = {}
    lists = _ListStack()
    para: list[str] = []
    para_line = 0
    item_idx: int | None = None  # item whose text is still being continued
    item_ind = 0
    literal_next = False
    n = len(lines)
    i = 0

    def flush() -> None:
        nonlocal para, item_idx
        if para:
            t, bolds = _rst_inline(" ".join(x.strip() for x in para))
            if item_idx is not None:
                blk = b.blocks[item_idx]
                blk.text = _rst_inline(blk.text + " " + " ".join(x.strip() for x in para))[0]
                blk.end_line = para_line + len(para) - 1
            else:
                b.paragraph(t, para_line, para_line + len(para) - 1, lists.current(), bolds,
                            bolds[0] if bolds and " ".join(para).lstrip().startswith("**") else "")
        para = []

    def level_of(ch: str, over: bool) -> int:
        if (ch, over) not in styles:
            styles.append((ch, over))
        return min(6, styles.index((ch, over)) + 1)

    while i < n:
        raw = lines[i].rstrip()
        stripped = raw.strip()
        # literal block after "::"
        if literal_next and stripped:
            ind = len(raw) - len(raw.lstrip())
            if ind > 0:
                start = i
                body = []
                while i < n and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) >= ind):
                    body.append(lines[i][ind:] if lines[i].strip() else "")
                    i += 1
                while body and not body[-1]:
                    body.pop()
                b.code("\n".join(body), start + 1, start + len(body), lists.current())
                literal_next = False
                continue
            literal_next = False
        if not stripped:
            flush()
            item_idx = None
            i += 1
            continue
        # overline + title + underline
        if _RST_ADORN.match(stripped) and i + 2 < n and lines[i + 1].strip() and \
                _RST_ADORN.match(lines[i + 2].strip() or "x") and lines[i + 2].strip()[0] == stripped[0]:
            flush()
            item_idx = None
            lists.close()
            b.heading(level_of(stripped[0], True), _rst_inline(lines[i + 1].strip())[0], i + 2)
            i += 3
            continue
        # title + underline
        if i + 1 < n and not para and _RST_ADORN.match(lines[i + 1].strip() or "x") and not raw[:1].isspace() \
                and len(lines[i + 1].strip()) >= min(len(stripped), 3) and not _RST_ADORN.match(stripped):
            flush()
            item_idx = None
            lists.close()
            b.heading(level_of(lines[i + 1].strip()[0], False), _rst_inline(stripped)[0], i + 1)
            i += 2
            continue
        if _RST_ADORN.match(stripped) and not para:  # transition
            i += 1
            continue
        if stripped.startswith(".. "):
            flush()
            item_idx = None
            if re.match(r"^\.\.\s+(?:code-block|code|sourcecode)::", stripped):
                literal_next = True
            # skip the directive and its indented body (unless literal)
            i += 1
            if not literal_next:
                while i < n and (not lines[i].strip() or lines[i][:1].isspace()):
                    if not lines[i].strip() and i + 1 < n and lines[i + 1].strip() and not lines[i + 1][:1].isspace():
                        break
                    i += 1
            else:
                while i < n and lines[i].strip() and lines[i][:1].isspace() and lines[i].strip().startswith(":"):
                    i += 1
            continue
        fm = _RST_FIELD.match(stripped)
        if fm and not b.blocks and not para:
            meta[fm.group("k").strip().lower()] = fm.group("v").strip()
            i += 1
            continue
        m = _RST_BULLET.match(raw) or _RST_ENUM.match(raw)
        if m and (not para or item_idx is not None):
            flush()
            ind = len(m.group("ind").expandtabs())
            ordered = m.re is _RST_ENUM
            depth, order, parent = lists.place(ind, ordered)
            t = m.group("t")
            if t.rstrip().endswith("::"):
                literal_next = True
                t = t.rstrip()[:-1]
            txt, bolds = _rst_inline(t)
            idx = b.item(txt, i + 1, i + 1, depth=depth, ordered=ordered, order=order, parent=parent, bolds=bolds,
                         lead=bolds[0] if bolds and t.lstrip().startswith("**") else "")
            lists.set_block(idx)
            item_idx, item_ind = idx, ind
            i += 1
            continue
        ind = len(raw) - len(raw.lstrip())
        if item_idx is not None and ind > item_ind and not para:
            blk = b.blocks[item_idx]
            blk.text = _rst_inline(blk.text + " " + stripped.rstrip(":") if stripped.endswith("::") else
                                   blk.text + " " + stripped)[0]
            blk.end_line = i + 1
            literal_next = literal_next or stripped.endswith("::")
            i += 1
            continue
        if ind == 0 and lists.stack and not para:
            lists.close()
        if not para:
            para_line = i + 1
            item_idx = None
        if stripped.endswith("::"):
            para.append(stripped[:-1] if stripped != "::" else "")
            flush()
            literal_next = True
        else:
            para.append(stripped)
        i += 1
    flush()
    return b.blocks, b.h1, meta


# =========================================================================== AsciiDoc
_AD_HEAD = re.compile(r"^(?P<m>={1,6}|#{1,6})\s+(?P<t>\S.*?)\s*(?:=+)?$")
_AD_ITEM = re.compile(r"^\s*(?P<m>\*{1,5}|-|\.{1,5}|\d+\.)\s+(?P<t>\S.*)$")
_AD_ATTR = re.compile(r"^:(?P<k>[\w-]+):\s*(?P<v>.*)$")
_AD_DELIM = re.compile(r"^(?P<d>-{4,}|\.{4,}|_{4,}|\+{4,}|={4,}|\*{4,}|/{4,}|`{3,})\s*$")
_AD_TITLE = re.compile(r"^\.(?P<t>[^\s.].*)$")


def _ad_inline(text: str) -> tuple[str, list[str]]:
    bolds = [m.group(1).strip() for m in re.finditer(r"\*{1,2}([^*\n]+?)\*{1,2}", text)]
    text = re.sub(r"(?:link:|https?://\S*?)\S*?\[([^\]]*)\]", lambda m: m.group(1) or m.group(0), text)
    text = re.sub(r"<<[^,>]+,\s*([^>]+)>>", r"\1", text)
    text = re.sub(r"\*{1,2}([^*\n]+?)\*{1,2}", r"\1", text)
    text = re.sub(r"(?<!\w)_{1,2}([^_\n]+?)_{1,2}(?!\w)", r"\1", text)
    text = re.sub(r"`{1,2}\+?([^`\n]+?)\+?`{1,2}", r"\1", text)
    text = re.sub(r"\s\+$", "", text)
    return re.sub(r"\s+", " ", text).strip(), bolds


def parse_asciidoc(text: str) -> tuple[list[Block], str, dict[str, str]]:
    """Parse AsciiDoc into blocks: ``(blocks, title, meta)``.

    ``= Title`` is the document title (level 1), ``==`` … ``======``
    sections (Markdown-style ``#`` headings too); ``.Block title`` lines
    become a heading one level below the current section; ``*``/``-``
    bullets and ``.`` / ``1.`` numbered items nest by marker length;
    ``----``/``....`` delimited blocks are code; ``////`` blocks and ``//``
    lines are comments; ``|===`` tables give rows (first row is the header
    when followed by a blank line or when the table has a header option);
    ``:attr: value`` lines go to ``meta``; the rest are paragraphs."""
    lines = text.split("\n")
    b = BlockBuilder()
    meta: dict[str, str] = {}
    lists = _ListStack()
    para: list[str] = []
    para_line = 0
    item_idx: int | None = None
    header_opt = False
    n = len(lines)
    i = 0
    cur_level = 1

    def flush() -> None:
        nonlocal para
        if para:
            joined = " ".join(x.strip() for x in para)
            t, bolds = _ad_inline(joined)
            if item_idx is not None:
                blk = b.blocks[item_idx]
                blk.text = _ad_inline(blk.text + " " + joined)[0]
                blk.end_line = para_line + len(para) - 1
            else:
                b.paragraph(t, para_line, para_line + len(para) - 1, lists.current(), bolds,
                            bolds[0] if bolds and joined.lstrip().startswith("*") else "")
        para = []

    while i < n:
        raw = lines[i].rstrip()
        s = raw.strip()
        if not s:
            flush()
            i += 1
            if item_idx is not None and i < n and lines[i].strip() and not _AD_ITEM.match(lines[i]):
                item_idx = None
                lists.close()
            continue
        if s.startswith("//") and not s.startswith("////"):
            i += 1
            continue
        if re.match(r"^\[.*\]$", s):  # block attributes: [source,python], [options="header"]
            header_opt = "header" in s
            i += 1
            continue
        dm = _AD_DELIM.match(s)
        if dm:
            flush()
            d = dm.group("d")
            start = i + 1
            i += 1
            body = []
            while i < n and lines[i].rstrip() != d:
                body.append(lines[i])
                i += 1
            i += 1
            if d.startswith("/"):
                continue
            if d[0] in "-.`+":
                b.code("\n".join(body), start + 1, start + len(body), lists.current())
            else:  # sidebar/example/quote: recurse as prose
                sub, _, _ = parse_asciidoc("\n".join(body)) if body else ([], "", {})
                for blk in sub:
                    blk.line += start
                    blk.end_line += start
                    blk.path = b.path
                    blk.parent = -1
                    if blk.kind != "heading":
                        b.blocks.append(blk)
            continue
        if s.startswith("|==="):
            flush()
            i += 1
            rows: list[tuple[list[str], int, bool]] = []
            first = True
            while i < n and not lines[i].strip().startswith("|==="):
                ln = lines[i].strip()
                if ln.startswith("|"):
                    cells = [c.strip() for c in ln[1:].split("|")]
                    hdr = first and (header_opt or (i + 1 < n and not lines[i + 1].strip()))
                    rows.append((cells, i + 1, hdr))
                    first = False
                i += 1
            i += 1
            for cells, ln, hdr in rows:
                b.row([_ad_inline(c)[0] for c in cells], ln, hdr)
            header_opt = False
            continue
        am = _AD_ATTR.match(s)
        if am and not para:
            meta[am.group("k").lower()] = am.group("v").strip()
            i += 1
            continue
        hm = _AD_HEAD.match(s)
        if hm and not para:
            flush()
            item_idx = None
            lists.close()
            cur_level = len(hm.group("m"))
            b.heading(cur_level, _ad_inline(hm.group("t"))[0], i + 1)
            i += 1
            continue
        tm = _AD_TITLE.match(s)
        if tm and not para and not _AD_ITEM.match(s):
            flush()
            item_idx = None
            lists.close()
            b.heading(min(6, cur_level + 1), _ad_inline(tm.group("t"))[0], i + 1)
            i += 1
            continue
        im = _AD_ITEM.match(raw)
        if im:
            flush()
            mk = im.group("m")
            ordered = mk[0] == "." or mk[0].isdigit()
            key = len(mk) if not mk[0].isdigit() else 1
            key = key * 2 + (1 if ordered else 0)
            depth, order, parent = lists.place(key, ordered)
            txt, bolds = _ad_inline(im.group("t"))
            idx = b.item(txt, i + 1, i + 1, depth=depth, ordered=ordered, order=order, parent=parent, bolds=bolds,
                         lead=bolds[0] if bolds and im.group("t").startswith("*") else "")
            lists.set_block(idx)
            item_idx = idx
            i += 1
            continue
        if s == "+":  # list continuation
            flush()
            i += 1
            continue
        if item_idx is not None and not para:
            blk = b.blocks[item_idx]
            blk.text = _ad_inline(blk.text + " " + s)[0]
            blk.end_line = i + 1
            i += 1
            continue
        if not para:
            para_line = i + 1
        para.append(s)
        i += 1
    flush()
    return b.blocks, b.h1, meta


# =========================================================================== tables
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


def _looks_numeric(s: str) -> bool:
    return bool(re.fullmatch(r"\s*[-+]?[\d.,%/ ]+\s*", s))


def read_delimited(text: str, tab_default: bool = False) -> TableData:
    """Read CSV/TSV ``text`` with the stdlib :mod:`csv` module.

    The dialect comes from :class:`csv.Sniffer` over the first 8 KB
    (delimiters ``,`` tab ``;`` ``|``); when sniffing fails the delimiter is
    a tab if the sample has more tabs than commas (or ``tab_default``), else
    a comma. The first non-blank row is the header unless it looks like data
    (a numeric cell or duplicate names) — then columns are ``column 1…n``.
    A row whose field count differs from the header's (extra empty trailing
    cells are tolerated; in a one-column file the whole line is the value) is recorded in ``errors`` with its line and skipped.
    Quoted multi-line cells are supported; a record's ``line`` is its first
    line. Raises :class:`TableError` when no data row parses."""
    sample = text[:8192]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",\t;|")
        delim = dialect.delimiter
        quote = dialect.quotechar or '"'
    except csv.Error:
        delim = "\t" if (tab_default or sample.count("\t") > sample.count(",")) else ","
        quote = '"'
    if tab_default and "\t" in sample and delim != "\t" and sample.count("\t") >= sample.split("\n", 1)[0].count(delim):
        delim = "\t"
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim, quotechar=quote, skipinitialspace=False,
                        strict=False)
    data = TableData()
    header: list[str] | None = None
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            data.errors.append((start, f"malformed row: {exc}"))
            continue
        if not row or not any(c.strip() for c in row):
            continue
        cells = [c.strip() for c in row]
        if header is None:
            names = [c for c in cells if c]
            if names and not any(_looks_numeric(c) for c in names) and len(set(c.lower() for c in names)) == len(names):
                header = [c or f"column {k + 1}" for k, c in enumerate(cells)]
                while header and header[-1].startswith("column ") and not cells[len(header) - 1]:
                    header.pop()
                data.columns = header
                continue
            header = [f"column {k + 1}" for k in range(len(cells))]
            data.columns = header
        if len(cells) > len(header) and not any(cells[len(header):]):
            cells = cells[: len(header)]
        if len(header) == 1 and len(cells) > 1:
            cells = [delim.join(row).strip()]  # a one-column file: the "delimiter" is prose punctuation
        if len(cells) != len(header):
            data.errors.append((start, f"row has {len(cells)} fields, expected {len(header)}"))
            continue
        data.records.append(Record(start, [(h, c) for h, c in zip(header, cells)]))
    if not data.records:
        if data.errors:
            raise TableError(data.errors[0][0], data.errors[0][1] + " (no row parsed)")
        raise TableError(1 if header else 0, "no data rows")
    return data


# ---------------------------------------------------------------------------- JSON
_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")


def _value_lines(text: str, i: int, path: tuple, out: dict, nl: list[int]) -> int:
    """Walk the (already validated) JSON value at ``text[i]`` recording the
    1-based line of every nested value in ``out[path]``; returns the end
    index."""
    i = _WS.match(text, i).end()
    out[path] = _line_at(nl, i)
    c = text[i]
    if c == "[":
        i = _WS.match(text, i + 1).end()
        if text[i] == "]":
            return i + 1
        k = 0
        while True:
            i = _value_lines(text, i, path + (k,), out, nl)
            i = _WS.match(text, i).end()
            if text[i] == ",":
                i += 1
                k += 1
                continue
            return i + 1
    if c == "{":
        i = _WS.match(text, i + 1).end()
        if text[i] == "}":
            return i + 1
        while True:
            key, i = json.decoder.scanstring(text, i + 1)
            i = _WS.match(text, i).end() + 1  # ':'
            i = _value_lines(text, i, path + (key,), out, nl)
            i = _WS.match(text, i).end()
            if text[i] == ",":
                i = _WS.match(text, i + 1).end()
                continue
            return i + 1
    _, end = _DECODER.raw_decode(text, i)
    return end


def _line_at(newlines: list[int], pos: int) -> int:
    import bisect

    return bisect.bisect_left(newlines, pos) + 1


def _is_records(v) -> bool:
    return isinstance(v, list) and bool(v) and sum(isinstance(x, dict) for x in v) >= max(1, len(v) // 2)


def _flatten(obj: dict, prefix: str = "") -> list[tuple[str, str | list[str]]]:
    """Fields of one JSON object: scalars as strings, lists of scalars as
    lists of strings, nested objects flattened to ``a.b`` keys, lists of
    objects rendered compactly as text."""
    out: list[tuple[str, str | list[str]]] = []
    for k, v in obj.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.extend(_flatten(v, key + "."))
        elif isinstance(v, list):
            if all(not isinstance(x, (dict, list)) for x in v):
                out.append((key, [_scalar(x) for x in v if x is not None and _scalar(x)]))
            else:
                out.append((key, "; ".join(_scalar(x) if not isinstance(x, (dict, list)) else
                                           ", ".join(f"{a}: {_scalar(b)}" for a, b in _flatten(x) if _scalar(b))
                                           if isinstance(x, dict) else json.dumps(x, ensure_ascii=False)
                                           for x in v)))
        elif v is not None:
            out.append((key, _scalar(v)))
    return out


def _scalar(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "; ".join(_scalar(x) for x in v)
    return str(v).strip() if v is not None else ""


def _json_records(objs: list[tuple[dict, int]], section: str = "") -> TableData:
    data = TableData(section=section)
    for obj, line in objs:
        fields = _flatten(obj)
        for k, _ in fields:
            if k not in data.columns:
                data.columns.append(k)
        if fields:
            data.records.append(Record(line, fields))
    return data


def read_json(text: str) -> tuple[list[TableData], list[tuple[str, str, int]]]:
    """Read a JSON document.

    Returns ``(tables, leaves)``: every array of objects (the top value, or a
    value under a key path) becomes a :class:`TableData` whose records carry
    the 1-based line of each object (``section`` = the key path); string
    (and number) leaves outside those arrays are returned as
    ``(key path, text, line)``. Raises :class:`json.JSONDecodeError` (with
    ``lineno``) for invalid JSON."""
    value = json.loads(text)
    nl = [m.start() for m in re.finditer("\n", text)]
    lines: dict[tuple, int] = {}
    _value_lines(text, 0, (), lines, nl)
    tables: list[TableData] = []
    leaves: list[tuple[str, str, int]] = []

    def name(path: tuple) -> str:
        out = ""
        for p in path:
            out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
        return out

    def walk(v, path: tuple) -> None:
        if _is_records(v):
            objs = [(x, lines.get(path + (k,), 1)) for k, x in enumerate(v) if isinstance(x, dict)]
            tables.append(_json_records(objs, name(path)))
            for k, x in enumerate(v):
                if not isinstance(x, dict):
                    walk(x, path + (k,))
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, path + (k,))
        elif isinstance(v, list):
            for k, x in enumerate(v):
                walk(x, path + (k,))
        elif v is not None and not isinstance(v, bool) and str(v).strip():
            leaves.append((name(path), str(v).strip(), lines.get(path, 1)))

    walk(value, ())
    return tables, leaves


def read_jsonl(text: str) -> TableData:
    """Read JSON Lines: one JSON value per non-blank line. Objects become
    records (with their line); a line that is not valid JSON or not an
    object is recorded in ``errors`` and skipped. Raises :class:`TableError`
    when no line yields an object."""
    objs: list[tuple[dict, int]] = []
    errors: list[tuple[int, str]] = []
    for no, raw in enumerate(text.split("\n"), 1):
        s = raw.strip()
        if not s or s.startswith("//"):
            continue
        try:
            v = json.loads(s)
        except json.JSONDecodeError as exc:
            errors.append((no, f"invalid JSON: {exc.msg} (column {exc.colno})"))
            continue
        if isinstance(v, dict):
            objs.append((v, no))
        else:
            errors.append((no, "JSON Lines value is not an object"))
    if not objs:
        if errors:
            raise TableError(errors[0][0], errors[0][1] + " (no line parsed)")
        raise TableError(0, "no JSON objects")
    data = _json_records(objs)
    data.errors = errors
    return data
