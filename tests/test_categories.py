"""The category table (knowledge/lexicon/categories.yaml), constraint detection
(bot/lexicon/constraints.yaml) and the thread state's new fields. No KB needed."""

from __future__ import annotations

import json

import pytest

from threadgraph.bot import constraints as K
from threadgraph.bot.linker import Linker
from threadgraph.bot.memory import RememberedEntity, ThreadState
from threadgraph.knowledge import categories as C
from threadgraph.knowledge.bilingual import equivalents
from threadgraph.knowledge.kb import EntityName


@pytest.mark.parametrize("key, name", [
    ("meat", "猪肉馅"), ("meat", "牛肉"), ("meat", "鸡腿"), ("meat", "手枪腿"), ("meat", "五花肉"), ("meat", "培根"),
    ("meat", "ground beef"), ("meat", "Chicken Thighs"), ("pork", "猪里脊肉"), ("poultry", "鸡胸肉"),
    ("seafood", "虾仁"), ("seafood", "鲈鱼"), ("seafood", "蚝油"), ("fish", "三文鱼"), ("dairy", "黄油"),
    ("dairy", "淡奶油"), ("dairy", "heavy cream"), ("egg", "鸡蛋清"), ("egg", "eggs"), ("nuts", "熟花生"),
    ("nuts", "腰果"), ("peanut", "花生酱"), ("gluten", "低筋面粉"), ("gluten", "spaghetti"), ("spicy", "小米辣"),
    ("spicy", "郫县豆瓣酱"), ("spicy", "jalapeño"), ("staples", "食用盐"), ("staples", "植物油"), ("oven", "烤箱"),
])
def test_names_belong_to_their_categories(key, name):
    assert C.belongs(key, name), (key, name)


@pytest.mark.parametrize("key, name", [
    ("meat", "果肉"), ("meat", "椰肉"), ("meat", "肉桂"), ("meat", "鱼肉馅"), ("meat", "鸡蛋"), ("meat", "鸡精"),
    ("meat", "牛肝菌"), ("seafood", "鱼香肉丝"), ("seafood", "蟹味菇"), ("seafood", "海鲜酱"), ("dairy", "椰奶"),
    ("dairy", "腐乳"), ("dairy", "peanut butter"), ("dairy", "coconut milk"), ("egg", "eggplant"), ("nuts", "nutmeg"),
    ("nuts", "coconut"), ("spicy", "青椒"), ("spicy", "花椒"), ("spicy", "白胡椒粉"), ("spicy", "甜椒粉"),
    ("gluten", "rice flour"), ("staples", "椒盐"), ("oven", "微波炉"),
])
def test_names_outside_their_categories(key, name):
    assert not C.belongs(key, name), (key, name)


def test_table_is_consistent_and_labelled():
    table = C.table()
    assert {"meat", "seafood", "dairy", "nuts", "gluten", "spicy", "staples", "oven", "dessert"} <= set(table)
    for c in table.values():
        assert c.labels.get("zh") and c.labels.get("en"), c.key  # every category can be named in both languages
    assert C.labelled("肉") == ["meat"] and C.labelled("Seafood") == ["seafood"] and C.labelled("甜点") == ["dessert"]
    assert C.labelled("meat", "tools") == [] and C.labelled("oven", "tools") == ["oven"]
    # vegetarian's categories: meat and what includes fish
    assert C.belongs("seafood", "鲈鱼") and not C.belongs("meat", "鲈鱼")


def test_recipe_kinds_match_names_and_folders():
    assert C.belongs("dessert", "戚风蛋糕")
    assert C.belongs("dessert", "龟苓膏", "howtocook/dishes/dessert/龟苓膏/龟苓膏.md")
    assert not C.belongs("dessert", "宫保鸡丁", "howtocook/dishes/meat_dish/宫保鸡丁/宫保鸡丁.md")


def test_index_of_kb_names():
    ents = [("ingredient:猪肉馅", "猪肉馅", "ingredient", ""), ("ingredient:果肉", "果肉", "ingredient", ""),
            ("ingredient:虾仁", "虾仁", "ingredient", ""), ("tool:烤箱", "烤箱", "tool", ""),
            ("recipe:戚风蛋糕", "戚风蛋糕", "recipe", "x/dessert/戚风蛋糕.md"), ("ingredient:香菜叶", "香菜叶", "ingredient", "")]
    idx = C.CategoryIndex(ents)
    assert idx.ids("meat") == {"ingredient:猪肉馅"}
    assert idx.ids("seafood") == {"ingredient:虾仁"}
    assert idx.ids("oven") == {"tool:烤箱"} and idx.ids("dessert") == {"recipe:戚风蛋糕"}
    assert idx.containing("香菜", ("ingredient",)) == {"ingredient:香菜叶"}


def test_bilingual_equivalents():
    assert "花生" in equivalents("peanuts") and "oven" in equivalents("烤箱", ("tool",))
    assert equivalents("烤箱", ("ingredient",)) == []


def _linker() -> Linker:
    names = [EntityName(f"{t}:{n}", n, t, n) for n, t in [
        ("花生", "ingredient"), ("香菜", "ingredient"), ("料酒", "ingredient"), ("烤箱", "tool"), ("宫保鸡丁", "recipe"),
        ("鸡蛋", "ingredient")]]
    return Linker(names, fuzzy_threshold=88)


@pytest.mark.parametrize("text, kind, what, rest", [
    ("我对花生过敏", "allergy", "花生", ""),
    ("我对花生过敏！", "allergy", "花生", ""),
    ("I'm allergic to peanuts", "allergy", "peanuts", ""),
    ("we're vegetarian", "diet", "vegetarian", ""),
    ("我们家吃素", "diet", "吃素", ""),
    ("no oven", "equipment", "oven", ""),
    ("我家没有烤箱，能做什么甜点？", "equipment", "烤箱", "能做什么甜点？"),
    ("我不吃辣", "dislike", "辣", ""),
    ("我不吃香菜，宫保鸡丁需要哪些原料？", "dislike", "香菜", "宫保鸡丁需要哪些原料？"),
    ("I'm allergic to peanuts, what can I make?", "allergy", "peanuts", "what can I make?"),
])
def test_detect_constraints(text, kind, what, rest):
    d = K.detect(text, "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en", _linker())
    assert [c.kind for c in d.constraints] == [kind]
    assert d.constraints[0].label == what
    assert d.rest == rest
    assert d.statement == (rest == "")


def test_missing_equipment_stays_part_of_its_question():
    lk = Linker([EntityName("tool:mortar and pestle", "mortar and pestle", "tool", "mortar and pestle")])
    d = K.detect("I don't have a mortar and pestle. How can I still make pounded yam?", "en", lk)
    assert [c.label for c in d.constraints] == ["mortar and pestle"]  # one thing, not two
    assert d.rest == "How can I still make pounded yam?"
    assert d.question.startswith("I don't have a mortar and pestle")  # what the question is about
    d = K.detect("no oven, what desserts can I make?", "en", _linker())
    assert d.question == d.rest == "what desserts can I make?"  # a list question: the constraint only filters it


def test_detect_what_a_constraint_rules_out():
    lk = _linker()
    peanut = K.detect("I'm allergic to peanuts", "en", lk).constraints[0]
    assert peanut.categories == ["peanut"]  # a category word: every peanut product
    coriander = K.detect("我不吃香菜", "zh", lk).constraints[0]
    assert coriander.ids == ["ingredient:香菜"] and coriander.categories == []  # a KB name: it and its compounds
    assert peanut.reason("zh") == "你对花生过敏" and peanut.reason("en") == "you said you're allergic to peanuts"
    veg = K.detect("we're vegetarian", "en", lk).constraints[0]
    assert veg.categories == ["meat", "seafood", "meat_derived"] and veg.reason("zh") == "你吃素"
    oven = K.detect("我家没有烤箱", "zh", lk).constraints[0]
    assert oven.categories == ["oven"] and oven.reason("en") == "you said you have no oven"
    assert K.detect("能做什么甜点？", "zh", lk).scope == ["dessert"]


@pytest.mark.parametrize("text", [
    "没有料酒用什么代替？", "宫保鸡丁没有花生可以吗？", "no buttermilk for the pancakes, what now??",
    "我不喜欢这个回答", "I don't have time", "宫保鸡丁需要哪些原料？", "recipes without eggs",
])
def test_questions_are_not_constraints(text):
    d = K.detect(text, "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en", _linker())
    assert d.constraints == [] and d.rest == text


def test_transient_modifiers_are_not_remembered():
    d = K.detect("vegetarian recipes without eggs", "en", _linker())
    assert d.constraints == [] and [c.categories for c in d.transient] == [["meat", "seafood", "meat_derived"]]
    state = ThreadState()
    assert K.remember(state, d.transient) == [] and state.constraints == []


def test_thread_state_new_fields_roundtrip_and_old_states_load():
    old = json.dumps({"turns": [{"role": "user", "text": "hi", "intent": "general"}], "entities": [],
                      "slots": {}, "last_intent": "general", "turn": 1})
    s = ThreadState.from_json(old)
    assert s.constraints == [] and s.pantry == [] and s.turn == 1
    c = K.detect("我对花生过敏", "zh", _linker()).constraints
    assert K.remember(s, c) == c and K.remember(s, c) == []  # stated twice, kept once
    s.pantry = [RememberedEntity("鸡蛋", "ingredient", "ingredient:鸡蛋")]
    back = ThreadState.from_json(s.to_json())
    assert back.pantry == s.pantry and [x.label for x in K.stored(back)] == ["花生"]


def test_memory_keeps_several_entities_per_type():
    s = ThreadState()
    for i in range(9):
        s.turn = i
        s.remember(RememberedEntity(f"菜{i}", "recipe", f"recipe:菜{i}"))
        if i == 0:
            s.remember(RememberedEntity("Scribe", "role", "role:Scribe"))
    assert [e.name for e in s.recent(("recipe",), 2)] == ["菜7", "菜8"]
    assert len([e for e in s.entities if e.type == "recipe"]) == 6
    assert [e.name for e in s.recent(("role",), 2)] == ["Scribe"]  # other types are not pushed out
