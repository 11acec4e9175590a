"""Evaluation benchmark: ``threadgraph eval`` on every case in
``benchmarks/cases`` against a KB of the full bundled corpora (recipes and
SOPs) embedded with e5, in all three retrieval modes; writes
``benchmarks/results/eval.json`` and then renders the markdown results table
(benchmarks/report.py). The KB is built in ``<bench dir>/corpora`` when
missing, seeding its embedding cache from ingest.py's HowToCook KB.
Exit status: that of the eval command.

Usage: ``python benchmarks/eval.py``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)  # --help, and no stray options
    data_dir = C.bench_dir() / "corpora"
    secs = C.ensure_kb(data_dir, [C.CORPORA], seed_cache_from=C.bench_dir() / "howtocook")
    if secs:
        print(f"built the evaluation KB in {secs:.0f} s ({data_dir})")
    env = dict(os.environ)
    if C.model_path() is not None:
        env["THREADGRAPH_EMBEDDING_MODEL_PATH"] = str(C.model_path())
    env.pop("OPENAI_API_KEY", None)  # the benchmark measures the deterministic composer
    cli = [sys.executable, "-c", "from threadgraph.cli import main; main()"]
    rc = subprocess.call(cli + ["eval", str(C.REPO / "benchmarks" / "cases"), "--data-dir", str(data_dir),
                               "--retrieval", "all", "--out", str(C.RESULTS / "eval.json"), "--failures"], env=env)
    subprocess.call([sys.executable, str(C.REPO / "benchmarks" / "report.py")])
    return rc


if __name__ == "__main__":
    sys.exit(main())
