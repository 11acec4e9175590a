"""The report of one ingest's LLM extraction (:class:`LLMExtractReport`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


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
