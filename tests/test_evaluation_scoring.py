"""Scoring rules of the evaluation (evaluation.py)."""

from threadgraph.evaluation import _occurs


def test_short_latin_alternatives_match_whole_words_only():
    assert _occurs("IC", "ask the IC, then post")
    assert not _occurs("IC", "specifically the scribe")
    assert _occurs("SME", "(SME) joins")


def test_cjk_and_phrases_match_as_substrings():
    assert _occurs("鸡胸肉", "手枪腿可以用鸡胸肉代替")
    assert _occurs("status page", "Update the Status Page now")


def test_ordinary_words_still_match_inflections():
    assert _occurs("record", "Ensure the call is being recorded.")
