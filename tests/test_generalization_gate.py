"""Regression gate over the *dev* generalization corpora.

``make bench`` (``benchmarks/generalization.py``) measures what a user gets on
public collections no rule was written against, with the e5 model; it is too
slow for ``make test``. This gate keeps a fixed, small part of that benchmark
in the test suite so a change that breaks generalization (an extraction cue, a
reader, the understanding of a question) fails CI instead of showing up in the
next benchmark run:

* three dev corpora of different kinds, languages and formats:
  ``zh-drinks`` (Chinese Markdown recipes), ``en-communitykitchen`` (English
  recipes in one JSON file), ``ops-govuk`` (English Markdown runbooks);
  each ``docs/`` folder is ingested into its own temp KB with the tiny test
  model (the benchmark's ingest call, :func:`run_ingest` with ``replace``);
* (a) gold recall: fixed gold relations of that corpus's ``gold.jsonl``
  (substitutes, optional items, stand-ins / fallbacks) that the code extracts
  today must stay in the graph, read from the line the gold names (matched
  with the benchmark's own :func:`gold_found`);
* (b) fixed case ids of that corpus's ``cases.jsonl`` (every intent, follow-ups,
  chat phrasing, not-found questions) run through the real core in hybrid
  mode: a pass-rate floor, and every not-found question answered as not found.

The tiny model is not semantic, so the chosen cases are ones the graph and
lexical matching answer; expected names and ids are literals copied from the
corpus files (asserted still present there). Only corpora whose ``meta.json``
says ``"split": "dev"`` may be used here: blind corpora are never opened by
tests (protocol in ``benchmarks/generalization/README.md``), and a corpus made
blind again would fail :func:`test_gate_corpora_are_dev` instead of being read.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(300)  # a hang guard; each corpus ingests in seconds

REPO = Path(__file__).resolve().parents[1]
GEN = REPO / "benchmarks" / "generalization"

#: Per dev corpus: gold relations as ``(kind, doc, line, x names, y names)``
#: copied from its gold.jsonl, and case ids from its cases.jsonl.
GATE: dict[str, dict] = {
    "zh-drinks": {
        "gold": [
            ("substitute", "drinks/cocktail/martini.md", 17, ["橄榄"], ["柠檬皮"]),             # 橄榄或柠檬皮
            ("substitute", "drinks/coffee/pour-over-coffee.md", 20, ["计时器"], ["手机"]),      # 计时器（可用手机代替）
            ("substitute", "drinks/coffee/siphon.md", 7, ["专用滤布", "滤布"], ["滤纸"]),        # 专用滤布/滤纸
            ("substitute", "drinks/juice/lemonade.md", 16, ["糖"], ["蜂蜜"]),                   # 糖或蜂蜜（根据口味添加）
            ("substitute", "drinks/juice/lemonade.md", 54, ["普通水", "纯净水", "水"], ["气泡水"]),  # 可以用气泡水代替普通水
            ("substitute", "drinks/soup/sweet-soup.md", 75, ["糖", "糖分"], ["红枣"]),          # 可用红枣、桂圆等代替糖分
            ("substitute", "drinks/sweet-soup/ginger-milk.md", 12, ["水牛奶"], ["纯牛奶"]),     # 水牛奶/纯牛奶 500ml
            ("substitute", "drinks/sweet-soup/red-bean-coconut.md", 105, ["椰浆"], ["椰奶"]),   # 使用椰奶代替椰浆
            ("substitute", "drinks/sweet-soup/almond-drink.md", 22, ["豆浆机"], ["料理机"]),    # 豆浆机或料理机
            ("optional", "drinks/juice/lemonade.md", 17, ["冰块"], []),                        # 冰块（可选）
            ("optional", "drinks/juice/orange-juice.md", 17, ["蜂蜜"], []),                    # 蜂蜜（可选）
            ("optional", "drinks/sweet-soup/ginger-milk.md", 19, ["桂圆"], []),                # 桂圆 2-3颗 (optional section)
            ("optional", "drinks/sweet-soup/papaya-snow-fungus.md", 20, ["牛奶"], []),         # 牛奶 100ml（可选）
            ("optional", "drinks/sweet-soup/red-bean-coconut.md", 23, ["椰丝"], []),           # 椰丝 适量（装饰用）
            ("optional", "drinks/tea/flower-tea/rose.md", 31, ["枸杞"], []),                   # 可搭配枸杞红枣
        ],
        "cases": [
            "zh-drinks-sub-redbean-coconut",      # substitute
            "zh-drinks-sub-gingermilk-milk",      # substitute (slash alternative)
            "zh-drinks-chat-pourover-timer",      # chat phrasing (肿么办)
            "zh-drinks-opt-papaya-milk",          # required → optional
            "zh-drinks-contains-mojito",          # contains
            "zh-drinks-steps-coldbrew",           # steps
            "zh-drinks-uses-gin",                 # used_in
            "zh-drinks-chat-mojito-mixed",        # mixed language
            "zh-drinks-multi-redbean",            # 3 turns: 那没有椰浆怎么办 / 冰糖呢
            "zh-drinks-multi-cocktail",           # 3 turns: 那莫吉托呢 / 它用什么工具
            "zh-drinks-absent-margarita",         # not found (absent drink)
            "zh-drinks-absent-yangzhi",           # not found (absent drink)
        ],
    },
    "en-communitykitchen": {
        "gold": [
            ("substitute", "data/recipes.json", 52, ["long-grain parboiled rice", "parboiled rice", "long-grain rice"],
             ["basmati", "basmati rice"]),                                                      # (or basmati for a premium version)
            ("substitute", "data/recipes.json", 57, ["vegetable oil"], ["palm oil"]),           # vegetable oil or palm oil
            ("substitute", "data/recipes.json", 85, ["spinach", "chopped spinach"],
             ["ugu", "ugu leaves", "pumpkin leaves"]),                                          # spinach or ugu/pumpkin leaves
            ("substitute", "data/recipes.json", 130, ["ground roasted peanuts", "ground peanuts", "roasted peanuts"],
             ["peanut powder"]),                                                                # (or peanut powder)
            ("substitute", "data/recipes.json", 209, ["pepper soup spice mix", "pepper soup spice"],
             ["ehuru", "uziza", "uda", "calabash nutmeg"]),                                     # (or make with ehuru, …)
            ("substitute", "data/recipes.json", 336, ["palm fruit extract", "palm nut extract", "palm nut juice"],
             ["banga puree", "ready puree"]),                                                   # (or banga puree)
            ("substitute", "data/recipes.json", 364, ["margarine"], ["butter"]),                # margarine or butter
            ("substitute", "data/recipes.json", 531, ["fresh ewedu leaves", "ewedu leaves", "ewedu"],
             ["frozen ewedu", "frozen"]),                                                       # (or frozen)
            ("substitute", "data/recipes.json", 532, ["palm oil"], ["vegetable oil"]),          # palm oil or vegetable oil
            ("substitute", "data/recipes.json", 984, ["chocolate"], ["candy melts"]),           # chocolate or candy melts
            ("optional", "data/recipes.json", 63, ["protein", "protein of choice", "chicken", "beef", "fish"], []),
            ("optional", "data/recipes.json", 91, ["locust beans", "iru"], []),                 # (iru, optional for extra flavor)
            ("optional", "data/recipes.json", 239, ["boiled eggs", "eggs"], []),                # (optional, quartered)
            ("optional", "data/recipes.json", 316, ["periwinkles", "periwinkle"], []),          # Periwinkles (optional)
            ("optional", "data/recipes.json", 660, ["cinnamon"], []),                           # Pinch of cinnamon (optional)
        ],
        "cases": [
            "en-communitykitchen-sub-suya-peanuts",        # substitute
            "en-communitykitchen-sub-banga-extract",       # substitute ("replace")
            "en-communitykitchen-optional-pounded-yam-salt",  # required → optional
            "en-communitykitchen-optional-moimoi",         # optional add-ins
            "en-communitykitchen-contains-akara",          # contains
            "en-communitykitchen-steps-puff-puff",         # steps
            "en-communitykitchen-usedin-iru",              # used_in (5 recipes)
            "en-communitykitchen-without-flour-eggs",      # exclude (two ingredients)
            "en-communitykitchen-chat-kantun-ridi",        # chat phrasing
            "en-communitykitchen-follow-ugu",              # 3 turns: "and in efo riro?" / "what about …"
            "en-communitykitchen-follow-chinchin",         # 3 turns with "it"
            "en-communitykitchen-follow-into-absent",      # follow-up into an absent dish (not found)
            "en-communitykitchen-absent-saffron",          # not found (absent ingredient)
        ],
    },
    "ops-govuk": {
        "gold": [
            ("fallback", "manual/slack-unavailable.html.md", 10, ["Slack"], ["Google Spaces", "Google Space"]),
            ("fallback", "manual/github-unavailable.html.md", 15, ["GitHub", "GitHub.com"], ["CodeCommit", "AWS CodeCommit"]),
            ("fallback", "manual/howto-checkout-and-commit-to-codecommit.html.md", 9, ["GitHub repositories", "GitHub"],
             ["AWS CodeCommit", "CodeCommit"]),
            ("fallback", "manual/fall-back-to-aws-cloudfront.html.md", 9, ["Fastly"],
             ["AWS CloudFront", "CloudFront", "backup CDN", "backup Content Delivery Network"]),
            ("substitute", "manual/alerts/elasticsearch-cluster-health.html.md", 48, ["dashboard"],
             ["Elasticsearch health API", "Elasticsearch API"]),                   # An alternative to using the dashboard is …
            ("optional", "manual/on-call.html.md", 41, ["VPN"], []),                 # listed under "Optional:"
            ("optional", "manual/search-alerts-and-monitoring.html.md", 220,
             ["Temporarily pause scheduled evaluations", "pause scheduled evaluations"], []),  # **(Optional) Temporarily pause …**
            ("optional", "manual/howto-setup-maintenance-mode.html.md", 75, ["maintenance message"], []),  # … optionally
        ],
        "cases": [
            "ops-govuk-fallback-slack",                 # fallback
            "ops-govuk-fallback-github",                # fallback, phrased as a task
            "ops-govuk-standin-tech-lead",              # stand-in / responsibility
            "ops-govuk-standin-dgu-no-admins",          # stand-in from a passage
            "ops-govuk-steps-maintenance-mode",         # steps
            "ops-govuk-chat-junior-primary",            # chat phrasing
            "ops-govuk-absent-ic",                      # not found (absent role)
            "ops-govuk-absent-opsgenie",                # not found (absent tool)
            "ops-govuk-absent-akamai",                  # not found (absent fallback)
        ],
    },
}
#: Share of a corpus's gate cases hybrid must pass (every case passed when the gate was set).
GATE_FLOOR = 0.85


def _bench():
    """``benchmarks/generalization.py`` as a module (it is a script, not a package)."""
    name = "threadgraph_bench_generalization"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / "generalization.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def test_gate_corpora_are_dev():
    for name in GATE:
        meta = json.loads((GEN / name / "meta.json").read_text(encoding="utf-8"))
        assert meta.get("split") == "dev", f"{name} is not a dev corpus: tests must never read a blind corpus"


@pytest.fixture(scope="module", params=list(GATE))
def corpus(request, tmp_path_factory):
    """One dev corpus ingested into a temp KB with the tiny model: name, KB handle, edges."""
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.kb import KBHandle

    from conftest import tiny_settings

    name = request.param
    meta = json.loads((GEN / name / "meta.json").read_text(encoding="utf-8"))
    if meta.get("split") != "dev":
        pytest.fail(f"{name} is not a dev corpus")  # before its docs are read
    data = tmp_path_factory.mktemp(f"gen-{name}")
    t0 = time.perf_counter()
    report = run_ingest([GEN / name / "docs"], tiny_settings(data), replace=True)
    assert report.ok, (report.warnings, report.skipped[:3])
    print(f"{name}: ingest {time.perf_counter() - t0:.1f} s, {report.counts}")
    handle = KBHandle(data, tiny_settings(data))
    kb = handle.get()
    edges = _bench().load_edges(kb.graph)
    yield {"name": name, "dir": GEN / name, "data": data, "handle": handle, "edges": edges}
    kb.close()


def test_gold_relations_extracted(corpus):
    """(a) Each gate gold relation is in the KB, from the gold line itself."""
    G = _bench()
    gold = G.read_jsonl(corpus["dir"] / "gold.jsonl")
    missing, stale = [], []
    for kind, doc, line, xs, ys in GATE[corpus["name"]]["gold"]:
        if not any(g["kind"] == kind and g["doc"] == doc and g["line"] == line and set(xs) <= set(g["x"])
                   and set(ys) <= set(g.get("y") or []) for g in gold):
            stale.append((kind, doc, line, xs, ys))
        g = {"kind": kind, "doc": doc, "line": line, "x": xs, "y": ys}
        on_line = [e for e in corpus["edges"] if e.get("line") == line]
        if not G.gold_found(g, on_line):
            missing.append((kind, doc, line, xs, ys))
    assert not stale, f"gate gold relations no longer in {corpus['name']}/gold.jsonl: {stale}"
    assert not missing, f"{corpus['name']}: gold relations no longer extracted: {missing}"


def test_cases_pass_rate_floor(corpus, tmp_path):
    """(b) The gate cases pass in hybrid mode; not-found questions are reported as not found."""
    from threadgraph.bot.core import ThreadGraphBot
    from threadgraph.bot.memory import ThreadMemory
    from threadgraph.evaluation import load_cases, run_eval

    from conftest import tiny_settings

    ids = GATE[corpus["name"]]["cases"]
    by_id = {c.id: c for c in load_cases([corpus["dir"] / "cases.jsonl"])}
    missing = [i for i in ids if i not in by_id]
    assert not missing, f"gate ids not in {corpus['name']}/cases.jsonl: {missing}"
    cases = [by_id[i] for i in ids]
    assert any(t.found is False for c in cases for t in c.turns)

    bot = ThreadGraphBot(tiny_settings(corpus["data"]), kb=corpus["handle"],
                         memory=ThreadMemory(tmp_path / "memory.sqlite"))
    report = run_eval(bot, cases, ["hybrid"], run_id=f"gate-{corpus['name']}")
    s = report.stat("ALL", "hybrid")
    failed = [(r.id, [(t.text, t.missing, t.forbidden, t.found_ok) for t in r.turns if not t.passed])
              for r in report.failures("hybrid")]
    assert s.cases == len(ids)
    assert s.pass_rate >= GATE_FLOOR, f"{corpus['name']}: hybrid pass rate {s.pass_rate:.2f} < {GATE_FLOOR}: {failed}"
    wrongly_found = [(r.id, t.text) for r in report.results for t in r.turns
                     if t.found_expected is False and t.found_got]
    assert not wrongly_found, f"{corpus['name']}: not-found questions answered as found: {wrongly_found}"
