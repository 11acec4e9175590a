"""A runbook's tools and systems can be replaced too: "what can I use instead
of X?" about a system or tool (not a recipe item) is answered from its
recorded alternatives (stand-in facts), through the real core on a KB of two
dev-corpus documents (the 4 MB test model). Literals from the documents:

* ops-2i2c-infra hubs/move-hubs/across-clusters.md:49 "As an alternative to `scp` you can use `rsync` as follows:"
* ops-govuk alerts/elasticsearch-cluster-health.html.md:48 "An alternative to using the dashboard is accessing the
  Elasticsearch health API"
"""

from __future__ import annotations

import pytest

from test_answers_dev import GEN, _asker, _kb

DOCS = {
    "infra/across-clusters.md": GEN / "ops-2i2c-infra/docs/hub-deployment-guide/hubs/move-hubs/across-clusters.md",
    "govuk/elasticsearch-cluster-health.html.md":
        GEN / "ops-govuk/docs/manual/alerts/elasticsearch-cluster-health.html.md",
}


@pytest.fixture(scope="module")
def systems_kb(tmp_path_factory):
    return _kb(tmp_path_factory, "systems", DOCS)


@pytest.fixture
def ask(systems_kb, tmp_path):
    return _asker(systems_kb, tmp_path)


def test_instead_of_a_tool_names_its_recorded_alternative(ask):
    a = ask("What can I use instead of scp?")
    assert a.found and "rsync" in a.answer.split("\n")[0]


def test_a_proposed_tool_is_checked_against_the_one_the_question_replaces(ask):
    a = ask("can I use rsync instead of scp?")
    first = a.answer.split("\n")[0]
    assert a.found and "scp" in first and "rsync" in first


def test_an_alternative_of_a_system_in_another_corpus(ask):
    a = ask("what can I use instead of the dashboard?")
    assert a.found and "Elasticsearch health API" in a.answer
