"""Tolerant parsing of a model's raw output (:func:`parse_output`): used when
the output does not validate as :class:`~.schema.SectionFacts`."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from .schema import _CONF_WORDS, ExtractedFact, SectionFacts, _clean_item, normalize_relation

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.S)
_NONE_ANSWER = re.compile(r"^\W*(?:none|no facts?|no relations?|nothing|n/a|无|没有|无关系)\W*$", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d+[.)、])\s+")


def _json_candidates(text: str) -> list[Any]:
    """Decoded JSON values found in ``text``: fenced blocks first, then the
    whole text, then every object/array starting at a ``{`` or ``[`` (the
    first complete value there)."""
    out: list[Any] = []
    dec = json.JSONDecoder()
    pieces = [m.group(2) for m in _FENCE.finditer(text)] + [text]
    for piece in pieces:
        s = piece.strip()
        try:
            out.append(json.loads(s))
            continue
        except ValueError:
            pass
        for m in re.finditer(r"[\[{]", s):
            try:
                val, _ = dec.raw_decode(s, m.start())
            except ValueError:
                continue
            if isinstance(val, (dict, list)):
                out.append(val)
    return out


def _pipe_facts(text: str) -> list[ExtractedFact]:
    """``subject | relation | object [| condition or amount [| confidence]]``
    lines (bullets, numbering, backticks and Markdown-table pipes allowed);
    header, separator and unknown-relation lines are skipped."""
    facts = []
    for raw in text.splitlines():
        line = _BULLET.sub("", raw.strip().strip("`")).strip()
        if line.count("|") < 2:
            continue
        cells = [c.strip().strip("*`\"'") for c in line.strip("|").split("|")]
        if len(cells) < 3 or not cells[0] or not cells[2]:
            continue
        item: dict[str, Any] = {"subject": cells[0], "relation": cells[1], "object": cells[2]}
        extra = [c for c in cells[3:] if c]
        if extra and _confidence_like(extra[-1]):
            item["confidence"] = extra.pop()
        if extra:
            item["amount" if (normalize_relation(cells[1]) or ("",))[0] == "contains" else "condition"] = extra[0]
        clean = _clean_item(item)
        if clean is None:
            continue
        if clean["relation"] == "contains" and re.search(r"optional|可选|to taste|适量", clean.get("amount", ""), re.I):
            clean["required"] = False
        try:
            facts.append(ExtractedFact.model_validate(clean))
        except ValidationError:
            continue
    return facts


def _confidence_like(s: str) -> bool:
    return bool(re.fullmatch(r"(?:0?\.\d+|1(?:\.0+)?|0|\d{1,3}%)", s.strip())) or s.strip().lower() in _CONF_WORDS


def parse_output(text: str | None) -> list[ExtractedFact] | None:
    """The facts in a model's raw output, or ``None`` when nothing can be parsed.

    Tries, in order: JSON (fenced blocks, the whole text, the first complete
    object or array inside prose) validated as :class:`SectionFacts`; then
    ``A | relation | B`` lines; then an explicit "none" answer (``[]``).
    Never raises."""
    if not text or not text.strip():
        return None
    for val in _json_candidates(text):
        try:
            return SectionFacts.model_validate(val).facts
        except ValidationError:
            continue
    facts = _pipe_facts(text)
    if facts:
        return facts
    if _NONE_ANSWER.match(text.strip()):
        return []
    return None
