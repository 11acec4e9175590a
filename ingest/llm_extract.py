"""Optional LLM relation extraction at ingest: the public names of :mod:`.llm`.

The code lives in the :mod:`.llm` subpackage (prompt and output models,
tolerant parsing, cache, client, mapping, the :func:`add_llm_facts` runner);
this module re-exports its public names so ``from .llm_extract import …``
keeps working."""

from __future__ import annotations

from .llm import (
    CONFIDENCE_CAP, PROMPT_VERSION, RELATIONS, SYSTEM_PROMPT, USER_PROMPT, ExtractedFact, LLMExtractReport,
    LLMFactCache, SectionClient, SectionFacts, add_llm_facts, describe_failure, normalize_relation, parse_output,
)

__all__ = [
    "CONFIDENCE_CAP", "PROMPT_VERSION", "RELATIONS", "SYSTEM_PROMPT", "USER_PROMPT", "ExtractedFact",
    "LLMExtractReport", "LLMFactCache", "SectionClient", "SectionFacts", "add_llm_facts", "describe_failure",
    "normalize_relation", "parse_output",
]
