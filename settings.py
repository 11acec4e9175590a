"""Settings read from the environment and ``.env`` (pydantic-settings).

Every threadgraph setting is prefixed ``THREADGRAPH_``; the platforms' and
OpenAI's own variables keep their standard names (``SLACK_BOT_TOKEN``,
``SLACK_APP_TOKEN``, ``SLACK_SIGNING_SECRET``, ``TELEGRAM_BOT_TOKEN``,
``OPENAI_API_KEY``, ``OPENAI_BASE_URL``). Secrets are ``SecretStr`` so they
never print in a repr or a log line.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Iterable

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """All runtime configuration. Construct with ``Settings()``; keyword
    arguments override the environment (useful in tests)."""

    model_config = SettingsConfigDict(
        env_prefix="THREADGRAPH_", env_file=".env", extra="ignore", populate_by_name=True
    )

    # knowledge base
    data_dir: Path = Field(Path("./data"), description="Folder holding the KB, thread memory and feedback.")
    embedding_model: str = Field("intfloat/multilingual-e5-small", description="fastembed model name.")
    embedding_model_path: Path | None = Field(
        None, description="Local model folder (model.onnx + tokenizer); when set no hub is contacted."
    )
    embedding_batch_size: int = Field(16, ge=1, description="Passages per model call (small batches of length-sorted texts pad least).")
    embedding_passage_tokens: int = Field(
        128, ge=16, le=512,
        description="Tokens of each passage that are embedded (its heading path and beginning; the whole text stays "
                    "in full-text search). 512 embeds whole passages, at about twice the cost.")
    query_embedding_threads: int = Field(
        1, ge=0, description="ONNX Runtime threads embedding a question while serving (0: the runtime's default, "
        "all cores). One thread costs ~4x less CPU per question (the default pool's workers spin after each "
        "run) for a few ms more latency; ingest keeps the default.")
    alias_csv: Path | None = Field(None, description="Extra alias table (CSV: alias,canonical[,type]) merged over the bundled one.")
    fuzzy_threshold: float = Field(90.0, ge=0, le=100, description="rapidfuzz WRatio score above which two names merge.")

    # conversation core
    memory_ttl_days: float = Field(7.0, gt=0, description="Thread memory expiry in days.")
    memory_max_turns: int = Field(10, ge=1)
    context_budget_chars: int = Field(4000, ge=200)
    retrieval_limit: int = Field(8, ge=1, description="Passages fetched per search before ranking (an answer keeps at most 4 of them, 3 beside graph facts).")
    answer_threads: int = Field(0, ge=0, description="Telegram: questions answered at once per process; 0 = 1 without an LLM (CPU-bound), 16 with one.")
    source_urls: dict[str, str] = Field(
        default_factory=dict,
        description="Where cited documents live on the web, as JSON: a folder of the ingested corpus (a prefix of "
                    "the cited doc path, e.g. 'corpora/cookbook' or 'cookbook') -> base URL. The doc's path below "
                    "the folder is appended to the base; a base holding '{path}' (and '{line}') is a template, e.g. "
                    "'https://github.com/o/r/blob/master/{path}?plain=1#L{line}'. A document's own front-matter "
                    "'url' wins.")

    # conversation state (bot/state.py): memory, processed events, joined threads, reply roots, votes
    state_url: SecretStr | None = Field(
        None, description="redis://[:password@]host:port/db (or rediss://, unix://) for shared state across "
        "workers and machines; unset: SQLite files in the data dir.")
    state_key_prefix: str = Field("threadgraph:", description="Prefix of every Redis key (one Redis, many deployments).")
    state_event_ttl_s: float = Field(86400.0, gt=0, description="Seconds a handled event id stays known (re-deliveries within it are not answered again).")
    state_lease_s: float = Field(10.0, gt=0, description="Seconds an event claim outlives a dead worker (renewed while the worker lives).")
    feedback_ttl_days: float = Field(7.0, gt=0, description="Days a sent answer is kept in Redis for its Sources button and votes (votes themselves are kept).")
    max_question_chars: int = Field(
        1000, ge=50, description="Characters of a message the bot reads; a longer one is answered from its first "
        "max_question_chars characters and the answer says so (bounds the work per message).")
    understand_deadline_ms: float = Field(
        150.0, gt=0, description="CPU time (of the answering thread) the phrase patterns of one question may "
        "take; past it the remaining patterns are skipped and the question is answered as a general one "
        "(a safety net: no pattern needs more than a few ms on a capped question).")
    exemplar_intents: bool = Field(
        False, description="Read a question that no pattern or cue word gives an intent by its nearest exemplar "
        "question (bot/lexicon/exemplars.yaml, embedded with the KB's model); off (the default): such questions "
        "are general. Off because it answered 2 bundled cases and 1 dev turn fewer right than passages did "
        "(benchmarks/exemplars.py calibrates it; see README 'Understanding').")

    # LLM (optional)
    openai_api_key: SecretStr | None = Field(None, validation_alias=AliasChoices("OPENAI_API_KEY"))
    openai_base_url: str | None = Field(None, validation_alias=AliasChoices("OPENAI_BASE_URL"))
    llm_model: str = Field("gpt-4o-mini")
    llm_mode: str = Field("MD_JSON", description="instructor mode: TOOLS, JSON, JSON_SCHEMA or MD_JSON.")
    llm_timeout_s: float = Field(20.0, gt=0)
    llm_max_retries: int = Field(1, ge=0)
    llm_max_calls: int = Field(1, ge=0, description="LLM calls allowed per question (instructor re-asks count as part of one call).")
    llm_max_answer_chars: int = Field(1200, ge=100, description="An LLM-written answer is cut at a sentence end within this many characters.")

    # LLM extraction at ingest (optional; needs an LLM configured above)
    llm_extract: bool = Field(False, description="Also extract facts with the LLM at ingest (rules stay the default; `ingest --llm`).")
    llm_extract_concurrency: int = Field(4, ge=1, le=64, description="LLM extraction calls in flight at once.")
    llm_extract_timeout_s: float = Field(60.0, gt=0, description="Timeout of one LLM extraction request (not retried).")
    llm_extract_retries: int = Field(2, ge=0, le=10, description="Retries of a section after HTTP 429/5xx or a connection error.")
    llm_extract_backoff_s: float = Field(1.0, ge=0, description="First retry delay, doubled per retry (a Retry-After header wins, capped at 30 s).")

    # Slack
    slack_bot_token: SecretStr | None = Field(None, validation_alias=AliasChoices("SLACK_BOT_TOKEN"))
    slack_app_token: SecretStr | None = Field(None, validation_alias=AliasChoices("SLACK_APP_TOKEN"))
    slack_signing_secret: SecretStr | None = Field(None, validation_alias=AliasChoices("SLACK_SIGNING_SECRET"))
    slack_api_url: str = Field("https://slack.com/api/")
    slack_channel_allowlist: list[str] = Field(default_factory=list)
    slack_follow_threads: bool = Field(True, description="Keep answering in a thread the bot has joined without a new mention.")
    slack_port: int = Field(3000)

    # Telegram
    telegram_bot_token: SecretStr | None = Field(None, validation_alias=AliasChoices("TELEGRAM_BOT_TOKEN"))
    telegram_api_url: str = Field("https://api.telegram.org")
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_port: int = Field(8443)
    telegram_rate_limit: bool = Field(True, description="Throttle sends in-process (PTB AIORateLimiter: 30 msg/s, 20 msg/min per group). Per process: with N workers the bot-wide limit is not enforced and Telegram's 429s are waited out instead.")

    @property
    def llm_enabled(self) -> bool:
        """True when an OpenAI-compatible endpoint is configured."""
        return self.openai_api_key is not None and bool(self.openai_api_key.get_secret_value())

    @property
    def llm_extract_enabled(self) -> bool:
        """True when ingest also extracts facts with the LLM: ``llm_extract`` is on
        and an endpoint is configured (:attr:`llm_enabled`)."""
        return self.llm_extract and self.llm_enabled

    def secret_values(self) -> list[str]:
        """The values of every ``SecretStr`` setting that is set (tokens, keys, signing secrets, the
        state URL), plus the password inside ``state_url``."""
        out = []
        for name in type(self).model_fields:
            v = getattr(self, name)
            if isinstance(v, SecretStr) and v.get_secret_value():
                out.append(v.get_secret_value())
        if self.state_url is not None:
            from urllib.parse import urlparse

            try:
                password = urlparse(self.state_url.get_secret_value()).password
            except ValueError:
                password = None
            if password:
                out.append(password)
        return out


class SecretRedactor(logging.Filter):
    """Logging filter replacing each known secret value with ``***`` in a
    record's formatted message (the record's ``args`` are then cleared), its
    exception text and its stack text.

    Exceptions matter as much as messages: SDKs put tokens into exception
    messages (python-telegram-bot's ``InvalidToken: The token `…` was
    rejected by the server.``), and a handler prints ``exc_info`` as a
    traceback. A record with ``exc_info`` whose formatted traceback holds a
    secret gets the redacted traceback as ``exc_text`` and ``exc_info`` set to
    None, so every standard formatter prints the redacted text.

    Used on the root handlers by ``threadgraph serve`` and on the loggers of
    the LLM libraries (instructor logs ``str(exception)`` on failures; an
    upstream error body may echo a key). Values shorter than ``min_len``
    characters are ignored (they would redact ordinary words); for a
    Telegram-style token ``<bot id>:<secret>`` the secret part is redacted on
    its own too. A record whose message cannot be formatted is passed on
    unchanged; the filter never drops a record."""

    def __init__(self, secrets: Iterable[str] = (), *, min_len: int = 6) -> None:
        super().__init__()
        self.min_len = min_len
        self.secrets: set[str] = set()
        for s in secrets:
            self.add(s)

    @classmethod
    def for_settings(cls, settings: Settings) -> "SecretRedactor":
        """A filter for every secret value of ``settings``."""
        return cls(settings.secret_values())

    def add(self, secret: str) -> None:
        """Redact ``secret`` from now on (ignored when shorter than ``min_len``)."""
        if secret and len(secret) >= self.min_len:
            self.secrets.add(secret)
            tail = secret.partition(":")[2]
            if tail and len(tail) >= self.min_len:
                self.secrets.add(tail)

    def redact(self, text: str) -> str:
        """``text`` with every known secret replaced by ``***`` (longest first)."""
        for s in sorted(self.secrets, key=len, reverse=True):
            if s in text:
                text = text.replace(s, "***")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact ``record`` in place (message, exception, stack); always returns True."""
        if not self.secrets:
            return True
        try:
            msg = record.getMessage()
        except Exception:  # pragma: no cover - a malformed record is left as it is
            return True
        redacted = self.redact(msg)
        if redacted != msg:
            record.msg, record.args = redacted, ()
        if record.exc_info and record.exc_info[1] is not None:
            text = record.exc_text or logging.Formatter().formatException(record.exc_info)
            clean = self.redact(text)
            if clean != text:
                record.exc_info, record.exc_text = None, clean
        elif record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


#: The loggers of the LLM libraries: instructor logs ``str(exception)`` on failures and an
#: upstream error body may echo a key.
LLM_LOGGERS = ("instructor", "instructor.v2.retry", "openai", "openai._base_client", "httpx", "httpcore")
#: One redacting filter on :data:`LLM_LOGGERS`, shared by the bot's and the ingest's LLM clients.
LLM_LOG_REDACTOR = SecretRedactor()


def redact_llm_logs(secret: str) -> None:
    """Redact ``secret`` (an API key) from every record of :data:`LLM_LOGGERS` from now on
    (the filter is attached once per logger; idempotent)."""
    LLM_LOG_REDACTOR.add(secret)
    for name in LLM_LOGGERS:
        lg = logging.getLogger(name)
        if LLM_LOG_REDACTOR not in lg.filters:
            lg.addFilter(LLM_LOG_REDACTOR)
