"""HTML reader (``.html``/``.htm``/``.xhtml``, and HTML content in other
prose files), on the stdlib :class:`html.parser.HTMLParser`.

``h1``–``h6`` become headings, ``li`` items, ``p``/``div``/loose text
paragraphs, ``tr`` table rows, ``pre`` code; non-content elements
(``script``, ``style``, ``nav``, ``head``…) are dropped. A page whose visible
part has no ingredients list but whose schema.org ``Recipe`` JSON-LD has one
gets its ingredients and steps from there. Never raises on malformed markup.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from ..cues import lexicon, regex
from ..document import Block
from .base import Reader, Reading, register
from .builder import BlockBuilder

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


def is_html(text: str) -> bool:
    """True when ``text`` starts with markup and :func:`looks_like_html`:
    HTML content in a file of another prose format."""
    return text.lstrip().startswith("<") and looks_like_html(text)


def html_blocks(fragment: str) -> list[Block]:
    """Blocks of an HTML ``fragment`` (lines 1-based from its first line),
    without the page-level steps of :func:`parse_html`; used for raw HTML
    inside Markdown."""
    p = _HTMLBlocks()
    p.feed(fragment)
    p.close()
    return p.b.blocks


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


_ING_PATH = regex("sections", "page_ingredient_heads", re.I)
_LD_INGREDIENTS = lexicon("sections")["jsonld_ingredients"]
_LD_STEPS = lexicon("sections")["jsonld_steps"]


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
            b.heading(2, _LD_INGREDIENTS, line)
            for k, i in enumerate(ings, 1):
                b.item(i, line, line, depth=1, ordered=False, order=k, parent=-1)
            steps = _ld_steps(r.get("recipeInstructions"))
            if steps:
                b.heading(2, _LD_STEPS, line)
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


def read(path: Path, text: str) -> Reading:
    """The :class:`Reading` of an HTML file (see :func:`parse_html`)."""
    blocks, h1, meta = parse_html(text)
    return Reading(blocks, "html", h1, meta)


READER = register(Reader("html", (".html", ".htm", ".xhtml"), read))
