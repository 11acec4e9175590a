"""Corpus-level extraction: walk files, parse, extract, normalize, chunk, link.

:func:`extract_corpus` turns files and folders into an
:class:`~..knowledge.records.Extraction`; :func:`~.service.run_ingest` loads
it. Nothing here touches a database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from ..knowledge.records import Entity, Extraction, SkippedFile
from ..knowledge.text import DictLinker
from .chunks import make_chunks
from .document import DocumentError, ParsedDocument
from .documents import DocumentExtractor
from .llm_extract import add_llm_facts
from .merge import document_units, merge_contained_names, merge_duplicate_facts
from .normalize import Normalizer
from .readers import SUPPORTED_EXTENSIONS, parse_file
from .recipes import RecipeExtractor, alone_names, is_recipe, recipe_vocabulary, written_for_reading
from .roles import collect_roles
from .sources import Source, collect, legacy_sources, readable
from .tables import TableExtractor

LINKED_TYPES = ("recipe", "ingredient", "tool", "role")
"""Entity types whose names are linked in passages (``MENTIONS``)."""


# ---------------------------------------------------------------------------- linking
def entity_linker(entities: Iterable[Entity], types: tuple[str, ...] = LINKED_TYPES) -> DictLinker[str]:
    """A :class:`~..knowledge.text.DictLinker` from every name and alias
    (two characters or more) of the ``entities`` of ``types`` to their ids."""
    linker: DictLinker[str] = DictLinker()
    for e in entities:
        if e.type not in types:
            continue
        for s in [e.name, *e.aliases]:
            if len(s) >= 2:
                linker.add(s, e.id)
    return linker


def mentioned_ids(linker: DictLinker[str], text: str) -> list[str]:
    """Entity ids ``linker`` finds in ``text`` (longest match first, see
    :meth:`~..knowledge.text.DictLinker.scan`), in first-mention order, unique."""
    out: dict[str, None] = {}
    for m in linker.scan(text):
        for i in m.values:
            out.setdefault(i, None)
    return list(out)


# ---------------------------------------------------------------------------- main entry
def extract_corpus(
    paths: list[Path] | None = None,
    *,
    root: Path | None = None,
    settings=None,
    progress: Callable[[str, int, int], None] | None = None,
    sources: list[Source] | None = None,
) -> Extraction:
    """Extract everything from ``sources`` (see :mod:`.sources`), or from
    ``paths`` (files and/or folders) relative to ``root``.

    Folders are walked in sorted order (hidden entries skipped; see
    :func:`~.sources.walk` for links, FIFOs, devices and unreadable folders,
    which are reported, never followed or opened). Files with a supported
    extension (see :func:`~.readers.parse_file`: Markdown, text, HTML,
    reStructuredText, AsciiDoc, CSV/TSV, JSON, JSON Lines, PDF, DOCX) are
    parsed; prose formats go through the recipe/SOP/role extractors (chosen
    by structure), tabular ones through
    :class:`~threadgraph.ingest.tables.TableExtractor`. Rows/objects of a
    tabular file that cannot be read are reported in ``skipped`` with their
    line (reason ``"skipped row: …"``) while the rest of the file is
    ingested. Other files with an extension are reported in
    ``Extraction.skipped`` as "unsupported file type", files without an
    extension (LICENSE, SOURCE…) are ignored silently. Empty, binary and
    non-UTF-8 documents are reported with their line and never stop the run.

    Document ids: with ``sources``, ``prefix + relative path`` of each
    source; with ``paths``, paths relative to ``root`` (posix; ``root``
    defaults to the single folder given), else as given.
    ``settings`` (a :class:`threadgraph.settings.Settings`) supplies
    ``fuzzy_threshold`` and ``alias_csv``; ``progress(doc id, done, total)``
    is called after each file is read (``done`` of ``total`` files). With
    ``settings.llm_extract`` on and an LLM configured,
    :func:`~.llm_extract.add_llm_facts` then adds LLM facts under the rule
    facts (its report is ``Extraction.llm``). The result is deterministic:
    same input → same Extraction, ordering included (LLM facts: given the
    same model outputs, e.g. from the cache)."""
    if settings is None:
        from ..settings import Settings

        settings = Settings()
    if sources is None:
        sources = legacy_sources([Path(p) for p in paths or []], root)
    norm = Normalizer(settings.fuzzy_threshold, settings.alias_csv)
    ex = Extraction()
    docs: list[ParsedDocument] = []
    found, problems = collect(sources)
    ex.skipped.extend(problems)
    total = len(found)
    for n, f in enumerate(found, 1):
        rel = f.doc
        suffix = Path(rel).suffix
        if not suffix:
            pass  # LICENSE, SOURCE, Makefile...: not documents, ignored silently
        elif suffix.lower() not in SUPPORTED_EXTENSIONS:
            ex.skipped.append(SkippedFile(rel, "unsupported file type", 0))
        else:
            try:
                with readable(f) as path:
                    doc = parse_file(path, rel)
                docs.append(doc)
                for line, reason in doc.row_errors:
                    ex.skipped.append(SkippedFile(rel, f"skipped row: {reason}", line))
            except DocumentError as err:
                ex.skipped.append(SkippedFile(rel, err.reason, err.line))
            except OSError as err:
                ex.skipped.append(SkippedFile(rel, f"cannot read file: {err.strerror or err}", 0))
            except Exception as err:  # noqa: BLE001 - a malformed document never stops the run
                ex.skipped.append(SkippedFile(rel, f"parse error: {type(err).__name__}: {err}", 0))
        if progress:
            progress(rel, n, total)
    roles = collect_roles(docs, norm)
    # Chinese punctuation and spacing as the lexicons expect; an ingredients section written as lines, a
    # sentence or a labelled line read as its list
    units = {d.rel: [written_for_reading(u) for u in document_units(d)] for d in docs}  # a JSON array of recipes: one unit per record
    all_units = [u for us in units.values() for u in us]
    rex = RecipeExtractor(norm, recipe_vocabulary(all_units, norm), alone_names(all_units))
    dex = DocumentExtractor(roles)
    tex = TableExtractor(norm)
    results = []
    for d in docs:
        done = []
        for u in units[d.rel]:
            try:
                if u.tabular:
                    res = tex.extract(u)
                else:
                    res = rex.extract(u) if is_recipe(u) else dex.extract(u)
            except Exception as err:  # noqa: BLE001
                ex.skipped.append(SkippedFile(d.rel, f"extraction error: {type(err).__name__}: {err}", 0))
                continue
            done.append((u, res))
        if done:
            results.append((d, done))
    # prose documents define entities first (a recipe page wins over a table row naming the same recipe)
    for u, res in sorted((p for _, done in results for p in done), key=lambda p: p[0].tabular):
        for e in res.entities:
            ex.add_entity(e)
    for d, done in results:
        ex.documents[d.rel] = d.title
        for _, res in done:
            ex.triples.extend(res.triples)
        ex.chunks.extend(make_chunks(d))
    for e in roles.entities():
        ex.add_entity(e)
    ex.triples.extend(roles.triples)
    add_llm_facts(ex, docs, settings, norm)  # no-op unless LLM extraction is enabled; rule facts keep priority
    merge_duplicate_facts(ex)  # one recipe in two files: one list, both sources recorded
    ex.merges = list(norm.merges) + ex.merges
    # link chunks to the entities they mention
    linker = entity_linker(ex.entities.values())
    for c in ex.chunks:
        c.entity_ids = mentioned_ids(linker, c.text)
    merge_contained_names(ex)  # undeclared aliases ("Holmes" / "Sherlock Holmes") within a document
    return ex
