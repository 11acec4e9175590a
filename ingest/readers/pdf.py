"""PDF reader (``.pdf``) on pypdf.

A PDF holds positioned text, not structure, so the structure is rebuilt from
what pypdf reports for each piece of text (its position, font name and size,
through ``extract_text(visitor_text=…)``):

* **headings**: lines set entirely in bold or in a larger size than the body
  text, and bold lead-ins of a paragraph ("**Prerequisites** There is…");
  the level comes from the PDF's outline (bookmarks) when the heading is in
  it, else from the font size (larger = higher; bold at body size is one
  level below the deepest outline level);
* **list items**: lines starting with a bullet (•, –, ◦, -, *…) or a number
  or letter (``1.``, ``2)``, ``a.``), nested by the marker's indentation;
  wrapped lines and lines continued on the next page join their item;
* **paragraphs**: consecutive lines, split where the vertical gap is larger
  than the line spacing; hyphenated line ends are joined and typographic
  ligatures (ﬁ, ﬂ…) unfolded;
* **tables**: from pypdf's layout mode (text placed in fixed-width columns),
  lines whose cells, separated by two or more spaces, line up in the same
  columns for three lines or more become ``row`` blocks (the first is the
  header); a line holding only later columns continues the row above;
* page furniture is dropped: page numbers, lines repeated at the top or
  bottom of most pages, and table-of-contents lines.

**Page numbers are the provenance:** ``line`` (and ``end_line``) of every
block is ``page × 1000 + line on the page`` (see
:func:`~threadgraph.knowledge.records.page_line`), so facts and passages
keep distinct lines and citations read ``plan.pdf p. 48``
(:func:`~threadgraph.knowledge.records.cite`). Encrypted PDFs that open with an empty password are read;
others, and PDFs without a text layer (scans), raise :class:`DocumentError`.

pypdf was chosen over pdfplumber (3x slower here, and it ran words of
justified lines together) and PyMuPDF (AGPL) — see the README.
"""

from __future__ import annotations

import io
import logging
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..document import DocumentError
from .base import Reader, Reading, read_binary, register
from ...knowledge.records import PAGE_LINES, page_line
from .builder import BlockBuilder, ListStack

_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st",
                            "\u00ad": ""})
_BULLET = re.compile(r"^([•◦▪▫●○■□‣⁃∙·–—\-*])\s*(?=\S)")
_NUMBER = re.compile(r"^(\d{1,3}|[a-z]|[ivxlc]{1,5})([.)])(?:\s+|(?=[A-Z]))", re.I)
_PAGE_NO = re.compile(r"^(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?$", re.I)
_DOT_LEADER = re.compile(r"(?:\s*\.){3,}\s*\d{1,4}$")
_TOC_ENTRY = re.compile(r"^(.*\S)\s+(\d{1,4})$")
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|,b\b", re.I)
_LETTER = re.compile(r"\w")
_SENTENCE_END = re.compile(r"[.!?:;。！？：]$")


def _norm(text: str) -> str:
    """Lower-cased text with whitespace collapsed (for matching lines)."""
    return re.sub(r"\s+", " ", text.translate(_LIGATURES)).strip().lower()


@dataclass(slots=True)
class _Line:
    """One text line of a page: ``text``, page ``page`` and line ``no`` on it (1-based), left
    ``x`` and baseline ``y`` (PDF points, y grows upwards), the dominant font
    ``size``, ``bold`` whether every letter is bold, ``lead`` the bold text it
    starts with (``""`` if none)."""

    page: int
    text: str
    no: int
    x: float
    y: float
    size: float
    bold: bool
    lead: str = ""
    cells: list[str] = field(default_factory=list)
    header: bool = False


class _PageCollector:
    """Receives pypdf's ``visitor_text`` calls for one page and assembles
    lines with their position and fonts."""

    def __init__(self, page: int) -> None:
        self.page = page
        self.lines: list[_Line] = []
        self._runs: list[tuple[str, bool, float, float, float]] = []  # text, bold, size, x, y
        self.gaps = 0  # wide horizontal gaps inside lines: a hint that the page holds a table

    def before(self, op: bytes, args, cm, tm) -> None:
        """pypdf's ``visitor_operand_before``: counts ``TJ`` arrays that move
        right by more than 0.8 em (a column gap, not a word space)."""
        if op == b"TJ" and args:
            try:
                if any(isinstance(a, (int, float)) and a < -800 for a in args[0]):
                    self.gaps += 1
            except TypeError:
                pass

    def visit(self, text: str, cm, tm, font, size) -> None:
        """pypdf's visitor: ``text`` may contain newlines that end lines."""
        if not text:
            return
        name = (font or {}).get("/BaseFont", "") if hasattr(font, "get") else ""
        bold = bool(_BOLD_FONT.search(str(name)))
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        scale = abs(tm[3] * cm[3]) or abs(tm[0] * cm[0]) or 1.0
        eff = float(size or 0) * scale
        if self._runs and abs(self._runs[-1][4] - y) < 1:
            last = self._runs[-1]
            if x > last[3] + len(last[0]) * last[2] * 0.6 + 2 * max(eff, 1.0):
                self.gaps += 1  # a separate text object far to the right on the same line
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if part:
                self._runs.append((part, bold, eff, x, y))
            if i < len(parts) - 1:
                self._flush()

    def _flush(self) -> None:
        runs = [r for r in self._runs if r[0]]
        self._runs = []
        text = "".join(r[0] for r in runs).translate(_LIGATURES)
        if not text.strip():
            return
        lettered = [r for r in runs if _LETTER.search(r[0])]
        anchor = next((r for r in runs if r[0].strip()), runs[0])
        sizes = Counter()
        for r in lettered or runs:
            sizes[round(r[2], 1)] += len(r[0])
        size = sizes.most_common(1)[0][0] if sizes else 0.0
        bold = bool(lettered) and all(r[1] for r in lettered)
        lead = ""
        if lettered and not bold and lettered[0][1]:
            lead_runs = []
            for r in runs:
                if not r[0].strip():
                    lead_runs.append(r)
                    continue
                if not r[1] and _LETTER.search(r[0]):
                    break
                lead_runs.append(r)
            lead = "".join(r[0] for r in lead_runs).translate(_LIGATURES).strip()
        self.lines.append(_Line(self.page, re.sub(r"\s+", " ", text).strip(), len(self.lines) + 1, anchor[3], anchor[4],
                                size, bold, lead))

    def finish(self) -> list[_Line]:
        """The page's lines (call once, after extraction)."""
        self._flush()
        return self.lines


def _outline(reader) -> list[tuple[str, int, int]]:
    """``(normalized title, depth, page)`` of the PDF's outline (bookmarks),
    depth 0 for top-level entries; empty when there is none or it is broken."""
    out: list[tuple[str, int, int]] = []

    def walk(items, depth: int) -> None:
        for it in items:
            if isinstance(it, list):
                walk(it, depth + 1)
                continue
            try:
                page = reader.get_destination_page_number(it) + 1
            except Exception:  # noqa: BLE001 - a broken destination only loses that entry
                page = 0
            title = getattr(it, "title", None)
            if title:
                out.append((_norm(str(title)), depth, page))

    try:
        walk(reader.outline, 0)
    except Exception:  # noqa: BLE001
        return []
    return out


def _split_cells(line: str) -> list[tuple[int, str]]:
    """``(column, text)`` cells of a layout-mode line, split at runs of two
    or more spaces."""
    cells = []
    for m in re.finditer(r"\S(?:.*?\S)?(?=\s{2,}|\s*$)", line):
        cells.append((m.start(), m.group(0)))
    return cells


def _layout_tables(text: str, tolerance: int = 5) -> list[list[list[str]]]:
    """Tables found in one page's layout-mode text: lists of rows of cells.

    A table is two or more consecutive lines (blank lines between them
    allowed) that split into the same number (two or more) of cells whose
    columns line up (±``tolerance`` characters) with the first line's; a
    line whose cells all start at a later column and line up continues the
    previous row's cells (a wrapped cell)."""
    lines = [ln.rstrip() for ln in text.split("\n")]
    tables: list[list[list[str]]] = []

    def column(cols: list[int], start: int) -> int | None:
        k = min(range(len(cols)), key=lambda k: abs(cols[k] - start))
        return k if abs(cols[k] - start) <= tolerance else None

    i = 0
    while i < len(lines):
        cells = _split_cells(lines[i])
        if len(cells) < 2:
            i += 1
            continue
        cols = [c for c, _ in cells]
        rows = [[t for _, t in cells]]
        j = i + 1
        while j < len(lines):
            if not lines[j].strip():
                j += 1
                continue
            nxt = _split_cells(lines[j])
            ks = [column(cols, s) for s, _ in nxt]
            if not nxt or None in ks or len(set(ks)) != len(ks):
                break
            if len(nxt) == len(cols) and ks == list(range(len(cols))):
                rows.append([t for _, t in nxt])
            elif ks[0] > 0 and len(rows) > 1:
                for k, (_, t) in zip(ks, nxt):  # a wrapped cell continues the row above
                    rows[-1][k] = f"{rows[-1][k]} {t}".strip()
            else:
                break
            j += 1
        numbered = sum(1 for r in rows if re.fullmatch(r"\d{1,4}", r[-1].strip()))
        if len(rows) >= 2 and numbered < len(rows) * 0.8:  # a table of contents is not a table
            tables.append([[c.translate(_LIGATURES) for c in r] for r in rows])
            i = j
        else:
            i += 1
    return tables


def _mark_tables(lines: list[_Line], tables: list[list[list[str]]]) -> list[_Line]:
    """The lines with table rows given their cells (matched by text; the
    first row of a table is its header); lines that only continue a wrapped
    row are dropped (their text is in the row's cells)."""
    if not tables:
        return lines
    want: list[tuple[str, list[str], bool]] = []
    for table in tables:
        for k, row in enumerate(table):
            want.append((_norm(" ".join(c for c in row if c)), row, k == 0))
    out: list[_Line] = []
    rest = ""  # text of the last row still expected on following lines
    for ln in lines:
        key = _norm(ln.text)
        if rest and rest.startswith(key):
            rest = rest[len(key):].strip()
            continue
        rest = ""
        hit = next((w for w in want if w[0] == key), None) or next(
            (w for w in want if len(key) > 3 and w[0].startswith(key + " ")), None)
        if hit is not None:
            ln.cells, ln.header = list(hit[1]), hit[2]
            rest = hit[0][len(key):].strip()
            want.remove(hit)
        out.append(ln)
    return out


def _drop_furniture(pages: list[list[_Line]], outline: list[tuple[str, int, int]]) -> list[_Line]:
    """All lines without page numbers, running headers/footers and table of contents."""
    edge = Counter()
    for lines in pages:
        for ln in lines[:2] + lines[-2:]:
            edge[re.sub(r"\d+", "#", _norm(ln.text))] += 1
    repeated = {k for k, n in edge.items() if n >= max(3, len(pages) // 2)}
    titles = {(t, p) for t, _, p in outline}
    title_set = {t for t, _, _ in outline}
    out: list[_Line] = []
    for lines in pages:
        for i, ln in enumerate(lines):
            key = _norm(ln.text)
            at_edge = i < 2 or i >= len(lines) - 2
            if at_edge and (_PAGE_NO.match(key) or re.sub(r"\d+", "#", key) in repeated):
                continue
            if _DOT_LEADER.search(key):
                continue
            m = _TOC_ENTRY.match(key)
            if m and m.group(1) in title_set and (m.group(1), int(m.group(2))) in titles and int(m.group(2)) != ln.page:
                continue
            out.append(ln)
    return out


def _assemble(lines: list[_Line], outline: list[tuple[str, int, int]]) -> BlockBuilder:
    """Blocks from the lines (see the module docstring)."""
    b = BlockBuilder()
    if not lines:
        return b
    body = Counter()
    for ln in lines:
        body[ln.size] += len(ln.text)
    body_size = body.most_common(1)[0][0]
    gaps = [a.y - c.y for a, c in zip(lines, lines[1:]) if a.page == c.page and 0 < a.y - c.y < body_size * 3]
    leading = statistics.median(gaps) if gaps else body_size * 1.2
    big_sizes = sorted({ln.size for ln in lines if ln.size > body_size * 1.12 and len(ln.text) < 150}, reverse=True)
    max_depth = max((d for _, d, _ in outline), default=-1)
    unused = {}
    for t, d, p in outline:
        unused.setdefault((t, p), []).append(d)

    def level_of(text: str, size: float, page: int) -> int:
        depths = unused.get((_norm(text), page))
        if depths:
            return depths.pop(0) + 1
        if size > body_size * 1.12:
            rank = next((i for i, s in enumerate(big_sizes) if abs(s - size) < 0.3), len(big_sizes))
            return min(6, rank + 1)
        return min(6, max(len(big_sizes), max_depth + 1) + 1)

    def is_heading(ln: _Line) -> bool:
        if not _LETTER.search(ln.text) or len(ln.text) > 150 or _BULLET.match(ln.text) or _NUMBER.match(ln.text):
            return False
        if ln.size > body_size * 1.12:
            return True
        # bold at body size: a heading unless it reads as a sentence (bold emphasis in a paragraph)
        return ln.bold and not re.search(r"[.,;!?]$", ln.text)

    lists = ListStack()
    xs: list[float] = []  # marker x of each open list depth
    cur: dict | None = None  # the open paragraph/item: kind, text, first, last, x, parent, extra
    prev: _Line | None = None

    def loc(ln: _Line) -> int:
        return page_line(ln.page, ln.no)

    def close() -> None:
        nonlocal cur
        if cur is None:
            return
        text = cur["text"].strip()
        if cur["kind"] == "item":
            idx = b.item(text, cur["first"], cur["last"], depth=cur["depth"], ordered=cur["ordered"],
                         order=cur["order"], parent=cur["parent"], bolds=cur["bolds"], lead=cur["lead"])
            lists.set_block(idx)
        else:
            b.paragraph(text, cur["first"], cur["last"], bolds=cur["bolds"], lead=cur["lead"])
        cur = None

    def join(a: str, c: str) -> str:
        if re.search(r"\w-$", a) and c[:1].islower():
            return a[:-1] + c
        return f"{a} {c}"

    def end_lists() -> None:
        lists.close()
        xs.clear()

    for ln in lines:
        new_page = prev is None or prev.page != ln.page
        gap = (prev.y - ln.y) if prev is not None and not new_page else None
        broken = gap is None or gap > leading * 1.35 or gap < -1
        text = ln.text
        if ln.cells:
            close()
            end_lists()
            b.row(ln.cells, loc(ln), ln.header)
            prev = ln
            continue
        if is_heading(ln):
            if (prev is not None and b.blocks and b.blocks[-1].kind == "heading" and cur is None and gap is not None
                    and 0 < gap <= ln.size * 1.6 and is_heading(prev) and abs(prev.size - ln.size) < 0.3
                    and b.blocks[-1].line // PAGE_LINES == ln.page):
                last = b.blocks[-1]  # a heading wrapped over two lines
                merged = f"{last.text} {text}"
                if b.heads and b.heads[-1][1] == last.text:
                    b.heads[-1] = (b.heads[-1][0], merged)
                    b.path = tuple(h[1] for h in b.heads)
                    last.path = b.path
                elif b.h1 == last.text:
                    b.h1 = merged
                last.text = merged
                prev = ln
                continue
            close()
            end_lists()
            b.heading(level_of(text, ln.size, ln.page), text, loc(ln))
            prev = ln
            continue
        lead = ln.lead
        if lead and (broken or cur is None) and len(lead) <= 80 and not _BULLET.match(text) and not _NUMBER.match(text):
            close()
            end_lists()
            b.heading(level_of(lead, ln.size, ln.page), lead.rstrip(":").strip(), loc(ln))
            text = text[len(lead):].strip() if text.startswith(lead) else text
            if not text:
                prev = ln
                continue
            cur = {"kind": "para", "text": text, "first": loc(ln), "last": loc(ln), "x": ln.x, "bolds": [],
                   "lead": ""}
            prev = ln
            continue
        m_b, m_n = _BULLET.match(text), _NUMBER.match(text)
        if m_b or m_n:
            close()
            while xs and ln.x < xs[-1] - 3:
                xs.pop()
            if not xs or ln.x > xs[-1] + 3:
                xs.append(ln.x)
            depth_key = len(xs)
            ordered = bool(m_n)
            depth, order, parent = lists.place(depth_key, ordered)
            if m_n and m_n.group(1).isdigit():
                order = int(m_n.group(1))
            body_text = text[(m_b or m_n).end():].strip()
            cur = {"kind": "item", "text": body_text, "first": loc(ln), "last": loc(ln), "x": ln.x, "depth": depth,
                   "ordered": ordered, "order": order, "parent": parent, "bolds": [], "lead": ""}
            prev = ln
            continue
        continues = cur is not None and (
            (not broken and (cur["kind"] == "para" or ln.x > cur["x"] + 2))
            or (new_page and not _SENTENCE_END.search(cur["text"]) and (cur["kind"] == "para" or ln.x > cur["x"] + 2))
            or (new_page and text[:1].islower()))
        if continues:
            cur["text"] = join(cur["text"], text)
            cur["last"] = loc(ln)
            if ln.bold and cur["kind"] == "para":
                cur["bolds"].append(text)
        else:
            close()
            if cur is None and xs and ln.x <= xs[0] + 2:
                end_lists()
            cur = {"kind": "para", "text": text, "first": loc(ln), "last": loc(ln), "x": ln.x, "bolds": [],
                   "lead": ""}
        prev = ln
    close()
    return b


def parse_pdf(data: bytes, path: Path | str = "document.pdf") -> Reading:
    """The :class:`~.base.Reading` of PDF bytes (see the module docstring).
    Raises :class:`DocumentError` for bytes that are not a readable PDF, a
    PDF that needs a password and a PDF without a text layer."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # malformed-but-readable files warn per object
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception:  # noqa: BLE001 - unsupported encryption
                ok = 0
            if not ok:
                raise DocumentError(path, 0, "encrypted PDF (needs a password)")
        outline = _outline(reader)
        pages: list[list[_Line]] = []
        for no, page in enumerate(reader.pages, 1):
            collector = _PageCollector(no)
            page.extract_text(visitor_text=collector.visit, visitor_operand_before=collector.before)
            lines = collector.finish()
            try:  # layout mode costs more than the text pass: only where a column gap was seen
                tables = (_layout_tables(page.extract_text(extraction_mode="layout"))
                          if len(lines) > 2 and collector.gaps >= 2 else [])
            except Exception:  # noqa: BLE001 - layout mode is only used to find tables
                tables = []
            lines = _mark_tables(lines, tables)
            pages.append(lines)
    except DocumentError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise DocumentError(path, 0, f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    if not any(pages):
        raise DocumentError(path, 0, "PDF has no text layer (a scan?)")
    lines = _drop_furniture(pages, outline)
    builder = _assemble(lines, outline)
    meta = {}
    try:
        title = (reader.metadata.title or "").strip() if reader.metadata else ""
    except Exception:  # noqa: BLE001
        title = ""
    if title:
        meta["title"] = title
    return Reading(builder.blocks, "pdf", builder.h1, meta)


def read(path: Path, text: str) -> Reading:
    """The :class:`~.base.Reading` of a ``.pdf`` file (``text`` is unused:
    the reader reads the file's bytes). Raises :class:`DocumentError`."""
    return parse_pdf(read_binary(path), path)


READER = register(Reader("pdf", (".pdf",), read, binary=True))
