"""Everyday questions a newcomer types (issue 11): typos in a multi-word name, a modifier-led
Chinese item, a pantry with few recipes, a dish typed with a homophone, an amount asked with a
one-character item and a two-part question. Real ingestion (graph and, for the bot, the test
model) of bundled and dev corpus files; expected values are literals of those files."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPORA, GEN, bot_over, quoted

HOW = CORPORA / "howtocook" / "dishes"
PD = CORPORA / "pagerduty-incident-response" / "docs"
EHR = GEN / "en-ehrensberger"


def _linker(tmp_path: Path, files: dict[str, Path]):
    """A real linker (names and KB vocabulary) over a graph-only ingestion of ``files``."""
    import shutil

    from threadgraph.bot.linker import Linker
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import KnowledgeBase, current_build
    from threadgraph.settings import Settings

    for rel, path in files.items():
        (tmp_path / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, tmp_path / "docs" / rel)
    st = Settings(data_dir=tmp_path / "data", embedding_model_path=None, embedding_model="none/none",
                  openai_api_key=None, _env_file=None)
    assert run_ingest([tmp_path / "docs"], st, no_vectors=True).ok
    build = current_build(tmp_path / "data")
    kb = KnowledgeBase(build, GraphStore(build / "graph.kuzu", read_only=True), {}, None, None)
    kb.names = kb._load_names()
    return Linker(kb.names, vocabulary=kb.vocabulary())


def test_a_multiword_name_typed_with_a_typo_per_word_reads_as_the_name(tmp_path):
    """PagerDuty's role "Incident Commander" typed "incdent comander" and "Customer Liaison" typed
    "custmer liason"; en-ehrensberger's own chat case "shortbread w/o vanila sugar ok??" names the
    "vanilla sugar" its recipe lists. Words the KB writes are never changed."""
    lk = _linker(tmp_path / "pd", {"different_roles.md": PD / "before" / "different_roles.md"})
    assert lk.correct_names("who does the incdent comander tell") == "who does the incident commander tell"
    assert lk.correct_names("what does the custmer liason do") == "what does the customer liaison do"
    assert lk.correct_names("who is the incident commander") == "who is the incident commander"
    shortbread = EHR / "docs" / "recipes" / "3-ingredient-shortbread.md"
    lk = _linker(tmp_path / "ehr", {"3-ingredient-shortbread.md": shortbread})
    assert "vanilla sugar" in shortbread.read_text(encoding="utf-8")
    assert lk.correct_names("shortbread w/o vanila sugar ok??") == "shortbread w/o vanilla sugar ok??"
    # a real word one edit from a name's word is left alone when it is not a typo of a whole name
    assert lk.correct_names("Making shortbread with vanilla sugar") == "Making shortbread with vanilla sugar"


def test_a_chinese_dish_typed_with_a_homophone_and_a_skipped_middle_links(tmp_path):
    """"西红柿超蛋" (超 for 炒, 鸡 left out) is the bundled 西红柿炒鸡蛋; "宫爆鸡丁" (爆 for 保) is 宫保鸡丁."""
    lk = _linker(tmp_path, {"西红柿炒鸡蛋.md": HOW / "vegetable_dish" / "西红柿炒鸡蛋.md",
                            "宫保鸡丁.md": HOW / "meat_dish" / "宫保鸡丁" / "宫保鸡丁.md"})
    assert lk.link("西红柿超蛋", ("recipe",)).name == "西红柿炒鸡蛋"
    assert lk.link("宫爆鸡丁", ("recipe",)).name == "宫保鸡丁"


@pytest.fixture(scope="module")
def recipes_ask(tmp_path_factory):
    root = tmp_path_factory.mktemp("everyday")
    files = {"麻婆豆腐.md": HOW / "meat_dish" / "麻婆豆腐" / "麻婆豆腐.md",
             "粉蒸肉.md": HOW / "meat_dish" / "粉蒸肉.md",
             "凉拌豆腐.md": HOW / "vegetable_dish" / "凉拌豆腐.md",
             "鱼香茄子.md": HOW / "meat_dish" / "鱼香茄子" / "鱼香茄子.md",
             "西红柿炒鸡蛋.md": HOW / "vegetable_dish" / "西红柿炒鸡蛋.md"}
    return bot_over(root, files)


def test_a_modifier_led_item_falls_back_to_the_head_the_recipe_records(recipes_ask):
    """粉蒸肉 lists 郫县豆瓣酱; 麻婆豆腐 records 咸鸭蛋 in place of 豆瓣酱 (its line 5): asked about
    郫县豆瓣酱 in 麻婆豆腐, the answer says so and names the head it read."""
    quoted(HOW / "meat_dish" / "麻婆豆腐" / "麻婆豆腐.md", 5, "以咸鸭蛋替代传统豆瓣酱")
    quoted(HOW / "meat_dish" / "粉蒸肉.md", 16, "郫县豆瓣酱")
    a = recipes_ask("麻婆豆腐里的郫县豆瓣酱可以换成什么", thread="head")
    assert a.found and "咸鸭蛋" in a.answer and "豆瓣酱" in a.answer


def test_a_pantry_with_few_recipes_gets_a_line_per_thing(recipes_ask):
    """A casual pantry question ("我家冰箱里就剩…") lists, for each thing, recipes using it and what
    they still need: 凉拌豆腐 uses 豆腐 (its line 11 onwards)."""
    quoted(HOW / "vegetable_dish" / "凉拌豆腐.md", 11, "豆腐")
    a = recipes_ask("我家冰箱里就剩豆腐和肉末了，可以做什么", thread="pantry")
    assert a.intent == "pantry"
    assert "用到豆腐的" in a.answer and "凉拌豆腐" in a.answer


def test_an_amount_with_a_one_character_item_and_a_two_part_question(recipes_ask):
    """"盐" is one character, no word of its own in free text, but one of 西红柿炒鸡蛋's items: its
    amount lines answer, alone or after the steps of a two-part question typed with a homophone."""
    amount = quoted(HOW / "vegetable_dish" / "西红柿炒鸡蛋.md", 27, "1.5-2g")
    a = recipes_ask("西红柿炒鸡蛋的盐要放多少", thread="salt")
    assert a.found and amount in a.answer
    a = recipes_ask("西红柿超蛋怎么做 盐要放多少", thread="two")
    assert a.found and a.intent == "steps" and amount in a.answer
    assert quoted(HOW / "vegetable_dish" / "西红柿炒鸡蛋.md", 33, "西红柿洗净") in a.answer
