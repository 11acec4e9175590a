"""The item-line reader: with no graph fact, a line of the asked recipe that names the asked
item with an alternative, a condition or "optional" answers "what instead of X?", "can I use
Y?", "is X needed?" (bot/reader.py ``read_item_lines``; cues are data: ``item_line_cues`` in
bot/lexicon/words.yaml). Lines and questions are literals from the dev corpora:

* zh-meow 韩式凉拌面.md:7 "两勺雪碧（或1/3勺小苏打加一勺水）"
* zh-zehua recipes/risotto.md:11 "如果使用糙米需先用电饭锅用 1 cup 水把饭煮熟",
  recipes/whole-wheat-dinner-role.md:21 "最好用牛奶, 或非乳制品"
* en-ehrensberger bran-muffins.md:10 "1/4 c. molasses (table molasses is ok in a pinch, …)",
  coconut-almond-bars.md:16 "1 teaspoon vanilla (1 little package of vanilla sugar)"
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from conftest import REPO, bot_over
from threadgraph.bot import reader, words

GEN = REPO / "benchmarks" / "generalization"
MEOW_SAUCE = ("3. 拌酱： 一勺韩式辣酱，两瓣蒜切粒，一勺味极鲜酱油，两勺雪碧（或1/3勺小苏打加一勺水），"
              "一勺香油（或半勺香油加半勺螺狮粉辣油），半勺白糖，半勺白芝麻；")
BRAN = "1/4 c. shortening\n\n1/4 c. molasses (table molasses is ok in a pinch, but blackstrap/dark is much better)"
BARS = "2 eggs\n1 c. brown sugar (170 g)\n1 teaspoon vanilla (1 little package of vanilla sugar)"


@dataclass
class Chunk:
    id: str
    doc: str
    text: str
    line: int


def _read(asked, text, lang, line=1, candidates=()):
    return reader.read_item_lines(asked, [Chunk("p1", "d.md", text, line)], words.item_line_cue(lang),
                                  candidates=list(candidates))


def test_a_line_with_an_alternative_in_brackets_answers():
    got = _read(["雪碧"], MEOW_SAUCE, "zh", line=7)
    assert [(x.name, x.line) for x in got] == [("雪碧", 7)]
    assert "或1/3勺小苏打加一勺水" in got[0].text
    got = _read(["molasses"], BRAN, "en", line=8)
    assert [(x.name, x.line) for x in got] == [("molasses", 10)]
    assert got[0].text.startswith("1/4 c. molasses (table molasses is ok in a pinch")


def test_a_line_naming_the_item_without_a_cue_is_no_answer():
    assert _read(["shortening"], BRAN, "en") == []
    assert _read(["白糖"], "半勺白糖，半勺白芝麻；", "zh") == []


def test_a_second_asked_name_on_the_line_answers_without_a_cue():
    got = _read(["vanilla", "vanilla sugar"], BARS, "en", line=14)
    assert [(x.name, x.line) for x in got] == [("vanilla", 16)]
    # "vanilla" inside "vanilla sugar" alone is one name, not two
    assert _read(["vanilla"], "1 package vanilla sugar", "en") == []


def test_the_candidate_alone_may_be_the_asked_name():
    got = _read(["糙米"], "大米 1/2 cup (如果使用糙米需先用电饭锅用 1 cup 水把饭煮熟)", "zh")
    assert got and got[0].name == "糙米"


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("itemlines"),
                    {"zehua/risotto.md": GEN / "zh-zehua/docs/recipes/risotto.md",
                     "zehua/whole-wheat-dinner-role.md": GEN / "zh-zehua/docs/recipes/whole-wheat-dinner-role.md",
                     "ehrensberger/bran-muffins.md": GEN / "en-ehrensberger/docs/recipes/bran-muffins.md",
                     "ehrensberger/coconut-almond-bars.md": GEN / "en-ehrensberger/docs/recipes/coconut-almond-bars.md",
                     # a recipe that lists vanilla sugar as an ingredient of its own: the name is known to the KB
                     "ehrensberger/poppyseed-loaf.md": GEN / "en-ehrensberger/docs/recipes/poppyseed-loaf.md"})


def test_the_recipe_line_answers_when_the_graph_has_nothing_zh(ask):
    a = ask("烩饭可以用糙米吗？", thread="rice")
    assert a.found and "如果使用糙米需先用电饭锅用 1 cup 水把饭煮熟" in a.answer
    a = ask("全麦餐包里的牛奶能换成什么？", thread="roll")
    assert a.found and "最好用牛奶, 或非乳制品" in a.answer


def test_the_recipe_line_answers_when_the_graph_has_nothing_en(ask):
    a = ask("I only have table molasses at home. Will that do for the bran muffins?", thread="bran")
    assert a.found and "table molasses is ok in a pinch" in a.answer
    ask("I want to make the coconut-almond bars but I'm out of almonds", thread="bars")
    a = ask("and the vanilla? I only have vanilla sugar", thread="bars")
    assert a.found and "1 little package of vanilla sugar" in a.answer


def test_an_item_the_recipe_does_not_name_stays_no_evidence(ask):
    a = ask("烩饭可以用藜麦吗？", thread="quinoa")
    assert not a.found
    a = ask("Can I use maple syrup instead of molasses in the bran muffins?", thread="maple")
    assert "maple syrup" not in a.answer or not a.found
