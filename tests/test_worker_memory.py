"""A long-running worker does not grow per question: Kùzu 0.11 keeps ~36 KB for every
``execute(text, params)`` until its connection closes (a worker reached 1.2 GB after 3,000
answers); GraphStore reuses one prepared statement per connection instead."""

from __future__ import annotations

from pathlib import Path


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_graph_queries_do_not_accumulate_memory(kb_dir):
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    graph = GraphStore(current_build(kb_dir) / "graph.kuzu", read_only=True)
    ids = [r["id"] for r in graph.query("MATCH (e:Entity) WHERE e.type = $t RETURN e.id AS id", {"t": "recipe"})]
    q = "MATCH (r:Entity {id: $id})-[c:CONTAINS]->(i:Entity) RETURN i.name AS n, c.required AS req"
    for k in range(300):  # warm: buffer pool pages, one prepared statement
        graph.query(q, {"id": ids[k % len(ids)]})
    before = _rss_mb()
    rows = 0
    for k in range(3000):
        rows += len(graph.query(q, {"id": ids[k % len(ids)]}))
    grown = _rss_mb() - before
    graph.close()
    assert rows > 3000
    assert grown < 30  # was ~108 MB for these 3,000 queries
