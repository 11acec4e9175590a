"""The thin layer the extractors share: what one document yields
(:class:`DocResult`) and small helpers over its blocks."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..knowledge.records import Entity, Triple
from .document import Block


@dataclass
class DocResult:
    """What one document yields: entities (not yet deduplicated), triples,
    and the recipe/document entity id (``root``)."""

    root: str = ""
    entities: list[Entity] = field(default_factory=list)
    triples: list[Triple] = field(default_factory=list)


def children(blocks: list[Block]) -> dict[int, list[int]]:
    """Block index → indices of the blocks whose ``parent`` it is (list
    items and paragraphs nested in a list item), in document order."""
    kids: dict[int, list[int]] = {}
    for i, b in enumerate(blocks):
        if b.parent >= 0:
            kids.setdefault(b.parent, []).append(i)
    return kids


def section_of(path: tuple[str, ...]) -> str:
    """A heading path as the provenance section text (``"A > B"``)."""
    return " > ".join(path)


def split_top(text: str, seps: str) -> list[str]:
    """Split ``text`` at any char of ``seps`` outside parentheses (（）()【】[]);
    returns the stripped, non-empty parts."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "（(【[":
            depth += 1
        elif ch in "）)】]":
            depth = max(0, depth - 1)
        if ch in seps and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p for p in (x.strip() for x in parts) if p]
