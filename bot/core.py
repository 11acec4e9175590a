"""The conversation core: one entry point for every adapter and the CLI.

``IncomingMessage`` → load thread memory → understand (rules; the LLM when
configured and the rules are not confident) → resolve follow-ups from memory →
retrieve (Cypher on Kùzu + LanceDB hits) → compose an :class:`Answer`
(deterministic; the LLM rewrites it when configured, grounded in the same
evidence) → update memory → return.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..knowledge import retrieval as R
from ..knowledge.kb import KBHandle, KBNotFound, KnowledgeBase
from ..knowledge.retrieval import GraphFact
from ..knowledge.vectors import Hit
from . import compose as C
from .answer import Answer, EntityRef, Fact, Passage, Source
from .memory import RememberedEntity, ThreadMemory, ThreadState
from .message import IncomingMessage, ThreadKey
from .understand import INTENT_SLOTS, Linker, Mention, Understanding, detect_language, understand

log = logging.getLogger(__name__)

RETRIEVAL_MODES = ("hybrid", "graph", "vector")
_STEP_SECTIONS = re.compile(r"操作|做法|步骤|制作|steps?|instructions?|method|procedure|process", re.I)
#: Minimum cosine similarity for a vector-only hit to count as evidence.
VECTOR_FOUND_MIN = 0.86
ITEM_TYPES = ("ingredient", "tool")
CTX_TYPES = ("recipe", "document")


@dataclass
class Query:
    """A resolved question: intent plus the entities filling its slots."""

    intent: str
    language: str
    text: str
    ctx: list[Mention] = field(default_factory=list)  # recipes / documents
    items: list[Mention] = field(default_factory=list)  # ingredients / tools
    roles: list[Mention] = field(default_factory=list)
    excluded: list[Mention] = field(default_factory=list)
    unknown: list[Mention] = field(default_factory=list)
    reverse: bool = False  # stand_in: "what can X cover"
    candidate: Mention | None = None  # "can Y replace X?": the proposed stand-in
    task: str = ""  # "who is responsible for <task>"
    definition: str = ""  # "what is <term>" about something that is not a role
    dangling_pronoun: bool = False  # "它怎么做" with nothing in memory
    from_memory: list[str] = field(default_factory=list)


class ThreadGraphBot:
    """The threadgraph core.

    ``ThreadGraphBot(settings)`` opens the KB in ``settings.data_dir`` lazily
    (read-only, reloaded when ``threadgraph ingest`` swaps in a new build) and
    the thread memory (SQLite in the data dir). ``answer`` is synchronous and
    thread-safe; adapters call it from a worker thread.
    """

    def __init__(self, settings=None, *, kb: KBHandle | None = None, memory: ThreadMemory | None = None, embedder=None):
        from ..settings import Settings

        self.settings = settings or Settings()
        data_dir = Path(self.settings.data_dir)
        self.kb = kb or KBHandle(data_dir, self.settings, embedder=embedder)
        self.memory = memory or ThreadMemory(
            data_dir / "memory.sqlite",
            ttl_s=self.settings.memory_ttl_days * 86400,
            max_turns=self.settings.memory_max_turns,
        )
        self._linkers: dict[str, Linker] = {}
        self._lock = threading.Lock()
        self._llm = None
        self._llm_checked = False
        self._contains_cache: dict[tuple[str, str], list[GraphFact]] = {}

    # -- public ----------------------------------------------------------------
    def answer(self, message: IncomingMessage, retrieval: str = "hybrid") -> Answer:
        """Answer ``message`` in its thread. ``retrieval``: ``hybrid`` (graph +
        passages, the product), ``graph`` (Cypher only) or ``vector`` (LanceDB
        hits only; the evaluation baseline). Raises ``ValueError`` for an
        unknown mode; a missing KB yields a ``found=False`` answer."""
        if retrieval not in RETRIEVAL_MODES:
            raise ValueError(f"retrieval must be one of {RETRIEVAL_MODES}, not {retrieval!r}")
        key = message.thread.key()
        text = (message.text or "").strip()
        lang = detect_language(text)
        if not text:
            return Answer(thread=key, question="", intent="general", found=False, language=lang,
                          answer=C._t(lang, "请问你想了解什么？", "What would you like to know?"))
        try:
            kb = self.kb.get()
        except KBNotFound:
            return Answer(thread=key, question=text, intent="general", found=False, language=lang,
                          answer=C._t(lang, "知识库还没有建立：请先运行 threadgraph ingest。",
                                      "The knowledge base is empty: run `threadgraph ingest` first."))
        state = self.memory.load(key)
        state.turn += 1
        linker = self._linker(kb)
        u = understand(text, linker)
        budget = None
        llm = self._llm_client()
        if llm is not None:
            budget = llm.new_budget()
            if not u.confident:
                u = self._llm_understand(llm, budget, u, state, linker, kb)
        q = resolve(u, state)
        ans = self._retrieve_and_compose(kb, q, key, retrieval)
        if llm is not None and ans.found:
            ans = self._llm_compose(llm, budget, ans)
        self._remember(state, q, ans, text)
        self.memory.save(key, state)
        return ans

    def reset(self, thread: ThreadKey) -> None:
        """Forget the memory of ``thread``."""
        self.memory.reset(thread.key())

    # -- internals -------------------------------------------------------------
    def _linker(self, kb: KnowledgeBase) -> Linker:
        k = str(kb.build)
        lk = self._linkers.get(k)
        if lk is None:
            with self._lock:
                lk = self._linkers.get(k)
                if lk is None:
                    lk = Linker(kb.names, fuzzy_threshold=max(self.settings.fuzzy_threshold - 2, 80))
                    self._linkers = {k: lk}
        return lk

    def _llm_client(self):
        if not self._llm_checked:
            with self._lock:
                if not self._llm_checked:
                    if self.settings.llm_enabled:
                        try:
                            from .llm import LLMClient

                            self._llm = LLMClient(self.settings)
                        except (ValueError, RuntimeError) as exc:
                            log.warning("LLM disabled: %s", exc)
                    self._llm_checked = True
        return self._llm

    def _llm_understand(self, llm, budget, u: Understanding, state: ThreadState, linker: Linker, kb) -> Understanding:
        history = [t["text"] for t in state.turns if t.get("role") == "user"]
        known = [m.name for m in u.mentions if m.id] + [e.name for e in state.entities]
        got = llm.understand(u.text, history, known, budget=budget)
        if got is None:
            return u
        new = Understanding(text=u.text, intent=got.intent, language=got.language or u.language, rule="llm")
        for e in got.entities:
            types = {"recipe": CTX_TYPES, "ingredient": ITEM_TYPES, "tool": ITEM_TYPES, "role": ("role",), "document": ("document",)}.get(e.type)
            m = linker.link(e.name, types)
            m.method = "llm+" + m.method
            new.mentions.append(m)  # entities must still link to the KB; unknown ones stay unknown
        for x in got.excluded:
            new.excluded.append(linker.link(x, ITEM_TYPES))
        if new.intent == "substitute":  # what the user lacks (没有X) is the item to replace
            seen = {m.id or m.name for m in new.mentions}
            new.mentions += [m for m in new.excluded if (m.id or m.name) not in seen]
            new.excluded = []
        new.follow_up = not new.mentions and not new.excluded
        new.confident = True
        return new

    def _llm_compose(self, llm, budget, ans: Answer) -> Answer:
        from .llm import ground

        got = llm.compose(ans.question, ans.language, ans.facts, ans.passages, ans.answer, budget=budget)
        if got is None:
            return ans
        facts, passages = ground(got, ans.facts, ans.passages)
        if not facts and not passages:
            return ans
        return ans.model_copy(update={"answer": got.answer, "facts": facts, "passages": passages, "found": got.found})

    def _retrieve_and_compose(self, kb: KnowledgeBase, q: Query, key: str, mode: str) -> Answer:
        lang = q.language
        if q.dangling_pronoun:
            return Answer(thread=key, question=q.text, intent=q.intent, found=False, language=lang,
                          answer=C._t(lang, "我不确定你指的是哪道菜或哪个东西，能说一下名字吗？",
                                      "I'm not sure what you are referring to — which dish, item or role do you mean?"))
        g = kb.graph
        use_graph = mode in ("hybrid", "graph")
        use_passages = mode in ("hybrid", "vector")
        facts: list[GraphFact] = []
        text = ""
        follow_ups: list[str] = []
        ctx = q.ctx[0] if q.ctx else None
        item = q.items[0] if q.items else None
        role = q.roles[0] if q.roles else None
        item_ids = self._expand_items(g, q.items, ctx) if use_graph else []
        intent = q.intent

        if use_graph:
            if intent in ("substitute",) and item and item.id:
                facts = R.substitutes(g, item_ids, ctx.id if ctx else None)
                uses = R.contains_edge(g, ctx.id, item_ids) if ctx and ctx.id else []
                cand = q.candidate
                if facts and cand is not None:
                    confirmed = [f for f in facts if f.object_id == cand.id or f.object == cand.name]
                    text = C.candidate_text(lang, item.name, cand.name, ctx.name if ctx else None, confirmed, facts)
                    facts = confirmed or facts
                elif facts:
                    text = C.substitute_text(lang, item.name, ctx.name if ctx else None, facts, uses)
                    facts = uses[:1] + facts
                    follow_ups = [C._t(lang, f"{ctx.name}需要哪些原料？", f"What do I need for {ctx.name}?")] if ctx else []
            elif intent == "stand_in" and role and role.id:
                facts = self._stand_ins(g, role, q.reverse)
                delegated = [] if q.reverse else R.delegations(g, role.id)
                parts = []
                if delegated:
                    parts.append(C.delegation_text(lang, role.name, delegated))
                if facts:
                    parts.append(C.stand_in_text(lang, role.name, facts, q.reverse))
                if parts:
                    text = "\n".join(parts)
                    facts = delegated + facts
                    follow_ups = [C._t(lang, f"{role.name}负责什么？", f"What does the {role.name} do?")]
            elif intent == "contains" and ctx and ctx.id:
                facts = self._contains(g, ctx.id)
                if facts:
                    text = C.contains_text(lang, ctx.name, facts)
                    follow_ups = [C._t(lang, f"{ctx.name}怎么做？", f"What are the steps for {ctx.name}?")]
            elif intent == "used_in" and item and item.id:
                facts = R.used_in(g, item_ids, limit=21)
                if facts:
                    text = C.used_in_text(lang, item.name, facts[:20], len(facts) > 20)
                    facts = facts[:20]
            elif intent == "shared" and len(q.ctx) >= 2 and q.ctx[0].id and q.ctx[1].id:
                pairs = R.shared(g, q.ctx[0].id, q.ctx[1].id)
                if pairs:
                    text = C.shared_text(lang, q.ctx[0].name, q.ctx[1].name, pairs)
                    facts = [f for p in pairs for f in p]
            elif intent == "required" and ctx and ctx.id and item and item.id:
                facts = R.contains_edge(g, ctx.id, item_ids)
                if facts:
                    text = C.required_text(lang, ctx.name, item.name, facts)
                    follow_ups = [C._t(lang, f"{ctx.name}没有{item.name}用什么代替？", f"What can replace {item.name} in {ctx.name}?")]
                elif ctx:
                    text = C._t(lang, f"{ctx.name}的原料表里没有{item.name}。", f"{item.name} is not in the ingredient list of {ctx.name}.")
                    facts = R.contains(g, ctx.id)[:12]
            elif intent == "exclude" and q.excluded and q.excluded[0].id:
                excl = q.excluded[0]
                excl_ids = self._expand_items(g, q.excluded, None)
                inc_ids = item_ids if item and item.id else None
                total, inc_facts = R.recipes_without(g, excl_ids, inc_ids)
                if inc_ids:
                    names = list(dict.fromkeys(f.subject for f in inc_facts))
                    if names:
                        facts = inc_facts
                        text = C.exclude_text(lang, excl.name, names, total, item.name)
                else:
                    rows = R.recipe_names_without(g, excl_ids, limit=12)
                    if rows:
                        text = C.exclude_text(lang, excl.name, [r["name"] for r in rows], total)
                        facts = self._recipe_facts(g, rows)
            elif intent == "responsibility" and role and role.id:
                titles = self._role_titles(kb, role)
                facts = R.section_steps(g, titles + [f"Steps for {t}" for t in titles])
                # the role's own definition ("What are the responsibilities?") before per-phase checklists
                facts.sort(key=lambda f: 0 if "responsibilit" in f.subject.casefold() else 1)
                if len(facts) < 3:
                    facts += R.role_steps(g, [role.id], limit=6)
            elif intent == "general" and q.task:
                facts = self._responsible_for(g, q.task)
                if facts:
                    text = C.responsible_text(lang, q.task, facts)
            elif intent == "steps" and role and role.id:
                # "steps for the Scribe (during an incident)": the role's checklist sections
                titles = [f"Steps for {t}" for t in self._role_titles(kb, role)]
                facts = R.section_steps(g, titles, limit=40)
                if ctx and ctx.doc:
                    facts = [f for f in facts if f.doc == ctx.doc] or facts
                if facts:
                    text = C.steps_text(lang, f"{role.name} ({ctx.name.replace('_', ' ')})" if ctx else role.name, facts)
            elif intent == "steps" and ctx and ctx.id:
                doc = ctx.doc or (R.docs_of(g, [ctx.id], limit=1) or [""])[0]
                facts = R.steps(g, doc) if doc else []
                if facts:
                    text = C.steps_text(lang, ctx.name.replace("_", " "), facts)

        # passages (LanceDB hits), restricted to the linked documents when there are any
        hits: list[Hit] = []
        if use_passages and facts and mode == "hybrid":
            # the passages the facts were read from: exact evidence, no search needed
            hits = R.source_chunks(g, [(f.doc, f.line) for f in facts[:12]], limit=3)
        if use_passages and not hits:
            hits = self._passages(kb, q, facts, mode)
        passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line) for h in hits]

        found = bool(facts) and bool(text or intent in ("responsibility", "general"))
        if intent == "responsibility" and role and (facts or (passages and self._passages_support(q, hits))):
            text = C.responsibility_text(lang, role.name, facts, passages)
            found = True
        if intent == "steps" and not facts and passages:
            passages.sort(key=lambda p: 0 if _STEP_SECTIONS.search(p.section or "") else 1)
        if not found and intent in ("general", "responsibility", "steps") and passages and mode != "graph":
            good = [p for p in passages if mode != "vector" or p.score >= VECTOR_FOUND_MIN]
            if good and self._passages_support(q, hits):
                text = C.passages_text(lang, good, question="" if (intent == "steps" and q.ctx) else q.text)
                found = True
        if mode == "vector" and passages:
            good = [p for p in passages if p.score >= VECTOR_FOUND_MIN]
            if good:
                text = C.passages_text(lang, good, question="" if (intent == "steps" and q.ctx) else q.text)
                found = True
        if use_graph and intent == "general" and not facts and (q.ctx or q.items or q.roles):
            # open question about known entities: a 1–2 hop subgraph within the context budget
            ids = [m.id for m in q.ctx + q.items + q.roles if m.id]
            facts = _within_budget(R.neighbourhood(g, ids, per_hop=8), self.settings.context_budget_chars)
            if facts:
                lines = list(dict.fromkeys(f"- {C.fact_line(lang, f)}" for f in facts))[:8]
                text = (text + "\n" if found and text else "") + C._t(lang, "相关事实：", "Related facts:") + "\n" + "\n".join(lines)
                found = True
        if not found:
            text, follow_ups = self._not_found(kb, q)
            facts, passages = [], passages[:2] if passages and mode != "graph" and self._passages_support(q, hits) else []
            if passages:
                text += "\n" + C.passages_text(lang, passages, limit=2, question=q.text)
        entities = [EntityRef(name=m.name, type=m.type, id=m.id) for m in q.ctx + q.items + q.roles + q.excluded + q.unknown]
        return Answer(
            thread=key, question=q.text, intent=intent, found=found, answer=text, language=lang,
            entities=entities, facts=[_to_fact(f) for f in _dedupe(facts)][:40], passages=passages,
            follow_ups=follow_ups,
        )

    def _expand_items(self, g, items: list[Mention], ctx: Mention | None) -> list[str]:
        """Item ids plus the recipe's own items whose name ends with the asked
        one (Chinese head-final compounds: 花生 → 熟花生, 生花生)."""
        ids = [m.id for m in items if m.id]
        names = [m.name for m in items if m.name]
        if ctx and ctx.id and names:
            for f in self._contains(g, ctx.id):
                if any(f.object.endswith(n) or f.object.startswith(n) for n in names) and f.object_id not in ids:
                    ids.append(f.object_id)
        elif names:
            for oid in R.head_variants(g, [n for n in names if len(n) >= 2]):
                if oid not in ids:
                    ids.append(oid)
        return ids

    def _contains(self, g, parent_id: str) -> list[GraphFact]:
        """``R.contains`` memoized per KB build (the KB is immutable once published)."""
        key = (str(g.path), parent_id)  # the build folder: a reloaded KB never sees the old entries
        hit = self._contains_cache.get(key)
        if hit is None:
            hit = R.contains(g, parent_id)
            if len(self._contains_cache) > 4096:
                self._contains_cache.clear()
            self._contains_cache[key] = hit
        return hit

    def _responsible_for(self, g, task: str) -> list[GraphFact]:
        """``responsible_for`` facts whose object matches the asked task
        ("the status page" ~ "status page"): the object's content words all
        occur in the task, or the task's in the object."""
        want = set(_content_words(task))
        if not want:
            return []
        out = []
        for f in R.responsible_for(g):
            have = set(_content_words(f.object))
            if have and (have <= want or want <= have):
                out.append(f)
        return out

    def _role_titles(self, kb: KnowledgeBase, role: Mention) -> list[str]:
        """The role's name and aliases, singular and plural (section titles
        that describe it: "Scribe", "Steps for Subject Matter Experts")."""
        names = list(dict.fromkeys([role.name] + [n.surface for n in kb.names if n.id == role.id]))
        return names + [n + "s" for n in names if n.isascii() and not n.endswith("s")]

    def _stand_ins(self, g, role: Mention, reverse: bool) -> list[GraphFact]:
        if reverse:
            rows = g.query(
                "MATCH (a:Entity)-[r:SUBSTITUTES]->(b:Entity) WHERE b.id = $id "
                "RETURN a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, r.context AS ctx, r.context_name AS ctxn, "
                "r.cond AS cond, r.symmetric AS sym, r.id AS fid, r.doc AS doc, r.section AS section, r.line AS line, "
                "r.confidence AS confidence ORDER BY r.confidence DESC, a.name",
                {"id": role.id},
            )
            return [R._sub_fact(r) for r in rows]
        return [f for f in R.substitutes(g, [role.id]) if f.properties.get("hop") != 2]

    def _recipe_facts(self, g, rows: list[dict]) -> list[GraphFact]:
        """For listed recipes, their first required ingredient edge (as citation of the recipe's ingredient list)."""
        out = []
        for r in rows:
            fs = R.contains(g, r["id"], limit=1)
            out.extend(fs)
        return out

    def _passages(self, kb: KnowledgeBase, q: Query, facts: list[GraphFact], mode: str) -> list[Hit]:
        names = [m.name for m in q.ctx + q.items + q.roles + q.excluded if m.name]
        text = q.text if not q.from_memory else q.text + " " + " ".join(names)
        docs: list[str] = []
        if mode == "hybrid":
            docs = [m.doc for m in q.ctx if m.doc]
            if not docs and q.ctx + q.roles:
                ids = [m.id for m in q.ctx + q.roles if m.id]
                docs = R.docs_of(kb.graph, ids, limit=6) if ids else []
        vec = None
        if kb.embedder is not None:
            vec = kb.embedder.embed_query(text)
        limit = 3 if facts else self.settings.retrieval_limit
        if q.definition and mode == "hybrid":
            limit = max(limit, 16)
        search_mode = "vector" if mode == "vector" else "hybrid"
        hits = kb.vectors.search(text, vec, docs=docs or None, limit=limit, mode=search_mode)
        if not hits and docs:
            hits = kb.vectors.search(text, vec, limit=limit, mode=search_mode)
        if q.roles and mode == "hybrid":
            # a section titled with the role ("Glossary > Grenade Thrower") describes it best;
            # full-text search for the name alone finds it even when no chunk text repeats it
            seen = {h.id for h in hits}
            for m in q.roles:
                hits += [h for h in kb.vectors.search(m.name, None, limit=8, mode="fts") if h.id not in seen]
                seen = {h.id for h in hits}
            names = [m.name.casefold() for m in q.roles]
            hits.sort(key=lambda h: 0 if any(n in (h.section or "").casefold() for n in names) else 1)
        codes = re.findall(r"\b[A-Za-z]{2,}-?\d+\b", q.text) if mode == "hybrid" else []
        if codes:
            # identifiers ("SEV-5", "P1", "HTTP-503") must appear verbatim: search for them and put
            # the passages that contain every one of them first
            seen = {h.id for h in hits}
            for code in codes:
                hits += [h for h in kb.vectors.search(code, None, limit=16, mode="fts") if h.id not in seen]
                seen = {h.id for h in hits}
            hits.sort(key=lambda h: 0 if all(re.search(rf"\b{re.escape(c)}\b", h.text, re.I) for c in codes) else 1)
        if q.definition and mode == "hybrid":
            # also a full-text search for the term alone, then definitions first (stable sort)
            seen = {h.id for h in hits}
            hits += [h for h in kb.vectors.search(q.definition, None, limit=24, mode="fts") if h.id not in seen]
            hits.sort(key=lambda h: 0 if _defines(q.definition, h.text) else 1)
        return hits[:3] if facts else hits[:4]

    def _passages_support(self, q: Query, hits: list[Hit]) -> bool:
        """Passages count as evidence when they mention a linked entity, or
        when nothing was linked and the top hit shares content with the question."""
        ids = {m.id for m in q.ctx + q.items + q.roles if m.id}
        own_docs = {m.doc for m in q.ctx if m.doc}
        if any(h.doc in own_docs for h in hits):
            return True
        if ids:
            return any(ids & set(h.entity_ids) for h in hits) or any(
                m.name.casefold() in f"{h.section}\n{h.text}".casefold() for m in q.ctx + q.items + q.roles for h in hits)
        if q.unknown:
            # an unlinked phrase counts as found only if the passages actually contain it;
            # a capitalised name ("Safety Officer") must occur as that phrase
            def supports(m: Mention, h: Hit) -> bool:
                if re.fullmatch(r"(?:[A-Z][\w-]*\s+)+[A-Z][\w-]*", m.surface.strip()):
                    return re.search(rf"\b{re.escape(m.surface.strip())}", h.text, re.I) is not None
                return _lexical_support(m.surface, h.text)

            return any(supports(m, h) for m in q.unknown for h in hits[:3])
        return any(_question_support(q.text, h.text) for h in hits[:3])

    def _not_found(self, kb: KnowledgeBase, q: Query) -> tuple[str, list[str]]:
        lang = q.language
        linker = self._linker(kb)
        missing = [m for m in q.unknown] or []
        if missing:
            what = missing[0].surface
            sugg = linker.suggest(what)
            if kb.embedder is not None and len(sugg) < 3:
                vec = kb.embedder.embed_query(what)
                for _id, name, _t, score in kb.vectors.nearest_entities(vec, limit=3):
                    if score >= 0.92 and name not in sugg:
                        sugg.append(name)
            return C.not_found_text(lang, what, sugg[:3]), sugg[:3]
        subject = ""
        if q.intent == "substitute" and q.items:
            subject = C._t(lang, f"{q.items[0].name}的替代品" + (f"（在{q.ctx[0].name}里）" if q.ctx else ""),
                           f"substitutes for {q.items[0].name}" + (f" in {q.ctx[0].name}" if q.ctx else ""))
        elif q.intent == "stand_in" and q.roles:
            subject = C._t(lang, f"谁能代替{q.roles[0].name}", f"who can stand in for the {q.roles[0].name}")
        elif q.ctx:
            subject = q.ctx[0].name
        elif q.items:
            subject = q.items[0].name
        return C.not_found_text(lang, subject, []), []

    def _remember(self, state: ThreadState, q: Query, ans: Answer, text: str) -> None:
        state.turns.append({"role": "user", "text": text, "intent": q.intent})
        state.turns.append({"role": "bot", "text": ans.answer[:500], "intent": q.intent})
        for m in q.ctx + q.items + q.roles:
            if m.type == "unknown":
                continue
            state.remember(RememberedEntity(name=m.name, type=m.type, id=m.id))
        if q.ctx and q.ctx[0].id:
            state.slots["ctx"] = RememberedEntity(q.ctx[0].name, q.ctx[0].type, q.ctx[0].id)
            if len(q.ctx) > 1 and q.ctx[1].id:
                state.slots["ctx2"] = RememberedEntity(q.ctx[1].name, q.ctx[1].type, q.ctx[1].id)
        if q.items and q.items[0].id:
            state.slots["item"] = RememberedEntity(q.items[0].name, q.items[0].type, q.items[0].id)
        if q.excluded and q.excluded[0].id:
            state.slots["excluded"] = RememberedEntity(q.excluded[0].name, q.excluded[0].type, q.excluded[0].id)
        if q.roles and q.roles[0].id:
            state.slots["role"] = RememberedEntity(q.roles[0].name, q.roles[0].type, q.roles[0].id)
        if q.intent not in ("general",) or state.last_intent is None:
            state.last_intent = q.intent


def _mem(e: RememberedEntity) -> Mention:
    return Mention(e.name, e.name, e.type, e.id, -1, "memory")


def resolve(u: Understanding, state: ThreadState) -> Query:
    """Fill the question's slots from its own mentions, then from the
    thread's memory for follow-ups (pronouns, "那…呢", "and without X?"). A
    newly named entity of a type replaces the remembered one of that type."""
    q = Query(intent=u.intent, language=u.language, text=u.text, candidate=u.candidate, task=u.slot_texts.get("task", ""))
    for m in u.mentions:
        if m.type == "unknown":
            q.unknown.append(m)
        elif m.type in CTX_TYPES:
            q.ctx.append(m)
        elif m.type == "role":
            q.roles.append(m)
        elif m.type in ITEM_TYPES:
            q.items.append(m)
        # sections/steps/concepts are ignored as slots
    for m in u.excluded:
        (q.unknown if m.type == "unknown" else q.excluded).append(m)
    if u.slot_texts.get("item2") and not u.slot_texts.get("item") and q.intent == "stand_in":
        q.reverse = True
    if u.slot_texts.get("item2") and u.slot_texts.get("item") and q.intent == "stand_in" and len(q.roles) >= 2:
        # "can the Deputy take on the Scribe?" -> stand-ins for the Scribe
        q.roles = [q.roles[1], q.roles[0]]

    last = state.last_intent
    if q.intent == "follow":
        q.intent = last or "general"
        if q.intent == "exclude" and q.items and not q.excluded:
            q.excluded, q.items = q.items, []
    elif q.intent == "without":
        if last in ("substitute", "required", "contains", "steps") and (state.slots.get("ctx") or q.ctx):
            q.intent = "substitute"
            q.items = q.excluded or q.items
            q.excluded = []
        elif last in ("stand_in", "responsibility") or (q.excluded and q.excluded[0].type == "role"):
            q.intent = "stand_in"
            q.roles = [m for m in q.excluded if m.type == "role"] or q.roles
            q.excluded = []
        else:
            q.intent = "exclude"
    elif q.intent == "general" and not (q.ctx or q.items or q.roles) and u.follow_up and last:
        q.intent = last
    elif q.intent == "general" and (q.ctx or q.items or q.roles):
        # a bare entity name: ask about it the obvious way
        if q.roles and not (q.ctx or q.items):
            q.intent = "responsibility" if len(u.text) <= 40 else "general"
        elif q.ctx and not q.items and q.ctx[0].type == "recipe" and len(u.text.rstrip("？?。!！ ")) <= len(q.ctx[0].surface) + 2:
            q.intent = "contains"

    if q.intent == "responsibility" and (u.slot_texts.get("task") or u.slot_texts.get("who")
                                         or (not q.roles and (q.unknown or q.ctx or q.items))):
        q.intent = "general"  # "who is responsible for X", "what is a SEV-1": answered from passages
        q.definition = u.slot_texts.get("item", "")

    # fill missing slots from memory
    need = INTENT_SLOTS.get(q.intent, ())
    if q.intent == "shared" and len(q.ctx) == 1 and state.slots.get("ctx"):
        prev = state.slots["ctx"]
        if prev.id != q.ctx[0].id:
            q.ctx.insert(0, _mem(prev))
            q.from_memory.append(prev.name)
    if q.unknown and u.rule.startswith("ellipsis") and not (q.ctx or q.items or q.roles):
        return q  # "那佛跳墙呢？": the new thing is unknown; do not answer about the old one
    named_unknown_ctx = bool(q.unknown) and bool(u.slot_texts.get("ctx"))
    named_unknown_item = bool(q.unknown) and bool(u.slot_texts.get("item") or u.slot_texts.get("excl"))
    if "recipe" in need and not q.ctx and state.slots.get("ctx") and not named_unknown_ctx:
        if q.intent in ("substitute", "required", "contains", "steps") and (u.follow_up or q.intent != "substitute" or q.items):
            q.ctx.append(_mem(state.slots["ctx"]))
            q.from_memory.append(state.slots["ctx"].name)
    if "ingredient" in need and not q.items and q.intent != "exclude" and state.slots.get("item") and not named_unknown_item:
        q.items.append(_mem(state.slots["item"]))
        q.from_memory.append(state.slots["item"].name)
    if q.intent == "exclude" and not q.excluded and not named_unknown_item:
        prev = state.slots.get("excluded") or state.slots.get("item")  # "不用它的菜" after 豆腐
        if prev:
            q.excluded.append(_mem(prev))
            q.from_memory.append(prev.name)
    if "role" in need and not q.roles and state.slots.get("role") and not named_unknown_item:
        q.roles.append(_mem(state.slots["role"]))
        q.from_memory.append(state.slots["role"].name)
    if q.intent == "substitute" and q.roles and not q.items:
        q.intent = "stand_in"
    if q.intent == "general" and not (q.ctx or q.items or q.roles) and u.follow_up and not q.unknown:
        for slot in ("ctx", "role", "item"):
            if state.slots.get(slot):
                m = _mem(state.slots[slot])
                (q.ctx if slot == "ctx" else q.roles if slot == "role" else q.items).append(m)
                q.from_memory.append(m.name)
                break
    if u.follow_up and not (q.ctx or q.items or q.roles or q.excluded or q.unknown):
        q.dangling_pronoun = True
    return q


_EN_STOP = frozenset(
    "a an the of for to in on and or is are be do does how what who which when where why i we you my our "
    "it its this that with by as at from can should steps step".split()
)


def _lexical_support(phrase: str, text: str) -> bool:
    """True when ``text`` contains ``phrase`` (CJK: verbatim) or, for Latin
    text, at least half of its content words (prefix match, so "postmortem"
    matches "postmortems")."""
    if re.search(r"[\u3400-\u9fff]", phrase):
        return phrase in text
    words = [w for w in re.findall(r"[a-z0-9]+", phrase.casefold()) if w not in _EN_STOP and len(w) > 2]
    if not words:
        return False
    return sum(1 for w in words if _has_word(w, text)) * 2 >= len(words)


def _defines(term: str, text: str) -> bool:
    """True when ``text`` reads like a definition of ``term``: the term starts a
    line, a table row or a bold label and is followed by ``|``, ``-``, ``:``,
    "is" or "are" (glossaries, tables such as "SEV-1 | Critical issue …").
    A trailing generic noun of the question ("SEV-1 incident") is dropped."""
    words = term.split()
    candidates = [term] + ([" ".join(words[:-1])] if len(words) > 1 else [])
    for t in candidates:
        rx = rf"(?:^|\n|\|)\s*(?:[-*]\s*)?\**{re.escape(t)}\**\s*(?:\||-|–|:|\bis\b|\bare\b|\()"
        if re.search(rx, text, re.I):
            return True
    return False


def _content_words(text: str) -> list[str]:
    """Lower-case content words of an English phrase (stop words dropped,
    a plural ``s`` trimmed)."""
    words = [w for w in re.findall(r"[a-z0-9]+", text.casefold()) if w not in _EN_STOP and len(w) > 2]
    return [w[:-1] if w.endswith("s") and len(w) > 4 else w for w in words]


def _has_word(word: str, text: str) -> bool:
    """``word`` occurs in ``text`` as a whole word, allowing a short inflection
    ("postmortem" ~ "postmortems", "page" ~ "paged") but not another word
    sharing a prefix ("delete" is not "delegate")."""
    stem = word[:-1] if word.endswith("s") and len(word) > 4 else word
    return re.search(rf"\b{re.escape(stem)}[a-z]{{0,3}}\b", text, re.I) is not None


def _within_budget(facts: list[GraphFact], budget_chars: int) -> list[GraphFact]:
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


_ZH_STOP = set("的了是吗呢啊吧在和与及或有没不要用做个这那哪些什么怎么如何可以能会把被让给对为从到就也都还很更最请问")


def _question_support(question: str, text: str) -> bool:
    """True when a passage shares enough content with a question that linked
    no entity: ≥ 40 % of its English content words (prefix match) or of its
    Chinese character bigrams without function characters. A question with no
    content (punctuation, emoji) is never supported."""
    words = [w for w in re.findall(r"[a-z0-9]+", question.casefold()) if w not in _EN_STOP and len(w) > 2]
    cjk = re.findall(r"[\u3400-\u9fff]+", question)
    grams = [run[i : i + 2] for run in cjk for i in range(len(run) - 1)]
    grams = [g for g in grams if not (g[0] in _ZH_STOP or g[1] in _ZH_STOP)]
    if not words and not grams:
        return False
    hits = sum(1 for w in words if _has_word(w, text)) + sum(1 for g in grams if g in text)
    return hits >= max(1, 0.4 * (len(words) + len(grams)))


def _dedupe(facts: list[GraphFact]) -> list[GraphFact]:
    seen, out = set(), []
    for f in facts:
        if f.id in seen:
            continue
        seen.add(f.id)
        out.append(f)
    return out


def _to_fact(f: GraphFact) -> Fact:
    props = {k: v for k, v in f.properties.items() if k not in ("type",)}
    return Fact(id=f.id, subject=f.subject, relation=f.relation, object=f.object, properties=props,
                source=Source(doc=f.doc, section=f.section, line=f.line))
