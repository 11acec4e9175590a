"""Follow-ups about one item of a recipe and "what else can I add?" (bot/intents/follow.py
``item_focus``, bot/intents/contains.py ``extras``; cues are data in follow.yaml and
contains.yaml). Documents and questions are literals from the dev corpora:

* zh-zehua recipes/new-orleans-chicken.md:45 "如果要放烟熏液, 在完成前 5 分钟吧烟熏液抹在鸡肉上"
* zh-cpq caishen-zhushou.md:41 "冰糖或者白砂糖（卤水提鲜）", :43 "比如还可以搭配几个干辣椒"
* zh-cpq zhuhou-roujiang-laomian.md:37 "4、蒜头油或者香油 1 勺"
* zh-drinks drinks/sweet-soup/mung-bean.md:56 "放入薄荷叶（可选）"
* en-ehrensberger coconut-almond-bars.md:17 "1 c. grated, unsweetened coconut (75 g) - optional"
* zh-meow 黑椒牛柳.md:5 "**菲力牛肉**、**西冷牛肉**或**牛肋眼肉**做此菜最佳",
  韩式凉拌面.md:7 "两勺雪碧（或1/3勺小苏打加一勺水）"
* en-communitykitchen data/recipes.json (one file, many recipes): Moi Moi's "Boiled eggs (optional,
  quartered)"; Jollof's "Protein of choice (chicken, beef, or fish – optional)" is not Moi Moi's
"""

from __future__ import annotations


import pytest

from conftest import REPO, bot_over
from threadgraph.bot.intents import get

GEN = REPO / "benchmarks" / "generalization"


def test_the_extras_cue_reads_questions_of_both_languages():
    h = get("contains")
    assert h.asks_extras("它还可以加什么？", "zh")
    assert h.asks_extras("还可以加点别的配料吗？", "zh")
    assert h.asks_extras("What else can I add to the coconut-almond bars?", "en")
    assert not h.asks_extras("绿豆汤需要准备什么？", "zh")
    assert not h.asks_extras("What goes into the Palak Paneer?", "en")


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("itemfocus"),
                    {"zehua/new-orleans-chicken.md": GEN / "zh-zehua/docs/recipes/new-orleans-chicken.md",
                     "cpq/caishen-zhushou.md": GEN / "zh-cpq/docs/caishen-zhushou.md",
                     "drinks/mung-bean.md": GEN / "zh-drinks/docs/drinks/sweet-soup/mung-bean.md",
                     "ehrensberger/coconut-almond-bars.md": GEN / "en-ehrensberger/docs/recipes/coconut-almond-bars.md",
                     "communitykitchen/recipes.json": GEN / "en-communitykitchen/docs/data/recipes.json",
                     "meow/黑椒牛柳.md": GEN / "zh-meow/docs/黑椒牛柳.md",
                     "cpq/zhuhou-roujiang-laomian.md": GEN / "zh-cpq/docs/zhuhou-roujiang-laomian.md",
                     "meow/韩式凉拌面.md": GEN / "zh-meow/docs/韩式凉拌面.md"})


def test_and_x_after_a_recipe_list_is_about_x_in_that_recipe(ask):
    ask("新奥尔良烤鸡要用哪些材料？", thread="chicken")
    a = ask("那烟熏液呢？", thread="chicken")
    assert a.found and "如果要放烟熏液, 在完成前 5 分钟吧烟熏液抹在鸡肉上" in a.answer
    ask("财神猪手要哪些大料？", thread="trotters")
    a = ask("那冰糖呢？", thread="trotters")
    assert a.found and "冰糖可以用白糖代替" in a.answer  # 白砂糖 is recorded under its canonical name 白糖


def test_what_else_can_i_add_quotes_the_recipes_offers(ask):
    ask("财神猪手要哪些大料？", thread="extras-zh")
    a = ask("它还可以加什么？", thread="extras-zh")
    assert a.found and "比如还可以搭配几个干辣椒" in a.answer
    ask("绿豆汤需要准备什么？", thread="extras-drinks")
    a = ask("还可以加点别的配料吗？", thread="extras-drinks")
    assert a.found and "薄荷叶" in a.answer and "西米" in a.answer


def test_what_else_can_i_add_en_stays_inside_the_recipe(ask):
    a = ask("What else can I add to the coconut-almond bars?", thread="bars")
    assert a.found and "unsweetened coconut" in a.answer
    a = ask("What else can I add to moi moi?", thread="moimoi")
    assert a.found and "Boiled eggs" in a.answer
    assert "Protein of choice" not in a.answer


def test_which_kind_of_item_is_answered_from_the_recipes_lines(ask):
    a = ask("黑椒牛柳用什么牛肉最好？", thread="kind-zh")
    assert a.found and "菲力牛肉、西冷牛肉或牛肋眼肉做此菜最佳" in a.answer
    a = ask("它可以加什么菇？", thread="kind-zh")  # a kind question is no substitution a follow-up continues
    assert a.intent != "substitute"
    a = ask("Which beans can I use for moi moi?", thread="kind-en")
    assert a.found and "2 cups peeled beans (black-eyed or brown beans)" in a.answer


def test_the_head_of_a_slot_phrase_is_the_asked_item(ask):
    a = ask("韩式凉拌面的拌酱里雪碧可以换成什么？", thread="sprite")
    assert a.found and "两勺雪碧（或1/3勺小苏打加一勺水）" in a.answer


def test_a_substitute_is_named_as_the_recipe_line_writes_it(ask):
    a = ask("柱侯肉酱捞面没有蒜头油可以吗？", thread="oil")
    assert a.found and "香油" in a.answer
