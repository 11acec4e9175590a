"""'No substitute recorded, but you can leave it out' is said only when every
form of the item the recipe lists is optional. HowToCook 宫保鸡丁.md lists
熟花生 as a required ingredient (line 14) and 生花生 under 可选原料 (line 29):
"and without peanuts?" must not be told it can leave the peanuts out, while
金枪鱼酱三明治.md:15 "- 芝士片（可选）" (no substitute recorded) can be."""

from __future__ import annotations


def test_a_required_form_means_it_cannot_just_be_left_out(ask):
    ask("What do I need for Kung Pao chicken?", thread="kp")
    a = ask("and without peanuts?", thread="kp")
    assert "leave it out" not in a.answer and "optional there" not in a.answer
    b = ask("宫保鸡丁没有花生用什么代替？", thread="kp-zh")
    assert "可以不放" not in b.answer


def test_an_item_only_listed_as_optional_can_be_left_out(ask):
    a = ask("金枪鱼酱三明治没有芝士片用什么代替？", thread="tuna")
    assert "可以不放" in a.answer
