"""Understanding without an LLM: language, intent, entities and constraints.

The intent comes from the phrase patterns of the registered intents
(:mod:`threadgraph.bot.intents`, data in ``bot/intents/<intent>.yaml``),
tried by rank in the question's language first; the first match wins and its
handler reads the slots (entity linking: :mod:`threadgraph.bot.linker`).
When none matches, the elliptical follow-up patterns are tried; a question
matching nothing is ``general`` and its entities come from a longest-match
scan of the whole text.
"""

from __future__ import annotations

import re

from . import intents, words
from .linker import Linker
from .query import Understanding

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def detect_language(text: str) -> str:
    """``"zh"`` when the text has at least twice as many CJK ideographs as
    Latin words, unless it starts as an English sentence (so "IC是什么" is
    Chinese, "Is X required in <Chinese dish name>?" English)."""
    cjk = len(_CJK.findall(text))
    ws = re.findall(r"[A-Za-z]+", text)
    first = re.search(r"[A-Za-z\u3400-\u4dbf\u4e00-\u9fff]", text)
    if cjk and len(ws) >= 2 and first and first.group().isascii():
        return "en"  # an English sentence naming Chinese dishes
    return "zh" if cjk and cjk >= 2 * len(ws) else "en"


def understand(text: str, linker: Linker) -> Understanding:
    """Parse ``text`` into an :class:`Understanding` using rules only.

    Memory is not consulted here (see :mod:`threadgraph.bot.resolve`);
    ``follow_up`` marks texts that need it (pronouns, "那…呢", "and …?").
    """
    raw = text.strip()
    lang = detect_language(raw)
    body = raw.rstrip("？?。.!！ ")
    u = Understanding(text=raw, intent="general", language=lang)
    for handler, rx in intents.rules(lang):
        m = rx.search(body)
        if m:
            u.intent, u.rule = handler.name, rx.pattern[:40]
            handler.read(u, m, body, linker)
            break
    else:
        for handler, rx in intents.fallback_rules(lang):
            m = rx.search(body)
            if m:
                handler.read(u, m, body, linker)
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
