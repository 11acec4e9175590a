"""A third newcomer's recipe questions (issue 11), pinned on documents of at least two corpora
(bundled HowToCook and the en-wbushey dev corpus); expected values are literals of the source
text, whose lines are checked first (:func:`conftest.quoted`).

- a follow-up naming no recipe ("那老抽呢？", "and the garlic?") after an answer about a dish no
  single recipe is (a family: 南派红烧肉, 徽派红烧肉 …) stays about that family, not about another
  recipe that mentions the item; a question naming a recipe ends it;
- "not in the list, so yes" first looks for a kind of the asked item in the list (生抽 for 酱油 /
  soy sauce: knowledge/lexicon/kinds.yaml) and answers about that kind;
- a refusal names the question's own word, and an English word of several senses ("stock") is not
  read as a food outside a food question;
- "how much X" / "多少X" about one recipe leads with the recipe's line giving X's amount.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPORA, bot_over, quoted

HTC = CORPORA / "howtocook" / "dishes"
GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
WB = GEN / "en-wbushey" / "docs" / "recipes"

HONGSHAO = HTC / "meat_dish" / "红烧肉"
HUIPAI = HTC / "meat_dish" / "徽派红烧肉" / "徽派红烧肉.md"
XIAOMILA = HTC / "meat_dish" / "小米辣炒肉.md"
EGG_RICE = HTC / "staple" / "蛋炒饭.md"
MAPO = HTC / "meat_dish" / "麻婆豆腐" / "麻婆豆腐.md"
SP_CHILI = WB / "soups" / "sweet-potato-chili.md"
WT_CHILI = WB / "dinner" / "white-turkey-chili.md"
GOULASH = WB / "dinner" / "goulash.md"


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    """A real bot over HowToCook recipes and en-wbushey recipes (test model)."""
    root = tmp_path_factory.mktemp("newc3")
    docs = {
        "htc/南派红烧肉.md": HONGSHAO / "南派红烧肉.md",
        "htc/简易红烧肉.md": HONGSHAO / "简易红烧肉.md",
        "htc/徽派红烧肉.md": HUIPAI,
        "htc/小米辣炒肉.md": XIAOMILA,
        "htc/蛋炒饭.md": EGG_RICE,
        "htc/麻婆豆腐.md": MAPO,
        "wb/sweet-potato-chili.md": SP_CHILI,
        "wb/white-turkey-chili.md": WT_CHILI,
        "wb/goulash.md": GOULASH,
    }
    return bot_over(root, docs)


# -- Q4: "那老抽呢？" after "红烧肉里的冰糖可以不放吗？" ------------------------------------------------------
def test_follow_up_keeps_the_dish_family_zh(ask):
    quoted(HONGSHAO / "南派红烧肉.md", 14, "`老抽`")
    quoted(HUIPAI, 16, "老抽")
    quoted(XIAOMILA, 47, "也可以加老抽")  # another recipe, where it is optional
    first = ask("红烧肉里的冰糖可以不放吗?", thread="hsr")
    assert "南派红烧肉" in first.answer
    a = ask("那老抽呢?", thread="hsr")
    assert a.found
    assert "南派红烧肉" in a.answer and "徽派红烧肉" in a.answer
    assert "小米辣炒肉" not in a.answer and "可以不放" not in a.answer


def test_follow_up_keeps_the_dish_family_en(ask):
    quoted(HUIPAI, 16, "老抽")
    first = ask("Can I leave out the 冰糖 in 红烧肉?", thread="hsr-en")
    assert "南派红烧肉" in first.answer
    a = ask("and the 老抽?", thread="hsr-en")
    assert a.found
    assert "南派红烧肉" in a.answer and "徽派红烧肉" in a.answer and "小米辣炒肉" not in a.answer


def test_a_named_recipe_ends_the_family(ask):
    ask("红烧肉里的冰糖可以不放吗?", thread="named")
    a = ask("小米辣炒肉的老抽可以不放吗?", thread="named")
    assert "小米辣炒肉" in a.answer and "南派红烧肉" not in a.answer


# -- Q14: "Can I make egg fried rice without soy sauce?" where the list names 生抽 -----------------------------
MYMENU = GEN / "zh-mymenu" / "docs"
WINGS = MYMENU / "meat" / "香辣鸡翅.md"
COWPEA = MYMENU / "half-meat" / "豇豆炒肉沫.md"


@pytest.fixture(scope="module")
def ask_kinds(tmp_path_factory):
    """A real bot over HowToCook's 蛋炒饭 and 麻婆豆腐 and zh-mymenu recipes (test model)."""
    root = tmp_path_factory.mktemp("newc3k")
    return bot_over(root, {"htc/蛋炒饭.md": EGG_RICE, "htc/麻婆豆腐.md": MAPO,
                           "mm/香辣鸡翅.md": WINGS, "mm/豇豆炒肉沫.md": COWPEA})


def test_a_listed_kind_answers_a_leave_out_question_en(ask_kinds):
    kind = quoted(EGG_RICE, 19, "生抽")
    a = ask_kinds("Can I make egg fried rice without soy sauce?", thread="egg")
    assert a.answer.startswith("Better not")
    assert kind in a.answer and "not in the ingredient list" not in a.answer


def test_a_listed_kind_answers_a_leave_out_question_zh(ask_kinds):
    kind = quoted(WINGS, 13, "生抽")
    a = ask_kinds("香辣鸡翅可以不放酱油吗?", thread="wings")
    assert a.answer.startswith("最好别省")
    assert kind in a.answer and "原料表里没有" not in a.answer



# -- Q25: "What is PagerDuty's stock price today?" answered "no evidence about 高汤" ---------------------------
SHAOMAI = HTC / "staple" / "鲜肉烧卖.md"
PD = CORPORA / "pagerduty-incident-response" / "docs"


@pytest.fixture(scope="module")
def ask_senses(tmp_path_factory):
    """A real bot over a HowToCook recipe listing 高汤 and PagerDuty SOP pages (test model)."""
    root = tmp_path_factory.mktemp("newc3s")
    return bot_over(root, {"htc/鲜肉烧卖.md": SHAOMAI, "pd/leadership.md": PD / "crisis" / "leadership.md",
                           "pd/about.md": PD / "about.md"})


def test_a_word_of_several_senses_is_not_translated_outside_food(ask_senses):
    quoted(SHAOMAI, 21, "高汤或浓汤宝")
    quoted(PD / "crisis" / "leadership.md", 50, "stock market crash")
    a = ask_senses("What is PagerDuty's stock price today?", thread="stock")
    assert "高汤" not in a.answer and "汤锅" not in a.answer
    if not a.found:
        assert "stock" in a.answer  # a refusal names the question's own word


def test_a_word_of_several_senses_keeps_its_food_sense_in_a_food_question(ask_senses):
    alt = quoted(SHAOMAI, 21, "浓汤宝")
    a = ask_senses("What can I use instead of stock?", thread="stock-food")
    assert a.found and "高汤" in a.answer and alt in a.answer


# -- Q10: "麻婆豆付要放多少花椒啊" answered by an untitled dump of the recipe's amounts -----------------------
def test_an_amount_question_leads_with_the_items_line_zh(ask):
    line = quoted(MAPO, 34, "20 颗花椒")
    a = ask("麻婆豆腐要放多少花椒啊", thread="mapo")
    assert a.found and a.answer.splitlines()[0].startswith("麻婆豆腐")
    assert line in a.answer.splitlines()[1] and "蒜蓉辣酱" not in a.answer


def test_an_amount_question_leads_with_the_items_line_en(ask):
    quoted(WT_CHILI, 9, "garlic: 3 cloves")
    a = ask("How much garlic goes in White Turkey Chili?", thread="chili-amount")
    assert a.found and "3 cloves" in a.answer.splitlines()[1]
    assert "cumin" not in a.answer.casefold()
