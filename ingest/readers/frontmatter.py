"""Front matter: YAML (``---``) and TOML (``+++``) headers of a text document.

:func:`read_front_matter` parses the header with a kept parser (PyYAML's
``compose()``: node marks give lines, :func:`yaml_tree`; the stdlib
``tomllib`` plus a line map, :func:`toml_tree`) into a
:class:`~.structured.Node` tree with the **real source line** of every value;
scalar keys become metadata fields and lists, multi-line strings and mappings
become sections through :class:`~.structured.SectionWriter`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field

import yaml

from ..document import Block
from .builder import BlockBuilder
from .structured import Node, SectionWriter, is_url, key_kind


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


_META_LINE = re.compile(r"^(?P<k>[A-Za-z][A-Za-z0-9_-]{0,29}(?: [A-Za-z0-9_-]{1,20})?)[ \t]*:[ \t]*(?P<v>.*)$")


def split_metadata_block(text: str) -> tuple[FrontMatter | None, str]:
    """A Pelican / MultiMarkdown metadata block: ``Key: value`` lines from the
    first line of the file up to the first blank line (continuation lines
    indented), one of whose keys is a title key (``record_keys`` of
    columns.yaml) and all of whose keys are metadata, title or address keys
    ("Title: …", "Date: …", "Category: …", "Tags: …", "Slug: …"). Read like
    front matter (:func:`read_front_matter`, fields only) and blanked from
    ``text`` so the other lines keep their numbers; ``(None, text)`` when the
    file does not start with such a block."""
    lines = text.split("\n")
    keys: list[str] = []
    end = 0
    for i, ln in enumerate(lines):
        if not ln.strip():
            break
        m = _META_LINE.match(ln)
        if m:
            keys.append(m.group("k"))
        elif not (keys and ln[:1] in " \t"):
            return None, text
        end = i + 1
    if len(keys) < 2 or not any(key_kind(k) == "title" for k in keys):
        return None, text
    if any(key_kind(k) not in ("title", "meta", "url") for k in keys):
        return None, text
    fields = {}
    for k, v in _simple_pairs("\n".join(lines[:end])).items():
        fields[k] = v
    fm = FrontMatter(fields, 1, end, syntax="metadata")
    return fm, "\n".join([""] * end + lines[end:])
