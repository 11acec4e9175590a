"""CSV/TSV reader (``.csv``/``.tsv``/``.tab``) on the stdlib :mod:`csv`
module: one :class:`~..document.Record` per row, with its 1-based line."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ..document import DocumentError, Record
from .base import Reader, Reading, register
from .tabular import TableData, TableError, table_blocks


def _looks_numeric(s: str) -> bool:
    return bool(re.fullmatch(r"\s*[-+]?[\d.,%/ ]+\s*", s))


def read_delimited(text: str, tab_default: bool = False) -> TableData:
    """Read CSV/TSV ``text`` with the stdlib :mod:`csv` module.

    The dialect comes from :class:`csv.Sniffer` over the first 8 KB
    (delimiters ``,`` tab ``;`` ``|``); when sniffing fails the delimiter is
    a tab if the sample has more tabs than commas (or ``tab_default``), else
    a comma. The first non-blank row is the header unless it looks like data
    (a numeric cell or duplicate names) — then columns are ``column 1…n``.
    A row whose field count differs from the header's (extra empty trailing
    cells are tolerated; in a one-column file the whole line is the value) is recorded in ``errors`` with its line and skipped.
    Quoted multi-line cells are supported; a record's ``line`` is its first
    line. Raises :class:`TableError` when no data row parses."""
    sample = text[:8192]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",\t;|")
        delim = dialect.delimiter
        quote = dialect.quotechar or '"'
    except csv.Error:
        delim = "\t" if (tab_default or sample.count("\t") > sample.count(",")) else ","
        quote = '"'
    if tab_default and "\t" in sample and delim != "\t" and sample.count("\t") >= sample.split("\n", 1)[0].count(delim):
        delim = "\t"
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim, quotechar=quote, skipinitialspace=False,
                        strict=False)
    data = TableData()
    header: list[str] | None = None
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            data.errors.append((start, f"malformed row: {exc}"))
            continue
        if not row or not any(c.strip() for c in row):
            continue
        cells = [c.strip() for c in row]
        if header is None:
            names = [c for c in cells if c]
            if names and not any(_looks_numeric(c) for c in names) and len(set(c.lower() for c in names)) == len(names):
                header = [c or f"column {k + 1}" for k, c in enumerate(cells)]
                while header and header[-1].startswith("column ") and not cells[len(header) - 1]:
                    header.pop()
                data.columns = header
                continue
            header = [f"column {k + 1}" for k in range(len(cells))]
            data.columns = header
        if len(cells) > len(header) and not any(cells[len(header):]):
            cells = cells[: len(header)]
        if len(header) == 1 and len(cells) > 1:
            cells = [delim.join(row).strip()]  # a one-column file: the "delimiter" is prose punctuation
        if len(cells) != len(header):
            data.errors.append((start, f"row has {len(cells)} fields, expected {len(header)}"))
            continue
        data.records.append(Record(start, [(h, c) for h, c in zip(header, cells)]))
    if not data.records:
        if data.errors:
            raise TableError(data.errors[0][0], data.errors[0][1] + " (no row parsed)")
        raise TableError(1 if header else 0, "no data rows")
    return data


def read(path: Path, text: str) -> Reading:
    """The :class:`Reading` of a CSV/TSV file (see :func:`read_delimited`;
    a ``.tsv``/``.tab`` file defaults to tabs). Bad rows go to
    ``row_errors``; raises :class:`DocumentError` (line of the first bad
    row) when no row parses."""
    try:
        data = read_delimited(text, tab_default=path.suffix.lower() != ".csv")
    except TableError as err:
        raise DocumentError(path, err.line, err.reason) from None
    return Reading(table_blocks([data], []), "csv", tables=[data], row_errors=list(data.errors))


READER = register(Reader("csv", (".csv", ".tsv", ".tab"), read))
