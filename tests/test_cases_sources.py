"""The benchmark cases are anchored in the bundled corpora: every recorded
source quote is really at its 1-based line, and every entity a not-found case
calls absent is really nowhere in the corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from threadgraph.evaluation import load_cases

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "benchmarks" / "cases"
CORPORA = REPO / "corpora"
ALL = load_cases([CASES])


def _sources(turn):
    s = turn.source
    return [] if s is None else (s if isinstance(s, list) else [s])


def test_enough_cases_over_both_corpora():
    assert len(ALL) >= 80
    sets = {c.set for c in ALL}
    assert {"recipes-zh", "sop-en", "traps"} <= sets
    multi = [c for c in ALL if len(c.turns) >= 2]
    assert any(len(c.turns) == 3 for c in multi) and len(multi) >= 8
    assert sum(t.found is False for c in ALL for t in c.turns) >= 8


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_each_turn_is_anchored(case):
    for t in case.turns:
        srcs = _sources(t)
        if t.found is False and not srcs:
            assert t.absent, f"{case.id}: {t.text!r} expects not-found but names no absent entity"
        else:
            assert srcs, f"{case.id}: {t.text!r} has no source line"
        for s in srcs:
            path = CORPORA / s["doc"]
            assert path.is_file(), f"{case.id}: no such corpus file {s['doc']}"
            lines = path.read_text(encoding="utf-8").splitlines()
            assert 1 <= s["line"] <= len(lines), f"{case.id}: line {s['line']} out of range"
            assert s["quote"] and s["quote"] in lines[s["line"] - 1], (
                f"{case.id}: quote {s['quote']!r} not at {s['doc']}:{s['line']} ({lines[s['line'] - 1]!r})")


def test_absent_entities_are_absent():
    names = {a for c in ALL for t in c.turns for a in t.absent}
    assert names
    corpus = "\n".join(p.read_text(encoding="utf-8", errors="replace").casefold()
                       for p in CORPORA.rglob("*") if p.suffix in (".md", ".markdown", ".txt"))
    present = [n for n in names if n.casefold() in corpus]
    assert not present, f"said absent but found in the corpus: {present}"
