"""Shared helpers for the benchmark scripts (not a package module; the
scripts put ``benchmarks/`` on ``sys.path`` by being run from it).

Paths: the e5 model folder is ``$THREADGRAPH_EMBEDDING_MODEL_PATH`` or
``../shared/models/multilingual-e5-small-int8`` beside the checkout (``None``
= fastembed fetches ``intfloat/multilingual-e5-small`` from the hub). Work KBs
live in ``$THREADGRAPH_BENCH_DIR`` (default ``<tmp>/threadgraph-bench``) so
answer.py and eval.py reuse what ingest.py built (and its embedding cache).
"""

from __future__ import annotations

import json
import os
import platform
import resource
import shutil
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
CORPORA = REPO / "corpora"
HOWTOCOOK = CORPORA / "howtocook"


def model_path() -> Path | None:
    """The local e5 model folder, or ``None`` to use the hub."""
    env = os.environ.get("THREADGRAPH_EMBEDDING_MODEL_PATH")
    if env:
        return Path(env).resolve()
    p = REPO.parent / "shared" / "models" / "multilingual-e5-small-int8"
    return p.resolve() if p.is_dir() else None


def bench_dir() -> Path:
    """Root folder of the benchmark KBs (created)."""
    d = Path(os.environ.get("THREADGRAPH_BENCH_DIR") or Path(tempfile.gettempdir()) / "threadgraph-bench")
    d.mkdir(parents=True, exist_ok=True)
    return d


def settings(data_dir: Path):
    """Settings for a benchmark KB in ``data_dir``: the e5 model, no LLM, no .env."""
    from threadgraph.settings import Settings

    return Settings(data_dir=data_dir, embedding_model_path=model_path(), openai_api_key=None, _env_file=None)


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(r / (1024 * 1024) if platform.system() == "Darwin" else r / 1024, 1)


def ensure_kb(data_dir: Path, inputs: list[Path], *, seed_cache_from: Path | None = None) -> float:
    """(Re)build the KB of ``inputs`` in ``data_dir`` with the current code, so
    results never come from a KB made by an older extractor; the embedding
    cache makes a rebuild take seconds. Copies the embedding cache of
    ``seed_cache_from`` (a data dir) first when given. Returns the seconds spent."""
    from threadgraph.ingest.service import run_ingest

    if seed_cache_from is not None and (seed_cache_from / "cache").is_dir() and not (data_dir / "cache").exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copytree(seed_cache_from / "cache", data_dir / "cache")
    t0 = time.perf_counter()
    report = run_ingest(inputs, settings(data_dir), replace=True)
    if not report.ok:
        raise SystemExit(f"ingest of {inputs} failed: {report.warnings} {report.skipped[:3]}")
    return round(time.perf_counter() - t0, 2)


def machine() -> dict:
    """nproc, RAM (GiB), platform, python — for the results table."""
    ram = None
    try:
        ram = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    return {"nproc": os.cpu_count(), "ram_gib": ram, "platform": platform.platform(), "python": platform.python_version()}


def write_json(name: str, data: dict) -> Path:
    """Write ``benchmarks/results/<name>`` (UTF-8, indented) and return its path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    p = RESULTS / name
    p.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return p


def now() -> str:
    """UTC timestamp, ISO 8601."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
