"""LLM extraction at ingest (ingest/llm_extract.py) with the real openai +
instructor clients against the scripted OpenAI-compatible server on 127.0.0.1
(tests/fakes_openai.py): good and broken outputs, anchoring, merging under the
rule facts, errors that never fail the ingest, the content-hash cache, the
report and the CLI switch. Nothing of ours is mocked."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest

from conftest import tiny_settings
from fakes_openai import FakeOpenAI
from threadgraph.ingest.chunks import make_chunks
from threadgraph.ingest.llm_extract import LLMFactCache, add_llm_facts, normalize_relation, parse_output
from threadgraph.ingest.normalize import Normalizer
from threadgraph.ingest.readers import parse_file
from threadgraph.knowledge.records import Entity, Extraction, Provenance, Triple

pytestmark = pytest.mark.timeout(120)

KEY = "sk-test-LLMX-distinctive-4e1d9b"

PANCAKES = """# Buttermilk Pancakes

Whisk the flour, sugar and baking powder. Stir in the buttermilk and the melted butter.
Serve with maple syrup.
"""

ROLES = """# Incident roles

The Incident Commander leads the call and the Scribe keeps the incident log.
If the status page is down, post updates on the main website.
"""

KITCHEN = """# 番茄炒蛋

番茄切块，鸡蛋打散。
椰糖也可以用蜂蜜代替。
"""

GOOD = {"facts": [
    {"subject": "Buttermilk Pancakes", "relation": "contains", "object": "maple syrup", "required": False,
     "amount": "to serve", "confidence": 0.7},
    {"subject": "buttermilk", "relation": "substitutes", "object": "greek yogurt",
     "condition": "if you have no buttermilk", "amount": "1:1", "confidence": 0.95},
]}


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def llm_settings(data_dir: Path, fake: FakeOpenAI, **kw):
    values = dict(openai_api_key=KEY, openai_base_url=fake.base_url, llm_model="fake-model", llm_mode="MD_JSON",
                  llm_extract=True, llm_extract_concurrency=1, llm_extract_timeout_s=2.0,
                  llm_extract_backoff_s=0.01, llm_extract_retries=2)
    values.update(kw)
    return tiny_settings(data_dir, **values)


def corpus(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "docs"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def parsed(root: Path) -> tuple[Extraction, list]:
    """The rule-free starting point: documents parsed and chunked, no facts."""
    ex = Extraction()
    docs = []
    for f in sorted(root.rglob("*.md")):
        d = parse_file(f, f.relative_to(root).as_posix())
        docs.append(d)
        ex.documents[d.rel] = d.title
        ex.chunks.extend(make_chunks(d))
    return ex, docs


def run(tmp_path: Path, fake: FakeOpenAI, files: dict[str, str], ex_hook=None, **kw):
    ex, docs = parsed(corpus(tmp_path, files))
    if ex_hook:
        ex_hook(ex)
    report = add_llm_facts(ex, docs, llm_settings(tmp_path / "data", fake, **kw), Normalizer())
    return ex, report


def llm_triples(ex: Extraction) -> list[tuple]:
    return [(t.subject, t.relation, t.object, t.properties, t.provenance.doc, t.provenance.line,
             t.provenance.confidence) for t in ex.triples if t.provenance.extractor == "llm"]


# --------------------------------------------------------------------------- good outputs


def test_good_json_becomes_llm_facts_in_the_rule_schema(tmp_path, fake):
    fake.reply_text(json.dumps(GOOD), usage=(120, 30))
    ex, report = run(tmp_path, fake, {"pancakes.md": PANCAKES})
    assert llm_triples(ex) == [
        ("recipe:Buttermilk Pancakes", "CONTAINS", "ingredient:maple syrup",
         {"required": False, "amount": "to serve", "order": 1}, "pancakes.md", 4, 0.7),
        ("ingredient:buttermilk", "SUBSTITUTES", "ingredient:greek yogurt",
         {"context": "recipe:Buttermilk Pancakes", "condition": "if you have no buttermilk", "symmetric": False,
          "amount": "1:1"}, "pancakes.md", 3, 0.8),
    ]
    assert ex.entities["recipe:Buttermilk Pancakes"].doc == "pancakes.md"
    assert ex.entities["ingredient:greek yogurt"].type == "ingredient"
    assert (report.sections, report.calls, report.prompt_tokens, report.completion_tokens, report.tokens) == (1, 1, 120, 30, 150)
    assert (report.facts, report.cache_hits, report.unparsable, report.failed, report.dropped_unanchored) == (2, 0, 0, 0, 0)
    assert ex.llm is report and report.warnings == []
    # the section went out once, with the prompt and the section text
    sent = fake.requests[0].text()
    assert "Document: Buttermilk Pancakes" in sent and "Stir in the buttermilk" in sent


def test_fenced_json_with_prose_around_it(tmp_path, fake):
    fake.reply_text("Sure! Here is what I found:\n```json\n"
                    + json.dumps([{"subject": "椰糖", "relation": "substitutes", "object": "蜂蜜", "confidence": "high"}],
                                 ensure_ascii=False)
                    + "\n```\nLet me know if you need anything else.", usage=(80, 20))
    ex, report = run(tmp_path, fake, {"tomato.md": KITCHEN})
    assert llm_triples(ex) == [
        ("ingredient:椰糖", "SUBSTITUTES", "ingredient:蜂蜜", {"context": "", "condition": "", "symmetric": False},
         "tomato.md", 4, 0.8),
    ]
    assert (report.calls, report.tokens, report.facts, report.unparsable) == (1, 100, 1, 0)


def test_pipe_lines_become_stand_ins_and_fallbacks(tmp_path, fake):
    fake.reply_text("Facts:\n"
                    "- Incident Commander | stands in for | Scribe | if the Scribe is unavailable\n"
                    "- status page | fallback | main website | if the status page is down\n"
                    "- Scribe | responsible for | incident log | 0.9\n", usage=(90, 40))
    ex, report = run(tmp_path, fake, {"roles.md": ROLES})
    assert llm_triples(ex) == [
        ("role:Scribe", "SUBSTITUTES", "role:Incident Commander",
         {"context": "", "condition": "if the Scribe is unavailable", "symmetric": False}, "roles.md", 3, 0.6),
        ("tool:status page", "SUBSTITUTES", "tool:main website",
         {"context": "", "condition": "if the status page is down", "symmetric": False}, "roles.md", 4, 0.6),
        ("role:Scribe", "RELATED", "artifact:incident log", {"predicate": "responsible_for"}, "roles.md", 3, 0.8),
    ]
    assert (report.facts, report.unparsable, report.tokens) == (3, 0, 130)


def test_unanchored_subject_is_dropped_and_counted(tmp_path, fake, caplog):
    fake.reply_text(json.dumps({"facts": [
        {"subject": "Sous Chef", "relation": "stand_in", "object": "Head Chef", "confidence": 0.9},
        {"subject": "melted butter", "relation": "substitutes", "object": "vegetable oil", "confidence": 0.5},
    ]}))
    ex, report = run(tmp_path, fake, {"pancakes.md": PANCAKES})
    assert [(s, r, o) for s, r, o, *_ in llm_triples(ex)] == [
        ("ingredient:melted butter", "SUBSTITUTES", "ingredient:vegetable oil")]
    assert (report.facts, report.dropped_unanchored) == (1, 1)
    assert "role:Sous Chef" not in ex.entities and "role:Head Chef" not in ex.entities


# --------------------------------------------------------------------------- broken outputs and errors


def test_invalid_output_is_skipped_and_the_next_section_still_counts(tmp_path, fake):
    fake.invalid_json()                                          # a.md: cut-off JSON
    fake.reply_text("I am sorry, I cannot find relations here.")  # b.md: prose, nothing to parse
    fake.reply_text(json.dumps({"facts": [{"subject": "椰糖", "relation": "代替", "object": "蜂蜜"}]}, ensure_ascii=False))
    ex, report = run(tmp_path, fake, {"a.md": PANCAKES, "b.md": ROLES, "c.md": KITCHEN})
    assert [(s, r, o, d) for s, r, o, _, d, *_ in llm_triples(ex)] == [
        ("ingredient:椰糖", "SUBSTITUTES", "ingredient:蜂蜜", "c.md")]
    assert (report.sections, report.calls, report.unparsable, report.failed, report.facts) == (3, 3, 2, 0, 1)
    assert report.warnings == ["LLM extraction: 2 section(s) gave output that could not be parsed"]


def test_timeout_fails_the_section_not_the_ingest(tmp_path, fake):
    fake.sleep(3.0)                                              # a.md: longer than the 0.5 s timeout
    fake.reply_text(json.dumps(GOOD))                            # b.md
    started = time.monotonic()
    ex, report = run(tmp_path, fake, {"a.md": ROLES, "b.md": PANCAKES}, llm_extract_timeout_s=0.5)
    assert time.monotonic() - started < 2.5                      # timeouts are not retried
    assert (report.calls, report.failed, report.facts) == (2, 1, 2)
    assert report.warnings == ["LLM extraction: 1 section(s) failed (timeout (APITimeoutError) x1); "
                               "their rule facts are kept"]


@pytest.mark.parametrize("code", [500, 429])
def test_http_error_then_success_is_retried(tmp_path, fake, code):
    fake.status(code)
    fake.reply_text(json.dumps(GOOD), usage=(100, 10))
    ex, report = run(tmp_path, fake, {"pancakes.md": PANCAKES})
    assert (report.calls, report.failed, report.facts, report.tokens) == (2, 0, 2, 110)
    assert len(fake.requests) == 2


def test_persistent_5xx_gives_up_after_the_retries(tmp_path, fake):
    for _ in range(3):
        fake.status(503)
    ex, report = run(tmp_path, fake, {"pancakes.md": PANCAKES}, llm_extract_retries=2)
    assert (report.calls, report.failed, report.facts) == (3, 1, 0)
    assert llm_triples(ex) == []
    assert report.warnings == ["LLM extraction: 1 section(s) failed (HTTP 503 (InternalServerError) x1); "
                               "their rule facts are kept"]


def test_connection_errors_are_retried_then_counted(tmp_path, fake):
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    ex, report = run(tmp_path, fake, {"pancakes.md": PANCAKES}, openai_base_url=f"http://127.0.0.1:{port}/v1")
    assert (report.calls, report.failed, report.facts) == (3, 1, 0)
    assert report.warnings == ["LLM extraction: 1 section(s) failed (connection error (APIConnectionError) x1); "
                               "their rule facts are kept"]


def test_the_api_key_never_reaches_logs_or_the_report(tmp_path, fake, caplog):
    caplog.set_level(logging.DEBUG)
    fake.status(401, {"error": {"message": f"Incorrect API key provided: {KEY}", "type": "invalid_request_error",
                                "param": None, "code": "invalid_api_key"}})
    ex, report = run(tmp_path, fake, {"pancakes.md": PANCAKES})
    assert (report.calls, report.failed) == (1, 1)               # a 401 is not retried
    assert report.warnings == ["LLM extraction: 1 section(s) failed (HTTP 401 (AuthenticationError) x1); "
                               "their rule facts are kept"]
    assert KEY not in caplog.text and KEY not in json.dumps(report.as_dict())
    assert [r.getMessage() for r in caplog.records if r.name == "threadgraph.llm_extract" and r.levelno >= logging.WARNING] == [
        "llm extraction failed for pancakes.md:3 (HTTP 401 (AuthenticationError)); its rule facts are kept"]


# --------------------------------------------------------------------------- merging, switches, cache


def test_rule_facts_keep_priority_over_the_same_llm_fact(tmp_path, fake):
    def rules(ex: Extraction) -> None:
        for e in (Entity("ingredient:buttermilk", "buttermilk", "ingredient"), Entity("ingredient:milk", "milk", "ingredient")):
            ex.add_entity(e)
        ex.triples.append(Triple("ingredient:buttermilk", "SUBSTITUTES", "ingredient:milk",
                                 {"context": "", "condition": "", "symmetric": False},
                                 Provenance("pancakes.md", "", 3, "recipe.note", 0.9)))

    fake.reply_text(json.dumps({"facts": [
        {"subject": "buttermilk", "relation": "substitutes", "object": "Milk", "confidence": 0.9},
        {"subject": "buttermilk", "relation": "substitutes", "object": "kefir", "confidence": 0.9},
        {"subject": "buttermilk", "relation": "substitutes", "object": "kefir", "confidence": 0.4},
    ]}))
    ex, report = run(tmp_path, fake, {"pancakes.md": PANCAKES}, ex_hook=rules)
    subs = [(t.subject, t.object, t.provenance.extractor, t.provenance.confidence) for t in ex.triples]
    assert subs == [("ingredient:buttermilk", "ingredient:milk", "recipe.note", 0.9),
                    ("ingredient:buttermilk", "ingredient:kefir", "llm", 0.8)]
    assert (report.facts, report.duplicates) == (1, 2)


def test_substitution_context_is_the_recipe_the_section_names(tmp_path, fake):
    menu = "# Brunch menu\n\n## Pancakes\n\nStir in the buttermilk.\n\n## Waffles\n\nStir in the buttermilk and the eggs.\n"

    def recipes(ex: Extraction) -> None:
        for name in ("Pancakes", "Waffles"):
            ex.add_entity(Entity(f"recipe:{name}", name, "recipe", doc="menu.md"))

    fake.reply_text(json.dumps({"facts": [{"subject": "buttermilk", "relation": "substitutes", "object": "kefir"},
                                          {"subject": "Brunch menu", "relation": "contains", "object": "eggs"}]}))
    fake.reply_text(json.dumps({"facts": [{"subject": "buttermilk", "relation": "substitutes", "object": "yogurt"}]}))
    ex, report = run(tmp_path, fake, {"menu.md": menu}, ex_hook=recipes)
    assert [(t[0], t[2], t[3]["context"], t[5]) for t in llm_triples(ex)] == [
        ("ingredient:buttermilk", "ingredient:kefir", "recipe:Pancakes", 5),
        ("ingredient:buttermilk", "ingredient:yogurt", "recipe:Waffles", 9),
    ]
    assert (report.sections, report.facts, report.rejected) == (2, 2, 1)  # "Brunch menu" is no one recipe


def test_off_by_default_and_without_a_key(tmp_path, fake):
    ex, docs = parsed(corpus(tmp_path, {"pancakes.md": PANCAKES}))
    off = tiny_settings(tmp_path / "data", openai_api_key=KEY, openai_base_url=fake.base_url)
    assert off.llm_extract is False and off.llm_extract_enabled is False
    assert add_llm_facts(ex, docs, off, Normalizer()) is None and ex.llm is None
    no_key = tiny_settings(tmp_path / "data", llm_extract=True)
    report = add_llm_facts(ex, docs, no_key, Normalizer())
    assert report.calls == 0 and report.warnings == [
        "LLM extraction is on but no OPENAI_API_KEY is set: rule extraction only"]
    assert fake.requests == [] and ex.triples == []


def test_reingest_of_unchanged_text_makes_no_call(tmp_path, fake):
    """End to end through run_ingest: the report carries the LLM figures, the
    graph the llm edges; the second ingest answers from the cache."""
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    root = corpus(tmp_path, {"pancakes.md": PANCAKES})
    settings = llm_settings(tmp_path / "data", fake)
    fake.reply_text(json.dumps(GOOD), usage=(120, 30))
    first = run_ingest([root], settings)
    assert first.ok and first.llm is not None
    assert (first.llm.calls, first.llm.tokens, first.llm.cache_hits, first.llm.facts) == (1, 150, 0, 2)

    again = run_ingest([root], settings)                        # nothing changed: no rebuild, no call
    assert again.unchanged and len(fake.requests) == 1
    # a new file forces a rebuild: the unchanged section comes from the cache, only the new one is asked
    (root / "notes.md").write_text("# Notes\n\nKeep the pancakes warm in a low oven.\n", encoding="utf-8")
    fake.reply_text(json.dumps({"facts": []}), usage=(50, 2))
    second = run_ingest([root], settings)
    assert (second.llm.calls, second.llm.tokens, second.llm.cache_hits, second.llm.failed) == (1, 52, 1, 0)
    assert len(fake.requests) == 2
    graph = GraphStore(current_build(tmp_path / "data") / "graph.kuzu", read_only=True)
    try:
        rows = graph.query("MATCH (a:Entity)-[r:SUBSTITUTES]->(b:Entity) WHERE r.extractor = 'llm' "
                           "RETURN a.name AS a, b.name AS b, r.cond AS cond, r.confidence AS conf, r.context_name AS ctx")
    finally:
        graph.close()
    assert rows == [{"a": "buttermilk", "b": "greek yogurt", "cond": "if you have no buttermilk", "conf": 0.8,
                     "ctx": "Buttermilk Pancakes"}]
    assert second.llm.facts == 2 and second.counts["SUBSTITUTES"] == first.counts["SUBSTITUTES"]

    # changed text is asked again; the cache file holds one entry per distinct section
    (root / "pancakes.md").write_text(PANCAKES.replace("maple syrup", "honey"), encoding="utf-8")
    fake.reply_text(json.dumps({"facts": []}), usage=(100, 5))
    third = run_ingest([root], settings)
    assert (third.llm.calls, third.llm.cache_hits, third.llm.tokens, third.llm.facts) == (1, 1, 105, 0)  # notes.md cached
    cache = LLMFactCache(tmp_path / "data" / "cache" / "llm_extract.sqlite")
    try:
        assert cache._db.execute("SELECT COUNT(*) FROM facts").fetchone()[0] == 3
    finally:
        cache.close()


def test_the_same_text_in_two_files_is_asked_once(tmp_path, fake):
    fake.reply_text(json.dumps(GOOD), usage=(120, 30))
    ex, report = run(tmp_path, fake, {"a/pancakes.md": PANCAKES, "b/pancakes.md": PANCAKES})
    assert (report.sections, report.calls, report.cache_hits, report.tokens, report.facts) == (2, 1, 1, 150, 4)
    assert sorted((t[4], t[1], t[3].get("context")) for t in llm_triples(ex)) == [
        ("a/pancakes.md", "CONTAINS", None), ("a/pancakes.md", "SUBSTITUTES", "recipe:Buttermilk Pancakes"),
        ("b/pancakes.md", "CONTAINS", None), ("b/pancakes.md", "SUBSTITUTES", "recipe:Buttermilk Pancakes")]


def test_calls_run_concurrently_within_the_bound(tmp_path, fake):
    import instructor, openai  # noqa: F401,E401 - imported before the clock starts
    files = {f"{i}.md": KITCHEN.replace("番茄炒蛋", f"番茄炒蛋{i}") for i in range(4)}
    for _ in range(4):
        fake.sleep(0.6, then={"facts": []})
    started = time.monotonic()
    _, report = run(tmp_path, fake, files, llm_extract_concurrency=2)
    elapsed = time.monotonic() - started
    assert (report.calls, report.failed) == (4, 0)
    assert 1.2 <= elapsed < 2.3                                   # two at a time: two rounds of 0.6 s


def test_cli_ingest_llm_flag_prints_the_llm_rows(tmp_path, fake, monkeypatch):
    from typer.testing import CliRunner

    from conftest import TINY_MODEL, TINY_NAME
    from threadgraph.cli import app

    root = corpus(tmp_path, {"pancakes.md": PANCAKES})
    fake.reply_text(json.dumps(GOOD), usage=(120, 30))
    env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": fake.base_url, "THREADGRAPH_LLM_MODEL": "fake-model",
           "THREADGRAPH_EMBEDDING_MODEL": TINY_NAME, "THREADGRAPH_EMBEDDING_MODEL_PATH": str(TINY_MODEL),
           "THREADGRAPH_LLM_EXTRACT_BACKOFF_S": "0.01"}
    monkeypatch.chdir(tmp_path)  # no stray .env
    result = CliRunner().invoke(app, ["ingest", str(root), "--data-dir", str(tmp_path / "data"), "--llm"], env=env)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "LLM calls / tokens │ 1 / 150 (120 prompt + 30 completion)" in out
    assert "LLM cache hits │ 0" in out and KEY not in result.output
    # without --llm (and THREADGRAPH_LLM_EXTRACT unset) no request is made
    result = CliRunner().invoke(app, ["ingest", str(root), "--data-dir", str(tmp_path / "data")], env=env)
    assert result.exit_code == 0 and "LLM calls" not in result.output and len(fake.requests) == 1


# --------------------------------------------------------------------------- the tolerant parser


def test_parse_output_reads_what_can_be_read():
    fenced = 'Here:\n```json\n{"facts": [{"subject": "A", "relation": "SUBSTITUTES", "object": "B"}]}\n```\nDone.'
    assert [(f.subject, f.relation, f.object, f.confidence) for f in parse_output(fenced)] == [("A", "substitutes", "B", 0.6)]
    prose = 'The answer is {"triples": [{"head": "Deputy", "predicate": "stands in for", "tail": "Lead", "confidence": "85%"}]} ok'
    assert [(f.subject, f.relation, f.object, f.confidence) for f in parse_output(prose)] == [("Lead", "stand_in", "Deputy", 0.85)]
    lines = ("| subject | relation | object |\n|---|---|---|\n| salt | contains | pepper |\n"
             "1. 白糖 | 可以用 | 冰糖 | 等量\n2. x | likes | y\n")
    assert [(f.subject, f.relation, f.object, f.condition) for f in parse_output(lines)] == [
        ("salt", "contains", "pepper", ""), ("白糖", "substitutes", "冰糖", "等量")]
    assert parse_output("Pancakes | contains | syrup | optional")[0].required is False
    assert parse_output("[]") == [] and parse_output("None.") == [] and parse_output('{"facts": []}') == []
    for bad in ("", "I cannot help with that.", '{"answer": "oops", "found": tr', '{"answer": "yes"}'):
        assert parse_output(bad) is None
    assert normalize_relation("can be replaced by") == ("substitutes", False)
    assert normalize_relation("is responsible for") == ("responsible_for", False)
    assert normalize_relation("instead of") == ("substitutes", True)
    assert normalize_relation("likes") is None
