"""The instructor/OpenAI client of section extraction (:class:`SectionClient`):
retries of HTTP 429/5xx and connection errors, failure descriptions without
message text, and the API key redacted from the LLM libraries' loggers."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...settings import LLM_LOGGERS, redact_llm_logs
from .parse import parse_output
from .schema import ExtractedFact, SectionFacts

if TYPE_CHECKING:  # pragma: no cover
    from ...settings import Settings

MAX_RETRY_AFTER_S = 30.0


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
    :func:`~.run.add_llm_facts` reports each section once itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.threadName.startswith(_THREAD_PREFIX)


_THREAD_PREFIX = "llm-extract"
_QUIET = _OwnThreads()


def _install_filters(secret: str) -> None:
    redact_llm_logs(secret)
    for name in LLM_LOGGERS:
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
