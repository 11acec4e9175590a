"""Ingest benchmark: build a KB of the full HowToCook corpus with the e5
model, cold (empty embedding cache) then warm (same data dir, cache hit).

Each ingest runs in its own subprocess (``ingest.py --child DATA_DIR``) so its
peak RSS (``ru_maxrss``) is per run. Reports wall seconds (the ingest call, not
interpreter start-up), documents/s, chunks/s and peak RSS (MiB); prints a rich
table and writes ``benchmarks/results/ingest.json``. The KB is left in
``<bench dir>/howtocook`` for answer.py. Exit 1 when an ingest fails.

Usage: ``python benchmarks/ingest.py``
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402


def child(data_dir: Path) -> None:
    """Ingest HowToCook into ``data_dir``; print one JSON line of measurements."""
    from threadgraph.ingest.service import run_ingest

    t0 = time.perf_counter()
    report = run_ingest([C.HOWTOCOOK], C.settings(data_dir))
    secs = time.perf_counter() - t0
    chunks = report.counts.get("Chunk", 0)
    print(json.dumps({
        "ok": report.ok, "seconds": round(secs, 2), "documents": report.documents, "chunks": chunks,
        "docs_per_s": round(report.documents / secs, 1), "chunks_per_s": round(chunks / secs, 1),
        "peak_rss_mb": C.peak_rss_mb(), "embedding_model": report.embedding_model,
        "entities": sum(report.entity_types.values()), "edges": {k: report.counts.get(k, 0) for k in ("CONTAINS", "SUBSTITUTES", "RELATED", "MENTIONS")},
    }))


def main() -> int:
    from rich.console import Console
    from rich.table import Table

    data_dir = C.bench_dir() / "howtocook"
    shutil.rmtree(data_dir, ignore_errors=True)  # cold: no KB, no embedding cache
    runs = {}
    for label in ("cold", "warm"):
        p = subprocess.run([sys.executable, __file__, "--child", str(data_dir)], capture_output=True, text=True)
        line = (p.stdout.strip().splitlines() or [""])[-1]
        if p.returncode != 0 or not line.startswith("{"):
            print(p.stderr[-3000:], file=sys.stderr)
            return 1
        runs[label] = json.loads(line)
    t = Table(title="threadgraph ingest: HowToCook, e5-small int8")
    for col in ("run", "seconds", "documents", "chunks", "docs/s", "chunks/s", "peak RSS MiB"):
        t.add_column(col, justify="left" if col == "run" else "right")
    for label, r in runs.items():
        t.add_row(label, f"{r['seconds']:.1f}", str(r["documents"]), str(r["chunks"]), f"{r['docs_per_s']:.1f}",
                  f"{r['chunks_per_s']:.1f}", f"{r['peak_rss_mb']:.0f}")
    Console().print(t)
    path = C.write_json("ingest.json", {"date": C.now(), "machine": C.machine(), "corpus": "corpora/howtocook",
                                        "model_path": str(C.model_path()), "data_dir": str(data_dir), **runs})
    print(f"wrote {path}")
    return 0 if all(r["ok"] for r in runs.values()) else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(Path(sys.argv[2]))
    else:
        sys.exit(main())
