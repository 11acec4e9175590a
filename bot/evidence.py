"""Passages as evidence: the LanceDB search for a resolved question, and the
tests that decide whether passages (or facts) support an answer.

Pure functions over a :class:`~threadgraph.bot.query.Query`, the KB and
:class:`~threadgraph.knowledge.vectors.Hit` lists; no intent is named here.
"""

from __future__ import annotations

import re

from ..knowledge import retrieval as R
from ..knowledge.facts import Fact
from ..knowledge import text as T
from ..knowledge.text import has_cjk
from ..knowledge.vectors import Hit
from . import words
from .linker import Mention
from .query import Query

#: Minimum cosine similarity for a vector-only hit to count as evidence.
VECTOR_FOUND_MIN = 0.86
#: Identifiers ("ABC-5", "HTTP-503") that must appear verbatim in a passage.
IDENTIFIER = re.compile(r"\b[A-Za-z]{2,}-?\d+\b")
_IDENTIFIER = IDENTIFIER
#: Labels of an item of a list or table ("P1", "L3", "Tier-2"): letters, then a number.
LABEL = re.compile(r"\b[A-Za-z]+-?\d+\b")
#: Model tokens of the question a passage search embeds and full-text searches (estimated by
#: :func:`token_estimate`). Embedding costs ~1 ms of CPU per token with e5-small on 2 cores, so the
#: rest of a long message is left out of the search (bounded work per message); 48 tokens hold
#: every question of the evaluation sets whole (the longest is ~35).
QUERY_TOKENS = 48
#: Content words a question naming a role must have besides the role's name to ask more than
#: what the role does ("what does the <role> do?" has none): then passages the search found for
#: the question come before sections that are only titled with the role (:func:`search_passages`).
ASKED_WORDS = 2
#: Identifiers searched for verbatim per question (each is one more full-text search).
MAX_IDENTIFIERS = 3
#: Chunks an identifier heads (table rows, list items, sections: :func:`~threadgraph.knowledge.retrieval.headed_chunks`)
#: added to the passages of a question naming it, per identifier.
HEADED_CHUNKS = 4
_TOKEN_PIECES = re.compile(r"[A-Za-z0-9]+|\s+|.", re.S)


def token_estimate(piece: str) -> int:
    """Model tokens a piece of :data:`_TOKEN_PIECES` costs, roughly as a multilingual WordPiece
    or SentencePiece tokenizer splits text: a Latin/digit run one per 4 characters (at least 1),
    whitespace none, any other character (CJK, punctuation, symbol) one."""
    if piece[0].isspace():
        return 0
    if piece[0].isascii() and piece[0].isalnum():
        return (len(piece) + 3) // 4
    return 1


def query_text(text: str, max_tokens: int = QUERY_TOKENS) -> str:
    """The start of ``text`` holding at most ``max_tokens`` estimated model tokens (see
    :func:`token_estimate`), cut between pieces (never inside a word); ``text`` when it fits."""
    total = 0
    for m in _TOKEN_PIECES.finditer(text):
        total += token_estimate(m.group())
        if total > max_tokens:
            return text[: m.start()].rstrip()
    return text


#: A capitalised multi-word name ("Some Role").
_PROPER_NAME = re.compile(r"(?:[A-Z][\w-]*\s+)+[A-Z][\w-]*")



def search_passages(kb, q: Query, has_facts: bool, mode: str, retrieval_limit: int) -> list[Hit]:
    """The passages for ``q``: a search (``vector`` mode: vector only; else
    hybrid vector + full text) restricted to the linked entities' documents
    when there are any (hybrid mode), widened when that finds nothing; in
    hybrid mode also full-text searches for linked role names (sections titled
    with them first), identifiers in the question (passages containing all of
    them first) and an asked term (definitions first). At most 3 hits when
    graph facts were found (``has_facts``), else 4. A long question is searched by its start
    (:func:`query_text`) and for at most :data:`MAX_IDENTIFIERS` identifiers. The question's
    vector is kept in ``q.vector`` (answers from passages rank their sentences by it)."""
    names = [m.name for m in q.ctx + q.items + q.roles + q.excluded if m.name]
    if q.context_text:
        # the follow-up's own words are always searched: the context gets the tokens they leave
        own = sum(token_estimate(m.group()) for m in _TOKEN_PIECES.finditer(q.text))
        text = query_text(f"{query_text(q.context_text, max(0, QUERY_TOKENS - own))} {q.text}".strip())
    else:
        text = query_text(q.text)
    if q.from_memory:
        # the remembered names, and a remembered dish no recipe is called (searched by its words)
        text += " " + " ".join(names + [q.asked_ctx] * (q.asked_ctx in q.from_memory))
    else:
        # names linked across languages (an English word for a Chinese KB name) are searched as the KB writes them
        other = [n for n in dict.fromkeys(names) if has_cjk(n) != has_cjk(q.text) and n not in text]
        if other:
            text += " " + " ".join(other)
    docs: list[str] = []
    if mode == "hybrid":
        docs = [m.doc for m in q.ctx if m.doc]
        if not docs and q.ctx + q.roles:
            ids = [m.id for m in q.ctx + q.roles if m.id]
            docs = R.docs_of(kb.graph, ids, limit=6) if ids else []
    vec = None
    if kb.embedder is not None:
        vec = q.vector = kb.embedder.embed_query(text)
    limit = 3 if has_facts else retrieval_limit
    if q.definition and mode == "hybrid":
        limit = max(limit, 16)
    search_mode = "vector" if mode == "vector" else "hybrid"
    hits = kb.vectors.search(text, vec, docs=docs or None, limit=limit, mode=search_mode)
    if not hits and docs:
        hits = kb.vectors.search(text, vec, limit=limit, mode=search_mode)
    verb = words.how_verb(q.text) if mode == "hybrid" and not q.ctx else ""

    def by_verb() -> None:
        # "how do I <verb> …?": a section whose own heading names the action ("<Tool> > <verb>
        # command", "<Verb>ing a release") says how to do it; the fused ranking often puts
        # passages sharing the question's other words first
        hits.sort(key=lambda h: 0 if has_word(verb, (h.section or "").split(" > ")[-1]) else 1)

    if verb:
        by_verb()
    if q.roles and mode == "hybrid":
        # a section titled with the role describes it best; full-text search for the
        # name alone finds it even when no chunk text repeats it
        seen = {h.id for h in hits}
        for m in q.roles:
            hits += [h for h in kb.vectors.search(m.name, None, limit=8, mode="fts") if h.id not in seen]
            seen = {h.id for h in hits}
        names = [m.name.casefold() for m in q.roles]
        searched = {h.id for h in hits[:limit]}
        asked = [w for w in content_words(q.text)
                 if not any(w in x.casefold() or x.casefold() in w for m in q.roles for x in (m.name, m.surface) if x)]

        def role_first(h: Hit) -> int:
            # a section titled with the role first, unless the question asks more than the role:
            # then only a role section whose heading also names what it asks leads ("<role> >
            # Escalation" for "what if the <role> misses the escalation?"), and the
            # passages the search found for the question come before role sections that merely
            # carry the name in their heading
            titled = any(n in (h.section or "").casefold() for n in names)
            if len(asked) < ASKED_WORDS:
                return 0 if titled else 1
            if titled and any(has_word(w, h.section or "") for w in asked):
                return 0
            return 1 if h.id in searched else 2 if not titled else 3

        hits.sort(key=role_first)
        if verb:
            # a role named in "how do I <verb> …?" is what the action is done to (the asker is
            # its subject): a section headed with the action still comes first
            by_verb()
        recalled = {m.doc for m in q.ctx if m.doc and m.method == "memory"}
        if recalled:
            # "do their leaders have to be ICs?": the remembered document the pronoun refers
            # to comes before the sections about the role named
            hits.sort(key=lambda h: 0 if h.doc in recalled else 1)
    if mode == "hybrid" and not q.ctx and q.asked_ctx and q.asked_ctx in q.from_memory:
        # a follow-up about the remembered dish no recipe is called: the sections titled with it first
        titled = R.titled_chunks(kb.graph, q.asked_ctx)
        ids = {h.id for h in titled}
        hits = titled + [h for h in hits if h.id not in ids]
    if q.context_text:
        # a follow-up searched with the previous question: passages saying what it asks itself first
        hits.sort(key=lambda h: 0 if question_support(q.text, f"{h.section}\n{h.text}") else 1)
    codes = identifiers(q.text) if mode == "hybrid" else []
    if codes:
        # identifiers must appear verbatim: search for them and put the passages
        # that contain every one of them first
        seen = {h.id for h in hits}
        for code in codes:
            hits += [h for h in kb.vectors.search(code, None, limit=16, mode="fts") if h.id not in seen]
            seen = {h.id for h in hits}
        hits.sort(key=lambda h: 0 if all(re.search(rf"\b{re.escape(c)}\b", h.text, re.I) for c in codes) else 1)
    labels = identifiers(q.text, LABEL) if mode == "hybrid" else []
    if len(labels) == 1:
        # one item named by its label ("a P1", "a P2 incident"): the table row, list item or
        # section that label heads is about that item itself, and comes before passages that
        # merely mention it (they are often about something else: "by the time it became a …")
        seen = {h.id for h in hits}
        headed = set()
        for h in R.headed_chunks(kb.graph, labels[0], limit=HEADED_CHUNKS):
            headed.add(h.id)
            if h.id not in seen:
                hits.append(h)
                seen.add(h.id)
        hits.sort(key=lambda h: 0 if h.id in headed else 1)
    if (mode == "hybrid" and not (q.ctx or q.items or q.context_text)
            and all(m.method == "memory" for m in q.roles)
            and not any(question_support(q.text, f"{h.section}\n{h.text}") for h in hits[:3])):
        # a question naming nothing itself (a role its pronoun recalls is not written in it) whose
        # first passages share little of it: a passage found further down that writes its content
        # leads ("can't make standup, where do I post my update?" — "If you can't make standup,
        # post your standup update here"; "if they disagree with the removal, who do they escalate
        # to?" — "If the … member disagrees with their removal decision. They can escalate to …")
        # … and writes every name the question asks about that the KB does not know ("which recipes use
        # saffron?" is not answered by a passage sharing only "recipe" and "use")
        hits.sort(key=lambda h: 0 if (question_support(q.text, f"{h.section}\n{h.text}")
                                      and all(lexical_support(m.surface, f"{h.section}\n{h.text}") for m in q.unknown))
                  else 1)
    if mode == "hybrid" and not q.ctx and not codes and len(labels) != 1 and not q.definition:
        hits = heading_echo(kb, q, hits)
    if q.definition and mode == "hybrid":
        # also a full-text search for the term alone, then definitions first (stable sort)
        seen = {h.id for h in hits}
        hits += [h for h in kb.vectors.search(q.definition, None, limit=24, mode="fts") if h.id not in seen]
        hits.sort(key=lambda h: 0 if defines(q.definition, h.text) else 1)
    return hits[:3] if has_facts else hits[:4]


#: Question words a heading must echo (more of them than the found passages' headings do) to lead.
ECHO_WORDS = 2
#: Share of the question's asked words an echoing heading must hold at least.
ECHO_SHARE = 0.5
#: Question words (the longest first) whose headings are looked up, and chunks read per word.
ECHO_LOOKUPS = 4
ECHO_SCAN = 200
#: Echoing chunks put first at most.
ECHO_LEAD = 2
#: Letters of a word's stem looked up in headings ("removed" → "remov" finds "Removal").
ECHO_STEM = 5


def heading_echo(kb, q: Query, hits: list[Hit]) -> list[Hit]:
    """``hits`` led by the chunks of a section whose heading path says what the question asks:
    it holds at least :data:`ECHO_WORDS` (and :data:`ECHO_SHARE`) of the question's content words
    that are not a linked name (:func:`has_word`: "removed" ~ "Removal"), more than the heading of
    any of the first three hits holds. A handbook titles its sections with what they tell ("<Member>
    Removal Rules" for "what are the reasons a <member> can be removed?"); a search restricted to a
    linked role's documents, or ranked by the role's name, misses such a section. ``hits`` unchanged
    when no heading echoes more (at most :data:`ECHO_LEAD` chunks, in document order, are put first)."""
    linked = [x.casefold() for m in q.ctx + q.items + q.roles for x in (m.name, m.surface) if x]
    asked = [w for w in dict.fromkeys(content_words(q.text)) if w.isascii()
             and not any(w in x or x in w for x in linked)]
    if len(asked) < ECHO_WORDS:
        return hits

    def echoed(h: Hit) -> int:
        return sum(1 for w in asked if has_word(w, h.section or ""))

    top = max((echoed(h) for h in hits[:3]), default=0)
    need = max(ECHO_WORDS, top + 1, int(ECHO_SHARE * len(asked) + 0.999))
    if need > len(asked):
        return hits
    found: dict[str, Hit] = {}
    for w in sorted(asked, key=len, reverse=True)[:ECHO_LOOKUPS]:
        for h in R.chunks_with_heading_word(kb.graph, w[:ECHO_STEM], limit=ECHO_SCAN):
            found.setdefault(h.id, h)
    scored = [(echoed(h), h) for h in found.values()]
    best = max((n for n, _ in scored), default=0)
    if best < need:
        return hits
    lead = [h for n, h in scored if n == best][:ECHO_LEAD]
    ids = {h.id for h in lead}
    return lead + [h for h in hits if h.id not in ids]


def identifiers(text: str, pattern: re.Pattern = IDENTIFIER) -> list[str]:
    """The identifiers (:data:`IDENTIFIER`, or the wider item labels of :data:`LABEL` when given
    as ``pattern``) ``text`` names, each once (compared ignoring case), in order, at most
    :data:`MAX_IDENTIFIERS`."""
    out: dict[str, str] = {}
    for m in pattern.finditer(text or ""):
        out.setdefault(m.group().casefold(), m.group())
    return list(out.values())[:MAX_IDENTIFIERS]


def headed_by(label: str, text: str) -> bool:
    """A line of ``text`` starts with ``label`` as its head: a table row ("<label> | …"), a list
    item or a labelled line ("- <label>: …"), or a line of its own; case-insensitive, a longer
    identifier ("<label>0", "<label>-b") is not it."""
    return re.search(rf"^\s*[-*]?\s*\**{re.escape(label)}\**(?![\w-])\s*(?:[|:\-–—(]|$)", text or "", re.I | re.M) is not None


def passages_support(q: Query, hits: list[Hit]) -> bool:
    """Passages count as evidence when they come from a linked context's
    document or mention a linked entity; when nothing was linked, when they
    contain an unknown phrase of the question, or (no unknown phrase) when the
    top hits share content with the question or one of them writes every proper
    name of the question (:func:`name_terms`, case-sensitive, whole words)."""
    ids = {m.id for m in q.ctx + q.items + q.roles if m.id}
    own_docs = {m.doc for m in q.ctx if m.doc}
    if any(h.doc in own_docs for h in hits):
        return True
    if ids:
        return any(ids & set(h.entity_ids) for h in hits) or any(
            m.name.casefold() in f"{h.section}\n{h.text}".casefold() for m in q.ctx + q.items + q.roles for h in hits)
    if q.unknown:
        # an unlinked phrase counts as found only if the passages actually contain it;
        # a capitalised name must occur as that phrase
        def supports(m: Mention, h: Hit) -> bool:
            if _PROPER_NAME.fullmatch(m.surface.strip()):
                return re.search(rf"\b{re.escape(m.surface.strip())}", h.text, re.I) is not None
            return lexical_support(m.surface, f"{h.section}\n{h.text}")

        return any(supports(m, h) for m in q.unknown for h in hits[:3])
    # a passage's section title is part of what it says ("Fail over checklist > Initial steps");
    # a follow-up is supported by passages sharing the earlier question's content with it, or its
    # own content alone (the earlier question's words, counted too, must not outvote its own)
    asked = [f"{q.context_text} {q.text}", q.text] if q.context_text else [q.text]
    if any(question_support(a, f"{h.section}\n{h.text}") for a in asked for h in hits[:3]):
        return True
    # the question's own proper names, every one written in one passage: its other words may be
    # said otherwise there (a question's "required" written as "must" in a heading)
    names = [n for n in name_terms(q.text) if len(n) >= 3]
    return bool(names) and any(all(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", f"{h.section}\n{h.text}") for n in names)
                               for h in hits[:3])


def lexical_support(phrase: str, text: str) -> bool:
    """True when ``text`` contains ``phrase`` (CJK: verbatim) or, for Latin
    text, at least half of its content words (prefix match, so "review"
    matches "reviews")."""
    if has_cjk(phrase):
        return phrase in text
    ws = T.content_words(phrase)
    if not ws:
        return False
    return sum(1 for w in ws if has_word(w, text)) * 2 >= len(ws)


def defines(term: str, text: str) -> bool:
    """True when ``text`` reads like a definition of ``term``: the term starts a
    line, a table row or a bold label and is followed by ``|``, ``-``, ``:``,
    ``(`` or a definition verb ("is", "are"). A trailing generic noun of the
    question ("ABC-1 incident") is dropped."""
    parts = term.split()
    candidates = [term] + ([" ".join(parts[:-1])] if len(parts) > 1 else [])
    verbs = "|".join(rf"\b{re.escape(v)}\b" for v in words.definition_verbs())
    for cand in candidates:
        rx = rf"(?:^|\n|\|)\s*(?:[-*]\s*)?\**{re.escape(cand)}\**\s*(?:\||-|–|:|{verbs}|\()"
        if re.search(rx, text, re.I):
            return True
    return False


def content_words(text: str) -> list[str]:
    """Lower-case content words of an English phrase in the singular
    (:func:`threadgraph.knowledge.text.content_words`, then ``singular``)."""
    return [T.singular(w) for w in T.content_words(text)]


def has_word(word: str, text: str) -> bool:
    """``word`` occurs in ``text`` as a whole word, allowing a short inflection
    ("review" ~ "reviews", "page" ~ "paged") but not another word
    sharing a prefix ("delete" is not "delegate")."""
    stem = T.singular(word)
    if re.search(rf"\b{re.escape(stem)}[a-z]{{0,4}}\b", text, re.I) is not None:
        return True
    same = words.synonyms(word) or words.synonyms(stem)
    if same and re.search(r"\b(?:" + "|".join(map(re.escape, same)) + r")\b", text, re.I) is not None:
        return True  # "kept" ~ "retained": one sense in other words
    m = _SUFFIX.match(stem)
    if m:  # "escalating" ~ "escalate", "escalation": the stem before a verb or noun ending
        base = m.group(1)
        return re.search(rf"\b{re.escape(base)}(?:e|es|ed|ing|ion|ions|ation|ations|er|ers|al|als)?\b", text, re.I) is not None
    # an adverb ~ its adjective: "temporarily" ~ "temporary", "quickly" ~ "quick", "automatically" ~ "automatic"
    bases = [b for b in _adverb_bases(stem) if len(b) >= ADVERB_BASE_CHARS]
    return any(re.search(rf"\b{re.escape(b)}(?:s|es|er|est|ness)?\b", text, re.I) is not None for b in bases)


#: Letters the adjective of an adverb needs to be looked for (shorter stems are other words: "supply").
ADVERB_BASE_CHARS = 5


def _adverb_bases(word: str) -> list[str]:
    """The adjectives an English ``-ly`` adverb may come from ("temporarily" → "temporary",
    "quickly" → "quick", "automatically" → "automatic"); ``[]`` for another word."""
    if not word.endswith("ly"):
        return []
    out = [word[:-2]]
    if word.endswith("ily"):
        out.append(word[:-3] + "y")
    if word.endswith("ally"):
        out.append(word[:-4])
    return out


#: A word with an inflection or derivation ending, the stem before it (at least 4 letters).
_SUFFIX = re.compile(r"^([a-z]{4,}?)e?(?:ing|ed|ation|ions?|es|er|ers)$")


def question_support(question: str, text: str) -> bool:
    """True when a passage shares enough content with a question that linked
    no entity: ≥ 40 % of its English content words (prefix match) or of its
    Chinese character bigrams without function characters. A question with no
    content (punctuation, emoji) is never supported."""
    ws = T.content_words(question)
    grams = T.cjk_bigrams(question)
    if not ws and not grams:
        return False
    hits = sum(1 for w in ws if has_word(w, text)) + sum(1 for g in grams if g in text)
    return hits >= max(1, 0.4 * (len(ws) + len(grams)))


def within_budget(facts: list[Fact], budget_chars: int) -> list[Fact]:
    """Keep facts in order while their rendered size (subject + relation +
    object + properties) fits ``budget_chars``."""
    out, used = [], 0
    for f in facts:
        size = len(f.subject) + len(f.relation) + len(f.object) + len(str(f.properties)) + 8
        if used + size > budget_chars:
            break
        out.append(f)
        used += size
    return out


_NAME_TERMS = re.compile(
    r"\b[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+\b"                      # CamelCase: "OpsGenie"
    r"|\b[A-Z][A-Za-z0-9]*(?:[.\-][A-Za-z0-9]+)+\b"             # dotted/hyphenated: "GOV.UK", "SEV-5"
    r"|\b[A-Z][a-z]+(?:\s+(?:of\s+)?[A-Z][a-z]+)+\b"             # multi-word: "Release Manager"
    r"|(?<=[a-z,;:] )[A-Z][a-z]{2,}\b"                           # a capitalized word mid-sentence: "in Akamai"
    r"|\b[A-Z]{3,}\b")                                           # an acronym: "GCP"


def name_terms(text: str) -> list[str]:
    """The proper names :func:`absent_names` looks for, as written in ``text``, in order, each
    once; a run of capitalised words that starts a sentence loses its first word ("Use Tool to …"
    names "Tool")."""
    out = []
    for m in _NAME_TERMS.finditer(text):
        term = m.group().strip()
        if _SENTENCE_START.match(text[:m.start()]) and " " in term and not term.split()[0].isupper():
            term = term.split(None, 1)[1]
        out.append(term)
    return list(dict.fromkeys(out))


#: What may stand before a sentence-initial word: nothing, or the end of a previous sentence.
_SENTENCE_START = re.compile(r"^(?:|.*[.!?]\s+)$", re.S)


#: Passages a full-text search for a name returns to decide that the documents never write it.
#: The index is of character 2–3-grams, so a short name ("ABC") also ranks every passage holding
#: a longer word with its letters ("fABCs"): a pool of five missed acronyms the documents write
#: many times; thirty costs as little CPU (~9 ms per name either way, measured on ops-18f).
ABSENT_POOL = 30


def absent_names(question: str, kb, linked: list[str], seen: list[str] = ()) -> list[str]:
    """Proper names the question asks about (CamelCase, dotted or hyphenated
    identifiers, runs of capitalized words, a capitalized word mid-sentence,
    acronyms) that the knowledge base holds nowhere: not a linked name (the
    ``linked`` surfaces), not a whole word of the ``seen`` texts (the passages
    already retrieved for the question: no search needed) and not in the text
    of any of the :data:`ABSENT_POOL` passages a full-text search for the name
    returns. A KB without passages finds nothing absent."""
    out = []
    low_linked = [x.casefold() for x in linked]
    seen_text = "\n".join(seen)
    for m in _NAME_TERMS.finditer(question):
        term = m.group().strip()
        if _SENTENCE_START.match(question[:m.start()]) and " " in term and term[:1].isupper() and not term.split()[0].isupper():
            # "Besides Route 53, …": the first word is capitalised because it starts the sentence
            # ("Which Jira project …" is still asked about "Jira")
            term = term.split(None, 1)[1]
        if term.casefold() in ("i", "what", "who", "how", "which", "when", "where", "why") or any(
                term.casefold() in x or x in term.casefold() for x in low_linked):
            continue
        word = re.compile(rf"(?<![\w]){re.escape(term)}(?![\w])", re.I)
        if seen_text and word.search(seen_text):
            continue
        try:
            hits = kb.vectors.search(term, mode="fts", limit=ABSENT_POOL)
        except Exception:  # noqa: BLE001 - no full-text index: nothing can be called absent
            return []
        if not any(word.search(f"{h.section}\n{h.text}") for h in hits):
            out.append(term)
    return out


#: Letters a word of an unlinked dish phrase needs to be looked up (shorter words are too common).
ABSENT_WORD_CHARS = 4


def absent_dish_words(phrase: str, kb, linked: list[str]) -> list[str]:
    """The head word of a recipe phrase the question wrote but no recipe or document was linked to
    ("beef bourguignon", "mint julep": English names are head-final) when the knowledge base holds it
    nowhere: its last Latin content word, of at least ``ABSENT_WORD_CHARS`` letters, not part of a
    linked name, starting a word in no passage a full-text search for it returns (a verb phrase a
    steps question leaves in the slot, "raise the home directory IOPS …", ends on what it acts on).
    A KB without passages finds nothing absent."""
    from ..knowledge import text as T

    out = []
    low_linked = " ".join(x.casefold() for x in linked)
    for w in T.content_words(phrase.casefold())[-1:]:
        if len(w) < ABSENT_WORD_CHARS or not w.isalpha() or not w.isascii() or re.search(rf"(?<!\w){re.escape(w)}", low_linked):
            continue
        try:
            hits = kb.vectors.search(w, mode="fts", limit=5)
        except Exception:  # noqa: BLE001 - no full-text index: nothing can be called absent
            return []
        # another form of the word counts ("raise" in "raised", "roll" in "rolling"): its stem, at least
        # ABSENT_WORD_CHARS letters, starting a word, or a form has_word() accepts (an adverb's adjective)
        stem = w[:max(ABSENT_WORD_CHARS, len(w) - 2)]
        if not any(re.search(rf"(?<![\w]){re.escape(stem)}", f"{h.section}\n{h.text}", re.I)
                   or has_word(w, f"{h.section}\n{h.text}") for h in hits):
            out.append(w)
    return out


def says_down(thing: str, text: str) -> bool:
    """Some sentence (or line) of ``text`` names ``thing`` (its head: the last content word, a
    whole word; "a whole AWS region" ~ "an entire AWS region") together with one of ``down_words`` (``bot/lexicon/words.yaml``): the text speaks of the
    thing being out of service or of its fallback. ``False`` for a thing with no content word."""
    terms = content_words(thing)
    if not terms:
        return False
    downs = [words.phrase_re(w) for w in (words.lexicon().get("down_words") or {}).get("en", [])]
    for sent in re.split(r"(?<=[.!?])\s+|\n+", text):
        if has_word(terms[-1], sent) and any(x.search(sent) for x in downs):
            return True
    return False
