"""Knowledge-base build on the real corpora: graph facts with provenance,
idempotence, atomic swap under a killed ingest, bad files, review CSVs,
model bookkeeping. Real Kùzu, LanceDB and fastembed (4 MB test model)."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CORPORA, TINY_MODEL, TINY_NAME, tiny_settings

KUNGPAO = "howtocook/dishes/meat_dish/宫保鸡丁/宫保鸡丁.md"
TOMATO_EGG = "howtocook/dishes/vegetable_dish/西红柿炒鸡蛋.md"
ROLES = "pagerduty-incident-response/docs/before/different_roles.md"


def _line_of(doc: str, needle: str) -> int:
    for i, line in enumerate((CORPORA / doc).read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in {doc}")


@pytest.fixture(scope="module")
def graph(kb_dir):
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    g = GraphStore(current_build(kb_dir) / "graph.kuzu", read_only=True)
    yield g
    g.close()


def _contains(graph, recipe: str, ingredient: str):
    return graph.query(
        "MATCH (r:Entity)-[c:CONTAINS]->(i:Entity) WHERE r.name = $r AND i.name = $i "
        "RETURN c.required AS required, c.amount AS amount, c.doc AS doc, c.line AS line",
        {"r": recipe, "i": ingredient},
    )


def test_kung_pao_contains_scallion_as_required(graph):
    rows = _contains(graph, "宫保鸡丁", "大葱")
    assert rows and rows[0]["required"] is True
    assert rows[0]["doc"] == KUNGPAO


def test_tomato_egg_contains_sugar_as_optional(graph):
    # the recipe writes "糖（可选）"; the alias table maps 糖 to the canonical 白糖
    rows = _contains(graph, "西红柿炒鸡蛋", "白糖")
    assert rows and rows[0]["required"] is False


def test_inline_alternative_is_a_substitution_in_the_recipe_context(graph):
    rows = graph.query(
        "MATCH (a:Entity)-[s:SUBSTITUTES]->(b:Entity) WHERE a.name = '手枪腿' "
        "RETURN b.name AS b, s.context AS ctx, s.doc AS doc, s.line AS line, s.symmetric AS sym"
    )
    hit = [r for r in rows if r["b"] == "鸡胸肉"]
    assert hit, rows
    assert hit[0]["ctx"] == "recipe:宫保鸡丁"
    assert hit[0]["doc"] == KUNGPAO
    assert hit[0]["line"] == _line_of(KUNGPAO, "- 手枪腿（或者鸡胸脯肉）")
    assert hit[0]["sym"] is True


def test_unit_alternatives_are_not_substitutions(graph):
    # no SUBSTITUTES edge may join two measurement-looking names (g, ml, 克, 杯, ounces...)
    rows = graph.query("MATCH (a:Entity)-[s:SUBSTITUTES]->(b:Entity) RETURN a.name AS a, b.name AS b")
    import re

    unit = re.compile(r"^\s*[\d.]+\s*(g|kg|ml|l|克|毫升|杯|勺|ounces?|grams?|cups?)\s*$", re.I)
    bad = [r for r in rows if unit.match(r["a"]) or unit.match(r["b"])]
    assert rows and not bad


def test_tools_are_not_ingredients(graph):
    rows = graph.query("MATCH (e:Entity) WHERE e.name IN ['炒锅', '微波炉', '砧板', '平底锅'] RETURN e.name AS n, e.type AS t")
    assert {r["n"] for r in rows if r["t"] == "tool"} == {"炒锅", "微波炉", "砧板", "平底锅"}
    assert not [r for r in rows if r["t"] == "ingredient"], rows


def test_pagerduty_roles_and_deputy_stands_in_for_scribe(graph):
    roles = {r["n"] for r in graph.query("MATCH (e:Entity) WHERE e.type = 'role' RETURN e.name AS n")}
    assert {"Incident Commander", "Deputy", "Scribe", "Subject Matter Expert", "Customer Liaison", "Internal Liaison"} <= roles
    rows = graph.query(
        "MATCH (a:Entity)-[s:SUBSTITUTES]->(b:Entity) WHERE a.name = 'Scribe' AND b.name = 'Deputy' "
        "RETURN s.cond AS cond, s.doc AS doc, s.line AS line"
    )
    assert rows, "Scribe -> Deputy stand-in missing"
    assert rows[0]["doc"] == ROLES
    assert rows[0]["line"] == _line_of(ROLES, "the Deputy might also take on the responsibilities of the Scribe")
    assert "small" in rows[0]["cond"]


def test_every_edge_has_provenance(graph):
    for rel in ("CONTAINS", "SUBSTITUTES", "RELATED"):
        bad = graph.query(
            f"MATCH ()-[r:{rel}]->() WHERE r.doc = '' OR r.line < 1 OR r.extractor = '' OR r.confidence <= 0 OR r.confidence > 1 "
            "RETURN count(*) AS n"
        )[0]["n"]
        assert bad == 0, f"{rel}: {bad} edges without provenance"


def test_reingest_is_idempotent(tmp_path, kb_dir):
    """Same input -> same graph and passages (ids, properties, provenance)."""
    from threadgraph.ingest.service import run_ingest
    from threadgraph.ingest.review import export_graph
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    small = [CORPORA / "pagerduty-incident-response", CORPORA / "howtocook" / "dishes" / "meat_dish"]
    dumps = []
    for run in range(2):
        data = tmp_path / f"d{run}"
        report = run_ingest(small, tiny_settings(data))
        assert report.ok
        g = GraphStore(current_build(data) / "graph.kuzu", read_only=True)
        export_graph(g, tmp_path / f"csv{run}")
        chunks = g.query("MATCH (c:Chunk) RETURN c.id AS id, c.text AS t ORDER BY c.id")
        g.close()
        dumps.append(((tmp_path / f"csv{run}" / "nodes.csv").read_bytes(), (tmp_path / f"csv{run}" / "edges.csv").read_bytes(), chunks))
    assert dumps[0] == dumps[1]
    assert len(dumps[0][2]) > 100


def _ingest_cmd(paths, data: Path) -> list[str]:
    return [sys.executable, "-m", "threadgraph.cli", "ingest", *map(str, paths), "--data-dir", str(data)]


def _env(**extra):
    env = dict(os.environ)
    env.update({
        "HF_HUB_OFFLINE": "1", "THREADGRAPH_EMBEDDING_MODEL": TINY_NAME,
        "THREADGRAPH_EMBEDDING_MODEL_PATH": str(TINY_MODEL), **extra,
    })
    return env


def test_killed_ingest_leaves_previous_kb_usable(tmp_path):
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.message import IncomingMessage, ThreadKey
    from threadgraph.knowledge.kb import current_build

    data = tmp_path / "data"
    first = subprocess.run(_ingest_cmd([CORPORA / "pagerduty-incident-response"], data), env=_env(), capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    before = current_build(data)
    # a second, bigger ingest killed as soon as its build folder exists
    proc = subprocess.Popen(_ingest_cmd([CORPORA], data), env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    builds = data / "kb" / "builds"
    deadline = time.time() + 600  # a wait, not a timing assertion: extraction comes first
    while time.time() < deadline and proc.poll() is None and not list(builds.glob(".tmp-*")):
        time.sleep(0.02)
    time.sleep(0.3)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert list(builds.glob(".tmp-*")), "the ingest was not caught mid-build"
    assert current_build(data) == before
    bot = ThreadGraphBot(tiny_settings(data))
    ans = bot.answer(IncomingMessage(thread=ThreadKey(platform="test", thread="k"), text="who can stand in for the Scribe?"))
    assert ans.found and "Deputy" in ans.answer
    # the next ingest cleans the dead build folder; its input is unchanged, so the KB stays (up to date)
    again = subprocess.run(_ingest_cmd([CORPORA / "pagerduty-incident-response"], data), env=_env(), capture_output=True, text=True)
    assert again.returncode == 0 and "up to date" in again.stderr
    assert not list(builds.glob(".tmp-*"))
    assert current_build(data) == before


def test_bad_files_are_reported_and_skipped(tmp_path):
    src = tmp_path / "docs"
    src.mkdir()
    (src / "good.md").write_text("# Runbook\n\n## Steps\n\n1. Page the Incident Commander.\n2. Open a channel.\n", encoding="utf-8")
    (src / "empty.md").write_text("", encoding="utf-8")
    (src / "binary.md").write_bytes(b"# x\n\x00\x01\x02 binary")
    (src / "latin1.md").write_bytes("# ok\n\nline two\ncaf\xe9\n".encode("latin-1"))
    (src / "slides.pdf").write_bytes(b"%PDF-1.4 ...")
    data = tmp_path / "data"
    res = subprocess.run(_ingest_cmd([src], data), env=_env(COLUMNS="200"), capture_output=True, text=True)
    assert res.returncode == 1, res.stderr
    err = res.stderr
    for name in ("empty.md", "binary.md", "latin1.md", "slides.pdf"):
        assert name in err, err
    assert "latin1.md:4" in err  # the line of the first bad byte
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build, read_manifest

    build = current_build(data)
    assert read_manifest(build)["documents"] == 1
    g = GraphStore(build / "graph.kuzu", read_only=True)
    assert g.query("MATCH (c:Chunk) RETURN count(*) AS n")[0]["n"] >= 1
    g.close()


def test_ingest_without_a_model_builds_graph_and_full_text(tmp_path):
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.message import IncomingMessage, ThreadKey
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.kb import read_manifest, current_build

    data = tmp_path / "data"
    s = tiny_settings(data).model_copy(update={"embedding_model_path": tmp_path / "no-such-model"})
    report = run_ingest([CORPORA / "howtocook" / "dishes" / "meat_dish"], s)
    assert report.warnings and "no embedding model" in report.warnings[0]
    assert read_manifest(current_build(data))["embedding_model"] is None
    ans = ThreadGraphBot(s).answer(IncomingMessage(thread=ThreadKey(platform="t"), text="宫保鸡丁怎么做"))
    assert ans.found and ans.passages  # full-text search alone


def test_opening_with_another_model_says_reingest(kb_dir):
    from threadgraph.knowledge.kb import KnowledgeBase, ModelMismatch

    other = tiny_settings(kb_dir).model_copy(update={"embedding_model": "intfloat/multilingual-e5-small"})
    with pytest.raises(ModelMismatch, match="re-ingest"):
        KnowledgeBase.open(kb_dir, other)


def test_reviewed_graph_csv_removes_rows_and_keeps_confidence(tmp_path):
    from threadgraph.ingest.service import run_ingest
    from threadgraph.ingest.review import export_graph
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    paths = [CORPORA / "howtocook" / "dishes" / "meat_dish"]
    data = tmp_path / "data"
    run_ingest(paths, tiny_settings(data))
    g = GraphStore(current_build(data) / "graph.kuzu", read_only=True)
    export_graph(g, tmp_path / "review")
    g.close()
    edges_path = tmp_path / "review" / "edges.csv"
    rows = list(csv.DictReader(edges_path.open(encoding="utf-8")))
    subs = [r for r in rows if r["relation"] == "SUBSTITUTES"]
    removed, edited = subs[0], subs[1]
    kept = []
    for r in rows:
        if r["id"] == removed["id"]:
            continue
        if r["id"] == edited["id"]:
            r = {**r, "confidence": "0.25"}
        kept.append(r)
    with edges_path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, list(rows[0].keys()))
        w.writeheader()
        w.writerows(kept)
    run_ingest(paths, tiny_settings(data), graph_csv=tmp_path / "review")
    g = GraphStore(current_build(data) / "graph.kuzu", read_only=True)
    ids = {r["id"]: r["c"] for r in g.query("MATCH ()-[s:SUBSTITUTES]->() RETURN s.id AS id, s.confidence AS c")}
    g.close()
    assert removed["id"] not in ids
    assert ids[edited["id"]] == pytest.approx(0.25)
    assert len(ids) == len(subs) - 1


def test_cypher_is_parameterized_against_hostile_text(ask, graph):
    before = graph.query("MATCH (e:Entity) RETURN count(*) AS n")[0]["n"]
    for text in ["'}) MATCH (n) DETACH DELETE n //", '宫保鸡丁" OR 1=1 --没有花生用什么代替', "x') RETURN 1; DROP TABLE Entity;"]:
        ans = ask(text)
        assert ans.question == text.strip()
    assert graph.query("MATCH (e:Entity) RETURN count(*) AS n")[0]["n"] == before
