"""The conversation core: one entry point for every adapter and the CLI.

``IncomingMessage`` → load thread memory → **constraints** stated in the
message are remembered for the thread (:mod:`threadgraph.bot.constraints`; a
message that only states them goes to the ``statement`` intent) →
**understand** the rest (phrase patterns;
the LLM when configured and the patterns are not confident) → **resolve**
follow-ups from memory → **retrieve** (the intent handler's Cypher on Kùzu,
then LanceDB passages) → **compose** an :class:`Answer` (deterministic; the LLM
rewrites it when configured, grounded in the same evidence) → **remember** →
return. Every intent-specific step is a hook of the intent's handler
(:mod:`threadgraph.bot.intents`); this module names no intent.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from ..knowledge.kb import KBHandle, KBNotFound, KnowledgeBase
from . import constraints, exemplars, intents
from .answer import Answer
from .compose import t
from .intents import Context
from .linker import Linker
from .memory import ASKED_ITEM, RememberedEntity, ThreadMemory, ThreadState
from .message import IncomingMessage, ThreadKey
from .query import CTX_TYPES, ITEM_TYPES, Query, Understanding
from .resolve import resolve
from .state import StateStore, open_state
from . import parts
from .respond import compose, retrieve
from ..knowledge.text import detect_language
from .understand import understand

log = logging.getLogger(__name__)

RETRIEVAL_MODES = ("hybrid", "graph", "vector")
#: The entity types an LLM-named entity of each type may link to.
_LLM_TYPES = {"recipe": CTX_TYPES, "ingredient": ITEM_TYPES, "tool": ITEM_TYPES, "role": ("role",), "document": ("document",)}
#: Entity types whose names an LLM-written answer may only use when its cited evidence does.
_GROUNDED_TYPES = ("recipe", "ingredient", "tool", "role")
#: Memory slots filled from the resolved question: slot name → (query list, position).
_SLOTS = (("ctx", "ctx", 0), ("ctx2", "ctx", 1), ("item", "items", 0), ("excluded", "excluded", 0), ("role", "roles", 0))


class ThreadGraphBot:
    """The threadgraph core.

    ``ThreadGraphBot(settings)`` opens the KB in ``settings.data_dir`` lazily
    (read-only, reloaded when ``threadgraph ingest`` swaps in a new build) and
    the conversation state (:func:`~threadgraph.bot.state.open_state`: SQLite
    in the data dir, or Redis at ``THREADGRAPH_STATE_URL``); ``memory`` (any
    ``load``/``save``/``reset`` store) overrides the state's thread memory, and
    ``state`` is then None unless given. ``answer`` is synchronous and
    thread-safe; adapters call it from a worker thread.
    """

    def __init__(self, settings=None, *, kb: KBHandle | None = None, memory: ThreadMemory | None = None, embedder=None,
                 state: StateStore | None = None):
        from ..settings import Settings

        self.settings = settings or Settings()
        data_dir = Path(self.settings.data_dir)
        self.kb = kb or KBHandle(data_dir, self.settings, embedder=embedder)
        self.state = state if state is not None or memory is not None else open_state(self.settings)
        self.memory = memory or self.state.memory
        self._linkers: dict[str, Linker] = {}
        self._lock = threading.Lock()
        self._llm = None
        self._llm_checked = False
        self._contains_cache: dict = {}

    # -- public ----------------------------------------------------------------
    def answer(self, message: IncomingMessage, retrieval: str = "hybrid") -> Answer:
        """Answer ``message`` in its thread. ``retrieval``: ``hybrid`` (graph +
        passages, the product), ``graph`` (Cypher only) or ``vector`` (LanceDB
        hits only; the evaluation baseline). Raises ``ValueError`` for an
        unknown mode; a missing KB yields a ``found=False`` answer.

        Bounded work: only the first ``settings.max_question_chars`` characters
        are read (the answer then starts with a note saying so) and the
        phrase patterns stop at ``settings.understand_deadline_ms``."""
        if retrieval not in RETRIEVAL_MODES:
            raise ValueError(f"retrieval must be one of {RETRIEVAL_MODES}, not {retrieval!r}")
        key = message.thread.key()
        text = (message.text or "").strip()
        limit = self.settings.max_question_chars
        cut = len(text) > limit
        if cut:
            text = text[:limit].rstrip()
        lang = detect_language(text) or "en"
        if not text:
            return Answer(thread=key, question="", intent="general", found=False, language=lang,
                          answer=t(lang, "请问你想了解什么？", "What would you like to know?"))
        try:
            kb = self.kb.get()
        except KBNotFound:
            return Answer(thread=key, question=text, intent="general", found=False, language=lang,
                          answer=t(lang, "知识库还没有建立：请先运行 threadgraph ingest。",
                                   "The knowledge base is empty: run `threadgraph ingest` first."))
        two = parts.split(text, lang) if not cut else None
        if two is not None:
            # two questions in one: each answered on its own in the thread, given part by part
            got = [(x, self.answer(message.model_copy(update={"text": x}), retrieval)) for x in two]
            if any(a.found for _x, a in got):
                return parts.combine(text, got)
        state = self.memory.load(key)
        state.turn += 1
        linker = self._linker(kb)
        found = constraints.detect(text, lang, linker)
        stated = constraints.remember(state, found.constraints)
        statement = intents.statement() if found.statement else None
        if statement is not None:
            u = Understanding(text=text, intent=statement.name, language=lang, rule=f"{statement.name}/{lang}/lexicon",
                              confident=True)
        else:
            asked, offered = _picked(state, found.question or text)
            u = understand(asked, linker, cpu_budget_s=self.settings.understand_deadline_ms / 1000)
            if self.settings.exemplar_intents:
                u = exemplars.refine(u, kb.embedder, linker)
        if statement is not None:
            offered = {}
        budget = None
        llm = self._llm_client()
        if llm is not None:
            budget = llm.new_budget()
            if not u.confident:
                u = self._llm_understand(llm, budget, u, state, linker)
        q = resolve(u, state)
        # a statement acknowledges what it says; a question acknowledges only what is new to the thread
        screen = constraints.Screen(kb, constraints.stored(state) + found.transient,
                                    stated=found.constraints if statement is not None else stated, scope=found.scope)
        c = Context(kb, q, retrieval, self.settings, linker, thread=key, cache=self._contains_cache, screen=screen)
        ans = compose(c, retrieve(c))
        if llm is not None and ans.found and statement is None:  # an acknowledgement needs no rewording
            ans = self._llm_compose(llm, budget, ans)
            ans.answer = constraints.keep_notes(screen, ans.answer)  # the LLM's wording keeps what the constraints did
        ans.question = text
        self._remember(state, q, ans, text)
        if offered and not q.choices:  # a reply that picked a choice keeps the choices for the next one
            state.turns[-1].update(offered)
        self.memory.save(key, state)
        if cut:
            note = t(ans.language, f"（消息太长，我只读了前 {limit} 个字。）",
                     f"(Your message is long: I read only its first {limit} characters.)")
            ans = ans.model_copy(update={"answer": f"{note}\n\n{ans.answer}"})
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
                    lk = Linker(kb.names, fuzzy_threshold=max(self.settings.fuzzy_threshold - 2, 80),
                                vocabulary=kb.vocabulary())
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

    def _llm_understand(self, llm, budget, u: Understanding, state: ThreadState, linker: Linker) -> Understanding:
        """The LLM's reading of the question, its entities linked to the KB
        (unknown ones stay unknown); ``u`` when the LLM gives nothing."""
        history = [x["text"] for x in state.turns if x.get("role") == "user"]
        known = [m.name for m in u.mentions if m.id] + [e.name for e in state.entities]
        got = llm.understand(u.text, history, known, budget=budget)
        if got is None:
            return u
        new = Understanding(text=u.text, intent=got.intent, language=got.language or u.language, rule="llm")
        for e in got.entities:
            m = linker.link(e.name, _LLM_TYPES.get(e.type))
            m.method = "llm+" + m.method
            new.mentions.append(m)
        for x in got.excluded:
            new.excluded.append(linker.link(x, ITEM_TYPES))
        intents.get(new.intent).after_llm(new)
        new.follow_up = not new.mentions and not new.excluded
        new.confident = True
        return new

    def _llm_compose(self, llm, budget, ans: Answer) -> Answer:
        """The LLM's wording of ``ans``, held to the evidence it cites (see
        :mod:`threadgraph.bot.llm`); ``ans`` itself when the LLM gives nothing grounded."""
        from .citations import citations
        from .llm import ground

        kb = self.kb.get()
        linker = self._linker(kb)

        def find_names(text: str) -> list[tuple[str, str]]:
            return [(m.surface, m.name) for m in linker.scan(text, types=_GROUNDED_TYPES)]

        got = llm.compose(ans.question, ans.language, ans.facts, ans.passages, ans.answer, budget=budget,
                          find_names=find_names)
        if got is None:
            return ans
        facts, passages = ground(got, ans.facts, ans.passages)
        if not facts and not passages:
            return ans
        return ans.model_copy(update={"answer": got.answer, "facts": facts, "passages": passages, "found": got.found,
                                      "sources": citations(kb, self.settings, facts, passages, answer=got.answer)})

    def _remember(self, state: ThreadState, q: Query, ans: Answer, text: str) -> None:
        """Record the turn, the entities it named and the filled slots; the dish a found answer
        was about when the question named no recipe (``state.dish``, cleared by a recipe); the
        intent becomes the thread's last one when its handler is ``memorable``."""
        state.turns.append({"role": "user", "text": text, "intent": q.intent})
        if q.context_text:  # what a follow-up was searched with: the next follow-up goes on from it
            state.turns[-1]["context"] = q.context_text
        state.turns.append({"role": "bot", "text": ans.answer[:500], "intent": q.intent})
        if q.choices:  # "which one?": the next reply may pick one of them, for this question
            state.turns[-1].update(choices=list(q.choices), choice_of=q.choice_of, asked=text)
        for m in q.ctx + q.items + q.roles:
            if m.type == "unknown":
                continue
            state.remember(RememberedEntity(name=m.name, type=m.type, id=m.id))
        for slot, attr, i in _SLOTS:
            ms = getattr(q, attr)
            if len(ms) > i and ms[i].id and (i == 0 or ms[0].id):
                state.slots[slot] = RememberedEntity(ms[i].name, ms[i].type, ms[i].id)
        if q.items and q.items[0].id:
            state.slots.pop(ASKED_ITEM, None)
        elif ans.found and q.unknown and q.unknown[0].surface in q.asked_texts:
            # an item the KB has no entity for, which the answer found written in the documents: an
            # elliptical follow-up ("and in <other dish>?") asks about it again (never an older item)
            state.slots.pop("item", None)
            state.slots[ASKED_ITEM] = RememberedEntity(q.unknown[0].surface, "unknown", None)
        if ans.found and not q.ctx:
            # the one recipe the answer named (not the question) is what "它" / "it" refers to next
            for m in q.answered:
                if m.id and m.type in CTX_TYPES:
                    state.remember(RememberedEntity(name=m.name, type=m.type, id=m.id))
                    state.slots["ctx"] = RememberedEntity(m.name, m.type, m.id)
        if q.ctx or any(m.id and m.type in CTX_TYPES for m in q.answered):
            state.dish = ""
        elif q.asked_ctx and (ans.found or q.asked_ctx == state.dish):
            state.dish = q.asked_ctx  # a dish no single recipe is: the next follow-up keeps it
        elif not q.asked_ctx and ans.found:
            pass  # a follow-up naming no dish, answered ("没有X呢？"): the thread is still about the dish
        else:
            state.dish = ""
        h = intents.get(q.intent)
        h.remember(q, state)
        if h.remembers(q) or (state.last_intent is None and not h.memorable):
            state.last_intent = q.intent


def _picked(state: ThreadState, text: str) -> tuple[str, dict]:
    """``(text, {})``, or — when the thread's last answer asked "which one?" listing choices
    (or answered a reply that picked one of them) and ``text`` picks one
    (:func:`threadgraph.bot.words.picked_choice`) — the question that was asked with the picked
    choice in place of the phrase the choices share ("X 怎么做？" answered "which X?", then "the
    B one" → "B X 怎么做？"), so its ask (steps, ingredients …) is kept, and the choices (the
    ``choices``, ``choice_of``, ``asked`` keys of that turn) for the next answer to keep."""
    last = state.turns[-1] if state.turns else {}
    choices = last.get("choices") or []
    if last.get("role") != "bot" or not choices:
        return text, {}
    from .words import picked_choice

    pick = picked_choice(text, choices)
    if not pick:
        return text, {}
    offered = {k: last[k] for k in ("choices", "choice_of", "asked") if k in last}
    asked, what = last.get("asked") or "", last.get("choice_of") or ""
    if not asked or not what or what not in asked:
        return pick, offered
    return asked.replace(what, pick, 1), offered
