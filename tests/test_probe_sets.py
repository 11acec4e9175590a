"""The held-out probe sets (``benchmarks/probes/``) are well-formed data.

``benchmarks/probes.py`` scores extraction against each set's ``gold.jsonl``; a
gold line whose quote is not on the line it names, or that points at a missing
document, would silently count as a miss. These checks read only each set's
own files and print a gold line only when it is broken.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PROBES = Path(__file__).resolve().parents[1] / "benchmarks" / "probes"
SETS = sorted(p for p in PROBES.iterdir() if (p / "meta.json").is_file()) if PROBES.is_dir() else []
KINDS = {"substitute", "optional", "stand_in", "fallback"}


def test_probe_sets_exist():
    """At least one set per kind of collection (Chinese recipes, English recipes, ops handbooks)."""
    kinds = {json.loads((p / "meta.json").read_text(encoding="utf-8"))["kind"] for p in SETS}
    assert {"recipes-zh", "recipes-en", "ops"} <= kinds


@pytest.mark.parametrize("folder", SETS, ids=[p.name for p in SETS])
def test_probe_set_is_well_formed(folder: Path):
    """meta.json names a split; README states the licence; every gold line names
    a document of docs/, a line inside it and an exact quote of that line."""
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    assert meta["split"] in ("check", "dev")
    assert "CC0" in (folder / "README.md").read_text(encoding="utf-8")
    rows = [json.loads(x) for x in (folder / "gold.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    assert len(rows) >= 40
    broken = []
    for n, g in enumerate(rows, 1):
        doc = folder / "docs" / g["doc"]
        lines = doc.read_text(encoding="utf-8").splitlines() if doc.is_file() else []
        ok = (g["kind"] in KINDS and g["x"] and (g["kind"] == "optional" or g.get("y"))
              and 1 <= g["line"] <= len(lines) and g["quote"] in lines[g["line"] - 1])
        if not ok:
            broken.append(f"gold.jsonl:{n}")
    assert broken == []
