"""Optional LLM path: understanding and answer composition through instructor.

The prompts and output models live in :mod:`threadgraph.bot.llm_schema` (and
are re-exported here).

Used only when ``Settings.llm_enabled`` (``OPENAI_API_KEY`` set, plus
``OPENAI_BASE_URL`` for any OpenAI-compatible server). The core stays
deterministic without it, and falls back to its own answer whenever a method
here returns ``None``.

Shapes
------
- ``LLMClient.understand(question, history, known_entities) -> LLMUnderstanding | None``
- ``LLMClient.compose(question, language, facts, passages, draft) -> LLMAnswer | None``
- ``ground(answer, facts, passages) -> (cited facts, cited passages)`` (pure)

Both client methods never raise: any transport error, HTTP error status,
timeout, invalid JSON, or output still invalid after ``settings.llm_max_retries``
re-asks is logged as ONE warning line on the ``threadgraph.llm`` logger (exception
type, HTTP status and attempt count only, never the exception text nor the key)
and ``None`` is returned.

Grounding: ``LLMAnswer`` is validated against the retrieved context passed as
instructor's validation context (``{"fact_ids", "passage_ids", "language",
"question", "evidence", "find_names", "max_chars"}``). The answer is first cut
at a sentence end within ``settings.llm_max_answer_chars``. A cited id that was
not retrieved, an empty answer, ``found=True`` without citations, an answer not
in the question's language, or an answer naming an ingredient, role, name or
number that neither the question nor the facts and passages it cites contain
(:func:`~threadgraph.bot.llm_schema.grounding_problems`) is a validation error
whose message lists what is wrong; instructor appends it to the conversation
and re-asks (bounded by ``llm_max_retries``, default 1: one re-ask); when the
re-ask fails too, ``compose`` returns ``None`` and the core keeps its
deterministic answer.

Budget: every ``understand``/``compose`` that reaches the network counts as one
call in ``LLMClient.calls`` (instructor re-asks belong to the same call). For a
per-question limit the core takes ``budget = client.new_budget()`` (allowing
``settings.llm_max_calls`` calls, default 1) and passes ``budget=budget`` to
each method; a method whose budget is spent returns ``None`` without any request.

Latency: each HTTP attempt is bounded by ``settings.llm_timeout_s`` and the
OpenAI SDK's own retries are off (``max_retries=0``); only invalid output is
re-asked, so one call takes at most ``(llm_max_retries + 1) * llm_timeout_s``.
A timeout, connection error or HTTP error status ends the call at once.

``openai`` and ``instructor`` are imported lazily (in ``LLMClient.__init__``):
importing openai costs ~1.5 s.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Sequence

from pydantic import BaseModel

from ..settings import redact_llm_logs
from .answer import Fact, Passage
from .llm_schema import (
    COMPOSE_SYSTEM,
    evidence_text,
    COMPOSE_USER,
    UNDERSTAND_SYSTEM,
    UNDERSTAND_USER,
    LLMAnswer,
    LLMUnderstanding,
    _clip,
    _LANGUAGE_NAMES,
    _listing,
    format_fact,
    format_passage,
    ground,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings

__all__ = ["CallBudget", "LLMAnswer", "LLMClient", "LLMUnderstanding", "format_fact", "format_passage", "ground"]

logger = logging.getLogger("threadgraph.llm")

_MAX_KNOWN_ENTITIES = 80      # KB names offered to ``understand``
_MAX_HISTORY_TURNS = 6
_MAX_HISTORY_CHARS = 300      # per remembered turn


def _describe_failure(exc: BaseException) -> str:
    """``Type <- CauseType <- ...[ status=N][ attempts=N]`` — exception types along
    the ``__cause__`` chain, HTTP status and attempt count, never message text
    (which may quote headers, bodies or keys)."""
    chain = [exc]
    while getattr(chain[-1], "__cause__", None) is not None and len(chain) < 4:
        chain.append(chain[-1].__cause__)  # type: ignore[arg-type]
    parts = [" <- ".join(type(e).__name__ for e in chain)]
    status = next((getattr(e, "status_code") for e in chain if getattr(e, "status_code", None) is not None), None)
    if status is not None:
        parts.append(f"status={status}")
    attempts = getattr(exc, "n_attempts", None)
    if attempts is not None:
        parts.append(f"attempts={attempts}")
    return " ".join(parts)


class CallBudget:
    """A per-question allowance of LLM calls (thread-safe). ``take()`` returns
    True and consumes one call while any remain."""

    def __init__(self, max_calls: int) -> None:
        self.remaining = max(0, int(max_calls))
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Consume one call: True while any remained, False once the allowance is spent."""
        with self._lock:
            if self.remaining <= 0:
                return False
            self.remaining -= 1
            return True


# --------------------------------------------------------------------------- client


class LLMClient:
    """instructor over the OpenAI SDK, configured from ``Settings``.

    ``__init__(settings)`` raises ``ValueError`` when ``settings.llm_mode`` is not
    an instructor mode name and ``RuntimeError`` when no API key is set; it makes
    no network request. The client is thread-safe. ``calls`` counts the calls that
    reached the network (re-asks included in their call)."""

    def __init__(self, settings: "Settings") -> None:
        import instructor
        import openai

        if settings.openai_api_key is None or not settings.openai_api_key.get_secret_value():
            raise RuntimeError("LLMClient needs OPENAI_API_KEY (settings.openai_api_key)")
        try:
            mode = instructor.Mode[settings.llm_mode.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown THREADGRAPH_LLM_MODE {settings.llm_mode!r}; use TOOLS, JSON, JSON_SCHEMA or MD_JSON"
            ) from None
        key = settings.openai_api_key.get_secret_value()
        redact_llm_logs(key)
        self.settings = settings
        self.mode = mode
        self.model = settings.llm_model
        self.max_retries = settings.llm_max_retries
        self.max_calls = getattr(settings, "llm_max_calls", 1)
        self._openai = openai.OpenAI(
            api_key=key,
            base_url=settings.openai_base_url,
            timeout=settings.llm_timeout_s,
            max_retries=0,
        )
        self._client = instructor.from_openai(self._openai, mode=mode)
        self._lock = threading.Lock()
        self.calls = 0

    # ------------------------------------------------------------------ budget

    def new_budget(self) -> CallBudget:
        """A fresh per-question budget of ``settings.llm_max_calls`` calls."""
        return CallBudget(self.max_calls)

    def _take(self, op: str, budget: CallBudget | None) -> bool:
        if budget is not None and not budget.take():
            logger.debug("llm %s skipped: per-question call budget spent", op)
            return False
        with self._lock:
            self.calls += 1
        return True

    def _run(self, op: str, response_model: type[BaseModel], messages: list[dict], context: dict | None) -> Any:
        t0 = time.monotonic()
        try:
            return self._client.chat.completions.create(
                model=self.model,
                response_model=response_model,
                messages=messages,
                max_retries=self.max_retries,
                context=context,
            )
        except Exception as exc:  # noqa: BLE001 - the contract is "never raise"
            logger.warning(
                "llm %s failed after %.2fs (%s, mode=%s); using the deterministic answer",
                op, time.monotonic() - t0, _describe_failure(exc), self.mode.name,
            )
            return None

    # ------------------------------------------------------------------ API

    def understand(
        self,
        question: str,
        history: Sequence[str] = (),
        known_entities: Sequence[str] = (),
        *,
        budget: CallBudget | None = None,
    ) -> LLMUnderstanding | None:
        """Extract intent, entities, exclusions and language from ``question``.

        ``history``: previous turns, oldest first (the last few are sent);
        ``known_entities``: KB names that may match (the first 80 are sent). The
        returned entities are NOT linked: the caller must still link them to the
        KB. Returns ``None`` on any failure or when ``budget`` is spent."""
        if not self._take("understand", budget):
            return None
        hist = list(history)[-_MAX_HISTORY_TURNS:]
        known = list(dict.fromkeys(k for k in known_entities if k))[:_MAX_KNOWN_ENTITIES]
        messages = [
            {"role": "system", "content": UNDERSTAND_SYSTEM},
            {
                "role": "user",
                "content": UNDERSTAND_USER.format(
                    known="、".join(known) if known else "(none)",
                    history="\n".join(f"- {_clip(h, _MAX_HISTORY_CHARS)}" for h in hist) if hist else "(none)",
                    question=question,
                ),
            },
        ]
        return self._run("understand", LLMUnderstanding, messages, None)

    def compose(
        self,
        question: str,
        language: str,
        facts: Sequence[Fact],
        passages: Sequence[Passage],
        draft: str,
        *,
        budget: CallBudget | None = None,
        find_names: Callable[[str], list] | None = None,
    ) -> LLMAnswer | None:
        """Write the answer to ``question`` from ``facts``/``passages`` only.

        ``language`` is ``"zh"`` or ``"en"``; ``draft`` is the deterministic answer;
        ``find_names(text)`` lists the KB names a text mentions (each must then be
        in the cited evidence). The result cites only ids present in
        ``facts``/``passages`` and names nothing they do not state (enforced by
        validation + one instructor re-ask); its text is capped at
        ``settings.llm_max_answer_chars``. Use ``ground()`` to pick the cited
        evidence. Returns ``None`` on any failure or when ``budget`` is spent."""
        if not self._take("compose", budget):
            return None
        lang = "zh" if language == "zh" else "en"
        fact_ids = [f.id for f in facts]
        passage_ids = [p.id for p in passages]
        max_chars = int(getattr(self.settings, "llm_max_answer_chars", 1200))
        messages = [
            {"role": "system", "content": COMPOSE_SYSTEM.format(language_name=_LANGUAGE_NAMES[lang], max_chars=max_chars)},
            {
                "role": "user",
                "content": COMPOSE_USER.format(
                    question=question,
                    facts="\n".join(format_fact(f) for f in facts) or "(none)",
                    passages="\n".join(format_passage(p) for p in passages) or "(none)",
                    draft=draft or "(none)",
                    fact_ids=_listing(fact_ids),
                    passage_ids=_listing(passage_ids),
                ),
            },
        ]
        evidence = {f.id: evidence_text(f) for f in facts}
        evidence.update({p.id: f"{p.section}\n{p.text}" for p in passages})
        context = {"fact_ids": fact_ids, "passage_ids": passage_ids, "language": lang, "question": question,
                   "evidence": evidence, "find_names": find_names, "max_chars": max_chars}
        return self._run("compose", LLMAnswer, messages, context)
