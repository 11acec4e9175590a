"""Ingest benchmark: build a KB of the bundled corpora (``corpora/``: HowToCook
and the PagerDuty docs) with the e5 model, cold (empty embedding cache) then
warm (same data dir: the cache hits, the KB is rebuilt), and measure where
the time goes.

Each ingest runs in its own subprocess (``ingest.py --child DATA_DIR``) so its
peak RSS (``ru_maxrss``) is per run. Reported per run: wall seconds of the
ingest call (interpreter start-up and imports not included), CPU seconds,
seconds per stage (``read`` = walk + parse + extract, ``embed``, ``graph``
= Kùzu, ``passages`` = LanceDB + full-text index), passages, distinct
passages and how many met the model, peak RSS.

Then an embedding micro-benchmark on a fixed sample of 240 distinct passages
of the corpora: passages/s and tokens/s for the passage token cap (512 =
whole passages, 128 = the default, 64) and batch sizes 16 and 64, and the
token totals of the corpora under each cap — the numbers behind the default
``THREADGRAPH_EMBEDDING_PASSAGE_TOKENS``. Writes
``benchmarks/results/ingest.json``; the machine's load average is recorded,
since these machines are shared. Exit 1 when an ingest fails.

Usage: ``python benchmarks/ingest.py [--no-micro | --micro-only]`` (``--micro-only`` writes
``benchmarks/results/ingest-embedding.json``).
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402


def child(data_dir: Path) -> None:
    """Ingest the bundled corpora into ``data_dir``; print one JSON line of measurements."""
    from threadgraph.ingest.load import passage_text  # noqa: F401  (imports before the clock starts)
    from threadgraph.ingest.service import run_ingest

    import lancedb  # noqa: F401
    import kuzu  # noqa: F401

    t0, c0 = time.perf_counter(), time.process_time()
    report = run_ingest([C.CORPORA], C.settings(data_dir), replace=True)
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    chunks = report.counts.get("Chunk", 0)
    print(json.dumps({
        "ok": report.ok, "seconds": round(secs, 2), "cpu_seconds": round(cpu + kids.ru_utime + kids.ru_stime, 2),
        "stages": report.timings, "documents": report.documents, "chunks": chunks,
        "embedded": report.embedded, "docs_per_s": round(report.documents / secs, 1),
        "chunks_per_s": round(chunks / secs, 1), "peak_rss_mb": C.peak_rss_mb(),
        "embedding_model": report.embedding_model,
        "entities": sum(report.entity_types.values()),
        "edges": {k: report.counts.get(k, 0) for k in ("CONTAINS", "SUBSTITUTES", "RELATED", "MENTIONS")},
    }))


def micro() -> dict:
    """Embedding throughput per passage token cap and batch size (see the module docstring)."""
    from threadgraph.ingest.load import passage_text
    from threadgraph.ingest.pipeline import extract_corpus
    from threadgraph.ingest.sources import plan_sources
    from threadgraph.knowledge.embeddings import Embedder

    s = C.settings(C.bench_dir() / "micro")
    ex = extract_corpus(settings=s, sources=plan_sources([C.CORPORA], []).sources)
    texts = list(dict.fromkeys(passage_text(c) for c in ex.chunks))
    emb = Embedder(s.embedding_model, s.embedding_model_path)
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(s.embedding_model_path) / "tokenizer.json"))  # a copy: the model's pads
    tok.no_padding()
    tok.no_truncation()
    lengths = [len(e.ids) for e in tok.encode_batch([emb.passage_prefix + t for t in texts])]
    out = {"passages": len(ex.chunks), "distinct": len(texts), "tokens": {}, "runs": []}
    random.seed(13)
    sample = random.sample(texts, min(240, len(texts)))
    for cap in (512, 128, 64):
        out["tokens"][str(cap)] = sum(min(n, cap) for n in lengths)
        sample_tokens = sum(min(len(tok.encode(emb.passage_prefix + t).ids), cap) for t in sample)
        for bs in (16, 64):
            emb.passage_tokens = cap
            t0, c0 = time.perf_counter(), time.process_time()
            emb.embed_passages(sample, bs)
            w, c = time.perf_counter() - t0, time.process_time() - c0
            out["runs"].append({"cap": cap, "batch": bs, "seconds": round(w, 2), "cpu_seconds": round(c, 2),
                                "passages_per_s": round(len(sample) / w, 1), "tokens_per_s": round(sample_tokens / w)})
    return out


def main() -> int:
    from rich.console import Console
    from rich.table import Table

    if "--micro-only" in sys.argv:
        path = C.write_json("ingest-embedding.json", {"date": C.now(), "load_average": os.getloadavg(), **micro()})
        print(f"wrote {path}")
        return 0
    data_dir = C.bench_dir() / "corpora"
    shutil.rmtree(data_dir, ignore_errors=True)  # cold: no KB, no embedding cache
    runs = {}
    load = {"before": os.getloadavg()}
    for label in ("cold", "warm"):
        p = subprocess.run([sys.executable, __file__, "--child", str(data_dir)], capture_output=True, text=True)
        line = (p.stdout.strip().splitlines() or [""])[-1]
        if p.returncode != 0 or not line.startswith("{"):
            print(p.stderr[-3000:], file=sys.stderr)
            return 1
        runs[label] = json.loads(line)
    load["after"] = os.getloadavg()
    t = Table(title="threadgraph ingest: corpora/ (HowToCook + PagerDuty), e5-small int8")
    for col in ("run", "seconds", "cpu s", "read", "embed", "graph", "passages", "chunks", "embedded", "peak RSS MiB"):
        t.add_column(col, justify="left" if col == "run" else "right")
    for label, r in runs.items():
        st = r["stages"]
        t.add_row(label, f"{r['seconds']:.1f}", f"{r['cpu_seconds']:.1f}", f"{st.get('read', 0):.1f}", f"{st.get('embed', 0):.1f}",
                  f"{st.get('graph', 0):.1f}", f"{st.get('passages', 0):.1f}", str(r["chunks"]), str(r["embedded"]),
                  f"{r['peak_rss_mb']:.0f}")
    Console().print(t)
    result = {"date": C.now(), "machine": C.machine(), "load_average": load, "corpus": "corpora",
              "model_path": str(C.model_path()), "data_dir": str(data_dir), **runs}
    if "--no-micro" not in sys.argv:
        result["embedding"] = m = micro()
        t = Table(title=f"embedding {len(m['runs'])} runs on 240 passages (corpora: {m['distinct']} distinct passages)")
        for col in ("token cap", "batch", "seconds", "passages/s", "tokens/s", "corpora tokens"):
            t.add_column(col, justify="right")
        for r in m["runs"]:
            t.add_row(str(r["cap"]), str(r["batch"]), f"{r['seconds']:.1f}", f"{r['passages_per_s']:.0f}",
                      str(r["tokens_per_s"]), str(m["tokens"][str(r["cap"])]))
        Console().print(t)
    path = C.write_json("ingest.json", result)
    print(f"wrote {path}")
    return 0 if all(r["ok"] for r in runs.values()) else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(Path(sys.argv[2]))
    else:
        sys.exit(main())
