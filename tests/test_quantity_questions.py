"""A question asking for an amount or a duration is answered by a passage only
when the passage states one. Literals from the documents:

* PagerDuty different_roles.md:91 "1. Ensure the incident call is being recorded." (list numbering is no amount)
* zh-meow 茶叶蛋.md:15 "7. 关火后让鸡蛋在卤水中浸泡至少六小时或一整晚，即可食用。"
* HowToCook 水煮玉米: "从准备到上桌只需大约 15 分钟"
"""

from __future__ import annotations

import pytest

from threadgraph.bot.words import asks_quantity, states_quantity


@pytest.mark.parametrize("q", ["how long do we keep incident call recordings?", "茶叶蛋煮好后要泡多久？",
                               "At what temperature do I bake the granola?", "红烧肉放多少糖"])
def test_quantity_questions(q):
    assert asks_quantity(q)


@pytest.mark.parametrize("q", ["who writes the postmortem?", "宫保鸡丁怎么做？", "what can I use instead of scp?"])
def test_other_questions(q):
    assert not asks_quantity(q)


def test_list_numbering_states_no_amount():
    assert not states_quantity("1. Ensure the incident call is being recorded.\n2. Note in chat and in the file timelines")


@pytest.mark.parametrize("text", ["7. 关火后让鸡蛋在卤水中浸泡至少六小时或一整晚，即可食用。", "从准备到上桌只需大约 15 分钟"])
def test_durations_are_stated(text):
    assert states_quantity(text)
