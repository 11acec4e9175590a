"""Grounding of an LLM-written answer (:func:`grounding_problems`): every number,
every KB name and every item of an enumeration ("X、Y 或 Z", "X, Y or Z",
"用 X 代替") the answer names must occur in the question or in the facts and
passages it cites. The words that delimit enumerations are data
(``llm_grounding.yaml``). Used by :class:`~threadgraph.bot.llm_schema.LLMAnswer`
validation; every name is also importable from :mod:`threadgraph.bot.llm_schema`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import yaml

from ..knowledge.text import content_words, singular
from .answer import Fact

_GROUNDING = yaml.safe_load(Path(__file__).with_suffix(".yaml").read_text(encoding="utf-8"))
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,/]\d+)*")
_LIST_MARK = re.compile(r"(?m)^\s*(?:\d{1,3}[.)、]|[-*•])\s*")
_PROPER = re.compile(r"(?<=[a-z,;:(] )[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+")


def evidence_text(f: Fact) -> str:
    """The words a fact lets an answer use: its subject and object, its
    properties' values (amount, condition, recipe, text), "required"/"optional"
    when it says so, and its section."""
    props = f.properties or {}
    parts = [f.subject, f.object, f.source.section]
    parts += [str(v) for k, v in props.items() if k not in ("required", "symmetric", "hop", "order", "context") and v]
    if "required" in props:
        parts.append("required 必需" if props["required"] else "optional 可选")
    return " ".join(p for p in parts if p)


def _strip_lead(piece: str, words: list[str]) -> str:
    """The part of ``piece`` after the last lead word (the first item of an enumeration)."""
    best = -1
    low = piece.casefold()
    for w in words:
        if w.isascii() and w[:1].isalpha():
            for m in re.finditer(rf"\b{re.escape(w)}\b", low):
                best = max(best, m.end())
        else:
            i = low.rfind(w)
            if i >= 0:
                best = max(best, i + len(w))
    return piece[best:] if best >= 0 else piece


def _strip_tail(piece: str, words: list[str]) -> str:
    """``piece`` without a trailing tail word (the last item of an enumeration)."""
    low = piece.casefold().rstrip(" .")
    for w in sorted(words, key=len, reverse=True):
        if low.endswith(w) and (not w.isascii() or len(low) == len(w) or low[-len(w) - 1] == " "):
            return piece[: len(low) - len(w)]
    return piece


def enumerated_items(answer: str, lang: str) -> list[str]:
    """The items of the enumerations in ``answer`` ("X、Y 或 Z 代替" → X, Y, Z;
    "use X, Y or Z instead" → X, Y, Z) and the items of substitution frames
    ("用 X 代替", "use X instead")."""
    g = _GROUNDING
    lang = "zh" if lang == "zh" else "en"
    conj = sorted(g["conjunctions"][lang], key=len, reverse=True)
    out: list[str] = []
    text = _LIST_MARK.sub("\n", answer)
    if lang == "zh":
        clauses = re.split(r"[。！？；，,;!?\n（）()]", text)
        splitter = re.compile("、|/|" + "|".join(map(re.escape, conj)))
    else:
        clauses = re.split(r"[.;:!?\n()]\s|[;!?\n()]|\.$", text)
        splitter = re.compile(r",\s*(?:and |or )?|\s+(?:" + "|".join(map(re.escape, conj)) + r")\s+", re.I)
    joined = re.compile(r"\s(?:" + "|".join(map(re.escape, conj)) + r")\s", re.I)
    for clause in clauses:
        if lang == "en" and clause.count(",") < 2 and not joined.search(clause):
            continue  # "Yes, you can …": a comma between clauses, not a list
        pieces = [p.strip() for p in splitter.split(clause) if p and p.strip()]
        if len(pieces) < 2:
            continue
        pieces[0] = _strip_lead(pieces[0], g["item_lead"][lang]).strip()
        pieces[-1] = _strip_tail(pieces[-1], g["item_tail"][lang]).strip()
        out += [p for p in pieces if p]
    for pattern in g["frames"][lang]:
        out += [m.group("x").strip() for m in re.finditer(pattern, text, re.I)]
    return list(dict.fromkeys(out))


def _grounded_item(item: str, allowed: str, lang: str) -> bool:
    """An enumerated item is grounded when the evidence holds it, or (Chinese)
    at least half of its character bigrams, or (English) every content word
    that is not a free word (prefix match: "peanuts" ~ "peanut")."""
    low = item.casefold().strip(" '\"“”‘’")
    if not low or low in allowed:
        return True
    runs = _CJK_RUN.findall(low)
    if runs:
        grams = [r[i:i + 2] for r in runs for i in range(len(r) - 1)] or runs
        return sum(1 for x in grams if x in allowed) * 2 >= len(grams)
    free = set(_GROUNDING["free_words"])
    words = [w for w in content_words(low) if w not in free]
    if len(low.split()) > 4:
        return True  # a clause, not a name
    return all(re.search(rf"\b{re.escape(singular(w))}", allowed) for w in words)


def grounding_problems(answer: str, allowed: str, lang: str = "zh",
                       find_names: Callable[[str], list] | None = None) -> list[str]:
    """The numbers, KB names (``find_names(answer)`` lists those the answer
    mentions, each a name or a tuple of its spellings: surface, canonical
    name), enumerated items and capitalised English names in ``answer`` that
    ``allowed`` (the question and the cited evidence) does not contain."""
    allowed = allowed.casefold()
    bad: list[str] = []
    body = _LIST_MARK.sub(" ", answer)
    for n in _NUMBER.findall(body):
        if n not in allowed:
            bad.append(n)
    for name in (find_names(answer) if find_names else []):
        spellings = (name,) if isinstance(name, str) else tuple(name)
        if spellings and spellings[0] and not any(x.casefold() in allowed for x in spellings if x):
            bad.append(spellings[0])
    for item in enumerated_items(answer, lang):
        if not _grounded_item(item, allowed, lang):
            bad.append(item)
    for name in _PROPER.findall(answer):
        if name.casefold() not in allowed:
            bad.append(name)
    return list(dict.fromkeys(bad))

