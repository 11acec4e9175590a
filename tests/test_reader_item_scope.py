"""The reader fallback reads list-item-only cues ("X or Y" offered in an ingredient line) only
on list-item lines, as ingest does: in running prose "X or Y" is a choice between two options,
never a stand-in. Real lines of three dev corpora:

* ops-k8s-src security-release-process.md:96 "The incident commander defaults to the current
  oncall, but may be handed off to other SRC or Kubernetes maintainers."
* ops-lullabot communications/slack.md:20 "Unneeded Slack channels can either be deleted or archived."
* en-baw-drinks cocktails/sherry-flip.md:12 "- 60 ml oloroso or amontillado sherry"
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conftest import REPO, doc_lines
from threadgraph.bot import reader

GEN = REPO / "benchmarks" / "generalization"


def _passage(text: str):
    return SimpleNamespace(id="p", doc="d", text=text, line=1)


@pytest.mark.parametrize("intent, asked, path, line", [
    ("stand_in", "SRC", GEN / "ops-k8s-src/docs/security-release-process.md", 96),
    ("substitute", "Slack channels", GEN / "ops-lullabot/docs/communications/slack.md", 20),
])
def test_or_in_running_prose_is_no_stand_in(intent, asked, path, line):
    text = doc_lines(path, line, line)
    assert " or " in text
    assert reader.read_passages(intent, [asked], [_passage(text)]) == []


def test_or_in_a_list_item_still_reads():
    text = doc_lines(GEN / "en-baw-drinks/docs/cocktails/sherry-flip.md", 10, 12)
    assert "- 60 ml oloroso or amontillado sherry" in text
    found = reader.read_passages("substitute", ["oloroso"], [_passage(text)])
    assert [(r.x, r.y) for r in found] == [("oloroso", "amontillado sherry")]


def test_in_list_item():
    assert reader.in_list_item("intro\n- a or b", 8)
    assert reader.in_list_item("| a or b |", 2)
    assert reader.in_list_item("1. a or b", 3)
    assert not reader.in_list_item("intro\nA or B in prose.", 8)
