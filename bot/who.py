""""Who does X?" read from the documents: the role whose own section states X.

An SOP usually lists what each role does under a heading titled with the role
("<Role> > Responsibilities": "Notify the other teams …"). A question asking *who* does
something is answered by the sentence, in a section titled with a role, that
shares the most of the question's content words (each weighted by how rare
it is in the KB's passages, so "incident" counts little in an incident
runbook); the answer names that role and quotes the sentence. Roles the
question itself names do not count as content (in "who pages X when <role>
asks?" that role is not the answer), nor do the filler words of
``bot/lexicon/words.yaml`` key ``who_filler``. The shape of a "who" question and of
its verb are data too (keys ``who_question`` and ``who_verb``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..knowledge import text as T
from ..knowledge.text import sentence_spans
from ..knowledge.vectors import Hit
from . import words
from .evidence import has_word

#: A sentence must share at least this many of the question's content words.
MIN_WORDS = 2
#: … and at least this share of their rarity-weighted sum.
MIN_COVER = 0.4
#: Passages a full-text search for the question's content words adds to the retrieved ones.
SEARCH_LIMIT = 24
#: Full-text searches for the verb with one other content word, and passages each adds at most.
PAIR_SEARCHES = 4
PAIR_LIMIT = 16
#: Longest sentence quoted (characters).
QUOTE_CHARS = 240

_WHO = re.compile(words.lexicon()["who_question"], re.I)
#: The verb of a "who …" question: what the role does (named groups ``subj`` and ``verb``).
_VERB = re.compile(words.lexicon()["who_verb"], re.I)


@dataclass(frozen=True)
class WhoReading:
    """The ``role`` whose section ``hit`` holds ``sentence``, which shares ``matched`` content words
    with the question (``score`` their rarity-weighted sum)."""

    role: str
    sentence: str
    hit: Hit
    matched: tuple[str, ...]
    score: float


def asks_who(text: str) -> bool:
    """An English question asking who does something ("who tells the other teams?", "During
    an outage, who pages the experts?")."""
    return _WHO.search(text) is not None


def question_verb(question: str) -> str:
    """The verb of a "who …" question, lower-case ("who's supposed to page …" → ``page``),
    or ``""`` when what follows "who" is no content word or the question asks whom the asker
    acts on ("who do I tell?")."""
    m = _VERB.search(question)
    if not m or m.group("subj"):
        return ""  # "who do I tell?" asks whom to tell: the role is the object, not the one acting
    v = m.group("verb").casefold()
    return v if T.content_words(v) else ""


def verb_forms(verb: str) -> list[str]:
    """``verb`` and its equivalents of ``bot/lexicon/words.yaml`` key ``who_verbs`` (one group
    per meaning: "tell" ~ "notify" ~ "inform"; a gerund "communicating" joins the group of
    "communicate"), as stems (:func:`_stem`: "tells" → ``tell``, "page" → ``pag``) that match
    their inflections."""
    base = T.singular(verb)
    forms = [base]
    for group in words.lexicon().get("who_verbs") or []:
        if any(base == g or verb == g or (verb.endswith("ing") and _stem(verb) == _stem(g)) for g in group):
            forms += [g for g in group if g not in forms]
    return list(dict.fromkeys(_stem(f) for f in forms))


def _stem(verb: str) -> str:
    """The stem a verb's inflections start with: a final "e" of a verb of 4+ letters dropped
    ("page" → ``pag``); a gerund's "ing" dropped, and a doubled final consonant before it
    ("communicating" → ``communicat``, "running" → ``run``, "paging" → ``pag``)."""
    v = verb.casefold()
    if v.endswith("ing") and len(v) >= 6:
        v = v[:-3]
        return v[:-1] if len(v) >= 3 and v[-1] == v[-2] and v[-1] not in "aeiouls" else v
    return v[:-1] if v.endswith("e") and len(v) >= 4 else v


def _has_verb(forms: list[str], sent: str) -> bool:
    return any(re.search(rf"\b{re.escape(f)}[a-z]{{0,4}}\b", sent, re.I) for f in forms)


def roles_of(kb, cache: dict) -> list[tuple[str, str]]:
    """(surface case-folded, role name) of every role name and alias, longest first (cached per build)."""
    key = ("who-roles", str(kb.graph.path))
    got = cache.get(key)
    if got is None:
        pairs = {(n.surface.casefold(), n.name) for n in kb.names if n.type == "role" and n.surface and len(n.surface) >= 2}
        got = sorted(pairs, key=lambda p: -len(p[0]))
        cache[key] = got
    return got


def _df(kb, cache: dict) -> tuple[dict[str, int], int]:
    """Document frequency of the Latin content words over the KB's passages, and their count (cached per build)."""
    key = ("who-df", str(kb.graph.path))
    got = cache.get(key)
    if got is None:
        df: dict[str, int] = {}
        rows = kb.graph.query("MATCH (c:Chunk) RETURN c.text AS text")
        for r in rows:
            for w in set(T.singular(x) for x in T.content_words(r["text"] or "")):
                df[w] = df.get(w, 0) + 1
        got = (df, max(1, len(rows)))
        cache[key] = got
    return got


def section_role(section: str, roles: list[tuple[str, str]]) -> str:
    """The role whose name or alias (or its plural in "s") titles ``section`` (its deepest heading
    naming one), or ``""``."""
    for part in reversed([p.strip().casefold() for p in (section or "").split(">")]):
        for surface, name in roles:
            if re.search(rf"(?<![\w-]){re.escape(surface)}s?(?![\w-])", part):
                return name
    return ""


def read_who(kb, question: str, hits: list[Hit], named_roles: list[str], cache: dict) -> WhoReading | None:
    """The best :class:`WhoReading` for ``question`` among ``hits`` and the passages a full-text
    search for its content words finds, or ``None`` when no sentence in a role's section shares
    :data:`MIN_WORDS` of them. ``named_roles``: names and surfaces of the roles the question names."""
    filler = set(words.lexicon().get("who_filler") or [])
    named = {x.casefold() for x in named_roles}
    want = list(dict.fromkeys(T.singular(w) for w in T.content_words(question)))
    want = [w for w in want if w not in filler and w != "who"]
    verb = question_verb(question)
    if not verb or verb in filler or len(want) < MIN_WORDS:
        return None
    forms = verb_forms(verb)
    vkey = T.singular(verb)
    roles = roles_of(kb, cache)
    if not roles:
        return None
    df, n = _df(kb, cache)
    weight = {w: math.log((n + 1) / (df.get(w, 0) + 1)) + 0.1 for w in want}
    total = sum(weight.values()) + (0.0 if vkey in weight else 1.0)
    pool = list(hits)
    seen = {h.id for h in pool}
    # the verb with each other word, rarest first: a full-text search for all of them at once
    # ranks passages that repeat one common word above the one sentence holding two rare ones
    others = sorted((w for w in want if w != vkey), key=lambda w: -weight[w])[:PAIR_SEARCHES]
    try:
        for query in [" ".join(want)] + [f"{verb} {w}" for w in others]:
            got = kb.vectors.search(query, None, limit=PAIR_LIMIT if query != " ".join(want) else SEARCH_LIMIT, mode="fts")
            pool += [h for h in got if h.id not in seen]
            seen = {h.id for h in pool}
    except Exception:  # noqa: BLE001 - no full-text index: read what was retrieved
        pass
    best: WhoReading | None = None
    for h in pool:
        role = section_role(h.section, roles)
        if not role or role.casefold() in named:
            continue  # a role the question names is not who it asks for ("when the IC asks")
        text = h.text or ""
        for s, e in sentence_spans(text):
            for line in text[s:e].splitlines():
                sent = line.strip(" -*\t")
                if not sent:
                    continue
                if not _has_verb(forms, sent):
                    continue  # the sentence must state the asked action (or an equivalent)
                matched = tuple(dict.fromkeys((vkey,) + tuple(w for w in want if has_word(w, sent))))
                if len(matched) < MIN_WORDS:
                    continue
                score = sum(weight.get(w, 1.0) for w in matched)
                if score < MIN_COVER * total:
                    continue  # the sentence shares too little of what the question asks
                if best is None or score > best.score:
                    best = WhoReading(role, sent, h, matched, score)
    return best


def who_text(lang: str, r: WhoReading) -> str:
    """The answer: the role, then the quoted sentence and its section."""
    quote = r.sentence if len(r.sentence) <= QUOTE_CHARS else r.sentence[:QUOTE_CHARS - 1] + "…"
    if lang == "zh":
        return f"{r.role}：“{quote}”（{r.hit.section}）"
    return f"The {r.role}: \"{quote}\" ({r.hit.section})"
