"""Word reader (``.docx``) on python-docx.

python-docx reads the document's own structure, so nothing is guessed from
the layout: paragraphs styled ``Title`` / ``Heading 1…9`` (or carrying an
outline level) become headings, numbered and bulleted paragraphs become list
items (ordered or not from the numbering definition, nesting from the list
level, position counted per list), tables become ``row`` blocks (the first
row is the header; merged cells are read once), and bold runs give
``bolds`` / ``lead_bold`` like Markdown's ``**bold**``. A table-of-contents
field is skipped; page headers, footers, comments and images are not read.

A DOCX has no source lines, so ``line`` is the 1-based position of the
block in the document body (each paragraph and each table row counts one);
citations point at the n-th paragraph.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from ..document import DocumentError
from .base import Reader, Reading, read_binary, register
from .builder import BlockBuilder, ListStack

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_STYLE = re.compile(r"^(?:heading|überschrift|titre|título|titolo|kop)\s*(\d)$", re.I)
_ORDERED_FORMATS = frozenset({"decimal", "decimalZero", "lowerLetter", "upperLetter", "lowerRoman", "upperRoman",
                              "ordinal", "cardinalText", "ordinalText", "decimalEnclosedCircle",
                              "decimalEnclosedParen", "decimalFullWidth", "chineseCounting",
                              "ideographDigital", "japaneseCounting", "chineseCountingThousand"})


def _numbering_formats(document) -> dict[tuple[str, int], str]:
    """``(numId, ilvl) -> numFmt`` from the numbering part (empty when the
    document has none)."""
    try:
        numbering = document.part.numbering_part.element
    except (KeyError, NotImplementedError, AttributeError):
        return {}
    abstract: dict[str, dict[int, str]] = {}
    for an in numbering.iter(f"{_W}abstractNum"):
        levels = {}
        for lvl in an.iter(f"{_W}lvl"):
            fmt = lvl.find(f"{_W}numFmt")
            levels[int(lvl.get(f"{_W}ilvl", "0"))] = fmt.get(f"{_W}val") if fmt is not None else "bullet"
        abstract[an.get(f"{_W}abstractNumId")] = levels
    out: dict[tuple[str, int], str] = {}
    for num in numbering.iter(f"{_W}num"):
        ref = num.find(f"{_W}abstractNumId")
        if ref is None:
            continue
        for ilvl, fmt in abstract.get(ref.get(f"{_W}val"), {}).items():
            out[(num.get(f"{_W}numId"), ilvl)] = fmt
    return out


class _Styles:
    """Style lookups by id, cached (python-docx resolves a style by scanning
    the styles part on every ``.style`` access)."""

    def __init__(self, document) -> None:
        from docx.enum.style import WD_STYLE_TYPE

        self.by_id = {}
        for st in document.styles:
            try:
                self.by_id[st.style_id] = st
            except Exception:  # noqa: BLE001 - a malformed style is ignored
                continue
        try:
            self.default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
        except Exception:  # noqa: BLE001
            self.default = None
        self._bold: dict[str, bool] = {}

    def paragraph_style(self, paragraph):
        """The paragraph's style object (its own, else the default)."""
        ppr = paragraph._p.pPr
        sid = ppr.pStyle.val if ppr is not None and ppr.pStyle is not None else None
        return self.by_id.get(sid, self.default) if sid else self.default

    def run_bold(self, run) -> bool:
        """True when ``run`` is bold directly or through its character style."""
        if run.bold is not None:
            return bool(run.bold)
        rpr = run._r.rPr
        sid = rpr.rStyle.val if rpr is not None and rpr.rStyle is not None else None
        if not sid:
            return False
        if sid not in self._bold:
            st = self.by_id.get(sid)
            self._bold[sid] = bool(st is not None and getattr(st.font, "bold", None))
        return self._bold[sid]


def _num_pr(paragraph, style) -> tuple[str, int] | None:
    """``(numId, ilvl)`` of a list paragraph (direct or from its style), else None."""
    for ppr in (paragraph._p.pPr, getattr(getattr(style, "element", None), "pPr", None)):
        if ppr is None or ppr.numPr is None:
            continue
        num_id = ppr.numPr.numId.val if ppr.numPr.numId is not None else None
        if num_id is None or str(num_id) == "0":  # numId 0 switches numbering off
            return None
        ilvl = ppr.numPr.ilvl.val if ppr.numPr.ilvl is not None else 0
        return str(num_id), int(ilvl)
    return None


def _heading_level(paragraph, style) -> int:
    """1-9 for a title or heading paragraph (``style`` is its style), 0 otherwise."""
    names = [getattr(style, "name", "") or "", getattr(style, "style_id", "") or ""]
    for name in names:
        if name.lower() == "title":
            return 1
        m = _HEADING_STYLE.match(name.replace("Heading", "Heading ").strip()) or _HEADING_STYLE.match(name)
        if m:
            return max(1, min(9, int(m.group(1))))
    for ppr in (paragraph._p.pPr, getattr(getattr(style, "element", None), "pPr", None)):
        lvl = ppr.find(f"{_W}outlineLvl") if ppr is not None else None
        if lvl is not None and lvl.get(f"{_W}val", "9").isdigit() and int(lvl.get(f"{_W}val")) < 9:
            return int(lvl.get(f"{_W}val")) + 1
    return 0


def _bold_runs(paragraph, styles: _Styles) -> tuple[list[str], str]:
    """The bold texts of ``paragraph`` (adjacent bold runs joined) and the
    bold text it starts with (``""`` if none)."""
    bolds: list[str] = []
    lead = ""
    cur: list[str] = []
    first = True
    for run in paragraph.runs:
        text = run.text
        if not text:
            continue
        bold = styles.run_bold(run)
        if bold:
            cur.append(text)
        else:
            if cur:
                bolds.append("".join(cur).strip())
                if first:
                    lead = bolds[-1]
                cur = []
            if text.strip():
                first = False
    if cur:
        bolds.append("".join(cur).strip())
        if first:
            lead = bolds[-1]
    return [b for b in bolds if b], lead


def _is_toc(sdt) -> bool:
    """True for a structured-document tag holding a table of contents."""
    for gallery in sdt.iter(f"{_W}docPartGallery"):
        if "content" in (gallery.get(f"{_W}val") or "").lower():
            return True
    return False


def _body_items(document):
    """Paragraphs and tables of the body in order, looking inside content
    controls other than a table of contents."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    def walk(parent):
        for child in parent.iterchildren():
            if child.tag == f"{_W}p":
                yield Paragraph(child, document)
            elif child.tag == f"{_W}tbl":
                yield Table(child, document)
            elif child.tag == f"{_W}sdt" and not _is_toc(child):
                content = child.find(f"{_W}sdtContent")
                if content is not None:
                    yield from walk(content)

    yield from walk(document.element.body)


def _row_cells(row) -> list[str]:
    """Cell texts of a table row, a merged cell once."""
    cells, seen = [], set()
    for cell in row.cells:
        if id(cell._tc) in seen:
            continue
        seen.add(id(cell._tc))
        cells.append(re.sub(r"\s+", " ", cell.text).strip())
    return cells


def parse_docx(data: bytes, path: Path | str = "document.docx") -> Reading:
    """The :class:`~.base.Reading` of DOCX bytes (see the module docstring
    for what becomes which block). Raises :class:`DocumentError` for bytes
    that are not a readable DOCX."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise DocumentError(path, 0, f"not a readable DOCX file ({type(exc).__name__})") from None
    formats = _numbering_formats(document)
    styles = _Styles(document)
    b = BlockBuilder()
    lists = ListStack()
    counters: dict[tuple[str, int], int] = {}
    pos = 0
    for item in _body_items(document):
        if isinstance(item, Table):
            lists.close()
            for i, row in enumerate(item.rows):
                pos += 1
                b.row(_row_cells(row), pos, header=i == 0)
            continue
        pos += 1
        text = item.text.replace("\r", "").strip()
        style = styles.paragraph_style(item)
        level = _heading_level(item, style)
        if level:
            lists.close()
            b.heading(level, text, pos)
            continue
        if not text:
            continue
        bolds, lead = _bold_runs(item, styles)
        num = _num_pr(item, style)
        if num is None:
            lists.close()
            b.paragraph(text, pos, pos, bolds=bolds, lead=lead)
            continue
        num_id, ilvl = num
        ordered = formats.get((num_id, ilvl), "bullet") in _ORDERED_FORMATS
        depth, order, parent = lists.place(ilvl, ordered)
        key = (num_id, ilvl)
        counters[key] = counters.get(key, 0) + 1
        for k in [k for k in counters if k[0] == num_id and k[1] > ilvl]:
            del counters[k]  # a shallower item restarts the deeper levels
        if ordered:
            order = counters[key]
        idx = b.item(text, pos, pos, depth=depth, ordered=ordered, order=order, parent=parent, bolds=bolds, lead=lead)
        lists.set_block(idx)
    meta = {}
    title = (document.core_properties.title or "").strip()
    if title:
        meta["title"] = title
    return Reading(b.blocks, "docx", b.h1, meta)


def read(path: Path, text: str) -> Reading:
    """The :class:`~.base.Reading` of a ``.docx`` file (``text`` is unused:
    the reader reads the file's bytes). Raises :class:`DocumentError`."""
    return parse_docx(read_binary(path), path)


READER = register(Reader("docx", (".docx",), read, binary=True))
