"""Prose that rules one way out and, in the next clause, turns to another: "X should not be kept in A.
Instead, use B" (``A`` → ``B``), "You aren't able to delete a message: instead, you can edit the text".

The phrases are cut by the noun-phrase trimmer of the sentence reader
(:func:`~..knowledge.cues.noun_phrase`); the cue words are data (``instead_*`` of
``lexicon/procedures.yaml``). Nothing here knows a corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..knowledge.cues import noun_phrase
from ..knowledge.text import sentence_spans
from .cues import lexicon as ingest_lexicon, regex
from .relations import looks_like_name, unwrap

_NEG = regex("procedures", "instead_negative", re.I)
_LEAD = regex("procedures", "instead_lead", re.I)
_SUBJ = regex("procedures", "instead_subject", re.I)
_USE = regex("procedures", "instead_use", re.I)
_PREP = regex("procedures", "instead_preps", re.I)
_VERB_WORDS = int(ingest_lexicon("procedures")["instead_verb_words"])
#: a clause break inside a sentence before "instead" ("…: instead, you can …", "…, but instead put in …")
_INNER = re.compile(r"(?:[:;,]\s+(?:but\s+)?|\s+but\s+)(?=instead\b)", re.I)
_PARENS = re.compile(r"\s*\([^()]{0,200}\)")
_STOP = re.compile(r"\s(?:and|or|but|so|to|for|because|since|when|if|until|after|before|while)\s|[,;:()]", re.I)


def _clauses(blocks: list) -> Iterator[tuple[str, object, int]]:
    """``(clause, block, line)`` for each clause of the paragraphs and list items of ``blocks``, a new
    section marked by a ``("", None, 0)`` break: sentences, split once more before an inner "instead"."""
    path = None
    for b in blocks:
        if b.kind == "heading" or b.path != path:
            path = b.path
            yield "", None, 0
        if b.kind not in ("paragraph", "item"):
            continue
        text = unwrap(b.text)
        for a, z in sentence_spans(text):
            pos = a
            for m in list(_INNER.finditer(text, a, z)) + [None]:
                end = m.start() if m else z
                line = b.line + b.text.count("\n", 0, pos)
                yield re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text[pos:end]).strip(), b, line
                if m:
                    pos = m.end()


def _verb_phrase(s: str) -> str:
    """``s`` up to its first clause break, when that is a short verb phrase of two to
    ``instead_verb_words`` words ("delete a message"); else ``""``."""
    head = _STOP.split(" " + s.strip().rstrip(".!?") + " ", maxsplit=1)[0].strip()
    n = len(head.split())
    return head if 2 <= n <= _VERB_WORDS and re.match(r"[a-z]", head) else ""


def instead_pairs(blocks: list) -> list[tuple[str, str, object, int]]:
    """``(x, y, block, line)`` for each clause led by "instead" that follows, in the same section, a
    clause ruling a way out (see the module doc). Both sides are short phrases (at most six words, no
    clause inside); nothing when either side is missing or they are equal."""
    out = []
    prev = ""
    for clause, b, line in _clauses(blocks):
        if b is None:
            prev = ""
            continue
        clause = _PARENS.sub("", clause)  # "(known as … in A)": an aside, never a side
        lead = _LEAD.match(clause)
        neg = None if not prev else _NEG.search(prev)
        if lead and neg:
            ruled = prev[neg.end():].strip().rstrip(".!?")
            turn = _SUBJ.sub("", clause[lead.end():].strip(), count=1)
            preps = list(_PREP.finditer(ruled))
            x = y = ""
            if preps:
                x = noun_phrase(ruled[preps[-1].end():], "after")
                use = _USE.match(turn)
                if use:
                    y = noun_phrase(turn[use.end():], "after")
                else:
                    p = _PREP.search(turn)
                    y = noun_phrase(turn[p.end():], "after") if p else ""
            else:
                x, y = _verb_phrase(ruled), _verb_phrase(turn)
            if x and y and x.casefold() != y.casefold() and looks_like_name(x) and (looks_like_name(y) or not preps):
                out.append((x, y, b, line))
        prev = clause
    return out
