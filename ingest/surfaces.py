"""The stand-in side Y of a substitution, cleaned before normalization: fillers,
verbs and determiners around it and "other …" before a specific thing are data in
``lexicon/names.yaml`` (``stand_in_lead``, ``stand_in_same``, ``stand_in_tail``,
``stand_in_any``, ``generic``, ``category``)."""

from __future__ import annotations

import re

from ..knowledge.text import has_cjk, simplified
from .cues import alternation, regex, words
from .normalize import clean_name

_CATEGORY = regex("names", "category")
_GENERIC = frozenset(words("names", "generic"))
_STAND_IN_LEAD = re.compile(rf"^(?:{alternation('names', 'stand_in_lead')})\s*")
_STAND_IN_SAME = re.compile(rf"^(?:{alternation('names', 'stand_in_same')})\s*")
_STAND_IN_TAIL = re.compile(rf"\s*(?:{alternation('names', 'stand_in_tail')})\s*$")
_STAND_IN_ANY = re.compile(rf"^(?:{alternation('names', 'stand_in_any')})")


def substitute_surface(y: str, x: str = "") -> str:
    """Clean the stand-in side Y of a substitution before normalization.

    * a leading filler, verb or determiner (了/的/将/把/放/用/使用/加入/同一个…:
      "或者放花椒水" → 花椒水, "同一个平底锅" → 平底锅) and a trailing
      代替/替代/也行/也可以/即可 are stripped;
    * "其他/其它/别的/任何/任意/普通" is dropped when what follows names a specific
      thing ("可用其他食用油替代" → 食用油, which the alias table maps to 植物油;
      "普通盐" → 盐), but kept for a category ("其他肉类", "其他蔬菜" — "any
      other meat" is the meaning) and when the X it replaces (``x``) is itself
      a kind of what follows ("紅酒醋 [可用其他醋代替]" → 其他醋: another
      vinegar, not vinegar in general);
    * ``""`` (no edge) when Y names nothing specific (其他配料, 其他调料, 工具,
      可以去除夹心的工具…)."""
    y = _STAND_IN_LEAD.sub("", y.strip())
    y = _STAND_IN_SAME.sub("", y)  # "同一个平底锅" → 平底锅
    for _ in range(3):  # "猪骨也替代" → 猪骨: tails may stack
        y2 = _STAND_IN_TAIL.sub("", y)
        if y2 == y:
            break
        y = y2
    if has_cjk(y):
        rest = _STAND_IN_ANY.sub("", y).strip()
        if clean_name(rest, "ingredient") in _GENERIC or not rest:
            return ""
        kind_of_x = bool(x) and len(simplified(x.strip())) > len(simplified(rest)) and simplified(
            clean_name(x, "ingredient") or x.strip()).endswith(simplified(clean_name(rest, "ingredient") or rest))
        if rest != y and not kind_of_x and not _CATEGORY.search(clean_name(rest, "ingredient")):
            y = rest
    return y
