"""Dev loop for extraction work: ingest one corpus graph-only (no embeddings,
a few seconds) and score its gold relations, listing what is missed.

Usage (from the checkout, with the package importable as ``threadgraph``)::

    python benchmarks/gold_recall.py <dev-corpus> [miss,edges]
    python benchmarks/gold_recall.py bundled howtocook|pagerduty [miss,edges]

``<dev-corpus>`` is a folder name under ``benchmarks/generalization``. It
refuses a blind corpus (their documents and misses are not for code writers;
see ``benchmarks/generalization/README.md``). ``miss`` prints each gold
relation that no extracted edge matches (the same matcher as the benchmark);
``edges`` prints every extracted substitution and optional edge. Recall here
equals the benchmark's gold recall, since both read the same graph.
"""

from __future__ import annotations

import contextlib

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import generalization as G  # noqa: E402  (benchmarks/ on sys.path)
from threadgraph.ingest.service import run_ingest  # noqa: E402
from threadgraph.knowledge.graph import GraphStore  # noqa: E402
from threadgraph.knowledge.kb import current_build  # noqa: E402
from threadgraph.settings import Settings  # noqa: E402


def score(name: str, docs: Path, gold_path: Path, show: tuple[str, ...]) -> float:
    """Ingest ``docs`` without vectors, print recall against ``gold_path``
    and the requested listings; return recall in [0, 1]."""
    gold = G.read_jsonl(gold_path)
    with extracted(docs, f"recall-{name}-") as g:
        edges = G.load_edges(g)
        found = [x for x in gold if G.gold_found(x, edges)]
        recipes = len(list(g.query("MATCH (e:Entity) WHERE e.type=$t RETURN e.id", {"t": "recipe"})))
        roles = len(list(g.query("MATCH (e:Entity) WHERE e.type=$t RETURN e.id", {"t": "role"})))
        rel = [e for e in edges if e["rel"] == "SUBSTITUTES" or (e["rel"] == "CONTAINS" and e.get("req") is False)]
        by_kind: dict[str, list[int]] = {}
        for x in gold:
            k = by_kind.setdefault(x["kind"], [0, 0])
            k[1] += 1
            k[0] += x in found
        print(f"{name}: recall {len(found)}/{len(gold)} = {len(found) / max(1, len(gold)):.0%} "
              f"{json.dumps(by_kind)}; SUBSTITUTES {sum(e['rel'] == 'SUBSTITUTES' for e in edges)}, "
              f"optional {sum(e['rel'] == 'CONTAINS' and e.get('req') is False for e in edges)}; "
              f"recipes {recipes}, roles {roles}")
        if "miss" in show:
            for x in gold:
                if x not in found:
                    print("  MISS", x["kind"], x["x"][:2], "->", (x.get("y") or [])[:2], "|",
                          x["doc"].split("/")[-1][:30], x["line"], "|", x["quote"][:100])
        if "edges" in show:
            for e in rel:
                print("  EDGE", e["rel"], e["s"], "->", e["o"], "|", (e.get("doc") or "").split("/")[-1][:30],
                      e.get("line"), e.get("ex"), e.get("cond") or "")
        return len(found) / max(1, len(gold))


@contextlib.contextmanager
def extracted(docs: Path, prefix: str = "recall-"):
    """The graph of ``docs`` ingested without vectors into a temporary folder (removed on exit),
    opened read-only: a :class:`~threadgraph.knowledge.graph.GraphStore`."""
    data = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        st = Settings(data_dir=data, embedding_model_path=None, embedding_model="none/none",
                      openai_api_key=None, _env_file=None)
        run_ingest([docs], st, no_vectors=True)
        yield GraphStore(current_build(data) / "graph.kuzu", read_only=True)
    finally:
        shutil.rmtree(data, ignore_errors=True)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "bundled":
        which = argv[1]
        show = tuple(argv[2].split(",")) if len(argv) > 2 else ()
        docs = G.C.CORPORA / which
        if not docs.is_dir():  # "pagerduty" names the gold file of corpora/pagerduty-incident-response
            docs = next((d for d in sorted(G.C.CORPORA.iterdir()) if d.name.startswith(which)), docs)
        score(which, docs, G.C.REPO / "benchmarks" / "gold" / f"{which}.jsonl", show)
        return 0
    name = argv[0]
    meta = json.loads((G.GEN / name / "meta.json").read_text(encoding="utf-8"))
    if meta.get("split") == "blind":
        print(f"{name} is blind: run benchmarks/generalization.py for its aggregate figures")
        return 2
    show = tuple(argv[1].split(",")) if len(argv) > 1 else ("miss",)
    score(name, G.GEN / name / "docs", G.GEN / name / "gold.jsonl", show)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
