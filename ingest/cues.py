"""Ingest's language and domain knowledge, loaded from data files.

The words and cue patterns the readers and extractors rely on (section
headings, the kitchen-tool lexicon, units and qualifiers, stand-in phrasings,
role cues, column meanings…) live in YAML files under ``ingest/lexicon/``
(shipped as package data). This module reads them; the code that uses them
says *how* a cue is applied, the data says *which* words and phrasings.

Conventions of the files: a list is a set of words or an alternation of
regular-expression fragments (joined with ``|``); a string is a word or a
regular expression in which ``{{name}}`` is replaced by the alternation (or
pattern) ``name`` of the same file.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml

LEXICON_DIR = Path(__file__).with_name("lexicon")
_SLOT = re.compile(r"\{\{(\w+)\}\}")


@functools.lru_cache(maxsize=None)
def lexicon(name: str) -> dict[str, Any]:
    """The parsed data file ``ingest/lexicon/<name>.yaml`` (cached). Raises
    ``FileNotFoundError`` when it does not exist."""
    return yaml.safe_load((LEXICON_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


def words(name: str, key: str) -> list[str]:
    """The list ``key`` of data file ``name`` (a string gives a one-item
    list). Raises ``KeyError`` for a missing key."""
    v = lexicon(name)[key]
    return [v] if isinstance(v, str) else list(v)


def alternation(name: str, key: str) -> str:
    """The entries of ``key`` joined with ``|`` (each entry a regex
    fragment), ``{{slots}}`` filled."""
    return fill(name, "|".join(words(name, key)))


def fill(file: str, text: str, **values: str) -> str:
    """``text`` with each ``{{slot}}`` replaced by ``values[slot]`` when given,
    else by the alternation of that key of data file ``file``."""
    return _SLOT.sub(lambda m: values[m.group(1)] if m.group(1) in values else alternation(file, m.group(1)), text)


def regex(name: str, key: str, flags: int = 0, **values: str) -> re.Pattern:
    """Compile entry ``key`` of data file ``name`` (a pattern string, or a
    list compiled as one alternation) with ``flags``; ``values`` fill
    ``{{slots}}`` that are not keys of the file (e.g. ``role``)."""
    v = lexicon(name)[key]
    text = v if isinstance(v, str) else "|".join(v)
    return re.compile(fill(name, text, **values), flags)
