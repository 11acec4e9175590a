"""A quantity question naming no recipe but a method and a food ("How long should I steam a
whole fish?"): answered over the recipes whose name holds the food, each with its sentence that
states the amount right after the method; the question's words are read in either language
through ``question_words`` of ``knowledge/lexicon/bilingual.yaml``. Real recipes of two corpora
(HowToCook, en-wbushey), a real bot over them."""

from __future__ import annotations

import pytest

from conftest import CORPORA, GEN, bot_over, quoted

from threadgraph.knowledge.bilingual import question_words

FISH = CORPORA / "howtocook" / "dishes" / "aquatic"
SEA_BASS = FISH / "清蒸鲈鱼" / "清蒸鲈鱼.md"
MANDARIN_FISH = FISH / "葱油桂鱼" / "葱油桂鱼.md"
FISH_SOUP = CORPORA / "howtocook" / "dishes" / "soup" / "昂刺鱼豆腐汤" / "昂刺鱼豆腐汤.md"
WB = GEN / "en-wbushey" / "docs" / "recipes"
SALAD = WB / "salads" / "orange-chicken-and-romaine-salad.md"
PARM = WB / "dinner" / "chicken-parmigiana.md"


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("quantity-kind"), {
        "清蒸鲈鱼.md": SEA_BASS, "葱油桂鱼.md": MANDARIN_FISH, "昂刺鱼豆腐汤.md": FISH_SOUP,
        "orange-chicken-and-romaine-salad.md": SALAD, "chicken-parmigiana.md": PARM})


def test_question_words_in_either_language():
    assert question_words("How long should I steam a whole fish?") == {"methods": ["蒸"], "foods": ["鱼"]}
    assert question_words("蒸鱼要多久？") == {"methods": ["蒸"], "foods": ["鱼"]}
    # the longest Chinese form is read first: an egg, not a chicken too
    assert question_words("鸡蛋要煮多久？") == {"methods": ["煮"], "foods": ["蛋"]}


def test_english_question_over_chinese_recipes(ask):
    bass = quoted(SEA_BASS, 40, "大火清蒸 10 分钟")
    mandarin = quoted(MANDARIN_FISH, 60, "中火蒸 20 分钟")
    evaporate = quoted(FISH_SOUP, 38, "后面会蒸发掉一些")
    a = ask("How long should I steam a whole fish?", thread="en")
    assert a.found, a.answer
    assert bass in a.answer and mandarin in a.answer
    assert evaporate not in a.answer  # 蒸 of 蒸发 (evaporate) is no steaming time


def test_chinese_question(ask):
    a = ask("蒸鱼要多久？", thread="zh")
    assert a.found and quoted(SEA_BASS, 40, "大火清蒸 10 分钟") in a.answer
    assert "昂刺鱼豆腐汤" not in a.answer


def test_english_question_over_english_recipes(ask):
    grill = quoted(SALAD, 30, "Grill chicken 3 to 4 minutes per side")
    bake = quoted(PARM, 25, "Bake for 25 to 30 minutes")
    a = ask("How long do I grill chicken?", thread="wb")
    assert a.found and grill in a.answer, a.answer
    assert bake not in a.answer
