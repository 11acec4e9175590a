"""reStructuredText reader (``.rst``/``.rest``): section titles by
adornment, nested bullet/enumerated lists, literal blocks as code, leading
``:field: value`` lines as metadata; a file whose content is HTML is read as
HTML."""

from __future__ import annotations

import re
from pathlib import Path

from ..document import Block
from .html import is_html, read as read_html
from .base import Reader, Reading, register
from .builder import BlockBuilder, ListStack

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


# admonition-like directives whose body is content: notes, tips, warnings, asides
_RST_ADMONITION = re.compile(
    r"^\.\.\s+(?P<kind>admonition|note|tip|hint|important|attention|caution|warning|danger|error|seealso|topic|"
    r"sidebar|versionadded|versionchanged|deprecated)::\s*(?P<arg>.*)$", re.I)
_TITLED = frozenset({"admonition", "topic", "sidebar"})


def _admonition(b: BlockBuilder, lines: list[str], i: int, m: re.Match) -> int:
    """Read the admonition directive at ``lines[i]`` (``.. note::``, ``.. tip::``,
    ``.. admonition:: Title``…) into ``b``: its body (the directive's argument
    and its indented lines) is parsed as reStructuredText with its own lines.
    A titled one (admonition/topic/sidebar with an argument) is a
    sub-section named by its title for its body only; the others stay under
    the current heading path. Returns the index of the first line after the
    body."""
    kind = m.group("kind").lower()
    arg = m.group("arg").strip()
    titled = kind in _TITLED and bool(arg)
    j = i + 1
    while j < len(lines) and lines[j].strip().startswith(":") and lines[j][:1].isspace():
        j += 1  # directive options (":class: x")
    k = j
    while k < len(lines) and (not lines[k].strip() or lines[k][:1].isspace()):
        k += 1
    while k > j and not lines[k - 1].strip():
        k -= 1
    raw = lines[j:k]
    ind = min((len(x) - len(x.lstrip()) for x in raw if x.strip()), default=0)
    parts: list[tuple[int, list[str]]] = []  # (file line of the text's first line, text lines)
    if arg and not titled:
        parts.append((i + 1, [arg]))  # ".. note:: text": the argument is content
    if any(x.strip() for x in raw):
        parts.append((j + 1, [x[ind:] for x in raw]))
    saved = (list(b.heads), b.path)
    if titled:
        b.heading(min(6, (b.heads[-1][0] if b.heads else 1) + 1), _rst_inline(arg)[0], i + 1)
    for first, body in parts:
        sub, _, _ = parse_rst("\n".join(body))
        base = len(b.blocks)
        for blk in sub:
            if blk.kind == "heading":
                continue
            blk.line += first - 1
            blk.end_line += first - 1
            blk.path = b.path
            blk.parent = blk.parent + base if blk.parent >= 0 else -1
            b.blocks.append(blk)
    b.heads, b.path = saved
    return max(k, i + 1)


def parse_rst(text: str) -> tuple[list[Block], str, dict[str, str]]:
    """Parse reStructuredText into blocks: ``(blocks, title, meta)``.

    Section titles are a text line with an underline (optionally an
    overline) of one repeated punctuation character at least as long as the
    title; heading levels follow the order in which adornment styles first
    appear (the first style is level 1, i.e. the document title). Bullet
    (``-``/``*``/``+``) and enumerated (``1.``, ``1)``, ``(a)``, ``#.``)
    lists nest by indentation; ``::`` / ``.. code-block::`` literal blocks
    become code; admonitions (``.. note::``, ``.. tip::``, ``.. warning::``,
    ``.. admonition:: Title``…) are read as content (see :func:`_admonition`);
    other directives and comments (``..``) are skipped; leading
    ``:field: value`` lines go to ``meta``. Everything else is paragraphs."""
    lines = text.split("\n")
    b = BlockBuilder()
    styles: list[tuple[str, bool]] = []
    meta: dict[str, str] = {}
    lists = ListStack()
    para: list[str] = []
    para_line = 0
    item_idx: int | None = None  # item whose text is still being continued
    item_ind = 0
    literal_next = False
    n = len(lines)
    i = 0

    def flush() -> None:
        nonlocal para
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
        adm = _RST_ADMONITION.match(stripped)
        if adm:
            flush()
            item_idx = None
            lists.close()
            i = _admonition(b, lines, i, adm)
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


def read(path: Path, text: str) -> Reading:
    """The :class:`Reading` of a reStructuredText file (see :func:`parse_rst`);
    content that starts with HTML markup is read by the HTML reader."""
    if is_html(text):
        return read_html(path, text)
    blocks, h1, meta = parse_rst(text)
    return Reading(blocks, "rst", h1, meta)


READER = register(Reader("rst", (".rst", ".rest"), read))
