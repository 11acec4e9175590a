"""Sections from structured data: YAML/TOML front matter and recipe records.

Front matter and JSON records hold a document's content in keys rather than
in headings: ``ingredients:`` as a YAML list or a ``|-`` block of lines,
``instructions`` as a JSON array. This module turns such a value tree into the
same :class:`~..document.Block` list the prose readers produce, with the
**real source line** of every entry, so the extractors see an ingredients
section and an ordered steps section as if the author had written headings:

* the value trees come from kept parsers: PyYAML's ``compose()`` (node marks
  give lines, :func:`yaml_tree`), the stdlib ``tomllib`` plus a line map
  (:func:`toml_tree`), and the JSON reader's own line map (:mod:`.json`);
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
import tomllib
from dataclasses import dataclass, field

import yaml

from ..cues import lexicon
from ..document import Block
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


# --------------------------------------------------------------------------- line maps
def locate(raw: list[str], text: str, start: int) -> int:
    """0-based index of the first line of ``raw`` at or after ``start`` whose
    stripped text begins with the start of ``text`` (its first 16 characters,
    quotes and escapes aside); ``start`` when none does (text written with
    escapes)."""
    probe = text.strip()[:16]
    if not probe:
        return start
    for i in range(max(0, start), len(raw)):
        if raw[i].strip().lstrip("-*•\"'[{ ").startswith(probe) or probe in raw[i]:
            return i
    return start


def value_lines(raw: list[str], text: str, start: int) -> list[tuple[int, str]]:
    """Each line of the string value ``text`` with the 0-based index in ``raw``
    of the source line it starts on, searching forward from ``start`` (see
    :func:`locate`); blank value lines take the current position."""
    out: list[tuple[int, str]] = []
    cur = start
    for part in text.split("\n"):
        if part.strip():
            cur = locate(raw, part, cur)
            out.append((cur, part))
            cur += 1
        else:
            out.append((cur, part))
    return out


# --------------------------------------------------------------------------- YAML
class StructureError(Exception):
    """Front matter that does not parse: ``line`` (1-based, in the file) and ``reason``."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


def yaml_tree(content: str, first_line: int) -> Node | None:
    """The value tree of YAML ``content`` whose first line is file line
    ``first_line`` (1-based), from PyYAML's ``compose()`` with the safe
    loader: node start marks give every value's line. Returns ``None`` for an
    empty document. Raises :class:`StructureError` (with the file line of the
    problem) for YAML that does not parse."""
    try:
        root = yaml.compose(content, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = first_line + (mark.line if mark is not None else 0)
        problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
        raise StructureError(line, f"front matter is not valid YAML: {problem}") from None
    if root is None:
        return None
    raw = content.split("\n")
    off = first_line - 1

    def conv(node, depth: int = 0) -> Node:
        if depth > 50:
            return Node("text", off + node.start_mark.line + 1)
        line0 = node.start_mark.line
        if isinstance(node, yaml.ScalarNode):
            text = "" if node.tag.endswith(":null") else str(node.value)
            start = line0 + 1 if node.style in ("|", ">") else line0
            lines = [(off + i + 1, t) for i, t in value_lines(raw, text, start)]
            first = next((ln for ln, t in lines if t.strip()), off + line0 + 1)
            return Node("text", first, text.strip(), lines, block=node.style in ("|", ">"))
        if isinstance(node, yaml.SequenceNode):
            return Node("list", off + line0 + 1, items=[conv(x, depth + 1) for x in node.value])
        pairs = []
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                pairs.append((str(k.value), off + k.start_mark.line + 1, conv(v, depth + 1)))
        return Node("map", off + line0 + 1, pairs=pairs)

    return conv(root)


# --------------------------------------------------------------------------- TOML
def toml_tree(content: str, first_line: int) -> Node:
    """The value tree of TOML ``content`` (first line = file line
    ``first_line``), parsed by the stdlib ``tomllib``; lines come from a line
    map: each key is found at its ``key =`` or ``[table]`` line, each string
    at the first following line that holds it. Raises :class:`StructureError`
    for TOML that does not parse."""
    try:
        data = tomllib.loads(content)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = first_line + (int(m.group(1)) - 1 if m else 0)
        raise StructureError(line, f"front matter is not valid TOML: {str(exc).split(' (at')[0]}") from None
    raw = content.split("\n")
    off = first_line - 1
    cur = [0]

    def key_line(key: str) -> int:
        rx = re.compile(r"^\s*(?:\[\[?\s*)?(?:[\w.\-\"' ]*\.)?[\"']?%s[\"']?\s*(?:=|\]\]?)" % re.escape(key))
        for i in range(cur[0], len(raw)):
            if rx.match(raw[i]):
                cur[0] = i
                return i
        return cur[0]

    def conv(v, at: int) -> Node:
        if isinstance(v, dict):
            pairs = []
            for k, x in v.items():
                kl = key_line(str(k))
                pairs.append((str(k), off + kl + 1, conv(x, kl)))
            return Node("map", off + at + 1, pairs=pairs)
        if isinstance(v, list):
            items = []
            for x in v:
                if isinstance(x, dict):
                    at2 = key_line(next(iter(x), "")) if x else cur[0]
                    items.append(conv(x, at2))
                else:
                    items.append(conv(x, cur[0]))
            return Node("list", off + at + 1, items=items)
        text = "" if v is None else (("true" if v else "false") if isinstance(v, bool) else str(v))
        lines = [(off + i + 1, t) for i, t in value_lines(raw, text, at)]
        nonblank = [i for (i, t) in value_lines(raw, text, at) if t.strip()]
        if nonblank:
            cur[0] = max(cur[0], nonblank[-1])
        first = next((ln for ln, t in lines if t.strip()), off + at + 1)
        return Node("text", first, text.strip(), lines)

    return conv(data, 0)


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
    from ..tables import classify_column  # the column meanings (a sibling package; imported late)

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
        elif col in ("notes", "cond", "req"):
            notes.append(t)
        elif kk not in ("meta", "url"):
            other.append(f"{k}: {t}")
    if not names:
        return "; ".join(other + [f"{a}" for a in amounts] + notes)
    text = " ".join(amounts + names[:1])
    if notes:
        text += f" ({'; '.join(notes)})"
    return text


# --------------------------------------------------------------------------- front matter
@dataclass(slots=True)
class FrontMatter:
    """A document's front matter, read: ``fields`` its metadata as
    ``key: text`` pairs (keys lower-cased; short scalars, and lists under
    metadata keys joined by ``", "``; ``fields["title"]`` the title,
    ``fields["url"]`` the document's address when a url/permalink/source key
    holds one), ``blocks`` the sections its lists, multi-line strings and
    mappings became (1-based file lines), ``line``/``end_line`` the lines of
    its opening and closing fences, ``syntax`` ``"yaml"`` or ``"toml"`` and
    ``errors`` ``(line, reason)`` when it did not parse (then ``fields`` hold
    its simple ``key: value`` lines and there are no blocks)."""

    fields: dict[str, str]
    line: int
    end_line: int
    blocks: list[Block] = field(default_factory=list)
    syntax: str = "yaml"
    errors: list[tuple[int, str]] = field(default_factory=list)


def _flat(node: Node) -> str:
    if node.kind == "text":
        return node.text
    if node.kind == "list":
        return ", ".join(x for x in (_flat(i) for i in node.items) if x)
    return ", ".join(f"{k}: {_flat(v)}" for k, _, v in node.pairs if _flat(v))


def _simple_pairs(content: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for ln in content.split("\n"):
        m = re.match(r"^([A-Za-z_][\w-]*)\s*[:=]\s*(.*)$", ln)
        if m:
            fields[m.group(1).lower()] = m.group(2).strip().strip("'\"")
    return fields


def read_front_matter(content: str, line: int, end_line: int, syntax: str = "yaml") -> FrontMatter:
    """Read front matter ``content`` (the text between the fences; its first
    line is file line ``line + 1``) as YAML or TOML (``syntax``).

    Top-level keys: a title key gives ``fields["title"]``; a url key holding
    an address gives ``fields["url"]``; single-line scalars (unless written
    as a ``|``/``>`` block or under a notes key: notes, tips, variations,
    FAQ…) and lists under metadata keys (tags, categories, date…) stay
    ``fields``; every other list, string or mapping becomes a section (see
    :class:`SectionWriter`) with its real lines. Front matter that does not
    parse, or is not a mapping, keeps its simple ``key: value`` lines as
    fields and reports ``errors``; never raises."""
    fm = FrontMatter({}, line, end_line, syntax=syntax)
    try:
        tree = toml_tree(content, line + 1) if syntax == "toml" else yaml_tree(content, line + 1)
    except StructureError as err:
        fm.fields = _simple_pairs(content)
        fm.errors.append((err.line, err.reason))
        return fm
    except RecursionError:
        fm.fields = _simple_pairs(content)
        fm.errors.append((line, "front matter nested too deeply"))
        return fm
    if tree is None:
        return fm
    if tree.kind != "map":
        fm.fields = _simple_pairs(content)
        return fm
    b = BlockBuilder()
    w = SectionWriter(b)
    for key, kline, node in tree.pairs:
        kk = key_kind(key)
        name = key.strip().lower()
        if node.kind == "text" and not node.multiline and not (node.text and (node.block or kk == "notes")):
            if kk == "url" and is_url(node.text) and "url" not in fm.fields:
                fm.fields["url"] = node.text
            fm.fields[name] = node.text
            continue
        if kk in ("meta", "title", "url") and (node.kind == "text" or all(i.kind == "text" for i in node.items)):
            fm.fields[name] = " ".join(node.text.split()) if node.kind == "text" else _flat(node)
            continue
        w.section(key, kline, node, 2)
    fm.blocks = b.blocks
    return fm


_TOML_FENCE = re.compile(r"^\+\+\+[ \t]*$")


def split_toml_front_matter(text: str) -> tuple[FrontMatter | None, str]:
    """TOML front matter (``+++`` on the first line … ``+++``), read with
    :func:`read_front_matter`, and ``text`` with those lines blanked (so
    line numbers of the rest stay right); ``(None, text)`` when there is none."""
    lines = text.split("\n")
    if not lines or not _TOML_FENCE.match(lines[0]):
        return None, text
    end = next((i for i in range(1, len(lines)) if _TOML_FENCE.match(lines[i])), -1)
    if end < 0:
        return None, text
    fm = read_front_matter("\n".join(lines[1:end]), 1, end + 1, "toml")
    return fm, "\n".join([""] * (end + 1) + lines[end + 1:])
