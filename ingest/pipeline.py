"""Corpus-level extraction: walk files, parse, extract, normalize, chunk, link.

The lead's loader calls :func:`extract_corpus`; nothing here touches a
database.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from .documents import DocumentExtractor
from .recipes import RecipeExtractor, is_recipe
from .roles import collect_roles
from ..knowledge.text import has_cjk
from .normalize import Normalizer
from threadgraph.ingest.document import Block, DocumentError, ParsedDocument
from ..knowledge.text import DictLinker, detect_language, sentence_spans
from .readers import SUPPORTED_EXTENSIONS, parse_file
from threadgraph.ingest.tables import TableExtractor
from ..knowledge.records import Chunk, Entity, Extraction, SkippedFile, stable_id

CHUNK_MAX_CHARS = 800
TABLE_ROWS_PER_CHUNK = 20
TABLE_CHUNK_MAX_CHARS = 2400
LINKED_TYPES = ("recipe", "ingredient", "tool", "role")


def _is_broken_link(p: Path) -> bool:
    """A symbolic link whose target does not exist (or that loops)."""
    try:
        return p.is_symlink() and not p.exists()
    except OSError:
        return True


def _link_loops(p: Path) -> bool:
    try:
        p.resolve(strict=True)
    except RuntimeError:  # "Symlink loop" (Python < 3.13)
        return True
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _iter_files(paths: Iterable[Path]) -> list[Path]:
    """Files under ``paths`` in sorted posix order (hidden entries skipped),
    broken symbolic links included so they can be reported. Symlinked
    folders are not descended into (``Path.rglob`` does not follow them),
    so link loops cannot hang the walk."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(sorted((f for f in p.rglob("*") if (f.is_file() or _is_broken_link(f)) and not any(
                part.startswith(".") for part in f.relative_to(p).parts)), key=lambda f: f.as_posix()))
        else:
            out.append(p)
    seen: set[Path] = set()
    uniq = []
    for f in out:
        r = Path(os.path.abspath(f)) if _is_broken_link(f) else f.resolve()
        if r not in seen:
            seen.add(r)
            uniq.append(f)
    return uniq


def _rel(path: Path, root: Path | None) -> str:
    if _is_broken_link(path):  # cannot be resolved: place the link itself
        path = Path(os.path.realpath(path.parent)) / path.name
        if root is not None:
            try:
                return path.relative_to(root.resolve()).as_posix()
            except ValueError:
                pass
        return path.as_posix()
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


# ---------------------------------------------------------------------------- chunks
def _block_text(b: Block) -> str:
    if b.kind == "item":
        indent = "  " * max(0, b.level - 1)
        return f"{indent}{b.order}. {b.text}" if b.ordered else f"{indent}- {b.text}"
    return b.text


_CLAUSE_END = re.compile(r"(?<=[，、,：:])")


def _cut_points(text: str, rx: re.Pattern) -> list[int]:
    return [m.start() for m in rx.finditer(text) if 0 < m.start() < len(text)]


def _split_spans(text: str, limit: int) -> list[tuple[int, str]]:
    """Split one over-long block into ``(offset, piece)`` pieces of at most
    ``limit`` characters: greedily packed whole sentences (ends: 。！？；, or
    .!?; before whitespace, or a newline); a sentence longer than ``limit``
    is cut at the last space, else after a clause mark (，、,:), else hard
    (CJK text without punctuation). Pieces are stripped; ``offset`` is where
    the piece starts in ``text``."""
    pieces: list[tuple[int, str]] = []

    def emit(a: int, b: int) -> None:
        raw = text[a:b]
        lead = len(raw) - len(raw.lstrip())
        if raw.strip():
            pieces.append((a + lead, raw.strip()))

    bounds = [0, *(a for a, _ in sentence_spans(text)[1:]), len(text)]
    start = 0  # start of the current piece
    prev = 0  # last sentence boundary inside the current piece
    for b in bounds[1:]:
        if len(text[start:b].strip()) <= limit:
            prev = b
            continue
        if prev > start:  # close the piece at the last sentence end that fits
            emit(start, prev)
            start = prev
        while len(text[start:b].strip()) > limit:  # one sentence longer than limit
            seg = text[start:start + limit + 1]
            lead = len(seg) - len(seg.lstrip())
            window = text[start:start + lead + limit + 1]
            cut = window.rfind(" ", 0, lead + limit + 1)
            if cut <= lead:
                marks = [c for c in _cut_points(window[:lead + limit], _CLAUSE_END) if c > lead]
                cut = marks[-1] if marks else lead + limit
            emit(start, start + cut)
            start += cut
        prev = b
    emit(start, len(text))
    return pieces


def _split_long(text: str, limit: int) -> list[str]:
    """Split one over-long block at sentence ends (then at spaces, then
    hard) into pieces of at most ``limit`` characters."""
    return [p for _, p in _split_spans(text, limit)]


def _piece_line(b: Block, text: str, offset: int) -> int:
    """Source line of the piece starting at ``offset`` of block ``b``'s
    ``text`` (soft line breaks map to source lines; capped at the block's
    last line)."""
    return min(b.line + text.count("\n", 0, offset), max(b.line, b.end_line))


def make_table_chunks(doc: ParsedDocument, rows_per_chunk: int = TABLE_ROWS_PER_CHUNK,
                      max_chars: int = TABLE_CHUNK_MAX_CHARS) -> list[Chunk]:
    """Passages of a tabular document (CSV/TSV/JSON/JSONL).

    Data rows (text ``"column: value; column: value"``) are grouped
    ``rows_per_chunk`` at a time (fewer when the group would exceed
    ``max_chars``; a single longer row is split at sentence ends); a new
    group starts for each table (section = its JSON key path). JSON text
    leaves (``"key.path: text"``) are grouped the same way by size. ``line``
    is the first row's source line, so a passage cites the row it starts at."""
    chunks: list[Chunk] = []
    buf: list[str] = []
    start = 0
    cur: tuple = ("", "")

    def flush() -> None:
        nonlocal buf
        text = "\n".join(buf).strip()
        if text:
            chunks.append(Chunk(stable_id(doc.rel, start, len(chunks)), doc.rel, cur[1], text, start,
                                detect_language(text) or doc.language))
        buf = []

    for b in doc.blocks:
        if b.kind == "row" and b.header:
            continue
        key = (b.kind, " > ".join(b.path))
        t = b.text.strip()
        if not t:
            continue
        if key != cur:
            flush()
            cur = key
        if len(t) > max_chars:
            flush()
            for off, piece in _split_spans(t, max_chars):
                start = _piece_line(b, t, off)
                buf = [piece]
                flush()
            continue
        size = sum(len(x) + 1 for x in buf)
        if buf and (size + len(t) > max_chars or (b.kind == "row" and len(buf) >= rows_per_chunk)):
            flush()
        if not buf:
            start = b.line
        buf.append(t)
    flush()
    return chunks


def make_chunks(doc: ParsedDocument, max_chars: int = CHUNK_MAX_CHARS) -> list[Chunk]:
    """Section-aware passages of ``doc`` (tabular documents: see
    :func:`make_table_chunks`).

    A new passage starts at every H2/H3 (deeper headings stay inside their
    H3; the heading text itself is not in ``text`` but in ``section``).
    Sections longer than ``max_chars`` are split between blocks (paragraphs,
    list items, rows), a single longer block at sentence ends. ``line`` is the
    first source line of the passage, ``id`` is ``stable_id(doc, line)``."""
    if doc.tabular:
        return make_table_chunks(doc)
    groups: list[tuple[tuple[str, ...], list[Block]]] = []
    cur_path: tuple[str, ...] | None = None
    for b in doc.blocks:
        if b.kind == "heading":
            if b.level <= 3 or cur_path is None:
                key = b.path[:2] if b.level > 3 else b.path
                groups.append((key, []))
                cur_path = key
            continue
        if not groups:
            groups.append(((), []))
            cur_path = ()
        groups[-1][1].append(b)
    chunks: list[Chunk] = []
    for path, blocks in groups:
        section = " > ".join(path)
        buf: list[str] = []
        start = 0
        size = 0

        def flush() -> None:
            nonlocal buf, size
            text = "\n".join(buf).strip()
            if text:
                chunks.append(Chunk(stable_id(doc.rel, start, len(chunks)), doc.rel, section, text, start,
                                    detect_language(text) or doc.language))
            buf, size = [], 0

        for b in blocks:
            t = _block_text(b)
            if not t.strip():
                continue
            if len(t) > max_chars:
                flush()
                for off, piece in _split_spans(t, max_chars):
                    start = _piece_line(b, t, off)
                    buf, size = [piece], len(piece)
                    flush()
                continue
            if size + len(t) + 1 > max_chars and buf:
                flush()
            if not buf:
                start = b.line
            buf.append(t)
            size += len(t) + 1
        flush()
    return chunks


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
    paths: list[Path],
    *,
    root: Path | None = None,
    settings=None,
    progress: Callable[[str], None] | None = None,
) -> Extraction:
    """Extract everything from ``paths`` (files and/or folders).

    Folders are walked recursively in sorted posix order (hidden entries
    skipped). Files with a supported extension (see
    :func:`~threadgraph.ingest.parsers.parse_file`: Markdown, text, HTML,
    reStructuredText, AsciiDoc, CSV/TSV, JSON, JSON Lines) are parsed;
    prose formats go through the recipe/SOP/role extractors (chosen by
    structure), tabular ones through
    :class:`~threadgraph.ingest.tables.TableExtractor`. Rows/objects of a
    tabular file that cannot be read are reported in ``skipped`` with their
    line (reason ``"skipped row: …"``) while the rest of the file is
    ingested. A broken symbolic link is reported as ``"broken symbolic
    link"`` (``"broken symbolic link (loop)"`` for a link loop) with the
    link's own path; symlinked folders are not followed. Other files
    with an extension are reported in ``Extraction.skipped`` as "unsupported
    file type", files without an extension (LICENSE, SOURCE…) are ignored
    silently. Empty, binary and non-UTF-8 documents are reported with their
    line and never stop the run. ``root`` makes document paths relative
    (posix); it defaults to the single folder given, else paths stay as given.
    ``settings`` (a :class:`threadgraph.settings.Settings`) supplies
    ``fuzzy_threshold`` and ``alias_csv``; ``progress`` receives one message
    per document. The result is deterministic: same input → same Extraction,
    ordering included."""
    if settings is None:
        from threadgraph.settings import Settings

        settings = Settings()
    paths = [Path(p) for p in paths]
    if root is None and len(paths) == 1 and paths[0].is_dir():
        root = paths[0]
    root = Path(root) if root is not None else None
    norm = Normalizer(settings.fuzzy_threshold, settings.alias_csv)
    ex = Extraction()
    docs: list[ParsedDocument] = []
    for f in _iter_files(paths):
        rel = _rel(f, root)
        if _is_broken_link(f):
            reason = "broken symbolic link (loop)" if _link_loops(f) else "broken symbolic link"
            ex.skipped.append(SkippedFile(rel, reason, 0))
            if progress:
                progress(f"skipped {rel}: {reason} -> {os.readlink(f)}")
            continue
        if not f.suffix:
            continue  # LICENSE, SOURCE, Makefile...: not documents, ignored silently
        if f.suffix.lower() not in SUPPORTED_EXTENSIONS:
            ex.skipped.append(SkippedFile(rel, "unsupported file type", 0))
            continue
        try:
            doc = parse_file(f, rel)
            docs.append(doc)
            for line, reason in doc.row_errors:
                ex.skipped.append(SkippedFile(rel, f"skipped row: {reason}", line))
                if progress:
                    progress(f"skipped {rel}:{line}: {reason}")
        except DocumentError as err:
            ex.skipped.append(SkippedFile(rel, err.reason, err.line))
            if progress:
                progress(f"skipped {rel}: {err.reason}")
        except Exception as err:  # noqa: BLE001 - a malformed document never stops the run
            ex.skipped.append(SkippedFile(rel, f"parse error: {type(err).__name__}: {err}", 0))
    roles = collect_roles(docs, norm)
    rex = RecipeExtractor(norm)
    dex = DocumentExtractor(roles)
    tex = TableExtractor(norm)
    results = []
    for d in docs:
        try:
            if d.tabular:
                res = tex.extract(d)
            else:
                res = rex.extract(d) if is_recipe(d) else dex.extract(d)
        except Exception as err:  # noqa: BLE001
            ex.skipped.append(SkippedFile(d.rel, f"extraction error: {type(err).__name__}: {err}", 0))
            continue
        results.append((d, res))
    # prose documents define entities first (a recipe page wins over a table row naming the same recipe)
    for d, res in sorted(results, key=lambda p: p[0].tabular):
        for e in res.entities:
            ex.add_entity(e)
    for d, res in results:
        ex.documents[d.rel] = d.title
        ex.triples.extend(res.triples)
        ex.chunks.extend(make_chunks(d))
        if progress:
            progress(f"extracted {d.rel}")
    for e in roles.entities():
        ex.add_entity(e)
    ex.triples.extend(roles.triples)
    ex.merges = list(norm.merges)
    # link chunks to the entities they mention
    linker = entity_linker(ex.entities.values())
    for c in ex.chunks:
        c.entity_ids = mentioned_ids(linker, c.text)
    return ex
