"""Prose that rules one way out and, in the next clause, turns to another: "X should not be kept in A.
Instead, use B" (``A`` → ``B``), "You aren't able to remove a post: instead, you can change the wording".

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
_PAR_VERBS = "|".join(sorted(set(ingest_lexicon("procedures")["parallel_verbs"]), key=len, reverse=True))
_PAR_GAP = int(ingest_lexicon("procedures")["parallel_gap"])
#: a name as a document writes it: a link text (⟦…⟧), code, bold, a quotation, or capitalized words
_NAME = (r"(?:⟦(?P<l>[^⟧]{2,60})⟧|\*\*`?(?P<b>[^*`\n]{2,60})`?\*\*|`(?P<c>[^`\n]{2,60})`|[\"“](?P<q>[^\"”\n]{2,60})[\"”]|"
         r"(?P<p>[A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*){0,4}))")
_PAR_TAKE = re.compile(r"(?i:\b(?P<v>" + _PAR_VERBS + r")\b)\s+(?:[\w'’-]+\s+){0," + str(_PAR_GAP) + r"}?" + _NAME)
_PAR_INSTEAD = re.compile(r"(?i:\b(?P<v>" + _PAR_VERBS + r")\b)\s+(?:[\w'’-]+\s+){0," + str(_PAR_GAP) + r"}?" + _NAME
                          + r"\s+(?i:instead)\b(?!\s+of)")
_LINK = re.compile(r"!?\[([^\]\n]{0,80})\]\([^)\n]*\)")
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
    ``instead_verb_words`` words ("remove a post"); else ``""``."""
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


def _name_of(m: re.Match) -> str:
    return next((m.group(g) for g in ("l", "b", "c", "q", "p") if m.group(g)), "").strip().rstrip(".")


def parallel_pairs(blocks: list, raw) -> list[tuple[str, str, object, int]]:
    """``(x, y, block, line)`` for each sentence that takes a written name with a verb of
    ``parallel_verbs`` and "instead" ("select "Manual Mode" instead") after a sentence of the
    same section — or of the list item it is nested in — that took another written name with the same
    verb ("Select "Auto Mode" …"): at most ``parallel_gap`` words between verb and
    name; the nearest earlier sentence wins; equal names give nothing. ``raw(block)`` is the block's
    source with its inline marks (code, bold, quotation marks)."""
    out = []
    sents: list[str] = []
    path = None
    for i, b in enumerate(blocks):
        if b.kind == "heading" or b.path != path:
            sents, path = [], b.path
        if b.kind not in ("paragraph", "item"):
            continue
        src = _LINK.sub(lambda m: f"⟦{m.group(1)}⟧", raw(b))
        text = unwrap(src)
        for a, z in sentence_spans(text):
            s = text[a:z]
            m = _PAR_INSTEAD.search(s)
            if m:
                y, verb = _name_of(m), m.group("v").casefold()
                x = ""
                for t in reversed(sents[-3:]):
                    took = [n for n in _PAR_TAKE.finditer(t) if n.group("v").casefold() == verb]
                    if took:
                        x = _name_of(took[0])
                        break
                if x and y and x.casefold() != y.casefold() and looks_like_name(x) and looks_like_name(y):
                    out.append((x, y, b, b.line + src.count("\n", 0, a)))
            sents.append(s)
    return out
