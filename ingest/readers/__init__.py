"""Readers: one module per file format, looked up by extension.

Each module registers a :class:`~.base.Reader` when imported (see
:mod:`.base`). :func:`parse_file` reads a file safely, looks its reader up
by extension and wraps the result in a
:class:`~..document.ParsedDocument`.

Formats: Markdown (``.md``/``.markdown``), plain text (``.txt``), HTML
(``.html``/``.htm``/``.xhtml``), reStructuredText (``.rst``/``.rest``),
AsciiDoc (``.adoc``/``.asciidoc``/``.asc``), CSV/TSV
(``.csv``/``.tsv``/``.tab``), JSON (``.json``), JSON Lines
(``.jsonl``/``.ndjson``), PDF (``.pdf``, pypdf) and Word (``.docx``,
python-docx).
"""

from __future__ import annotations

from pathlib import Path

from ...knowledge.text import detect_language
from ..document import DocumentError, ParsedDocument, read_text
from . import asciidoc, delimited, html, json, markdown, plaintext, rst  # noqa: F401  (each registers its reader)
from . import docx, pdf  # noqa: F401  (binary formats; each registers its reader)
from .base import REGISTRY, Reader, Reading

#: every extension a reader is registered for (lower case, with the dot)
SUPPORTED_EXTENSIONS = frozenset(REGISTRY)

__all__ = ["SUPPORTED_EXTENSIONS", "REGISTRY", "Reader", "Reading", "reader_for", "parse_file"]


def reader_for(path: Path) -> Reader | None:
    """The reader registered for ``path``'s extension (case-insensitive), or ``None``."""
    return REGISTRY.get(path.suffix.lower())


def parse_file(path: Path, rel: str | None = None) -> ParsedDocument:
    """Read and parse one document file with the reader of its extension.

    ``rel`` is the document path recorded in provenance (defaults to the file
    name). The title is the first H1, else the reader's ``meta["title"]``,
    else the file stem; ``url`` is the reader's ``meta["url"]`` (front matter);
    the language (``"zh"``/``"en"``) is detected on the first 200 blocks. Raises :class:`DocumentError` for an unsupported
    extension (line 0), for the read errors of
    :func:`~..document.read_text`, for what the reader rejects (e.g. invalid
    JSON, with its line) and for a file with no text after parsing. Binary
    formats (PDF, DOCX) are read by their reader from the file itself."""
    reader = reader_for(path)
    if reader is None:
        raise DocumentError(path, 0, "unsupported file type")
    text = "" if reader.binary else read_text(path)
    got = reader.read(path, text)
    if not any(b.text.strip() for b in got.blocks):
        raise DocumentError(path, 0, "empty file (no text after parsing)")
    title = got.h1 or got.meta.get("title", "") or path.stem
    sample = " ".join(b.text for b in got.blocks[:200])
    return ParsedDocument(path, rel or path.name, title, got.h1, got.blocks, got.meta,
                          detect_language(sample) or "en", got.format == "markdown", got.format,
                          got.tables, got.row_errors, list(got.parts), got.meta.get("url", ""))
