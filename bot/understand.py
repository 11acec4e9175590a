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
import time

from ..knowledge.text import detect_language
from . import intents, words
from .linker import Linker
from .query import Understanding

log = logging.getLogger(__name__)


def understand(text: str, linker: Linker, *, cpu_budget_s: float | None = None) -> Understanding:
    """Parse ``text`` into an :class:`Understanding` using rules only.

    Memory is not consulted here (see :mod:`threadgraph.bot.resolve`);
    ``follow_up`` marks texts that need it (pronouns, "那…呢", "and …?").
    ``cpu_budget_s`` (seconds of this thread's CPU time, ``time.thread_time``)
    stops trying phrase patterns once spent: the question then reads as
    ``general`` (entities still come from the longest-match scan).
    """
    deadline = None if cpu_budget_s is None else time.thread_time() + cpu_budget_s
    raw = text.strip()
    lang = detect_language(raw) or "en"  # no letters at all: answer in English
    body = " ".join(raw.split()).rstrip("？?。.!！ ")
    u = Understanding(text=raw, intent="general", language=lang)
    for rule in intents.rules(lang) + intents.fallback_rules(lang):
        if deadline is not None and time.thread_time() > deadline:
            log.warning("understanding stopped at its CPU deadline before pattern %s (%d characters): "
                        "answering as a general question", rule.id, len(body))
            break
        m = rule.regex.search(body)
        if m:
            u.intent, u.rule = rule.handler.name, rule.id
            rule.handler.read(u, m, body, linker)
            break
    if u.intent == "general" or not u.mentions:
        # free-text entities (also for rules whose slots did not link)
        for m in linker.scan(body):
            if not any(m.id == x.id for x in u.mentions + u.excluded):
                u.mentions.append(m)
    if lang == "en" and words.pronoun_re().search(body):
        u.follow_up = u.follow_up or not u.mentions
    if lang == "zh" and any(p in body for p in words.pronouns("zh")):
        u.follow_up = True
    u.confident = (u.intent != "general" and all(m.type != "unknown" for m in u.mentions + u.excluded)
                   and bool(u.mentions or u.excluded or u.follow_up))
    return u
