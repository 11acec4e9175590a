"""Cross-language equivalents from ``knowledge/lexicon/bilingual.yaml``
("peanuts" ↔ 花生, "oven" ↔ 烤箱): the names of the group a name belongs to.

Used as a fallback where a thing named in one language must be found among
KB names in the other (constraints, pantry lists). Keys are
:func:`~threadgraph.knowledge.text.name_key` forms (plurals folded).
"""

from __future__ import annotations

import functools

from .text import lexicon, name_key

#: The sections of the lexicon and the entity types their names are.
SECTIONS = {"ingredients": ("ingredient",), "tools": ("tool",), "dishes": ("recipe",), "roles": ("role",)}


@functools.lru_cache(maxsize=1)
def _groups() -> dict[str, list[tuple[str, list[str]]]]:
    """name_key → [(section, names of its group)]."""
    out: dict[str, list[tuple[str, list[str]]]] = {}
    data = lexicon("bilingual") or {}
    for section in SECTIONS:
        for group in data.get(section) or []:
            names = [str(x) for x in group]
            for n in names:
                out.setdefault(name_key(n), []).append((section, names))
    return out


def equivalents(name: str, types: tuple[str, ...] | None = None) -> list[str]:
    """The other names of ``name``'s group(s) — of sections whose entity
    types meet ``types`` when given — in lexicon order; ``[]`` when the
    lexicon does not list ``name``."""
    out: list[str] = []
    for section, names in _groups().get(name_key(name), []):
        if types and not set(SECTIONS[section]) & set(types):
            continue
        out += [n for n in names if name_key(n) != name_key(name) and n not in out]
    return out
