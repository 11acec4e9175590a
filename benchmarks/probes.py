"""Held-out probe sets: small document collections written for this project by
someone who read no engine code and no benchmark corpus, with every relation
they state in a gold file. They measure extraction on layouts and wordings
nobody tuned for, graph-only (no embeddings: a set takes seconds).

Usage (from the checkout, with the package importable as ``threadgraph``)::

    python benchmarks/probes.py                 # every set; aggregates only
    python benchmarks/probes.py zh-recipes miss # a DEV set's misses and unexplained edges
    python benchmarks/probes.py --why           # why gold lines are missed, as counts (any set)

Layout: ``benchmarks/probes/<name>/`` holds ``meta.json`` (``{"name", "kind",
"split": "check" | "dev", "language", "added", "history"}``), ``docs/`` (the
ingest root), ``gold.jsonl`` (the format of ``benchmarks/generalization``'s
gold files) and ``README.md`` (who wrote it, licence, constructions used).

Figures per set:

- **recall**: gold relations the graph holds (the generalization benchmark's
  matcher, :func:`generalization.gold_found`), per kind;
- **explained**: the share of extracted relation edges (``SUBSTITUTES``,
  optional ``CONTAINS``, ``RELATED`` other than role mentions) that some gold
  line of the same document matches. Since the gold lists *every* relation the
  text states, an unexplained edge is a likely wrong one: a precision proxy,
  not a judged precision.

Protocol: a ``check`` set is not read by anyone writing engine code, and only
its aggregates are printed. Its first run is kept in
``benchmarks/results/probes.json`` (``first_runs``) and never overwritten. A set
whose misses were looked at while fixing code becomes ``dev`` (``meta.json``
``history`` says when and why).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generalization as G  # noqa: E402  (benchmarks/ on sys.path)
from gold_recall import extracted  # noqa: E402

PROBES = G.C.REPO / "benchmarks" / "probes"
OUT = "probes.json"


def probe_sets(names: list[str] | None = None) -> list[dict]:
    """The ``meta.json`` of every probe set (or of ``names``), sorted by name.

    Raises ``SystemExit`` when a named set does not exist."""
    metas = []
    for d in sorted(p for p in PROBES.iterdir() if (p / "meta.json").is_file()) if PROBES.is_dir() else []:
        if names and d.name not in names:
            continue
        metas.append(json.loads((d / "meta.json").read_text(encoding="utf-8")) | {"name": d.name})
    missing = set(names or ()) - {m["name"] for m in metas}
    if missing:
        raise SystemExit(f"no probe set named {', '.join(sorted(missing))} under {PROBES}")
    return metas


def relation_edges(edges: list[dict]) -> list[dict]:
    """The edges that state a relation (what the gold lists): substitutions,
    optional ingredients, and RELATED edges other than role mentions."""
    return [e for e in edges if e["rel"] == "SUBSTITUTES"
            or (e["rel"] == "CONTAINS" and e.get("req") is False)
            or (e["rel"] == "RELATED" and not str(e.get("pred") or "").startswith("mentions"))]


def explained(e: dict, gold: list[dict]) -> bool:
    """Whether some gold line of ``e``'s document matches edge ``e`` (the
    benchmark's matcher applied to this one edge)."""
    return any(G.gold_found(g, [e]) for g in gold)


def score_set(meta: dict) -> tuple[dict, dict]:
    """Ingest one probe set graph-only and score it.

    Returns ``(figures, detail)``: figures hold recall per kind and the
    explained share; detail lists the missed gold lines and unexplained edges
    (printed only for dev sets)."""
    d = PROBES / meta["name"]
    gold = G.read_jsonl(d / "gold.jsonl")
    with extracted(d / "docs", f"probe-{meta['name']}-") as g:
        edges = G.load_edges(g)
    rel = relation_edges(edges)
    found = [x for x in gold if G.gold_found(x, edges)]
    by_kind: dict[str, dict] = {}
    for x in gold:
        k = by_kind.setdefault(x["kind"], {"found": 0, "total": 0})
        k["total"] += 1
        k["found"] += x in found
    unexplained = [e for e in rel if not explained(e, gold)]
    fig = {"gold": len(gold), "found": len(found), "recall": round(len(found) / max(1, len(gold)), 4),
           "by_kind": by_kind, "relation_edges": len(rel), "unexplained": len(unexplained),
           "explained_share": round(1 - len(unexplained) / len(rel), 4) if rel else None,
           "commit": G._git_head()}
    detail = {"missed": [x for x in gold if x not in found],
              "unexplained": [{k: e.get(k) for k in ("rel", "pred", "s", "o", "doc", "line", "ex")}
                              for e in unexplained]}
    return fig, detail


def why_counts(meta: dict) -> dict[str, int]:
    """Counts of a set's missed gold lines by what the graph holds about them (no text, so
    usable on check sets): whether an X name is a node of that document (a recipe's
    ingredient or a relation's side), whether a Y name is, and whether any relation edge
    was read from the gold line. Keys look like ``"substitute: x-node y, y-node n, edge-on-line n"``."""
    d = PROBES / meta["name"]
    gold = G.read_jsonl(d / "gold.jsonl")
    with extracted(d / "docs", f"probe-why-{meta['name']}-") as g:
        edges = G.load_edges(g)
    rel = relation_edges(edges)

    def names(e: dict, side: str) -> list[str]:
        return [e[side], *(e.get(side + "a") or [])]

    def on(names_: list[str], e: dict, side: str) -> bool:
        return any(G.names_match(n, m) for n in names_ for m in names(e, side))

    counts: dict[str, int] = {}
    for x in gold:
        if G.gold_found(x, edges):
            key = "found"
        else:
            doc = [e for e in edges if G._doc_match(x["doc"], e.get("doc", ""))]
            xn = any(on(x["x"], e, "o") for e in doc if e["rel"] == "CONTAINS" and e.get("st") == "recipe") or any(
                on(x["x"], e, "s") or on(x["x"], e, "o") for e in doc if e["rel"] != "CONTAINS")
            yn = "-" if not x.get("y") else "y" if any(on(x["y"], e, "s") or on(x["y"], e, "o") for e in doc) else "n"
            line = any(e.get("line") == x["line"] and G._doc_match(x["doc"], e.get("doc", "")) for e in rel)
            key = f"{x['kind']}: x-node {'y' if xn else 'n'}, y-node {yn}, edge-on-line {'y' if line else 'n'}"
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def main(argv: list[str]) -> int:
    """Score the named probe sets (all when none is named); ``miss`` as the last
    argument prints a dev set's misses. Writes ``benchmarks/results/probes.json``."""
    if argv and argv[0] == "--why":
        for meta in probe_sets(argv[1:] or None):
            print(meta["name"])
            for k, v in why_counts(meta).items():
                print(f"  {v:3d}  {k}")
        return 0
    show = bool(argv) and argv[-1] == "miss"
    names = argv[:-1] if show else argv
    metas = probe_sets(names or None)
    out_p = G.C.RESULTS / OUT
    results = json.loads(out_p.read_text(encoding="utf-8")) if out_p.exists() else {}
    results.setdefault("runs", {})
    results.setdefault("first_runs", {})
    for meta in metas:
        name = meta["name"]
        fig, detail = score_set(meta)
        results["runs"][name] = fig
        results["first_runs"].setdefault(name, fig)
        kinds = ", ".join(f"{k} {v['found']}/{v['total']}" for k, v in sorted(fig["by_kind"].items()))
        print(f"{name} ({meta.get('split')}): recall {fig['found']}/{fig['gold']} = {G._pct(fig['recall'])} "
              f"[{kinds}]; relation edges {fig['relation_edges']}, unexplained {fig['unexplained']} "
              f"(explained {G._pct(fig['explained_share'])})", flush=True)
        if show:
            if meta.get("split") != "dev":
                print(f"  {name} is a check set: its misses are not shown (see benchmarks/probes.py)")
                continue
            for x in detail["missed"]:
                print("  MISS", x["kind"], x["x"][:2], "->", (x.get("y") or [])[:2], "|", x["doc"], x["line"],
                      "|", x["quote"][:100])
            for e in detail["unexplained"]:
                print("  EXTRA", e["rel"], e.get("pred") or "", e["s"], "->", e["o"], "|", e["doc"], e["line"])
    G.C.write_json(OUT, results)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
