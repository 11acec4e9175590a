"""The ingest use cases the command line, the demo, tests and benchmarks call:
add or update sources (:func:`run_ingest`), drop one (:func:`remove_source`),
list them (:func:`list_sources`) and export the live graph for review
(:func:`export_current_graph`). Nothing here prints; progress goes to a
callback.

**How the knowledge base stays consistent when sources come and go.** The
manifest of every build records its sources (resolved root, document-id
prefix, removed sub-paths; see :mod:`.sources`). Each ingest or removal
plans the new source list and re-extracts *every* kept source from disk,
then builds and swaps in a complete new build. Re-extracting rather than
reusing a stored per-source extraction is deliberate: extraction is
corpus-wide — role names found in one document are linked in all, names are
merged across documents, passages link entities of any document — so only
a full pass gives the same KB as ingesting everything at once, and a
removed document leaves no fact behind. Reading is the cheap part (~1 s for
the bundled corpora); embeddings come from the content-addressed cache, so
only new or changed passages meet the model.

**Guards** (:class:`IngestRefused`, the current KB is left in place): an
ingest that would publish no document; one that would lose more than half
of the current KB's documents without ``replace``; a kept source that is no
longer on disk; a build without vectors over a KB with vectors unless
``no_vectors``; a second ingest on the same data folder while one runs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..knowledge import kb as kbmod
from ..knowledge.embeddings import EmbeddingUnavailable, load_embedder
from ..knowledge.graph import GraphStore
from ..knowledge.kb import KBNotFound, current_build, model_settings, read_manifest
from ..knowledge.records import Extraction
from .candidates import CANDIDATES, apply_candidates, export_candidates, read_candidates
from .load import IngestReport, Progress, build_kb
from .pipeline import extract_corpus
from .review import apply_review, export_graph
from .sources import Source, collect, is_within, legacy_sources, plan_sources, resolve_path


class IngestRefused(RuntimeError):
    """The ingest would publish a worse knowledge base (or could not run);
    nothing was changed. The message says why and what to do."""


@dataclass
class SourceInfo:
    """One source of the current KB as ``threadgraph sources`` shows it:
    ``path`` (resolved), ``kind`` (``dir``/``file``), ``prefix`` of its
    document ids, ``documents``, ``facts`` (graph edges read from it),
    ``passages``, ``ingested`` (UTC ISO time it was last named in an
    ingest), ``exists`` (still on disk) and ``exclude`` (removed sub-paths)."""

    path: str
    kind: str
    prefix: str
    documents: int
    facts: int
    passages: int
    ingested: str
    exists: bool
    exclude: list[str]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _current(data_dir: Path) -> dict | None:
    """The current build's manifest, or None when there is no KB."""
    try:
        return read_manifest(current_build(data_dir))
    except (KBNotFound, OSError, ValueError):
        return None


def kept_sources(manifest: dict | None) -> list[Source]:
    """The sources a KB was built from; a KB written before sources were
    recorded gets them from its ``inputs`` (document ids as they were then)."""
    if not manifest:
        return []
    if manifest.get("sources") is not None:
        return [Source.from_json(d) for d in manifest["sources"]]
    inputs = [Path(p) for p in manifest.get("inputs", [])]
    return legacy_sources(inputs, None) if inputs else []


def _source_stats(sources: list[Source], ex: Extraction, previous: dict | None, named: set[str]) -> list[dict]:
    """Manifest entries of ``sources`` with documents, facts and passages
    counted in ``ex`` and the time each was last named (``named`` roots now)."""
    found, _ = collect(sources)
    owner = {f.doc: str(f.source.root) for f in found}
    docs: dict[str, int] = {}
    facts: dict[str, int] = {}
    chunks: dict[str, int] = {}
    for d in ex.documents:
        if d in owner:
            docs[owner[d]] = docs.get(owner[d], 0) + 1
    for t in ex.triples:
        o = owner.get(t.provenance.doc)
        if o:
            facts[o] = facts.get(o, 0) + 1
    for c in ex.chunks:
        o = owner.get(c.doc)
        if o:
            chunks[o] = chunks.get(o, 0) + 1
    before = {d["path"]: d for d in (previous or {}).get("sources") or []}
    out = []
    for s in sources:
        key = str(s.root)
        entry = s.to_json()
        entry.update(documents=docs.get(key, 0), facts=facts.get(key, 0), passages=chunks.get(key, 0),
                     ingested=_now() if key in named else before.get(key, {}).get("ingested", _now()))
        out.append(entry)
    return out


def _load_embedder(settings, manifest: dict | None, no_vectors: bool):
    """``(embedder or None, warning or None)``; raises :class:`IngestRefused`
    when the model cannot be loaded and the current KB has vectors."""
    if no_vectors:
        return None, "built without vectors (--no-vectors): full-text search only"
    try:
        return load_embedder(settings), None
    except EmbeddingUnavailable as exc:
        if manifest and manifest.get("embedding_model"):
            raise IngestRefused(
                f"the embedding model cannot be loaded ({exc}); the current knowledge base has vectors "
                f"({manifest['embedding_model']}), and a build without them would answer worse. Fix "
                "THREADGRAPH_EMBEDDING_MODEL_PATH, or pass --no-vectors to build without vectors on purpose."
            ) from None
        return None, f"no embedding model: {exc} — built the graph and full-text index without vectors"


_PACKAGE = Path(__file__).resolve().parents[1]


def fingerprint(sources: list[Source], settings, *, no_vectors: bool, review_dir: Path | None) -> str:
    """A digest of everything a build depends on: the sources (roots,
    prefixes, exclusions), each file's id, size and modification time, the
    settings that shape extraction and embedding, the review folder and the
    code that builds a KB (size and time of every file of ``ingest/`` and
    ``knowledge/``). Equal digests mean a
    rebuild would give the same KB."""
    import hashlib

    h = hashlib.sha1()
    found, skipped = collect(sources)
    for s in sources:
        h.update(repr(s.to_json()).encode())
    for f in found:
        try:
            st = os.stat(f.path) if len(str(f.path)) < 3000 else None
        except OSError:
            st = None
        h.update(f"{f.doc}\x1f{st.st_size if st else -1}\x1f{st.st_mtime_ns if st else -1}\n".encode("utf-8", "replace"))
    for sk in skipped:
        h.update(f"{sk.path}\x1f{sk.reason}\n".encode("utf-8", "replace"))
    h.update(repr((settings.embedding_model, str(settings.embedding_model_path), settings.embedding_passage_tokens,
                   str(settings.alias_csv), settings.fuzzy_threshold, no_vectors, str(review_dir))).encode())
    if review_dir is not None and Path(review_dir).is_dir():
        for name in ("nodes.csv", "edges.csv", CANDIDATES):
            p = Path(review_dir) / name
            if p.exists():
                h.update(f"{name}{p.stat().st_size}{p.stat().st_mtime_ns}".encode())
    code = [p for sub in ("ingest", "knowledge") for p in (_PACKAGE / sub).rglob("*")]
    for p in sorted(code + list(_PACKAGE.glob("*.py"))):
        if p.suffix in (".py", ".yaml", ".csv"):
            st = p.stat()
            h.update(f"{p.relative_to(_PACKAGE)}{st.st_size}{st.st_mtime_ns}".encode())
    return h.hexdigest()


def _up_to_date(manifest: dict, digest: str) -> IngestReport:
    """The report of an ingest that found the current KB up to date."""
    from ..knowledge.records import SkippedFile

    build = current_build(Path(manifest["_data_dir"]))
    report = IngestReport(documents=int(manifest.get("documents", 0)), counts=dict(manifest.get("counts") or {}),
                          entity_types=dict(manifest.get("entity_types") or {}), build=build,
                          skipped=[SkippedFile(x["path"], x["reason"], x.get("line", 0)) for x in manifest.get("skipped", [])],
                          embedding_model=manifest.get("embedding_model"))
    report.unchanged = True
    report.documents_before = report.documents
    report.sources = list(manifest.get("sources") or [])
    return report


def _build(sources: list[Source], settings, *, manifest: dict | None, named: set[str], replace: bool,
           no_vectors: bool, graph_csv: Path | None, progress: Progress | None, guard_loss: bool,
           what: str) -> IngestReport:
    """Extract ``sources``, check the guards, embed, load and publish (or
    nothing, when the current KB was built from exactly the same input)."""
    data_dir = Path(settings.data_dir)
    settings = model_settings(settings, manifest)
    review_dir = graph_csv
    if review_dir is None and manifest and manifest.get("graph_csv") and Path(manifest["graph_csv"]).is_dir():
        review_dir = Path(manifest["graph_csv"])  # a review keeps applying to later builds
    digest = fingerprint(sources, settings, no_vectors=no_vectors, review_dir=review_dir)
    if manifest and manifest.get("fingerprint") == digest and graph_csv is None:
        t0 = time.perf_counter()
        report = _up_to_date({**manifest, "_data_dir": str(data_dir)}, digest)
        report.seconds = time.perf_counter() - t0
        return report

    reviewed = read_candidates(review_dir) if review_dir is not None else []  # a bad file fails before any work

    def file_progress(doc: str, done: int, total: int) -> None:
        if progress is not None:
            progress("reading documents", done, total)

    t0 = time.perf_counter()
    ex = extract_corpus(settings=settings, sources=sources, progress=file_progress)
    read_s = time.perf_counter() - t0
    if not ex.documents:
        why = "; ".join(f"{s.path}: {s.reason}" for s in ex.skipped[:5])
        more = f" (and {len(ex.skipped) - 5} more)" if len(ex.skipped) > 5 else ""
        raise IngestRefused(
            f"{what} would publish a knowledge base with no documents"
            + (f" ({len(ex.skipped)} files skipped: {why}{more})" if ex.skipped else " (no supported files found)")
            + "; the current knowledge base is unchanged.")
    entries = _source_stats(sources, ex, manifest, named)
    empty = [e["path"] for e in entries if e["path"] in named and not e["documents"]]
    if empty:
        found, _ = collect([s for s in sources if str(s.root) in empty])
        mine = {f.doc for f in found}
        prefixes = tuple(s.prefix for s in sources if str(s.root) in empty and s.prefix)
        bad = [f"{s.path}: {s.reason}" for s in ex.skipped if s.path in mine or (prefixes and s.path.startswith(prefixes))]
        raise IngestRefused(
            f"{', '.join(empty)} {'holds' if len(empty) == 1 else 'hold'} no document to ingest"
            + (f" ({len(bad)} skipped: {'; '.join(bad[:5])}{' …' if len(bad) > 5 else ''})" if bad
               else " (no file of a supported format)")
            + "; the current knowledge base is unchanged.")
    before = int((manifest or {}).get("documents") or 0)
    if guard_loss and not replace and before and len(ex.documents) * 2 < before:
        raise IngestRefused(
            f"{what} would keep {len(ex.documents)} of the {before} documents of the current knowledge base; "
            "nothing was changed. Drop sources you no longer want with `threadgraph remove PATH`, or rebuild "
            "from exactly the given paths with --replace.")
    review = apply_review(ex, review_dir) if review_dir is not None else None
    cand, decisions, problems = apply_candidates(ex, reviewed, (manifest or {}).get("candidate_review"))
    if review is not None or decisions:
        review = {**(review or {}), **cand}
    embedder, warning = _load_embedder(settings, manifest, no_vectors)
    report = build_kb(
        ex, data_dir, embedder=embedder, embedder_error=warning, inputs=[s.root for s in sources],
        batch_size=settings.embedding_batch_size, progress=progress,
        extra_manifest={"sources": entries, "graph_csv": str(Path(review_dir).resolve()) if review_dir else None,
                        "fingerprint": digest, "candidate_review": decisions},
    )
    report.warnings.extend(problems)
    report.timings = {"read": round(read_s, 2), **report.timings}
    report.seconds += read_s
    report.review = review
    report.review_dir = review_dir
    report.documents_before = before
    report.sources = entries
    return report


def run_ingest(paths: Sequence[Path], settings, *, replace: bool = False, no_vectors: bool = False,
               graph_csv: Path | None = None, progress: Progress | None = None) -> IngestReport:
    """Add or update ``paths`` (files and/or folders) in the knowledge base of
    ``settings.data_dir`` (a :class:`~...settings.Settings`): a new build
    with every other source of the current KB kept is written and swapped in.
    With ``replace`` the build holds exactly ``paths``. Returns the
    :class:`~.load.IngestReport` (``report.sources`` lists every source with
    its counts).

    A path is the same source however it is typed (relative, absolute,
    trailing slash, through a symbolic link); a path inside a kept folder
    updates that folder's documents; a folder holding kept sources takes
    them over. The embedding model is the configured one, else the one the
    current KB was built with; ``no_vectors`` builds without vectors.
    ``graph_csv`` is a folder with a reviewed ``nodes.csv``/``edges.csv``
    pair (it is remembered and applied to later builds too; its counts go to
    ``report.review``); rows of its ``candidates.csv`` marked ``accepted``
    become graph facts and the decisions are remembered (:mod:`.candidates`;
    a row naming no node is a warning in ``report.warnings``). ``progress(stage, done, total)`` is called as work
    advances (``"reading documents"`` per file, ``"embedding passages"`` per
    batch, then writing stages). Malformed files are reported in
    ``report.skipped`` (path, line, reason) and never stop the run. When
    nothing changed since the current KB was built (same sources, files,
    settings and code, see :func:`fingerprint`) nothing is rebuilt and
    ``report.unchanged`` is True.

    Raises :class:`IngestRefused` (the current KB stays; see the module
    docstring for when), :class:`~...knowledge.kb.IngestBusy` and
    :class:`~.review.ReviewError` for a bad review folder."""
    data_dir = Path(settings.data_dir)
    with kbmod.ingest_lock(data_dir):
        kbmod.clean_leftovers(data_dir)
        manifest = _current(data_dir)
        kept = kept_sources(manifest)
        plan = plan_sources([Path(p) for p in paths], kept, replace=replace)
        named = {str(r) for r in plan.added + plan.updated}
        gone = [s for s in plan.sources if str(s.root) not in named and not os.path.lexists(s.root)]
        if gone:
            raise IngestRefused(
                "these sources of the current knowledge base are no longer on disk: "
                + ", ".join(str(s.root) for s in gone)
                + "; nothing was changed. Restore them, drop them with `threadgraph remove PATH`, or rebuild "
                "from exactly the given paths with --replace.")
        what = "this ingest" if not replace else "this --replace ingest"
        report = _build(plan.sources, settings, manifest=manifest, named=named, replace=replace,
                        no_vectors=no_vectors, graph_csv=graph_csv, progress=progress, guard_loss=True, what=what)
        report.added = [str(p) for p in plan.added]
        report.updated = [str(p) for p in plan.updated]
        report.dropped = [str(p) for p in plan.dropped]
        return report


def remove_source(path: Path | str, settings, *, no_vectors: bool = False,
                  progress: Progress | None = None) -> IngestReport:
    """Drop ``path`` from the knowledge base of ``settings.data_dir`` and
    every fact, passage and entity read from it: a source root is removed
    from the source list; a file or folder inside a source folder is
    excluded from it from now on; a document id shown by ``threadgraph
    sources`` or in a citation works too. The rest is re-read and a new
    build swapped in. ``report.removed`` lists what was dropped.

    Raises :class:`~...knowledge.kb.KBNotFound` without a KB,
    :class:`IngestRefused` when ``path`` is not in the KB, when the result
    would hold no document (the KB is left as it is), or when another kept
    source is gone from disk; :class:`~...knowledge.kb.IngestBusy`."""
    data_dir = Path(settings.data_dir)
    with kbmod.ingest_lock(data_dir):
        manifest = _current(data_dir)
        if manifest is None:
            raise KBNotFound(f"no knowledge base in {data_dir.resolve()}: nothing to remove")
        sources = [Source(s.root, s.kind, s.prefix, list(s.exclude)) for s in kept_sources(manifest)]
        target = resolve_path(path)
        removed: list[str] = []
        for s in list(sources):
            if s.root == target or (s.kind == "dir" and is_within(s.root, target)):
                sources.remove(s)
                removed.append(str(s.root))
            elif s.kind == "dir" and is_within(target, s.root):
                rel = target.relative_to(s.root).as_posix()
                if rel not in s.exclude:
                    s.exclude.append(rel)
                removed.append(str(target))
        if not removed:  # a document id or id prefix ("howtocook/dishes/x.md")
            key = str(path).strip("/")
            for s in sources:
                if s.kind == "dir" and key.startswith(s.prefix) and key != s.prefix.rstrip("/"):
                    rel = key[len(s.prefix):]
                    if rel and os.path.lexists(s.root / rel):
                        if rel not in s.exclude:
                            s.exclude.append(rel)
                        removed.append(key)
                        break
                elif s.kind == "file" and key == s.prefix + s.root.name:
                    sources.remove(s)
                    removed.append(str(s.root))
                    break
        if not removed:
            raise IngestRefused(f"{path} is not a source of the knowledge base (see `threadgraph sources`); nothing was changed.")
        if not sources:
            raise IngestRefused(
                f"removing {path} would leave the knowledge base empty; nothing was changed. To start over, "
                f"delete {kbmod.kb_root(data_dir)} or rebuild from other documents with `threadgraph ingest --replace PATH`.")
        gone = [s for s in sources if not os.path.lexists(s.root)]
        if gone:
            raise IngestRefused(
                "these sources of the current knowledge base are no longer on disk: "
                + ", ".join(str(s.root) for s in gone) + "; remove them first (or restore them); nothing was changed.")
        report = _build(sources, settings, manifest=manifest, named=set(), replace=False, no_vectors=no_vectors,
                        graph_csv=None, progress=progress, guard_loss=False, what=f"removing {path}")
        report.removed = removed
        return report


def list_sources(data_dir: Path) -> list[SourceInfo]:
    """The sources of the current knowledge base of ``data_dir`` with their
    counts at the last build. Raises :class:`~...knowledge.kb.KBNotFound`."""
    manifest = read_manifest(current_build(data_dir))
    entries = manifest.get("sources")
    if entries is None:  # a KB built before sources were recorded
        entries = [dict(s.to_json(), documents=manifest.get("documents", 0), facts=0, passages=0,
                        ingested=manifest.get("created", "")) for s in kept_sources(manifest)]
    return [SourceInfo(e["path"], e.get("kind", "dir"), e.get("prefix", ""), int(e.get("documents", 0)),
                       int(e.get("facts", 0)), int(e.get("passages", 0)), e.get("ingested", ""),
                       os.path.lexists(e["path"]), list(e.get("exclude", []))) for e in entries]


def export_current_graph(data_dir: Path, out_dir: Path) -> tuple[int, int, int]:
    """Write the live KB's ``nodes.csv`` and ``edges.csv`` (with confidence
    and provenance) and ``candidates.csv`` (the reader's candidate edges of
    ``data_dir/candidates.jsonl`` not yet accepted or rejected, as pending
    rows; see :mod:`.candidates`) into ``out_dir``; returns ``(nodes, edges,
    candidates)`` written. Raises :class:`~...knowledge.kb.KBNotFound` when
    ``data_dir`` holds no knowledge base."""
    build = current_build(data_dir)
    decided = {d.get("id") for d in read_manifest(build).get("candidate_review") or [] if isinstance(d, dict)}
    graph = GraphStore(build / "graph.kuzu", read_only=True)
    try:
        n, e = export_graph(graph, out_dir)
    finally:
        graph.close()
    return n, e, export_candidates(data_dir, out_dir, decided)
