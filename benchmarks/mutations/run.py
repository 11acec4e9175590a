"""Mutation check: do the tests catch hand-made breakages of core logic?

Each ``benchmarks/mutations/NN-name.patch`` is a small unified diff that breaks
one piece of core logic the way a developer could (a dropped cue word, a
threshold, a swapped argument). For every patch this script

1. copies the working tree (tracked and untracked, not ignored files) into a
   temporary folder ``<tmp>/threadgraph`` — the worktree itself is never
   touched, so no mutation can stay applied;
2. applies the patch there with ``git apply``;
3. runs the test suite against the copy (``PYTHONPATH=<tmp>`` makes
   ``import threadgraph`` load the mutated copy, not the editable install;
   checked before the run) with ``-x``: the core test files first, then the
   rest;
4. records *caught* (a test failed or errored, with the first failing test)
   or *missed* (every test passed).

It prints a table and writes ``benchmarks/results/mutations.json``.

    python benchmarks/mutations/run.py                 # all mutations, whole suite
    python benchmarks/mutations/run.py --only 06,08    # some mutations
    python benchmarks/mutations/run.py --baseline      # also run the unmutated copy first
    python benchmarks/mutations/run.py --tests tests/test_core.py   # a fixed list of test files

The first line of a patch file (before the diff) says what it breaks;
``git apply`` ignores it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "mutations.json"
#: Test files run first (the ones that exercise core logic); the rest of tests/ follows.
FIRST = ["tests/test_core_rules.py", "tests/test_core.py", "tests/test_answers.py", "tests/test_kb_ingest.py",
         "tests/test_extract.py", "tests/test_text.py", "tests/test_intents.py", "tests/test_structured.py",
         "tests/test_lexicon.py"]
#: Seconds one mutation's test run may take before it is stopped (reported as "timeout").
RUN_TIMEOUT = 2400


def tree_files(root: Path) -> list[str]:
    """Tracked and untracked (not ignored) files of the working tree that exist."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, check=True,
                         capture_output=True).stdout.decode("utf-8")
    return [f for f in out.split("\0") if f and (root / f).is_file()]


def copy_tree(root: Path, dest: Path, files: list[str]) -> None:
    for f in files:
        d = dest / f
        d.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / f, d)


def describe(patch: Path) -> tuple[str, list[str]]:
    """The patch's description (its first line when that is not a diff header) and the files it changes."""
    text = patch.read_text(encoding="utf-8")
    first = text.splitlines()[0] if text else ""
    desc = "" if first.startswith(("---", "diff ")) else first.strip()
    files = re.findall(r"^\+\+\+ b/(\S+)", text, re.M)
    return desc, files


def test_order(copy: Path, only: list[str] | None) -> list[str]:
    if only:
        return only
    rest = sorted(p.relative_to(copy).as_posix() for p in (copy / "tests").glob("test_*.py"))
    first = [f for f in FIRST if (copy / f).exists()]
    return first + [f for f in rest if f not in first]


def run_tests(pkg_parent: Path, copy: Path, tests: list[str], timeout: int) -> dict:
    """Run pytest on ``tests`` in ``copy`` with ``import threadgraph`` → ``copy``."""
    env = dict(os.environ, PYTHONPATH=str(pkg_parent), HF_HUB_OFFLINE="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    probe = subprocess.run([sys.executable, "-c", "import threadgraph; print(threadgraph.__file__)"], cwd=copy, env=env,
                           capture_output=True, text=True)
    loaded = Path(probe.stdout.strip()).resolve()
    if not str(loaded).startswith(str(copy.resolve())):
        raise SystemExit(f"import threadgraph loads {loaded}, not the mutated copy in {copy}")
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-rfE", "-p", "no:cacheprovider",
           "-o", "timeout_func_only=true", *tests]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode("utf-8", "replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return {"rc": None, "seconds": round(time.monotonic() - t0), "failed": [], "summary": "timeout", "tail": out[-2000:]}
    out = p.stdout + p.stderr
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", out, re.M)
    summary = next((ln.strip("= ") for ln in reversed(out.splitlines()) if re.search(r"\b(passed|failed|error)", ln)), "")
    return {"rc": p.returncode, "seconds": round(time.monotonic() - t0), "failed": failed, "summary": summary,
            "tail": out[-3000:] if p.returncode not in (0, 1) else ""}


def status_of(r: dict) -> str:
    if r["rc"] is None:
        return "timeout"
    if r["rc"] == 0:
        return "missed"
    if r["rc"] in (1, 2) and r["failed"]:
        return "caught"
    return "error"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated mutation numbers or names (e.g. 06,08)")
    ap.add_argument("--tests", nargs="*", help="test files to run (default: the whole suite, core files first)")
    ap.add_argument("--baseline", action="store_true", help="also run the unmutated copy (every test must pass)")
    ap.add_argument("--timeout", type=int, default=RUN_TIMEOUT, help="seconds per mutation run")
    ap.add_argument("--out", type=Path, default=RESULTS, help="where to write the JSON results")
    args = ap.parse_args()

    patches = sorted(HERE.glob("*.patch"))
    if args.only:
        want = [w.strip() for w in args.only.split(",") if w.strip()]
        patches = [p for p in patches if any(p.name.startswith(w) or w in p.stem for w in want)]
    if not patches:
        raise SystemExit("no mutation selected")
    files = tree_files(ROOT)
    results = []
    with tempfile.TemporaryDirectory(prefix="tg-mutations-") as tmp:
        base = Path(tmp) / "base"
        copy_tree(ROOT, base, files)
        jobs = ([("00-baseline", None)] if args.baseline else []) + [(p.stem, p) for p in patches]
        for name, patch in jobs:
            parent = Path(tmp) / name
            copy = parent / "threadgraph"
            shutil.copytree(base, copy)
            desc, changed = describe(patch) if patch else ("no mutation", [])
            if patch is not None:
                ap_ = subprocess.run(["git", "apply", "--verbose", str(patch)], cwd=copy, capture_output=True, text=True)
                if ap_.returncode != 0 or "Applied patch" not in ap_.stderr:
                    print(f"{name}: patch does not apply: {ap_.stderr.strip()}", file=sys.stderr)
                    results.append({"mutation": name, "description": desc, "files": changed, "status": "does not apply"})
                    continue
            print(f"[{time.strftime('%H:%M:%S')}] {name}: {desc}", flush=True)
            r = run_tests(parent, copy, test_order(copy, args.tests), args.timeout)
            st = status_of(r) if patch else ("ok" if r["rc"] == 0 else "BASELINE FAILS")
            row = {"mutation": name, "description": desc, "files": changed, "status": st,
                   "caught_by": r["failed"][:3], "summary": r["summary"], "seconds": r["seconds"]}
            if r.get("tail"):
                row["tail"] = r["tail"]
            results.append(row)
            print(f"    -> {st} {', '.join(r['failed'][:1])} ({r['seconds']} s)", flush=True)
            shutil.rmtree(parent, ignore_errors=True)

    muts = [r for r in results if r["mutation"] != "00-baseline"]
    caught = sum(1 for r in muts if r["status"] in ("caught", "timeout"))
    width = max(len(r["mutation"]) for r in results)
    print()
    print(f"{'mutation':<{width}}  {'status':<8}  caught by")
    for r in results:
        print(f"{r['mutation']:<{width}}  {r['status']:<8}  {(r.get('caught_by') or [''])[0]}")
    print(f"\ncaught {caught}/{len(muts)}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"caught": caught, "total": len(muts), "tests": args.tests or "whole suite (-x)",
                                    "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                    "mutations": results}, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0 if caught >= len(muts) - 2 else 1


if __name__ == "__main__":
    raise SystemExit(main())
