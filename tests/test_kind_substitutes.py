"""A candidate of the same interchangeable kind (category table, ``interchangeable: true``) as
a recorded substitute is confirmed: "can I use leg meat instead of breast?" where the recipe
offers a whole leg or breast. Real recipe lines of two corpora (HowToCook, en-ourtable with
en-wittkuhn), a real bot over them."""

from __future__ import annotations

import pytest

from conftest import CORPORA, GEN, bot_over, quoted

HTC = CORPORA / "howtocook" / "dishes"
KUNG_PAO = HTC / "meat_dish" / "宫保鸡丁" / "宫保鸡丁.md"
TERIYAKI = HTC / "staple" / "照烧鸡腿饭.md"
ORANGE = GEN / "en-ourtable" / "docs" / "content" / "recipes" / "orange-ginger-chicken-chicken-entrée.md"
FESENJAN = GEN / "en-wittkuhn" / "docs" / "recipes" / "fesenjan.md"


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    """A bot over the four recipes (the two others only make the candidates known names)."""
    return bot_over(tmp_path_factory.mktemp("kinds"), {
        "宫保鸡丁.md": KUNG_PAO, "照烧鸡腿饭.md": TERIYAKI,
        "orange-ginger-chicken-chicken-entrée.md": ORANGE, "fesenjan.md": FESENJAN})


def test_leg_meat_for_breast_where_the_recipe_offers_a_whole_leg(ask):
    offered = quoted(KUNG_PAO, 11, "手枪腿（或者鸡胸脯肉）")
    quoted(TERIYAKI, 3, "鸡腿肉")
    a = ask("宫保鸡丁可以用鸡腿肉代替鸡胸肉吗?", thread="zh")
    assert a.found and a.answer.startswith("可以")
    assert "手枪腿" in a.answer and offered in a.answer


def test_thighs_for_breasts_where_the_recipe_offers_boneless_thighs(ask):
    quoted(ORANGE, 27, "boneless skinless chicken thighs or breasts")
    quoted(FESENJAN, 18, "Chicken Thighs")
    a = ask("Can I use chicken thighs instead of breasts in the orange ginger chicken?", thread="en")
    assert a.found and a.answer.startswith("Yes"), a.answer
    assert "boneless skinless chicken thigh" in a.answer


def test_a_candidate_of_no_shared_kind_is_not_confirmed(ask):
    a = ask("宫保鸡丁可以用照烧鸡腿饭代替鸡胸肉吗?", thread="no")
    assert not a.answer.startswith("可以")
