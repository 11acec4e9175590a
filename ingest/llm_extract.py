"""Optional LLM relation extraction at ingest, merged under the rule facts.

The rule extractors stay the default. This module runs only when an LLM is
configured (``OPENAI_API_KEY``, plus ``OPENAI_BASE_URL`` for any
OpenAI-compatible server) **and** enabled for ingest
(``THREADGRAPH_LLM_EXTRACT=true`` or ``threadgraph ingest --llm``). The one
entry point is :func:`add_llm_facts`, called by
:func:`~.pipeline.extract_corpus` after the rule extractors.

What it does, per section (one retrieval passage: a heading's text, long
sections in parts; see :mod:`.chunks`):

1. **Ask** the model, through ``instructor`` (mode ``THREADGRAPH_LLM_MODE``),
   for the relations the section states, as :class:`SectionFacts`. Relations
   (:data:`RELATIONS`): ``substitutes`` (an ingredient or tool that can be
   replaced), ``contains`` (a recipe's ingredient or tool, optional or not, with
   its amount), ``stand_in`` (a person or role acting for a role),
   ``fallback`` (a system or channel used when another is down) and
   ``responsible_for`` (a role's duty).
2. **Parse tolerantly** (:func:`parse_output`) when the output does not
   validate: fenced JSON, JSON with prose around it, a bare JSON list,
   ``A | relation | B`` lines. A section whose output cannot be parsed at all
   is skipped and counted (``unparsable``); instructor does not re-ask.
3. **Anchor**: a fact's subject must be a name the section or its document
   contains (normalized match: :func:`~..knowledge.text.normalize`, CJK spaces
   and English plurals folded). Other facts are dropped and counted
   (``dropped_unanchored``). The object may be a new entity, of the
   subject's kind.
4. **Map** into the rule schema, ``extractor="llm"``, confidence = the
   model's stated confidence capped at :data:`CONFIDENCE_CAP`:
   ``substitutes`` → ``SUBSTITUTES`` (``context`` = the document's recipe,
   ``condition``, ``amount`` when stated); ``stand_in`` and ``fallback`` →
   ``SUBSTITUTES`` between roles / systems with their ``condition`` (the
   shape the role rules and the bot's stand-in answers use); ``contains`` →
   ``CONTAINS`` (``required``, ``amount``, ``order``); ``responsible_for`` →
   ``RELATED`` (``predicate="responsible_for"``).
5. **Merge** with the rule triples: a fact with the same subject, relation,
   object and document as a rule fact (or an earlier LLM fact) is dropped
   (``duplicates``); rule facts keep priority.

Cost and failure: results are cached in ``{data_dir}/cache/llm_extract.sqlite``
keyed by the sha256 of the prompt version, the system prompt, the model and
the section's user message (its text), so re-ingesting unchanged text makes
no call. Only parsed outputs are cached (a failed or unparsable section is
asked again next time). Calls run on ``THREADGRAPH_LLM_EXTRACT_CONCURRENCY``
threads, each HTTP attempt bounded by ``THREADGRAPH_LLM_EXTRACT_TIMEOUT_S``;
HTTP 429, 5xx and connection errors are retried up to
``THREADGRAPH_LLM_EXTRACT_RETRIES`` times (honouring ``Retry-After``, at most
:data:`MAX_RETRY_AFTER_S`), a timeout is not retried. No error fails the
ingest: the section keeps its rule facts and is counted (``failed``). Log
lines name exception types and HTTP status only; the API key is redacted
from the LLM libraries' loggers too.

``openai`` and ``instructor`` are imported only when extraction runs.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import re
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..knowledge.records import Entity, Extraction, Provenance, Triple, entity_id
from ..knowledge.text import DictLinker, detect_language, has_cjk, name_key
from ..settings import SecretRedactor
from .document import ParsedDocument
from .items import is_tool
from .normalize import Normalizer, clean_name

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import Settings

__all__ = [
    "CONFIDENCE_CAP", "PROMPT_VERSION", "RELATIONS", "ExtractedFact", "LLMExtractReport", "LLMFactCache",
    "SectionFacts", "add_llm_facts", "parse_output",
]

logger = logging.getLogger("threadgraph.llm_extract")

PROMPT_VERSION = "llm-extract-3"
"""Bump when the prompt or the output model changes meaning: it is part of the cache key."""
RELATIONS = ("substitutes", "contains", "stand_in", "fallback", "responsible_for")
CONFIDENCE_CAP = 0.8
"""Highest confidence an LLM fact gets (rule facts are 0.7–1.0)."""
DEFAULT_CONFIDENCE = 0.6
"""Confidence of a fact stated without one (pipe lines, a missing field)."""
MIN_SECTION_CHARS = 8
"""Shorter sections are not sent (nothing to relate)."""
MAX_RETRY_AFTER_S = 30.0
MAX_NAME_CHARS = 60
MAX_NAME_WORDS = 8
MAX_CJK_NAME_CHARS = 16
EXTRACTOR = "llm"

# --------------------------------------------------------------------------- prompt

SYSTEM_PROMPT = """\
You extract facts from ONE section of a document (a recipe, a how-to, a runbook, a handbook, \
notes) for a knowledge graph. Report only what the section itself states; never add outside \
knowledge.

Relations (subject -> object):
- substitutes: the subject (an ingredient or a tool) can be replaced by the object. condition: \
when it applies, as written ("if you have none", "没有时"); amount: a ratio or amount \
stated for the replacement ("1:1", "half the amount", "等重").
- contains: the subject (the recipe or dish; use the document title) uses the object (an \
ingredient or a tool). required: false when the text marks it optional, to taste, a garnish or \
可选; amount: as written ("150g", "2 cups").
- stand_in: the object (a role or a person) can act for the subject (a role). condition: when \
("if the team lead is away").
- fallback: the object (a system, tool or channel) is used instead of the subject (a system, \
tool or channel). condition: when ("if the primary server is down").
- responsible_for: the subject (a role) is responsible for the object (a task or an artifact).

Rules:
- The subject must be written in the section (or be the document title): copy its name exactly.
- Names are short noun phrases in the text's language, without amounts or notes.
- confidence: 0 to 1, how explicitly the text states the fact.
- If the section states none of these relations, return {"facts": []}.
Answer with JSON: {"facts": [{"subject": "...", "relation": "substitutes", "object": "...", \
"condition": "", "amount": "", "required": null, "confidence": 0.9}]}. If you cannot write JSON, \
write one fact per line as: subject | relation | object
"""

USER_PROMPT = """\
Document: {title}
Section: {section}
Text:
{text}
"""

# --------------------------------------------------------------------------- output model

_ALIASES: dict[str, tuple[str, bool]] = {}
"""Normalized relation spelling -> (relation, reversed). ``reversed`` means the
spelling reads object-first ("A | stands in for | B": A acts for B)."""
for _rel, _rev, _names in (
    ("substitutes", False, "substitutes substitute substitution substituted_by can_be_substituted_by replaced_by "
                           "can_be_replaced_by can_be_replaced_with replaceable_by replace_with swap swap_with "
                           "swapped_with alternative alternatives alternative_is subbed_with sub "
                           "替代 代替 替换 可替代 可用 可以用"),
    ("substitutes", True, "substitute_for substitutes_for replaces instead_of in_place_of alternative_to "
                          "alternative_for replacement_for can_replace"),
    ("contains", False, "contains contain uses use has has_ingredient ingredient ingredients includes include "
                        "requires needs made_with 包含 含有 使用 需要 用料 原料"),
    ("stand_in", False, "stand_in standin stand_ins stand_in_is deputy deputized_by backup backed_up_by covered_by "
                        "delegate delegates_to handover hand_over hands_over_to acting replaced_by_role "
                        "代理 代替人 顶替"),
    ("stand_in", True, "stands_in_for stand_in_for can_stand_in_for acts_for acts_as deputy_for deputy_of "
                       "backup_for backup_of covers_for covers"),
    ("fallback", False, "fallback fall_back fallback_to falls_back_to fails_over_to failover failover_to "
                        "backup_system alternate_channel 备用 降级"),
    ("fallback", True, "fallback_for fallback_of is_fallback_for"),
    ("responsible_for", False, "responsible_for responsible responsibility owns owner_of in_charge_of handles "
                               "is_responsible_for duty duties 负责"),
):
    for _n in _names.split():
        _ALIASES[_n] = (_rel, _rev)


def normalize_relation(text: str) -> tuple[str, bool] | None:
    """``(relation, reversed)`` for a relation as a model may spell it
    (``"SUBSTITUTES"``, ``"can be replaced by"``, ``"stands in for"``,
    ``"代替"``…), ``None`` when it is none of :data:`RELATIONS`. ``reversed``
    is True for spellings that read object-first (swap subject and object)."""
    s = re.sub(r"[\s\-/]+", "_", str(text or "").strip().strip("`*\"'[]()<>:").lower()).strip("_")
    if s in _ALIASES:
        return _ALIASES[s]
    for prefix in ("is_", "are_", "can_be_", "can_", "may_be_", "may_"):
        if s.startswith(prefix) and s[len(prefix):] in _ALIASES:
            return _ALIASES[s[len(prefix):]]
    return None


_KEYS = {
    "subject": ("subject", "subj", "s", "head", "source", "from", "x", "item", "original"),
    "object": ("object", "obj", "o", "tail", "target", "to", "y", "substitute", "replacement", "value"),
    "relation": ("relation", "rel", "predicate", "relationship", "type", "r", "edge"),
}
_LIST_KEYS = ("facts", "triples", "relations", "relationships", "edges", "items", "results", "data")
_CONF_WORDS = {"very high": 0.95, "high": 0.9, "medium": 0.6, "moderate": 0.6, "low": 0.3, "very low": 0.1}


def _pick(d: dict, names: tuple[str, ...]) -> Any:
    low = {str(k).lower(): v for k, v in d.items()}
    for n in names:
        if n in low and low[n] not in (None, ""):
            return low[n]
    return None


def _clean_item(item: Any) -> dict | None:
    """One output item as ``ExtractedFact`` fields, relation normalized and a
    reversed spelling swapped; ``None`` when it is not a usable fact."""
    if not isinstance(item, dict):
        return None
    subj, obj, rel = (_pick(item, _KEYS[k]) for k in ("subject", "object", "relation"))
    if not isinstance(subj, str) or not isinstance(obj, str) or rel is None:
        return None
    norm = normalize_relation(str(rel))
    if norm is None:
        return None
    relation, rev = norm
    out = {k: v for k, v in item.items() if k in ("condition", "amount", "required", "confidence")}
    out.update(subject=obj if rev else subj, object=subj if rev else obj, relation=relation)
    return out


def _confidence(v: Any) -> float:
    if v is None or isinstance(v, bool):
        return DEFAULT_CONFIDENCE
    if isinstance(v, str):
        s = v.strip().lower()
        if s in _CONF_WORDS:
            return _CONF_WORDS[s]
        try:
            v = float(s.rstrip("%")) / (100 if s.endswith("%") else 1)
        except ValueError:
            return DEFAULT_CONFIDENCE
    try:
        f = float(v)
    except (TypeError, ValueError):
        return DEFAULT_CONFIDENCE
    if f != f:  # NaN
        return DEFAULT_CONFIDENCE
    if 1 < f <= 100:
        f /= 100
    return min(max(f, 0.0), 1.0)


class ExtractedFact(BaseModel):
    """One relation a section states: ``subject`` and ``object`` as written,
    ``relation`` one of :data:`RELATIONS`, ``condition`` and ``amount`` as
    written (``""`` when none), ``required`` (for ``contains``; ``None`` when
    not said) and ``confidence`` in [0, 1] (words, percentages and numbers
    are accepted; anything else becomes :data:`DEFAULT_CONFIDENCE`)."""

    model_config = ConfigDict(json_schema_extra={"description": "One relation the section states."})

    subject: str = Field(description="The thing the fact is about, copied exactly from the section.")
    relation: Literal["substitutes", "contains", "stand_in", "fallback", "responsible_for"]
    object: str = Field(description="The replacement, ingredient, stand-in, fallback or duty.")
    condition: str = Field("", description="When it applies, as written; empty if not stated.")
    amount: str = Field("", description="Amount or ratio, as written; empty if not stated.")
    required: bool | None = Field(None, description="contains only: false when optional.")
    confidence: float = Field(DEFAULT_CONFIDENCE, description="0 to 1: how explicitly the text states it.")

    @field_validator("subject", "object", "condition", "amount", mode="before")
    @classmethod
    def _text(cls, v: Any) -> str:
        if v is None:
            return ""
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = str(v)
        return re.sub(r"\s+", " ", v).strip() if isinstance(v, str) else v

    @field_validator("required", mode="before")
    @classmethod
    def _required(cls, v: Any) -> Any:
        if isinstance(v, str):
            s = v.strip().lower()
            if s in ("true", "yes", "required", "必需", "必须", "是"):
                return True
            if s in ("false", "no", "optional", "可选", "否"):
                return False
            return None
        return v

    @field_validator("confidence", mode="before")
    @classmethod
    def _conf(cls, v: Any) -> float:
        return _confidence(v)


class SectionFacts(BaseModel):
    """The facts of one section (``facts``, possibly empty).

    Validation is lenient about shape: a bare list of facts, the list under
    ``triples``/``relations``/… instead of ``facts``, other key spellings
    (``predicate``, ``head``/``tail``…) and relation spellings
    (:func:`normalize_relation`) are accepted; items that are not usable facts
    are left out. A value with no recognizable list of facts is invalid."""

    model_config = ConfigDict(json_schema_extra={"description": "The relations one section states."})

    facts: list[ExtractedFact] = Field(description="Every relation the section states; empty if none.")

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, data: Any) -> Any:
        if isinstance(data, list):
            items = data
        elif isinstance(data, dict):
            items = _pick(data, _LIST_KEYS)
            if items is None and _clean_item(data) is not None:
                items = [data]  # one fact on its own
            if items is None:
                key = next((k for k in data if str(k).lower() in _LIST_KEYS), None)
                items = [] if key is not None and data[key] in ([], None, "") else None
            if not isinstance(items, list):
                raise ValueError('expected {"facts": [{"subject", "relation", "object", ...}]}')
        else:
            raise ValueError('expected {"facts": [{"subject", "relation", "object", ...}]}')
        return {"facts": [c for c in (_clean_item(i) for i in items) if c is not None]}


# --------------------------------------------------------------------------- tolerant parsing

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.S)
_NONE_ANSWER = re.compile(r"^\W*(?:none|no facts?|no relations?|nothing|n/a|无|没有|无关系)\W*$", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d+[.)、])\s+")


def _json_candidates(text: str) -> list[Any]:
    """Decoded JSON values found in ``text``: fenced blocks first, then the
    whole text, then every object/array starting at a ``{`` or ``[`` (the
    first complete value there)."""
    out: list[Any] = []
    dec = json.JSONDecoder()
    pieces = [m.group(2) for m in _FENCE.finditer(text)] + [text]
    for piece in pieces:
        s = piece.strip()
        try:
            out.append(json.loads(s))
            continue
        except ValueError:
            pass
        for m in re.finditer(r"[\[{]", s):
            try:
                val, _ = dec.raw_decode(s, m.start())
            except ValueError:
                continue
            if isinstance(val, (dict, list)):
                out.append(val)
    return out


def _pipe_facts(text: str) -> list[ExtractedFact]:
    """``subject | relation | object [| condition or amount [| confidence]]``
    lines (bullets, numbering, backticks and Markdown-table pipes allowed);
    header, separator and unknown-relation lines are skipped."""
    facts = []
    for raw in text.splitlines():
        line = _BULLET.sub("", raw.strip().strip("`")).strip()
        if line.count("|") < 2:
            continue
        cells = [c.strip().strip("*`\"'") for c in line.strip("|").split("|")]
        if len(cells) < 3 or not cells[0] or not cells[2]:
            continue
        item: dict[str, Any] = {"subject": cells[0], "relation": cells[1], "object": cells[2]}
        extra = [c for c in cells[3:] if c]
        if extra and _confidence_like(extra[-1]):
            item["confidence"] = extra.pop()
        if extra:
            item["amount" if (normalize_relation(cells[1]) or ("",))[0] == "contains" else "condition"] = extra[0]
        clean = _clean_item(item)
        if clean is None:
            continue
        if clean["relation"] == "contains" and re.search(r"optional|可选|to taste|适量", clean.get("amount", ""), re.I):
            clean["required"] = False
        try:
            facts.append(ExtractedFact.model_validate(clean))
        except ValidationError:
            continue
    return facts


def _confidence_like(s: str) -> bool:
    return bool(re.fullmatch(r"(?:0?\.\d+|1(?:\.0+)?|0|\d{1,3}%)", s.strip())) or s.strip().lower() in _CONF_WORDS


def parse_output(text: str | None) -> list[ExtractedFact] | None:
    """The facts in a model's raw output, or ``None`` when nothing can be parsed.

    Tries, in order: JSON (fenced blocks, the whole text, the first complete
    object or array inside prose) validated as :class:`SectionFacts`; then
    ``A | relation | B`` lines; then an explicit "none" answer (``[]``).
    Never raises."""
    if not text or not text.strip():
        return None
    for val in _json_candidates(text):
        try:
            return SectionFacts.model_validate(val).facts
        except ValidationError:
            continue
    facts = _pipe_facts(text)
    if facts:
        return facts
    if _NONE_ANSWER.match(text.strip()):
        return []
    return None


# --------------------------------------------------------------------------- report


@dataclass
class LLMExtractReport:
    """What LLM extraction did in one ingest.

    ``model`` the model name; ``sections`` sections considered; ``calls`` HTTP
    requests sent (retries included); ``prompt_tokens``/``completion_tokens``
    summed from the responses' ``usage``; ``cache_hits`` sections answered
    without a call (from the cache, or a section with the same text earlier in
    the same ingest: one call per distinct text); ``facts`` LLM triples added; ``duplicates`` LLM triples already
    stated (by a rule or an earlier section); ``dropped_unanchored`` facts whose
    subject the section/document does not name; ``rejected`` facts that could
    not become a triple (a name that cleans to nothing or is too long, a
    ``contains`` subject that is not the recipe, subject = object);
    ``unparsable`` distinct section texts whose output could not be parsed;
    ``failed`` distinct section texts lost to errors (timeout, HTTP error after retries);
    ``seconds`` wall time; ``warnings`` human lines for the ingest report."""

    model: str = ""
    sections: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    facts: int = 0
    duplicates: int = 0
    dropped_unanchored: int = 0
    rejected: int = 0
    unparsable: int = 0
    failed: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def as_dict(self) -> dict[str, Any]:
        """Every field plus ``tokens``, JSON-ready."""
        d = asdict(self)
        d["tokens"] = self.tokens
        return d


# --------------------------------------------------------------------------- cache


class LLMFactCache:
    """Parsed section outputs by content hash (SQLite, like the embedding
    cache). Values are the :class:`ExtractedFact` dicts of a section (before
    anchoring, which depends on the document and is redone every ingest).
    Use from one thread. Raises ``sqlite3.Error`` when the file cannot be
    opened."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30)
        self._db.execute("CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, v TEXT NOT NULL)")

    @staticmethod
    def key(model: str, user_message: str) -> str:
        """sha256 of the prompt version, the system prompt, ``model`` and the
        section's ``user_message`` (document title, section path and text)."""
        raw = "\x1f".join((PROMPT_VERSION, SYSTEM_PROMPT, model, user_message))
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()

    def get(self, key: str) -> list[ExtractedFact] | None:
        """The cached facts under ``key`` (``None`` when absent or unreadable)."""
        row = self._db.execute("SELECT v FROM facts WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return [ExtractedFact.model_validate(d) for d in json.loads(row[0])["facts"]]
        except (ValueError, KeyError, TypeError, ValidationError):
            return None

    def put(self, key: str, facts: Sequence[ExtractedFact], tokens: int = 0) -> None:
        """Store ``facts`` under ``key`` (``tokens``: what they cost, kept for reference)."""
        v = json.dumps({"facts": [f.model_dump() for f in facts], "tokens": tokens}, ensure_ascii=False)
        self._db.execute("INSERT OR REPLACE INTO facts(key, v) VALUES (?, ?)", (key, v))
        self._db.commit()

    def close(self) -> None:
        """Close the database."""
        self._db.close()


# --------------------------------------------------------------------------- client

_REDACTOR = SecretRedactor()
_REDACTED_LOGGERS = ("instructor", "instructor.v2.retry", "openai", "openai._base_client", "httpx", "httpcore")


def _install_redactor(secret: str) -> None:
    _REDACTOR.add(secret)
    for name in _REDACTED_LOGGERS:
        lg = logging.getLogger(name)
        if _REDACTOR not in lg.filters:
            lg.addFilter(_REDACTOR)


def describe_failure(exc: BaseException) -> str:
    """A short reason from the exception chain, never message text (it may
    quote a key): ``"HTTP 503 (InternalServerError)"``, ``"timeout
    (APITimeoutError)"``, ``"connection error (APIConnectionError)"``, else the
    innermost exception type."""
    chain = _chain(exc)
    for e in chain:
        if getattr(e, "status_code", None) is not None:
            return f"HTTP {e.status_code} ({type(e).__name__})"  # type: ignore[attr-defined]
    for e in chain:
        if "Timeout" in type(e).__name__:
            return f"timeout ({type(e).__name__})"
    for e in chain:
        if type(e).__name__ == "APIConnectionError":
            return "connection error (APIConnectionError)"
    return type(chain[-1]).__name__


class _OwnThreads(logging.Filter):
    """Drops the LLM libraries' records emitted on the extraction worker
    threads: instructor logs every failed attempt at ERROR with the error text;
    :func:`add_llm_facts` reports each section once itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.threadName.startswith(_THREAD_PREFIX)


_THREAD_PREFIX = "llm-extract"
_QUIET = _OwnThreads()


def _install_filters(secret: str) -> None:
    _install_redactor(secret)
    for name in _REDACTED_LOGGERS:
        lg = logging.getLogger(name)
        if _QUIET not in lg.filters:
            lg.addFilter(_QUIET)


def _chain(exc: BaseException) -> list[BaseException]:
    out = [exc]
    while getattr(out[-1], "__cause__", None) is not None and len(out) < 8:
        out.append(out[-1].__cause__)  # type: ignore[arg-type]
    return out


@dataclass
class _Outcome:
    status: str  # "ok" | "unparsable" | "failed"
    facts: list[ExtractedFact] = field(default_factory=list)
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: str = ""


def _usage(obj: Any) -> tuple[int, int]:
    u = getattr(obj, "usage", None) if obj is not None and not hasattr(obj, "prompt_tokens") else obj
    if u is None:
        return 0, 0
    return int(getattr(u, "prompt_tokens", 0) or 0), int(getattr(u, "completion_tokens", 0) or 0)


def _completion_text(completion: Any) -> str:
    """The assistant text of a chat completion (content, else tool arguments)."""
    try:
        msg = completion.choices[0].message
    except (AttributeError, IndexError, TypeError):
        return ""
    if getattr(msg, "content", None):
        return str(msg.content)
    parts = [tc.function.arguments for tc in (getattr(msg, "tool_calls", None) or [])
             if getattr(getattr(tc, "function", None), "arguments", None)]
    return "\n".join(parts)


class SectionClient:
    """instructor over the OpenAI SDK for section extraction (thread-safe).

    ``__init__`` raises ``RuntimeError`` without an API key and ``ValueError``
    for an unknown ``llm_mode``; it makes no request. :meth:`extract` never
    raises."""

    def __init__(self, settings: "Settings") -> None:
        import instructor
        import openai

        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key is not None else ""
        if not key:
            raise RuntimeError("LLM extraction needs OPENAI_API_KEY")
        try:
            self.mode = instructor.Mode[settings.llm_mode.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown THREADGRAPH_LLM_MODE {settings.llm_mode!r}; use TOOLS, JSON, JSON_SCHEMA or MD_JSON"
            ) from None
        _install_filters(key)
        self.model = settings.llm_model
        self.retries = settings.llm_extract_retries
        self.backoff_s = settings.llm_extract_backoff_s
        self._openai_mod = openai
        self._client = instructor.from_openai(
            openai.OpenAI(api_key=key, base_url=settings.openai_base_url,
                          timeout=settings.llm_extract_timeout_s, max_retries=0),
            mode=self.mode,
        )

    def _api_error(self, exc: BaseException) -> BaseException | None:
        """The first OpenAI SDK error along ``exc``'s cause chain (instructor wraps them)."""
        return next((e for e in _chain(exc) if isinstance(e, self._openai_mod.APIError)), None)

    def _retryable(self, exc: BaseException) -> bool:
        """HTTP 429, 5xx and connection errors are retried; timeouts and other statuses are not."""
        o = self._openai_mod
        err = self._api_error(exc)
        if err is None or isinstance(err, o.APITimeoutError):
            return False
        if isinstance(err, o.APIStatusError):
            return err.status_code == 429 or err.status_code >= 500
        return isinstance(err, o.APIConnectionError)

    def _delay(self, exc: BaseException, attempt: int) -> float:
        """Seconds before retry ``attempt + 1``: the server's ``Retry-After``
        (seconds), else ``backoff_s * 2**attempt``; at most :data:`MAX_RETRY_AFTER_S`."""
        resp = getattr(self._api_error(exc), "response", None)
        headers = getattr(resp, "headers", None)
        header = headers.get("retry-after") if headers is not None else None
        if header:
            try:
                return min(max(float(header), 0.0), MAX_RETRY_AFTER_S)
            except ValueError:
                pass
        return min(self.backoff_s * (2 ** attempt), MAX_RETRY_AFTER_S)

    def extract(self, messages: list[dict]) -> _Outcome:
        """Ask for one section's facts: ``ok`` with the facts (validated, or
        parsed by :func:`parse_output` from output that did not validate),
        ``unparsable``, or ``failed`` with a one-line reason. Counts HTTP
        requests and tokens."""
        from instructor.core.exceptions import IncompleteOutputException, InstructorRetryException

        out = _Outcome("failed")
        for attempt in range(self.retries + 1):
            out.calls += 1
            try:
                parsed, completion = self._client.chat.completions.create_with_completion(
                    model=self.model, response_model=SectionFacts, messages=messages, max_retries=0)
                p, c = _usage(completion)
                out.prompt_tokens += p
                out.completion_tokens += c
                out.status, out.facts = "ok", list(parsed.facts)
                return out
            except InstructorRetryException as exc:
                p, c = _usage(getattr(exc, "total_usage", None))
                out.prompt_tokens += p
                out.completion_tokens += c
                completion = getattr(exc, "last_completion", None)
                if completion is not None:  # the server answered; its output did not validate
                    return self._tolerant(out, completion)
                if self._retryable(exc) and attempt < self.retries:
                    time.sleep(self._delay(exc, attempt))
                    continue
                out.error = describe_failure(exc)
                return out
            except IncompleteOutputException as exc:  # cut at max tokens: keep what parses
                completion = getattr(exc, "last_completion", None)
                p, c = _usage(completion)
                out.prompt_tokens += p
                out.completion_tokens += c
                return self._tolerant(out, completion)
            except Exception as exc:  # noqa: BLE001 - extraction never fails the ingest
                if self._retryable(exc) and attempt < self.retries:
                    time.sleep(self._delay(exc, attempt))
                    continue
                out.error = describe_failure(exc)
                return out
        return out  # pragma: no cover - the loop always returns

    @staticmethod
    def _tolerant(out: _Outcome, completion: Any) -> _Outcome:
        facts = parse_output(_completion_text(completion))
        if facts is None:
            out.status = "unparsable"
        else:
            out.status, out.facts = "ok", facts
        return out


# --------------------------------------------------------------------------- sections


@dataclass
class _Section:
    doc: str
    title: str
    section: str
    text: str
    line: int
    end_line: int
    user: str = ""
    key: str = ""


def _sections(ex: Extraction, docs: Sequence[ParsedDocument]) -> list[_Section]:
    """One section per passage of ``ex.chunks`` (document order), with the
    source-line range it covers (up to the next passage of its document)."""
    titles = {d.rel: d.title for d in docs}
    by_doc: dict[str, list] = {}
    for c in ex.chunks:
        by_doc.setdefault(c.doc, []).append(c)
    out = []
    for doc, chunks in by_doc.items():
        chunks = sorted(chunks, key=lambda c: c.line)
        for i, c in enumerate(chunks):
            if len(c.text.strip()) < MIN_SECTION_CHARS:
                continue
            end = chunks[i + 1].line - 1 if i + 1 < len(chunks) and chunks[i + 1].line > c.line else 10**9
            title = titles.get(doc, ex.documents.get(doc, ""))
            s = _Section(doc, title, c.section, c.text, c.line, end)
            s.user = USER_PROMPT.format(title=title or doc, section=c.section or "(top)", text=c.text)
            out.append(s)
    return out


# --------------------------------------------------------------------------- anchoring and mapping


def _key_text(text: str) -> str:
    return DictLinker.key(text)


_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


@functools.lru_cache(maxsize=8192)
def _name_keys(name: str) -> tuple[str, ...]:
    """The normalized forms of ``name``: as written, and with an English plural folded."""
    return tuple(k for k in dict.fromkeys([DictLinker.key(name), name_key(name)]) if k)


def _bounded(hay: str, start: int, end: int, k: str) -> bool:
    """True when ``hay[start:end]`` (== ``k``) does not start or end inside a
    Latin word; a plural ending (``s``/``es``) may follow."""
    if k[0] in _ALNUM and start > 0 and hay[start - 1] in _ALNUM:
        return False
    if k[-1] in _ALNUM:
        for tail in ("", "s", "es"):
            if hay.startswith(tail, end) and (end + len(tail) >= len(hay) or hay[end + len(tail)] not in _ALNUM):
                return True
        return False
    return True


def _has_name(hay: str, name: str) -> bool:
    """True when normalized ``hay`` (see :func:`_key_text`) contains ``name``
    (normalized; Latin names on word boundaries, an English plural allowed)."""
    for k in _name_keys(name):
        at = hay.find(k)
        while at != -1:
            if _bounded(hay, at, at + len(k), k):
                return True
            at = hay.find(k, at + 1)
    return False


_SENTENCE_MARK = re.compile(r"[。！？；!?;\n]")

#: Entity types a subject may link to, per relation (first = the type of a new entity).
_SUBJECT_TYPES = {
    "substitutes": ("ingredient", "tool", "role", "artifact", "concept"),
    "contains": ("recipe",),
    "stand_in": ("role", "concept", "tool", "artifact"),
    "fallback": ("tool", "artifact", "concept", "role"),
    "responsible_for": ("role",),
}


class _Mapper:
    """Turns parsed facts into triples for one extraction (main thread only)."""

    def __init__(self, ex: Extraction, docs: Sequence[ParsedDocument], norm: Normalizer, report: LLMExtractReport):
        self.ex, self.norm, self.report = ex, norm, report
        self.docs = {d.rel: d for d in docs}
        self.linker: DictLinker[str] = DictLinker()
        for e in ex.entities.values():
            self._register(e)
        self.recipes_of: dict[str, list[str]] = {}
        for e in ex.entities.values():
            if e.type == "recipe" and e.doc:
                self.recipes_of.setdefault(e.doc, []).append(e.id)
        self.seen = {(t.subject, t.relation, t.object, t.provenance.doc) for t in ex.triples}
        self.order: dict[str, int] = {}
        for t in ex.triples:
            if t.relation == "CONTAINS":
                self.order[t.subject] = max(self.order.get(t.subject, 0), int(t.properties.get("order", 0) or 0))
        self._doc_hay: dict[str, str] = {}
        self._sec_hay: dict[tuple, str] = {}
        self._blocks: dict[str, list[tuple[int, str]]] = {}

    def _register(self, e: Entity) -> None:
        if e.type in ("document", "section", "step"):
            return
        for s in (e.name, *e.aliases):
            if s:
                self.linker.add(s, e.id)

    # -- text of a document --------------------------------------------------------
    def _lines(self, doc: str) -> list[tuple[int, str]]:
        """``(source line, normalized text)`` of every line of every block of ``doc``."""
        if doc not in self._blocks:
            d = self.docs.get(doc)
            rows: list[tuple[int, str]] = []
            if d is not None:
                for b in d.blocks:
                    for i, ln in enumerate(b.text.split("\n")):
                        if ln.strip():
                            rows.append((b.line + i, _key_text(ln)))
            self._blocks[doc] = rows
        return self._blocks[doc]

    def _hay(self, doc: str) -> str:
        if doc not in self._doc_hay:
            d = self.docs.get(doc)
            parts = [self.ex.documents.get(doc, "")]
            if d is not None:
                parts += [d.title, d.h1, *(str(v) for v in d.front_matter.values())]
            keys = [_key_text(p) for p in parts if p] + [t for _, t in self._lines(doc)]
            self._doc_hay[doc] = "\n".join(keys)
        return self._doc_hay[doc]

    def section_text(self, s: _Section) -> str:
        """Normalized heading path and text of section ``s`` (computed once)."""
        k = (s.doc, s.line, s.section)
        if k not in self._sec_hay:
            self._sec_hay[k] = _key_text(f"{s.section}\n{s.text}")
        return self._sec_hay[k]

    def anchored(self, s: _Section, names: Sequence[str]) -> bool:
        """True when the section (heading path and text) or its document names one of ``names``."""
        sec = self.section_text(s)
        return any(n and (_has_name(sec, n) or _has_name(self._hay(s.doc), n)) for n in names)

    def line_of(self, s: _Section, subj_names: Sequence[str], obj: str) -> int:
        """Source line of the fact: the first line of the section naming both
        subject and object, else the subject, else the object, else the
        section's first line."""
        rows = [(n, t) for n, t in self._lines(s.doc) if s.line <= n <= s.end_line]
        for want_obj, want_subj in ((True, True), (False, True), (True, False)):
            for n, t in rows:
                if want_subj and not any(_has_name(t, x) for x in subj_names if x):
                    continue
                if want_obj and not _has_name(t, obj):
                    continue
                return n
        return s.line

    # -- entities -------------------------------------------------------------------
    def _linked(self, name: str, types: Sequence[str]) -> Entity | None:
        ids = self.linker.get(name)
        for t in types:
            for i in ids:
                e = self.ex.entities.get(i)
                if e is not None and e.type == t:
                    return e
        return None

    def _new(self, name: str, type_: str, doc: str, line: int, lang: str) -> Entity | None:
        if not _plausible(name):
            return None
        canon = self.norm.canonical(name, type_, doc=doc, line=line) if type_ in ("ingredient", "tool", "role") \
            else clean_name(name, type_)
        if not canon or not _plausible(canon):
            return None
        have = self.ex.entities.get(entity_id(type_, canon)) or self._linked(canon, (type_,))
        if have is not None:
            return have
        return Entity(entity_id(type_, canon), canon, type_, [], detect_language(canon) or lang,
                      doc if type_ == "recipe" else "")

    def _kind(self, name: str) -> str:
        return "tool" if is_tool(clean_name(name, "ingredient")) else "ingredient"

    # -- one fact -------------------------------------------------------------------
    def add(self, s: _Section, f: ExtractedFact) -> None:
        """Anchor, map and merge one fact of section ``s`` (counts in the report)."""
        rel = f.relation
        subj_name, obj_name = f.subject.strip(), f.object.strip()
        if not subj_name or not obj_name:
            self.report.rejected += 1
            return
        doc = self.docs.get(s.doc)
        lang = doc.language if doc is not None else ""
        types = _SUBJECT_TYPES[rel]
        subj = self._linked(subj_name, types)
        names = [subj_name, clean_name(subj_name, "role")]
        if subj is not None:
            names += [subj.name, *subj.aliases]
        if not self.anchored(s, names):
            self.report.dropped_unanchored += 1
            return
        line = self.line_of(s, names, obj_name)
        new: list[Entity] = []
        if subj is None:
            if rel == "contains":
                subj = self._contains_subject(s, subj_name)
                if subj is not None and subj.id not in self.ex.entities:
                    new.append(subj)
            else:
                t = self._kind(subj_name) if rel == "substitutes" else types[0]
                subj = self._new(subj_name, t, s.doc, line, lang)
                if subj is not None and subj.id not in self.ex.entities:
                    new.append(subj)
        if subj is None:
            self.report.rejected += 1
            return
        if rel == "contains":
            obj_types: tuple[str, ...] = ("ingredient", "tool")
            default = self._kind(obj_name)
        elif rel == "responsible_for":
            obj_types, default = ("artifact", "concept"), "artifact"
        else:
            obj_types, default = (subj.type,), subj.type
        obj = self._linked(obj_name, obj_types)
        if obj is None:
            obj = self._new(obj_name, default, s.doc, line, lang)
            if obj is not None and obj.id not in self.ex.entities and all(obj.id != e.id for e in new):
                new.append(obj)
        if obj is None or obj.id == subj.id:
            self.report.rejected += 1
            return
        triple = self._triple(s, f, subj, obj, line)
        k = (triple.subject, triple.relation, triple.object, s.doc)
        if k in self.seen:
            self.report.duplicates += 1
            return
        self.seen.add(k)
        for e in new:
            self._register(self.ex.add_entity(e))
        if triple.relation == "CONTAINS":
            self.order[subj.id] = triple.properties["order"]
            ids = self.recipes_of.setdefault(s.doc, [])
            if subj.id not in ids:  # the document now states this recipe (a copy of it may live elsewhere)
                ids.append(subj.id)
        self.ex.triples.append(triple)
        self.report.facts += 1

    def _contains_subject(self, s: _Section, name: str) -> Entity | None:
        """The recipe a ``contains`` fact is about: a recipe of the document
        whose name (or alias) ``name`` is, or the document's only recipe when
        ``name`` is the document title; without any recipe in the document, a
        new recipe named after the title (not yet added) when ``name`` is the
        title. ``None`` otherwise."""
        title = (self.ex.documents.get(s.doc) or s.title or "").strip()
        k = name_key(name)
        ids = self.recipes_of.get(s.doc, [])
        for rid in ids:
            e = self.ex.entities[rid]
            if k in {name_key(x) for x in (e.name, *e.aliases) if x}:
                return e
        if not title or k != name_key(title):
            return None
        if len(ids) == 1:
            return self.ex.entities[ids[0]]
        if ids:
            return None
        return self.ex.entities.get(entity_id("recipe", title)) or Entity(
            entity_id("recipe", title), title, "recipe", [], detect_language(title) or "", s.doc)

    def _context(self, s: _Section) -> str:
        """The recipe a substitution in section ``s`` holds in: the document's
        only recipe, else the one recipe of the document the section names,
        else ``""``."""
        ids = self.recipes_of.get(s.doc, [])
        if len(ids) <= 1:
            return ids[0] if ids else ""
        sec = self.section_text(s)
        named = [i for i in ids if _has_name(sec, self.ex.entities[i].name)]
        return named[0] if len(named) == 1 else ""

    def _triple(self, s: _Section, f: ExtractedFact, subj: Entity, obj: Entity, line: int) -> Triple:
        prov = Provenance(s.doc, s.section, line, EXTRACTOR, round(min(f.confidence, CONFIDENCE_CAP), 3))
        if f.relation == "contains":
            props = {"required": True if f.required is None else bool(f.required), "amount": f.amount,
                     "order": self.order.get(subj.id, 0) + 1}
            return Triple(subj.id, "CONTAINS", obj.id, props, prov)
        if f.relation == "responsible_for":
            return Triple(subj.id, "RELATED", obj.id, {"predicate": "responsible_for"}, prov)
        props = {"context": self._context(s) if f.relation == "substitutes" else "",
                 "condition": f.condition, "symmetric": False}
        if f.amount:
            props["amount"] = f.amount
        return Triple(subj.id, "SUBSTITUTES", obj.id, props, prov)


def _plausible(name: str) -> bool:
    """A name, not a sentence: at most :data:`MAX_NAME_CHARS` characters
    (:data:`MAX_CJK_NAME_CHARS` in Chinese), :data:`MAX_NAME_WORDS` words, no
    sentence punctuation."""
    name = name.strip()
    if not name or len(name) > MAX_NAME_CHARS or _SENTENCE_MARK.search(name):
        return False
    if has_cjk(name):
        return len(name) <= MAX_CJK_NAME_CHARS
    return len(name.split()) <= MAX_NAME_WORDS


# --------------------------------------------------------------------------- entry point


def add_llm_facts(ex: Extraction, docs: Sequence[ParsedDocument], settings: "Settings",
                  norm: Normalizer) -> LLMExtractReport | None:
    """Add LLM-extracted facts to ``ex`` (in place) when enabled; the hook
    :func:`~.pipeline.extract_corpus` calls after the rule extractors.

    Returns ``None`` (and does nothing) unless ``settings.llm_extract`` is on.
    Otherwise the :class:`LLMExtractReport` is returned and also stored as
    ``ex.llm``; without an API key it only carries a warning. New entities
    (objects the rules did not know) are added to ``ex.entities``, names
    resolved through ``norm`` (its merges are recorded as usual). Never raises
    for LLM, network or output problems (they are counted); a cache file that
    cannot be opened is a warning and extraction runs uncached."""
    if not getattr(settings, "llm_extract", False):
        return None
    report = LLMExtractReport(model=settings.llm_model)
    ex.llm = report
    if not settings.llm_enabled:
        report.warnings.append("LLM extraction is on but no OPENAI_API_KEY is set: rule extraction only")
        return report
    started = time.perf_counter()
    try:
        client = SectionClient(settings)
    except (RuntimeError, ValueError) as exc:
        report.warnings.append(f"LLM extraction off: {exc}")
        return report
    sections = _sections(ex, docs)
    report.sections = len(sections)
    cache: LLMFactCache | None = None
    try:
        cache = LLMFactCache(Path(settings.data_dir) / "cache" / "llm_extract.sqlite")
    except sqlite3.Error as exc:
        report.warnings.append(f"LLM extraction cache unavailable ({type(exc).__name__}): running uncached")
    results: dict[str, list[ExtractedFact]] = {}   # by content key: one call per distinct text
    todo: dict[str, _Section] = {}
    for s in sections:
        s.key = LLMFactCache.key(client.model, s.user)
        if s.key in results or s.key in todo:
            report.cache_hits += 1                    # the same text earlier in this ingest
            continue
        hit = cache.get(s.key) if cache is not None else None
        if hit is not None:
            results[s.key] = hit
            report.cache_hits += 1
        else:
            todo[s.key] = s
    errors: dict[str, int] = {}

    def run(s: _Section) -> tuple[_Section, _Outcome]:
        msgs = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": s.user}]
        return s, client.extract(msgs)

    try:
        with ThreadPoolExecutor(max_workers=max(1, settings.llm_extract_concurrency),
                                thread_name_prefix=_THREAD_PREFIX) as pool:
            for s, out in pool.map(run, list(todo.values())):
                report.calls += out.calls
                report.prompt_tokens += out.prompt_tokens
                report.completion_tokens += out.completion_tokens
                if out.status == "ok":
                    results[s.key] = out.facts
                    if cache is not None:
                        cache.put(s.key, out.facts, out.prompt_tokens + out.completion_tokens)
                elif out.status == "unparsable":
                    report.unparsable += 1
                    logger.warning("llm extraction: unparsable output for %s:%d (skipped)", s.doc, s.line)
                else:
                    report.failed += 1
                    errors[out.error] = errors.get(out.error, 0) + 1
                    logger.warning("llm extraction failed for %s:%d (%s); its rule facts are kept",
                                   s.doc, s.line, out.error)
    finally:
        if cache is not None:
            cache.close()
    mapper = _Mapper(ex, docs, norm, report)
    for first in (True, False):  # "contains" first: it may name the recipe a substitution holds in
        for s in sections:
            for f in results.get(s.key, ()):
                if (f.relation == "contains") == first:
                    mapper.add(s, f)
    if report.failed:
        why = ", ".join(f"{k} x{v}" for k, v in sorted(errors.items()))
        report.warnings.append(f"LLM extraction: {report.failed} section(s) failed ({why}); their rule facts are kept")
    if report.unparsable:
        report.warnings.append(f"LLM extraction: {report.unparsable} section(s) gave output that could not be parsed")
    report.seconds = time.perf_counter() - started
    logger.info("llm extraction: %d sections, %d calls, %d tokens, %d cache hits, %d facts added, "
                "%d dropped unanchored, %d rejected, %d duplicates, %d unparsable, %d failed",
                report.sections, report.calls, report.tokens, report.cache_hits, report.facts,
                report.dropped_unanchored, report.rejected, report.duplicates, report.unparsable, report.failed)
    return report
