"""Reader candidates under review (issue: "a reader, the fallback of every
intent"): what the reader finds at question time is exported by
``export-graph`` as pending rows of ``candidates.csv``; a row set to
``accepted`` becomes a graph fact (``extractor="reader-reviewed"``) at the next
``ingest --graph-csv``, a ``rejected`` one is not proposed again, a row naming
no node is reported with its file and line. Real Kùzu, LanceDB and the 4 MB
test model, on a KB of its own (the session KB is never changed).

Expected values are literals from the corpus text:

* 芝麻烧饼.md:32 "- 如果没有电饼铛，也可以用平底锅"  (电饼铛 and 平底锅 are nodes)
* 清蒸生蚝.md:29 "1. 将生蚝用刷子刷干净（没有刷子用牙刷）。"  (since session 28 a graph fact: 牙刷 is a tool, no reader row)
* a row a reviewer adds by hand, naming 铸铁石板 (no node of the graph)
* 椒盐排条.md:50 "- 也可以用面包糠代替炸糊，但口感差距很大。"
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CORPORA, TINY_MODEL, TINY_NAME, tiny_settings

FLATBREAD = "howtocook/dishes/staple/烧饼/芝麻烧饼.md"
OYSTERS = "howtocook/dishes/aquatic/清蒸生蚝.md"
RIBS = "howtocook/dishes/meat_dish/椒盐排条.md"
PATHS = [CORPORA]


def _line(doc: str, n: int) -> str:
    return (CORPORA / doc).read_text(encoding="utf-8").splitlines()[n - 1]


def _bot(data: Path, tmp: Path):
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.memory import ThreadMemory
    from threadgraph.knowledge.kb import KBHandle

    s = tiny_settings(data)
    return ThreadGraphBot(s, kb=KBHandle(data, s), memory=ThreadMemory(tmp / "memory.sqlite"))


def _ask(bot, text: str, thread: str):
    from threadgraph.bot.message import IncomingMessage, ThreadKey

    return bot.answer(IncomingMessage(thread=ThreadKey(platform="test", thread=thread), text=text))


def _cli(*args: str):
    from threadgraph.cli import app

    env = {"HF_HUB_OFFLINE": "1", "THREADGRAPH_EMBEDDING_MODEL": TINY_NAME,
           "THREADGRAPH_EMBEDDING_MODEL_PATH": str(TINY_MODEL), "COLUMNS": "400"}
    return CliRunner().invoke(app, list(args), env=env)


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _write(path: Path, rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    """A KB of the bundled corpora of its own; the reader answers three questions, the
    candidates are exported, one accepted, one rejected, a row added by the reviewer (naming no
    node) accepted, and the folder is applied with ``ingest --graph-csv``."""
    from threadgraph.ingest.service import run_ingest

    root = tmp_path_factory.mktemp("review")
    data = root / "data"
    assert run_ingest(PATHS, tiny_settings(data)).ok
    bot = _bot(data, root)
    before = {
        "flatbread": _ask(bot, "芝麻烧饼没有电饼铛怎么办？", "r1"),
        "oysters": _ask(bot, "清蒸生蚝没有刷子怎么办？", "r2"),
        "ribs": _ask(bot, "椒盐排条没有炸糊用什么代替？", "r3"),
    }
    out = root / "export1"
    r = _cli("export-graph", str(out), "--data-dir", str(data))
    assert r.exit_code == 0, r.output
    first = _rows(out / "candidates.csv")
    rows = [dict(x) for x in first]
    for x in rows:
        x["status"] = {"平底锅": "accepted", "面包糠": "rejected"}.get(x["object_name"], x["status"])
    added = next(dict(x) for x in rows if x["object_name"] == "平底锅")
    rows.append({**added, "id": "", "object_name": "铸铁石板", "status": "accepted"})
    _write(out / "candidates.csv", rows)
    r = _cli("ingest", *map(str, PATHS), "--data-dir", str(data), "--graph-csv", str(out))
    assert r.exit_code == 0, r.output
    after = _bot(data, root / "after")
    again = root / "export2"
    r2 = _cli("export-graph", str(again), "--data-dir", str(data))
    assert r2.exit_code == 0, r2.output
    return {"data": data, "before": before, "first": first, "ingest": r.output, "bot": after,
            "second": _rows(again / "candidates.csv"), "export_dir": out}


def test_reader_answers_are_exported_as_pending_candidate_rows(reviewed):
    assert "如果没有电饼铛，也可以用平底锅" in _line(FLATBREAD, 32)
    a = reviewed["before"]["flatbread"]
    assert a.found and a.answer.startswith("可以用平底锅代替电饼铛。") and not a.facts
    rows = {(x["subject_name"], x["object_name"]): x for x in reviewed["first"]}
    assert set(rows) >= {("电饼铛", "平底锅"), ("炸糊", "面包糠")}
    # 清蒸生蚝's "没有刷子用牙刷" is read at ingest now (a graph fact), so the reader proposes nothing for it
    assert ("刷子", "牙刷") not in rows and reviewed["before"]["oysters"].facts
    row = rows[("电饼铛", "平底锅")]
    assert row["status"] == "pending" and row["relation"] == "SUBSTITUTES" and row["context"] == "芝麻烧饼"
    assert (row["doc"], row["line"], row["extractor"]) == (FLATBREAD, "32", "reader")
    assert json.loads(row["properties"]) == {"condition": "", "symmetric": False}
    assert float(row["confidence"]) == pytest.approx(0.6)
    assert len({x["id"] for x in reviewed["first"]}) == len(reviewed["first"])  # de-duplicated


def test_accepted_candidate_becomes_a_reader_reviewed_graph_fact(reviewed):
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    g = GraphStore(current_build(reviewed["data"]) / "graph.kuzu", read_only=True)
    try:
        rows = g.query("MATCH (a:Entity)-[s:SUBSTITUTES]->(b:Entity) WHERE a.name = '电饼铛' AND b.name = '平底锅' "
                       "RETURN s.extractor AS ex, s.confidence AS c, s.doc AS doc, s.line AS line, s.context AS ctx")
    finally:
        g.close()
    assert rows == [{"ex": "reader-reviewed", "c": pytest.approx(0.6), "doc": FLATBREAD, "line": 32,
                     "ctx": "recipe:芝麻烧饼"}]
    a = _ask(reviewed["bot"], "芝麻烧饼没有电饼铛怎么办？", "after")
    assert a.found
    facts = [f for f in a.facts if (f.subject, f.relation, f.object) == ("电饼铛", "SUBSTITUTES", "平底锅")]
    assert facts and (facts[0].source.doc, facts[0].source.line) == (FLATBREAD, 32)
    assert "做芝麻烧饼时，电饼铛可以用平底锅代替。" in a.answer


def test_rejected_and_accepted_rows_are_not_exported_again(reviewed):
    assert "也可以用面包糠代替炸糊" in _line(RIBS, 50)
    pending = {(x["subject_name"], x["object_name"]) for x in reviewed["second"]}
    assert ("炸糊", "面包糠") not in pending and ("电饼铛", "平底锅") not in pending
    assert all(x["status"] == "pending" for x in reviewed["second"])


def test_accepted_row_naming_no_node_is_reported_with_its_line(reviewed):
    line = 2 + len(reviewed["first"])  # the reviewer's row, after the exported ones (line 1: header)
    out = " ".join(reviewed["ingest"].split())
    assert f"candidates.csv:{line}: object '铸铁石板' names no node" in out
    assert "candidates_unlinked': 1" in out and "candidates_accepted': 1" in out


@pytest.mark.parametrize("change, message", [
    (lambda r: {**r, "status": "maybe"}, "status 'maybe' is not one of"),
    (lambda r: {**r, "status": "accepted", "confidence": "high"}, "confidence 'high' is not a number"),
    (lambda r: {**r, "status": "accepted", "properties": "{oops"}, "is not a JSON object"),
])
def test_bad_candidates_csv_is_a_review_error_with_file_and_line(reviewed, tmp_path, change, message):
    from threadgraph.ingest.review import ReviewError
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.kb import current_build

    build = current_build(reviewed["data"])
    folder = tmp_path / "bad"
    folder.mkdir()
    for name in ("nodes.csv", "edges.csv"):
        (folder / name).write_bytes((reviewed["export_dir"] / name).read_bytes())
    rows = [dict(x) for x in reviewed["first"]]
    rows[1] = change(rows[1])
    _write(folder / "candidates.csv", rows)
    with pytest.raises(ReviewError, match=rf"candidates\.csv:3: .*{message}"):
        run_ingest(PATHS, tiny_settings(reviewed["data"]), graph_csv=folder)
    assert current_build(reviewed["data"]) == build  # nothing lost: the KB in place
    assert (reviewed["data"] / "candidates.jsonl").exists()


def test_optional_and_substitute_readings_become_rows_of_the_rule_edge_shape(tmp_path):
    """What :func:`log_candidates` writes is exported once per reading (logged twice,
    one row) with the relation the rule extractors give it: an optional item is
    ``CONTAINS`` recipe → item with ``required=false``; 西红柿炒鸡蛋.md writes "糖（可选）"."""
    from threadgraph.bot.reader import Reading, log_candidates
    from threadgraph.ingest.candidates import export_candidates

    doc = "howtocook/dishes/vegetable_dish/西红柿炒鸡蛋.md"
    line = next(i for i, x in enumerate((CORPORA / doc).read_text(encoding="utf-8").splitlines(), 1) if "糖（可选）" in x)
    opt = Reading("optional", "糖", "", _line(doc, line).strip(), doc, line, "p1", "zh.optional", "西红柿炒鸡蛋")
    sub = Reading("substitute", "电饼铛", "平底锅", _line(FLATBREAD, 32).strip(), FLATBREAD, 32, "p2", "zh.no_x_use_y", "芝麻烧饼")
    log_candidates(tmp_path, [opt, sub])
    log_candidates(tmp_path, [opt, sub])
    assert export_candidates(tmp_path, tmp_path / "out") == 2
    rows = {x["relation"]: x for x in _rows(tmp_path / "out" / "candidates.csv")}
    assert (rows["CONTAINS"]["subject_name"], rows["CONTAINS"]["object_name"]) == ("西红柿炒鸡蛋", "糖")
    assert json.loads(rows["CONTAINS"]["properties"]) == {"required": False, "amount": ""}
    assert (rows["CONTAINS"]["doc"], rows["CONTAINS"]["line"], rows["CONTAINS"]["status"]) == (doc, str(line), "pending")
    assert (rows["SUBSTITUTES"]["subject_name"], rows["SUBSTITUTES"]["object_name"]) == ("电饼铛", "平底锅")
