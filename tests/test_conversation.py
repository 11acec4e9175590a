"""Thread memory that fits conversations, thread-long constraints, category-aware
exclusion and pantry mode, through the real core over the bundled corpora, in
Chinese and English. Expectations are read from the corpus text (quoted beside them)."""

from __future__ import annotations

import pytest

from conftest import CORPORA

from threadgraph.bot.constraints import category_index
from threadgraph.bot.message import ThreadKey

DISHES = CORPORA / "howtocook" / "dishes"


def _line(rel: str, n: int) -> str:
    return (DISHES / rel).read_text(encoding="utf-8").splitlines()[n - 1]


@pytest.fixture
def graph(kb_handle):
    return kb_handle.get().graph


def _uses(graph, recipe_names: set[str], item_ids: set[str]) -> set[str]:
    """The recipes among ``recipe_names`` that CONTAIN one of ``item_ids``."""
    rows = graph.query("MATCH (a:Entity)-[:CONTAINS]->(b:Entity) WHERE a.type = 'recipe' AND a.name IN $n AND b.id IN $i "
                       "RETURN DISTINCT a.name AS n", {"n": sorted(recipe_names), "i": sorted(item_ids)})
    return {r["n"] for r in rows}


def _ids(kb_handle, key: str) -> set[str]:
    return set(category_index(kb_handle.get()).ids(key))


# -- memory: several entities per type ---------------------------------------------------------
def test_these_two_are_the_last_two_recipes_zh(ask):
    ask("宫保鸡丁需要哪些原料？")
    ask("那鱼香肉丝呢？")
    a = ask("这两款有哪些共同的原料？")
    assert a.found and a.intent == "shared"
    assert {f.subject for f in a.facts} == {"宫保鸡丁", "鱼香肉丝"}
    assert "宫保鸡丁和鱼香肉丝共同的原料" in a.answer


def test_the_last_two_of_three_and_compare_them_en(ask):
    ask("宫保鸡丁需要哪些原料？")
    ask("鱼香肉丝需要哪些原料？")
    ask("回锅肉需要哪些原料？")
    a = ask("compare them")
    assert a.found and a.intent == "shared" and a.language == "en"
    assert {f.subject for f in a.facts} == {"鱼香肉丝", "回锅肉"}
    b = ask("what do they have in common?")
    assert b.intent == "shared" and {f.subject for f in b.facts} == {"鱼香肉丝", "回锅肉"}


def test_these_two_with_nothing_remembered_asks_back(ask):
    a = ask("这两款有哪些共同的原料？")
    assert not a.found and a.intent == "shared" and "哪道菜" in a.answer


# -- constraints ------------------------------------------------------------------------------
def test_allergy_is_acknowledged_flagged_and_filters_lists_zh(ask, graph, kb_handle):
    a = ask("我对花生过敏")
    assert a.found and a.intent == "constraint"
    assert a.answer.startswith("记住了：你对花生过敏。") and "宫保鸡丁" in a.answer
    assert "熟花生" in _line("meat_dish/宫保鸡丁/宫保鸡丁.md", 14)  # "- 熟花生"
    b = ask("宫保鸡丁需要哪些原料？")
    assert b.found and "注意：宫保鸡丁用到熟花生、生花生（你对花生过敏）。" in b.answer
    s = ask("宫保鸡丁怎么做？")  # a whole procedure: the warning comes first, not after 40 lines
    assert s.intent == "steps" and s.answer.startswith("注意：宫保鸡丁用到熟花生、生花生（你对花生过敏）。")
    c = ask("不用鸡蛋的菜有哪些？")
    assert c.found and c.intent == "exclude" and "（已按你对花生过敏排除）" in c.answer
    listed = {f.subject for f in c.facts}
    assert listed and not _uses(graph, listed, _ids(kb_handle, "peanut"))
    d = ask("哪些菜用到白糖？")
    assert "宫保鸡丁" not in {f.subject for f in d.facts} and "（已按你对花生过敏排除）" in d.answer
    e = ask("哪些菜用到花生？")  # asking about the forbidden thing itself still answers, with a warning
    assert e.found and "宫保鸡丁" in e.answer and "注意：你对花生过敏。" in e.answer


def test_allergy_en_and_a_question_in_the_same_message(ask, graph, kb_handle):
    a = ask("I'm allergic to peanuts, what can I make?")
    assert a.found and a.intent == "pantry"
    assert a.answer.startswith("Noted: you said you're allergic to peanuts.")
    assert a.answer.endswith("(filtered: you said you're allergic to peanuts)")
    assert a.question == "I'm allergic to peanuts, what can I make?"
    assert not _uses(graph, {f.subject for f in a.facts}, _ids(kb_handle, "peanut"))
    b = ask("recipes without eggs")
    assert b.found and "(filtered: you said you're allergic to peanuts)" in b.answer


def test_a_substitute_answer_never_proposes_a_forbidden_item(ask):
    # 凉拌油麦菜: "- 芝麻酱可以用花生酱代替"
    assert "芝麻酱可以用花生酱代替" in (DISHES / "vegetable_dish" / "凉拌油麦菜.md").read_text(encoding="utf-8")
    assert "花生酱" in ask("芝麻酱用什么代替？", thread="free").answer
    ask("我对花生过敏")
    a = ask("芝麻酱用什么代替？")
    first = a.answer.split("\n")[0]
    assert "花生酱" not in first and "（已按你对花生过敏排除）" in a.answer


def test_vegetarian_filters_meat_and_fish_en(ask, graph, kb_handle):
    a = ask("we're vegetarian")
    assert a.found and a.intent == "constraint" and "meat, seafood" in a.answer
    b = ask("what can I make?")
    assert b.found and "(filtered: you said you're vegetarian)" in b.answer
    listed = {f.subject for f in b.facts}
    assert listed and not _uses(graph, listed, _ids(kb_handle, "meat") | _ids(kb_handle, "seafood"))
    c = ask("宫保鸡丁怎么做？")
    assert "注意：宫保鸡丁用到" in c.answer and "手枪腿" in c.answer and "你吃素" in c.answer


def test_no_spicy_leaves_out_spicy_dishes_zh(ask):
    # 麻辣香锅 lists "- 干豆腐" (line 13) and "- 干辣椒" (line 15)
    assert _line("meat_dish/麻辣香锅.md", 13) == "- 干豆腐" and _line("meat_dish/麻辣香锅.md", 15) == "- 干辣椒"
    assert "麻辣香锅" in ask("哪些菜用到豆腐？", thread="free").answer
    ask("我不吃辣")
    a = ask("哪些菜用到豆腐？")
    assert a.found and "麻辣香锅" not in a.answer and "西红柿豆腐汤羹" in a.answer and "（已按你不吃辣排除）" in a.answer


def test_no_oven_desserts_zh(ask):
    # tools lists and steps that need an oven: 戚风蛋糕 "* 烤箱（电饭锅可替代…）", 英式司康 "7. 烤箱预热 180 度，烤制 27 分钟"
    assert _line("dessert/戚风蛋糕/戚风蛋糕.md", 13).startswith("* 烤箱")
    assert "烤箱预热" in (DISHES / "dessert" / "英式司康" / "英式司康.md").read_text(encoding="utf-8")
    a = ask("我家没有烤箱，能做什么甜点？")
    assert a.found and a.intent == "pantry"
    assert a.answer.startswith("记住了：你没有烤箱。") and "（已按你没有烤箱排除）" in a.answer
    for needs_oven in ("戚风蛋糕", "英式司康", "烤蛋挞", "玛格丽特饼干", "魔芋蛋糕", "烤箱版巴斯克芝士蛋糕"):
        assert needs_oven not in a.answer
    assert "提拉米苏" in a.answer  # "这道意大利传统甜品无需烤箱"
    b = ask("戚风蛋糕需要哪些原料？")
    assert "注意：戚风蛋糕需要烤箱（你没有烤箱）。" in b.answer


def test_no_oven_en(ask):
    a = ask("no oven")
    assert a.found and a.intent == "constraint" and a.answer.startswith("Noted: you said you have no oven.")
    b = ask("what desserts can I make?")
    assert b.found and "戚风蛋糕" not in b.answer and "(filtered: you said you have no oven)" in b.answer


def test_reset_clears_constraints(ask, bot):
    ask("我对花生过敏", thread="r")
    assert "已按你对花生过敏排除" in ask("不用鸡蛋的菜有哪些？", thread="r").answer
    bot.reset(ThreadKey(platform="test", thread="r"))
    assert bot.memory.load(ThreadKey(platform="test", thread="r").key()).constraints == []
    a = ask("不用鸡蛋的菜有哪些？", thread="r")
    assert a.found and "排除）" not in a.answer


def test_constraints_belong_to_their_thread_and_leave_sop_answers_alone(ask):
    ask("I'm allergic to peanuts", thread="a")
    assert "filtered" not in ask("recipes without eggs", thread="b").answer
    a = ask("Who can stand in for the Incident Commander?", thread="a")
    assert a.found and "Deputy" in a.answer and "filtered" not in a.answer and "allergic" not in a.answer


# -- category-aware exclusion -------------------------------------------------------------------
def test_without_meat_excludes_every_kind_of_meat_zh(ask, graph, kb_handle):
    # 桂林十八酿 lists 猪肉馅, 麻婆豆腐 五花肉: both have 豆腐 and meat that is not the word 肉
    assert "猪肉馅" in (DISHES / "meat_dish" / "桂林十八酿" / "桂林十八酿.md").read_text(encoding="utf-8")
    a = ask("有豆腐但不用肉的菜")
    assert a.found and a.intent == "exclude"
    listed = {f.subject for f in a.facts}
    assert "凉拌豆腐" in listed and not {"桂林十八酿", "麻婆豆腐", "麻辣香锅"} & listed
    assert not _uses(graph, listed, _ids(kb_handle, "meat"))
    b = ask("不用肉的菜有哪些？")
    assert b.found and not _uses(graph, {f.subject for f in b.facts}, _ids(kb_handle, "meat"))


def test_without_a_category_word_the_kb_does_not_name(ask, graph, kb_handle):
    a = ask("不用海鲜的菜有哪些？")
    assert a.found and a.intent == "exclude" and "不用海鲜的菜" in a.answer
    assert not _uses(graph, {f.subject for f in a.facts}, _ids(kb_handle, "seafood"))
    b = ask("recipes without dairy")
    assert b.found and not _uses(graph, {f.subject for f in b.facts}, _ids(kb_handle, "dairy"))


# -- pantry mode ---------------------------------------------------------------------------------
def test_pantry_zh_and_a_follow_up(ask):
    # 西红柿炒鸡蛋 needs 鸡蛋 and, besides staples, nothing else the pantry lacks
    a = ask("我有鸡蛋、西红柿和葱，能做什么？")
    assert a.found and a.intent == "pantry"
    lines = a.answer.split("\n")
    assert lines[0].startswith("用你有的鸡蛋、番茄、葱")
    ready = next(x for x in lines if x.startswith("现在就能做："))
    assert "西红柿炒鸡蛋" in ready
    assert any(x.startswith("只差一样：") and "（买" in x for x in lines)
    assert lines.index(ready) < next(i for i, x in enumerate(lines) if x.startswith("只差一样："))
    assert {f.relation for f in a.facts} == {"CONTAINS"}
    b = ask("那再加上豆腐呢？")
    assert b.found and b.intent == "pantry" and "豆腐" in b.answer.split("\n")[0]
    assert "西红柿豆腐汤羹" in b.answer  # tofu makes it one purchase away
    assert "鸡蛋" in b.answer.split("\n")[0]  # the remembered pantry stays


def test_pantry_with_a_recorded_substitute(ask):
    # 宫保鸡丁: 手枪腿 can be replaced by 鸡胸脯肉 in the recipe itself
    assert "鸡胸脯肉" in (DISHES / "meat_dish" / "宫保鸡丁" / "宫保鸡丁.md").read_text(encoding="utf-8")
    a = ask("我有鸡胸肉、大葱、干辣椒、熟花生、姜片和芝麻油，能做什么？")
    assert a.found and a.intent == "pantry"
    assert "差一样但能用你有的代替：宫保鸡丁（缺手枪腿，可用你有的鸡胸肉代替）" in a.answer
    assert any(f.relation == "SUBSTITUTES" and f.subject == "手枪腿" for f in a.facts)


def test_pantry_en_and_also(ask):
    a = ask("what can I cook with eggs, rice and scallions?")
    assert a.found and a.intent == "pantry" and a.language == "en"
    # an English answer names the Chinese KB names with their English names (knowledge/lexicon/bilingual.yaml)
    assert a.answer.startswith("With your egg (鸡蛋), rice (大米), and scallion (小葱)")
    assert "Ready to cook:" in a.answer and "完美水煮蛋" in a.answer
    b = ask("and if I also have tofu?")
    assert b.found and b.intent == "pantry" and "豆腐" in b.answer.split("\n")[0]


def test_pantry_respects_constraints(ask):
    ask("我对花生过敏")
    a = ask("我有鸡胸肉、大葱、干辣椒、熟花生、姜片和芝麻油，能做什么？")
    assert "宫保鸡丁" not in a.answer and "注意：你对花生过敏。" in a.answer


def test_what_can_i_make_with_nothing_to_go_on_asks_back(ask):
    a = ask("能做什么？")
    assert not a.found and a.intent == "pantry"


def test_and_without_x_narrows_the_list_it_follows(ask):
    """"which recipes use peanuts?" → "and without chicken?" keeps the peanut dishes (a new user
    got 366 recipes, every dish of the KB without 鸡肉)."""
    first = ask("which recipes use peanuts?", thread="narrow")
    assert first.intent == "used_in" and "凉粉" in {f.subject for f in first.facts}  # 凉粉.md:22 "- 花生碎"
    a = ask("and without chicken?", thread="narrow")
    assert a.intent == "exclude" and a.found
    assert a.facts and all("花生" in f.object for f in a.facts)  # every listed dish uses a peanut form
    assert "凉粉" in {f.subject for f in a.facts}
    assert "366" not in a.answer
