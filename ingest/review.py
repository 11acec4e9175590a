"""Human review of the graph: export ``nodes.csv`` / ``edges.csv`` from a KB,
and apply a reviewed pair to the next ingest.

Review semantics (``threadgraph ingest --graph-csv DIR``): an extracted node
or edge whose id is missing from the reviewed CSV is removed (edges of a
removed node go with it); an edge's edited ``confidence`` is kept. Rows the
reviewer adds are not created (new facts belong in the documents or the alias
table); facts the bot's reader found are reviewed in ``candidates.csv``
(:mod:`.candidates`), where an ``accepted`` row becomes a graph fact.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from ..knowledge.graph import GraphStore
from ..knowledge.records import Extraction

NODE_FIELDS = ["id", "name", "type", "aliases", "language", "doc"]
EDGE_FIELDS = [
    "id", "relation", "subject", "object", "subject_name", "object_name", "properties",
    "doc", "section", "line", "extractor", "confidence",
]


class ReviewError(ValueError):
    """A reviewed CSV is missing, has the wrong columns or a bad value; the
    message names the file and line."""


def export_graph(graph: GraphStore, out_dir: Path) -> tuple[int, int]:
    """Write ``nodes.csv`` and ``edges.csv`` into ``out_dir`` (created).
    Aliases are ``|``-joined; ``properties`` is JSON. Returns (nodes, edges)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    nodes = graph.query(
        "MATCH (e:Entity) RETURN e.id AS id, e.name AS name, e.type AS type, e.aliases AS aliases, "
        "e.language AS language, e.doc AS doc ORDER BY e.id"
    )
    with open(out_dir / "nodes.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, NODE_FIELDS)
        w.writeheader()
        for n in nodes:
            w.writerow({**n, "aliases": "|".join(n["aliases"] or [])})
    edges = []
    queries = {
        "CONTAINS": "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) RETURN a.id AS s, b.id AS o, a.name AS sn, b.name AS obn, r AS r",
        "SUBSTITUTES": "MATCH (a:Entity)-[r:SUBSTITUTES]->(b:Entity) RETURN a.id AS s, b.id AS o, a.name AS sn, b.name AS obn, r AS r",
        "RELATED": "MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.id AS s, b.id AS o, a.name AS sn, b.name AS obn, r AS r",
    }
    prov = {"id", "doc", "section", "line", "extractor", "confidence", "_src", "_dst", "_id", "_label"}
    for rel, q in queries.items():
        for row in graph.query(q):
            r = row["r"]
            props = {k: v for k, v in r.items() if k not in prov}
            edges.append(
                {
                    "id": r["id"], "relation": rel, "subject": row["s"], "object": row["o"],
                    "subject_name": row["sn"], "object_name": row["obn"],
                    "properties": json.dumps(props, ensure_ascii=False, sort_keys=True),
                    "doc": r["doc"], "section": r["section"], "line": r["line"],
                    "extractor": r["extractor"], "confidence": r["confidence"],
                }
            )
    edges.sort(key=lambda e: (e["relation"], e["id"]))
    with open(out_dir / "edges.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, EDGE_FIELDS)
        w.writeheader()
        w.writerows(edges)
    return len(nodes), len(edges)


def _read(path: Path, required: list[str]) -> list[dict[str, str]]:
    if not path.exists():
        raise ReviewError(f"{path}: file not found")
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in required if c not in (reader.fieldnames or [])]
        if missing:
            raise ReviewError(f"{path}:1: missing column(s) {', '.join(missing)}")
        return list(reader)


def apply_review(extraction: Extraction, review_dir: Path) -> dict[str, int]:
    """Apply a reviewed ``nodes.csv``/``edges.csv`` pair to ``extraction`` in
    place. Returns counts ``{"nodes_removed", "edges_removed", "confidence_edited"}``.
    Raises :class:`ReviewError` on a malformed file (with path and line)."""
    review_dir = Path(review_dir)
    nodes = _read(review_dir / "nodes.csv", ["id"])
    edges = _read(review_dir / "edges.csv", ["id", "confidence"])
    keep_nodes = {n["id"] for n in nodes}
    conf: dict[str, float] = {}
    for i, e in enumerate(edges, start=2):
        try:
            conf[e["id"]] = float(e["confidence"])
        except (TypeError, ValueError):
            raise ReviewError(f"{review_dir / 'edges.csv'}:{i}: confidence {e['confidence']!r} is not a number") from None
    stats = {"nodes_removed": 0, "edges_removed": 0, "confidence_edited": 0}
    for eid in [eid for eid in extraction.entities if eid not in keep_nodes]:
        ent = extraction.entities[eid]
        if ent.type in ("section", "step", "document"):
            continue  # structure nodes are not part of the review
        del extraction.entities[eid]
        stats["nodes_removed"] += 1
    kept = []
    for t in extraction.triples:
        if t.subject not in extraction.entities or t.object not in extraction.entities:
            stats["edges_removed"] += 1
            continue
        if t.id not in conf:
            if t.relation == "CONTAINS" and extraction.entities[t.subject].type in ("document", "section", "step"):
                kept.append(t)  # structural containment is not reviewed
                continue
            stats["edges_removed"] += 1
            continue
        if abs(conf[t.id] - t.provenance.confidence) > 1e-9:
            t.provenance.confidence = conf[t.id]
            stats["confidence_edited"] += 1
        kept.append(t)
    extraction.triples = kept
    return stats
