"""Quantity questions about one recipe ("那要煮多久？", "how many calories per serving?"):
answered by the recipe's own sentences that state the asked kind of amount.

The kinds (a duration, calories, servings), how a question asks for each and how a line
states one are data: ``quantity_kinds`` of ``bot/lexicon/words.yaml``. Of the recipe's
sentences stating the asked kind, those that share the question's other words (the verb
of "煮多久", "simmer") come first; each is quoted with its document and line.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from ..knowledge import text as T
from . import words

#: Sentences an answer quotes at most.
SHOWN = 3
#: Longest quoted sentence (characters); a longer one is cut.
QUOTE_CHARS = 200


@dataclass(frozen=True, slots=True)
class QuantityLine:
    """A sentence stating an amount: its ``text``, ``doc``, 1-based ``line``, the chunk's
    ``passage_id`` and ``score`` (question words it shares)."""

    text: str
    doc: str
    line: int
    passage_id: str
    score: int


@functools.lru_cache(maxsize=None)
def _kinds() -> tuple[tuple[str, dict[str, re.Pattern], re.Pattern, dict[str, str]], ...]:
    out = []
    for k in words.lexicon().get("quantity_kinds") or []:
        asks = {lang: re.compile(p, re.I) for lang, p in (k.get("ask") or {}).items()}
        out.append((k["kind"], asks, re.compile(k["say"], re.I), dict(k.get("label") or {})))
    return tuple(out)


def asked_kind(question: str, lang: str) -> str:
    """The kind of amount ``question`` asks for (``"duration"``, ``"calories"``, ``"servings"``
    …, the first ``quantity_kinds`` entry whose ``ask`` pattern in ``lang`` matches), or ``""``."""
    for kind, asks, _say, _label in _kinds():
        rx = asks.get("zh" if lang == "zh" else "en")
        if rx is not None and rx.search(question):
            return kind
    return ""


@functools.lru_cache(maxsize=None)
def _item_kinds() -> frozenset[str]:
    return frozenset(str(k["kind"]) for k in words.lexicon().get("quantity_kinds") or [] if k.get("item"))


def of_item(kind: str) -> bool:
    """``kind`` is asked about one ingredient (``item: true`` in ``quantity_kinds``: an amount)."""
    return kind in _item_kinds()


def item_lines(kind: str, hits, names: list[str]) -> list[QuantityLine]:
    """The sentences (list entries) of ``hits`` (a recipe's chunks, in source order) that state
    ``kind`` and name one of ``names`` (the asked ingredient as asked and as the KB names it),
    in source order, at most :data:`SHOWN`, each once; ``[]`` when none does."""
    _k, _asks, say, _label = _kind(kind)
    keys = [n.casefold() for n in dict.fromkeys(names) if n and len(n) >= (1 if T.has_cjk(n) else 3)]
    out: list[QuantityLine] = []
    seen: set[str] = set()
    for h in hits:
        for i, raw in enumerate((h.text or "").splitlines()):
            line = re.sub(r"^\s*(?:[-*•>]\s*|\d{1,3}[.、)）]\s*)*", "", raw).strip()
            for a, b in T.sentence_spans(line) if line else ():
                sent = line[a:b].strip()
                low = sent.casefold()
                if not sent or sent in seen or not say.search(sent) or not any(k in low for k in keys):
                    continue
                seen.add(sent)
                out.append(QuantityLine(sent, h.doc, (h.line or 0) + i, h.id, 1))
    return out[:SHOWN]


def _kind(kind: str):
    return next(k for k in _kinds() if k[0] == kind)


def topic(question: str, lang: str, kind: str, names: list[str]) -> list[str]:
    """What ``question`` asks about besides the kind of amount and the ``names`` it mentions:
    Chinese characters (function and ``quantity_filler_zh`` characters dropped) or English
    content words."""
    _k, asks, _say, _label = _kind(kind)
    text = question
    for n in sorted((n for n in names if n), key=len, reverse=True):
        text = text.replace(n, " ")
    rx = asks.get("zh" if lang == "zh" else "en")
    if rx is not None:
        text = rx.sub(" ", text)
    if lang == "zh":
        skip = set(words.function_chars()) | set(words.lexicon().get("quantity_filler_zh", ""))
        return list(dict.fromkeys(ch for ch in text if T.is_cjk_char(ch) and ch not in skip))
    return list(dict.fromkeys(T.content_words(text)))


def quantity_lines(question: str, lang: str, hits, names: list[str]) -> tuple[str, list[QuantityLine]]:
    """The asked kind and the sentences of ``hits`` (a recipe's chunks with ``id``, ``doc``,
    ``text``, ``line``; in source order) that state it: those sharing words with the question
    first (by how many), then, when fewer than two do, the first other one; at most
    :data:`SHOWN`, each sentence once. ``("", [])`` when the question asks for no known kind."""
    kind = asked_kind(question, lang)
    if not kind or of_item(kind):
        return "", []
    _k, _asks, say, _label = _kind(kind)
    want = topic(question, lang, kind, names)
    found: list[QuantityLine] = []
    seen: set[str] = set()
    for h in hits:
        for i, raw in enumerate((h.text or "").splitlines()):
            line = re.sub(r"^\s*(?:[-*•>]\s*|\d{1,3}[.、)）]\s*)*", "", raw).strip()
            if not line:
                continue
            for a, b in T.sentence_spans(line):
                sent = line[a:b].strip()
                if not sent or sent in seen or not say.search(sent):
                    continue
                seen.add(sent)
                score = sum(1 for w in want if (w in sent if lang == "zh" else re.search(rf"\b{re.escape(w)}", sent, re.I)))
                found.append(QuantityLine(sent, h.doc, (h.line or 0) + i, h.id, score))
    ranked = sorted((x for x in found if x.score), key=lambda x: -x.score)
    if len(ranked) < 2:
        ranked += [x for x in found if not x.score][:1]
    return kind, ranked[:SHOWN]


def quantity_text(lang: str, ctx: str, kind: str, lines: list[QuantityLine], item: str = "") -> str:
    """The answer: the recipe's sentences stating the asked kind (of ``item`` when given), each
    quoted with where it stands."""
    label = _kind(kind)[3].get("zh" if lang == "zh" else "en", kind)
    out = []
    for x in lines:
        where = Path(x.doc).stem if x.doc else ""
        q = x.text if len(x.text) <= QUOTE_CHARS else x.text[:QUOTE_CHARS - 1] + "…"
        out.append(f"- “{q}”（{where} 第 {x.line} 行）" if lang == "zh" else f'- "{q}" ({where}, line {x.line})')
    if item:
        head = f"{ctx}里{item}的{label}：" if lang == "zh" else f"What {ctx} says about the {label} of {item}:"
    else:
        head = f"{ctx}原文里关于{label}的说法：" if lang == "zh" else f"What {ctx} says about {label}:"
    return head + "\n" + "\n".join(out)


#: Recipes a many-recipe answer quotes at most.
SHOWN_RECIPES = 4


#: How far before an amount (characters) the word it is the amount of may stand: Chinese, English.
NEAR_CHARS = (6, 24)


def _near(sent: str, at: int, words: list[str]) -> bool:
    """One of ``words`` ends within :data:`NEAR_CHARS` characters before position ``at`` of
    ``sent`` ("大火蒸 10 分钟", "steam for 10 minutes"), not merely somewhere in the sentence."""
    for w in words:
        span = NEAR_CHARS[1] if w.isascii() else NEAR_CHARS[0]
        if w.casefold() in sent[max(0, at - span - len(w)):at].casefold():
            return True
    return False


def kind_line(kind: str, hits, words: list[str]) -> QuantityLine | None:
    """The first sentence of ``hits`` (a recipe's chunks, in source order) that states an amount
    of ``kind`` just after one of ``words`` (any such sentence when ``words`` is empty); ``None``
    when there is none. An unknown ``kind`` raises ``StopIteration``."""
    _k, _asks, say, _label = _kind(kind)
    for h in hits:
        for i, raw in enumerate((h.text or "").splitlines()):
            line = re.sub(r"^\s*(?:[-*•>]\s*|\d{1,3}[.、)）]\s*)*", "", raw).strip()
            for a, b in T.sentence_spans(line) if line else ():
                sent = line[a:b].strip()
                if sent and any(not words or _near(sent, m.start(), words) for m in say.finditer(sent)):
                    return QuantityLine(sent, h.doc, (h.line or 0) + i, h.id, 1)
    return None


def many_text(lang: str, kind: str, foods: list[str], methods: list[str], lines: list[tuple[str, QuantityLine]]) -> str:
    """The answer over several recipes of a kind: ``lines`` are ``(recipe name, sentence)``
    pairs, each quoted with where it stands; ``foods`` and ``methods`` are the asked words
    (Chinese, as the recipe names and sentences were searched for them)."""
    label = _kind(kind)[3].get("zh" if lang == "zh" else "en", kind)
    out = []
    for name, x in lines:
        where = Path(x.doc).stem if x.doc else name
        q = x.text if len(x.text) <= QUOTE_CHARS else x.text[:QUOTE_CHARS - 1] + "…"
        out.append(f"- {name}：“{q}”（{where} 第 {x.line} 行）" if lang == "zh" else f'- {name}: "{q}" ({where}, line {x.line})')
    food, method = "、".join(foods), "、".join(methods)
    if lang == "zh":
        head = f"没有指定菜谱；名字里有“{food}”的菜谱" + (f"关于{method}的{label}" if method else f"关于{label}") + "："
    else:
        head = (f"No one recipe named; what the recipes with “{food}” in their name say about "
                + (f"the {label} to {method}:" if method else f"{label}:"))
    return head + "\n" + "\n".join(out)
