"""Sections from structured data: the value tree and the section writer
shared by front matter (:mod:`.frontmatter`) and JSON records (:mod:`.json`).

Front matter and JSON records hold a document's content in keys rather than
in headings: ``ingredients:`` as a YAML list or a ``|-`` block of lines,
``instructions`` as a JSON array. This module turns such a value tree into the
same :class:`~..document.Block` list the prose readers produce, with the
**real source line** of every entry, so the extractors see an ingredients
section and an ordered steps section as if the author had written headings:

* the value trees (:class:`Node`) come from kept parsers: PyYAML's
  ``compose()`` (node marks give lines) and the stdlib ``tomllib`` plus a
  line map (both in :mod:`.frontmatter`), and the JSON reader's own line map
  (:mod:`.json`);
* a key becomes a heading (level ``level``, its text as written, ``_``/``-``
  read as spaces); a list becomes one item per element at the element's
  line; a multi-line string one item per non-empty line for list-like keys
  (ingredients, steps: see ``record_keys`` in ``ingest/lexicon/columns.yaml``)
  and paragraphs otherwise; lines such as ``Filling:``, ``Optional (…):`` or
  an unmarked label among bulleted lines become sub-headings; a mapping of
  scalars one item ``key: value`` per pair, a mapping holding lists
  sub-sections; steps are ordered items;
* what a key means (title, ingredients, steps, url, metadata) is data:
  :func:`key_kind`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...knowledge.text import has_cjk
from ..cues import lexicon
from .builder import BlockBuilder


@dataclass(slots=True)
class Node:
    """One value of a structured document with its source lines.

    ``kind`` is ``"text"`` (a scalar), ``"list"`` or ``"map"``; ``line`` the
    1-based line where the value starts. A text node has ``text`` (the value
    as the parser gives it, ``""`` for null), ``block`` (written as a YAML
    ``|``/``>`` block) and ``lines``: each line of the
    value with its 1-based source line (a folded YAML line maps to the first
    source line it came from). A list has ``items``; a map ``pairs`` of
    ``(key, key line, value)`` in source order."""

    kind: str
    line: int
    text: str = ""
    lines: list[tuple[int, str]] = field(default_factory=list)
    items: list["Node"] = field(default_factory=list)
    pairs: list[tuple[str, int, "Node"]] = field(default_factory=list)
    block: bool = False

    @property
    def multiline(self) -> bool:
        """True for a text node whose value spans several non-empty lines."""
        return self.kind == "text" and sum(1 for _, t in self.lines if t.strip()) > 1


# --------------------------------------------------------------------------- key meanings
_KEY_KINDS: list[tuple[str, re.Pattern]] = [
    (kind, re.compile(r"^(?:%s)$" % "|".join(pats), re.I)) for kind, pats in lexicon("columns")["record_keys"].items()
]
_URL = re.compile(r"^(?:https?://|www\.)\S+$|^/[^\s]*$", re.I)


def key_kind(key: str) -> str:
    """What a record or front-matter key means: ``"title"``, ``"ingredients"``,
    ``"steps"``, ``"url"``, ``"meta"`` or ``""`` (ordinary content), from
    ``record_keys`` of ``ingest/lexicon/columns.yaml`` (whole key,
    case-insensitive, ``_``/``-`` read as spaces)."""
    k = re.sub(r"\s+", " ", re.sub(r"[_\-]+", " ", key)).strip()
    for kind, rx in _KEY_KINDS:
        if rx.match(k):
            return kind
    return ""


def is_url(text: str) -> bool:
    """True when ``text`` is one web address or site path (``https://…``, ``/recipes/x/``)."""
    return bool(_URL.match(text.strip()))


def heading_text(key: str) -> str:
    """A key as a section heading: ``_``/``-`` read as spaces, otherwise as written."""
    return re.sub(r"\s+", " ", re.sub(r"[_]+", " ", key)).strip()


# --------------------------------------------------------------------------- blocks
_MARK = re.compile(r"^\s*(?:[-*+•·▪◦‣–—]\s+|\d{1,3}[.)、]\s*|[（(]\d{1,3}[)）]\s*|\[[ xX]\]\s+)")
_ORDERED_MARK = re.compile(r"^\s*(?:\d{1,3}[.)、]|[（(]\d{1,3}[)）])")
_LABEL = re.compile(r"^(?P<t>[^\n]{1,60}?)\s*[:：]$")
_MD_HEAD = re.compile(r"^\s*#{1,6}\s+(?P<t>.+?)\s*#*\s*$|^\s*\*\*(?P<b>[^*]+?)\*\*\s*[:：]?\s*$")
_SENTENCE_END = re.compile(r"[.!?。！？;；]\s*$")


def _label(text: str) -> str:
    """The sub-heading a line of a list-like string names (``Filling:``,
    ``Optional (but highly recommended!):``, ``## Sauce``, ``**Crust**``),
    else ``""``. A line with an amount after the colon is an item."""
    t = text.strip()
    m = _MD_HEAD.match(t)
    if m:
        return (m.group("t") or m.group("b") or "").strip()
    m = _LABEL.match(_MARK.sub("", t))
    if m and len(m.group("t").split()) <= 8:
        return m.group("t").strip()
    return ""


class SectionWriter:
    """Writes sections of a value tree into a :class:`BlockBuilder`.

    ``section(key, key_line, node, level)`` adds a heading for ``key`` and the
    value's blocks under it; ``kind`` (see :func:`key_kind`) decides whether a
    multi-line string is read line by line (``ingredients``, ``steps``) and
    whether items are ordered (``steps``)."""

    def __init__(self, builder: BlockBuilder) -> None:
        self.b = builder

    def section(self, key: str, key_line: int, node: Node, level: int, kind: str | None = None) -> None:
        """Add heading ``key`` (level ``level``) at ``key_line`` and ``node``'s blocks under it."""
        kind = key_kind(key) if kind is None else kind
        self.b.heading(level, heading_text(key), key_line)
        self.value(node, level, kind)

    def value(self, node: Node, level: int, kind: str, depth: int = 1, parent: int = -1) -> None:
        """Blocks of ``node`` under the current heading (``level`` is that
        heading's level; sub-sections get ``level + 1``)."""
        if node.kind == "text":
            self.text(node, level, kind, depth, parent)
        elif node.kind == "list":
            self.list(node, level, kind, depth, parent)
        else:
            self.mapping(node, level, kind, depth, parent)

    def text(self, node: Node, level: int, kind: str, depth: int, parent: int) -> None:
        """A string: one item per non-empty line for list-like kinds (or when
        most lines are bulleted; steps hard-wrapped into blank-line separated
        paragraphs: one step per paragraph), else paragraphs split at blank
        lines."""
        lines = [(ln, t.rstrip()) for ln, t in node.lines]
        nonblank = [(ln, t) for ln, t in lines if t.strip()]
        if not nonblank:
            return
        marked = [bool(_MARK.match(t)) for _, t in nonblank]
        listy = kind in ("ingredients", "steps") or (len(nonblank) > 1 and sum(marked) * 2 >= len(nonblank))
        if not listy:
            para: list[tuple[int, str]] = []
            for ln, t in lines + [(0, "")]:
                if t.strip():
                    para.append((ln, t.strip()))
                elif para:
                    self.b.paragraph("\n".join(x for _, x in para), para[0][0], para[-1][0], parent)
                    para = []
            return
        groups: list[list[tuple[int, str]]] = [[]]
        for ln, t in lines:
            if t.strip():
                groups[-1].append((ln, t.strip()))
            elif groups[-1]:
                groups.append([])
        groups = [g for g in groups if g]
        if kind == "steps" and not any(marked) and any(len(g) > 1 for g in groups):
            # hard-wrapped steps separated by blank lines: one step per paragraph
            for n, g in enumerate(groups, 1):
                self.b.item("\n".join(t for _, t in g), g[0][0], g[-1][0], depth=depth, ordered=True, order=n,
                            parent=parent)
            return
        mostly_marked = sum(marked) * 2 >= len(nonblank) and sum(marked) >= 2
        ordered = kind == "steps"
        order = 0
        last = -1
        for i, (ln, t) in enumerate(nonblank):
            nxt_marked = i + 1 < len(nonblank) and marked[i + 1]
            lab = _label(t)
            if not lab and mostly_marked and not marked[i] and nxt_marked and len(t.split()) <= 6 \
                    and not _SENTENCE_END.search(t):
                lab = t.strip()  # "First Marination" above its bulleted lines
            if lab and (i + 1 < len(nonblank)):
                self.b.heading(level + 1, lab, ln)
                order, last = 0, -1
                continue
            if mostly_marked and not marked[i] and last >= 0 and not lab:
                blk = self.b.blocks[last]  # a wrapped line continues the item above
                blk.text = f"{blk.text}\n{t.strip()}"
                blk.end_line = max(blk.end_line, ln)
                continue
            order += 1
            txt = _MARK.sub("", t).strip()
            last = self.b.item(txt, ln, ln, depth=depth, ordered=ordered or bool(_ORDERED_MARK.match(t)),
                               order=order, parent=parent)

    def list(self, node: Node, level: int, kind: str, depth: int, parent: int) -> None:
        """A list: one item per text element (a ``Label:`` element becomes a
        sub-heading), one composed item per mapping element (see
        :func:`record_item`), nested lists as nested items; a one-key mapping
        holding a list (``- Filling: […]``) or a mapping with a title and
        lists is a sub-section."""
        order = 0
        last = parent
        for el in node.items:
            if el.kind == "text":
                if not el.text:
                    continue
                lab = _label(el.text) if "\n" not in el.text else ""
                if lab:
                    self.b.heading(level + 1, lab, el.line)
                    order, last = 0, parent
                    continue
                order += 1
                txt = _MARK.sub("", el.text).strip() if "\n" not in el.text else el.text.strip()
                end = max((ln for ln, t in el.lines if t.strip()), default=el.line)
                last = self.b.item(txt, el.line, end, depth=depth, ordered=kind == "steps", order=order,
                                   parent=parent)
            elif el.kind == "list":
                self.list(el, level, kind, depth + 1, last)
            else:
                nested = [(k, ln, v) for k, ln, v in el.pairs if v.kind != "text"]
                if len(el.pairs) == 1 and nested:
                    k, ln, v = nested[0]
                    self.b.heading(level + 1, heading_text(k), ln)
                    self.value(v, level + 1, kind if key_kind(k) in ("", "meta") else key_kind(k), depth, -1)
                    order, last = 0, parent
                    continue
                if nested:
                    title = next((v.text for k, _, v in el.pairs if v.kind == "text" and key_kind(k) == "title"), "")
                    if title:
                        self.b.heading(level + 1, title, el.line)
                        for k, ln, v in el.pairs:
                            if v.kind != "text":
                                self.section(k, ln, v, level + 2)
                        order, last = 0, parent
                        continue
                text = record_item(el)
                if text:
                    order += 1
                    last = self.b.item(text, el.line, el.line, depth=depth, ordered=kind == "steps", order=order,
                                       parent=parent)

    def mapping(self, node: Node, level: int, kind: str, depth: int, parent: int) -> None:
        """A mapping: ``key: value`` items for scalar pairs, sub-sections for
        lists and mappings."""
        order = 0
        for k, ln, v in node.pairs:
            if v.kind == "text" and not v.multiline:
                if v.text:
                    order += 1
                    self.b.item(f"{k}: {v.text}", ln, ln, depth=depth, ordered=kind == "steps", order=order,
                                parent=parent)
                continue
            sub = key_kind(k)
            self.section(k, ln, v, level + 1, kind if sub in ("", "meta", "title") else sub)
            order = 0


def record_item(node: Node) -> str:
    """The text of one list element that is a mapping, e.g. an ingredient
    ``{quantity: 1, measure: cup, ingredient: flour}`` → ``"1 cup flour"``:
    amount and unit values first, then the name (an item, title or
    steps-like key), then notes in parentheses, by the column meanings of
    ``ingest/lexicon/columns.yaml``; a mapping with no name-like key gives
    ``"key: value; …"``."""
    from ..tables import classify_column, required_value  # the column meanings (a sibling package; imported late)

    amounts, names, notes, other = [], [], [], []
    for k, _, v in node.pairs:
        if v.kind != "text" or not v.text:
            continue
        t = re.sub(r"\s+", " ", v.text)
        col = classify_column(k)
        kk = key_kind(k)
        if col in ("amount", "unit"):
            amounts.append(t)
        elif col in ("item", "recipe") or kk in ("title", "ingredients", "steps") or k.lower() in ("text", "step"):
            names.append(t)
        elif col == "req":
            req = required_value(k, t)
            if req is False:
                notes.append("optional")  # "optional: true": the marker parse_item reads
            elif req is None:
                notes.append(t)
        elif col in ("notes", "cond"):
            notes.append(t)
        elif kk not in ("meta", "url"):
            other.append(f"{k}: {t}")
    if not names:
        return "; ".join(other + [f"{a}" for a in amounts] + notes)
    # "1 cup flour", but "黄油 1 tbsp": a Chinese item reads name first, then its amount
    text = " ".join(names[:1] + amounts) if has_cjk(names[0]) else " ".join(amounts + names[:1])
    if notes:
        text += f" ({'; '.join(notes)})"
    return text
