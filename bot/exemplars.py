"""Nearest-exemplar intent: the last fallback of understanding without an LLM.

A question that neither the phrase patterns nor the entity-first cue words
(:mod:`threadgraph.bot.classify`) give an intent would be answered as
``general`` (passages). Here its *frame* — the question with every linked
name replaced by the generic word of its type ("这道菜", "this ingredient") —
is embedded with the knowledge base's own embedding model (the e5 ``query:``
side) and compared by cosine similarity with the exemplar questions of
``bot/lexicon/exemplars.yaml``, embedded the same way once per model. The
nearest intent is taken when

- its best exemplar is at least :data:`MIN_SIMILARITY` similar,
- it beats the best ``general`` exemplar by at least :data:`MIN_MARGIN`, and
- the entities the intent needs are in the question (or the question is a
  follow-up, whose memory may supply them).

Replacing names by generic words makes the comparison about *how* the
question asks, not *what* it names, so exemplars never need a collection's
names. Cost: one query embedding (a few ms of CPU with int8 e5-small) for
questions that would otherwise be ``general``; nothing for the others.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from . import classify, intents
from .linker import Linker, Mention
from .query import Understanding

log = logging.getLogger(__name__)

DATA = Path(__file__).parent / "lexicon" / "exemplars.yaml"

#: Cosine similarity (e5 query side, L2-normalized vectors) the nearest
#: exemplar needs. e5 similarities are compressed high (unrelated questions
#: score ~0.80); the value was chosen on the labelled questions of
#: ``benchmarks/exemplars.py`` (questions the cue words read confidently).
MIN_SIMILARITY = 0.90
#: How much closer the nearest intent's exemplar must be than the nearest
#: ``general`` exemplar.
MIN_MARGIN = 0.01


@functools.lru_cache(maxsize=1)
def _article() -> re.Pattern:
    """An article right before a name (``articles`` of the exemplar file), dropped with the name."""
    words = "|".join(re.escape(w) for w in data()["articles"])
    return re.compile(rf"(?:(?<=\s)|^)(?:{words})\s+$", re.I)


@functools.lru_cache(maxsize=1)
def data() -> dict:
    """The parsed exemplar file: ``generic`` (language → type → word) and
    ``intents`` (intent → language → [question])."""
    with DATA.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def generic_frame(body: str, mentions: list[Mention], lang: str) -> str:
    """``body`` with each linked mention replaced by the generic word of its
    type in ``lang`` (``zh`` or ``en``; other languages use ``en``), an
    article right before it dropped."""
    words = data()["generic"].get(lang) or data()["generic"]["en"]
    out, last = [], 0
    for m in sorted((m for m in mentions if m.start >= 0), key=lambda m: m.start):
        if m.start < last:
            continue
        before = body[last:m.start]
        if lang != "zh":
            before = _article().sub("", before)  # "the <role>" → "this role", not "the this role"
        out.append(before)
        out.append(words.get(m.type, words["other"]))
        last = m.start + len(m.surface)
    out.append(body[last:])
    return "".join(out)


@dataclass
class _Index:
    intents: list[str]      # intent of each exemplar row
    langs: list[str]        # language of each row
    matrix: np.ndarray      # (rows, dim) float32, L2-normalized


_indexes: "weakref.WeakKeyDictionary[object, _Index]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _index(embedder) -> _Index:
    """The exemplar vectors for ``embedder`` (an
    :class:`~threadgraph.knowledge.embeddings.Embedder`), embedded once."""
    idx = _indexes.get(embedder)
    if idx is None:
        with _lock:
            idx = _indexes.get(embedder)
            if idx is None:
                rows_i, rows_l, texts = [], [], []
                for intent, by_lang in data()["intents"].items():
                    for lang, qs in by_lang.items():
                        for q in qs:
                            rows_i.append(intent)
                            rows_l.append(lang)
                            texts.append(q)
                m = np.asarray(embedder.embed_queries(texts), dtype=np.float32)
                m /= np.linalg.norm(m, axis=1, keepdims=True) + 1e-12
                idx = _Index(rows_i, rows_l, m)
                _indexes[embedder] = idx
    return idx


def nearest(embedder, text: str) -> list[tuple[str, float]]:
    """Every exemplar intent with its best cosine similarity to ``text`` (a
    generic frame), best first."""
    idx = _index(embedder)
    v = np.asarray(embedder.embed_query(text), dtype=np.float32)
    v /= np.linalg.norm(v) + 1e-12
    sims = idx.matrix @ v
    best: dict[str, float] = {}
    for intent, s in zip(idx.intents, sims.tolist()):
        if s > best.get(intent, -1.0):
            best[intent] = s
    return sorted(best.items(), key=lambda kv: -kv[1])


def choose(ranked: list[tuple[str, float]], types: set[str], follow_up: bool) -> tuple[str, float] | None:
    """The intent to take from ``ranked`` (:func:`nearest`), or ``None``.

    The nearest non-general intent must pass :data:`MIN_SIMILARITY` and beat
    the nearest ``general`` exemplar by :data:`MIN_MARGIN`. When the entities
    it needs are not in the question (``types``: the linked entity types; a
    ``follow_up`` may get them from memory), only an intent as near (within
    :data:`MIN_MARGIN`) may take its place: a distant second reading is a
    guess, and a guessed intent answers worse than passages."""
    general = max((s for i, s in ranked if i == "general"), default=0.0)
    others = [(i, s) for i, s in ranked if i != "general"]
    if not others or others[0][1] < MIN_SIMILARITY or others[0][1] - general < MIN_MARGIN:
        return None
    top = others[0][1]
    for intent, s in others:
        if top - s > MIN_MARGIN:
            return None
        need = intents.get(intent).needs[:1]
        if need and not follow_up and not classify.can_fill(need[0], types):
            continue
        return intent, s
    return None


def refine(u: Understanding, embedder, linker: Linker) -> Understanding:
    """``u`` with the nearest exemplar's intent when ``u`` is ``general`` and
    an intent passes :func:`choose`; ``u`` unchanged otherwise (also when
    ``embedder`` is ``None`` or fails). The slots are filled by type as the
    cue reading does (:func:`threadgraph.bot.classify.apply`), and the rule is
    ``<intent>/exemplar/<similarity>``."""
    if u.intent != "general" or embedder is None:
        return u
    body = " ".join(u.text.split()).rstrip("？?。.!！ ")
    mentions = [m for m in linker.scan(body) if m.type != "unknown"]
    if not mentions and not u.follow_up:
        return u  # nothing named: passages answer better than an empty slot
    try:
        ranked = nearest(embedder, generic_frame(body, mentions, u.language))
    except Exception as exc:  # noqa: BLE001 - the fallback must never break an answer
        log.warning("exemplar intent skipped: %s", type(exc).__name__)
        return u
    got = choose(ranked, {m.type for m in mentions}, u.follow_up)
    if got is None:
        return u
    intent, sim = got
    r = classify.reading_for(intent, sim, body, mentions)
    classify.apply(u, r)
    u.rule = f"{intent}/exemplar/{sim:.3f}"
    return u
