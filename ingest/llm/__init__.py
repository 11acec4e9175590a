"""Optional LLM relation extraction at ingest, merged under the rule facts.

The rule extractors stay the default. This module runs only when an LLM is
configured (``OPENAI_API_KEY``, plus ``OPENAI_BASE_URL`` for any
OpenAI-compatible server) **and** enabled for ingest
(``THREADGRAPH_LLM_EXTRACT=true`` or ``threadgraph ingest --llm``). The one
entry point is :func:`add_llm_facts`, called by
:func:`~..pipeline.extract_corpus` after the rule extractors.

What it does, per section (one retrieval passage: a heading's text, long
sections in parts; see :mod:`..chunks`):

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
   contains (normalized match: :func:`~...knowledge.text.normalize`, CJK spaces
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

Modules: :mod:`.schema` (prompt, relations and the pydantic output models),
:mod:`.parse` (tolerant output parsing), :mod:`.report` (the ingest report),
:mod:`.cache` (the SQLite cache), :mod:`.client` (the instructor/OpenAI
client, retries, log redaction), :mod:`.mapping` (sections, anchoring and
mapping into triples) and :mod:`.run` (:func:`add_llm_facts`).
"""

from __future__ import annotations

from .cache import LLMFactCache
from .client import SectionClient, describe_failure
from .parse import parse_output
from .report import LLMExtractReport
from .run import add_llm_facts
from .schema import (
    CONFIDENCE_CAP, PROMPT_VERSION, RELATIONS, SYSTEM_PROMPT, USER_PROMPT, ExtractedFact, SectionFacts,
    normalize_relation,
)

__all__ = [
    "CONFIDENCE_CAP", "PROMPT_VERSION", "RELATIONS", "SYSTEM_PROMPT", "USER_PROMPT", "ExtractedFact",
    "LLMExtractReport", "LLMFactCache", "SectionClient", "SectionFacts", "add_llm_facts", "describe_failure",
    "normalize_relation", "parse_output",
]
