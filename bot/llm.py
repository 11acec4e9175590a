"""Optional LLM path: understanding and answer composition through instructor.

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
instructor's validation context (``{"fact_ids", "passage_ids", "language"}``).
A cited id that was not retrieved, an empty answer, ``found=True`` without
citations, or an answer not in the question's language is a validation error
whose message lists the allowed ids; instructor appends it to the conversation
and re-asks (bounded by ``llm_max_retries``).

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

import json
import logging
import re
import threading
import time
from typing import TYPE_CHECKING, Any, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from .answer import Fact, Passage

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings

logger = logging.getLogger("threadgraph.llm")

Intent = Literal[
    "substitute", "contains", "used_in", "shared", "required", "exclude",
    "responsibility", "stand_in", "steps", "general",
]
EntityType = Literal["recipe", "ingredient", "tool", "role", "document", "unknown"]
_ENTITY_TYPES = {"recipe", "ingredient", "tool", "role", "document", "unknown"}
_INTENT_ALIASES = {
    "used-in": "used_in", "usedin": "used_in", "stand-in": "stand_in", "standin": "stand_in",
    "substitution": "substitute", "substitutes": "substitute", "contain": "contains",
    "ingredients": "contains", "requirement": "required", "excludes": "exclude",
    "responsible": "responsibility", "step": "steps",
}
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
_MAX_LISTED_IDS = 60          # ids spelled out in an error message
_MAX_KNOWN_ENTITIES = 80      # KB names offered to ``understand``
_MAX_HISTORY_TURNS = 6
_MAX_PASSAGE_CHARS = 1200
_MAX_HISTORY_CHARS = 300      # per remembered turn

# --------------------------------------------------------------------------- prompts

UNDERSTAND_SYSTEM = """\
You analyse one chat message for a question-answering bot about cooking recipes \
(Chinese) and incident-response SOPs (English). Return only the structure asked for.

intent, exactly one of:
- substitute: what can replace X (用什么代替 / 没有X怎么办 / instead of X / without X in a dish)
- contains: ingredients or contents of a recipe or document (需要哪些原料 / what do I need)
- used_in: which recipes or documents use X (哪些菜用到X / which recipes use X)
- shared: what two or more things have in common (A和B共同的原料)
- required: whether X is required or optional (一定要放X吗 / is X required)
- exclude: things that do not use X (不用X的菜 / dishes without X)
- responsibility: who is responsible for something in an SOP
- stand_in: who can take over / stand in for a role
- steps: the steps or procedure, in order
- general: anything else

entities: every recipe, ingredient, tool, role or document the message names or refers \
to (resolve 它/这个/那…呢/it/that/they from the conversation so far). Prefer the exact \
spelling from the known names list when one matches; otherwise keep the user's words \
and use type "unknown" if unsure. Never invent entities the message does not refer to.
excluded: things the user does NOT have or wants to do without (没有X / 不要X / without X).
language: "zh" if the message is written in Chinese, otherwise "en".
"""

UNDERSTAND_USER = """\
Known names in the knowledge base (may be partial):
{known}

Conversation so far (oldest first):
{history}

Message:
{question}
"""

COMPOSE_SYSTEM = """\
You write the answer of a question-answering bot from retrieved evidence only.
Rules:
1. Use ONLY the facts and passages below. Do not use outside knowledge.
2. Cite every fact id and passage id your answer relies on in fact_ids and passage_ids; \
cite only ids listed below, copied exactly (without the brackets).
3. If nothing below supports an answer, say so plainly, set found to false and cite nothing.
4. Never invent a substitute, an ingredient, a role or a step that is not in the evidence.
5. Answer in the question's language ({language_name}); keep names as they appear in the evidence.
6. Be concise: a few sentences or a short list. The draft answer below is correct and \
grounded; improve its wording, do not add claims it lacks unless the evidence states them.
"""

COMPOSE_USER = """\
Question: {question}

Facts (format: [id] subject -RELATION-> object (properties) (source doc:line)):
{facts}

Passages (format: [id] doc § section: text):
{passages}

Draft answer:
{draft}

Allowed fact ids: {fact_ids}
Allowed passage ids: {passage_ids}
"""

_LANGUAGE_NAMES = {"zh": "Chinese, 简体中文", "en": "English"}

# --------------------------------------------------------------------------- models


class EntityMention(BaseModel):
    """One entity named in a message: ``name`` as written (or the KB spelling) and
    ``type`` (recipe|ingredient|tool|role|document|unknown; anything else becomes
    ``unknown``)."""

    name: str = Field(description="The entity's name, preferably the exact KB spelling.")
    type: EntityType = Field("unknown", description="recipe, ingredient, tool, role, document or unknown.")

    @field_validator("name")
    @classmethod
    def _name_not_empty(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("entity name must not be empty")
        return v

    @field_validator("type", mode="before")
    @classmethod
    def _coerce_type(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = v.strip().lower()
            return v if v in _ENTITY_TYPES else "unknown"
        return v


class LLMUnderstanding(BaseModel):
    """What the message asks: ``intent``, the ``entities`` it names, what is
    ``excluded`` (things the user lacks / wants without) and its ``language``.

    Lenient where it is safe (intent spellings such as ``used-in`` normalise,
    unknown entity types become ``unknown``, ``zh-CN`` becomes ``zh``); an intent
    outside the list is a validation error (instructor re-asks)."""

    model_config = ConfigDict(json_schema_extra={
        "description": "The intent of a chat message, the entities it names, what the user lacks or excludes, and its language."
    })

    intent: Intent = Field(description="One of the listed intents.")
    entities: list[EntityMention] = Field(default_factory=list)
    excluded: list[str] = Field(default_factory=list, description="Things the user does NOT have or wants without.")
    language: Literal["zh", "en"] = Field(description='"zh" for Chinese, "en" for English.')

    @field_validator("intent", mode="before")
    @classmethod
    def _normalise_intent(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = v.strip().lower().replace(" ", "_")
            return _INTENT_ALIASES.get(v, v)
        return v

    @field_validator("language", mode="before")
    @classmethod
    def _normalise_language(cls, v: Any) -> Any:
        if isinstance(v, str):
            low = v.strip().lower()
            if low.startswith("zh") or low in {"chinese", "中文", "cn"}:
                return "zh"
            if low.startswith("en") or low == "english":
                return "en"
        return v

    @field_validator("excluded")
    @classmethod
    def _clean_excluded(cls, v: list[str]) -> list[str]:
        return [s.strip() for s in v if s and s.strip()]


def _normalise_id(v: Any) -> Any:
    if isinstance(v, str):
        return v.strip().strip("[]").strip()
    return v


def _listing(ids: Sequence[str]) -> str:
    shown = list(ids)[:_MAX_LISTED_IDS]
    more = f" (and {len(ids) - len(shown)} more)" if len(ids) > len(shown) else ""
    return (json.dumps(shown, ensure_ascii=False) + more) if shown else "[] (none: cite nothing)"


class LLMAnswer(BaseModel):
    """The composed answer: ``answer`` text in the question's language, ``found``
    (whether the evidence answers the question), and the cited ``fact_ids`` /
    ``passage_ids``.

    With a validation context ``{"fact_ids": [...], "passage_ids": [...],
    "language": "zh"|"en"}`` (instructor ``context=``), validation fails with
    ``ValueError`` text naming the bad and the allowed ids when a cited id is not
    in the context; it always fails for an empty answer and for ``found=True``
    with no citation. Ids are stripped of surrounding brackets and de-duplicated."""

    # the class docstring is for developers; this is what the model sees
    model_config = ConfigDict(json_schema_extra={
        "description": "An answer written only from the listed evidence, with the ids of the facts and passages it uses."
    })

    answer: str = Field(description="The answer, in the question's language.")
    found: bool = Field(description="True when the evidence answers the question.")
    fact_ids: list[str] = Field(default_factory=list, description="Ids of the facts the answer uses.")
    passage_ids: list[str] = Field(default_factory=list, description="Ids of the passages the answer uses.")

    @field_validator("fact_ids", "passage_ids", mode="before")
    @classmethod
    def _clean_ids(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = [v]
        if isinstance(v, list):
            out: list[Any] = []
            for item in v:
                item = _normalise_id(item)
                if item not in out and item != "":
                    out.append(item)
            return out
        return v

    @model_validator(mode="after")
    def _grounded(self, info: ValidationInfo) -> "LLMAnswer":
        if not self.answer or not self.answer.strip():
            raise ValueError("answer must not be empty; say plainly when nothing supports an answer")
        ctx = info.context if isinstance(info.context, dict) else None
        if ctx is not None:
            problems: list[str] = []
            allowed_f = list(ctx.get("fact_ids") or [])
            allowed_p = list(ctx.get("passage_ids") or [])
            bad_f = [i for i in self.fact_ids if i not in set(allowed_f)]
            bad_p = [i for i in self.passage_ids if i not in set(allowed_p)]
            if bad_f:
                problems.append(
                    f"fact_ids {json.dumps(bad_f, ensure_ascii=False)} are not in the retrieved facts; "
                    f"allowed fact ids: {_listing(allowed_f)}"
                )
            if bad_p:
                problems.append(
                    f"passage_ids {json.dumps(bad_p, ensure_ascii=False)} are not in the retrieved passages; "
                    f"allowed passage ids: {_listing(allowed_p)}"
                )
            if problems:
                raise ValueError("; ".join(problems) + ". Cite only allowed ids, copied exactly.")
            lang = ctx.get("language")
            if lang == "zh" and not _CJK.search(self.answer):
                raise ValueError("the question is in Chinese: write the answer in Chinese (简体中文)")
            if lang == "en" and not _LATIN.search(self.answer):
                raise ValueError("the question is in English: write the answer in English")
        if self.found and not (self.fact_ids or self.passage_ids):
            allowed = ""
            if ctx is not None:
                allowed = (
                    f" Allowed fact ids: {_listing(list(ctx.get('fact_ids') or []))};"
                    f" allowed passage ids: {_listing(list(ctx.get('passage_ids') or []))}."
                )
            raise ValueError(
                "found is true but no fact_ids or passage_ids are cited: cite the evidence, "
                "or set found to false if nothing supports an answer." + allowed
            )
        return self


# --------------------------------------------------------------------------- helpers


def _clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "…"


def format_fact(f: Fact) -> str:
    """``[id] subject -RELATION-> object (k=v, ...) (source doc:line)``; the
    properties group is omitted when empty."""
    props = ", ".join(f"{k}={v}" for k, v in f.properties.items() if v not in (None, ""))
    props_part = f" ({props})" if props else ""
    loc = f.source.doc + (f":{f.source.line}" if f.source.line else "")
    return f"[{f.id}] {f.subject} -{f.relation}-> {f.object}{props_part} (source {loc})"


def format_passage(p: Passage) -> str:
    """``[id] doc § section: text`` with whitespace collapsed and text cut at
    ``_MAX_PASSAGE_CHARS``."""
    text = _clip(p.text, _MAX_PASSAGE_CHARS)
    section = f" § {p.section}" if p.section else ""
    return f"[{p.id}] {p.doc}{section}: {text}"


def ground(answer: LLMAnswer, facts: Sequence[Fact], passages: Sequence[Passage]) -> tuple[list[Fact], list[Passage]]:
    """Return the facts and passages ``answer`` cites, in citation order, without
    duplicates; ids that match nothing are skipped (validation normally rejects
    them earlier). Pure."""
    by_f = {f.id: f for f in facts}
    by_p = {p.id: p for p in passages}
    out_f: list[Fact] = []
    out_p: list[Passage] = []
    for i in answer.fact_ids:
        f = by_f.get(_normalise_id(i))
        if f is not None and f not in out_f:
            out_f.append(f)
    for i in answer.passage_ids:
        p = by_p.get(_normalise_id(i))
        if p is not None and p not in out_p:
            out_p.append(p)
    return out_f, out_p


class _Redactor(logging.Filter):
    """Replaces known secrets in log records of the libraries we drive (instructor
    logs ``str(exception)`` on failures; an upstream error body may echo a key)."""

    def __init__(self) -> None:
        super().__init__("")
        self.secrets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        try:
            msg = record.getMessage()
        except Exception:  # pragma: no cover - malformed record, leave it
            return True
        hit = False
        for s in self.secrets:
            if s and s in msg:
                msg = msg.replace(s, "***")
                hit = True
        if hit:
            record.msg, record.args = msg, ()
        return True


_REDACTOR = _Redactor()
_REDACTED_LOGGERS = ("instructor", "instructor.v2.retry", "openai", "openai._base_client", "httpx", "httpcore")


def _install_redactor(secret: str) -> None:
    _REDACTOR.secrets.add(secret)
    for name in _REDACTED_LOGGERS:
        lg = logging.getLogger(name)
        if _REDACTOR not in lg.filters:
            lg.addFilter(_REDACTOR)


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
        _install_redactor(key)
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
    ) -> LLMAnswer | None:
        """Write the answer to ``question`` from ``facts``/``passages`` only.

        ``language`` is ``"zh"`` or ``"en"``; ``draft`` is the deterministic answer.
        The result cites only ids present in ``facts``/``passages`` (enforced by
        validation + instructor re-asks); use ``ground()`` to pick the cited
        evidence. Returns ``None`` on any failure or when ``budget`` is spent."""
        if not self._take("compose", budget):
            return None
        lang = "zh" if language == "zh" else "en"
        fact_ids = [f.id for f in facts]
        passage_ids = [p.id for p in passages]
        messages = [
            {"role": "system", "content": COMPOSE_SYSTEM.format(language_name=_LANGUAGE_NAMES[lang])},
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
        context = {"fact_ids": fact_ids, "passage_ids": passage_ids, "language": lang}
        return self._run("compose", LLMAnswer, messages, context)
