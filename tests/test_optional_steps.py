"""An optional marker that opens a step ("可选：去掉西红柿的外表皮") makes the step optional, not the
thing the step handles: a name after the marker is marked only when just adding words or the earlier
entries of a list stand between them (``optional_lead`` of knowledge/lexicon/cues.yaml). Before, the
nearest listed name after the marker was made optional, so a recipe's main ingredient read as optional.
Literals from the documents:

* HowToCook 西红柿炒鸡蛋.md:34 "2. 可选：去掉西红柿的外表皮" (西红柿 is listed plainly at :11)
* HowToCook 青椒酿.md:62 "可选在青椒内壁撒干淀粉约 5g"
* HowToCook 米粥.md:29 "1. （可选）将 Mo ml 的油与洗净的米混合" (植物油 is listed "植物油（可选）" at :13)
* zh-meow 番茄蛋花汤.md:9 "（可选的步骤：此时可以把汤里的葱白取出来，以防影响口感）"
while a marker before a list of things still marks them:
* HowToCook 老式锅包肉.md:76 "可选：水 4g、玉米淀粉 1.5g，用于糖醋汁更加粘稠。"
* zh-meow 雪菜肉丝面.md:23 "8. 根据个人口味添加醋、油泼辣子等。"
"""

from __future__ import annotations

import pytest

from conftest import CORPORA, GEN, quoted, recipe_requirements


def _doc(name: str):
    return next(CORPORA.rglob(name))


@pytest.fixture(scope="module")
def required(tmp_path_factory):
    return recipe_requirements(tmp_path_factory.mktemp("optional-steps"), (
        _doc("西红柿炒鸡蛋.md"), _doc("青椒酿.md"), _doc("米粥.md"), _doc("老式锅包肉.md"),
        GEN / "zh-meow" / "docs" / "番茄蛋花汤.md", GEN / "zh-meow" / "docs" / "雪菜肉丝面.md"))


def test_the_source_lines_still_say_so():
    quoted(_doc("西红柿炒鸡蛋.md"), 34, "可选：去掉西红柿的外表皮")
    quoted(_doc("西红柿炒鸡蛋.md"), 11, "西红柿")
    quoted(_doc("青椒酿.md"), 62, "可选在青椒内壁撒干淀粉")
    quoted(_doc("米粥.md"), 29, "（可选）将 Mo ml 的油与洗净的米混合")
    quoted(GEN / "zh-meow" / "docs" / "番茄蛋花汤.md", 9, "可选的步骤：此时可以把汤里的葱白取出来")
    quoted(_doc("老式锅包肉.md"), 76, "可选：水 4g、玉米淀粉 1.5g")
    quoted(GEN / "zh-meow" / "docs" / "雪菜肉丝面.md", 23, "根据个人口味添加醋、油泼辣子等")


@pytest.mark.parametrize("recipe,item", [("西红柿炒鸡蛋", "番茄"), ("青椒酿", "青椒"), ("米粥", "米")])
def test_an_optional_step_leaves_the_listed_thing_it_handles_required(required, recipe, item):
    assert required.get((recipe, item)) is True


def test_an_optional_step_in_prose_marks_nothing_it_handles(required):
    # zh-meow lists no ingredients: 葱白 is read from the steps; taking it out again is the optional step
    assert required.get(("番茄蛋花汤", "葱白")) is not False


@pytest.mark.parametrize("recipe,item", [("老式锅包肉", "玉米淀粉"), ("雪菜肉丝面", "油泼辣子"), ("米粥", "植物油")])
def test_a_marker_before_a_list_of_things_still_marks_them(required, recipe, item):
    assert required.get((recipe, item)) is False


def test_the_gap_reading_of_both_languages():
    from threadgraph.knowledge import cues

    assert cues.optional_lead("：", zh=True) and cues.optional_lead("：撒上", zh=True)
    assert cues.optional_lead("：水 4g、", zh=True) and cues.optional_lead("添加醋、", zh=True)
    assert not cues.optional_lead("：去掉", zh=True)
    assert not cues.optional_lead("：将 Mo ml 的油与洗净的", zh=True)
    assert cues.optional_lead("If using") and not cues.optional_lead("roll in")
