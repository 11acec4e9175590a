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


# -- Chinese dish titles: the names a question uses for them -------------------------------------------------------
def test_cjk_title_variants():
    from threadgraph.bot.linker import cjk_title_variants

    soup = _quoted(GEN / "zh-drinks" / "docs" / "drinks" / "soup" / "sweet-soup.md", 1, "养生甜汤制作指南")
    assert "养生甜汤" in cjk_title_variants(soup)
    teri = _quoted(MEOW / "照烧鸡排饭.md", 1, "日式照烧鸡排饭")
    assert "照烧鸡排饭" in cjk_title_variants(teri)
    jz = GEN / "zh-jzkitchen" / "docs"
    pork = _quoted(jz / "2017-01-01-減鹽食譜-檸檬洋蔥豬柳.md", 4, "減鹽食譜 - 檸檬洋蔥豬柳")
    assert "檸檬洋蔥豬柳" in cjk_title_variants(pork) and "減鹽食譜" not in cjk_title_variants(pork)
    wings = _quoted(jz / "2014-09-16-水牛城雞翼-Buffalo-Chicken-Wings-吃完一口立即有衝動想吃多一口.md", 4,
                    "水牛城雞翼 Buffalo Chicken Wings – 吃完一口立即有衝動想吃多一口")
    got = cjk_title_variants(wings)
    assert "水牛城雞翼" in got and "Buffalo Chicken Wings" in got
    assert not any("一口" in v for v in got)  # the tagline after the dish is no name of it
    lox = _quoted(GEN / "zh-seraphroy" / "docs" / "2025-08-24-生腌三文鱼gravlax-lox.md", 2, "生腌三文鱼Gravlax/Lox")
    assert "Gravlax" in cjk_title_variants(lox)


# -- "R没有X可以用什么？" / "R不想吃X可以换成什么？": a substitute question without 代替 ---------------------------------
@pytest.fixture(scope="module")
def ask2(tmp_path_factory):
    """A real bot over recipes of zh-hidetoshi, zh-mymenu, zh-meow and zh-seraphroy (test model)."""
    root = tmp_path_factory.mktemp("zhq2")
    return bot_over(root, {
        "新疆马肠子抓饭.md": HIDE / "staple-dishes" / "新疆马肠子抓饭.md",
        "咖喱牛肉饭.md": MENU / "staple" / "咖喱牛肉饭.md",
        "照烧鸡排饭.md": MEOW / "照烧鸡排饭.md",
        "gravlax.md": GEN / "zh-seraphroy" / "docs" / "2025-08-24-生腌三文鱼gravlax-lox.md",
    })


def test_what_to_use_without_substitute_word(ask2):
    broth = _quoted(HIDE / "staple-dishes" / "新疆马肠子抓饭.md", 46, "倒入跟大米1:1比例的肉汤或者清水")
    a = ask2("马肠子抓饭没有肉汤可以用什么？", thread="broth")
    assert a.intent == "substitute" and a.found
    assert "清水" in broth and "清水" in a.answer
    rice = _quoted(MENU / "staple" / "咖喱牛肉饭.md", 4, "熟米饭/面条也行")
    b = ask2("咖喱牛肉饭不想吃米饭可以换成什么？", thread="rice")
    assert b.intent == "substitute" and b.found
    assert "面条" in rice and "面条" in b.answer


def test_dish_named_by_title_variant(ask2):
    sauce = _quoted(MEOW / "照烧鸡排饭.md", 5, "也可用现成的 Teriyaki 汁代替")
    a = ask2("照烧鸡排饭的照烧汁一定要自己调吗？", thread="teri")
    assert a.found and "日式照烧鸡排饭" in [e.name for e in a.entities]
    assert "Teriyaki" in sauce and any("Teriyaki" in p.text for p in a.passages)
    b = ask2("gravlax 要腌几天啊", thread="lox")
    assert b.found and "生腌三文鱼Gravlax/Lox" in [e.name for e in b.entities]


# -- a dish named without the middle of its name ("咖喱饭" for 咖喱牛肉饭) ---------------------------------------------
def _recipe_linker(titles: list[str]):
    from threadgraph.bot.linker import Linker
    from threadgraph.knowledge.kb import EntityName

    return Linker([EntityName(f"recipe:{t}", t, "recipe", t, f"{t}.md") for t in titles])


def test_abbreviated_dish_name():
    from threadgraph.bot.query import CTX_TYPES

    curry = _quoted(MENU / "staple" / "咖喱牛肉饭.md", 1, "# 咖喱牛肉饭").lstrip("# ")
    lk = _recipe_linker([curry, "番茄炒蛋", "蛋炒饭"])
    assert lk.link("咖喱饭", CTX_TYPES).name == curry
    # HowToCook's tomato dishes: "西红柿牛腩" names one of them, "西红柿鸡蛋" is left to the fuzzy matcher
    from conftest import CORPORA

    dishes = CORPORA / "howtocook" / "dishes"
    titles = sorted({p.stem for p in dishes.rglob("西红柿*.md")})
    assert {"西红柿土豆炖牛肉", "西红柿炒鸡蛋", "西红柿鸡蛋汤"} <= set(titles)
    lk2 = _recipe_linker(titles)
    assert lk2.link("西红柿炖牛肉", CTX_TYPES).name == "西红柿土豆炖牛肉"
    assert lk2.link("西红柿鸡蛋", CTX_TYPES).name == "西红柿炒鸡蛋"  # not 西红柿鸡蛋汤 / 西红柿鸡蛋挂面
    # two dishes it could shorten (zh-meow's 咖喱鸡腿饭 beside zh-mymenu's): none
    assert _recipe_linker([curry, "咖喱鸡腿饭"])._abbreviated_dish("咖喱饭", CTX_TYPES) is None


def test_abbreviated_dish_and_item_of_the_recipe(ask3):
    rice = _quoted(MENU / "staple" / "咖喱牛肉饭.md", 4, "熟米饭/面条也行")
    a = ask3("咖喱饭 没米饭了 能用啥", thread="curry")
    assert a.intent == "substitute" and a.found
    assert a.answer.startswith("做咖喱牛肉饭时，熟米饭可以用面条代替")
    assert "面条" in rice


@pytest.fixture(scope="module")
def ask3(tmp_path_factory):
    """A real bot over zh-mymenu's curry recipe and a neighbour (test model)."""
    root = tmp_path_factory.mktemp("zhq3")
    return bot_over(root, {"咖喱牛肉饭.md": MENU / "staple" / "咖喱牛肉饭.md",
                           "香辣鸡翅.md": MENU / "meat" / "香辣鸡翅.md"})


# -- "那陈醋放多少？" / "它的土豆要注意什么？": an item of the remembered recipe ------------------------------------------
@pytest.fixture(scope="module")
def ask4(tmp_path_factory):
    """A real bot over zh-mymenu's 干锅花菜 and 青椒小炒肉 (both use 陈醋) and zh-zehua's borscht
    and potato dishes (test model)."""
    root = tmp_path_factory.mktemp("zhq4")
    return bot_over(root, {"干锅花菜.md": MENU / "vegetable" / "干锅花菜.md",
                           "青椒小炒肉.md": MENU / "meat" / "青椒小炒肉.md",
                           "borscht.md": ZEHUA / "recipes" / "borscht.md",
                           "potato.md": ZEHUA / "recipes" / "shredded-potato.md"})


def test_follow_on_item_keeps_the_recipe(ask4):
    vinegar = _quoted(MENU / "vegetable" / "干锅花菜.md", 31, "加入2克陈醋")
    ask4("干锅花菜要准备什么调料？", thread="v")
    a = ask4("那陈醋放多少？", thread="v")
    assert a.found and "干锅花菜" in [e.name for e in a.entities]
    assert all(p.doc == "干锅花菜.md" for p in a.passages)
    assert any(vinegar in p.text for p in a.passages)
    soak = _quoted(ZEHUA / "recipes" / "borscht.md", 32, "土豆一定要用水泡")
    ask4("罗宋汤要放哪些菜？", thread="b")
    b = ask4("它的土豆要注意什么？", thread="b")
    assert "罗宋汤" in [e.name for e in b.entities]
    assert any(soak in p.text for p in b.passages)


# -- a "required" verdict quotes the recipe's own line saying the item must not be left out ------------------------
def test_required_quotes_must_line(tmp_path):
    salt = _quoted(ZEHUA / "recipes" / "garlic-spaghetti.md", 39, "盐, 胡椒粉不能少, 不然没味")
    oil = _quoted(CPQ / "chaoshan-suantoulao.md", 27, "食用油会用的比较多，你可以理解为芝麻香油那样的作用，所以油是少不了的。")
    ask = bot_over(tmp_path, {"garlic-spaghetti.md": ZEHUA / "recipes" / "garlic-spaghetti.md",
                              "chaoshan-suantoulao.md": CPQ / "chaoshan-suantoulao.md"})
    a = ask("蒜香意面的盐和胡椒粉能省掉吗？", thread="s")
    assert a.intent == "required" and a.answer.startswith("最好别省")
    assert salt in a.answer
    b = ask("潮汕蒜头朥一定要放食用油吗？", thread="o")
    assert b.intent == "required" and oil in b.answer


# -- "哪个汤不用放生抽？": which dish of a kind goes without X --------------------------------------------------------
def test_which_kind_goes_without(tmp_path):
    soy = _quoted(MENU / "soup" / "番茄蛋汤.md", 8, "- 生抽")
    gin = _quoted(GEN / "zh-drinks" / "docs" / "drinks" / "cocktail" / "martini.md", 15, "金酒 60ml")
    rum = _quoted(GEN / "zh-drinks" / "docs" / "drinks" / "cocktail" / "mojito.md", 15, "白朗姆酒 60ml")
    ask = bot_over(tmp_path, {"玉米排骨汤.md": MENU / "soup" / "玉米排骨汤.md", "番茄蛋汤.md": MENU / "soup" / "番茄蛋汤.md",
                              "drinks/cocktail/martini.md": GEN / "zh-drinks" / "docs" / "drinks" / "cocktail" / "martini.md",
                              "drinks/cocktail/mojito.md": GEN / "zh-drinks" / "docs" / "drinks" / "cocktail" / "mojito.md"})
    a = ask("哪个汤不用放生抽？", thread="s")
    assert a.intent == "exclude" and "玉米排骨汤" in a.answer and "番茄蛋汤" not in a.answer
    assert soy and gin and rum
    b = ask("哪款鸡尾酒不用金酒？", thread="c")
    assert b.intent == "exclude" and "莫吉托" in b.answer and "马天尼" not in b.answer


# -- "要用哪些香料？" lists the recipe's ingredients; "哪些菜用到X" counts the kinds of X ("熏X") -------------------------
@pytest.fixture(scope="module")
def ask5(tmp_path_factory):
    """A real bot over zh-hidetoshi and HowToCook recipes (test model)."""
    from conftest import CORPORA

    htc = CORPORA / "howtocook" / "dishes"
    root = tmp_path_factory.mktemp("zhq5")
    return bot_over(root, {"大盘鸡.md": HIDE / "other-dishes" / "大盘鸡.md",
                           "马肠子纳仁面.md": HIDE / "noodle-dishes" / "马肠子纳仁面.md",
                           "新疆马肠子抓饭.md": HIDE / "staple-dishes" / "新疆马肠子抓饭.md",
                           "茶叶蛋.md": htc / "breakfast" / "茶叶蛋.md",
                           "脆皮豆腐.md": htc / "vegetable_dish" / "脆皮豆腐.md",
                           "西红柿豆腐汤羹.md": htc / "vegetable_dish" / "西红柿豆腐汤羹" / "西红柿豆腐汤羹.md"})


def test_spices_question_lists_ingredients(ask5):
    from conftest import CORPORA

    a = ask5("大盘鸡要用哪些香料？", thread="d")
    assert a.intent == "contains"
    for spice, n in (("桂皮", 30), ("香叶", 31), ("草果", 32)):
        assert _quoted(HIDE / "other-dishes" / "大盘鸡.md", n, spice) in a.answer
    b = ask5("茶叶蛋要用哪些香料？", thread="e")
    assert b.intent == "contains"
    egg = CORPORA / "howtocook" / "dishes" / "breakfast" / "茶叶蛋.md"
    assert _quoted(egg, 12, "八角") in b.answer and _quoted(egg, 13, "香叶") in b.answer


def test_used_in_counts_chinese_kinds(ask5):
    from conftest import CORPORA

    _quoted(HIDE / "staple-dishes" / "新疆马肠子抓饭.md", 16, "熏马肠子 适量")
    a = ask5("马肠子可以做哪些菜", thread="m")
    assert "新疆马肠子抓饭" in a.answer and "马肠子纳仁面" in a.answer
    _quoted(CORPORA / "howtocook" / "dishes" / "vegetable_dish" / "脆皮豆腐.md", 11, "老豆腐")
    b = ask5("哪些菜用到豆腐？", thread="t")
    assert "脆皮豆腐" in b.answer and "西红柿豆腐汤羹" in b.answer
