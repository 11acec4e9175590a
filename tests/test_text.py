"""The shared text toolkit (knowledge/text.py): normalization, sentences,
language, plural folding and the dictionary linker, on sentences from the
bundled corpora and from everyday questions."""

from __future__ import annotations

import pytest

from threadgraph.knowledge import text as T


@pytest.mark.parametrize("a,b", [
    ("雞胸肉", "鸡胸肉"),            # traditional / simplified
    ("ＢＢＱ醬", "BBQ酱"),           # full width + traditional
    ("닭 가슴살", "닭가슴살"),        # spacing inside a Hangul name
    ("crème fraîche", "creme fraiche"),
    ("Tomatoes", "tomato"),
    ("Incident Commanders", "incident commander"),
])
def test_names_that_are_one_name_share_a_key(a, b):
    assert T.name_key(a) == T.name_key(b)


@pytest.mark.parametrize("a,b", [("白糖", "红糖"), ("butter", "buttermilk"), ("生抽", "老抽"), ("news", "new")])
def test_different_names_keep_different_keys(a, b):
    assert T.name_key(a) != T.name_key(b)


def test_sentences_split_on_both_scripts_and_keep_abbreviations():
    text = "砂糖也可以用蜂蜜代替。柠檬片（可选）！Use dry sherry instead. Add 1 tbsp. of oil, e.g. olive oil.\nServe hot"
    assert T.split_sentences(text) == [
        "砂糖也可以用蜂蜜代替。", "柠檬片（可选）！", "Use dry sherry instead.",
        "Add 1 tbsp. of oil, e.g. olive oil.", "Serve hot"]


def test_sentence_spans_are_offsets_into_the_text():
    text = "  First one. Second one."
    assert [text[a:b] for a, b in T.sentence_spans(text)] == ["First one.", "Second one."]


@pytest.mark.parametrize("q,lang", [
    ("宫保鸡丁没有花生用什么代替？", "zh"), ("IC是什么", "zh"), ("Is 大葱 required in 宫保鸡丁?", "en"),
    ("who can stand in for the Incident Commander?", "en"), ("12345", "")])
def test_detect_language(q, lang):
    assert T.detect_language(q) == lang


@pytest.mark.parametrize("w,s", [("berries", "berry"), ("tomatoes", "tomato"), ("dishes", "dish"),
                                 ("eggs", "egg"), ("molasses", "molasses"), ("glass", "glass"), ("leaves", "leaf")])
def test_singular(w, s):
    assert T.singular(w) == s


def test_dict_linker_longest_match_in_both_scripts():
    d = T.DictLinker()
    for name in ["花生", "熟花生", "宫保鸡丁", "buttermilk", "butter", "pancake", "Incident Commander", "SME"]:
        d.add(name, name)
    hits = d.scan("宮保雞丁没有熟花生，no buttermilk for the pancakes?? ask the incident commanders or SMEs")
    assert [(m.surface, m.values[0]) for m in hits] == [
        ("宮保雞丁", "宫保鸡丁"), ("熟花生", "熟花生"), ("buttermilk", "buttermilk"), ("pancakes", "pancake"),
        ("incident commanders", "Incident Commander"), ("SMEs", "SME")]


def test_dict_linker_respects_latin_word_boundaries():
    d = T.DictLinker()
    d.add("IC", "IC")
    d.add("egg", "egg")
    assert d.scan("specifically eggplant") == []
    assert [m.surface for m in d.scan("the IC, eggs")] == ["IC", "eggs"]


def test_dict_linker_matches_abbreviations_in_capitals_only():
    d = T.DictLinker()
    d.add("SL", "Shift Lead")
    assert [m.surface for m in d.scan("ask the SL or two SLs")] == ["SL", "SLs"]
    assert d.scan("type !sl page") == []
    assert d.scan("the SLS framework") == []


def test_dict_linker_get_is_normalized():
    d = T.DictLinker()
    d.add("Crème fraîche", 1)
    assert d.get("creme fraiche") == [1]
    assert d.get("CRÈME  FRAÎCHE") == [1]
    assert d.get("cream") == []
