"""Bounded work per message (issue 14): a message is read up to ``max_question_chars``, no
phrase pattern backtracks catastrophically, understanding stops at a deadline, and a crafted
message never holds up other chats. No absolute timings are asserted (machines are noisy):
growth ratios, cuts and deadlines are. ``benchmarks/adversarial.py`` measures CPU per message."""

from __future__ import annotations

import logging
import re
import time

import pytest

from conftest import Q

pytestmark = pytest.mark.timeout(300)  # a hang guard: the growth test takes ~30 s alone, far more on a loaded machine

#: Units whose long runs are the worst known inputs of the phrase patterns (the characters and
#: words their lazy groups stop at); found by benchmarks/adversarial.py's search.
UNITS = ["no ", " no", "for no ", "里没有", "没有", "中的", "与与", "的", "，", " in", " and", "?", "呢？",
         "能用", "需要放", "are ? ", "面里", "缺少  什么", "里可以用", "what does ", "if the ", "can i use x for "]


def _search_cpu(rx, text: str, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        rx.search(text)
        best = min(best, time.process_time() - t0)
    return best


def _rules():
    from threadgraph.bot import intents

    seen, out = set(), []
    for lang in ("zh", "en"):
        for r in intents.rules(lang) + intents.fallback_rules(lang):
            if r.id not in seen:
                seen.add(r.id)
                out.append(r)
    return out


#: The same for the cue patterns of knowledge/lexicon/cues.yaml (read sentence by sentence at ingest).
CUE_UNITS = ["/ .", "\n ", "  ", "make an ", "x can ", "  a", "P are ", " will ", "若缺少", " 's", "can es ",
             "are swap ", "(or y) ", "a or b ", "或", "没有x，用y"]


def _superlinear(rules, units) -> list:
    """``(rule, unit, ms at 1,000, ms at 4,000)`` for every rule whose search on 4x the input
    costs more than 10x (linear is 4x, quadratic 16x); rules under 2 ms on 4,000 characters are
    bounded whatever their shape and skipped."""
    slow = []
    for rid, rx in rules:
        for unit in units:
            big = (unit * 4000)[:4000]
            t_big = _search_cpu(rx, big)
            if t_big < 0.002:
                continue
            t_small = _search_cpu(rx, big[:1000])
            if t_big > 10 * max(t_small, 1e-4):
                slow.append((rid, unit, round(t_small * 1000, 2), round(t_big * 1000, 2)))
    return slow


def test_no_phrase_pattern_grows_faster_than_linearly():
    """The old substitute/en/180 was cubic: 3.5 s on 1,000 characters, minutes on 4,000."""
    assert _superlinear([(r.id, r.regex) for r in _rules()], UNITS) == []


def test_no_cue_pattern_grows_faster_than_linearly():
    """The old en.or_y / zh.or_y split a run of spaces two ways (quadratic: 0.8 s on 4,000
    characters), en.x_slash_y tried every slash for X (0.3 s per 1,000 characters)."""
    from threadgraph.knowledge import cues

    assert _superlinear([(r.id, r.rx) for r in cues.rules()], CUE_UNITS) == []


def test_long_message_is_read_up_to_the_cap_and_the_answer_says_so(ask, bot):
    assert bot.settings.max_question_chars == 1000
    a = ask(Q + "的" * 40_000, thread="cap-zh")
    assert a.answer.startswith("（消息太长，我只读了前 1000 个字。）")
    assert len(a.question) == 1000 and a.question.startswith(Q)
    assert a.intent == "substitute" and a.found and "鸡胸肉" in a.answer  # the question in the first 1,000 was answered
    b = ask("who can stand in for the Incident Commander? " + "no " * 20_000, thread="cap-en")
    assert b.answer.startswith("(Your message is long: I read only its first 1000 characters.)")
    short = ask(Q, thread="cap-short")
    assert "只读了前" not in short.answer


def test_cut_costs_the_same_as_the_cap(bot):
    """A 40,000-character message costs about what its first 1,000 characters cost (ratio, not
    time): the work does not grow with what is cut away."""
    from threadgraph.bot.message import IncomingMessage, ThreadKey

    def cpu(text: str, thread: str) -> float:
        best = float("inf")
        for i in range(3):
            t0 = time.process_time()
            bot.answer(IncomingMessage(thread=ThreadKey(platform="test", thread=f"{thread}{i}"), text=text))
            best = min(best, time.process_time() - t0)
        return best

    unit = " no"
    small = cpu((unit * 400)[:1000], "c1-")
    big = cpu((unit * 14_000)[:40_000], "c40-")
    assert big < 3 * small + 0.05


def test_understanding_stops_at_its_deadline(bot, caplog):
    from threadgraph.bot.understand import understand

    linker = bot._linker(bot.kb.get())
    on_time = understand(Q, linker, cpu_budget_s=60)
    assert on_time.intent == "substitute" and on_time.rule == "substitute/zh/20"
    caplog.set_level(logging.WARNING)
    late = understand(Q, linker, cpu_budget_s=-1)
    assert late.intent == "general" and late.rule == ""
    assert any(n.name == "宫保鸡丁" for n in late.mentions)  # entities still found by the scan
    assert any("deadline" in r.getMessage() for r in caplog.records)


def test_whitespace_runs_and_newlines_read_as_one_space(bot):
    from threadgraph.bot.understand import understand

    linker = bot._linker(bot.kb.get())
    u = understand("who can   stand in\n\n for the   Incident\tCommander?", linker)
    assert u.intent == "stand_in"
    assert [m.name for m in u.mentions] == ["Incident Commander"]


def test_patterns_mention_their_bounds_in_the_data_files():
    """Every slot a pattern leaves open in the middle is length-bounded in its YAML file (the
    bound is data, visible to whoever edits a pattern)."""
    open_inner = []
    for rule in _rules():
        # a lazy unbounded group followed by more required pattern than an optional tail and $
        for m in re.finditer(r"\(\?P<\w+>(?:\.|\[\^[^\]]*\])\+\?\)", rule.regex.pattern):
            rest = rule.regex.pattern[m.end():]
            if re.search(r"\(\?P<\w+>(?:\.|\[\^[^\]]*\])\+\?\)", rest):
                open_inner.append(rule.id)
    assert open_inner == []


def test_a_long_question_is_searched_by_its_start():
    """Embedding costs ~1 ms of CPU per model token: the passage search embeds at most 48
    (estimated) tokens of the question; every real question fits whole."""
    from threadgraph.bot.evidence import query_text

    assert query_text(Q) == Q
    assert query_text("who can stand in for the Incident Commander if they are away?") == \
        "who can stand in for the Incident Commander if they are away?"
    assert query_text("，" * 1000) == "，" * 48
    assert query_text(" no" * 1000) == " no" * 48
    assert query_text("宫保鸡丁" * 100) == ("宫保鸡丁" * 12)
    assert query_text("supercalifragilistic " * 50) == ("supercalifragilistic " * 9).strip()  # 5 tokens a word: 9 fit
