"""Understanding without an LLM: language, intent, entities and constraints.

The intent comes from the phrase patterns of the registered intents
(:mod:`threadgraph.bot.intents`, data in ``bot/intents/<intent>.yaml``),
tried by rank in the question's language first; the first match wins and its
handler reads the slots (entity linking: :mod:`threadgraph.bot.linker`).
When none matches, the elliptical follow-up patterns are tried; a question
matching nothing is ``general`` and its entities come from a longest-match
scan of the whole text.

Bounded work: the patterns see the text with its whitespace runs (newlines
included) collapsed to one space, every slot a pattern leaves open in the
middle is length-bounded in its YAML file, and the patterns stop once they
have used ``cpu_budget_s`` seconds of the thread's CPU time (not wall time: a
busy machine must not change how a question is read); the caller bounds the
text's length
(``Settings.max_question_chars``). ``benchmarks/adversarial.py`` measures the
worst inputs found.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import replace

from ..knowledge.text import detect_language
from . import classify, intents, words
from .linker import Linker
from .query import Understanding
from .slots import unknown_dish

log = logging.getLogger(__name__)


def understand(text: str, linker: Linker, *, cpu_budget_s: float | None = None) -> Understanding:
    """Parse ``text`` into an :class:`Understanding` using rules only.

    Memory is not consulted here (see :mod:`threadgraph.bot.resolve`);
    ``follow_up`` marks texts that need it (pronouns, "那…呢", "and …?").
    ``cpu_budget_s`` (seconds of this thread's CPU time, ``time.thread_time``)
    stops trying phrase patterns (and the entity-first cue reading) once spent:
    the question then reads as ``general`` unless a pattern already matched
    (entities still come from the longest-match scan).
    """
    raw = text.strip()
    lang = detect_language(raw) or "en"  # no letters at all: answer in English
    body = words.correct_typos(" ".join(raw.split()).rstrip("？?。.!！ "), lang)
    if lang == "en" and hasattr(linker, "correct_names"):
        body = linker.correct_names(body)  # a KB name typed with a typo per word ("incdent comander")
    u = Understanding(text=raw, intent="general", language=lang)
    late = False
    patterns = intents.rules(lang) + intents.fallback_rules(lang)
    # the clock starts after the patterns are compiled: compiling them (once per process, on the
    # first question of a language) must not push that first question past its budget
    deadline = None if cpu_budget_s is None else time.thread_time() + cpu_budget_s
    for rule in patterns:
        if deadline is not None and time.thread_time() > deadline:
            log.warning("understanding stopped at its CPU deadline before pattern %s (%d characters): "
                        "answering as a general question", rule.id, len(body))
            late = True
            break
        m = rule.regex.search(body)
        if m:
            u.intent, u.rule = rule.handler.name, rule.id
            rule.handler.read(u, m, body, linker)
            break
    if not late and (deadline is None or time.thread_time() <= deadline):
        r = classify.read(body, lang, linker, follow_up=u.follow_up or bool(words.pronoun_re().search(body)))
        if r is not None and _prefer_cues(u, r, body, lang, linker):
            classify.apply(u, r)
    if u.intent == "general" or not u.mentions:
        # free-text entities (also for rules whose slots did not link)
        cand = u.candidate.surface.casefold() if u.candidate is not None and u.candidate.surface else ""
        for m in linker.scan(body):
            if cand and m.surface.casefold() in cand:
                continue  # part of the proposed stand-in ("can I use potato flour?"), not a slot of its own
            if not any(m.id == x.id for x in u.mentions + u.excluded):
                u.mentions.append(m)
    if lang == "en" and not {"recipe", "ingredient"} & set(intents.get(u.intent).needs or ()):
        u.mentions = _food_senses(u.mentions, body)  # an open or role question: a word in its non-food sense
    if lang == "en":
        u.mentions = _anaphoric_dropped(u.mentions, body)
    if lang == "en" and words.pronoun_re().search(body):
        u.follow_up = u.follow_up or not u.mentions
    if lang == "zh" and any(p in body for p in words.pronouns("zh")):
        u.follow_up = True
    u.confident = (u.intent != "general" and all(m.type != "unknown" for m in u.mentions + u.excluded)
                   and bool(u.mentions or u.excluded or u.follow_up))
    return u


def _anaphoric_dropped(mentions: list, body: str) -> list:
    """``mentions`` without the common nouns the question points back with: a lower-case name right
    after a demonstrative ("and if that colleague is away?": ``leading_demonstratives`` of
    ``bot/lexicon/words.yaml``) is the one named earlier in the thread, not a KB entity that happens
    to share the word; a capitalised name ("that Release Lead") is still linked."""
    dem = words.lexicon()["leading_demonstratives"]["en"]["words"]
    rx = re.compile(rf"\b(?:{'|'.join(map(re.escape, dem))})\s+$", re.I)

    def anaphoric(m) -> bool:
        s = (m.surface or "").strip()
        if not s or s != s.casefold():
            return False
        at = m.start if isinstance(m.start, int) and m.start >= 0 and body[m.start:m.start + len(s)] == s else body.find(s)
        return at > 0 and rx.search(body[:at]) is not None

    return [m for m in mentions if not anaphoric(m)]


def _food_senses(mentions: list, food_context: str = "") -> list:
    """``mentions`` without the translated food names of English words that have a common other
    sense (:func:`threadgraph.bot.words.several_senses_en`: a word used in its market sense) when no other
    recipe, ingredient or tool is named and ``food_context`` (the question) has no kitchen word
    (``food_context_en`` of the data file): nothing else makes the question about food (called
    for questions whose intent needs no recipe or ingredient). Such a word becomes an unknown
    mention under its own surface."""
    food = ("recipe", "ingredient", "tool")
    def ambiguous(m) -> bool:
        return (m.type in food and (m.surface or "").casefold() in words.several_senses_en()
                and (m.name or "").casefold() != (m.surface or "").casefold())
    if not any(ambiguous(m) for m in mentions):
        return mentions
    if any(m.type in food and m.id and not ambiguous(m) for m in mentions):
        return mentions
    if food_context and any(w in words.food_context_en() for w in re.findall(r"[a-z]+", food_context.casefold())):
        return mentions
    # the word as the question wrote it, known to the KB under no name of its own
    return [replace(m, name=m.surface, type="unknown", id=None, method="unknown") if ambiguous(m) else m
            for m in mentions]


def _adds_nothing(u: Understanding, r: classify.Reading) -> bool:
    """The entity-first reading ``r`` links nothing the pattern's slots did not link already, while
    the pattern's only unlinked mention is its context slot (a dish name the KB has no recipe
    called): the pattern's reading says more (which dish was asked), so it is kept."""
    unknown = [m for m in u.mentions + u.excluded if m.type == "unknown"]
    ctx_slots = {u.slot_texts.get("ctx"), u.slot_texts.get("ctx2")} - {None, ""}
    if not unknown or any(m.surface not in ctx_slots for m in unknown):
        return False
    have = {m.id for m in u.mentions + u.excluded if m.id}
    return bool(have) and all(m.id in have for m in r.mentions if m.type != "unknown")


def _prefer_cues(u: Understanding, r: classify.Reading, body: str, lang: str, linker: Linker) -> bool:
    """Whether the entity-first reading ``r`` replaces the phrase-pattern
    reading ``u``: when no pattern matched; when the pattern's slots did not
    link while ``r`` found the entities; or when the frame's cues give no
    support to the pattern's intent but strong support (≥ 3) to another.
    An elliptical follow-up pattern ("and X?") is replaced only by a strong
    reading (≥ 3) that names something."""
    if r.intent == u.intent:
        # the same intent: the entity-first slots when the pattern's did not link
        unlinked = any(m.type == "unknown" for m in u.mentions + u.excluded)
        if unlinked and any(unknown_dish(u, m, r.mentions, body) for m in u.mentions):
            return False  # a dish the KB lacks ("… instead of X in <dish>"): its words name no other thing asked
        if unlinked and _adds_nothing(u, r):
            return False  # "<dish>里的X可以不放吗" about a dish no recipe is called: the slots keep the dish as asked
        return (unlinked or not (u.mentions or u.excluded or u.slot_texts)) and any(m.type != "unknown" for m in r.mentions)
    if not u.rule:
        return True
    if intents.get(u.intent).fallback:
        # an elliptical follow-up stays one, unless its own words ask something else ("那没有X怎么办")
        return r.score >= 3 and bool(r.mentions)
    unlinked = any(m.type == "unknown" for m in u.mentions + u.excluded) or not (u.mentions or u.excluded or u.slot_texts)
    if unlinked and r.mentions:
        return True
    own = classify.score(u.intent, r.frame, lang)
    return own < classify.MIN_SCORE and r.score >= 3
