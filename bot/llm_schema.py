"""What the optional LLM sees and returns: the prompts, the validated output
models (:class:`LLMUnderstanding`, :class:`LLMAnswer`) and the evidence
formatting. The client that sends them is :mod:`threadgraph.bot.llm`.

The intents offered to the LLM, their explanations in the prompt and their
accepted spellings come from the intent registry
(:mod:`threadgraph.bot.intents`, ``llm`` and ``llm_aliases`` in each intent's
YAML file).

Grounding of the answer text (:func:`grounding_problems`): every number, every
KB name and every item of an enumeration ("X、Y 或 Z", "X, Y or Z", "用 X 代替")
the answer names must occur in the question or in the facts and passages it
cites. It lives in :mod:`threadgraph.bot.llm_grounding` (re-exported here); the
words that delimit enumerations are data (``llm_grounding.yaml``).

Both output models read JSON wrapped in prose or a Markdown fence in every
instructor mode (TOOLS, JSON, JSON_SCHEMA, MD_JSON): instructor parses the
TOOLS arguments and the JSON/JSON_SCHEMA content with the model's
``model_validate_json`` as they are, so servers that ignore ``response_format``
("Sure! ```json {…}```") failed there and cost a re-ask. See
:class:`LenientJSONModel`. ``LLMAnswer.answer`` is cut at
:data:`MAX_ANSWER_CHARS`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from ..knowledge.text import has_cjk
from . import intents
from .answer import Fact, Passage
from .llm_grounding import enumerated_items, evidence_text, grounding_problems  # noqa: F401 - re-exported

#: The intents an LLM may choose: every registered intent with a description, in registry order.
INTENT_NAMES = tuple(h.name for h in intents.handlers() if h.description)
Intent = Literal[INTENT_NAMES]  # type: ignore[valid-type]
EntityType = Literal["recipe", "ingredient", "tool", "role", "document", "unknown"]
_ENTITY_TYPES = {"recipe", "ingredient", "tool", "role", "document", "unknown"}
#: Other spellings of intent names (from each intent's ``llm_aliases``).
_INTENT_ALIASES = {a: h.name for h in intents.handlers() for a in h.aliases}
_LATIN = re.compile(r"[A-Za-z]")
_MAX_LISTED_IDS = 60          # ids spelled out in an error message
_MAX_PASSAGE_CHARS = 1200
#: Longest answer text kept from the LLM (characters); longer text is cut at a sentence end and "…" added.
MAX_ANSWER_CHARS = 4000

# --------------------------------------------------------------------------- prompts

_UNDERSTAND_SYSTEM = """\
You analyse one chat message for a question-answering bot about cooking recipes \
(Chinese) and incident-response SOPs (English). Return only the structure asked for.

intent, exactly one of:
{intents}

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
6. Answer first: the first sentence answers the question (yes/no questions with the right \
polarity). Every ingredient, role, name and number you write must appear in the facts or \
passages you cite.
7. Be concise: a few sentences or a short list, at most {max_chars} characters. The draft \
answer below is correct and grounded; improve its wording, do not add claims it lacks unless \
the evidence states them.
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

#: The system prompt of ``understand``: the intent list comes from the registry's descriptions.
UNDERSTAND_SYSTEM = _UNDERSTAND_SYSTEM.replace(
    "{intents}", "\n".join(f"- {h.name}: {h.description}" for h in intents.handlers() if h.description))

_LANGUAGE_NAMES = {"zh": "Chinese, 简体中文", "en": "English"}

# --------------------------------------------------------------------------- models


class LenientJSONModel(BaseModel):
    """A model whose ``model_validate_json`` also accepts its JSON object wrapped in prose or a
    Markdown fence (the last JSON object of the text is taken, with instructor's own
    ``extract_json_from_codeblock``, which bounds its work and nesting). Only a text that is not
    JSON at all is unwrapped; valid JSON that fails validation raises as usual, so instructor
    still re-asks with the validation error. Raises ``pydantic.ValidationError`` when no JSON
    object can be found either."""

    @classmethod
    def model_validate_json(cls, json_data, *, strict=None, context=None, **kwargs):
        """``BaseModel.model_validate_json`` that, when ``json_data`` (str or bytes) is not JSON,
        validates the last JSON object found in it instead (see the class docstring)."""
        try:
            return super().model_validate_json(json_data, strict=strict, context=context, **kwargs)
        except ValidationError as exc:
            if not any(e.get("type") == "json_invalid" for e in exc.errors()):
                raise
            from instructor.utils import extract_json_from_codeblock

            text = json_data.decode("utf-8", "replace") if isinstance(json_data, (bytes, bytearray)) else json_data
            try:
                inner = extract_json_from_codeblock(text)
            except ValueError:
                raise exc from None
            if not inner or inner == text:
                raise
            return super().model_validate_json(inner, strict=strict, context=context, **kwargs)


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


class LLMUnderstanding(LenientJSONModel):
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


class LLMAnswer(LenientJSONModel):
    """The composed answer: ``answer`` text in the question's language, ``found``
    (whether the evidence answers the question), and the cited ``fact_ids`` /
    ``passage_ids``.

    With a validation context ``{"fact_ids": [...], "passage_ids": [...],
    "language": "zh"|"en"}`` (instructor ``context=``), validation fails with
    ``ValueError`` text naming the bad and the allowed ids when a cited id is not
    in the context; it always fails for an empty answer and for ``found=True``
    with no citation. Ids are stripped of surrounding brackets and de-duplicated.
    An answer longer than :data:`MAX_ANSWER_CHARS` characters is cut at its last
    sentence end (or space) before the limit and ends with "…" (no re-ask: a
    shortened grounded answer beats a wasted call)."""

    # the class docstring is for developers; this is what the model sees
    model_config = ConfigDict(json_schema_extra={
        "description": "An answer written only from the listed evidence, with the ids of the facts and passages it uses."
    })

    answer: str = Field(description="The answer, in the question's language.")
    found: bool = Field(description="True when the evidence answers the question.")
    fact_ids: list[str] = Field(default_factory=list, description="Ids of the facts the answer uses.")
    passage_ids: list[str] = Field(default_factory=list, description="Ids of the passages the answer uses.")

    @field_validator("answer")
    @classmethod
    def _cap_answer(cls, v: str) -> str:
        return cap_text(v, MAX_ANSWER_CHARS)

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
        if ctx is not None and ctx.get("max_chars"):
            self.answer = cap_text(self.answer, int(ctx["max_chars"]))
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
            if lang == "zh" and not has_cjk(self.answer):
                raise ValueError("the question is in Chinese: write the answer in Chinese (简体中文)")
            if lang == "en" and not _LATIN.search(self.answer):
                raise ValueError("the question is in English: write the answer in English")
            if "evidence" in ctx:
                evidence = ctx.get("evidence") or {}
                cited = [evidence.get(i, "") for i in self.fact_ids + self.passage_ids]
                allowed = "\n".join([ctx.get("question", "")] + cited)
                bad = grounding_problems(self.answer, allowed, lang or "zh", ctx.get("find_names"))
                if bad:
                    raise ValueError(
                        f"the answer names {json.dumps(bad, ensure_ascii=False)}, which the cited facts and passages "
                        "do not contain. Write only ingredients, roles, names and numbers that the evidence you cite "
                        "states (cite the fact or passage that states them), or leave them out.")
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


#: Where a sentence ends (for :func:`cap_text`).
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")


def cap_text(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at the last sentence end
    (or line break) in its second half; a hard cut marked "…" when there is none."""
    text = text.strip()
    if len(text) <= limit:
        return text
    head = text[:limit]
    ends = [m.end() for m in _SENTENCE_END.finditer(head)]
    cut = max((e for e in ends if e >= limit // 2), default=0)
    return head[:cut].rstrip() if cut else head[: limit - 1].rstrip() + "…"


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
