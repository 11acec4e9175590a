"""Sources you can manage (issue 13): add / update / --replace / remove /
sources, stable document ids however a path is typed, the guards that never
publish a worse KB, one model setting, leftovers of killed ingests. Real
Kùzu, LanceDB and fastembed (4 MB test model)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import TINY_MODEL, TINY_NAME, tiny_settings

RUNBOOK = "# Runbook\n\n## Steps\n\n1. Page the Incident Commander.\n2. Open a channel named {name}.\n"


def _docs(root: Path, names: list[str], text: str = RUNBOOK) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for n in names:
        (root / n).write_text(text.format(name=n.split(".")[0]), encoding="utf-8")
    return root


def _graph_docs(data: Path) -> set[str]:
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    g = GraphStore(current_build(data) / "graph.kuzu", read_only=True)
    try:
        chunks = {r["d"] for r in g.query("MATCH (c:Chunk) RETURN DISTINCT c.doc AS d")}
        edges = {r["d"] for r in g.query("MATCH ()-[r:CONTAINS]->() RETURN DISTINCT r.doc AS d")}
        return chunks | edges
    finally:
        g.close()


@pytest.fixture
def two_folders(tmp_path):
    a = _docs(tmp_path / "team-a", ["alpha.md", "beta.md"])
    b = _docs(tmp_path / "team-b", ["gamma.md"])
    return a, b


def test_add_keeps_other_sources_and_sources_lists_them(tmp_path, two_folders):
    from threadgraph.ingest.service import list_sources, run_ingest

    a, b = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    first = run_ingest([a], s)
    assert first.ok and first.documents == 2 and first.added == [str(a.resolve())]
    assert _graph_docs(data) == {"alpha.md", "beta.md"}  # the only folder: ids relative to it
    second = run_ingest([b], s)
    assert second.documents == 3 and second.added == [str(b.resolve())]
    assert _graph_docs(data) == {"alpha.md", "beta.md", "team-b/gamma.md"}  # an added folder is prefixed by its name
    rows = {Path(r.path).name: r for r in list_sources(data)}
    assert set(rows) == {"team-a", "team-b"}
    assert (rows["team-a"].documents, rows["team-b"].documents) == (2, 1)
    assert rows["team-a"].facts > 0 and rows["team-b"].passages > 0 and rows["team-b"].ingested


def test_nothing_changed_means_nothing_rebuilt(tmp_path, two_folders):
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.kb import current_build

    a, _ = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    run_ingest([a], s)
    build = current_build(data)
    again = run_ingest([a], s)
    assert again.unchanged and again.build == build and again.documents == 2
    (a / "beta.md").write_text(RUNBOOK.format(name="changed"), encoding="utf-8")
    changed = run_ingest([a], s)
    assert not changed.unchanged and current_build(data) != build


def test_same_source_however_the_path_is_typed(tmp_path, two_folders, monkeypatch):
    from threadgraph.ingest.service import list_sources, run_ingest

    a, _ = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    run_ingest([a], s)
    ids = _graph_docs(data)
    monkeypatch.chdir(tmp_path)
    os.symlink(a, tmp_path / "link-to-a")
    for typed in ["team-a", "./team-a/", str(a) + "/", "team-b/../team-a", "link-to-a"]:
        report = run_ingest([Path(typed)], s)
        assert report.added == [] and report.updated == [str(a.resolve())], typed
        assert _graph_docs(data) == ids, typed
    assert len(list_sources(data)) == 1


def test_update_reads_the_edited_file_and_a_path_inside_a_source_updates_it(tmp_path, two_folders):
    from threadgraph.ingest.service import list_sources, run_ingest
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    a, b = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    run_ingest([a, b], s)
    (a / "alpha.md").write_text("# Runbook\n\n## Steps\n\n1. Call the Scribe first.\n", encoding="utf-8")
    report = run_ingest([a / "alpha.md"], s)  # a file inside a kept folder: that folder is updated
    assert report.updated == [str(a.resolve())] and len(list_sources(data)) == 2
    g = GraphStore(current_build(data) / "graph.kuzu", read_only=True)
    texts = " ".join(r["t"] for r in g.query("MATCH (c:Chunk) WHERE c.doc = 'team-a/alpha.md' RETURN c.text AS t"))
    g.close()
    assert "Call the Scribe first." in texts and "Page the Incident Commander." not in texts


def test_replace_rebuilds_from_exactly_the_given_paths(tmp_path, two_folders):
    from threadgraph.ingest.service import list_sources, run_ingest

    a, b = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    run_ingest([a, b], s)
    report = run_ingest([b], s, replace=True)
    assert report.documents == 1
    assert [Path(r.path).name for r in list_sources(data)] == ["team-b"]
    assert _graph_docs(data) == {"gamma.md"}


def test_remove_drops_a_source_and_every_fact_read_from_it(tmp_path, two_folders):
    from threadgraph.ingest.service import IngestRefused, list_sources, remove_source, run_ingest
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    a, b = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    run_ingest([a, b], s)
    report = remove_source(b, s)
    assert report.removed == [str(b.resolve())] and report.documents == 2
    assert all(not d.startswith("team-b/") for d in _graph_docs(data))
    g = GraphStore(current_build(data) / "graph.kuzu", read_only=True)
    left = g.query("MATCH ()-[r]->() WHERE r.doc STARTS WITH 'team-b/' RETURN count(*) AS n")[0]["n"]
    g.close()
    assert left == 0
    # one document inside a folder source, named by its id as cited
    report = remove_source("team-a/beta.md", s)
    assert report.documents == 1 and _graph_docs(data) == {"team-a/alpha.md"}
    assert list_sources(data)[0].exclude == ["beta.md"]
    # ingesting it again lifts the exclusion
    assert run_ingest([a / "beta.md"], s).documents == 2
    # the last source cannot be removed: that would publish an empty KB
    before = current_build(data)
    with pytest.raises(IngestRefused, match="empty"):
        remove_source(a, s)
    with pytest.raises(IngestRefused, match="not a source"):
        remove_source(tmp_path / "elsewhere", s)
    assert current_build(data) == before


def test_empty_folder_and_bad_files_never_publish(tmp_path, two_folders):
    from threadgraph.ingest.service import IngestRefused, run_ingest
    from threadgraph.knowledge.kb import KBNotFound, current_build

    a, _ = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(IngestRefused, match="no document"):
        run_ingest([empty], s)
    with pytest.raises(KBNotFound):
        current_build(data)  # nothing was published
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.md").write_text("", encoding="utf-8")
    (bad / "binary.md").write_bytes(b"\x00\x01")
    run_ingest([a], s)
    before = current_build(data)
    with pytest.raises(IngestRefused, match="empty.md: empty file"):
        run_ingest([bad], s)
    with pytest.raises(IngestRefused):
        run_ingest([empty], s, replace=True)
    assert current_build(data) == before


def test_losing_more_than_half_needs_replace(tmp_path):
    from threadgraph.ingest.service import IngestRefused, run_ingest
    from threadgraph.knowledge.kb import current_build

    big = _docs(tmp_path / "big", [f"doc{i}.md" for i in range(6)])
    data = tmp_path / "data"
    s = tiny_settings(data)
    run_ingest([big], s)
    for i in range(5):
        (big / f"doc{i}.md").unlink()
    before = current_build(data)
    with pytest.raises(IngestRefused, match="keep 1 of the 6 documents"):
        run_ingest([big], s)
    assert current_build(data) == before
    assert run_ingest([big], s, replace=True).documents == 1


def test_a_source_gone_from_disk_stops_the_next_ingest(tmp_path, two_folders):
    import shutil

    from threadgraph.ingest.service import IngestRefused, remove_source, run_ingest

    a, b = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    run_ingest([a, b], s)
    shutil.rmtree(b)
    other = _docs(tmp_path / "other", ["x.md"])
    with pytest.raises(IngestRefused, match="no longer on disk"):
        run_ingest([other], s)
    assert remove_source(b, s).documents == 2  # removing it works from the recorded path


def test_one_model_setting_and_no_silent_vectorless_build(tmp_path, two_folders):
    from threadgraph.ingest.service import IngestRefused, run_ingest
    from threadgraph.knowledge.kb import KnowledgeBase, current_build, read_manifest
    from threadgraph.settings import Settings

    a, b = two_folders
    data = tmp_path / "data"
    run_ingest([a], tiny_settings(data))
    manifest = read_manifest(current_build(data))
    assert manifest["embedding_model"] == TINY_NAME and manifest["embedding_model_path"] == str(TINY_MODEL.resolve())
    plain = Settings(data_dir=data, _env_file=None, openai_api_key=None)  # no model configured
    report = run_ingest([b], plain)  # uses the KB's model and folder
    assert report.embedding_model == TINY_NAME and not report.warnings
    kb = KnowledgeBase.open(data, plain)
    assert kb.embedder is not None and kb.embedder.name == TINY_NAME
    kb.close()
    broken = tiny_settings(data).model_copy(update={"embedding_model_path": tmp_path / "no-model"})
    before = current_build(data)
    with pytest.raises(IngestRefused, match="--no-vectors"):
        run_ingest([a], broken)
    assert current_build(data) == before
    report = run_ingest([a], broken, no_vectors=True)
    assert report.embedding_model is None and read_manifest(current_build(data))["embedding_model"] is None


def test_leftovers_of_killed_ingests_are_cleaned_and_three_builds_kept(tmp_path, two_folders):
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.kb import kb_root

    a, _ = two_folders
    data = tmp_path / "data"
    s = tiny_settings(data)
    run_ingest([a], s)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    root = kb_root(data)
    os.symlink("builds/nowhere", root / f".current-{pid}")  # a kill between symlink and swap
    stale = root / "builds" / f".tmp-{pid}-20000101T000000-{pid}-000000"
    stale.mkdir()
    (stale / ".building").write_text("")  # nobody holds its lock
    for i in range(4):
        (a / "alpha.md").write_text(RUNBOOK.format(name=f"alpha{i}"), encoding="utf-8")  # a change: a new build
        assert not run_ingest([a], s).unchanged
    assert not os.path.lexists(root / f".current-{pid}") and not stale.exists()
    assert len([p for p in (root / "builds").iterdir() if not p.name.startswith(".")]) == 3


def test_a_second_ingest_on_the_same_data_folder_is_refused(tmp_path, two_folders):
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.kb import IngestBusy, ingest_lock

    a, _ = two_folders
    data = tmp_path / "data"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from threadgraph.knowledge.kb import ingest_lock\n"
         f"with ingest_lock({str(data)!r}):\n    print('locked', flush=True); time.sleep(30)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(IngestBusy):
            run_ingest([a], tiny_settings(data))
    finally:
        holder.kill()
        holder.wait()
    with ingest_lock(data):
        pass  # free again


def _cli(args, data: Path, cwd: Path | None = None):
    env = dict(os.environ, HF_HUB_OFFLINE="1", THREADGRAPH_EMBEDDING_MODEL=TINY_NAME,
               THREADGRAPH_EMBEDDING_MODEL_PATH=str(TINY_MODEL), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "threadgraph.cli", *args, "--data-dir", str(data)],
                          env=env, capture_output=True, text=True, timeout=300, cwd=cwd)


def test_cli_round_trip_and_exit_codes(tmp_path, two_folders):
    import json

    a, b = two_folders
    data = tmp_path / "data"
    r = _cli(["ingest", str(a)], data)
    assert r.returncode == 0, r.stderr
    r = _cli(["ingest", str(b)], data)
    assert r.returncode == 0 and "added" in r.stderr
    r = _cli(["sources", "--json"], data)
    rows = json.loads(r.stdout)
    assert [(Path(x["path"]).name, x["documents"]) for x in rows] == [("team-a", 2), ("team-b", 1)]
    r = _cli(["sources"], data)
    assert "team-a" in r.stdout and "documents" in r.stdout
    r = _cli(["remove", str(b)], data)
    assert r.returncode == 0 and "removed" in r.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    r = _cli(["ingest", str(empty)], data)
    assert r.returncode == 3 and "refused" in r.stderr and "unchanged" in r.stderr
    r = _cli(["remove", str(a)], data)
    assert r.returncode == 3 and "empty" in r.stderr


def test_build_names_sort_by_age_within_one_second(tmp_path):
    """Old builds are pruned by name order: builds made within one second must sort by age too
    (the microsecond part once came from the nanoseconds' remainder and sorted at random, so a
    fast re-ingest kept 4 builds instead of 3)."""
    from threadgraph.knowledge.kb import abandon_build, new_build_dir

    names = []
    for _ in range(20):
        tmp, final = new_build_dir(tmp_path)
        names.append(final.name)
        abandon_build(tmp)
    assert names == sorted(names) and len(set(names)) == 20
