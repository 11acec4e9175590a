"""A second newcomer's Chinese recipe questions (issue 11), each pinned on documents of at least
two corpora (bundled HowToCook and zh dev corpora); expected values are literals of the source
text, whose lines are checked first (:func:`conftest.quoted`).

- a leave-out question about a dish no recipe is called but several recipes are kinds of
  ("红烧肉里的冰糖可以不放吗") answers over those recipes;
- casual yes/no tails of a leave-out question ("行不行啊", "能不能行") give the verdict first;
- a quantity question about one recipe (多久, 卡路里, 几个人吃) is answered by the recipe's own
  sentences stating it, also as a follow-up that names nothing ("那要煮多久？");
- an unrecorded stand-in names the asked recipe's own substitutes apart from other recipes';
- a pantry lists the recipes that use all of it with what else to buy;
- which dishes use X counts X's other names (豆瓣酱: 郫县豆瓣, 豆瓣);
- a section a lead-in paragraph marks optional has optional items; a collection's template is no recipe.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPORA, bot_over, quoted, recipe_requirements

HTC = CORPORA / "howtocook" / "dishes"
GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
MENU = GEN / "zh-mymenu" / "docs"
HIDE = GEN / "zh-hidetoshi" / "docs"
MEOW = GEN / "zh-meow" / "docs"

HONGSHAO = HTC / "meat_dish" / "红烧肉"
HUIPAI = HTC / "meat_dish" / "徽派红烧肉" / "徽派红烧肉.md"
HUNAN = HTC / "meat_dish" / "湖南家常红烧肉" / "湖南家常红烧肉.md"
COLA_WINGS = HTC / "meat_dish" / "可乐鸡翅.md"
YUXIANG = HTC / "meat_dish" / "鱼香肉丝.md"
MAPO = HTC / "meat_dish" / "麻婆豆腐" / "麻婆豆腐.md"
GONGBAO = HTC / "meat_dish" / "宫保鸡丁" / "宫保鸡丁.md"
OMELET_RICE = HTC / "staple" / "蛋包饭.md"
YANGZHOU = HTC / "staple" / "扬州炒饭" / "扬州炒饭.md"
COLA_RICE = HTC / "staple" / "可乐炒饭.md"
SOUR_POTATO = HTC / "vegetable_dish" / "酸辣土豆丝.md"
CRAYFISH = HTC / "aquatic" / "小龙虾" / "小龙虾.md"
SHUIZHU = HTC / "meat_dish" / "水煮肉片.md"


def _find(name: str) -> Path:
    found = sorted(HTC.rglob(name))
    assert len(found) == 1, (name, found)
    return found[0]


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    """A real bot over HowToCook recipes and zh dev corpus recipes (test model)."""
    root = tmp_path_factory.mktemp("newc2")
    docs = {
        "htc/南派红烧肉.md": HONGSHAO / "南派红烧肉.md",
        "htc/简易红烧肉.md": HONGSHAO / "简易红烧肉.md",
        "htc/徽派红烧肉.md": HUIPAI,
        "htc/湖南家常红烧肉.md": HUNAN,
        "htc/可乐鸡翅.md": _find("可乐鸡翅.md"),
        "htc/鱼香肉丝.md": _find("鱼香肉丝.md"),
        "htc/麻婆豆腐.md": _find("麻婆豆腐.md"),
        "htc/宫保鸡丁.md": _find("宫保鸡丁.md"),
        "htc/蛋包饭.md": _find("蛋包饭.md"),
        "htc/扬州炒饭.md": _find("扬州炒饭.md"),
        "htc/可乐炒饭.md": _find("可乐炒饭.md"),
        "htc/酸辣土豆丝.md": _find("酸辣土豆丝.md"),
        "htc/小龙虾.md": _find("小龙虾.md"),
        "htc/水煮肉片.md": _find("水煮肉片.md"),
        "menu/蛋炒饭.md": MENU / "staple" / "蛋炒饭.md",
        "hide/牛肉炖土豆.md": HIDE / "meat-dishes" / "牛肉炖土豆.md",
        "meow/回锅肉.md": MEOW / "回锅肉.md",
    }
    return bot_over(root, docs)


# -- Q3: "红烧肉里的冰糖可以不放吗" where no recipe is called 红烧肉 --------------------------------------------------
def test_leave_out_over_a_dish_family(ask):
    quoted(HONGSHAO / "南派红烧肉.md", 14, "冰糖")
    quoted(HUNAN, 21, "冰糖")
    quoted(HUIPAI, 12, "白砂糖")
    a = ask("红烧肉里的冰糖可以不放吗?", thread="hsr")
    assert a.intent == "required" and a.found
    assert a.answer.startswith("最好别省")
    for name in ("南派红烧肉", "湖南家常红烧肉"):
        assert name in a.answer.split("（")[0]
    assert "徽派红烧肉的原料表里没有冰糖" in a.answer  # it sweetens with 白砂糖
    # a zh dev corpus recipe and HowToCook recipes that are kinds of 炒饭
    ham = quoted(MENU / "staple" / "蛋炒饭.md", 6, "火腿肠1根（可选）")[:3]
    quoted(COLA_RICE, 14, "火腿肠（或午餐肉，可选）")
    b = ask("炒饭里的火腿肠可以不放吗", thread="rice")
    assert b.intent == "required" and b.found
    assert b.answer.startswith("可以不放") and "蛋炒饭" in b.answer and "可乐炒饭" in b.answer, b.answer
    assert ham in b.answer
    quoted(MENU / "staple" / "蛋炒饭.md", 7, "鸡蛋2个")
    quoted(YANGZHOU, 12, "鸡蛋")
    c = ask("炒饭一定要放鸡蛋吗", thread="egg")
    assert c.found and c.answer.startswith("最好别省") and "扬州炒饭" in c.answer and "蛋炒饭" in c.answer, c.answer


# -- Q10: casual yes/no tails ----------------------------------------------------------------------------------------
def test_casual_leave_out_tails_answer_first(ask):
    quoted(MAPO, 21, "花椒")
    a = ask("麻婆豆腐不放花椒行不行啊", thread="mapo")
    assert a.intent == "required" and a.answer.startswith("最好别省")
    quoted(MENU / "staple" / "蛋炒饭.md", 6, "火腿肠1根（可选）")
    b = ask("蛋炒饭不加火腿肠能不能行", thread="menu")
    assert b.intent == "required" and b.answer.startswith("可以不放"), b.answer


# -- Q8/Q11: quantity questions about one recipe -------------------------------------------------------------------
def test_quantity_from_the_recipes_own_sentences(ask):
    boil = quoted(COLA_WINGS, 36, "大火煮开（ 大约 2 分钟 ）后")
    ask("可乐鸡翅怎么做?", thread="wings")
    a = ask("那要煮多久?", thread="wings")
    assert a.found and boil in a.answer and "第 36 行" in a.answer
    assert a.answer.index(boil) < 40  # the first quoted sentence
    kcal = quoted(YUXIANG, 7, "预估卡路里：421 大卡")
    b = ask("鱼香肉丝一份有多少卡路里?", thread="kcal")
    assert b.found and b.answer.splitlines()[1].startswith(f"- “{kcal}”")
    assert "相关事实" not in b.answer
    stew = quoted(HIDE / "meat-dishes" / "牛肉炖土豆.md", 56, "水开后转小火炖 **60-90 分钟**")
    c = ask("牛肉炖土豆要炖多久?", thread="stew")  # quoted as read, markup removed
    assert c.found and "第 56 行" in c.answer and stew.replace("**", "") in c.answer, c.answer


# -- Q4: a stand-in the recipe does not record ----------------------------------------------------------------------
def test_unrecorded_candidate_keeps_other_recipes_apart(ask):
    line = quoted(GONGBAO, 11, "手枪腿（或者鸡胸脯肉）")
    quoted(OMELET_RICE, 16, "火腿肠")
    a = ask("宫保鸡丁可以用鸡腿肉代替鸡胸肉吗?", thread="gb")
    assert a.intent == "substitute"
    assert "宫保鸡丁里记录的替代是：手枪腿" in a.answer
    assert line in a.answer
    assert "火腿肠" not in a.answer or "别的菜谱里的记录：火腿肠（蛋包饭）" in a.answer


# -- Q5: the recipes that use the whole pantry ---------------------------------------------------------------------
def test_pantry_lists_recipes_using_all_of_it(ask):
    quoted(SOUR_POTATO, 11, "土豆")
    quoted(SOUR_POTATO, 13, "青椒")
    a = ask("我有土豆和青椒,能做什么菜?", thread="p1")
    assert a.intent == "pantry" and "用到你全部食材、还差几样的" in a.answer and "酸辣土豆丝（还差" in a.answer, a.answer
    quoted(HIDE / "meat-dishes" / "牛肉炖土豆.md", 56, "炖")
    b = ask("我有牛肉和土豆,能做什么?", thread="p2")
    assert "牛肉炖土豆" in b.answer, b.answer


# -- Q9: other names of the asked ingredient ----------------------------------------------------------------------
def test_used_in_counts_other_names(ask):
    quoted(CRAYFISH, 22, "郫县豆瓣")
    quoted(MEOW / "回锅肉.md", 21, "豆瓣酱")
    a = ask("哪些菜用到了豆瓣酱?", thread="dbj")
    assert a.intent == "used_in"
    for dish in ("小龙虾", "回锅肉"):
        assert dish in a.answer, a.answer


# -- Q6: a lead-in paragraph marking a section's list optional; Q5: a template is no recipe ----------------------
def test_lead_in_marks_list_optional_and_template_is_no_recipe(tmp_path):
    egg = _find("温泉蛋.md")
    quoted(egg, 22, "额外用作点缀的食材，可选")
    quoted(egg, 24, "昆布酱油")
    curry = _find("日式咖喱饭.md")
    quoted(curry, 22, "额外用作点缀的食材，可选")
    quoted(curry, 24, "花椰菜")
    (tmp_path / "a").mkdir()
    req = recipe_requirements(tmp_path / "a", [egg, curry])
    assert req[("温泉蛋", "鸡蛋")] is True
    assert req[("温泉蛋", "昆布酱油")] is False
    assert req[("日式咖喱饭", "花椰菜")] is False
    assert any(r == "日式咖喱饭" and v for (r, _i), v in req.items())  # its main list stays required


def test_template_path_is_no_recipe(tmp_path):
    from threadgraph.ingest.readers import parse_file
    from threadgraph.ingest.recipes import is_recipe

    rice = MENU / "staple" / "蛋炒饭.md"
    assert is_recipe(parse_file(rice, "staple/蛋炒饭.md"))
    assert not is_recipe(parse_file(rice, "template/蛋炒饭.md"))
    sample = HTC / "template" / "示例菜" / "示例菜.md"
    quoted(sample, 1, "示例菜谱模板")
    assert not is_recipe(parse_file(sample, "dishes/template/示例菜/示例菜.md"))
    assert is_recipe(parse_file(sample, "dishes/staple/示例菜/示例菜.md"))
