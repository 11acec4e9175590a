"""JSON (``.json``) and JSON Lines (``.jsonl``/``.ndjson``) readers on the
stdlib :mod:`json` module.

Arrays of objects become :class:`~.tabular.TableData` (one record per
object, with its 1-based line); other string and number leaves become
paragraph blocks prefixed by their key path. A ``.json`` file holding JSON
Lines, or a ``.jsonl`` file holding one (pretty-printed) JSON document, is
read by content.

**Recipe records.** An object with a title-like key (a text) and an
ingredients-like key (a list of strings or of objects such as ``{quantity,
measure, ingredient}``, or a multi-line string) — key meanings from
``record_keys`` of ``ingest/lexicon/columns.yaml`` — is a document of its
own, not a table row (:func:`is_recipe_record`): it becomes a heading (its
title), paragraphs for its other texts and one section per list
(ingredients, instructions, notes…) with list items at each element's line
(see :mod:`.structured`), and a ``part`` of the reading, so the pipeline
extracts each record as one recipe.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..document import Block, DocumentError, Part, Record
from .base import Reader, Reading, register
from .builder import BlockBuilder
from .structured import Node, SectionWriter, is_url, key_kind
from .tabular import TableData, TableError, table_blocks

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


def json_node(v, path: tuple, lines: dict[tuple, int]) -> Node:
    """The :class:`~.structured.Node` of JSON value ``v`` at key ``path``
    (``lines`` maps every key path to its 1-based line, see
    :func:`_value_lines`); a string's lines all map to its own line."""
    line = lines.get(path, 1)
    if isinstance(v, dict):
        return Node("map", line, pairs=[(str(k), lines.get(path + (k,), line), json_node(x, path + (k,), lines))
                                        for k, x in v.items()])
    if isinstance(v, list):
        return Node("list", line, items=[json_node(x, path + (k,), lines) for k, x in enumerate(v)])
    text = "" if v is None else _scalar(v)
    return Node("text", line, text.strip(), [(line, t) for t in text.split("\n")])


def is_recipe_record(obj) -> bool:
    """True for an object that is a recipe of its own: a title-like key
    holding a text and an ingredients-like key holding a non-empty list or a
    multi-line string (key meanings: :func:`~.structured.key_kind`)."""
    if not isinstance(obj, dict):
        return False
    title = any(key_kind(str(k)) == "title" and isinstance(v, str) and v.strip() for k, v in obj.items())
    ings = any(key_kind(str(k)) == "ingredients" and ((isinstance(v, list) and v) or (isinstance(v, str) and "\n" in v.strip()))
               for k, v in obj.items())
    return title and ings


def record_blocks(b: BlockBuilder, node: Node, level: int) -> dict[str, str]:
    """Write one recipe record (a map node) into ``b``: a heading of
    ``level`` with its title, a paragraph ``key: text`` for each other text
    (metadata keys, addresses and ``_``-prefixed keys left out), one section
    of ``level + 1`` per list or mapping. Returns the record's metadata
    (``title``, ``url`` when it has one)."""
    meta: dict[str, str] = {}
    title_line = node.line
    for k, ln, v in node.pairs:
        if v.kind == "text" and key_kind(k) == "title" and v.text and "title" not in meta:
            meta["title"], title_line = " ".join(v.text.split()), ln
    b.heading(level, meta.get("title", ""), title_line)
    w = SectionWriter(b)
    for k, ln, v in node.pairs:
        kk = key_kind(k)
        if k.startswith("_"):
            continue
        if v.kind == "text":
            if not v.text or (kk == "title" and " ".join(v.text.split()) == meta.get("title")):
                continue
            if is_url(v.text):
                if kk == "url" and "url" not in meta:
                    meta["url"] = v.text
                continue
            if kk in ("meta", "url", "title"):
                continue
            if kk in ("ingredients", "steps"):
                w.section(k, ln, v, level + 1, kk)
            else:
                b.paragraph(f"{k}: {v.text}", ln, max(ln, v.lines[-1][0] if v.lines else ln))
            continue
        if kk == "meta":
            continue
        w.section(k, ln, v, level + 1)
    return meta


def read_json(text: str) -> tuple[list[TableData], list[tuple[str, str, int]], list[tuple[tuple, Node]]]:
    """Read a JSON document.

    Returns ``(tables, leaves, records)``: every array of objects (the top
    value, or a value under a key path) becomes a :class:`TableData` whose
    records carry the 1-based line of each object (``section`` = the key
    path), except recipe records (:func:`is_recipe_record`), which are
    returned as ``(key path, node)`` with every value's line; string (and
    number) leaves outside those are returned as ``(key path, text, line)``.
    Raises :class:`json.JSONDecodeError` (with ``lineno``) for invalid JSON."""
    value = json.loads(text)
    nl = [m.start() for m in re.finditer("\n", text)]
    lines: dict[tuple, int] = {}
    _value_lines(text, 0, (), lines, nl)
    tables: list[TableData] = []
    leaves: list[tuple[str, str, int]] = []
    records: list[tuple[tuple, Node]] = []

    def name(path: tuple) -> str:
        out = ""
        for p in path:
            out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
        return out

    def walk(v, path: tuple) -> None:
        if is_recipe_record(v):
            records.append((path, json_node(v, path, lines)))
        elif _is_records(v):
            objs = [(x, lines.get(path + (k,), 1)) for k, x in enumerate(v)
                    if isinstance(x, dict) and not is_recipe_record(x)]
            if objs:
                tables.append(_json_records(objs, name(path)))
            for k, x in enumerate(v):
                if not isinstance(x, dict) or is_recipe_record(x):
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
    return tables, leaves, records


def read_jsonl(text: str) -> tuple[TableData, list[tuple[tuple, Node]]]:
    """Read JSON Lines: one JSON value per non-blank line. Objects become
    records (with their line), recipe records (:func:`is_recipe_record`)
    ``(key path, node)`` pairs instead; a line that is not valid JSON or not
    an object is recorded in the table's ``errors`` and skipped. Raises
    :class:`TableError` when no line yields an object."""
    objs: list[tuple[dict, int]] = []
    recipes: list[tuple[tuple, Node]] = []
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
        if is_recipe_record(v):
            recipes.append(((no - 1,), json_node(v, (), {(): no})))
        elif isinstance(v, dict):
            objs.append((v, no))
        else:
            errors.append((no, "JSON Lines value is not an object"))
    if not objs and not recipes:
        if errors:
            raise TableError(errors[0][0], errors[0][1] + " (no line parsed)")
        raise TableError(0, "no JSON objects")
    data = _json_records(objs)
    data.errors = errors
    return data, recipes


def _reading(fmt: str, tables: list[TableData], leaves: list[tuple[str, str, int]],
             records: list[tuple[tuple, Node]], meta: dict[str, str], errors: list[tuple[int, str]]) -> Reading:
    """A :class:`Reading` of recipe records (one :class:`~..document.Part`
    each; a record that is the whole document is its title, level 1) followed
    by the row and leaf blocks of ``tables`` and ``leaves``."""
    b = BlockBuilder()
    parts: list[Part] = []
    for path, node in records:
        start = len(b.blocks)
        rmeta = record_blocks(b, node, 1 if path == () else 2)
        parts.append(Part(start, len(b.blocks), rmeta.get("title", ""), node.line, rmeta.get("url", "")))
    blocks: list[Block] = b.blocks + table_blocks([t for t in tables if t.records], leaves)
    if b.h1 and "title" not in meta:
        meta = {**meta, "title": b.h1}
    if parts and parts[0].url and len(parts) == 1:
        meta = {**meta, "url": parts[0].url}
    return Reading(blocks, fmt, b.h1, meta, tables=[t for t in tables if t.records], row_errors=errors, parts=parts)


def _as_json(path: Path, text: str) -> Reading:
    try:
        tables, leaves, records = read_json(text)
    except json.JSONDecodeError as exc:
        raise DocumentError(path, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise DocumentError(path, 0, "JSON nested too deeply") from None
    title = next((t for k, t, _ in leaves if k.lower() in ("title", "name")), "")
    if not any(t.records for t in tables) and not leaves and not records:
        raise DocumentError(path, 1, "JSON holds no text")
    return _reading("json", tables, leaves, records, {"title": title} if title else {}, [])


def _as_jsonl(path: Path, text: str) -> Reading:
    try:
        data, records = read_jsonl(text)
    except TableError as err:
        raise DocumentError(path, err.line, err.reason) from None
    return _reading("jsonl", [data], [], records, {}, list(data.errors))


def _several_objects(text: str) -> bool:
    return sum(1 for ln in text.split("\n") if ln.strip().startswith("{") and ln.strip().endswith("}")) >= 2


def read_document(path: Path, text: str) -> Reading:
    """The :class:`Reading` of a ``.json`` file (see :func:`read_json`); a
    file of several one-line objects that fails with "Extra data" is read as
    JSON Lines. Raises :class:`DocumentError` for invalid JSON (its line),
    nesting too deep, or no text."""
    try:
        return _as_json(path, text)
    except DocumentError as err:
        if _several_objects(text) and "Extra data" in err.reason:
            return _as_jsonl(path, text)
        raise


def read_lines(path: Path, text: str) -> Reading:
    """The :class:`Reading` of a JSON Lines file (see :func:`read_jsonl`);
    bad lines go to ``row_errors``. A file where no line parses but the
    whole is one JSON document is read as JSON; otherwise raises the JSON
    Lines :class:`DocumentError`."""
    try:
        return _as_jsonl(path, text)
    except DocumentError as err:
        try:
            return _as_json(path, text)  # one pretty-printed document in a .jsonl file
        except DocumentError:
            raise err from None


JSON_READER = register(Reader("json", (".json",), read_document))
JSONL_READER = register(Reader("jsonl", (".jsonl", ".ndjson"), read_lines))
