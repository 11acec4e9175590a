"""A reply to "which one do you mean?" picks one of the listed choices: by its whole name or by
a part only one choice holds ("徽派的呢？"), and the question first asked is answered for it (its
ask kept: steps stay steps). Titles of two corpora (HowToCook, en-wbushey); a real bot over the
HowToCook recipes of one dish family."""

from __future__ import annotations

import pytest

from conftest import CORPORA, GEN, bot_over, quoted

from threadgraph.bot.words import picked_choice

MEAT = CORPORA / "howtocook" / "dishes" / "meat_dish"
SOUTH = MEAT / "红烧肉" / "南派红烧肉.md"
ANHUI = MEAT / "徽派红烧肉" / "徽派红烧肉.md"
QUICK = MEAT / "红烧肉" / "简易红烧肉.md"
HUNAN = MEAT / "湖南家常红烧肉" / "湖南家常红烧肉.md"
WB = GEN / "en-wbushey" / "docs" / "recipes"


def _title(path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").removesuffix("的做法").strip()


def test_a_part_only_one_choice_holds_picks_it():
    names = [_title(p) for p in (SOUTH, ANHUI, QUICK, HUNAN)]
    assert names == ["南派红烧肉", "徽派红烧肉", "简易红烧肉", "湖南家常红烧肉"]
    assert picked_choice("徽派的呢？", names) == "徽派红烧肉"
    assert picked_choice("南派红烧肉", names) == "南派红烧肉"
    assert picked_choice("红烧肉", names) == ""  # every choice holds it
    assert picked_choice("南派红烧肉需要哪些材料？", names) == ""  # a new question, no pick


def test_english_titles():
    cilantro = [quoted(p, 2, t) for p, t in ((WB / "dinner" / "chicken-cilantro.md", "Chicken Cilantro"),
                                              (WB / "dinner" / "marinated-chicken-cilantro.md", "Marinated Chicken Cilantro"))]
    assert picked_choice("the marinated one", cilantro) == "Marinated Chicken Cilantro"
    assert picked_choice("Chicken Cilantro", cilantro) == "Chicken Cilantro"
    assert picked_choice("cilantro", cilantro) == ""


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("choices"), {
        "南派红烧肉.md": SOUTH, "徽派红烧肉.md": ANHUI, "简易红烧肉.md": QUICK, "湖南家常红烧肉.md": HUNAN})


def test_the_pick_keeps_the_ask_and_the_choices(ask):
    first = ask("红烧肉怎么做？", thread="t")
    assert "你问的是哪一个" in first.answer
    picked = ask("南派红烧肉", thread="t")
    assert picked.intent == "steps" and picked.found, picked.answer
    other = ask("徽派的呢？", thread="t")
    assert other.intent == "steps" and other.found and "徽派红烧肉" in other.answer, other.answer
