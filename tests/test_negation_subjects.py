"""Sentence-reader guards found by a newcomer's questions (incident-response
plan, PagerDuty) and checked on other corpora:

* a sentence led by a negative imperative lists what not to do, so its
  "X or Y" / "…, or Y" states no alternative — plan.docx ¶120, ops-2i2c-infra
  community-partner.md:26, HowToCook tips/learn/高压力锅.md:34;
* in a slot read before its cue, an article after a non-joining word starts
  the name ("in a small incident the Deputy might act as the Scribe" → Deputy;
  PagerDuty different_roles.md:122 "considered a \"domain expert\"" → domain expert);
* answers write no "the" before a name that is already determined ("anyone",
  "another IC").
"""

from __future__ import annotations

import pytest

from threadgraph.bot.words import with_article
from threadgraph.knowledge import cues


@pytest.mark.parametrize("sentence", [
    "Do not ask the Incident Commander, or the leader of the other team(s).",          # plan.docx ¶120
    "Do not change configuration or code outside of your community's cluster folder",  # ops-2i2c-infra
    "不要使用高压锅烹饪燕麦或者挂面等容易产生泡沫的食物",                                   # HowToCook 高压力锅.md:34
])
def test_a_negative_imperative_states_no_alternative(sentence):
    assert [c for c in cues.read(sentence, in_item=True) if c.kind != "optional"] == []


def test_the_same_alternative_without_the_negation_is_still_read():
    got = [(c.x, c.y) for c in cues.read("Butter or margarine", in_item=True)]
    assert got == [("Butter", "margarine")]


@pytest.mark.parametrize("sentence,x,y", [
    ("For example, in a small incident the Deputy might act as the Scribe and Internal Liaison.", "Scribe", "Deputy"),
    ('Anyone who is considered a "domain expert" can act as a resolver for an incident.', "resolver", "domain expert"),
    ("Typically the Deputy will act as the Scribe", "Scribe", "Deputy"),
])
def test_a_subject_after_an_introductory_phrase_is_the_last_noun_phrase(sentence, x, y):
    got = [(c.x, c.y.strip('"')) for c in cues.read(sentence) if c.kind == "standin"]
    assert (x, y) in got


def test_a_phrase_joined_by_of_keeps_its_article():
    got = [(c.x, c.y) for c in cues.read("the leader of the other team can act as the Deputy") if c.kind == "standin"]
    assert got == [("Deputy", "leader of the other team")]


@pytest.mark.parametrize("name,written", [
    ("Deputy", "the Deputy"), ("anyone", "anyone"), ("another IC", "another IC"), ("their delegate", "their delegate"),
])
def test_answers_put_the_before_undetermined_names_only(name, written):
    assert with_article(name) == written
