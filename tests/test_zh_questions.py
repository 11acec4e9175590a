"""Chinese questions read right (issue 11): which-one-may-be-left-out follow-ups, action
slots of "要…吗" questions, and other zh understanding cues. Each cue is pinned by questions
and documents of at least two corpora (zh dev corpora, bundled HowToCook); expected values are
literals of the source text, whose lines are checked first (:func:`conftest.quoted`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bot_over, quoted as _quoted

GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
MENU = GEN / "zh-mymenu" / "docs"
HIDE = GEN / "zh-hidetoshi" / "docs"
ZEHUA = GEN / "zh-zehua" / "docs"
CPQ = GEN / "zh-cpq" / "docs"
MEOW = GEN / "zh-meow" / "docs"


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    """A real bot over one recipe of each of five zh dev corpora (test model)."""
    root = tmp_path_factory.mktemp("zhq")
    return bot_over(root, {
        "香辣鸡翅.md": MENU / "meat" / "香辣鸡翅.md",
        "丝瓜炒蛋.md": MENU / "vegetable" / "丝瓜炒蛋.md",
        "牛肉炖土豆.md": HIDE / "meat-dishes" / "牛肉炖土豆.md",
        "risotto.md": ZEHUA / "recipes" / "risotto.md",
        "garlic-spaghetti.md": ZEHUA / "recipes" / "garlic-spaghetti.md",
        "juanbing.md": CPQ / "zhuhou-kaorou-pei-qingguasi-juanbing.md",
    })


# -- "其中哪个可以不放？" after a recipe question: the remembered recipe's optional items ------------------------
def test_which_one_may_be_left_out_follow_up(ask):
    chili = _quoted(MENU / "meat" / "香辣鸡翅.md", 11, "小米辣（不吃辣可以不要）").split("（")[0]
    ask("香辣鸡翅要用哪些辣椒？", thread="wings")
    a = ask("其中哪个可以不放？", thread="wings")
    assert a.intent == "contains" and a.found
    assert chili in a.answer
    cinnamon = _quoted(HIDE / "meat-dishes" / "牛肉炖土豆.md", 20, "| 肉桂      | 1 小段（可选）").split("|")[1].strip()
    ask("牛肉炖土豆要准备哪些香料？", thread="stew")
    b = ask("其中哪个可以不放？", thread="stew")
    assert b.intent == "contains" and b.found
    assert cinnamon in b.answer
    # the recipe named in the question itself
    c = ask("香辣鸡翅里哪个可以不放", thread="named")
    assert chili in c.answer


# -- "米要先泡吗" / "还要另外加酱吗": the slot after 要 is an action, not an ingredient ----------------------------------
def test_action_slot_reads_as_general(ask):
    _quoted(ZEHUA / "recipes" / "risotto.md", 29, "大米尽量多泡一会, 不然容易夹生")
    a = ask("risotto 米要先泡吗", thread="rice")
    assert a.intent == "general"
    assert "先泡的依据" not in a.answer
    sauce = _quoted(CPQ / "zhuhou-kaorou-pei-qingguasi-juanbing.md", 113, "可以根据你的喜好加蛋黄酱")
    b = ask("卷饼还要另外加酱吗？", thread="sauce")
    assert b.intent == "general" and b.found
    assert "蛋黄酱" in sauce and "蛋黄酱" in b.answer


def test_action_cue_leaves_ingredient_slots_alone():
    """An item slot naming a thing keeps the required reading (丝瓜炒蛋 / 蒜香意面 questions)."""
    from threadgraph.bot.intents import get
    from threadgraph.bot.query import Understanding

    h = get("required")
    assert not h.asks_action(Understanding(text="丝瓜炒蛋最后要加生抽吗", intent="required", language="zh",
                                           slot_texts={"item": "生抽"}))
    assert h.asks_action(Understanding(text="猪肝做之前要干嘛 会苦吗", intent="required", language="zh",
                                       slot_texts={"item": "干嘛 会苦"}))
    assert h.asks_action(Understanding(text="照烧鸡排饭的照烧汁一定要自己调吗", intent="required", language="zh",
                                       slot_texts={"item": "自己调"}))


# -- "最后可以加点X提鲜": a finishing touch is optional, also in a step ------------------------------------------------
def test_finishing_touch_is_optional(tmp_path):
    from conftest import CORPORA, cue_pairs, contains_required, extract_copies

    s1 = _quoted(MENU / "vegetable" / "丝瓜炒蛋.md", 21, "最后可以加点生抽提鲜")
    assert cue_pairs(s1, "zh.finish_add_x") == [("生抽", "")]
    fish = CORPORA / "howtocook" / "dishes" / "meat_dish" / "清蒸鳜鱼" / "清蒸鳜鱼.md"
    s2 = _quoted(fish, 37, "鳜鱼身上打上花刀，放姜片，有条件的可以放点猪油，装盘在下面垫一个筷子")
    assert cue_pairs(s2, "zh.finish_add_x") == [("猪油", "")]
    # the rest of an ingredient used in an earlier step, put on as decoration, is no optional item (zh-jzkitchen)
    curry = next(p for p in (GEN / "zh-jzkitchen" / "docs").glob("2015-01-12*"))
    s3 = _quoted(curry, 43, "最後可放上剩餘的青檸葉及辣椒絲作裝飾")
    assert cue_pairs(s3, "zh.finish_add_x") == []
    ex = extract_copies(tmp_path, MENU / "vegetable" / "丝瓜炒蛋.md")
    assert contains_required(ex, "丝瓜炒蛋")["生抽"] is False
    assert contains_required(ex, "丝瓜炒蛋")["丝瓜"] is True


def test_finishing_touch_answers_required_question(ask):
    a = ask("丝瓜炒蛋最后要加生抽吗？", thread="soy")
    assert a.intent == "required"
    assert "可选" in a.answer and "生抽" in a.answer
