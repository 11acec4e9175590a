"""Retrieve and compose: the two middle steps of the core, through the
handler of the question's intent (:mod:`threadgraph.bot.intents`).

``retrieve(c)`` asks the handler for its graph facts (graph modes), then adds
passages: in hybrid mode the chunks the facts were read from, otherwise (or
when there are none) a LanceDB search. ``compose(c, d)`` lets the handler word
its facts, decides whether the evidence answers the question, falls back to
passages for open-ended intents and in vector mode, and otherwise says what
is missing (with "did you mean" names). Nothing here names an intent.
"""

from __future__ import annotations

import re

from ..knowledge import retrieval as R
from ..knowledge import text as T
from ..knowledge.text import is_cjk_char
from . import constraints, intents, reader, scope, words
from .answer import Answer, EntityRef, Fact, Passage
from .citations import citations, doc_titles
from .compose import (best_sentence, excerpt, family_text, glossed, join, lead_passage, list_continuation,
                      not_found_text, passages_text, sentences_of, t, word_cut)
from .evidence import VECTOR_FOUND_MIN, content_words, absent_dish_words, absent_names, lexical_support, passages_support, query_text, question_support, search_passages, says_down
from .sentences import lead_sentence
from .who import roles_of as who_roles, section_role
from .linker import Mention
from .passages import pointers
from .intents import Context, Draft
from .words import asks_quantity, states_quantity

#: Facts an answer carries at most.
MAX_FACTS = 40


def retrieve(c: Context) -> Draft:
    """The evidence for ``c.q``: the handler's graph facts (modes ``hybrid``
    and ``graph``) and the passages (modes ``hybrid`` and ``vector``). A
    question with a dangling pronoun retrieves nothing."""
    if c.q.dangling_pronoun:
        return Draft()
    _own_docs(c)
    _link_in_recipe(c)
    h = intents.get(c.q.intent)
    d = (h.retrieve(c) if c.use_graph else None) or Draft()
    hits = []
    if c.use_passages and d.facts and c.mode == "hybrid":
        # the passages the facts were read from: exact evidence, no search needed
        hits = R.source_chunks(c.graph, [(f.doc, f.line) for f in d.facts[:12]], limit=3)
    if c.use_passages and not hits:
        hits = search_passages(c.kb, c.q, bool(d.facts), c.mode, c.settings.retrieval_limit)
    d.hits = hits
    d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                  for h in hits]
    return d


def _own_docs(c: Context) -> None:
    """A context recalled from memory gets the document it is defined in (a mention read
    from the text has it from the linker): passages from that document are its own, both for
    the passage search and for deciding that they answer."""
    for m in c.q.ctx:
        if m.id and not m.doc and m.method == "memory":
            rows = c.graph.query("MATCH (e:Entity) WHERE e.id = $id AND e.doc <> '' RETURN e.doc AS doc", {"id": m.id})
            if len(rows) == 1:
                m.doc = rows[0]["doc"]


def _link_in_recipe(c: Context) -> None:
    """A Chinese name the KB does not know, asked about a known recipe, is the one thing of that
    recipe whose name (or a recorded alias) ends with it: Chinese compounds are head-final, so
    "米饭" asked about a recipe listing "熟米饭" is that 熟米饭. Linked only when exactly one of the
    recipe's things ends so; the mention moves from ``q.unknown`` to ``q.items``."""
    q = c.q
    if not q.unknown or not c.ctx or not c.ctx.id or c.ctx.type != "recipe" or not c.use_graph:
        return
    facts = c.contains(c.ctx.id)
    index = c.surfaces()
    for m in list(q.unknown):
        s = m.surface.strip()
        if len(s) < 2 or not all(is_cjk_char(ch) for ch in s):
            continue
        hits = {f.object_id: f for f in facts if f.object_id
                and any(x.endswith(s) and x != s for x in index.get(f.object_id, set()) | {f.object})}
        if len(hits) != 1:
            continue
        f = next(iter(hits.values()))
        q.unknown.remove(m)
        # the asked slot comes first: a name found elsewhere in the question (inside the dish's name) after it
        q.items.insert(0, Mention(m.surface, f.object, f.object_type or "ingredient", f.object_id, m.start, "contained"))


def compose(c: Context, d: Draft) -> Answer:
    """The :class:`Answer` to ``c.q`` from the evidence ``d`` (see the module docstring)."""
    q, lang, mode = c.q, c.lang, c.mode
    if q.dangling_pronoun:
        return Answer(thread=c.thread, question=q.text, intent=q.intent, found=False, language=lang,
                      answer=t(lang, "我不确定你指的是哪道菜或哪个东西，能说一下名字吗？",
                               "I'm not sure what you are referring to — which dish, item or role do you mean?"))
    h = intents.get(q.intent)
    if d.facts:
        h.compose(c, d)
        d.text = as_written(c, d.facts, d.hits, d.text)
    d.found = bool(d.facts) and bool(d.text or h.facts_suffice)
    h.use_passages(c, d)
    if not d.found and h.open_ended and d.passages and mode != "graph":
        good = [p for p in d.passages if mode != "vector" or p.score >= VECTOR_FOUND_MIN]
        if good and passages_support(q, d.hits):
            d.text = _open_text(c, h, d, good)
            d.found = True
    if mode == "vector" and d.passages:
        good = [p for p in d.passages if p.score >= VECTOR_FOUND_MIN]
        if good:
            d.text = _open_text(c, h, d, good)
            d.found = True
    if h.open_ended:
        _optional_step(c, d)
    h.extend(c, d)
    if not d.found and mode != "graph" and d.passages:
        _read(c, d)
    if not d.found and mode != "graph" and d.hits and h.reads_parts and not d.facts:
        _read_parts(c, d)
    if not d.found and mode == "hybrid" and d.hits and not h.open_ended and not d.facts:
        _read_echo(c, d)
    if not d.found:
        _optional_step(c, d)
    if not d.found and mode == "hybrid" and d.passages and not d.facts and _passages_answer(c, d):
        # a runbook question whose relation the graph does not hold (no stand-in, no fallback
        # recorded): the passages that state it answer, as they would without the graph
        d.text = _open_text(c, h, d, d.passages)
        d.found = True
    if not d.found and mode == "hybrid" and c.lang == "en" and not d.facts:
        # the last resort: a sentence writing the question's condition word for word
        _condition_echo(c, d)
    if d.found and not d.facts and asks_quantity(q.text) and not states_quantity(d.text):
        # "how long do we keep recordings?" answered by passages that state no amount or
        # duration: they are about the topic, not an answer
        d.found = False
    if d.found:
        _value_check(c, d)
    if d.found and (not d.facts or d.parts.get("neighbourhood")) and mode != "graph":
        # an answer from passages (or from facts merely near the linked names) about a name the
        # documents never mention is no answer
        linked = [m.surface for m in q.ctx + q.items + q.roles] + [m.name for m in q.ctx + q.items + q.roles]
        gone = absent_names(q.text, c.kb, linked, [f"{h.section}\n{h.text}" for h in d.hits])
        if not gone and q.asked_ctx and not q.ctx:
            gone = absent_dish_words(q.asked_ctx, c.kb, linked)  # "how do I make beef bourguignon?"
        if gone:
            d.found = False
            q.unknown = [Mention(gone[0], gone[0], "unknown", None, -1, "unknown", score=0.0)] + q.unknown
    if d.found and q.asked_ctx and not q.ctx and h.whole_dish and len(_asked_family(c)) >= 2:
        # "<dish>怎么做？" where no recipe is called so but several are kinds of it: which one is asked
        # (passages of one of them, or of all, would answer another question than the user's)
        d.found = False
        q.unknown = [Mention(q.asked_ctx, q.asked_ctx, "unknown", None, -1, "unknown", score=0.0)] + q.unknown
    if d.found and q.candidate is not None and not q.candidate.id and mode != "graph":
        # "can we use <name> instead of X?" about a name the documents never write: what they say
        # about X's stand-ins is no answer about it
        cand = q.candidate.surface.casefold()
        gone = [x for x in absent_names(q.text, c.kb, [], [f"{h.section}\n{h.text}" for h in d.hits])
                if x.casefold() in cand]
        if gone:
            d.found = False
            q.unknown = [Mention(gone[0], gone[0], "unknown", None, -1, "unknown", score=0.0)] + q.unknown
    if d.found and not d.facts and mode != "graph":
        _uncovered_condition(c, d)
    if not d.found and d.parts.get("condition_missing"):
        # "what do I do if <thing> is down?" where no passage read speaks of <thing> being down
        thing = d.parts["condition_missing"]
        d.text, d.follow_ups = t(lang, f"文档里没有提到{thing}不可用时怎么办。",
                                 f"The documents do not cover {thing} being down."), []
        d.facts = []
        d.passages = d.passages[:2]
        if d.passages:
            d.text += "\n\n" + t(lang, "相关内容：", "Related: ") + excerpt(d.passages[0].text, q.text, 200, whole_list=False)
    elif not d.found and d.parts.get("value_missing"):
        # a specific value the passages do not hold: say so, the closest passage as related
        d.text, d.follow_ups = _value_missing_text(c, d.parts["value_missing"]), []
        d.facts = []
        d.passages = d.passages[:1]
        if d.passages:
            d.text += "\n\n" + t(lang, "相关内容：", "Related: ") + excerpt(d.passages[0].text, q.text, 200, whole_list=False)
    elif not d.found:
        d.text, d.follow_ups = _not_found(c, h)
        d.facts = []
        d.passages = d.passages[:2] if d.passages and mode != "graph" and passages_support(q, d.hits) else []
        if q.unknown and len(_family(c, q.unknown[0].surface)) >= 2:
            d.passages = []  # "which one do you mean?": a passage of one of them would pre-empt the choice
        if d.passages:
            d.text += "\n\n" + t(lang, "相关内容：", "Related: ") + excerpt(d.passages[0].text, q.text, 200, whole_list=False)
    d.text = _constrained(c, h, d)
    d.text = _reading_note(c) + (_elsewhere_note(c) if d.found and d.facts and not d.parts.get("family") else "") + d.text
    entities = [EntityRef(name=m.name, type=m.type, id=m.id) for m in q.ctx + q.items + q.roles + q.excluded + q.unknown]
    facts = _dedupe(d.facts)[:MAX_FACTS]
    sources = citations(c.kb, c.settings, facts, d.passages, answer=d.text)
    # KB names of the other language written with their names in the question's ("English (中文)")
    text = glossed(d.text, lang, c.glossary()) if _other_script(lang, d.text) else d.text
    return Answer(
        thread=c.thread, question=q.text, intent=q.intent, found=d.found, answer=text, language=lang,
        entities=entities, facts=facts, passages=d.passages, follow_ups=d.follow_ups, sources=sources,
    )


def _other_script(lang: str, text: str) -> bool:
    """Whether ``text`` (an answer in ``lang``) writes anything in the other language's script:
    a Chinese character in an English answer, a Latin letter in a Chinese one."""
    return T.has_cjk(text) if lang != "zh" else re.search(r"[A-Za-z]", text) is not None


#: Passages whose sentences are searched for the asked value when the answer text holds none.
VALUE_PASSAGES = 3


def _value_check(c: Context, d: Draft) -> None:
    """A question asking for a specific value (an identifier, an address, a date, a version…:
    :func:`threadgraph.bot.words.value_kind`) is answered (from facts or passages) only when a
    sentence holds a value of that kind beside a word of the question
    (:func:`~threadgraph.bot.words.value_sentence`): the answer text's own, or else one of the
    first cited passages' (then that sentence is the answer, its passage cited first). When none
    does, ``d.found`` becomes False and ``d.parts["value_missing"]`` names the kind: the documents
    do not state it (a passage merely about the topic is no answer)."""
    kind = words.value_kind(c.q.text)
    if not kind:
        return
    asked = content_words(c.q.text) + T.cjk_bigrams(c.q.text)
    if words.value_sentence(kind, d.text, asked):
        return
    for h in d.hits[:VALUE_PASSAGES]:
        s = words.value_sentence(kind, h.text, asked)
        if s:
            d.text = s
            lead = [p for p in d.passages if p.id == h.id]
            d.passages = lead + [p for p in d.passages if p.id != h.id]
            return
    d.found = False
    d.parts["value_missing"] = kind


#: Passages read for a sentence about the asked thing being down (:func:`_uncovered_condition`).
CONDITION_PASSAGES = 8


def _uncovered_condition(c: Context, d: Draft) -> None:
    """A question whose condition is that a thing is out of service ("what do I do if <thing> is
    down?": ``down_condition`` of ``bot/lexicon/words.yaml``, English) answered from passages:
    when none of the first :data:`CONDITION_PASSAGES` read holds a sentence naming the thing (all
    its content words) together with one of ``down_words``, the documents do not cover that
    case: ``d.found`` becomes False and ``d.parts["condition_missing"]`` is the thing as written
    (the answer says so, the closest passage shown as related)."""
    thing = words.down_thing(c.q.text) if c.lang == "en" else ""
    if not thing:
        return
    if any(says_down(thing, f"{h.section}\n{h.text}") for h in d.hits[:CONDITION_PASSAGES]):
        return
    d.found = False
    d.parts["condition_missing"] = thing


def _value_missing_text(c: Context, kind: str) -> str:
    """"The documents do not state <what was asked>.": the asked phrase as the question writes
    it (:func:`~threadgraph.bot.words.value_phrase`), else the label of the asked ``kind`` of
    value ("that identifier")."""
    what = words.value_phrase(c.q.text) or words.value_label(kind, c.lang)
    return t(c.lang, f"文档里没有写明{what}。", f"The documents do not state {what}.")


def _asked_family(c: Context) -> list[str]:
    """The recipes that are kinds of the dish the question named but the KB does not
    link (``q.asked_ctx``): names containing it, or containing a cross-language equivalent of it
    (``knowledge/lexicon/bilingual.yaml``: an English dish name → its Chinese name); ``[]`` when the question
    linked its dish or named none."""
    from ..knowledge import bilingual

    q = c.q
    if not q.asked_ctx or q.ctx:
        return []
    for what in [q.asked_ctx] + bilingual.equivalents(q.asked_ctx, ("recipe",)):
        fam = _family(c, what, ("recipe",))
        if fam:
            return fam
    return []


def _elsewhere_note(c: Context) -> str:
    """A first line for an answer from other recipes when the question named a dish the KB does not
    link ("what can I use instead of X in <dish>?"): that no recipe is called so, and the
    recipes that are kinds of it when there are any; ``""`` when the question's dish was linked or
    it asked about no ingredient or tool."""
    q = c.q
    if not q.asked_ctx or q.ctx or not any(m.type in ("ingredient", "tool") for m in q.items):
        return ""
    fam = _asked_family(c)
    shown = join(c.lang, fam[:4]) + (t(c.lang, f"等 {len(fam)} 个", f" and {len(fam) - 4} more") if len(fam) > 4 else "")
    return t(c.lang, f"（知识库里没有叫“{q.asked_ctx}”的菜谱" + (f"；名字相近的有：{shown}" if fam else "") + "。以下是别的菜谱里的记录。）\n",
             f"(No recipe called “{q.asked_ctx}” in the knowledge base" + (f"; recipes like it: {shown}" if fam else "")
             + ". This is what other recipes say.)\n")


def _reading_note(c: Context) -> str:
    """A first line saying which recipe or document a misspelled or partly typed name was read
    as ("(I took "chocolate chip cookies" to mean …; also close: …)"), when the linker matched it
    fuzzily or other titles were as close; ``""`` otherwise (an exact name, or one from memory)."""
    notes = []
    for m in c.q.ctx:
        if not m.id or m.method == "memory":
            continue
        # a typed word the title does not have ("carmel", "crust"): the slot was read as part of it
        # (the whole title typed with more words after it, "… cheesecake crust", needs no note)
        partial = (bool(m.typed) and m.name.casefold() not in m.typed.casefold()
                   and bool(set(m.typed.casefold().split()) - set(m.name.casefold().split())))
        if not (m.method == "fuzzy" or m.near or partial):
            continue
        typed = m.typed or m.surface
        also = ", ".join(m.near)
        notes.append(t(c.lang, f"（按“{typed}”理解为{m.name}" + (f"；相近的还有{also}" if also else "") + "。）",
                       f'(I took "{typed}" to mean {m.name}' + (f"; also close: {also}" if also else "") + ".)"))
    return "".join(n + "\n" for n in notes)


def _open_text(c: Context, h: intents.Intent, d: Draft, passages: list[Passage]) -> str:
    """An open answer from ``passages`` (:func:`passages_text`), led by the sentence that
    answers best by meaning and words when it clearly beats the lexical choice
    (:func:`lead_sentence`, with the question's vector the passage search computed, or computed
    once here when the passages came without a search); the lead passage becomes
    ``d.passages``' first, so the answer's first citation is it."""
    question = h.excerpt_question(c)
    passages = pointers_last(passages, doc_titles(c.kb))
    ranked = []
    # a definition question's passages come defining ones first (the search's own order)
    emb = c.kb.embedder if question and passages and not c.q.definition else None
    if emb is not None:
        if c.q.vector is None:
            c.q.vector = emb.embed_query(query_text(c.q.text))
        ranked = lead_sentence(passages, question, c.q.vector, emb)
    first = ranked[0][0] if ranked else lead_passage(passages, question) if question else 0
    if passages and question:
        ranked = _from_section_start(c, passages, first, question, ranked)
    if first:
        lead = passages[first]
        d.passages = [lead] + [p for p in d.passages if p is not lead]
    scoped = _per_role_text(c, d, passages[first]) if passages else ""
    if scoped:
        return scoped
    text = passages_text(c.lang, passages, question=question, ranked=ranked or None)
    return _continue_list(c, d, passages[first], text) if passages else text


def pointers_last(passages: list, titles: dict[str, str]) -> list:
    """``passages`` (anything with a ``text``) with the link lists among them (an index, a table of
    contents: list items naming KB documents, ``titles`` doc → title, see
    :func:`~threadgraph.bot.passages.pointers`) after the others, each group in its order: a list of
    where to read is no answer to lead with. Unchanged when all or none are link lists."""
    lists = {id(p) for p in passages if pointers(p.text or "", titles)}
    if not lists or len(lists) == len(passages):
        return passages
    return [p for p in passages if id(p) not in lists] + [p for p in passages if id(p) in lists]


#: Content words a passage's own heading must share with the question for the passage to be the
#: section about what it asks.
HEADING_SHARED = 2
#: Characters the lead excerpt may take from its section's start to the end of the sentence chosen
#: to lead (the lead excerpt's own limit, :func:`threadgraph.bot.compose.passages_text`).
SECTION_START_CHARS = 320


def heading_names(section: str, question: str) -> bool:
    """The last heading of ``section`` (a section path "A > B") names what ``question`` asks: of
    its content words (numbers left out: "3.1 Incident Lead"), at least :data:`HEADING_SHARED`
    occur among the question's, or all of them when it has fewer."""
    head = section.split(" > ")[-1].strip()
    own = [w for w in content_words(head) if not w.isdigit()] if head else []
    asked = set(content_words(question))
    return bool(own) and sum(1 for w in own if w in asked) >= min(HEADING_SHARED, len(own))


def within_start(sentences: list[str], chosen: int, limit: int = SECTION_START_CHARS) -> bool:
    """Sentence ``chosen`` (> 0) of ``sentences`` ends within ``limit`` characters of their start
    (each sentence's whitespace collapsed, one separator after each)."""
    return 0 < chosen < len(sentences) and sum(len(" ".join(x.split())) + 1 for x in sentences[:chosen + 1]) <= limit


def _from_section_start(c: Context, passages: list[Passage], first: int, question: str,
                        ranked: list[tuple[int, int, float]]) -> list[tuple[int, int, float]]:
    """``ranked`` (see :func:`lead_sentence`), with the lead passage ``passages[first]`` read from
    its first sentence when that passage opens a section whose own heading names what the question
    asks (it shares at least :data:`HEADING_SHARED` of the question's content words, or all of its
    own when it has fewer) and the sentence chosen to lead is within :data:`SECTION_START_CHARS` of
    that start: the section about the asked thing answers from its beginning ("Responsibilities:
    - …" over its fourth item that repeats the question's words), the chosen sentence still shown.
    ``ranked`` unchanged otherwise (or without the graph)."""
    lead = passages[first]
    if not c.use_graph or not lead.doc or not heading_names(lead.section or "", question):
        return ranked
    sentences = sentences_of(lead.text or "")
    chosen = ranked[0][1] if ranked and ranked[0][0] == first else best_sentence(sentences, question)[0]
    if not within_start(sentences, chosen):
        return ranked
    chunks = R.doc_chunks(c.graph, lead.doc)
    at = next((i for i, h in enumerate(chunks) if h.id == lead.id), None)
    if at is None or (at > 0 and (chunks[at - 1].section or "") == (lead.section or "")):
        return ranked  # the passage is not the section's first chunk
    score = ranked[0][2] if ranked else 0.0
    return [(first, 0, score)] + [r for r in ranked if r[0] != first]


def _continue_list(c: Context, d: Draft, lead: Passage, text: str) -> str:
    """``text`` (an open answer whose first paragraph is an excerpt of ``lead``) with the rest of
    the list that excerpt stops inside when chunking cut it at ``lead``'s end: the leading list
    items of the document's next chunk in the same section (:func:`list_continuation`), added
    to the first paragraph; that chunk is then cited second. ``text`` unchanged otherwise (or in
    a mode without the graph)."""
    if not c.use_graph or not lead.doc or not text:
        return text
    head, sep, rest = text.partition("\n\n")
    chunks = R.doc_chunks(c.graph, lead.doc)
    at = next((i for i, h in enumerate(chunks) if h.id == lead.id), None)
    if at is None or at + 1 >= len(chunks) or (chunks[at + 1].section or "") != (lead.section or ""):
        return text
    nxt = chunks[at + 1]
    more = list_continuation(head, lead.text or "", nxt.text or "")
    if not more:
        return text
    if nxt.id not in {p.id for p in d.passages}:
        d.hits = [nxt] + list(d.hits)
    cited = Passage(id=nxt.id, doc=nxt.doc, section=nxt.section, text=nxt.text, score=round(nxt.score, 4), line=nxt.line)
    d.passages = [p for p in d.passages if p.id != nxt.id]
    d.passages.insert(1 if d.passages and d.passages[0].id == lead.id else 0, cited)
    return head + "\n" + more + sep + rest


def _per_role_text(c: Context, d: Draft, lead: Passage) -> str:
    """For a question asking what to do (:func:`threadgraph.bot.scope.asks_what_to_do`) whose
    answer would lead with a sentence of one role's section (a heading naming a role the question
    did not name) while the document gives several roles a section under the same parent heading:
    those sections, each with its first step (:func:`threadgraph.bot.scope.per_role_text`), cited
    in order (``d.passages``, ``d.hits``). ``""`` otherwise (the answer is read as before)."""
    if not scope.asks_what_to_do(c.q.text) or not lead.section:
        return ""
    roles = who_roles(c.kb, c._cache)
    asked = [x for m in c.q.roles for x in (m.name, m.surface) if x]
    if not roles or not section_role(lead.section.split(" > ")[-1], roles):
        return ""
    found = scope.per_role(lead.section, R.doc_chunks(c.graph, lead.doc), roles, asked)
    if not found:
        return ""
    text, shown = scope.per_role_text(c.lang, scope.parent(lead.section).split(" > ")[-1], found)
    hits = [s.hits[0] for s in shown]
    d.hits = hits + [h for h in d.hits if h.id not in {x.id for x in hits}]
    d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=1.0, line=h.line) for h in hits]
    return text


#: Longest surface (characters) taken as the written form of a name.
_WRITTEN_CHARS = 60


def _word_re(name: str) -> str:
    return rf"(?<![\w-]){re.escape(name)}(?![\w-])"


def as_written(c: Context, facts: list, hits: list, text: str) -> str:
    """``text`` with the Latin names of the ``facts`` written as the passages they were read
    from (``hits``) write them: a KB name that occurs there only inflected or in another
    recorded spelling ("butter bean" where the recipe says "butter beans") is replaced by that
    spelling, one of the entity's recorded surfaces. Names the passages write as they are, CJK
    names and names without a recorded surface in the passages are left alone."""
    if not text or not hits or not facts:
        return text
    source = "\n".join(h.text for h in hits)
    index = c.surfaces()
    mapping: dict[str, str] = {}
    for f in facts:
        for name, eid in ((f.subject, f.subject_id), (f.object, f.object_id)):
            if not (name and eid and name.isascii()) or name in mapping or name not in text:
                continue
            if re.search(_word_re(name), source, re.I):
                continue
            found = [x for x in index.get(eid, ()) if x and x.isascii() and x != name and len(x) <= _WRITTEN_CHARS
                     and not re.search(r"[:;,()\[\]]", x) and re.search(_word_re(x), source, re.I)]
            if found:
                mapping[name] = max(found, key=len).strip()
                continue
            m = re.search(rf"(?<![\w-]){re.escape(name)}(?:e?s)(?![\w-])", source, re.I)
            if m:  # written in the plural only ("black-eyed peas")
                mapping[name] = name + m.group()[len(name):].lower()
    if not mapping:
        return text
    rx = re.compile("|".join(_word_re(n) for n in sorted(mapping, key=len, reverse=True)))
    return rx.sub(lambda m: mapping[m.group()], text)


def _constrained(c: Context, h: intents.Intent, d: Draft) -> str:
    """The answer text with what the thread's constraints did
    (:func:`threadgraph.bot.constraints.annotate`): a found answer flags the
    recipes and items it is about that break one; any answer says which
    constraints filtered it (a "no evidence" answer too: what was found was
    ruled out); constraints stated beside the question are acknowledged."""
    if not c.screen:
        return d.text
    recipes = [(m.id, m.name) for m in c.q.ctx if m.id and m.type == "recipe"] if d.found else []
    items = [m.id for m in c.q.items if m.id] if d.found else []
    return constraints.annotate(c.screen, c.lang, recipes, d.text, items=items, acknowledge=not h.statement)


#: Entity types of runbooks and handbooks (not recipes): a question about them the graph cannot
#: answer falls back to the passages.
RUNBOOK_TYPES = ("role", "artifact", "concept", "document", "section")


def _passages_answer(c: Context, d: Draft) -> bool:
    """The passages answer a relation question the graph had nothing for: everything the
    question names is of a runbook type (a recipe question with no recorded substitute stays
    "no evidence"), the passages support the linked names, and the best one shares the
    question's content (section title included). A name the KB does not know ("a <kind>
    alternative to <tool>", "alternatives to <doing something>") does not stop it when the
    first passages write it (:func:`~threadgraph.bot.evidence.lexical_support`), or the rest of
    the question is supported by the best passage on its own, and none of the first passages is
    about a recipe."""
    q = c.q
    named = q.ctx + q.items + q.roles + q.excluded
    if not (named or q.unknown) or any(m.type not in RUNBOOK_TYPES for m in named):
        return False
    top = d.hits[:1]
    if not top or not question_support(q.text, f"{top[0].section}\n{top[0].text}"):
        return False
    if q.unknown:
        shown = d.hits[:3]
        if any(i.startswith("recipe:") for h in shown for i in h.entity_ids):
            return False
        head = f"{top[0].section}\n{top[0].text}"

        def written(m: Mention) -> bool:
            # the passages write it, or it is the task of a "how do I <verb phrase>" the question's
            # other words already find ("<tool> key lost, how do I get in?")
            return (any(lexical_support(m.surface, f"{h.section}\n{h.text}") for h in shown)
                    or question_support(q.text.replace(m.surface, " "), head))

        if not all(written(m) for m in q.unknown):
            return False
        if not named:
            return True
    return passages_support(q, d.hits)


def _read(c: Context, d: Draft) -> None:
    """The reader fallback (:mod:`threadgraph.bot.reader`): a passage sentence
    stating the asked relation about the asked entity answers, quoted; what it
    found is logged as candidate edges for review."""
    q = c.q
    if q.kind:  # which kind of item the recipe takes: its own lines about the item answer
        _read_item_lines(c, d)
        return
    asked = [n for m in q.items + q.roles + q.unknown for n in dict.fromkeys([m.name, m.surface]) if n]
    if not asked and q.ctx and q.asked_texts:
        # the item slot linked to nothing and was dropped ("葡国鸡的咖喱胆" split as 葡 + 国鸡的咖喱胆):
        # the slot text without the recipe's name ("咖喱胆") is what is asked about
        named_ctx = [x for m in q.ctx for x in (m.surface, m.name) if x]
        asked = [y for x in q.asked_texts for y in _tails(_after_ctx(x, named_ctx))
                 if y and y.casefold() not in {n.casefold() for n in named_ctx}]
    context = q.ctx[0].name if q.ctx else ""
    found = reader.read_passages(q.intent, asked, d.passages, context=context, lacked=_lacked(q))
    found = c.screen.keep_named(found, lambda r: r.y, c.linker)  # never propose what a constraint rules out
    unknown = [n for m in q.unknown for n in (m.surface, m.name) if n]
    if unknown:  # "must <unknown dish> have salt?": a sentence about salt in another recipe is no answer
        found = [r for r in found if any(n in r.sentence or n in r.doc for n in unknown)]
    if not found:
        _read_item_lines(c, d)
        return
    omits = getattr(intents.get(q.intent), "asks_to_omit", None)
    d.text = reader.reader_text(c.lang, q.intent, found, asks_need=omits is not None and not omits(q.text, c.lang))
    d.found = True
    ids = {r.passage_id for r in found}
    d.passages = [p for p in d.passages if p.id in ids] + [p for p in d.passages if p.id not in ids]
    reader.log_candidates(c.settings.data_dir, found, thread=c.thread)


def _read_parts(c: Context, d: Draft) -> None:
    """The reader fallback of an intent that ``reads_parts`` ("what goes into X?" where the graph
    holds nothing for X): the list the passages give under X (a sub-recipe's nested items, the
    list under a heading naming X) answers, quoted with where it stands (:func:`reader.read_parts`)."""
    q = c.q
    asked = [n for m in q.items + q.unknown + q.ctx for n in dict.fromkeys([m.surface, m.name]) if n]
    asked += [x for x in [q.asked_ctx] if x]
    parts = reader.read_parts(asked, d.hits)
    if parts is None:
        return
    d.text = reader.parts_text(c.lang, parts)
    d.found = True
    d.hits = [h for h in d.hits if h.id == parts.passage_id] + [h for h in d.hits if h.id != parts.passage_id]
    d.passages = [p for p in d.passages if p.id == parts.passage_id] + [p for p in d.passages if p.id != parts.passage_id]


def _read_echo(c: Context, d: Draft) -> None:
    """The question-echo reader (:func:`reader.echo_line`): a passage line writing the question's
    words before its wh-word, then what fills it, and naming the asked item answers, quoted."""
    q = c.q
    asked = [n for m in q.items + q.unknown + q.excluded for n in dict.fromkeys([m.surface, m.name]) if n]
    found = reader.echo_line(q.text, asked, d.hits, words.question_echo(c.lang))
    if found is None:
        return
    d.text = reader.item_line_text(c.lang, q.ctx[0].name if q.ctx else "", [found])
    d.found = True
    d.hits = [h for h in d.hits if h.id == found.passage_id] + [h for h in d.hits if h.id != found.passage_id]
    d.passages = [p for p in d.passages if p.id == found.passage_id] + [p for p in d.passages if p.id != found.passage_id]


#: Words (with its "if" / "when") a question's condition clause needs to be looked for as written.
ECHO_CLAUSE_WORDS = 4
#: Passages a full-text search for the clause returns, and words a sentence must say after it.
ECHO_CLAUSE_HITS = 8
ECHO_AFTER_WORDS = 3
_CONDITION = re.compile(r"\b(?:if|when|in case)\s+[^,;?!.]+", re.I)


def condition_clause(question: str) -> str:
    """The question's condition clause as written ("if the deploy tool is down"), whitespace
    normalised; ``""`` when it has none or it is shorter than :data:`ECHO_CLAUSE_WORDS` words."""
    m = _CONDITION.search(question)
    clause = " ".join(m.group().split()) if m else ""
    return clause if len(clause.split()) >= ECHO_CLAUSE_WORDS else ""


def clause_sentence(clause: str, hits) -> tuple[object, str] | None:
    """``(hit, sentence)``: the first sentence of ``hits`` (in order) writing ``clause`` word for
    word (case-insensitive, starting a word) with at least :data:`ECHO_AFTER_WORDS` words after it,
    what the documents say to do in that case; ``None`` when none does or ``clause`` is empty."""
    low = clause.casefold()
    if not low:
        return None
    for h in hits:
        for sent in sentences_of(h.text or ""):
            flat = " ".join(sent.split())
            at = flat.casefold().find(low)
            if at < 0 or (at > 0 and flat[at - 1].isalnum()):
                continue
            if len(flat[at + len(clause):].split()) >= ECHO_AFTER_WORDS:
                return h, flat
    return None


def _condition_echo(c: Context, d: Draft) -> None:
    """A question whose condition clause (:func:`condition_clause`: "… and what if the deploy tool
    is down?") a passage sentence writes word for word, followed by what to do ("If the deploy
    tool is down, deploy by hand from …"): the documents wrote that case down, and that
    sentence (:func:`clause_sentence` over the hits, then a full-text search for the clause)
    answers, quoted, with its passage cited first. Nothing changes otherwise."""
    clause = condition_clause(c.q.text)
    if not clause:
        return
    try:
        pool = c.kb.vectors.search(clause, None, limit=ECHO_CLAUSE_HITS, mode="fts")
    except Exception:  # noqa: BLE001 - no full-text index
        pool = []
    got = clause_sentence(clause, list(d.hits) + list(pool))
    if got is None:
        return
    h, flat = got
    where = (h.section or "").split(" > ")[-1].strip()
    d.text = t(c.lang, f"“{flat}”", f'"{flat}"') + (f" ({where})" if where else "")
    d.found = True
    d.hits = [h] + [x for x in d.hits if x.id != h.id]
    d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)] \
        + [p for p in d.passages if p.id != h.id]


def _lacked(q) -> list[str]:
    """The names (as written and linked) of the question's items, roles and unknown things that
    follow a negation cue ("没有", "without": :func:`~threadgraph.bot.words.negation_re`): what
    the user lacks, so a passage saying what to use instead answers whatever the intent."""
    rx = words.negation_re()
    out = []
    low = q.text.casefold()
    for m in q.items + q.roles + q.unknown + q.excluded:
        s = (m.surface or "").casefold()
        # every place the question writes it (a slot's mention offset may be the slot's own)
        at = [i for i in range(len(low)) if s and low.startswith(s, i)]
        if any(rx.search(low[max(0, i - 12):i]) for i in at):
            out += [n for n in dict.fromkeys([m.surface, m.name]) if n]
    return out


def _tails(text: str) -> list[str]:
    """A Chinese slot text and, when it holds "A里B" / "A的B", its last part B ("拌酱里雪碧" →
    "雪碧"): the thing asked about is the head of the phrase."""
    if not text or text.isascii():
        return [text]
    cut = max(text.rfind(ch) for ch in words.part_joiners())
    tail = text[cut + 1:] if cut >= 0 else ""
    return [text, tail] if len(tail) >= 2 else [text]


def _optional_step(c: Context, d: Draft) -> None:
    """"Must I …?" with no graph fact: a passage line marked optional about the same thing
    answers no (:func:`reader.optional_line`; hybrid mode)."""
    asked = f"{c.q.context_text} {c.q.text}" if c.q.context_text else c.q.text
    if d.facts or c.mode != "hybrid" or not d.hits or not words.need_question(c.lang).search(asked):
        return
    opt = reader.optional_line(asked, d.hits, words.optional_line(c.lang), first=c.q.text)
    if opt is not None:
        d.text = reader.optional_text(c.lang, opt)
        d.found = True


def _after_ctx(text: str, ctx_names: list[str]) -> str:
    """A slot text with the context's name cut off its start (a lazy pattern split that left
    part of the recipe name in the item slot: "…餐包里的牛奶" → "牛奶"), then the
    function characters that joined them ("里", "的")."""
    fn = words.function_chars()
    for name in ctx_names:
        if name.isascii():  # a Latin name is cut only whole
            if text.casefold().startswith(name.casefold() + " "):
                return text[len(name):].strip()
            continue
        for k in range(len(name), 1, -1):
            if text.startswith(name[-k:]):
                rest = text[k:].lstrip()
                while rest and rest[0] in fn:
                    rest = rest[1:]
                return rest
    return text


def _read_item_lines(c: Context, d: Draft) -> None:
    """The last reader fallback of an intent that ``reads_item_lines``: a line of the asked
    recipe's own document naming the asked item (or the stand-in the user proposes) with an
    alternative, a condition or "optional" answers, quoted (:func:`reader.read_item_lines`)."""
    q = c.q
    if not intents.get(q.intent).reads_item_lines:
        return
    ctx = q.ctx[0] if q.ctx else next((m for m in c.linker.scan(q.text) if m.type == "recipe" and m.id), None)
    if ctx is None or not ctx.id:
        return
    cand = [n for n in dict.fromkeys([q.candidate.surface, q.candidate.name]) if n] if q.candidate else []
    asked = [n for m in q.items + q.unknown + q.excluded for n in dict.fromkeys([m.surface, m.name]) if n]
    named_ctx = [x for m in q.ctx + [ctx] for x in (m.surface, m.name) if x]
    texts = [y for x in q.asked_texts if x not in cand for y in _tails(_after_ctx(x, named_ctx))]
    asked += [x for x in texts if x and x.casefold() not in {n.casefold() for n in named_ctx}]
    if not asked:
        asked, cand = cand, []
    hits = c.own_chunks(ctx)
    if q.focus or q.kind:  # about an item of the recipe: its other recorded names count too
        asked += [x for m in q.items if m.id for x in sorted(c.surfaces().get(m.id, ())) if x not in asked]
    # the recipe's lines are read in their own language (an English question about a Chinese recipe)
    cue = words.item_line_cue("zh" if T.has_cjk(ctx.name) else "en")
    lines = reader.read_item_lines(asked, hits, cue, candidates=cand,
                                   limit=3 if q.focus else 2, any_line=q.focus)
    if not lines:
        return
    d.text = reader.item_line_text(c.lang, ctx.name, lines)
    d.found = True
    ids = {x.passage_id for x in lines}
    used = [h for h in hits if h.id in ids]
    d.hits = used
    d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=1.0, line=h.line) for h in used]


#: Characters and (estimated) model tokens of an unknown phrase named, looked up for "did you
#: mean" and embedded: a longer phrase is no name.
MAX_UNKNOWN_CHARS = 40
MAX_UNKNOWN_TOKENS = 16


def _not_found(c: Context, h: intents.Intent) -> tuple[str, list[str]]:
    """"No evidence about X" and the "did you mean" names: for an unknown
    phrase, near KB names (fuzzy, then nearest name embeddings ≥ 0.92)."""
    q, lang = c.q, c.lang
    if q.unknown:
        what = q.unknown[0].surface
        short = query_text(word_cut(what, MAX_UNKNOWN_CHARS), MAX_UNKNOWN_TOKENS)
        if short != what:  # a long phrase is no name: bounded work, short answer
            what = short + "…"
        family = _family(c, what)
        if len(family) >= 2:  # a general dish name no recipe has, but several recipes are kinds of it: ask which
            q.choices, q.choice_of = family[:5], what
            return family_text(lang, what, family), family[:5]
        if q.unknown[0].method == "unknown" and what.casefold() in words.several_senses_en():
            # a word the question did not use in its food sense (a word of a company's name or a market sense): no food names
            return not_found_text(lang, what, []), []
        sugg = c.linker.suggest(what)
        if c.kb.embedder is not None and len(sugg) < 3:
            vec = c.kb.embedder.embed_query(what)
            for _id, name, _t, score in c.kb.vectors.nearest_entities(vec, limit=3):
                if score >= 0.92 and name not in sugg:
                    sugg.append(name)
        return not_found_text(lang, what, sugg[:3]), sugg[:3]
    return not_found_text(lang, h.missing(c), []), []


def _family(c: Context, what: str, types: tuple[str, ...] = ("recipe", "document")) -> list[str]:
    """Names of entities of ``types`` (recipes and documents) whose name contains ``what`` (at least
    2 characters, case-insensitive), shortest first: the kinds of a dish the question names only generally."""
    key = what.strip().casefold()
    if len(key) < 2:
        return []
    names = {n.name for n in c.kb.names if n.type in types and key in n.name.casefold()}
    return sorted(names, key=lambda x: (len(x), x))


def _dedupe(facts: list[Fact]) -> list[Fact]:
    seen, out = set(), []
    for f in facts:
        if f.id in seen:
            continue
        seen.add(f.id)
        out.append(f)
    return out
