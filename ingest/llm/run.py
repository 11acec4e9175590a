"""The entry point of LLM extraction at ingest: :func:`add_llm_facts`."""

from __future__ import annotations

import logging
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ...knowledge.records import Extraction
from ..document import ParsedDocument
from ..normalize import Normalizer
from .cache import LLMFactCache
from .client import _THREAD_PREFIX, SectionClient, _Outcome
from .mapping import _Mapper, _Section, _sections
from .report import LLMExtractReport
from .schema import SYSTEM_PROMPT, ExtractedFact

if TYPE_CHECKING:  # pragma: no cover
    from ...settings import Settings

# the logger keeps the name it had before the split into a subpackage
logger = logging.getLogger("threadgraph.llm_extract")


def add_llm_facts(ex: Extraction, docs: Sequence[ParsedDocument], settings: "Settings",
                  norm: Normalizer) -> LLMExtractReport | None:
    """Add LLM-extracted facts to ``ex`` (in place) when enabled; the hook
    :func:`~..pipeline.extract_corpus` calls after the rule extractors.

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
