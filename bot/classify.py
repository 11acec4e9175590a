"""Entity-first understanding: link every KB name in the question first, then
read the intent from the cue words of the rest of the sentence.

1. **Entities.** :meth:`~threadgraph.bot.linker.Linker.scan` finds every KB
   name and alias (normalized: plurals, traditional/simplified, width, case)
   as a longest match; what remains of the sentence is the *frame*, with each
   mention replaced by a placeholder of its type (``⟨R⟩`` a recipe or
   document, ``⟨I⟩`` an ingredient or tool, ``⟨P⟩`` a role, ``⟨E⟩`` anything
   else).
2. **Intent.** Each intent's data file (``bot/intents/<intent>.yaml``, key
   ``cues``) lists weighted cue patterns per language over the frame, where
   ``{R}``, ``{I}``, ``{P}``, ``{E}`` stand for one placeholder each, ``{S}``
   for a role or a system (``⟨P⟩``/``⟨E⟩``) and ``{X}`` for any. The intent
   with the highest total weight that reaches :data:`MIN_SCORE`, and whose
   entity needs the question (or a follow-up's memory) can meet, wins.
3. **Slots by type.** Recipes and documents fill the context slot,
   ingredients and tools the item slot, roles the role slot; an item right
   after a negation cue ("没有", "不要", "without", "out of", "no") is what
   the user lacks — the thing to replace for ``substitute``, the thing to
   exclude for ``exclude``.

The phrase patterns of :mod:`threadgraph.bot.understand` stay the first
reading; this reading takes over when no pattern matched, or when a
pattern's slots did not link while the entity-first reading finds a
confident intent.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from . import intents, words
from .linker import Linker, Mention
from .query import CTX_TYPES, ITEM_TYPES, Understanding

#: Total cue weight an intent needs to be chosen.
MIN_SCORE = 2.0

PLACEHOLDER = {"recipe": "⟨R⟩", "document": "⟨R⟩", "ingredient": "⟨I⟩", "tool": "⟨I⟩", "role": "⟨P⟩"}
_MACROS = {"{R}": "⟨R⟩", "{I}": "⟨I⟩", "{P}": "⟨P⟩", "{E}": "⟨E⟩", "{S}": "⟨[PE]⟩", "{X}": "⟨[RIPE]⟩"}


@dataclass
class Reading:
    """An entity-first reading: ``intent``, its cue ``score``, the
    ``mentions`` (linked, in text order), ``lacking`` (mentions right after
    a negation cue) and the ``frame`` the cues were matched on."""

    intent: str
    score: float
    mentions: list[Mention] = field(default_factory=list)
    lacking: list[Mention] = field(default_factory=list)
    frame: str = ""


@functools.lru_cache(maxsize=1)
def _cue_table() -> dict[str, dict[str, list[tuple[re.Pattern, float]]]]:
    """intent → language → [(compiled cue, weight)] from the intents' ``cues`` data."""
    out: dict[str, dict[str, list[tuple[re.Pattern, float]]]] = {}
    for name, h in intents.REGISTRY.items():
        for lang, items in (h.data.get("cues") or {}).items():
            for it in items:
                pat, w = (it, 1.0) if isinstance(it, str) else (it["re"], float(it.get("w", 1.0)))
                pat = pat.replace("\\b{", "{").replace("}\\b", "}")  # a placeholder is its own boundary
                for k, v in _MACROS.items():
                    pat = pat.replace(k, v)
                try:
                    rx = re.compile(pat, re.I)
                except re.error as exc:
                    raise re.error(f"cue of intent {name} ({lang}): {pat!r}: {exc}") from None
                out.setdefault(name, {}).setdefault(lang, []).append((rx, w))
    return out


def frame(body: str, mentions: list[Mention]) -> str:
    """``body`` with each mention replaced by the placeholder of its type."""
    out, last = [], 0
    for m in sorted((m for m in mentions if m.start >= 0), key=lambda m: m.start):
        if m.start < last:
            continue
        out.append(body[last:m.start])
        out.append(PLACEHOLDER.get(m.type, "⟨E⟩"))
        last = m.start + len(m.surface)
    out.append(body[last:])
    return "".join(out)


def _lacking(body: str, mentions: list[Mention]) -> list[Mention]:
    """Mentions right after a negation cue (the words of ``bot/lexicon`` key ``negation``)."""
    rx = words.negation_re()
    out = []
    for m in mentions:
        if m.type not in ITEM_TYPES and m.type != "role":
            continue
        before = body[max(0, m.start - 12):m.start]
        if rx.search(before):
            out.append(m)
    return out


def read(body: str, lang: str, linker: Linker, *, follow_up: bool = False) -> Reading | None:
    """The entity-first reading of ``body`` (the question without its final
    punctuation) in ``lang``; ``None`` when no intent's cues reach
    :data:`MIN_SCORE`. ``follow_up`` lets an intent win without the entities
    it needs (memory may supply them)."""
    mentions = [m for m in linker.scan(body) if m.type != "unknown"]
    fr = frame(body, mentions)
    unknown = _unknown_lacking(body, mentions)
    types = {m.type for m in mentions} | ({"ingredient"} if unknown else set())
    best: tuple[float, str] | None = None
    for name, by_lang in _cue_table().items():
        score = sum(w for rx, w in by_lang.get(lang, []) + by_lang.get("any", []) if rx.search(fr))
        if score < MIN_SCORE:
            continue
        h = intents.get(name)
        need = h.needs[:1]
        if need and not follow_up and not _can_fill(need[0], types):
            continue
        if best is None or score > best[0]:
            best = (score, name)
    if best is None:
        return None
    lacking = _lacking(body, mentions)
    return Reading(best[1], best[0], sorted(mentions + unknown, key=lambda m: m.start), lacking + unknown, fr)


_UNKNOWN_AFTER_NEG = {
    "en": re.compile(r"\b(?:no|without|out of|don't have|do not have|ran out of|run out of|missing|allergic to|"
                     r"can't find|cannot find)\s+(?:any |the |some )?(?P<x>[a-z][a-z' -]{1,30}?)"
                     r"(?=\s+(?:for|in|on|with|to|at|left|anymore|today)\b|\s*[,.;:?!，。？]|\s*$)", re.I),
    "zh": re.compile(r"(?:没有|没了|缺少|缺|买不到|找不到|不想用|不吃)(?P<x>[\u4e00-\u9fff]{1,6}?)"
                     r"(?=怎么|咋|用什么|拿什么|的话|可以|能|还|了|，|,|。|？|\?|$)"),
}


def _unknown_lacking(body: str, mentions: list[Mention]) -> list[Mention]:
    """A thing the user lacks that the KB does not know ("no garlic for …"):
    the phrase right after a negation cue that overlaps no linked name, as an
    ``unknown`` mention (so the answer can say the KB has nothing on it)."""
    out = []
    for rx in _UNKNOWN_AFTER_NEG.values():
        for m in rx.finditer(body):
            a, b = m.start("x"), m.end("x")
            if any(k.start < b and a < k.start + len(k.surface) for k in mentions):
                continue
            x = m.group("x").strip()
            if x and x.casefold() not in ("it", "that", "this", "them", "one", "any", "time"):
                out.append(Mention(x, x, "unknown", None, a, "unknown", score=0.0))
    return out


def score(intent: str, fr: str, lang: str) -> float:
    """The cue weight ``intent`` gets on the frame ``fr`` in ``lang``."""
    by_lang = _cue_table().get(intent, {})
    return sum(w for rx, w in by_lang.get(lang, []) + by_lang.get("any", []) if rx.search(fr))


def _can_fill(need: str, types: set[str]) -> bool:
    if need in CTX_TYPES:
        return bool(types & set(CTX_TYPES))
    if need in ITEM_TYPES:
        return bool(types & set(ITEM_TYPES))
    if need == "role":  # a system or tool can have a stand-in (a fallback) too
        return bool(types & {"role", "artifact", "tool", "concept"})
    return need in types


def apply(u: Understanding, r: Reading) -> None:
    """Fill ``u`` from the reading ``r``: intent, mentions by type, and what the
    user lacks — the item to replace for intents that fill an item, the
    excluded item otherwise."""
    h = intents.get(r.intent)
    u.intent, u.rule = r.intent, f"{r.intent}/cues/{r.score:g}"
    u.mentions, u.excluded = [], []
    lacking_ids = {id(m) for m in r.lacking}
    for m in r.mentions:
        if id(m) in lacking_ids and not h.fills_item and "ingredient" in h.needs:
            u.excluded.append(m)  # "dishes without X": X is excluded
        else:
            u.mentions.append(m)
    u.slot_texts = {}


def can_fill(need: str, types: set[str]) -> bool:
    """Whether linked entity ``types`` can fill an intent's main need ``need``
    (a system or tool counts for a role: it can have a stand-in)."""
    return _can_fill(need, types)


def reading_for(intent: str, score: float, body: str, mentions: list[Mention]) -> Reading:
    """A :class:`Reading` of ``body`` for an intent chosen elsewhere (the
    nearest exemplar, :mod:`threadgraph.bot.exemplars`): the linked
    ``mentions``, what the user lacks, and the frame."""
    unknown = _unknown_lacking(body, mentions)
    return Reading(intent, score, sorted(mentions + unknown, key=lambda m: m.start),
                   _lacking(body, mentions) + unknown, frame(body, mentions))
