"""Kinds of a general ingredient (``knowledge/lexicon/kinds.yaml``): the names a recipe's list may
write instead of the general one (a list naming a kind of X does have X)."""

from __future__ import annotations

import functools

from .bilingual import equivalents
from .text import lexicon, name_key


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, frozenset[str]]:
    """name_key of a general name → name_keys of its kinds."""
    data = lexicon("kinds") or {}
    return {name_key(str(k)): frozenset(name_key(str(x)) for x in (v or [])) for k, v in (data.get("kinds") or {}).items()}


def kinds_of(name: str) -> frozenset[str]:
    """The :func:`~threadgraph.knowledge.text.name_key` of every kind of ``name`` (or of a
    cross-language equivalent of it, :func:`~threadgraph.knowledge.bilingual.equivalents`);
    an empty set when the table lists none. Never raises on an unknown name."""
    table = _table()
    out: set[str] = set()
    for n in [name] + equivalents(name, ("ingredient",)):
        out |= table.get(name_key(n), frozenset())
    out.discard(name_key(name))
    return frozenset(out)


def is_kind_of(candidate: str, name: str) -> bool:
    """``candidate`` (a recipe's list entry) names a kind of ``name`` (a kind the data file lists under ``name`` → True)."""
    return name_key(candidate) in kinds_of(name)
