"""An umbrella item that lists its members ("肉（猪肉、鸡肉、牛肉均可）", "配菜（生菜、油菜均可）"): the members stand in
for each other, the umbrella for none of them (ingest/recipes.py ``is_umbrella``, ``umbrella`` in
ingest/lexicon/names.yaml). Real lines of two corpora: HowToCook and the zh-meow dev corpus."""
from __future__ import annotations

import pytest

from threadgraph.ingest.pipeline import extract_corpus
from threadgraph.ingest.recipes import is_umbrella

from conftest import CORPORA, GEN

MEOW = GEN / "zh-meow" / "docs"


def _subs(ex, doc_end: str) -> set[tuple[str, str]]:
    """(subject, object) names of the SUBSTITUTES read from the document whose path ends with ``doc_end``."""
    return {(ex.entities[t.subject].name, ex.entities[t.object].name) for t in ex.triples
            if t.relation == "SUBSTITUTES" and t.provenance.doc.endswith(doc_end)}


@pytest.fixture(scope="module")
def howtocook():
    return extract_corpus([CORPORA / "howtocook"], root=CORPORA)


@pytest.fixture(scope="module")
def meow():
    return extract_corpus([MEOW], root=MEOW)


def _pairs(subs: set[tuple[str, str]]) -> set[frozenset]:
    return {frozenset(p) for p in subs}


def test_meat_members_stand_in_for_each_other(howtocook):
    # HowToCook, dishes/staple/日式咖喱饭/日式咖喱饭.md line 17: "- 肉（猪肉、鸡肉、牛肉均可）"
    subs = _subs(howtocook, "日式咖喱饭.md")
    assert {frozenset({"猪肉", "鸡肉"}), frozenset({"猪肉", "牛肉"}), frozenset({"鸡肉", "牛肉"})} <= _pairs(subs)
    assert not [p for p in subs if "肉" in p]


def test_side_vegetable_members(meow):
    # zh-meow, 椒盐排骨.md: "配菜（生菜、油菜均可）"
    a = _subs(meow, "椒盐排骨.md")
    assert frozenset({"生菜", "油菜"}) in _pairs(a)
    assert not [p for p in a if "配菜" in p]
    # zh-meow, 麻油鸡.md: "各种配菜（油菜、生菜、白菜等皆可）": an open list ("等") of examples, no edge at all
    assert not [p for p in _subs(meow, "麻油鸡.md") if {"油菜", "生菜", "白菜", "各种配菜"} & set(p)]


def test_open_list_of_examples_gives_nothing(howtocook):
    # HowToCook, dishes/aquatic/水煮鱼.md line 12: "- 蔬菜（比如土豆片/豆芽/花菜/生菜/……）"
    assert not [p for p in _subs(howtocook, "水煮鱼.md") if {"豆芽", "花菜", "生菜", "蔬菜"} & set(p)]


def test_umbrella_names():
    assert is_umbrella("各种配菜") and is_umbrella("配菜") and is_umbrella("肉") and is_umbrella("其他肉类")
    assert is_umbrella("assorted proteins") and is_umbrella("any vegetables")
    assert not is_umbrella("猪肉") and not is_umbrella("生菜") and not is_umbrella("beef")
