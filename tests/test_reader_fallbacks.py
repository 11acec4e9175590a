"""Reader fallbacks that keep a "no evidence" answer from being given while a passage answers
(issue 11). Real lines of dev corpora:

* what the user lacks: zh-seraphroy 2025-01-06-萝卜-芋头糕.md:41 "…没有大的蒸炉可以用烤箱代替。…",
  zh-hidetoshi staple-dishes/抓饭.md:154 "- 青辣椒/尖椒 切丝";
* the list under an asked name: zh-jzkitchen 2016-08-27-青咖哩煮雞.md:31-43 (a list item with
  sub-items), 2016-07-04-軟嫩多汁肉丸秘訣大公開-紅咖哩肉丸.md:31-43, zh-hidetoshi
  staple-dishes/抓饭.md:147-158 (the list under a heading);
* the question echo: zh-seraphroy 2025-08-24-三文鱼糖-candied-salmon.md:17 "  * 传统用红糖是10%的红糖和表面上一点的蜂蜜",
  zh-hidetoshi meat-dishes/牛肉炖土豆.md:12 "| 土豆 | 3 个中等大小（土豆建议用粉糯型） |".
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conftest import REPO, doc_lines
from threadgraph.bot import intents, reader, words
from threadgraph.bot.core import ThreadGraphBot
from threadgraph.bot.answer import Answer
from threadgraph.bot.linker import Mention
from threadgraph.bot.memory import ThreadState
from threadgraph.bot.query import Query, Understanding

GEN = REPO / "benchmarks" / "generalization"
CAKE = GEN / "zh-seraphroy/docs/2025-01-06-萝卜-芋头糕.md"
SALMON = GEN / "zh-seraphroy/docs/2025-08-24-三文鱼糖-candied-salmon.md"
POLU = GEN / "zh-hidetoshi/docs/staple-dishes/抓饭.md"
STEW = GEN / "zh-hidetoshi/docs/meat-dishes/牛肉炖土豆.md"
CURRY = GEN / "zh-jzkitchen/docs/2016-08-27-青咖哩煮雞.md"
BALLS = GEN / "zh-jzkitchen/docs/2016-07-04-軟嫩多汁肉丸秘訣大公開-紅咖哩肉丸.md"


def _passage(text: str, line: int = 1, section: str = ""):
    return SimpleNamespace(id="p", doc="d.md", text=text, line=line, section=section)


# -- what the user lacks ------------------------------------------------------------------

@pytest.mark.parametrize("path, line, intent, lacked, expected", [
    (CAKE, 41, "required", "大的蒸炉", ("大的蒸炉", "烤箱")),
    (POLU, 154, "exclude", "青辣椒", ("青辣椒", "尖椒")),
])
def test_a_lacked_name_is_answered_by_its_substitution(path, line, intent, lacked, expected):
    text = doc_lines(path, line, line)
    p = _passage(text, line)
    # the intent alone asks for no substitution: nothing is read
    assert reader.read_passages(intent, [lacked], [p]) == []
    found = reader.read_passages(intent, [lacked], [p], lacked=[lacked])
    assert [(r.x, r.y) for r in found] == [expected]
    assert found[0].line == line


def test_a_substitution_for_another_name_is_not_read_for_the_lacked_one():
    text = doc_lines(CAKE, 41, 41)
    # the user lacks 萝卜, the sentence replaces 大的蒸炉: no answer about 萝卜
    assert reader.read_passages("required", ["萝卜", "大的蒸炉"], [_passage(text)], lacked=["萝卜"]) == []


# -- the list under an asked name -----------------------------------------------------------

def test_sub_items_of_a_list_item_are_its_parts():
    text = doc_lines(CURRY, 29, 44)
    parts = reader.read_parts(["青咖哩醬"], [_passage(text, 29)])
    assert parts is not None and parts.name == "青咖哩醬"
    assert parts.line == 31
    assert "青尖椒 3 條 [去籽、切粒]" in parts.items
    assert "香茅 1 支 [先拍打，後切片]" in parts.items
    assert "南薑 1 顆 [約1 吋，去皮、切碎]" in parts.items
    assert "椰奶 150 ml" not in parts.items  # an item of the dish, not of the paste


def test_sub_items_of_the_second_list_item():
    text = doc_lines(BALLS, 29, 44)
    parts = reader.read_parts(["紅咖哩汁"], [_passage(text, 29)])
    assert parts is not None and parts.line == 37
    assert parts.items[0] == "紅咖哩醬 red curry paste 1包 (每包 $6-8 ，東南亞食品舖有售)"
    assert "雞湯 / 水 少許" in parts.items
    assert "蛋 1 隻" not in parts.items  # the meatballs' own sub-items


def test_list_under_a_heading_naming_the_asked_name():
    heading = doc_lines(POLU, 147, 147).lstrip("# ")
    text = doc_lines(POLU, 149, 158)
    parts = reader.read_parts(["皮辣红"], [_passage(text, 149, heading)])
    assert parts is not None and parts.name == "皮辣红"
    assert "洋葱（皮牙子）切丝" in parts.items
    assert "西红柿 切片/块" in parts.items
    assert "醋（多放）、盐、生抽（少许）、辣椒油（可选）。" in parts.items


def test_no_list_under_the_name_reads_nothing():
    assert reader.read_parts(["椰奶"], [_passage(doc_lines(CURRY, 29, 44), 29)]) is None
    # a heading naming something else
    heading = doc_lines(POLU, 147, 147).lstrip("# ")
    assert reader.read_parts(["抓饭米"], [_passage(doc_lines(POLU, 149, 158), 149, heading)]) is None


# -- the question echo -----------------------------------------------------------------------

@pytest.mark.parametrize("question, asked, path, line, echo", [
    ("三文鱼糖不用蜂蜜的话传统用什么？", "蜂蜜", SALMON, 17, "传统用"),
    ("牛肉炖土豆的土豆建议用什么？", "土豆", STEW, 12, "土豆的土豆建议用"),
])
def test_the_question_echo_finds_the_line_filling_the_wh_slot(question, asked, path, line, echo):
    data = words.question_echo("zh")
    assert reader.question_echo(question, data) == echo
    text = doc_lines(path, line, line)
    found = reader.echo_line(question, [asked], [_passage(text, line)], data)
    assert found is not None and found.line == line and found.name == asked
    assert found.text == text.strip().lstrip("-*•>#").strip()


def test_an_echo_of_generic_words_or_the_asked_item_reads_nothing():
    data = words.question_echo("zh")
    text = doc_lines(SALMON, 17, 17)
    # "可以用" says nothing of its own; "蜂蜜可以用" only adds the asked item
    assert reader.echo_line("蜂蜜可以用什么代替？", ["蜂蜜"], [_passage(text)], data) is None
    # the echo is written, but the line does not name the asked item
    assert reader.echo_line("三文鱼糖不用盐的话传统用什么？", ["粗盐"], [_passage(text)], data) is None
    assert reader.echo_line("三文鱼糖传统用什么？", ["蜂蜜"], [_passage(text)], None) is None


# -- a follow-up keeps an item the KB has no entity for ------------------------------------

def test_an_unlinked_item_found_by_the_answer_is_asked_again_in_an_elliptical_follow_up():
    state = ThreadState()
    q = Query(intent="required", language="en", text="Is iru optional in ewedu soup?",
              ctx=[Mention("ewedu soup", "Ewedu Soup", "recipe", "recipe:ewedu", 0)],
              unknown=[Mention("iru", "iru", "unknown", None, 3, "unknown")], asked_texts=["iru"])
    ans = Answer(thread="t", question=q.text, intent="required", found=True, answer="Yes", language="en")
    ThreadGraphBot._remember(None, state, q, ans, q.text)
    assert state.slots["asked_item"].name == "iru" and "item" not in state.slots
    q2 = Query(intent="required", language="en", text="And in egusi?",
               ctx=[Mention("egusi", "Egusi Soup", "recipe", "recipe:egusi", 7)])
    u2 = Understanding(text="And in egusi?", intent="required", language="en", elliptical=True)
    intents.get("required").recall(q2, u2, state)
    assert [m.surface for m in q2.unknown] == ["iru"] and not q2.items
    # a not-found answer leaves nothing to ask again
    state2 = ThreadState()
    ThreadGraphBot._remember(None, state2, q, Answer(thread="t", question=q.text, intent="required", found=False,
                                                   answer="no", language="en"), q.text)
    assert "asked_item" not in state2.slots


# -- a follow-up about a dish described in a section ----------------------------------------

def test_sections_titled_with_a_dish_are_found(tmp_path):
    """zh-hidetoshi staple-dishes/抓饭.md:147 "## 🥗 最佳搭档：皮辣红 (凉拌菜)"; zh-jzkitchen
    2016-08-27-青咖哩煮雞.md:28 "### 材料" under "## 青咖哩煮雞"."""
    import shutil

    from conftest import tiny_settings
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge import retrieval
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    src = tmp_path / "docs"
    src.mkdir()
    for p in (POLU, CURRY):
        shutil.copyfile(p, src / p.name)
    assert run_ingest([src], tiny_settings(tmp_path / "data"), no_vectors=True).ok
    g = GraphStore(current_build(tmp_path / "data") / "graph.kuzu", read_only=True)
    hits = retrieval.titled_chunks(g, "皮辣红")
    assert hits and all("皮辣红" in h.section for h in hits)
    # the list under the bold label "**食材**：" (抓饭.md:151-155) is a sub-section of the titled section
    assert any("洋葱（皮牙子）切丝" in h.text for h in hits)
    assert retrieval.titled_chunks(g, "皮") == []


def test_an_answered_follow_up_naming_no_dish_keeps_the_dish():
    state = ThreadState(dish="皮辣红")
    q = Query(intent="exclude", language="zh", text="没有青辣椒呢？",
              unknown=[Mention("青辣椒", "青辣椒", "unknown", None, 2, "unknown")], asked_texts=["青辣椒"])
    ThreadGraphBot._remember(None, state, q, Answer(thread="t", question=q.text, intent="exclude", found=True,
                                                   answer="可以用尖椒代替青辣椒。", language="zh"), q.text)
    assert state.dish == "皮辣红"
    ThreadGraphBot._remember(None, state, q, Answer(thread="t", question=q.text, intent="exclude", found=False,
                                                   answer="没有", language="zh"), q.text)
    assert state.dish == ""
