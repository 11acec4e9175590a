"""What a reader is, and the registry :func:`~.parse_file` looks readers up in.

A reader module builds one :class:`Reader` (its name, the file extensions it
takes, and a ``read(path, text)`` function returning a :class:`Reading`)
and passes it to :func:`register` when imported; ``readers/__init__.py``
imports every reader module on one line. Adding a format is one new module
plus its name on that line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..document import Block


@dataclass(slots=True)
class Reading:
    """What a reader found in one file: ``blocks`` in source order, ``h1``
    the first level-1 heading (``""`` if none), ``meta`` metadata as
    ``key: text`` pairs (front matter, fields, ``<title>``; ``meta["title"]``
    is the title fallback), ``format`` the name of the reader that produced
    it (a reader may hand content over to another, e.g. HTML inside a
    ``.rst`` file), and for tabular formats ``tables``
    (:class:`~.tabular.TableData`) and ``row_errors`` ``(line, reason)``
    (rows, objects or front matter that could not be read); ``parts`` the
    records that are documents of their own (:class:`~..document.Part`,
    e.g. the recipes of a JSON array)."""

    blocks: list[Block]
    format: str
    h1: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    tables: list = field(default_factory=list)
    row_errors: list[tuple[int, str]] = field(default_factory=list)
    parts: list = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Reader:
    """One file format: ``name`` (``ParsedDocument.format``), the lower-case
    ``extensions`` it reads (with the dot) and ``read(path, text) -> Reading``,
    which raises :class:`~..document.DocumentError` (with a 1-based line) for
    content it cannot use. A ``binary`` reader (PDF, DOCX) gets ``text=""``
    and reads the file itself (see :func:`read_binary`)."""

    name: str
    extensions: tuple[str, ...]
    read: Callable[[Path, str], Reading]
    binary: bool = False


def read_binary(path: Path) -> bytes:
    """The bytes of ``path`` for a binary reader. Raises
    :class:`~..document.DocumentError` (line 0) when the file cannot be read
    or is empty."""
    from ..document import DocumentError

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError(path, 0, f"cannot read file: {exc.strerror or exc}") from None
    if not data.strip():
        raise DocumentError(path, 0, "empty file")
    return data


#: extension (``".md"``) → reader; filled by :func:`register`.
REGISTRY: dict[str, Reader] = {}


def register(reader: Reader) -> Reader:
    """Add ``reader`` under each of its extensions and return it. Raises
    ``ValueError`` when an extension is already taken by another reader."""
    for ext in reader.extensions:
        have = REGISTRY.get(ext)
        if have is not None and have.name != reader.name:
            raise ValueError(f"extension {ext} is read by {have.name} already")
        REGISTRY[ext] = reader
    return reader
