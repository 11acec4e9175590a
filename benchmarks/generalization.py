"""Generalization benchmark: what a user gets on public collections that no
rule was written against (protocol: ``benchmarks/generalization/README.md``).

For each corpus folder ``benchmarks/generalization/<name>/`` (``meta.json``,
``docs/``, ``cases.jsonl``, ``gold.jsonl``, ``judged.jsonl``) this script

1. ingests ``docs/`` into its own KB (``<bench dir>/gen/<name>``, e5 model),
2. runs the cases in hybrid and vector-only modes (turn pass rate, found and
   not-found accuracy),
3. measures gold relation recall (per kind) against the KB's edges,
4. samples 50 extracted edges (stable: ranked by the sha1 of their key) and
   computes precision over those judged in ``judged.jsonl``; the unjudged
   ones are written to ``<name>/to_judge.jsonl`` with their source line,

and writes ``benchmarks/results/generalization.json``: ``runs`` (the latest
figures per corpus), ``first_runs`` (each corpus's first run, recorded once
and never overwritten). Blind corpora print aggregates only; their per-case
detail goes to ``benchmarks/results/generalization-blind-detail.json``.
Then ``benchmarks/report.py`` renders the README table.

Usage::

    python benchmarks/generalization.py [--corpus NAME ...] [--split dev|blind] [--no-report]

Exit status 0, or 2 when a corpus folder is malformed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

GEN = C.REPO / "benchmarks" / "generalization"
OUT = "generalization.json"
BLIND_DETAIL = "generalization-blind-detail.json"
#: corpora taken out of the benchmark (their documents removed from the repository), name -> reason
WITHDRAWN = GEN / "withdrawn.json"


def withdraw(results: dict, blind_detail: dict) -> list[str]:
    """Move the recorded figures of every corpus listed in ``withdrawn.json`` from ``results["runs"]`` and
    ``results["first_runs"]`` to ``results["withdrawn"][name]`` (with its reason), and drop its blind detail.
    Returns the names moved by this call."""
    listed = json.loads(WITHDRAWN.read_text(encoding="utf-8")) if WITHDRAWN.exists() else {}
    moved = []
    for name, reason in listed.items():
        last, first = results.get("runs", {}).pop(name, None), results.get("first_runs", {}).pop(name, None)
        blind_detail.pop(name, None)
        results.get("dev_detail", {}).pop(name, None)
        if last or first:
            results.setdefault("withdrawn", {})[name] = {"reason": reason, "last_run": last, "first_run": first}
            moved.append(name)
    return moved
SAMPLE = 50
MODES = ["hybrid", "vector"]


# -- corpora -------------------------------------------------------------------
def corpora(names: list[str] | None = None, split: str | None = None) -> list[dict]:
    """The corpus folders with a ``meta.json``, sorted by name; each dict is
    the meta plus ``dir`` (Path). Raises ``SystemExit(2)`` for a folder whose
    meta, docs or cases are missing."""
    out = []
    for d in sorted(p for p in GEN.iterdir() if p.is_dir()):
        meta_p = d / "meta.json"
        if not meta_p.exists():
            continue
        meta = json.loads(meta_p.read_text(encoding="utf-8"))
        meta["name"] = meta.get("name") or d.name
        meta["dir"] = d
        for need in ("docs", "cases.jsonl", "gold.jsonl"):
            if not (d / need).exists():
                raise SystemExit(f"{d}: missing {need}")
        if names and meta["name"] not in names:
            continue
        if split and meta.get("split") != split:
            continue
        out.append(meta)
    return out


def read_jsonl(path: Path) -> list[dict]:
    """JSON objects of a JSONL file (blank and ``#`` lines skipped; missing file = [])."""
    if not path.exists():
        return []
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{n}: invalid JSON: {exc}") from exc
    return rows


# -- name matching (independent of the engine's own normalization) -----------------
_T2S = None


def _norm(s: str) -> str:
    """NFKC, casefold, accents stripped, traditional → simplified (zhconv when
    installed), spaces collapsed."""
    global _T2S
    s = unicodedata.normalize("NFKC", s or "").casefold()
    s = "".join(ch for ch in unicodedata.normalize("NFD", s) if not unicodedata.combining(ch))
    if _T2S is None:
        try:
            from zhconv import convert

            _T2S = lambda x: convert(x, "zh-hans")  # noqa: E731
        except ImportError:
            _T2S = lambda x: x  # noqa: E731
    return re.sub(r"\s+", " ", _T2S(s)).strip()


def names_match(gold: str, got: str) -> bool:
    """Equal after :func:`_norm`, or one contains the other: as a whole word
    when Latin, as a substring of ≥ 2 characters when CJK."""
    a, b = _norm(gold), _norm(got)
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if re.search(r"[a-z0-9]", short):
        return re.search(rf"(?<![a-z0-9]){re.escape(short)}(?![a-z0-9])", long_) is not None
    return len(short) >= 2 and short in long_


def _doc_match(gold_doc: str, edge_doc: str) -> bool:
    g, e = gold_doc.strip("/"), (edge_doc or "").strip("/")
    return g == e or e.endswith("/" + g) or g.endswith("/" + e)


# -- edges -------------------------------------------------------------------------
EDGE_QUERIES = {
    "SUBSTITUTES": ("MATCH (a:Entity)-[r:SUBSTITUTES]->(b:Entity) RETURN a.name AS s, a.aliases AS sa, a.type AS st, b.name AS o, b.aliases AS oa, "
                    "b.type AS ot, r.symmetric AS sym, r.context_name AS ctx, r.cond AS cond, r.doc AS doc, "
                    "r.line AS line, r.extractor AS ex"),
    "CONTAINS": ("MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) RETURN a.name AS s, a.aliases AS sa, a.type AS st, b.name AS o, b.aliases AS oa, "
                 "b.type AS ot, r.required AS req, r.doc AS doc, r.line AS line, r.extractor AS ex"),
    "RELATED": ("MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.name AS s, a.aliases AS sa, a.type AS st, b.name AS o, b.aliases AS oa, "
                "b.type AS ot, r.predicate AS pred, r.doc AS doc, r.line AS line, r.extractor AS ex"),
}


def load_edges(graph) -> list[dict]:
    """Every CONTAINS / SUBSTITUTES / RELATED edge of ``graph`` (a GraphStore)
    as dicts with ``rel``, ``s``, ``o``, ``doc``, ``line`` and per-relation
    fields. Queries are constants (no parameters needed)."""
    edges = []
    for rel, q in EDGE_QUERIES.items():
        for row in graph.query(q):
            row["rel"] = rel
            edges.append(row)
    return edges


def edge_key(e: dict) -> str:
    """A stable text key of an edge: relation, names, doc and line (plus the
    predicate / required flag), used to keep judgements across runs."""
    extra = e.get("pred") or ("optional" if e.get("req") is False else "")
    return f"{e['rel']}|{extra}|{e['s']}|{e['o']}|{e.get('doc', '')}|{e.get('line', 0)}"


def gold_found(g: dict, edges: list[dict]) -> bool:
    """Whether the KB holds gold relation ``g`` (see README "Gold relation format");
    a node matches by its name or one of its recorded aliases (the surfaces
    that were normalized into it)."""
    xs, ys, doc = g.get("x") or [], g.get("y") or [], g.get("doc", "")

    def hit(golds: list[str], e: dict, side: str) -> bool:
        names = [e[side], *(e.get(side + "a") or [])]  # the node's name and its recorded aliases
        return any(names_match(x, n) for x in golds for n in names)

    for e in edges:
        if not _doc_match(doc, e.get("doc", "")):
            continue
        if g["kind"] == "optional":
            if e["rel"] == "CONTAINS" and e.get("req") is False and hit(xs, e, "o"):
                return True
            continue
        if e["rel"] not in ("SUBSTITUTES", "RELATED"):
            continue
        fwd = hit(xs, e, "s") and hit(ys, e, "o")
        back = (e.get("sym") or e["rel"] == "RELATED") and hit(xs, e, "o") and hit(ys, e, "s")
        if fwd or back:
            return True
    return False


def sample_edges(edges: list[dict], n: int = SAMPLE) -> list[dict]:
    """A stable sample of ``n`` extracted edges: the relations first
    (SUBSTITUTES, RELATED other than role mentions, optional CONTAINS), topped
    up with a recipe's required CONTAINS and role mentions; each group ranked
    by the sha1 of the edge key, so an edge keeps its rank across runs.
    Structural edges (document → section → step) are never sampled: they are
    the document's layout, not something read from its sentences."""
    def rank(e):
        return hashlib.sha1(edge_key(e).encode("utf-8")).hexdigest()

    def group(e):
        if e["rel"] == "SUBSTITUTES" or (e["rel"] == "CONTAINS" and e.get("req") is False):
            return 0
        if e["rel"] == "RELATED":
            return 1 if str(e.get("pred") or "").startswith("mentions") else 0
        return 1 if e.get("st") not in ("document", "section", "step") else 2

    first = sorted((e for e in edges if group(e) == 0), key=rank)[:n]
    return first + sorted((e for e in edges if group(e) == 1), key=rank)[: n - len(first)]


def _source_line(docs: Path, doc: str, line: int) -> str:
    p = docs / doc
    try:
        lines = p.read_text(encoding="utf-8", errors="replace").splitlines()
        return lines[line - 1][:500] if 1 <= line <= len(lines) else ""
    except OSError:
        return ""


# -- one corpus --------------------------------------------------------------------
def run_corpus(meta: dict) -> tuple[dict, dict]:
    """Ingest, evaluate, score one corpus. Returns ``(figures, detail)``."""
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.evaluation import load_cases, run_eval
    from threadgraph.bot.memory import ThreadMemory
    from threadgraph.knowledge.kb import KBHandle

    d: Path = meta["dir"]
    data_dir = C.bench_dir() / "gen" / meta["name"]
    t0 = time.perf_counter()
    C.ensure_kb(data_dir, [d / "docs"])
    ingest_s = round(time.perf_counter() - t0, 1)
    settings = C.settings(data_dir)
    handle = KBHandle(data_dir, settings)
    kb = handle.get()
    edges = load_edges(kb.graph)
    counts = {"SUBSTITUTES": 0, "CONTAINS": 0, "CONTAINS_optional": 0, "RELATED": 0}
    for e in edges:
        counts[e["rel"]] += 1
        if e["rel"] == "CONTAINS" and e.get("req") is False:
            counts["CONTAINS_optional"] += 1
    ents = kb.graph.query("MATCH (e:Entity) RETURN e.type AS t, count(*) AS n")
    # gold recall
    gold = read_jsonl(d / "gold.jsonl")
    by_kind: dict[str, list[int]] = {}
    missed = []
    for g in gold:
        ok = gold_found(g, edges)
        by_kind.setdefault(g["kind"], [0, 0])
        by_kind[g["kind"]][0] += ok
        by_kind[g["kind"]][1] += 1
        if not ok:
            missed.append(g)
    recall = round(sum(v[0] for v in by_kind.values()) / len(gold), 4) if gold else None
    # precision from judgements
    judged = {j["key"]: j for j in read_jsonl(d / "judged.jsonl")}
    sample = sample_edges(edges)
    verdicts = [judged[edge_key(e)]["correct"] for e in sample if edge_key(e) in judged]
    todo = [e for e in sample if edge_key(e) not in judged]
    tj = d / "to_judge.jsonl"
    if todo:
        with tj.open("w", encoding="utf-8") as f:
            for e in todo:
                f.write(json.dumps({"key": edge_key(e), "relation": e["rel"], "subject": e["s"], "object": e["o"],
                                    "predicate": e.get("pred"), "required": e.get("req"), "symmetric": e.get("sym"),
                                    "context": e.get("ctx"), "condition": e.get("cond"), "doc": e.get("doc"),
                                    "line": e.get("line"), "source_line": _source_line(d / "docs", e.get("doc") or "", e.get("line") or 0)},
                                   ensure_ascii=False) + "\n")
    elif tj.exists():
        tj.unlink()
    precision = round(sum(verdicts) / len(verdicts), 4) if verdicts else None
    # cases
    cases = load_cases([d / "cases.jsonl"])
    with tempfile.TemporaryDirectory() as tmp:
        bot = ThreadGraphBot(settings, kb=handle, memory=ThreadMemory(Path(tmp) / "memory.sqlite"))
        report = run_eval(bot, cases, MODES, run_id=f"gen-{meta['name']}")
    kb.close()
    modes = {}
    for m in MODES:
        s = report.stat("ALL", m)
        modes[m] = {"cases": s.cases, "turns": s.turns, "case_pass": s.pass_rate, "turn_pass": s.turn_pass_rate,
                    "found_acc": s.found_accuracy, "found_turns": s.found_turns,
                    "notfound_acc": s.notfound_accuracy, "notfound_turns": s.notfound_turns,
                    "p50_ms": s.latency_p50_ms, "p95_ms": s.latency_p95_ms}
    figures = {
        "name": meta["name"], "kind": meta.get("kind"), "split": meta.get("split"), "format": meta.get("format"),
        "date": C.now(), "commit": _git_head(), "ingest_s": ingest_s,
        "docs": kb.manifest.get("documents") or kb.manifest.get("docs"),
        "entities": {r["t"]: r["n"] for r in ents}, "edges": counts,
        "modes": modes,
        "gold": {"total": len(gold), "found": sum(v[0] for v in by_kind.values()), "recall": recall,
                 "by_kind": {k: {"found": v[0], "total": v[1], "recall": round(v[0] / v[1], 4)} for k, v in by_kind.items()}},
        "precision": {"judged": len(verdicts), "correct": int(sum(verdicts)), "sample": len(sample),
                      "unjudged": len(todo), "precision": precision,
                      "sample_keys": [edge_key(e) for e in sample]},
    }
    detail = {
        "name": meta["name"],
        "failures": [{"id": r.id, "mode": r.mode, "turns": [
            {"text": t.text, "passed": t.passed, "missing": t.missing, "forbidden": t.forbidden,
             "found_expected": t.found_expected, "found_got": t.found_got, "intent": t.intent, "answer": t.answer}
            for t in r.turns]} for r in report.failures()],
        "gold_missed": missed,
    }
    return figures, detail


def rescore_precision(results: dict, names: set[str] | None = None) -> list[str]:
    """Recompute the precision of every recorded run (latest and first) from
    the judgements now in each corpus's ``judged.jsonl``: judging happens
    after a run, so a run's precision is filled in once its sample is judged.
    A run recorded without ``sample_keys`` uses the corpus's
    ``to_judge.jsonl`` of that run (the whole sample when nothing was judged
    yet). Only the corpora in ``names`` when given. Returns the names updated."""
    done = []
    for section in ("runs", "first_runs"):
        for name, fig in results.get(section, {}).items():
            if names is not None and name not in names:
                continue
            d = GEN / name
            judged = {j["key"]: j for j in read_jsonl(d / "judged.jsonl")}
            p = fig["precision"]
            keys = p.get("sample_keys")
            if keys is None and p.get("judged", 0) == 0 and p.get("unjudged", 0) > 0:
                keys = [r["key"] for r in read_jsonl(d / "to_judge.jsonl")]
                if len(keys) != p["unjudged"]:
                    continue  # that file belongs to another run
            if not keys:
                continue
            verdicts = [judged[k]["correct"] for k in keys if k in judged]
            p.update({"judged": len(verdicts), "correct": int(sum(verdicts)), "unjudged": len(keys) - len(verdicts),
                      "precision": round(sum(verdicts) / len(verdicts), 4) if verdicts else None})
            done.append(f"{section}:{name}")
    return done


def _git_head() -> str:
    try:
        return subprocess.run(["git", "-C", str(C.REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _pct(v) -> str:
    return "–" if v is None else f"{100 * v:.0f} %"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", help="only this corpus (repeatable)")
    ap.add_argument("--split", choices=["dev", "blind"], help="only dev or only blind corpora")
    ap.add_argument("--no-report", action="store_true", help="do not re-render the README table")
    ap.add_argument("--rescore-precision", action="store_true",
                    help="only recompute recorded runs' precision from judged.jsonl (no ingest, no questions); "
                    "with --corpus / --split only those corpora")
    args = ap.parse_args(argv)
    if args.rescore_precision:
        out_p = C.RESULTS / OUT
        results = json.loads(out_p.read_text(encoding="utf-8"))
        only = {m["name"] for m in corpora(args.corpus, args.split)} if args.corpus or args.split else None
        print("rescored:", ", ".join(rescore_precision(results, only)) or "nothing")
        C.write_json(OUT, results)
        if not args.no_report:
            subprocess.call([sys.executable, str(C.REPO / "benchmarks" / "report.py")])
        return 0
    todo = corpora(args.corpus, args.split)
    if not todo:
        print("no corpora with a meta.json under benchmarks/generalization/")
        return 0
    out_p = C.RESULTS / OUT
    results = json.loads(out_p.read_text(encoding="utf-8")) if out_p.exists() else {}
    results.setdefault("runs", {})
    results.setdefault("first_runs", {})
    blind_p = C.RESULTS / BLIND_DETAIL
    blind_detail = json.loads(blind_p.read_text(encoding="utf-8")) if blind_p.exists() else {}
    dev_detail = results.setdefault("dev_detail", {})
    for name in withdraw(results, blind_detail):
        print(f"== {name}: withdrawn ({results['withdrawn'][name]['reason']})")
    for meta in todo:
        name = meta["name"]
        print(f"== {name} ({meta.get('kind')}, {meta.get('split')})", flush=True)
        fig, detail = run_corpus(meta)
        results["runs"][name] = fig
        if name not in results["first_runs"]:
            results["first_runs"][name] = fig  # recorded once, never overwritten
        if meta.get("split") == "blind":
            blind_detail[name] = detail
            dev_detail.pop(name, None)
        else:
            dev_detail[name] = detail
        h, v = fig["modes"]["hybrid"], fig["modes"]["vector"]
        p = fig["precision"]
        print(f"   turns {h['turns']}: hybrid {_pct(h['turn_pass'])}, vector-only {_pct(v['turn_pass'])}; "
              f"found acc {_pct(h['found_acc'])}, not-found acc {_pct(h['notfound_acc'])}; "
              f"gold recall {_pct(fig['gold']['recall'])} of {fig['gold']['total']}; "
              f"precision {_pct(p['precision'])} ({p['judged']} judged, {p['unjudged']} to judge)", flush=True)
    results["machine"] = C.machine()
    C.write_json(OUT, results)
    C.write_json(BLIND_DETAIL, blind_detail)
    if not args.no_report:
        subprocess.call([sys.executable, str(C.REPO / "benchmarks" / "report.py")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
