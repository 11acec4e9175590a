"""Markdown reader (``.md``/``.markdown``) on markdown-it-py.

CommonMark plus the GFM table rule; the token ``.map`` gives 0-based source
line ranges, turned into 1-based lines. Pre-processing keeps line numbers
right:

* YAML front matter (``---`` on line 1 … ``---``) is recognised by the
  ``front_matter`` plugin of mdit-py-plugins, TOML front matter (``+++`` …
  ``+++``) by :func:`~.frontmatter.split_toml_front_matter`; both are read by
  :mod:`.frontmatter`: scalar keys go to ``meta`` (``title``, ``url``…), lists,
  multi-line strings and mappings (``ingredients``, ``directions``, ``notes``…)
  become sections with their real lines, placed before the body.
* HTML comments ``<!-- … -->`` are replaced by the same number of newlines.
* Images (``![alt](src)``) are dropped from the text.
* MkDocs admonitions are unwrapped line for line (:func:`unwrap_admonitions`)
  and kramdown/attr_list suffixes removed (:func:`strip_attr_lists`).
* Raw HTML blocks are read with the HTML reader.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from ..cues import alternation, fill, regex, words
from ..document import Block
from .base import Reader, Reading, register
from .html import html_blocks
from .frontmatter import FrontMatter, read_front_matter, split_metadata_block, split_toml_front_matter

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMAGE_MD = re.compile(r"!\[[^\]]*\]\([^)]*\)")

# maxNesting: markdown-it drops blocks nested deeper silently; flatten_deep_nesting keeps input below it
_MD = MarkdownIt("commonmark", {"html": True, "maxNesting": 64}).enable("table").use(front_matter_plugin).use(footnote_plugin)
MAX_QUOTE_DEPTH = 8
MAX_INDENT = 32
_DEEP_QUOTE = re.compile(r"^( {0,3})((?:>[ \t]?){%d,})" % (MAX_QUOTE_DEPTH + 1))

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
_TASK_BOX = regex("markup", "task_box")


def front_matter(token) -> FrontMatter:
    """The :class:`~.frontmatter.FrontMatter` of a ``front_matter`` token of
    mdit-py-plugins (YAML between ``---`` fences): metadata fields, and the
    sections its lists, multi-line strings and mappings become, with their
    file lines (see :func:`~.frontmatter.read_front_matter`). YAML that does not
    parse keeps its simple ``key: value`` lines and reports the error."""
    first, last = token.map or (0, 0)
    return read_front_matter(token.content or "", first + 1, last, "yaml")


def flatten_deep_nesting(text: str) -> str:
    """Keep deep nesting within what the parser reads: block quotes deeper
    than :data:`MAX_QUOTE_DEPTH` become that deep and lines indented more
    than :data:`MAX_INDENT` columns (list items nested ~16 levels and more)
    are indented that much, so deeper items become siblings at that depth.
    The text is kept (flattened, not dropped); line numbers are unchanged."""
    out = []
    for line in text.split("\n"):
        m = _DEEP_QUOTE.match(line)
        if m:
            line = m.group(1) + "> " * MAX_QUOTE_DEPTH + line[m.end():]
        stripped = line.lstrip(" \t")
        if stripped and len(line) - len(stripped) > MAX_INDENT / 4:
            lead = line[: len(line) - len(stripped)].expandtabs(4)
            if len(lead) > MAX_INDENT:
                line = " " * MAX_INDENT + stripped
        out.append(line)
    return "\n".join(out)


def _blank_comments(text: str) -> str:
    return _HTML_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def strip_attr_lists(text: str) -> str:
    """``text`` without kramdown/attr_list suffixes (``{:target="_blank"}``,
    ``{: .class}``, ``{#id}``)."""
    return _ATTR_LIST.sub("", text) if "{" in text else text


def _indent(line: str) -> int:
    exp = line.expandtabs(4)
    return len(exp) - len(exp.lstrip(" "))


_DIRECTIVE = re.compile(r"^(?P<ind>[ \t]*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?)(?P<f>`{3,}|:{3,})\{(?P<name>[\w:.-]+)\}(?P<arg>.*)$")
_DIRECTIVE_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")


@functools.lru_cache(maxsize=1)
def _prose_directives() -> frozenset[str]:
    return frozenset(words("markup", "prose_directives"))


def unwrap_directives(text: str) -> str:
    """Rewrite MyST / Sphinx fenced directives whose body is prose (```{note}``, ``:::{tip}``,
    ``{glossary}``, ``{tab-item}`` …, ``lexicon/markup.yaml``) so their body parses as Markdown:
    the opening and closing fence lines and the option lines right after the opening
    (``:class: warning``) become blank lines, so the number of lines never changes. Directives
    nest; any other fence (code, or a directive such as ``{code-block}``) is left alone with
    everything inside it."""
    if "{" not in text:
        return text
    prose = _prose_directives()
    lines = text.split("\n")
    open_: list[str] = []  # fence strings of the prose directives open around this line
    code = ""  # fence of the code block (or non-prose directive) we are in
    options = False
    for i, ln in enumerate(lines):
        if code:
            st = ln.strip()
            if st and st[0] == code[0] and st.strip(code[0]) == "" and len(st) >= len(code):
                code = ""
            continue
        m = _DIRECTIVE.match(ln)
        if m and m.group("name").split(":")[-1].casefold() in prose:
            open_.append(m.group("f"))
            lines[i] = m.group("ind").rstrip() if m.group("ind").strip() else ""  # a list item keeps its marker
            options = True
            continue
        if options and _DIRECTIVE_OPTION.match(ln):
            lines[i] = ""
            continue
        options = False
        st = ln.strip()
        if open_ and st and st[0] == open_[-1][0] and st.strip(open_[-1][0]) == "" and len(st) >= len(open_[-1]):
            open_.pop()
            lines[i] = ""
            continue
        f = re.match(r"^[ \t]*(`{3,}|~{3,}|:{3,}(?=\{))", ln)
        if f:
            code = f.group(1)
    return "\n".join(lines)


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


_LABEL_LINE = regex("sections", "label_line", re.I)
_LABEL_ING = re.compile(rf"^(?:{alternation('sections', 'label_line_ingredients')})\b", re.I)
_LABEL_NEED = re.compile(rf"^(?:{alternation('sections', 'label_line_need')})\b", re.I)
_MEASURED = re.compile(r"^\W*(?:" + fill("amounts", "{{amount_en}}") + ")", re.I)
_LABEL_DECOR = re.compile(r"^[^\w(（]+|[\s:：]+$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)")
_LIST_LINE = re.compile(r"^\s*(?:[-*+•·▪◦●]|\d{1,2}[.)])\s+\S")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+")
_PASTED_BULLET = re.compile(r"^(\s*)[•·▪◦●][ \t]*(?=\S)")
_CJK = re.compile(r"[\u3400-\u9fff]")
_BR = re.compile(r"<br\s*/?>", re.I)
_TABLE_ING = re.compile(rf"(?:{alternation('sections', 'label_line_ingredients')})", re.I)


def _ingredient_table_head(line: str) -> bool:
    """Whether a Markdown table row is the header of an ingredients table: a cell that is an ingredients
    label ("Ingredient", "Ingredients"; ``label_line_ingredients`` of ``lexicon/sections.yaml``). An "Item |
    Qty" header alone is not enough: an ops page's inventory has one too."""
    if not line.lstrip().startswith("|"):
        return False
    cells = [c.strip().strip("*_ ") for c in line.strip().strip("|").split("|")]
    return any(_TABLE_ING.fullmatch(c) for c in cells)


def _label(line: str) -> str:
    """The words of a line that may be a plain section label: without its decoration (emoji, bullets,
    ``**``/``__`` wrappers, a trailing ":"); ``""`` for a line that holds CJK text or is too long."""
    t = line.strip().strip("*_").strip()
    if not t or len(t) > 60 or _CJK.search(t):
        return ""
    return _LABEL_DECOR.sub("", t).strip().strip("*_").strip()


def _summary_label(text: str, html: str) -> bool:
    """Whether ``text`` is the ``<summary>`` of a ``<details>`` block (``html``) and names a section
    (``label_line`` of ``lexicon/sections.yaml``: "Ingredients", "Method"; not "Click to expand")."""
    w = _label(text)
    return bool(w) and bool(_LABEL_LINE.match(w)) and bool(
        re.search(r"<summary[^>]*>\s*(?:<[^>]+>\s*)*" + re.escape(text.strip()), html, re.I))


def label_headings(text: str) -> str:
    """``text`` with each plain line that names a recipe section written as an ATX heading, when the
    document is laid out so: a line of its own ("Ingredients:", "You will need:", "INGREDIENTS (serves 4)";
    ``label_line_ingredients`` of ``lexicon/sections.yaml``) opens a list or at least two short lines. Then
    every line of its own matching ``label_line`` ("Method", "Directions:", "Notes") becomes a heading one
    level below the last real heading, and lines opening with a pasted bullet ("• 1 cucumber") become list
    items ("- 1 cucumber"). A document without such an ingredients line (an ops page's "Steps:") is
    returned unchanged; lines are kept one for one, so line numbers stay right. Fenced code and YAML
    front matter are left alone; Chinese lines are never changed (their labels are read by
    :func:`~threadgraph.ingest.recipes.written_for_reading`)."""
    lines = text.split("\n")
    skip = [False] * len(lines)
    fence = ""
    for k, ln in enumerate(lines):
        if k == 0 and ln.strip() == "---":
            fence = "---"
            skip[k] = True
            continue
        m = _FENCE_OPEN.match(ln)
        if fence:
            skip[k] = True
            if (fence == "---" and ln.strip() == "---") or (fence != "---" and m and m.group(1)[0] == fence[0]
                                                               and len(m.group(1)) >= len(fence)):
                fence = ""
            continue
        if m:
            fence = m.group(1)
            skip[k] = True

    def own_line(k: int) -> bool:  # a line of its own: a blank line or a heading above it, or a label's ":"
        return k == 0 or not lines[k - 1].strip() or bool(_ATX.match(lines[k - 1])) or lines[k].rstrip().endswith((":", "："))

    def opens_list(k: int) -> bool:
        nxt = [ln for ln in lines[k + 1:k + 12]]
        while nxt and not nxt[0].strip():
            nxt.pop(0)
        if not nxt:
            return False
        if not _LABEL_ING.match(_label(lines[k])):  # "You will need:": a list of things measured as a cook does
            run = [ln for ln in nxt[:next((j for j, ln in enumerate(nxt) if not ln.strip()), len(nxt))]]
            if not any(_MEASURED.match(_PASTED_BULLET.sub("", _LIST_MARK.sub("", ln))) for ln in run):
                return False
        if _LIST_LINE.match(nxt[0]):
            return True
        return len(nxt) >= 2 and all(ln.strip() and len(ln.strip()) <= 80 for ln in nxt[:2])

    labels = [k for k, ln in enumerate(lines) if not skip[k] and not _ATX.match(ln) and own_line(k)
              and not _LIST_LINE.match(ln) and (w := _label(ln)) and _LABEL_LINE.match(w)]
    heads = [k for k, ln in enumerate(lines) if not skip[k] and _ATX.match(ln)
             and _LABEL_ING.match(_label(_ATX.sub("", ln)))]
    opened = [k for k in labels if (_LABEL_ING.match(w := _label(lines[k])) or _LABEL_NEED.match(w)) and opens_list(k)]
    if labels and not opened and any(not skip[k] and _ingredient_table_head(ln) for k, ln in enumerate(lines)):
        opened = labels  # "| Ingredient | Amount |" then "Steps:": the table is the list, the labels its sections
    if not opened and not heads:
        return text
    out = list(lines)
    level = 1
    for k, ln in enumerate(lines):
        if skip[k]:
            continue
        m = _ATX.match(ln)
        if m:
            level = len(m.group(1))
        elif opened and k in labels:
            out[k] = "#" * min(6, level + 1) + " " + _label(ln)
        else:
            out[k] = _PASTED_BULLET.sub(r"\1- ", ln)
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
        elif t in ("softbreak", "hardbreak") or (t == "html_inline" and _BR.match(ch.content)):
            out.append("\n")  # "2 eggs<br>1 cup flour": an HTML line break is a line break
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
    text = re.sub(r"\n{2,}", "\n", text)  # a "<br>" at a line's end: one break, not two
    return text.strip(), bolds, lead


def _html_fragment(content: str, first_line: int) -> list[Block]:
    """Blocks of a raw HTML block inside Markdown, read with the HTML reader
    of :mod:`.html` (table rows as ``"cell | cell"``,
    lists, paragraphs, code); ``first_line`` is the 1-based source line of
    the fragment's first line, added to the reader's lines."""
    off = first_line - 1
    out = []
    for b in html_blocks(content):
        b.line += off
        b.end_line = max(b.line, b.end_line + off)
        b.text = strip_attr_lists(b.text)
        b.cells = [strip_attr_lists(c) for c in b.cells]
        if b.kind == "row":
            b.text = " | ".join(b.cells)
        out.append(b)
    return out


def parse_markdown(text: str) -> tuple[list[Block], str, FrontMatter | None]:
    """Parse markdown ``text`` into blocks; returns ``(blocks, first_h1,
    front matter or None)``.

    Expects HTML comments and images to be removed already (see
    :func:`read`). MyST directives with a prose body and MkDocs admonitions
    are unwrapped first (see :func:`unwrap_directives`,
    :func:`unwrap_admonitions`); raw HTML blocks are read with the HTML
    reader (see :func:`_html_fragment`) under the current heading path."""
    tokens = _MD.parse(unwrap_admonitions(unwrap_directives(flatten_deep_nesting(text))))
    fm: FrontMatter | None = None
    blocks: list[Block] = []
    heads: list[tuple[int, str]] = []  # (level, title)
    path: tuple[str, ...] = ()
    h1 = ""
    real_level = 1  # level of the last real heading: a bold pseudo-heading sits one below it
    pseudo: list[tuple[int, str, bool]] = []  # bold pseudo-headings: (level, title, names a section)
    # list state: stack of [ordered, counter, depth]; item stack of block indices
    lists: list[list] = []
    items: list[int] = []  # block index of each open list item (-2 if no text yet)
    item_pending: list[tuple[int, int]] = []  # (start line, end line) for open items
    in_table_head = False
    in_footnote = False
    footnotes: list[int] = []  # paragraphs of footnote definitions (markdown-it emits them last)
    row_cells: list[str] = []
    row_line = 0
    i = 0
    n = len(tokens)
    h1s = [tokens[k + 1].content.strip() for k in range(n - 1) if tokens[k].type == "heading_open" and tokens[k].tag == "h1"]
    while i < n:
        tok = tokens[i]
        t = tok.type
        if t == "front_matter":
            fm = front_matter(tok)
            i += 1
            continue
        if t == "heading_open":
            level = int(tok.tag[1])
            inline = tokens[i + 1]
            title = _inline_text(inline)
            title = re.sub(r"\s+", " ", title).strip().rstrip("#").strip()
            while heads and heads[-1][0] >= level:
                heads.pop()
            is_title = level == 1 and not h1 and bool(title)
            fm_title = fm.fields.get("title", "").strip() if fm is not None else ""
            if is_title and fm_title and title.casefold() != fm_title.casefold() and _SECTION_H1.search(title):
                # the front matter titles the document and its first H1 names a section ("# 原材料" under
                # "title: Risotto"): every H1 is a section; the title is the front matter's
                is_title = False
                h1 = fm_title
            elif is_title and not fm_title and _SECTION_H1.search(title) and sum(bool(_SECTION_H1.search(x)) for x in h1s) >= 2:
                # no title anywhere and every part a section of its own ("# Ingredients" … "# Directions"): the
                # H1s are sections, the file's name titles the document
                is_title = False
            real_level = level
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
            txt = _TASK_BOX.sub("", txt, count=1)  # "[ ] 2 onions diced": a task list's box is markup
            blocks.append(
                Block("item", txt, ln, max(ln, tok.map[1] if tok.map else end), path,
                      level=len(lists), ordered=ordered, order=counter, parent=parent,
                      bolds=bolds, lead_bold=lead)
            )
            items[-1] = len(blocks) - 1
        elif t == "inline" and tokens[i - 1].type == "paragraph_open":
            m = tokens[i - 1].map or [0, 0]
            txt, bolds, lead = _inline(tok)
            if txt and not items and not lists and not in_footnote and _pseudo_heading(txt, bolds, lead, tokens, i):
                # "**Ingredients**" alone on its line, then a list: a heading written in bold. One that names a
                # section sits one level below the last real heading; any other ("**For the sauce:**") is a
                # sub-heading of an open bold section heading
                title = lead.strip().rstrip(":：").strip()
                level = real_level + 1
                named = _names_section(title)
                if not named and any(lv == level and s for lv, _t, s in pseudo if heads and (lv, _t) in heads):
                    level += 1
                pseudo.append((level, title, named))
                while heads and heads[-1][0] >= level:
                    heads.pop()
                heads.append((level, title))
                path = tuple(h[1] for h in heads)
                blocks.append(Block("heading", title, m[0] + 1, m[0] + 1, path, level))
                txt = ""
            if txt:
                parent = next((b for b in reversed(items) if b >= 0), -1)
                numbered = numbered_lines(txt) if parent < 0 and not in_footnote and not lists else []
                for k, (off, num, body) in enumerate(numbered):
                    # "1、鸡蛋 2 个" / "（2）…": a list CommonMark does not know, one item per numbered line
                    last = numbered[k + 1][0] - 1 if k + 1 < len(numbered) else m[1] - 1 - m[0]
                    blocks.append(Block("item", body, m[0] + 1 + off, m[0] + 1 + max(off, last), path, level=1,
                                        ordered=True, order=num, bolds=bolds, lead_bold=lead if k == 0 else ""))
                if not numbered:
                    blocks.append(Block("paragraph", txt, m[0] + 1, m[1], path, parent=parent,
                                        bolds=bolds, lead_bold=lead))
                if in_footnote:
                    footnotes.append(len(blocks) - 1)
        elif t == "footnote_block_open":
            in_footnote = True
        elif t == "footnote_block_close":
            in_footnote = False
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
                if hb.kind == "paragraph" and _summary_label(hb.text, tok.content):
                    # "<details><summary>Ingredients</summary>" over a list: a collapsible section, titled
                    hb.kind, hb.level = "heading", min(6, real_level + 1)
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
            body = tok.content.rstrip("\n")
            txt = body.lstrip("\n")
            if txt.strip():
                parent = next((b for b in reversed(items) if b >= 0), -1)
                # a fence's text starts on the line after its ``` line; blank lines
                # stripped from the top move the first line down as well
                first = m[0] + 1 + (t == "fence") + (len(body) - len(txt))
                last = max(first, first + txt.count("\n"))
                blocks.append(Block("code", txt, first, last, path, parent=parent))
        i += 1
    if footnotes:
        blocks = _place_footnotes(blocks, footnotes)
    if fm is not None and fm.blocks:
        blocks = with_front_matter(fm.blocks, blocks)
    return blocks, h1, fm


_ENUMERATION = regex("sections", "enumeration_marks")
_PSEUDO_MAX = int(words("markup", "pseudo_heading_max_chars")[0])


def _pseudo_heading(txt: str, bolds: list[str], lead: str, tokens: list, i: int) -> bool:
    """Whether the paragraph whose inline token is ``tokens[i]`` (its text
    ``txt``, bold runs ``bolds``, leading bold ``lead``) is a heading written
    in bold: one line that is all one bold run ("**Ingredients**",
    "**For the sauce:**", "**Directions**:"), at most ``pseudo_heading_max_chars``
    of ``lexicon/markup.yaml``, followed by a list, or naming a section
    (``section_h1`` of ``lexicon/sections.yaml``) whatever follows."""
    if not lead or len(bolds) != 1 or "\n" in txt or len(txt) > _PSEUDO_MAX:
        return False
    if txt.strip().rstrip(":：").strip() != lead.strip().rstrip(":：").strip():
        return False
    if lead.rstrip(":：").rstrip()[-1:] in ".!?。！？":
        return False
    nxt = tokens[i + 2].type if i + 2 < len(tokens) else ""
    return nxt in ("bullet_list_open", "ordered_list_open") or _names_section(lead.rstrip(":： "))


_SECTION_WORD = re.compile("|".join(f"(?:{alternation('sections', k)})" for k in ("ingredients", "tools", "steps"))
                           + f"|{alternation('markup', 'pseudo_heading_words')}", re.I)


def _names_section(title: str) -> bool:
    """Whether a short bold line names a recipe or procedure section ("Ingredients", "🧺 Ingredients",
    "Cook's notes", "Method", "Garnish"): ``section_h1`` of ``lexicon/sections.yaml``, or in a line of at
    most six words one of its section words or of ``pseudo_heading_words`` (``lexicon/markup.yaml``)."""
    return bool(_SECTION_H1.search(title)) or (len(title.split()) <= 6 and bool(_SECTION_WORD.search(title)))
_SECTION_H1 = regex("sections", "section_h1", re.I)


def numbered_lines(text: str) -> list[tuple[int, int, str]]:
    """A paragraph that is really a numbered list written with a mark
    CommonMark does not read as one ("1、鸡蛋 2 个", "（2）…", "③…"; the marks
    are ``enumeration_marks`` of ``lexicon/sections.yaml``): its items as
    ``(line offset, number, text without the mark)``; lines without a mark
    continue the item above. ``[]`` when the paragraph does not start with a
    mark."""
    lines = text.split("\n")
    if not _ENUMERATION.match(lines[0]):
        return []
    out: list[tuple[int, int, str]] = []
    for off, ln in enumerate(lines):
        m = _ENUMERATION.match(ln)
        if m:
            digits = re.sub(r"\D", "", m.group(0))
            num = int(digits) if digits else len(out) + 1
            out.append((off, num, ln[m.end():].strip()))
        elif out:
            o, n, t = out[-1]
            out[-1] = (o, n, f"{t}\n{ln.strip()}")
    return [o for o in out if o[2]]


def _place_footnotes(blocks: list[Block], notes: list[int]) -> list[Block]:
    """``blocks`` with the footnote paragraphs ``notes`` (indices; markdown-it
    puts footnote definitions at the end) moved to their source position,
    each under the heading path in force at its line; ``parent`` indices are
    remapped."""
    keep = [i for i in range(len(blocks)) if i not in set(notes)]
    order: list[int] = []
    pending = sorted(notes, key=lambda i: blocks[i].line)
    for i in keep:
        while pending and blocks[pending[0]].line < blocks[i].line:
            order.append(pending.pop(0))
        order.append(i)
    order.extend(pending)
    new_index = {old: new for new, old in enumerate(order)}
    out = [blocks[i] for i in order]
    heads = [(b.line, b.path) for b in out if b.kind == "heading"]
    for i in notes:
        b = blocks[i]
        b.path = next((p for ln, p in reversed(heads) if ln <= b.line), ())
        b.parent = -1
    for b in out:
        if b.parent >= 0:
            b.parent = new_index.get(b.parent, -1)
    return out


def with_front_matter(head: list[Block], body: list[Block]) -> list[Block]:
    """``head`` (front-matter sections) followed by ``body``, the body's
    ``parent`` indices shifted accordingly."""
    n = len(head)
    for b in body:
        if b.parent >= 0:
            b.parent += n
    return head + body


def read(path: Path, text: str) -> Reading:
    """The :class:`Reading` of a Markdown file (see :func:`parse_markdown`):
    front matter (YAML or TOML) gives ``meta`` and the sections placed before
    the body; front matter that does not parse is reported in
    ``row_errors`` with its line, and its simple ``key: value`` lines are kept."""
    toml_fm, text = split_toml_front_matter(text)
    if toml_fm is None:
        toml_fm, text = split_metadata_block(text)  # Pelican / MultiMarkdown "Title: …" lines
    text = _blank_comments(text)
    text = _IMAGE_MD.sub("", text)
    blocks, h1, fm = parse_markdown(label_headings(text))
    if toml_fm is not None:
        fm = toml_fm
        if fm.blocks:
            blocks = with_front_matter(fm.blocks, blocks)
    return Reading(blocks, "markdown", h1, dict(fm.fields) if fm else {},
                   row_errors=list(fm.errors) if fm else [])


READER = register(Reader("markdown", (".md", ".markdown"), read))
