"""The intent registry.

Every intent is one handler module here (``<name>.py``, an
:class:`~threadgraph.bot.intents.base.Intent` subclass decorated with
``@register``) with its data beside it (``<name>.yaml``: phrase patterns per
language with their ranks, cue words, the LLM's description). Importing the
module registers it: **the import lines below are the registry**, in the order
the LLM prompt lists the intents. Adding an intent is one new module (with its
YAML file) plus one line here.

Phrase patterns are tried by rank, the question's language first, then the
other language; the first that matches decides the intent. ``fallback``
intents (elliptical follow-ups) are tried only when none matched.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .base import REGISTRY, Context, Draft, Intent, register

from . import substitute  # noqa: E402,F401  (one line per intent)
from . import contains  # noqa: E402,F401
from . import used_in  # noqa: E402,F401
from . import shared  # noqa: E402,F401
from . import required  # noqa: E402,F401
from . import exclude  # noqa: E402,F401
from . import responsibility  # noqa: E402,F401
from . import stand_in  # noqa: E402,F401
from . import steps  # noqa: E402,F401
from . import general  # noqa: E402,F401
from . import follow  # noqa: E402,F401
from . import without  # noqa: E402,F401
from . import constraint  # noqa: E402,F401
from . import pantry  # noqa: E402,F401

__all__ = ["Context", "Draft", "Intent", "Rule", "register", "get", "handlers", "rules", "fallback_rules", "statement"]

LANGUAGES = ("zh", "en")


class Rule(NamedTuple):
    """One phrase pattern: its ``handler``, ``lang``, ``rank`` and compiled ``regex``."""

    handler: Intent
    lang: str
    rank: int
    regex: re.Pattern

    @property
    def id(self) -> str:
        """``intent/lang/rank``, e.g. ``"substitute/zh/20"``."""
        return f"{self.handler.name}/{self.lang}/{self.rank}"


def get(name: str) -> Intent:
    """The handler of intent ``name``. Raises ``KeyError`` for an unknown intent."""
    return REGISTRY[name]


def handlers() -> tuple[Intent, ...]:
    """Every registered handler, in registry order."""
    return tuple(REGISTRY.values())


def statement() -> Intent | None:
    """The handler that answers a message stating only thread constraints
    (the first with ``statement`` set), or ``None`` when none is registered."""
    return next((h for h in REGISTRY.values() if h.statement), None)


def _compiled(lang: str, fallback: bool) -> list[Rule]:
    ranked = [Rule(h, lang, rank, re.compile(pattern, re.I))
              for h in handlers() if h.fallback == fallback for rank, pattern in h.patterns(lang)]
    ranks = [r.rank for r in ranked]
    dup = sorted({r for r in ranks if ranks.count(r) > 1})
    if dup:
        raise ValueError(f"{lang} phrase patterns share rank(s) {dup}: every rank must be unique per language")
    return sorted(ranked, key=lambda r: r.rank)


@functools.lru_cache(maxsize=None)
def rules(lang: str) -> tuple[Rule, ...]:
    """The ordinary phrase patterns to try for a question in ``lang``: those of
    ``lang`` by rank, then those of the other language by rank (each pattern
    case-insensitive). Raises ``ValueError`` when two patterns of one language
    share a rank."""
    other = [x for x in LANGUAGES if x != lang]
    out = _compiled(lang, False)
    for o in other:
        out += _compiled(o, False)
    return tuple(out)


@functools.lru_cache(maxsize=None)
def fallback_rules(lang: str) -> tuple[Rule, ...]:
    """The patterns of ``fallback`` intents in ``lang`` only, by rank."""
    return tuple(_compiled(lang, True))
