"""The bot's word lists, loaded from ``bot/lexicon/*.yaml`` (package data).

:func:`lexicon` returns one parsed file; the helpers below turn its lists into
the sets and regular expressions understanding uses. Intent-specific cues live
beside each intent (``bot/intents/<name>.yaml``) and are loaded by
:meth:`threadgraph.bot.intents.base.Intent.data`.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml
from rapidfuzz.distance import OSA

LEXICON_DIR = Path(__file__).with_name("lexicon")


@functools.lru_cache(maxsize=None)
def lexicon(name: str = "words") -> Any:
    """The parsed YAML file ``bot/lexicon/<name>.yaml`` (cached). Raises
    ``FileNotFoundError`` when it does not exist."""
    return yaml.safe_load((LEXICON_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def several_senses_en() -> frozenset[str]:
    """English words (lower case) with a common sense outside the kitchen (``several_senses_en``
    of the data file): not read as a translated food name in an open question about nothing else."""
    return frozenset(str(w).casefold() for w in lexicon().get("several_senses_en") or [])


@functools.lru_cache(maxsize=None)
def food_context_en() -> frozenset[str]:
    """English kitchen words (``food_context_en`` of the data file): a question using one is about
    food, so a word of :func:`several_senses_en` in it keeps its food sense."""
    return frozenset(str(w).casefold() for w in lexicon().get("food_context_en") or [])


@functools.lru_cache(maxsize=None)
def function_chars() -> frozenset[str]:
    """Chinese function characters (``的``, ``了``, ``吗`` …) that bound slots."""
    return frozenset(lexicon()["function_chars"])


@functools.lru_cache(maxsize=None)
def part_joiners() -> str:
    """Chinese characters that join a whole to its part in a slot ("里", "中", "的")."""
    return lexicon()["part_joiners"]


@functools.lru_cache(maxsize=None)
def pronouns(lang: str) -> tuple[str, ...]:
    """Words of ``lang`` (``"zh"`` or ``"en"``) that refer back to an entity named earlier."""
    return tuple(lexicon()["pronouns"][lang])


@functools.lru_cache(maxsize=None)
def pronoun_re() -> re.Pattern:
    """English pronoun phrases as whole words (case-insensitive), for a search in a question."""
    alts = "|".join(re.escape(p) for p in pronouns("en"))
    return re.compile(rf"\b(?:{alts})\b", re.I)


@functools.lru_cache(maxsize=None)
def slot_trim(lang: str) -> re.Pattern:
    """The regular expression of politeness, particles and articles trimmed around a slot in ``lang``."""
    return re.compile(lexicon()["slot_trim"][lang], re.I if lang == "en" else 0)


def slot_punctuation() -> str:
    """Characters stripped from both ends of a slot."""
    return lexicon()["slot_punctuation"]


def definition_verbs() -> tuple[str, ...]:
    """English verbs that introduce a definition ("X is …", "Xs are …")."""
    return tuple(lexicon()["definition_verbs"])


def role_checklists(titles: list[str]) -> list[str]:
    """The section titles of the checklists of a role called any of ``titles``
    (``role_checklists`` templates × titles, template-major order)."""
    return [tpl.format(x) for tpl in lexicon()["role_checklists"] for x in titles]


@functools.lru_cache(maxsize=None)
def negation_re() -> re.Pattern:
    """Negation cues of both languages ("没有", "without"…) ending a text: the
    name that follows is what the user lacks (case-insensitive)."""
    neg = lexicon()["negation"]
    zh = "|".join(re.escape(w) for w in sorted(neg["zh"], key=len, reverse=True))
    en = "|".join(re.escape(w) for w in sorted(neg["en"], key=len, reverse=True))
    return re.compile(rf"(?:{zh}|\b(?:{en}))\s*(?:the |any |some |a |an )?$", re.I)


@functools.lru_cache(maxsize=None)
def _no_article() -> frozenset[str]:
    return frozenset(w.casefold() for w in lexicon()["no_article_leads"])


def with_article(name: str) -> str:
    """``name`` with "the " before it, unless its first word already
    determines it (``no_article_leads``: "anyone", "another IC", "their
    deputy") or it starts lower-case as a pronoun does."""
    first = name.split()[0].casefold() if name.split() else ""
    return name if first in _no_article() else f"the {name}"


#: A numbered list's marker at the start of a line ("1.", "2、", "(3)"): not a quantity.
_LIST_MARK = re.compile(r"(?m)^\s*(?:[-*•]\s*)?(?:\(?\d{1,3}[.、)）]|（\d{1,3}）)\s*")


@functools.lru_cache(maxsize=None)
def _quantity() -> tuple[dict[str, re.Pattern], re.Pattern]:
    d = lexicon()
    return ({lang: re.compile(p, re.I) for lang, p in d["quantity_question"].items()},
            re.compile(d["quantity_answer"], re.I))


def asks_quantity(text: str) -> bool:
    """Whether ``text`` asks for an amount, duration, time or temperature
    (``quantity_question`` of ``bot/lexicon/words.yaml``, any language)."""
    return any(rx.search(text) for rx in _quantity()[0].values())


def states_quantity(text: str) -> bool:
    """Whether ``text`` states an amount or a duration (``quantity_answer``),
    list numbering ("1.", "2、") not counted."""
    return bool(_quantity()[1].search(_LIST_MARK.sub("", text)))


@functools.lru_cache(maxsize=None)
def _list_question() -> dict[str, re.Pattern]:
    return {lang: re.compile(p, re.I) for lang, p in lexicon()["list_question"].items()}


def asks_list(text: str) -> bool:
    """Whether ``text`` asks for a list or a procedure in order (``list_question`` of
    ``bot/lexicon/words.yaml``, any language)."""
    return any(rx.search(text) for rx in _list_question().values())


@functools.lru_cache(maxsize=None)
def item_line_cue(lang: str) -> re.Pattern:
    """The ``item_line_cues`` of ``lang``: a line naming an asked item that matches it says how
    the item may be used (an alternative, a condition, that it may be left out)."""
    return re.compile(lexicon()["item_line_cues"]["zh" if lang == "zh" else "en"], re.I)


@functools.lru_cache(maxsize=None)
def question_echo(lang: str) -> dict | None:
    """The ``question_echo`` data of ``lang`` (``None`` when the language has none): ``wh`` a
    pattern of its wh-words, ``boundary`` the clause-boundary pattern, ``generic`` the words that
    say nothing of their own (longest first), ``min_content`` an int."""
    d = (lexicon().get("question_echo") or {}).get(lang)
    if not d:
        return None
    return {"wh": re.compile("|".join(re.escape(w) for w in sorted(d["wh"], key=len, reverse=True))),
            "boundary": re.compile(d["boundary"]),
            "generic": tuple(sorted(d.get("generic") or (), key=len, reverse=True)),
            "min_content": int(d.get("min_content", 2))}


@functools.lru_cache(maxsize=None)
def need_question(lang: str) -> re.Pattern:
    """The ``need_question`` cues of ``lang``: the question asks whether something must be done."""
    return re.compile(lexicon()["need_question"]["zh" if lang == "zh" else "en"], re.I)


@functools.lru_cache(maxsize=None)
def optional_line(lang: str) -> re.Pattern:
    """The ``optional_line`` cues of ``lang``: a line saying what it names may be left out."""
    return re.compile(lexicon()["optional_line"]["zh" if lang == "zh" else "en"], re.I)


@functools.lru_cache(maxsize=None)
def part_of_dish_en() -> re.Pattern:
    """"<part> of <dish>" in an English recipe slot ("topping of the Florentiners"): group ``dish``."""
    return re.compile(lexicon()["part_of_dish_en"], re.I)



@functools.lru_cache(maxsize=None)
def _typo_cues(lang: str) -> tuple[int, tuple[str, ...]]:
    data = lexicon().get("typo_cues") or {}
    return int(data.get("min", 7)), tuple(w.casefold() for w in data.get(lang, ()))


_LATIN_WORD = re.compile(r"[A-Za-z]+")


def _inflected(a: str, b: str) -> bool:
    """``a`` and ``b`` differ only in their last two letters ("requires" / "required",
    "involved" / "involves"): another form of one word, not a typo."""
    n = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    return n >= min(len(a), len(b)) - 2


def correct_typos(text: str, lang: str = "en") -> str:
    """``text`` with each word of at least ``typo_cues.min`` letters that is one edit
    (optimal string alignment distance 1: a letter left out, added or changed, or two neighbouring
    letters swapped; rapidfuzz ``OSA``) from exactly one cue word of ``typo_cues`` (``bot/lexicon/words.yaml``)
    replaced by that word ("whats the altenative to X" → "… alternative …"); a word that is a
    cue word, or another form of one (:func:`_inflected`), is left alone; a short question word
    as chats write it (``typo_cues.short_<lang>``: "wat") becomes the word. Text in a
    language without cue words is returned as is."""
    least, cues = _typo_cues(lang)
    if not cues:
        return text
    short = {str(k).casefold(): str(v) for k, v in ((lexicon().get("typo_cues") or {}).get(f"short_{lang}") or {}).items()}

    def fix(m: re.Match) -> str:
        w = m.group()
        low = w.casefold()
        if low in short:
            return short[low]  # a short question word as chats write it ("wat", ``typo_cues.short_<lang>``)
        if len(low) < least or low in cues:
            return w
        near = [c for c in cues if not _inflected(low, c) and OSA.distance(low, c) == 1]
        return near[0] if len(near) == 1 else w

    return _LATIN_WORD.sub(fix, text)


@functools.lru_cache(maxsize=None)
def _phase_res(lang: str) -> tuple[re.Pattern, ...]:
    groups = (lexicon().get("phase_words") or {}).get(lang) or []
    if lang == "zh":
        return tuple(re.compile("|".join(re.escape(w) for w in g)) for g in groups)
    return tuple(re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in g) + r")(?![\w-])", re.I) for g in groups)


def phases(text: str, lang: str) -> set[int]:
    """The phases of a procedure ``text`` names (indexes of the ``phase_words`` groups of
    ``bot/lexicon/words.yaml`` for ``lang``, ``"zh"`` or ``"en"``): "during the call" → ``{1}``."""
    return {i for i, rx in enumerate(_phase_res("zh" if lang == "zh" else "en")) if rx.search(text or "")}


@functools.lru_cache(maxsize=None)
def _how_verb() -> tuple[re.Pattern, frozenset[str]]:
    return re.compile(lexicon()["how_verb"], re.I), frozenset(lexicon().get("how_verb_skip") or ())


def how_verb(text: str) -> str:
    """The verb of an English "how do I <verb> …?" question, lower-case ("how do i page someone
    …" → ``page``), or ``""`` when the question has no such shape or its verb is one of
    ``how_verb_skip`` (``bot/lexicon/words.yaml``: "make", "get", "use" say nothing about the action)."""
    rx, skip = _how_verb()
    m = rx.search(text or "")
    if not m:
        return ""
    v = m.group("verb").casefold()
    return "" if v in skip else v


@functools.lru_cache(maxsize=None)
def _action_groups(lang: str) -> tuple[tuple[str, ...], ...]:
    got = (lexicon().get("action_synonyms") or {}).get("zh" if lang == "zh" else "en") or []
    return tuple(tuple(g) for g in got)


@functools.lru_cache(maxsize=None)
def _synonym_groups() -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for group in (lexicon().get("word_synonyms") or {}).get("en") or []:
        forms = tuple(str(w).casefold() for w in group)
        for w in forms:
            out[w] = forms
    return out


def synonyms(word: str) -> tuple[str, ...]:
    """The forms of every word sharing ``word``'s sense (``word_synonyms`` of
    ``bot/lexicon/words.yaml``, English: "kept" → "keep", …, "retained", "retention"), ``word``
    itself among them; ``()`` for a word of no group."""
    return _synonym_groups().get((word or "").casefold(), ())


def phrase_re(phrase: str) -> re.Pattern:
    """A whole-word, case-insensitive regular expression of an English ``phrase`` whose words
    may be written apart, together or hyphenated ("hand off" ~ "handoff", "hand-off")."""
    parts = [re.escape(w) for w in phrase.split()]
    return re.compile(r"\b" + r"[\s-]?".join(parts) + r"\b", re.I)


def action_names(action: str, lang: str = "en") -> tuple[str, ...]:
    """The phrases that name the action an English verb phrase starts with (``action_synonyms``
    of ``bot/lexicon/words.yaml``): the whole group of the first phrase of a group that starts
    ``action`` ("hand off the role" → "hand off", "hand over", "transfer" …); else its first word
    alone ("escalate"); ``()`` for an empty phrase."""
    body = " ".join((action or "").split())
    if not body:
        return ()
    for group in _action_groups(lang):
        for p in group:
            m = phrase_re(p).match(body)
            if m:
                return group
    return (body.split()[0],)

def _value_kinds() -> dict[str, tuple[re.Pattern, re.Pattern, re.Pattern, dict]]:
    """kind -> (English question, Chinese question, answer, label) of ``value_question``."""
    d = lexicon()["value_question"]
    out = {}
    for kind, spec in d["kinds"].items():
        en = re.compile(d["frame"]["en"].replace("{ask}", spec["ask"]["en"]), re.I)
        zh = re.compile(d["frame"]["zh"].replace("{ask}", spec["ask"]["zh"]), re.I)
        out[kind] = (en, zh, re.compile(spec["answer"], re.I), spec["label"])
    return out


def value_kind(text: str) -> str:
    """The kind of specific value ``text`` asks for (``value_question`` of
    ``bot/lexicon/words.yaml``: ``"identifier"``, ``"address"``, ``"email"``, ``"phone"``,
    ``"date"``, ``"version"``, ``"number"``), the first kind whose question frame matches the
    question without its final punctuation; ``""`` when it asks for none ("What is the
    production account ID?" → ``"identifier"``; "What does the tech lead do?" → ``""``)."""
    q = text.strip().rstrip("?？。!！ .")
    for kind, (en, zh, _a, _l) in _value_kinds().items():
        if en.search(q) or _zh_search(zh, q):
            return kind
    return ""


def _zh_search(zh: re.Pattern, q: str) -> re.Match | None:
    """The Chinese frame's match in ``q``, or ``None`` when its asked Latin word ("ID") is only the
    end of a longer Latin word ("…grid", "…paid"): Chinese writes no spaces, so the frame cannot
    ask for a word boundary itself."""
    m = zh.search(q)
    if m is None:
        return None
    k = m.start("kind")
    if k > 0 and m.group("kind")[:1].isascii() and q[k - 1].isascii() and q[k - 1].isalnum():
        return None
    return m


def value_phrase(text: str) -> str:
    """What a value question asks for, as written ("What is the on-call rota's phone
    number?" → "the on-call rota's phone number"; the question's article kept), or ``""`` when
    ``text`` asks for no specific value (see :func:`value_kind`)."""
    q = text.strip().rstrip("?？。!！ .")
    for en, zh, _a, _l in _value_kinds().values():
        m = en.search(q) or _zh_search(zh, q)
        if m:
            return m.group("np").strip()
    return ""


def value_label(kind: str, lang: str) -> str:
    """How a reply words a value of ``kind`` ("that identifier"); ``""`` for an unknown kind."""
    spec = _value_kinds().get(kind)
    return spec[3].get("zh" if lang == "zh" else "en", "") if spec else ""


def value_sentence(kind: str, text: str, asked: list[str]) -> str:
    """The first sentence (or line) of ``text`` that holds a value of ``kind`` (its ``answer``
    pattern) and writes one of the ``asked`` words (case-insensitive; a word of the question
    besides the kind, so the value is near what was asked); ``""`` when none does. With no
    ``asked`` words, a sentence holding a value is enough. List numbering is not a value."""
    spec = _value_kinds().get(kind)
    if spec is None:
        return ""
    from ..knowledge.text import split_sentences

    rx = spec[2]
    for line in text.splitlines():
        for s in split_sentences(line):
            body = _LIST_MARK.sub("", s)
            if not rx.search(body):
                continue
            low = body.casefold()
            if not asked or any(w.casefold() in low for w in asked):
                return s
    return ""


def picked_choice(reply: str, choices: list[str]) -> str:
    """The one of ``choices`` (names the bot listed asking "which one?") that ``reply`` picks:
    what is left of ``reply`` once the ``choice_reply`` words of the lexicon and punctuation are
    removed is a choice's whole name, or a part of exactly one choice ("徽派的呢？" picks the one
    choice with 徽派 in it); ``""`` when it picks none or several, or when the reply says more
    (a new question naming a choice is no pick)."""
    text = reply.strip()
    core = re.sub(r"[\s?？!！。.,，、]+$", "", re.sub(r"^[\s?？!！。.,，、]+", "", text))
    cues = lexicon().get("choice_reply") or {}
    for lang in ("zh", "en"):
        rx = cues.get(lang) or {}
        for key in ("start", "end"):
            if rx.get(key):
                core = re.sub(rx[key], "", core, flags=re.I).strip()
    if len(core) < 2 or len(core) > 20:
        return ""
    same = [ch for ch in choices if ch.casefold() == core.casefold()]
    if same:
        return same[0]
    hold = [ch for ch in choices if core.casefold() in ch.casefold()]
    return hold[0] if len(hold) == 1 else ""


def down_thing(text: str) -> str:
    """The thing an English question's condition says is out of service (``down_condition`` of
    ``bot/lexicon/words.yaml``: "What do I do if <thing> is down?", "during a <thing> outage"),
    as written without its article; ``""`` when the question has no such condition."""
    rx = (lexicon().get("down_condition") or {}).get("en")
    m = re.search(rx, text, re.I) if rx else None
    if not m:
        return ""
    return (m.group("thing") or m.group("thing2") or "").strip()

