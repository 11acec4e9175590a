"""Answers to ops questions that generalize (issue 11): mechanisms tested on real lines of
at least two dev corpora each."""

from __future__ import annotations

from conftest import REPO, doc_lines

GEN = REPO / "benchmarks" / "generalization"
F18_PASSWORDS = GEN / "ops-18f/docs/general-information-and-resources/tech-policies/password-requirements.md"
F18_LOGIN = GEN / "ops-18f/docs/getting-started/how-to-log-in.md"
I2C_TOOLS = GEN / "ops-2i2c-infra/docs/reference/tools.md"


class _NgramIndex:
    """A KB whose full-text search ranks ``pool`` first: passages holding the letters of a short
    name inside longer words, as the 2–3-gram index ranks them, before the one that writes it."""

    def __init__(self, pool: list[str]):
        self.calls: list[tuple[str, int]] = []
        outer = self

        class vectors:  # noqa: N801 - the attribute name of a KB
            @staticmethod
            def search(text, vector=None, *, limit=8, mode="hybrid"):
                outer.calls.append((text, limit))
                from types import SimpleNamespace

                return [SimpleNamespace(section="", text=x) for x in pool[:limit]]

        self.vectors = vectors


def test_a_name_the_retrieved_passages_write_is_not_absent():
    """ops-18f: 'ENT' is written in the passages the question retrieved; ops-2i2c-infra: 'GUI' too.
    Neither is searched for again, and neither is called absent."""
    from threadgraph.bot.evidence import absent_names

    ent = doc_lines(F18_PASSWORDS, 57, 58)
    assert "Amazon password as your ENT" in ent
    kb = _NgramIndex([])
    assert absent_names("Should I reuse my Amazon password for ENT?", kb, [], [ent]) == []
    gui = doc_lines(I2C_TOOLS, 26, 26)
    assert "is an amazing GUI for exploring" in gui
    assert absent_names("Is there a GUI alternative to kubectl?", kb, [], [gui]) == []
    assert kb.calls == []


def test_a_short_name_is_looked_for_beyond_the_first_ngram_hits():
    """The 2–3-gram index ranks passages with 'ent' inside longer words ("environment",
    "document") before one that writes 'ENT' (ops-18f); a 3-letter name written on the 11th
    passage is still found, and a name written nowhere is absent."""
    from threadgraph.bot.evidence import ABSENT_POOL, absent_names

    noise = ["If an incident involved exposing environment variables or private configuration data"] * 10
    kb = _NgramIndex(noise + [doc_lines(F18_LOGIN, 28, 28)])
    assert ABSENT_POOL > 10
    assert absent_names("How often do I change my ENT password?", kb, []) == []
    assert absent_names("Can I use my PIV card for Zork?", _NgramIndex(noise), []) == ["PIV", "Zork"]
