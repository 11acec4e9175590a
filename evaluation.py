"""Evaluation: run conversation cases through a :class:`ThreadGraphBot` per
retrieval mode and score them (pure: no platform SDK, no printing).

Case format (JSON lines, one case per line)::

    {"id": "zh-sub-gongbao-chicken", "set": "recipes-zh",
     "turns": [{"text": "宫保鸡丁没有手枪腿用什么代替？",
                "must": [["鸡胸脯肉", "鸡胸肉"]], "must_not": ["花生"], "found": true,
                "source": {"doc": "howtocook/dishes/...md", "line": 11, "quote": "- 手枪腿（或者鸡胸脯肉）"}}]}

Scoring of one turn against an :class:`~threadgraph.bot.answer.Answer`:

* ``must`` is a list of groups; a group is satisfied when ANY of its
  alternatives occurs (case-insensitive substring) in the answer text or in
  the subject/object names of the answer's facts;
* no ``must_not`` string may occur (case-insensitive) in the answer text;
* no ``must_not_facts`` string may occur in any fact's subject or object name
  (for traps where the text may legitimately quote the source line, e.g. a
  unit alternative "(0-50g)" must not become a substitute *entity*);
* ``found`` must equal ``answer.found`` (``null``/absent = not scored).

A case passes when every turn passes; each case runs in one fresh thread, its
turns in order. ``source`` (or ``absent``) documents where the expectation
comes from and is checked by ``tests/test_cases_sources.py``, not here.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

import numpy as np

from .bot.core import RETRIEVAL_MODES as MODES
from .bot.message import IncomingMessage, ThreadKey


class CaseError(ValueError):
    """A case file line that is not a valid case (message names file:line)."""


@dataclass
class Turn:
    """One user message and what a right answer must (not) contain."""

    text: str
    must: list[list[str]] = field(default_factory=list)
    must_not: list[str] = field(default_factory=list)
    must_not_facts: list[str] = field(default_factory=list)
    found: bool | None = True
    source: dict | list | None = None
    absent: list[str] = field(default_factory=list)


@dataclass
class Case:
    """A short conversation in one thread; ``set`` groups cases in reports."""

    id: str
    set: str
    turns: list[Turn]


def _parse_case(obj, where: str) -> Case:
    if not isinstance(obj, dict):
        raise CaseError(f"{where}: expected a JSON object")
    cid, cset, turns = obj.get("id"), obj.get("set", "default"), obj.get("turns")
    if not isinstance(cid, str) or not cid:
        raise CaseError(f"{where}: missing string 'id'")
    if not isinstance(turns, list) or not turns:
        raise CaseError(f"{where}: case {cid!r} needs a non-empty 'turns' list")
    out = []
    for i, t in enumerate(turns):
        if not isinstance(t, dict) or not isinstance(t.get("text"), str) or not t["text"].strip():
            raise CaseError(f"{where}: case {cid!r} turn {i}: needs a non-empty 'text'")
        must = t.get("must", [])
        if not isinstance(must, list) or not all(isinstance(g, list) and g and all(isinstance(a, str) for a in g) for g in must):
            raise CaseError(f"{where}: case {cid!r} turn {i}: 'must' must be a list of non-empty lists of strings")
        must_not = t.get("must_not", [])
        if not isinstance(must_not, list) or not all(isinstance(a, str) for a in must_not):
            raise CaseError(f"{where}: case {cid!r} turn {i}: 'must_not' must be a list of strings")
        mnf = t.get("must_not_facts", [])
        if not isinstance(mnf, list) or not all(isinstance(a, str) for a in mnf):
            raise CaseError(f"{where}: case {cid!r} turn {i}: 'must_not_facts' must be a list of strings")
        found = t.get("found", True)
        if found is not None and not isinstance(found, bool):
            raise CaseError(f"{where}: case {cid!r} turn {i}: 'found' must be true, false or null")
        out.append(Turn(text=t["text"], must=must, must_not=must_not, must_not_facts=mnf, found=found,
                        source=t.get("source"), absent=list(t.get("absent", []))))
    return Case(id=cid, set=str(cset), turns=out)


def load_cases(paths: Iterable[Path | str]) -> list[Case]:
    """Read cases from JSONL files (or folders of ``*.jsonl``), in order.
    Blank lines and lines starting with ``#`` are skipped. Raises
    :class:`CaseError` on invalid JSON, a malformed case or a duplicate id;
    ``FileNotFoundError`` for a missing path."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.extend(sorted(p.glob("*.jsonl")))
        elif p.exists():
            files.append(p)
        else:
            raise FileNotFoundError(p)
    cases, seen = [], set()
    for f in files:
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            where = f"{f}:{n}"
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CaseError(f"{where}: invalid JSON: {exc}") from exc
            c = _parse_case(obj, where)
            if c.id in seen:
                raise CaseError(f"{where}: duplicate case id {c.id!r}")
            seen.add(c.id)
            cases.append(c)
    return cases


@dataclass
class TurnResult:
    """The outcome of one turn: what was asked, what came back, why it failed
    (``missing`` groups, ``forbidden`` strings found, ``found_ok``) and the
    wall latency of ``bot.answer`` in milliseconds."""

    text: str
    passed: bool
    found_expected: bool | None
    found_got: bool
    found_ok: bool
    missing: list[list[str]]
    forbidden: list[str]
    intent: str
    answer: str
    latency_ms: float


@dataclass
class CaseResult:
    """A case run in one mode; ``passed`` when all its turns passed."""

    id: str
    set: str
    mode: str
    passed: bool
    turns: list[TurnResult]


def _occurs(needle: str, hay: str) -> bool:
    """Case-insensitive substring test; a needle that is one Latin word
    ("IC", "SME") must occur as a whole word, so "IC" does not match
    "specifically"."""
    n, hay = needle.casefold(), hay.casefold()
    if re.fullmatch(r"[a-z0-9]+", n) and (needle.isupper() or len(n) <= 3):
        return re.search(rf"(?<![a-z0-9]){re.escape(n)}(?![a-z0-9])", hay) is not None
    return n in hay


def score_turn(turn: Turn, answer) -> tuple[bool, list[list[str]], list[str], bool]:
    """Score ``answer`` (an :class:`Answer` or its dict) against ``turn``.
    Returns ``(passed, missing_groups, forbidden_hits, found_ok)``."""
    a = answer if isinstance(answer, dict) else answer.model_dump()
    text = (a.get("answer") or "").casefold()
    names = " \n".join(f"{f.get('subject', '')} \n{f.get('object', '')}" for f in a.get("facts") or []).casefold()
    hay = text + "\n" + names
    missing = [g for g in turn.must if not any(_occurs(alt, hay) for alt in g)]
    forbidden = [s for s in turn.must_not if _occurs(s, text)]
    forbidden += [f"fact:{s}" for s in turn.must_not_facts if _occurs(s, names)]
    found_ok = turn.found is None or bool(a.get("found")) == turn.found
    return (not missing and not forbidden and found_ok), missing, forbidden, found_ok


def run_case(bot, case: Case, mode: str, thread: str) -> CaseResult:
    """Ask ``case``'s turns in order in the fresh thread ``thread`` with
    retrieval ``mode``; ``bot`` is a ThreadGraphBot (anything with its
    ``answer(IncomingMessage, retrieval=...)``)."""
    key = ThreadKey(platform="eval", thread=thread)
    results = []
    for t in case.turns:
        t0 = time.perf_counter()
        ans = bot.answer(IncomingMessage(thread=key, text=t.text), retrieval=mode)
        ms = (time.perf_counter() - t0) * 1000.0
        passed, missing, forbidden, found_ok = score_turn(t, ans)
        results.append(TurnResult(
            text=t.text, passed=passed, found_expected=t.found, found_got=ans.found, found_ok=found_ok,
            missing=missing, forbidden=forbidden, intent=ans.intent, answer=ans.answer[:400], latency_ms=round(ms, 2),
        ))
    return CaseResult(id=case.id, set=case.set, mode=mode, passed=all(r.passed for r in results), turns=results)


@dataclass
class SetStats:
    """Aggregates for one (set, mode); ``set == "ALL"`` sums every set.

    ``pass_rate`` = passed cases / cases; ``turn_pass_rate`` = passed turns /
    turns; ``notfound_accuracy`` = share of turns expecting ``found=false``
    answered ``found=false`` (``None`` when there are none);
    ``found_accuracy`` = the same for ``found=true``; latencies in ms over
    turns."""

    set: str
    mode: str
    cases: int
    turns: int
    passed_cases: int
    pass_rate: float
    turn_pass_rate: float
    notfound_turns: int
    notfound_accuracy: float | None
    found_turns: int
    found_accuracy: float | None
    latency_p50_ms: float
    latency_p95_ms: float


def _stats(set_name: str, mode: str, results: list[CaseResult]) -> SetStats:
    turns = [t for r in results for t in r.turns]
    lat = np.array([t.latency_ms for t in turns] or [0.0])
    nf = [t for t in turns if t.found_expected is False]
    fd = [t for t in turns if t.found_expected is True]
    passed = sum(r.passed for r in results)
    return SetStats(
        set=set_name, mode=mode, cases=len(results), turns=len(turns), passed_cases=passed,
        pass_rate=round(passed / len(results), 4) if results else 0.0,
        turn_pass_rate=round(sum(t.passed for t in turns) / len(turns), 4) if turns else 0.0,
        notfound_turns=len(nf), notfound_accuracy=round(sum(not t.found_got for t in nf) / len(nf), 4) if nf else None,
        found_turns=len(fd), found_accuracy=round(sum(t.found_got for t in fd) / len(fd), 4) if fd else None,
        latency_p50_ms=round(float(np.percentile(lat, 50)), 2), latency_p95_ms=round(float(np.percentile(lat, 95)), 2),
    )


@dataclass
class EvalReport:
    """Everything one evaluation run measured: ``stats`` per (set, mode)
    including ``ALL``, every ``results`` row, the ``modes`` run, wall
    ``seconds`` and when it started (ISO 8601, UTC)."""

    modes: list[str]
    stats: list[SetStats]
    results: list[CaseResult]
    started: str
    seconds: float
    meta: dict = field(default_factory=dict)

    def stat(self, set_name: str, mode: str) -> SetStats | None:
        """The aggregate row for ``(set_name, mode)`` (``"ALL"`` for the total)."""
        return next((s for s in self.stats if s.set == set_name and s.mode == mode), None)

    def failures(self, mode: str | None = None) -> list[CaseResult]:
        """Failed cases, optionally only in ``mode``."""
        return [r for r in self.results if not r.passed and (mode is None or r.mode == mode)]

    def to_dict(self) -> dict:
        """JSON-ready dict (``json.dumps(report.to_dict(), ensure_ascii=False)``)."""
        return asdict(self)


def run_eval(bot, cases: list[Case], modes: Iterable[str] = MODES, *, run_id: str | None = None, meta: dict | None = None) -> EvalReport:
    """Run every case in every mode of ``modes`` (each case × mode in its own
    fresh thread, keyed by ``run_id``) and aggregate. Raises ``ValueError`` for
    an unknown mode."""
    modes = list(modes)
    bad = [m for m in modes if m not in MODES]
    if bad:
        raise ValueError(f"unknown retrieval mode(s) {bad}; use {MODES}")
    run_id = run_id or uuid.uuid4().hex[:8]
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    t0 = time.perf_counter()
    results: list[CaseResult] = []
    for mode in modes:
        for c in cases:
            results.append(run_case(bot, c, mode, f"{run_id}/{mode}/{c.id}"))
    sets = list(dict.fromkeys(c.set for c in cases))
    stats = []
    for mode in modes:
        for s in sets:
            stats.append(_stats(s, mode, [r for r in results if r.mode == mode and r.set == s]))
        stats.append(_stats("ALL", mode, [r for r in results if r.mode == mode]))
    return EvalReport(modes=modes, stats=stats, results=results, started=started,
                      seconds=round(time.perf_counter() - t0, 2), meta=dict(meta or {}))
