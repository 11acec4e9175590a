"""Chinese recipes: optional things and stand-ins read from how the documents are written (issue 10).

Literals from the documents (each construction on lines of at least two corpora):

* an addition left to the eater's own taste or liking (``zh.taste_add_x``): zh-meow 肉丝炝锅面.md:40
  "按个人口味加醋" (the list has 陈醋), zh-meow 雪菜肉丝面.md:23 "根据个人口味添加醋、油泼辣子等",
  HowToCook 龟苓膏.md:46 "可根据个人口味添加蜂蜜、炼乳或水果食用"; not an amount adjusted to taste:
  HowToCook 小炒肉.md:29 "豆豉 10g，根据个人口味加减 ±5g"
* a thing used only when one has it (``zh.if_have_x``): zh-worstcook 白菜猪肉粉条.md:2 "如果有肥肉片，先炒肥肉片",
  zh-meow 鱼香肉丝.md:7 "若有冬笋也可切丝增加口感"; not when the text says what to use without it:
  zh-meow 牛丼饭.md:7 "若有肥牛可以直接切肥牛…若没有肥牛，选肥瘦相见的牛肉"
* an optional note about a thing a step names: zh-meow 水煮牛肉.md:15 "热锅用菜籽油配猪油（可选）",
  zh-meow 番茄虾仁意面.md:7 "（虾头是可选的）", HowToCook 陕北熬豆角.md:38 "香菜碎（可选）根据口味加";
  a note without a subject keeps reading the thing before it: HowToCook 上汤娃娃菜.md:27 "皮蛋 一个（没有也可以不放）"
* a name ends where a step's verb starts: zh-worstcook 咖哩飯.md:5 "用澱粉收汁", zh-meow 水煮牛肉.md:19
  "用水淀粉勾芡"; the whole name before "或": zh-worstcook 乾鍋包菜.md:3 "蔥薑炒五花肉片或培根"
* a side dish after the method (its own 食材 and 做法) is its own recipe: zh-hidetoshi 抓饭.md:147
  "## 🥗 最佳搭档：皮辣红 (凉拌菜)"; a bilingual post's English version is the same dish: zh-jzkitchen
  雞胸大平反….md
"""

from __future__ import annotations

import pytest

from conftest import CORPORA, GEN, extract_copies, quoted

MEOW = GEN / "zh-meow" / "docs"
WORST = GEN / "zh-worstcook" / "docs"


def _doc(name: str):
    return next(CORPORA.rglob(name))


def _required(ex) -> dict[tuple[str, str], bool]:
    return {(ex.entities[t.subject].name, ex.entities[t.object].name): t.properties["required"]
            for t in ex.triples if t.relation == "CONTAINS" and t.subject.startswith("recipe:")}


def _subs(ex) -> set[tuple[str, str]]:
    return {(ex.entities[t.subject].name, ex.entities[t.object].name) for t in ex.triples if t.relation == "SUBSTITUTES"}


@pytest.fixture(scope="module")
def meow(tmp_path_factory):
    return extract_copies(tmp_path_factory.mktemp("meow"), *(MEOW / n for n in (
        "肉丝炝锅面.md", "雪菜肉丝面.md", "鱼香肉丝.md", "牛丼饭.md", "水煮牛肉.md", "番茄虾仁意面.md")))


@pytest.fixture(scope="module")
def worst(tmp_path_factory):
    return extract_copies(tmp_path_factory.mktemp("worst"), *(WORST / n for n in (
        "白菜猪肉粉条.md", "咖哩飯.md", "乾鍋包菜.md")))


@pytest.fixture(scope="module")
def howto(tmp_path_factory):
    return extract_copies(tmp_path_factory.mktemp("howto"), *(_doc(n) for n in (
        "龟苓膏.md", "小炒肉.md", "陕北熬豆角.md", "上汤娃娃菜.md",
        "泰国手标红茶.md", "照烧鸡腿饭.md")))  # these two list 炼乳 and 蜂蜜: things the corpus knows


def test_the_source_lines_still_say_so():
    quoted(MEOW / "肉丝炝锅面.md", 40, "按个人口味加醋")
    quoted(MEOW / "肉丝炝锅面.md", 5, "陈醋")
    quoted(MEOW / "雪菜肉丝面.md", 23, "根据个人口味添加醋、油泼辣子等")
    quoted(_doc("龟苓膏.md"), 46, "可根据个人口味添加蜂蜜、炼乳或水果食用")
    quoted(_doc("小炒肉.md"), 29, "豆豉 10g，根据个人口味加减 ±5g")
    quoted(WORST / "白菜猪肉粉条.md", 2, "如果有肥肉片，先炒肥肉片")
    quoted(MEOW / "鱼香肉丝.md", 7, "若有冬笋也可切丝增加口感")
    quoted(MEOW / "牛丼饭.md", 7, "若没有肥牛，选肥瘦相见的牛肉")
    quoted(MEOW / "水煮牛肉.md", 15, "热锅用菜籽油配猪油（可选）")
    quoted(MEOW / "番茄虾仁意面.md", 7, "（虾头是可选的）")
    quoted(_doc("陕北熬豆角.md"), 38, "香菜碎（可选）根据口味加")
    quoted(_doc("上汤娃娃菜.md"), 27, "皮蛋 一个（没有也可以不放）")
    quoted(WORST / "咖哩飯.md", 5, "或者不加土豆但後續用澱粉收汁")
    quoted(MEOW / "水煮牛肉.md", 19, "用水淀粉勾芡")
    quoted(WORST / "乾鍋包菜.md", 3, "蔥薑炒五花肉片或培根")


@pytest.mark.parametrize("recipe,item", [("肉丝炝锅面", "陈醋"), ("雪菜肉丝面", "醋")])
def test_an_addition_to_ones_own_taste_is_optional(meow, recipe, item):
    assert _required(meow).get((recipe, item)) is False


@pytest.mark.parametrize("item", ["蜂蜜", "炼乳"])
def test_an_addition_to_taste_outside_the_method(howto, item):
    assert _required(howto).get(("龟苓膏", item)) is False


def test_an_amount_adjusted_to_taste_is_no_option(howto):
    assert _required(howto).get(("小炒肉", "豆豉")) is True


@pytest.mark.parametrize("fixture,recipe,item", [("worst", "白菜猪肉粉条", "肥肉片"), ("meow", "鱼香肉丝", "冬笋")])
def test_a_thing_used_if_one_has_it_is_optional(request, fixture, recipe, item):
    assert _required(request.getfixturevalue(fixture)).get((recipe, item)) is False


def test_if_you_have_it_marks_the_whole_name_not_one_it_ends_with(worst):
    assert _required(worst).get(("白菜猪肉粉条", "肉片")) is not False


def test_if_you_have_it_with_a_stand_in_after_is_not_optional(meow):
    assert not any(req is False and "肥牛" in item for (recipe, item), req in _required(meow).items()
                   if recipe == "牛丼饭")


@pytest.mark.parametrize("recipe,item", [("水煮牛肉", "猪油"), ("番茄大虾意面", "虾头")])
def test_an_optional_note_about_a_thing_a_step_names(meow, recipe, item):
    assert _required(meow).get((recipe, item)) is False


def test_an_optional_note_in_a_list_and_a_note_without_subject(howto):
    assert _required(howto).get(("陕北熬豆角", "香菜碎")) is False
    assert _required(howto).get(("上汤娃娃菜", "皮蛋")) is False


def test_a_stand_in_ends_where_the_steps_verb_starts(worst):
    subs = _subs(worst)
    assert ("马铃薯", "澱粉") in subs
    assert not any(y.endswith("收汁") for _, y in subs)


def test_a_step_tail_verb_cuts_a_name_in_another_corpus(meow):
    from threadgraph.ingest.recipes import _STEP_TAIL

    phrase = "水淀粉勾芡"  # zh-meow 水煮牛肉.md:19 "用水淀粉勾芡"
    m = _STEP_TAIL.search(phrase)
    assert m and phrase[:m.start()] == "水淀粉"


def test_the_whole_name_before_or_in_a_step(worst):
    subs = _subs(worst)
    assert ("五花肉片", "培根") in subs
    assert ("肉片", "培根") not in subs


def test_a_side_dish_after_the_method_is_its_own_recipe(tmp_path):
    doc = GEN / "zh-hidetoshi" / "docs" / "staple-dishes" / "抓饭.md"
    quoted(doc, 147, "## 🥗 最佳搭档：皮辣红 (凉拌菜)")
    quoted(doc, 155, "（可选配料：木耳、黄瓜、香菜）")
    req = _required(extract_copies(tmp_path, doc))
    main = [r for r, _ in req if r.startswith("新疆抓饭")]
    assert main and not any((m, "木耳") in req for m in main)
    assert req.get(("皮辣红", "木耳")) is False


def test_a_bilingual_posts_second_language_is_the_same_dish(tmp_path):
    doc = next((GEN / "zh-jzkitchen" / "docs").glob("2014-12-13-雞胸大平反*"))
    recipes = {r for r, _ in _required(extract_copies(tmp_path, doc))}
    assert len(recipes) == 1
