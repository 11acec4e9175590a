"""Sentence-level answer selection for answers read from passages ("small-to-big", or
sentence-window retrieval: rank small units, show them with their surroundings).

The passage search ranks whole chunks; the sentence that answers an open question is often
not the one of the top chunk that shares most words with it, but a sentence later in that
chunk or in the next one ("Teams may use a different tool such as …" under a
paragraph naming the tool the question names). :func:`sentence_scores` scores the sentences
of the first few retrieved passages that hold a term of the question by the cosine of their
embedding with the question's (the vector the passage search already computed, standardised
among the candidates) plus their IDF-weighted share of the question's terms, minus a penalty
per passage rank; :func:`lead_sentence` lets the best one lead the answer, with its next
neighbour (:func:`threadgraph.bot.compose.passages_text`), when it clearly beats the lexical
choice.

Sentence vectors are computed at query time, not at ingest: an open question embeds the ~10-20
candidate sentences of three passages (measured on the dev corpora's open turns: ~0.3 s of CPU
at p50 on a loaded 2-core machine, ~1.5 ms when they are in the in-process LRU keyed by model and
text), while embedding every sentence of a corpus at ingest would multiply the ingest's
embedding work (~15 sentences per chunk) for sentences that are never a candidate. Without an
embedder (or without a question vector) nothing is ranked and the answer keeps the lexical
choice (:func:`threadgraph.bot.compose.lead_passage`). Either choice starts one sentence earlier
when the sentence before it scores nearly as high or states the quantity a quantity question asks
(:func:`step_back`): the answering line often sits just before the one sharing most words.
A question asking a list or the steps of a procedure ("In what order …", "What are the initial
steps of …") reads a sentence that introduces a list together with the list (:func:`with_list`)
and each sentence under its passage's headings (:func:`heading_text`).
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict

import numpy as np

from ..knowledge.text import cjk_bigrams, content_words
from .compose import best_sentence, is_list_item, lead_passage, sentences_of
from .words import asks_list, asks_quantity, states_quantity

#: Passages (best first) whose sentences are ranked.
RANK_FROM = 3
#: Sentences of one passage ranked at most (the first ones; a long passage's tail is not read).
SENTENCES_PER_PASSAGE = 24
#: Characters and model tokens of a sentence embedded (its start: the model's cost, ~1 ms of CPU per
#: token with e5-small on 2 cores, grows with length, and a sentence's start says what it is about).
EMBED_CHARS = 300
EMBED_TOKENS = 48
#: The cosines of one question's candidate sentences are standardised (z-scores: minus their
#: mean, over their standard deviation), so that the weights below hold for any model (e5's
#: cosines of an answering and an unrelated sentence differ by a few hundredths, a static
#: test model's by tenths).
#: Weight of the lexical share (the IDF-weighted share of the question's terms the sentence
#: holds, see :func:`lexical_shares`) added to the standardised cosine.
LEX_WEIGHT = 8.0
#: Score taken off per rank of the sentence's passage in the search (the search ranks whole
#: passages by meaning and words; its first is usually the right one).
RANK_PENALTY = 1.0
#: How much better a sentence must score than the one the lexical choice leads with
#: (:func:`threadgraph.bot.compose.lead_passage`, :func:`~threadgraph.bot.compose.best_sentence`)
#: to lead instead: measured on the dev corpora's open turns, a smaller lead changes as many
#: right answers into wrong ones as the other way round.
LEAD_MARGIN = 0.5
#: How close (in score) the previous sentence of the same passage must come to the chosen one to
#: lead instead (with the chosen one as its next neighbour): the sentence stating what is asked
#: ("…先用低温烤两个小时") is often just before one that shares more of the question's words
#: ("…再把烤箱温度调高 …").
STEP_BACK = 0.75
#: Headings (the last parts of a passage's section path) whose words count for its sentences'
#: share of the question's terms.
HEADINGS = 2
#: Weight of the headings' share of the question's terms, relative to the sentence's own share.
HEAD_WEIGHT = 0.5
#: Sentence vectors kept in memory (LRU, by model and text).
CACHE_SIZE = 4096

_cache: "OrderedDict[tuple[str, str], np.ndarray]" = OrderedDict()
_cache_lock = threading.Lock()
#: A markdown link reference definition ("[tool]: https://example.org/"), a bare address or a rule line.
_NOT_PROSE = re.compile(r"^(?:\[[^\]]+\]:\s*\S+.*|<?https?://\S+>?|[-=*_|:\s]+)$")


def sentence_vectors(embedder, texts: list[str]) -> np.ndarray:
    """Passage-side vectors of ``texts`` (shape ``(len(texts), dim)``), each text's first
    :data:`EMBED_CHARS` characters embedded once per model and kept in an LRU of
    :data:`CACHE_SIZE` entries."""
    name = getattr(embedder, "name", "")
    keys = [(name, x[:EMBED_CHARS]) for x in texts]
    out: dict[tuple[str, str], np.ndarray] = {}
    with _cache_lock:
        for k in keys:
            v = _cache.get(k)
            if v is not None:
                _cache.move_to_end(k)
                out[k] = v
    todo = list(dict.fromkeys(k for k in keys if k not in out))
    if todo:
        vecs = embedder.embed_passages([k[1] for k in todo], max_tokens=EMBED_TOKENS)
        with _cache_lock:
            for k, v in zip(todo, vecs):
                out[k] = v
                _cache[k] = v
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    if not keys:
        return np.zeros((0, int(getattr(embedder, "dim", 0) or 0)), dtype=np.float32)
    return np.stack([out[k] for k in keys]).astype(np.float32)


def candidate(sentence: str) -> bool:
    """A sentence an answer may lead with: prose holding a letter or a CJK character, not a
    link reference, a bare address or a table rule."""
    s = sentence.strip().lstrip("-*• ").strip()
    return bool(s) and not _NOT_PROSE.match(s) and any(ch.isalpha() for ch in s)


def with_list(sentences: list[str], i: int) -> str:
    """Sentence ``i`` of ``sentences``, followed by the list items after it when it introduces
    them (ends with a colon: "We page these people (in order):" is
    about the items "1. … 2. …" after it), as far as :data:`EMBED_CHARS` reach."""
    s = sentences[i]
    if not s.rstrip().endswith((":", "：")):
        return s
    out = [s]
    for x in sentences[i + 1:]:
        if not is_list_item(x) or sum(len(y) + 1 for y in out) >= EMBED_CHARS:
            break
        out.append(x)
    return " ".join(out)


def heading_text(section: str) -> str:
    """The headings a passage's sentences are read under: the last :data:`HEADINGS` parts of its
    section path ("Recovery checklist > First steps"), joined by " / "."""
    parts = [x.strip() for x in section.split(" > ") if x.strip()]
    return " / ".join(parts[-HEADINGS:]) if HEADINGS > 0 else ""


def lexical_shares(sentences: list[str], terms: list[str]) -> list[float]:
    """For each of ``sentences``, the share of the question's ``terms`` (content words, CJK
    bigrams; case-insensitive substrings as :func:`~threadgraph.bot.compose.best_sentence`)
    it holds, each term weighted by its inverse frequency among ``sentences``
    (log(1 + n / (1 + df))): a term every candidate holds ("use", the dish's name) says little."""
    terms = list(dict.fromkeys(terms))
    if not terms or not sentences:
        return [0.0] * len(sentences)
    low = [x.casefold() for x in sentences]
    n = len(low)
    w = {t: math.log(1 + n / (1 + sum(1 for x in low if t in x))) for t in terms}
    total = sum(w.values()) or 1.0
    return [sum(w[t] for t in terms if t in x) / total for x in low]


def sentence_scores(passages, question: str, qvec, embedder, among: int = RANK_FROM,
                    wants_list: bool | None = None) -> dict[tuple[int, int], float]:
    """``{(passage index, sentence index): score}`` for the candidate sentences (:func:`candidate`,
    the first :data:`SENTENCES_PER_PASSAGE` of each, holding at least one term of the question;
    ``{}`` when fewer than two do) of the first ``among`` ``passages``:
    the cosine of the sentence's vector with ``qvec`` standardised among the candidates (a
    z-score), plus :data:`LEX_WEIGHT` × its share of the question's terms (:func:`lexical_shares`), minus :data:`RANK_PENALTY` × its passage's rank.
    For a question asking a list or a procedure (``wants_list``; by default
    :func:`~threadgraph.bot.words.asks_list`) a sentence introducing a list is read with its items
    (:func:`with_list`) and the share of the question's terms its passage's headings hold
    (:func:`heading_text`) adds :data:`HEAD_WEIGHT` × that share.
    Sentence indexes are those of :func:`~threadgraph.bot.compose.sentences_of`. ``{}`` when
    there is no embedder, no question vector or no candidate sentence."""
    if embedder is None or qvec is None or not question:
        return {}
    if wants_list is None:
        wants_list = asks_list(question)
    where: list[tuple[int, int]] = []
    texts: list[str] = []
    heads: list[str] = []
    for pi, p in enumerate(passages[:among]):
        head = heading_text(getattr(p, "section", "") or "")
        sentences = sentences_of(p.text or "")
        for si, s in enumerate(sentences[:SENTENCES_PER_PASSAGE]):
            if candidate(s):
                where.append((pi, si))
                texts.append(" ".join((with_list(sentences, si) if wants_list else s).split()))
                heads.append(head)
    if not texts:
        return {}
    terms = content_words(question) + cjk_bigrams(question)
    lex = lexical_shares(texts, terms)
    if wants_list:
        # a procedure's steps rarely repeat the question's words; the heading over them names it
        # ("First steps" over "1. Confirm the cause …")
        lex = [x + HEAD_WEIGHT * h for x, h in zip(lex, lexical_shares(heads, terms))]
    # only sentences holding a term of the question are embedded: half the model's work (the
    # embedding is the cost), for as many right leads on the dev corpora's open turns
    keep = [i for i, x in enumerate(lex) if x > 0]
    if len(keep) < 2:
        return {}
    where, texts, lex = [where[i] for i in keep], [texts[i] for i in keep], [lex[i] for i in keep]
    q = np.asarray(qvec, dtype=np.float32)
    cos = sentence_vectors(embedder, texts) @ (q / (np.linalg.norm(q) or 1.0))
    cos = (cos - cos.mean()) / max(float(cos.std()), 1e-6)
    return {k: float(c) + LEX_WEIGHT * x - RANK_PENALTY * k[0] for k, c, x in zip(where, cos, lex)}


def rank_passages(passages, question: str, qvec, embedder, among: int = RANK_FROM,
                  scores: dict[tuple[int, int], float] | None = None) -> list[tuple[int, int, float]]:
    """``(passage index, sentence index, score)`` of each of the first ``among`` ``passages``'
    best sentence by :func:`sentence_scores` (or the ``scores`` given), best first (ties: the
    earlier passage, then the earlier sentence); ``[]`` when nothing could be scored."""
    if scores is None:
        scores = sentence_scores(passages, question, qvec, embedder, among)
    best: dict[int, tuple[int, float]] = {}
    for (pi, si), sc in scores.items():
        if pi not in best or sc > best[pi][1]:
            best[pi] = (si, sc)
    return sorted(((pi, si, sc) for pi, (si, sc) in best.items()), key=lambda x: (-x[2], x[0]))


def lead_sentence(passages, question: str, qvec, embedder, among: int = RANK_FROM,
                  wants_list: bool | None = None) -> list[tuple[int, int, float]]:
    """``[(passage index, sentence index, score)]`` of the sentence an open answer should lead
    with instead of the lexical choice (the passage :func:`~threadgraph.bot.compose.lead_passage`
    picks, at its :func:`~threadgraph.bot.compose.best_sentence`): the best of
    :func:`rank_passages` when it scores more than :data:`LEAD_MARGIN` above that sentence;
    ``[]`` (keep the lexical choice) otherwise, or when nothing could be ranked. ``wants_list``:
    see :func:`sentence_scores`."""
    scores = sentence_scores(passages, question, qvec, embedder, among, wants_list)
    ranked = rank_passages(passages, question, qvec, embedder, among, scores)
    if not ranked:
        return []
    lp = lead_passage(passages, question)
    mine = best_sentence(sentences_of(passages[lp].text or ""), question)[0]
    lexical = scores.get((lp, mine))
    if lexical is None or ranked[0][2] - lexical > LEAD_MARGIN:
        pi, si, sc = ranked[0]
        return [(pi, step_back(passages, question, scores, pi, si), sc)]
    back = step_back(passages, question, scores, lp, mine)
    return [(lp, back, lexical)] if back != mine else []


def step_back(passages, question: str, scores: dict[tuple[int, int], float], pi: int, si: int) -> int:
    """The sentence index an answer leading with sentence ``si`` of passage ``pi`` should start
    at: the previous sentence of the same passage (shown with ``si`` as its next neighbour) when it
    is a :func:`candidate` that scores within :data:`STEP_BACK` of ``si``, or when the question asks
    a quantity (:func:`~threadgraph.bot.words.asks_quantity`) and that previous sentence states
    one (:func:`~threadgraph.bot.words.states_quantity`); ``si`` otherwise."""
    if si <= 0 or (pi, si) not in scores:
        return si
    sentences = sentences_of(passages[pi].text or "")
    if si >= len(sentences) or not candidate(sentences[si - 1]):
        return si
    prev = scores.get((pi, si - 1))
    if prev is not None and prev >= scores[(pi, si)] - STEP_BACK:
        return si - 1
    if asks_quantity(question) and states_quantity(sentences[si - 1]):
        return si - 1
    return si
