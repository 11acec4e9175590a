"""AsciiDoc reader (``.adoc``/``.asciidoc``/``.asc``): ``=`` sections,
``.Title`` block titles, nested ``*``/``.`` lists, delimited code blocks,
``|===`` tables and ``:attr: value`` metadata; a file whose content is HTML
is read as HTML."""

from __future__ import annotations

import re
from pathlib import Path

from ..document import Block
from .html import is_html, read as read_html
from .base import Reader, Reading, register
from .builder import BlockBuilder, ListStack

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
    lists = ListStack()
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


def read(path: Path, text: str) -> Reading:
    """The :class:`Reading` of an AsciiDoc file (see :func:`parse_asciidoc`);
    content that starts with HTML markup is read by the HTML reader."""
    if is_html(text):
        return read_html(path, text)
    blocks, h1, meta = parse_asciidoc(text)
    return Reading(blocks, "asciidoc", h1, meta)


READER = register(Reader("asciidoc", (".adoc", ".asciidoc", ".asc"), read))
