"""An optional note in a step is about the thing written right before it. When
that thing is not one of the recipe's listed names, the note marks nothing
optional: before, it fell to the nearest listed name in the sentence and made
a main ingredient "optional". Literals from the documents:

* HowToCook 日式肥牛丼饭.md:43 "将 40g `味淋`（或 30g `料酒`），…，5g `老抽`（可选，用于调色）" (味淋 is a 主食材 at :17)
* HowToCook 鸡蛋火腿炒黄瓜.md:41 "调入 2g 盐、3ml 生抽，立刻倒入火腿片和辣椒碎（可选）翻炒均匀"
* zh-meow 水煮牛肉.md:15 "热锅用菜籽油配猪油（可选），小火炒香豆瓣酱"
while a listed item marked optional stays optional (鸡蛋火腿炒黄瓜.md:16 "红尖椒（可选）").
"""

from __future__ import annotations

import pytest

from conftest import CORPORA, GEN, recipe_requirements


@pytest.fixture(scope="module")
def required(tmp_path_factory):
    return recipe_requirements(tmp_path_factory.mktemp("optional-notes"), (
        next(CORPORA.rglob("日式肥牛丼饭.md")), next(CORPORA.rglob("鸡蛋火腿炒黄瓜.md")),
        GEN / "zh-meow" / "docs" / "水煮牛肉.md"))


@pytest.mark.parametrize("recipe,item", [("日式肥牛丼饭", "味淋"), ("鸡蛋火腿炒黄瓜", "生抽")])
def test_a_note_about_an_unlisted_thing_leaves_the_listed_one_required(required, recipe, item):
    assert required.get((recipe, item)) is True


def test_a_note_in_prose_steps_marks_no_other_name_optional(required):
    # zh-meow lists no ingredients: 豆瓣酱 is read from the steps, and the note after 猪油 is not about it
    assert required.get(("水煮牛肉", "豆瓣酱")) is not False


def test_a_listed_item_marked_optional_stays_optional(required):
    assert required.get(("鸡蛋火腿炒黄瓜", "红尖椒")) is False
