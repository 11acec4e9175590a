"""Two-part questions ("When do we need a review and who owns it?"): the parts a question
joins with "and", each a question of its own (``two_part_question`` of ``bot/lexicon/words.yaml``),
and the answer that gives the parts' answers one after the other, each with its own source."""

from __future__ import annotations

import functools
import re
from pathlib import PurePosixPath

from .answer import Answer
from .compose import t
from .words import lexicon


@functools.lru_cache(maxsize=None)
def _cues(lang: str) -> dict[str, re.Pattern] | None:
    spec = (lexicon().get("two_part_question") or {}).get(lang)
    return {k: re.compile(v, re.I) for k, v in spec.items()} if spec else None


def split(text: str, lang: str) -> tuple[str, str] | None:
    """The two questions ``text`` joins ("When do we need a review and who owns it?" →
    ("When do we need a review?", "who owns a review?")): a pronoun of the second part
    is replaced by the last noun phrase of the first (with its article). ``None`` when ``text``
    is no such question (or its language has no cue)."""
    cues = _cues(lang)
    if cues is None:
        return None
    body = text.strip().rstrip("?？.!！ ")
    m = cues["split"].match(body)
    if m is None:
        return None
    a, b = m.group("a").strip(" ,"), m.group("b").strip(" ,")
    obj = cues["object"].search(a)
    if obj is not None:
        np = obj.group(0).strip()
        b = cues["pronoun"].sub(np, b, count=1)
    return a + "?", b + "?"


def _cited(ans: Answer) -> str:
    """A part's answer followed by its first source as ``(file:line)``."""
    if not ans.sources:
        return ans.answer
    s = ans.sources[0]
    return f"{ans.answer.rstrip()} ({PurePosixPath(s.doc).name}:{s.line})" if s.line else ans.answer


def combine(question: str, parts: list[tuple[str, Answer]]) -> Answer:
    """One answer from the answers to the parts (``(part question, answer)``, in order): each
    part's answer on its own paragraph under the part's question,
    with its first source as ``(file:line)``; a part nothing answers says so. Found when any
    part is; its facts, passages and sources are the parts' in order (the first part's intent)."""
    first = parts[0][1]
    lang = first.language
    blocks = []
    for q, ans in parts:
        if ans.found:
            blocks.append(f"{q}\n{_cited(ans)}")
        else:
            blocks.append(f"{q}\n" + t(lang, "知识库里没有找到能回答这一问的依据。", "The knowledge base has no evidence for this part."))
    seen_p, seen_s = set(), set()
    passages, sources, facts, follow = [], [], [], []
    for _q, ans in parts:
        if not ans.found:
            continue
        facts += ans.facts
        passages += [p for p in ans.passages if not (p.id in seen_p or seen_p.add(p.id))]
        sources += [s for s in ans.sources if not ((s.doc, s.line) in seen_s or seen_s.add((s.doc, s.line)))]
        follow += ans.follow_ups
    return first.model_copy(update={
        "question": question, "found": any(a.found for _q, a in parts), "answer": "\n\n".join(blocks),
        "facts": facts, "passages": passages, "sources": sources, "follow_ups": follow[:3],
        "entities": [e for _q, a in parts for e in a.entities]})
