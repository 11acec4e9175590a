"""The names a recipe title answers to by its structure (knowledge.text.title_names, used by the
linker): alternatives of a slash with their shared head or tail, a bracketed other name, a version
note dropped; an alias two recipes share links to neither. Titles are quoted from dev corpora."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bot_over, quoted

ROOT = Path(__file__).resolve().parents[1]
GEN = ROOT / "benchmarks" / "generalization"
SERAPH = GEN / "zh-seraphroy" / "docs"
MEOW = GEN / "zh-meow" / "docs"
EHREN = GEN / "en-ehrensberger" / "docs" / "recipes"

CAKE = quoted(SERAPH / "2025-01-06-萝卜-芋头糕.md", 2, "萝卜/芋头糕")
MEATBALL = quoted(SERAPH / "2025-04-21-潮汕牛肉丸改良版.md", 2, "潮汕牛肉丸改良版")
COOKIE = quoted(SERAPH / "2025-09-02-butter-cookie（蓝罐曲奇版）.md", 2, "Butter Cookie（蓝罐曲奇版）")
SESAME = quoted(MEOW / "麻油鸡.md", 1, "麻油鸡烩饭/烩面/汤面")
TEA_EGG = quoted(MEOW / "茶叶蛋.md", 1, "茶叶蛋（卤蛋）")
BIG_PLATE = quoted(MEOW / "大盘鸡.md", 1, "大盘鸡（老饭骨）")
SPICY = quoted(MEOW / "辣子鸡.md", 1, "辣子鸡（老饭骨）")
FISH = quoted(MEOW / "茄汁龙利鱼or虾滑.md", 1, "茄汁龙利鱼/虾滑")
TOVARICH = quoted(EHREN / "chicken-pork-veggie-tovarich.md", 2, "Chicken/Pork/Veggie Tovarich")
LOAF = quoted(EHREN / "poppyseed-loaf-guarda-style.md", 2, "Poppyseed Loaf (Guarda style)")
PALAK = quoted(EHREN / "palak-paneer-spinach-paneer.md", 2, "Palak Paneer (Spinach Paneer)")


def test_slash_alternatives_expand_with_the_shared_tail_or_head():
    from threadgraph.knowledge.text import title_names

    assert title_names(CAKE) == ["萝卜糕", "芋头糕"]
    assert title_names(SESAME) == ["麻油鸡烩饭", "麻油鸡烩面", "麻油鸡汤面"]
    assert title_names(TOVARICH) == ["Chicken Tovarich", "Pork Tovarich", "Veggie Tovarich"]
    # a cut inside a word is no alternative: the two dishes are not "…龙利" + "鱼" / "虾滑"
    assert "茄汁龙利虾滑" not in title_names(FISH) and "茄汁龙虾滑" not in title_names(FISH)


def test_bracketed_part_is_another_name_or_a_dropped_note():
    from threadgraph.knowledge.text import title_names

    assert title_names(TEA_EGG) == ["茶叶蛋", "卤蛋"]
    assert title_names(PALAK) == ["Palak Paneer", "Spinach Paneer"]
    assert title_names(COOKIE) == ["Butter Cookie"]  # a version note ("…版") is dropped
    assert title_names(LOAF) == ["Poppyseed Loaf"]  # a style note is dropped
    assert title_names(MEATBALL) == ["潮汕牛肉丸"]  # an unbracketed version note too
    assert title_names("Pancakes 2") == ["Pancakes"]  # a version number
    assert title_names("Cheesecake") == []


def _linker(titles):
    from threadgraph.bot.linker import Linker
    from threadgraph.knowledge.kb import EntityName

    names = [EntityName(f"recipe:{t}", t, "recipe", t, f"{t}.md") for t in titles]
    names.append(EntityName("ingredient:萝卜", "萝卜", "ingredient", "萝卜", ""))
    return Linker(names)


def test_linker_links_each_alternative_and_keeps_the_title():
    lk = _linker([CAKE, SESAME, TEA_EGG, TOVARICH, PALAK, "Poppyseed Loaf", LOAF])
    for slot, title in [("萝卜糕", CAKE), ("芋头糕", CAKE), ("麻油鸡汤面", SESAME), ("卤蛋", TEA_EGG),
                        ("pork tovarich", TOVARICH), ("Spinach Paneer", PALAK)]:
        m = lk.link(slot, ("recipe",))
        assert (m.name, m.method) == (title, "alias"), slot
    # an existing name stays its own: "Poppyseed Loaf" is the other recipe, not the Guarda one
    assert lk.link("poppyseed loaf", ("recipe",)).name == "Poppyseed Loaf"
    assert lk.link("萝卜", None).type == "ingredient"
    assert [m.name for m in lk.scan("做萝卜糕没有大的蒸炉能做吗？")] == [CAKE]


def test_alias_of_two_recipes_links_to_neither():
    lk = _linker([BIG_PLATE, SPICY])
    assert lk.link("老饭骨", ("recipe",)).type == "unknown"
    assert lk.link("大盘鸡", ("recipe",)).name == BIG_PLATE
    assert sorted(lk.suggest("老饭骨", ("recipe",))) == sorted([BIG_PLATE, SPICY])


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    """A real bot (test model) over the zh-seraphroy radish/taro cake recipe."""
    return bot_over(tmp_path_factory.mktemp("titles"), {"cake.md": SERAPH / "2025-01-06-萝卜-芋头糕.md"})


def test_question_naming_one_alternative_finds_the_recipe(ask):
    # (before: "知识库里没有关于芋头糕的依据")
    ans = ask("芋头糕怎么做")
    assert ans.found and CAKE in [e.name for e in ans.entities]
    assert "芋头切成" in ans.answer
