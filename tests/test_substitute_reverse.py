"""A substitution recorded in one direction answers the question asked in the other: an edge
X → Y (or a symmetric "X or Y") answers "can I use Y (in R)?" naming only Y, and "no X, Y ok?"
naming both as items. Through the real core (Kùzu, LanceDB, the 4 MB test model) on copies of
dev-corpus recipes; expected values are literals of their lines:

* en-wittkuhn recipes/poke_bowl.md:39 "- [ ]   1 tablespoon maple syrup or honey"
* en-wittkuhn recipes/bananabread.md:17 "- [ ] 125 grams whole wheat or spelt flour"
* en-baw-drinks cocktails/sherry-flip.md:12 "- 60 ml oloroso or amontillado sherry"
"""

from __future__ import annotations

import pytest

from conftest import REPO, bot_over, quoted

GEN = REPO / "benchmarks" / "generalization"
POKE = GEN / "en-wittkuhn/docs/recipes/poke_bowl.md"
BANANA = GEN / "en-wittkuhn/docs/recipes/bananabread.md"
FLIP = GEN / "en-baw-drinks/docs/cocktails/sherry-flip.md"


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("reverse-subs"), {
        "recipes/poke_bowl.md": POKE, "recipes/bananabread.md": BANANA, "cocktails/sherry-flip.md": FLIP})


@pytest.mark.parametrize("question, x, y, line", [
    ("can I use honey in the poke bowl?", "maple syrup", "honey", (POKE, 39, "maple syrup or honey")),
    ("can I use spelt flour in the bananabread?", "whole wheat", "spelt flour", (BANANA, 17, "whole wheat or spelt flour")),
    ("can I use amontillado sherry in the sherry flip?", "oloroso", "amontillado", (FLIP, 12, "oloroso or amontillado sherry")),
])
def test_can_i_use_y_finds_what_y_replaces(ask, question, x, y, line):
    quoted(*line)
    a = ask(question, thread=question)
    assert a.intent == "substitute" and a.found, a.answer
    assert a.answer.startswith("Yes: "), a.answer
    assert x in a.answer and y in a.answer, a.answer
    assert a.facts and a.facts[0].relation == "SUBSTITUTES"


@pytest.mark.parametrize("question, y", [
    ("poke bowl sauce - no maple syrup, honey ok??", "honey"),
    ("sherry flip: no oloroso, amontillado ok?", "amontillado"),
])
def test_no_x_y_ok_reads_y_as_the_proposed_substitute(ask, question, y):
    a = ask(question, thread=question)
    assert a.intent == "substitute" and a.found, a.answer
    assert y in a.answer.split("\n")[0], a.answer


def test_can_i_use_y_with_nothing_named_is_still_asked_back(ask):
    a = ask("can I use honey?", thread="bare")
    assert not a.found and "not sure what you are referring to" in a.answer
