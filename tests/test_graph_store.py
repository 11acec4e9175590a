"""GraphStore against a real Kùzu database in a temp dir: statements are prepared once per
connection, and one Kùzu 0.11 cannot prepare (a parameter used only inside an ``EXISTS``
subquery beside another parameter) still runs, every time."""

from __future__ import annotations

import kuzu

from threadgraph.knowledge.graph import GraphStore

#: The shape of ``recipes_without(…, include_ids)``: "recipes with 花生 but without 猪肉".
Q = ("MATCH (a:E)-[r:C]->(b:E) WHERE a.type = 'recipe' AND b.id IN $inc "
     "AND NOT EXISTS { MATCH (a)-[:C]->(x:E) WHERE x.id IN $exc } RETURN a.id AS s ORDER BY a.id")


def _db(path):
    db = kuzu.Database(str(path))
    c = kuzu.Connection(db)
    c.execute("CREATE NODE TABLE E(id STRING, type STRING, PRIMARY KEY(id))")
    c.execute("CREATE REL TABLE C(FROM E TO E)")
    c.execute("CREATE (:E {id:'宫保鸡丁', type:'recipe'}), (:E {id:'花生', type:'ingredient'}), "
              "(:E {id:'猪肉', type:'ingredient'}), (:E {id:'花生猪蹄', type:'recipe'})")
    c.execute("MATCH (a:E {id:'宫保鸡丁'}), (b:E {id:'花生'}) CREATE (a)-[:C]->(b)")
    c.execute("MATCH (a:E {id:'花生猪蹄'}), (b:E {id:'花生'}) CREATE (a)-[:C]->(b)")
    c.execute("MATCH (a:E {id:'花生猪蹄'}), (b:E {id:'猪肉'}) CREATE (a)-[:C]->(b)")
    c.close()
    db.close()


def test_subquery_parameter_beside_another_runs_every_time(tmp_path):
    _db(tmp_path / "g.kuzu")
    g = GraphStore(tmp_path / "g.kuzu", read_only=True)
    try:
        for _ in range(3):  # first call falls back to text, later ones use the remembered choice
            assert g.query(Q, {"inc": ["花生"], "exc": ["猪肉"]}) == [{"s": "宫保鸡丁"}]
        assert g.query(Q, {"inc": ["花生"], "exc": []}) == [{"s": "宫保鸡丁"}, {"s": "花生猪蹄"}]
    finally:
        g.close()


def test_plain_statement_is_prepared_once_per_connection(tmp_path):
    _db(tmp_path / "g.kuzu")
    g = GraphStore(tmp_path / "g.kuzu", read_only=True, max_connections=1)
    q = "MATCH (a:E) WHERE a.type = $t RETURN a.id AS id ORDER BY a.id"
    try:
        assert g.query(q, {"t": "recipe"}) == [{"id": "宫保鸡丁"}, {"id": "花生猪蹄"}]
        assert g.query(q, {"t": "ingredient"}) == [{"id": "猪肉"}, {"id": "花生"}]
        (cache,) = g._statements.values()
        assert list(cache) == [q] and isinstance(cache[q], kuzu.PreparedStatement)
    finally:
        g.close()
