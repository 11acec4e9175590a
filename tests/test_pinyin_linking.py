"""Pinyin-aware linking (issue 11): Latin words spelling a Chinese KB name's toneless pinyin
("doubanjiang", "dou ban jiang", "mapo doufu") link to that name, and so does a Chinese name
typed with a homophone (鸡但 for 鸡蛋, the same syllables picked wrong in a pinyin input method).

Questions over HowToCook (bundled) and two zh dev corpora (zh-meow, zh-cpq); expected names are
literals of the source lines (:func:`conftest.quoted`). Precision: the English questions of three
English dev corpora link nothing by pinyin against these Chinese names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import bot_over, quoted, tiny_settings

ROOT = Path(__file__).resolve().parents[1]
HTC = ROOT / "corpora" / "howtocook" / "dishes"
GEN = ROOT / "benchmarks" / "generalization"
MEOW = GEN / "zh-meow" / "docs"
CPQ = GEN / "zh-cpq" / "docs"
MAPO = HTC / "meat_dish" / "麻婆豆腐" / "麻婆豆腐.md"
KUNGPAO = HTC / "meat_dish" / "宫保鸡丁" / "宫保鸡丁.md"
TOMATO_EGG = HTC / "vegetable_dish" / "西红柿炒鸡蛋.md"
TWICE = MEOW / "回锅肉.md"
THREE_CUP = MEOW / "三杯鸡.md"
TOFU = CPQ / "roujiang-shuidoufu.md"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    """``(ask, linker)``: a real bot over three HowToCook recipes, two zh-meow recipes and one
    zh-cpq recipe (test model), and a linker over the names of its KB."""
    from threadgraph.bot.linker import Linker
    from threadgraph.knowledge.kb import KnowledgeBase

    root = tmp_path_factory.mktemp("pinyin")
    ask = bot_over(root, {
        "麻婆豆腐.md": MAPO, "宫保鸡丁.md": KUNGPAO, "西红柿炒鸡蛋.md": TOMATO_EGG,
        "回锅肉.md": TWICE, "三杯鸡.md": THREE_CUP, "roujiang-shuidoufu.md": TOFU,
    })
    kbase = KnowledgeBase.open(root / "data", tiny_settings(root / "data"))
    return ask, Linker(kbase.names)


def _names(answer) -> list[str]:
    return [e.name for e in answer.entities]


# -- toolkit -------------------------------------------------------------------------------------------------
def test_pinyin_syllables_and_index():
    from threadgraph.knowledge.text import PinyinIndex, pinyin_syllables

    sauce = quoted(KUNGPAO, 30, "- 豆瓣酱")[2:]
    assert pinyin_syllables(sauce) == ("dou", "ban", "jiang")
    assert pinyin_syllables("abc") == () and pinyin_syllables("a豆") == ()
    idx = PinyinIndex({"tofu": [pinyin_syllables("豆腐")]}, frozenset({"he", "you"}))
    dish = quoted(MAPO, 1, "# 麻婆豆腐")[2:]
    for name in (sauce, dish):
        idx.add(name, name)
    assert idx.read(["doubanjiang"]) == [(sauce, sauce)]
    assert idx.read(["dou", "ban", "jiang"]) == [(sauce, sauce)]
    assert idx.read(["mapo", "tofu"]) == [(dish, dish)]       # 麻婆 spelled, 豆腐 said in English
    assert idx.read(["doub", "anjiang"]) == []                 # a word must end between two syllables
    assert idx.read(["ma", "po"]) == []                        # not a whole name
    assert [m.name for m in idx.scan("instead of the doubanjiang?")] == [sauce]
    assert idx.homophones("豆办酱") == [(sauce, sauce)]
    assert idx.homophones(sauce) == []                         # the name itself is no homophone of it


# -- Latin pinyin in English questions -----------------------------------------------------------------------
def test_pinyin_words_name_kb_dishes_and_ingredients(kb):
    ask, lk = kb
    twice = quoted(TWICE, 1, "# 回锅肉")[2:]
    a = ask("How do I make huiguorou?", thread="twice")
    assert a.intent == "steps" and a.found and twice in _names(a)
    oil = quoted(KUNGPAO, 23, "- 芝麻油")[2:]
    assert lk.link("zhi ma you", ("ingredient",)).name == oil
    dish = quoted(MAPO, 1, "# 麻婆豆腐")[2:]
    assert lk.link("mapo doufu", ("recipe",)).name == dish
    bean = quoted(KUNGPAO, 30, "- 豆瓣酱")[2:]
    assert lk.link("doubanjiang", ("ingredient",)).name == bean
    # a dish whose file is named in pinyin: its Chinese title links from the pinyin words
    tofu = quoted(TOFU, 2, "肉酱水豆腐")
    assert lk.link("roujiang shuidoufu", ("recipe",)).name.endswith(tofu)


def test_follow_up_names_the_sauce_in_pinyin(kb):
    ask, _ = kb
    dish = quoted(MAPO, 1, "# 麻婆豆腐")[2:]
    bean = quoted(MAPO, 5, "以咸鸭蛋替代传统豆瓣酱")[-3:]
    first = ask("How do I make mapo tofu?", thread="mapo")
    assert dish in _names(first)
    a = ask("and what can I use instead of the doubanjiang?", thread="mapo")
    assert a.intent == "substitute" and bean in _names(a)
    assert "no evidence about doubanjiang" not in a.answer
    egg = quoted(MAPO, 5, "以咸鸭蛋替代")[1:4]
    assert a.found and egg in a.answer  # the recipe's own "以咸鸭蛋替代传统豆瓣酱"


# -- Chinese homophone typos ---------------------------------------------------------------------------------
def test_homophone_typo_links_the_dish(kb):
    ask, lk = kb
    dish = quoted(TOMATO_EGG, 1, "# 西红柿炒鸡蛋")[2:]
    a = ask("西红柿炒鸡但怎么做啊", thread="typo1")
    assert a.intent == "steps" and a.found and dish in _names(a)
    three = quoted(THREE_CUP, 1, "# 三杯鸡")[2:]
    b = ask("三杯几怎么做", thread="typo2")
    assert b.intent == "steps" and b.found and three in _names(b)
    # in running text too (zh-meow's own chat question): three characters or more
    pork = quoted(TWICE, 5, "取五花肉或猪肩肉")[1:4]
    c = ask("回过肉 用啥肉啊", thread="typo3")
    assert quoted(TWICE, 1, "# 回锅肉")[2:] in _names(c) and pork in c.answer
    assert [(m.surface, m.name) for m in lk.scan("回过肉 用啥肉啊") if m.method == "pinyin"] == [("回过肉", "回锅肉")]
    # a word of its own that sounds like a name is no typo of it
    assert lk.link("石油", ("ingredient",)).type == "unknown"


# -- precision: English questions link nothing new --------------------------------------------------------------
@pytest.mark.parametrize("corpus", ["en-wbushey", "en-ourtable", "en-communitykitchen"])
def test_english_questions_link_nothing_by_pinyin(kb, corpus):
    _, lk = kb
    questions = [t["text"] for line in (GEN / corpus / "cases.jsonl").read_text(encoding="utf-8").splitlines()
                 if line.strip() for t in json.loads(line)["turns"]]
    assert len(questions) >= 30
    for q in questions:
        assert not [m for m in lk.scan(q) if m.method == "pinyin"], q
        for run in re.findall(r"[A-Za-z]+(?:[ '\-][A-Za-z]+)*", q):
            toks = run.split()
            for i in range(len(toks)):
                for j in range(i + 1, min(len(toks), i + 4) + 1):
                    assert lk.link(" ".join(toks[i:j])).method != "pinyin", (q, toks[i:j])


# -- "以 Y 替代 X": the dish uses Y in place of X ---------------------------------------------------------------
COLA_RICE = HTC / "staple" / "可乐炒饭.md"
SHEPHERD = GEN / "zh-jzkitchen" / "docs" / "2015-01-09-英倫經典牧羊人派-素食版本-扁豆甜薯派-Veggie-Shepherd-Pie-with-Sweet-Potatoes-Mash.md"


def test_dish_uses_y_in_place_of_x():
    from threadgraph.knowledge.cues import read

    def subs(path: Path, n: int, quote: str) -> list[tuple[str, str]]:
        quoted(path, n, quote)
        line = path.read_text(encoding="utf-8").splitlines()[n - 1]
        return [(c.x, c.y) for c in read(line) if c.kind == "substitute"]

    # 以 Y 替代 X (HowToCook, two recipes); "传统" is no part of the name, and 可乐 keeps its 可
    assert ("豆瓣酱", "咸鸭蛋") in subs(MAPO, 5, "以咸鸭蛋替代传统豆瓣酱")
    assert ("糖", "可乐") in subs(COLA_RICE, 3, "以可乐替代糖调味")
    # the same statement with 用 (zh-jzkitchen): the vegetarian version uses lentils in place of minced beef
    assert ("免治牛肉", "扁豆 lentil") in subs(SHEPHERD, 21, "則用扁豆 lentil 代替免治牛肉")
    # 以 naming a convention replaces nothing; 难以取代 is no replacement
    assert subs(HTC / "vegetable_dish" / "雷椒皮蛋.md", 12, "后面介绍以“青椒”代替") == []
    assert subs(SHEPHERD, 21, "其他豆類難以取代") == subs(SHEPHERD, 21, "則用扁豆")
