"""Render ``benchmarks/results/{ingest,answer,eval}.json`` as the markdown
results table for the README; writes it (without printing it: it holds the blind corpora's figures) to
``benchmarks/results/README-results.md``. Missing result files are skipped
with a note. Usage: ``python benchmarks/report.py``"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402


def _load(name: str) -> dict | None:
    p = C.RESULTS / name
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None


def _pct(v) -> str:
    return "–" if v is None else f"{100 * v:.0f} %"


def render() -> str:
    """The markdown text (str)."""
    ing, ans, ev = _load("ingest.json"), _load("answer.json"), _load("eval.json")
    gen = _load("generalization.json")
    m = (ing or ans or {}).get("machine") or C.machine()
    dates = sorted(filter(None, [x and (x.get("date") or x.get("started")) for x in (ing, ans, ev)]))
    out = ["## Benchmark results", "",
           f"`make bench` on {dates[-1][:10] if dates else C.now()[:10]}, machine: {m['nproc']} CPUs, "
           f"{m['ram_gib']} GiB RAM ({m.get('platform', '')}); embedding model multilingual-e5-small int8; no LLM.", ""]
    out += _generalization(gen)
    if ev:
        n_cases = len({r["id"] for r in ev["results"]})
        out += [f"### Evaluation ({n_cases} cases, `benchmarks/cases/`; pass = every turn right)", "",
                "| set | mode | cases | pass rate | turn pass | not-found acc. | found acc. | p50 ms | p95 ms |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        sets = list(dict.fromkeys(s["set"] for s in ev["stats"]))
        for s_name in sets:
            for mode in ev["modes"]:
                s = next(x for x in ev["stats"] if x["set"] == s_name and x["mode"] == mode)
                bold = "**" if s_name == "ALL" else ""
                out.append(f"| {bold}{s_name}{bold} | {mode} | {s['cases']} | {bold}{_pct(s['pass_rate'])}{bold} | "
                           f"{_pct(s['turn_pass_rate'])} | {_pct(s['notfound_accuracy'])} ({s['notfound_turns']}) | "
                           f"{_pct(s['found_accuracy'])} ({s['found_turns']}) | {s['latency_p50_ms']:.0f} | {s['latency_p95_ms']:.0f} |")
        out.append("")
    else:
        out += ["_No eval.json yet (run benchmarks/eval.py)._", ""]
    if ans:
        s, c = ans["sequential"], ans["concurrent"]
        out += ["### Answer latency (HowToCook KB, questions generated from the KB)", "",
                "| run | questions | p50 ms | p95 ms | q/s | target |", "|---|---:|---:|---:|---:|---|",
                f"| sequential | {s['n']} | {s['p50_ms']:.1f} | {s['p95_ms']:.1f} | {s['qps']:.0f} | p50 ≤ 30, p95 ≤ 80 |",
                f"| {c['threads']} concurrent threads, all at once (burst) | {c['n']} | {c['p50_ms']:.0f} | {c['p95_ms']:.0f} | {c['qps']:.0f} | p95 ≤ 250 |"]
        pc = ans.get("concurrent_paced")
        if pc:
            out.append(f"| {pc['threads']} concurrent threads, paced at {pc['offered_qps']:.0f} q/s | {pc['n']} | {pc['p50_ms']:.0f} | "
                       f"{pc['p95_ms']:.0f} | {pc['offered_qps']:.0f} | p95 ≤ 250 |")
        out += ["", "A burst's p95 is bound by throughput (questions ÷ q/s on 2 cores); the paced run offers the same 200 "
                "conversations at half the sequential capacity.", "",
                f"Peak RSS while answering: {ans['peak_rss_mb']:.0f} MiB.", ""]
    if ing:
        docs = ing["cold"].get("documents", "?")
        out += [f"### Ingest (`corpora/`: HowToCook + PagerDuty, {docs} documents; `benchmarks/ingest.py`)", "",
                "| run | seconds | CPU s | read | embed | graph | passages | passages embedded | peak RSS MiB |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for label in ("cold", "warm"):
            r = ing[label]
            st = r.get("stages", {})
            out.append(f"| {label} ({'empty' if label == 'cold' else 'hit'} embedding cache) | {r['seconds']:.1f} | "
                       f"{r.get('cpu_seconds', 0):.1f} | {st.get('read', 0):.1f} | {st.get('embed', 0):.1f} | "
                       f"{st.get('graph', 0):.1f} | {st.get('passages', 0):.1f} | {r.get('embedded', 0)} of {r.get('chunks', 0)} | "
                       f"{r['peak_rss_mb']:.0f} |")
        la = ing.get("load_average", {}).get("before")
        if la:
            out.append(f"\nLoad average when it ran: {la[0]:.1f} (2 cores, shared machine).")
        emb = ing.get("embedding")
        if emb:
            out += ["", "Embedding throughput (240 passages of the corpora, e5-small int8):", "",
                    "| passage token cap | batch | passages/s | tokens/s | tokens to embed in corpora/ |", "|---:|---:|---:|---:|---:|"]
            for r in emb["runs"]:
                out.append(f"| {r['cap']} | {r['batch']} | {r['passages_per_s']:.0f} | {r['tokens_per_s']} | {emb['tokens'][str(r['cap'])]} |")
        out.append("")
    return "\n".join(out)


def _generalization(gen: dict | None) -> list[str]:
    """Rows of the generalization table (``benchmarks/generalization.py``)."""
    if not gen or not gen.get("runs"):
        return ["_No generalization.json yet (run benchmarks/generalization.py)._", ""]
    out = ["### Generalization (public collections no rule was written against; `benchmarks/generalization/`)", "",
           "Turn pass = share of conversation turns answered right. Recall = share of the substitutions, optional "
           "items, stand-ins and fallbacks the documents state (gold file) that became graph edges; precision = share "
           "of a 50-edge sample judged right against the text. *blind* corpora were never read by anyone writing "
           "code; their first run is recorded once and never overwritten.", "",
           "| corpus | kind | split | turns | hybrid | vector-only | found acc. | not-found acc. | gold recall | precision (judged) | blind, first run |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    order = sorted(gen["runs"].values(), key=lambda r: (r.get("split") != "blind", r.get("kind") or "", r["name"]))
    for r in order:
        h, v, g, p = r["modes"]["hybrid"], r["modes"]["vector"], r["gold"], r["precision"]
        first = (gen.get("first_runs") or {}).get(r["name"])
        fr = "–"
        if first and first.get("split") == "blind":
            fp = first["precision"]
            prec1 = f", precision {_pct(fp['precision'])} ({fp['judged']})" if fp.get("judged") else ""
            fr = (f"{_pct(first['modes']['hybrid']['turn_pass'])} turns, recall {_pct(first['gold']['recall'])}{prec1} "
                  f"({first['date'][:10]}, {first.get('commit', '')})")
        prec = (f"{_pct(p['precision'])} ({p['judged']})" if p.get("judged")
                else "no relation edges" if not p.get("sample") else "not judged yet")
        out.append(f"| {r['name']} | {r.get('kind')} | {r.get('split')} | {h['turns']} | **{_pct(h['turn_pass'])}** | "
                   f"{_pct(v['turn_pass'])} | {_pct(h['found_acc'])} | {_pct(h['notfound_acc'])} | "
                   f"{_pct(g['recall'])} ({g['found']}/{g['total']}) | {prec} | {fr} |")
    for name, w in sorted((gen.get("withdrawn") or {}).items()):
        out.append(f"| {name} | – | withdrawn | – | – | – | – | – | – | – | {w['reason']} |")
    out.append("")
    return out


START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def update_readme(text: str, readme: Path) -> bool:
    """Replace the README's text between ``START`` and ``END`` markers with
    ``text``; returns False (README untouched) when the markers are missing."""
    if not readme.exists():
        return False
    body = readme.read_text(encoding="utf-8")
    if START not in body or END not in body:
        return False
    head, rest = body.split(START, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{START}\n{text}\n{END}{tail}", encoding="utf-8")
    return True


def main() -> int:
    text = render()
    C.RESULTS.mkdir(parents=True, exist_ok=True)
    (C.RESULTS / "README-results.md").write_text(text + "\n", encoding="utf-8")
    # the table holds the blind corpora's figures: written, not printed, so that a run's log shows
    # nothing of them to whoever reads it while writing code
    print(f"wrote {(C.RESULTS / 'README-results.md').relative_to(C.REPO)}")
    if update_readme(text.replace("## Benchmark results\n", "", 1), C.REPO / "README.md"):
        print("updated README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
