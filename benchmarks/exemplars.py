"""Calibration of the nearest-exemplar intent fallback (bot/exemplars.py).

Labelled questions: every turn of the bundled case sets and of the **dev**
generalization corpora that the phrase patterns or cue words read with an
intent the exemplar file covers (the rules' reading is the label). Each is
read again by the exemplar fallback alone (its generic frame against the
exemplars); the script prints, for a grid of similarity thresholds, how many
it would take (coverage) and how many of those agree with the label
(precision), plus what the fallback does with the questions the rules leave
``general``. Blind corpora are never read.

Run: ``python benchmarks/exemplars.py`` (e5 model from ../shared/models, a
graph-only KB per corpus in a temp dir; ~1 min). Writes
``benchmarks/results/exemplars.json``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as C  # noqa: E402
import generalization as G  # noqa: E402
from threadgraph.bot import exemplars  # noqa: E402
from threadgraph.bot.linker import Linker  # noqa: E402
from threadgraph.bot.understand import understand  # noqa: E402
from threadgraph.ingest.service import run_ingest  # noqa: E402
from threadgraph.knowledge.embeddings import Embedder  # noqa: E402
from threadgraph.knowledge.kb import KBHandle  # noqa: E402
from threadgraph.settings import Settings  # noqa: E402

THRESHOLDS = [0.84, 0.85, 0.86, 0.87, 0.88, 0.89, 0.90]


def _sets() -> list[tuple[str, Path, list[Path]]]:
    out = [("bundled", C.CORPORA, sorted((C.REPO / "benchmarks" / "cases").glob("*.jsonl")))]
    for meta in G.corpora(split="dev"):
        d = G.GEN / meta["name"]
        out.append((meta["name"], d / "docs", [d / "cases.jsonl"]))
    return out


def main() -> int:
    model = C.model_path()
    emb = Embedder(path=model)
    covered = set(exemplars.data()["intents"]) - {"general"}
    labelled, general = [], []
    for name, docs, files in _sets():
        tmp = Path(tempfile.mkdtemp(prefix=f"ex-{name}-"))
        try:
            st = Settings(data_dir=tmp, embedding_model_path=None, embedding_model="none/none",
                          openai_api_key=None, _env_file=None)
            run_ingest([docs], st, no_vectors=True)
            kb = KBHandle(tmp, st).get()
            lk = Linker(kb.names, fuzzy_threshold=83)
            for f in files:
                for line in f.read_text(encoding="utf-8").splitlines():
                    case = json.loads(line)
                    for t in case["turns"]:
                        u = understand(t["text"], lk)
                        body = " ".join(u.text.split()).rstrip("？?。.!！ ")
                        ms = [m for m in lk.scan(body) if m.type != "unknown"]
                        row = {"set": name, "text": t["text"], "intent": u.intent, "follow": u.follow_up,
                               "types": sorted({m.type for m in ms}),
                               "ranked": exemplars.nearest(emb, exemplars.generic_frame(body, ms, u.language)),
                               "has_mentions": bool(ms)}
                        if u.intent in covered:
                            labelled.append(row)
                        elif u.intent == "general":
                            general.append(row)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    grid = []
    for th in THRESHOLDS:
        exemplars.MIN_SIMILARITY = th
        took = agree = 0
        for r in labelled:
            if not (r["has_mentions"] or r["follow"]):
                continue
            got = exemplars.choose(r["ranked"], set(r["types"]), r["follow"])
            if got:
                took += 1
                agree += got[0] == r["intent"]
        g_took = Counter()
        for r in general:
            if not (r["has_mentions"] or r["follow"]):
                continue
            got = exemplars.choose(r["ranked"], set(r["types"]), r["follow"])
            if got:
                g_took[got[0]] += 1
        grid.append({"threshold": th, "labelled": len(labelled), "taken": took, "agree": agree,
                     "precision": round(agree / took, 3) if took else None,
                     "general": len(general), "general_reassigned": dict(g_took)})
        print(f"≥{th:.2f}: labelled {len(labelled)}, taken {took}, agree {agree} "
              f"({agree / max(1, took):.0%}); general {len(general)} → reassigned {dict(g_took)}")
    C.RESULTS.mkdir(parents=True, exist_ok=True)
    (C.RESULTS / "exemplars.json").write_text(json.dumps({"grid": grid, "machine": C.machine()}, indent=1,
                                                         ensure_ascii=False), encoding="utf-8")
    if "-v" in sys.argv:
        exemplars.MIN_SIMILARITY = float(os.environ.get("TH", "0.86"))
        for r in general:
            got = exemplars.choose(r["ranked"], set(r["types"]), r["follow"]) if (r["has_mentions"] or r["follow"]) else None
            print(f"  G {r['set']:<20} {got and got[0] or '-':<14} {r['ranked'][0][0]}:{r['ranked'][0][1]:.3f} | {r['text'][:70]}")
        for r in labelled:
            got = exemplars.choose(r["ranked"], set(r["types"]), r["follow"]) if (r["has_mentions"] or r["follow"]) else None
            if got and got[0] != r["intent"]:
                print(f"  X {r['set']:<20} label {r['intent']:<12} got {got[0]}:{got[1]:.3f} | {r['text'][:70]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
