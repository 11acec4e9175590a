"""Ingest's language and domain data (ingest/lexicon/*.yaml, read by
ingest/cues.py): every file loads into strings, every pattern compiles, and
the words do what the extractors rely on."""

from __future__ import annotations

import re

import pytest

from threadgraph.ingest import cues
from threadgraph.ingest.items import is_measure, is_tool, looks_like_step, note_clauses, parse_item
from threadgraph.ingest.normalize import NEVER_MERGE, clean_name, fuzzy_allowed
from threadgraph.ingest.recipes import ING_HEAD, STEP_HEAD, section_kind
from threadgraph.ingest.roles import RoleBook, RoleRules
from threadgraph.ingest.tables import classify_column

FILES = sorted(p.stem for p in cues.LEXICON_DIR.glob("*.yaml"))


def _leaves(v):
    if isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from _leaves(x)
    elif isinstance(v, list):
        for x in v:
            yield from _leaves(x)
    else:
        yield v


def test_the_data_files_are_there():
    assert FILES == ["alternatives", "amounts", "columns", "markup", "names", "policy", "procedures", "roles", "sections", "steps",
                     "tools"]


@pytest.mark.parametrize("name", FILES)
def test_every_entry_is_text(name):
    # YAML turns bare yes/no/on/off into booleans: every word must stay a string
    bad = [x for x in _leaves(cues.lexicon(name)) if not isinstance(x, str)]
    assert bad == []


@pytest.mark.parametrize("name", ["alternatives", "amounts", "names", "sections", "steps", "tools"])
def test_every_pattern_compiles(name):
    texts = [x for x in _leaves(cues.lexicon(name)) if x not in cues.lexicon(name)]
    if name == "names":
        texts = [x for x in texts if not any(x in pair for pair in cues.lexicon(name)["never_merge"])]
    assert texts
    for text in texts:
        re.compile(cues.fill(name, text))


def test_role_cues_compile_with_a_role():
    book = RoleBook()
    book.names = {"Shift Lead": ["SL"], "Runner": []}
    rules = RoleRules(book)
    for key, text in cues.lexicon("roles")["stand_in_cues"].items():
        assert rules.cue_text(text).pattern
    m = rules.cue_text(cues.lexicon("roles")["stand_in_cues"]["act_as"]).search("The Runner will act as the Shift Lead.")
    assert (m.group("b"), m.group("a")) == ("Runner", "Shift Lead")
    m = rules.cue_text(cues.lexicon("roles")["stand_in_cues"]["not_available"]).search(
        "If the SL is not available, the runner takes over.")
    assert (m.group("a"), m.group("b")) == ("SL", "runner")


@pytest.mark.parametrize("name,tool", [
    ("炒锅", True), ("微波炉", True), ("有一定深度的碗", True), ("锅巴", False), ("刀豆", False), ("猪肉", False),
    ("cast iron skillet", True), ("butter", False)])
def test_tool_lexicon(name, tool):
    assert is_tool(name) is tool


def test_units_and_qualifiers_are_cleaned_away():
    assert clean_name("新鲜的番茄 2 个") == "番茄"
    assert clean_name("2 cups chopped Tomatoes") == "tomato"
    assert is_measure("240ml") and is_measure("2-3 个") and not is_measure("2 shallots")


def test_never_merge_pairs_are_data():
    assert frozenset(("白糖", "红糖")) in NEVER_MERGE
    assert not fuzzy_allowed("白糖", "红糖")


def test_section_labels():
    assert ING_HEAD.search("必备原料和工具") and ING_HEAD.search("What you'll need")
    assert STEP_HEAD.match("2. 操作") and STEP_HEAD.match("Instructions")
    assert section_kind(("计算",)) == "amount"
    assert section_kind(("操作", "处理原料")) == ""
    assert section_kind(("必备原料和工具", "可选原料")) == "ingredient"


def test_optional_and_stand_in_cues():
    assert note_clauses("可选") == (True, [])
    opt, alts = note_clauses("没有可用食用油替代，但猪油风味更佳")
    assert not opt and [(a.raw, a.condition) for a in alts] == [("食用油", "没有时")]
    [item] = parse_item("butter, or margarine")
    assert (item.name, [(a.raw, a.symmetric) for a in item.alternatives]) == ("butter", [("margarine", True)])
    assert looks_like_step("葱切段") and not looks_like_step("泡椒")


@pytest.mark.parametrize("header,kind", [
    ("Ingredient", "item"), ("替代品", "sub"), ("Substitute", "sub"), ("用量", "amount"), ("Role", "role"),
    ("Responsibilities", "resp"), ("when", "cond"), ("to", "sub"), ("recipe.name", "recipe"), ("colour", "")])
def test_column_meanings(header, kind):
    assert classify_column(header) == kind
