"""What a newcomer got wrong on the bundled SOPs (issue 11): the reply of a "who is responsible
for doing X" question names the role, a "no evidence about …" reply cuts a long phrase at a word
boundary. Lines quoted from the PagerDuty corpus and from dev ops corpora."""

from __future__ import annotations

from threadgraph.bot import who
from threadgraph.bot.compose import not_found_text, word_cut


# -- "who is responsible for doing X?" reads the verb of X ----------------------------------------------

def test_responsible_for_a_gerund_asks_who_does_it():
    # pagerduty (the newcomer's Q21) and a general phrasing of the same construction
    assert who.question_verb("Who is responsible for communicating with customers during an incident?") == "communicating"
    assert who.question_verb("Who is in charge of paging the on-call engineers?") == "paging"
    assert who.question_verb("Who is accountable for approving the pull request?") == "approving"
    # "responsible for the <noun>" names no action: no verb (the responsible_for facts answer it)
    assert who.question_verb("Who is responsible for the status page?") == ""


def test_a_gerund_joins_its_verb_group():
    talk = who.verb_forms("communicating")
    # pagerduty, training/customer_liaison.md line 27
    assert who._has_verb(talk, "The objective of a Customer Liaison is to keep our customers informed during an "
                               "incident as to what is happening, and to act as a voice for our customers to the Incident Commander.")
    # ops-gdsway, standards/incident-management.html.md line 140
    assert who._has_verb(talk, "Make sure internal and external parties, like Information Security or your service "
                               "users are fully informed at every stage of your incident management process.")
    # ops-govuk, manual/ask-for-help.html.md line 27
    assert who._has_verb(talk, "In addition, there's a `#govuk-technical-on-call` channel that can be used to "
                               "communicate with the on-call engineers in a public forum.")
    page = who.verb_forms("paging")
    assert who._has_verb(page, "Page SME's or other on-call engineers as instructed by the Incident Commander.")  # pagerduty
    assert not who._has_verb(page, "Make sure internal and external parties, like Information Security or your service "
                                   "users are fully informed at every stage of your incident management process.")  # ops-gdsway


def test_stems_of_inflections():
    assert who._stem("communicating") == who._stem("communicate") == "communicat"
    assert who._stem("running") == "run"
    assert who._stem("paging") == who._stem("page") == "pag"
    assert who._stem("tell") == "tell"


# -- a long unknown phrase is cut at a word boundary ---------------------------------------------------

def test_word_cut_never_cuts_inside_a_word():
    q = "set up Kubernetes horizontal pod autoscaling"
    assert word_cut(q, 40) == "set up Kubernetes horizontal pod"
    assert word_cut(q, 200) == q
    assert word_cut("Supercalifragilisticexpialidocious", 10) == "Supercalif"   # one long word: cut at the limit
    assert word_cut("宫保鸡丁没有花生用什么代替", 4) == "宫保鸡丁"                  # CJK: cut at the limit


def test_not_found_after_an_ellipsis_adds_no_full_stop():
    assert not_found_text("en", "set up Kubernetes horizontal pod…", []) == \
        "The knowledge base has no evidence about set up Kubernetes horizontal pod…"
    assert not_found_text("en", "autoscaling", []) == "The knowledge base has no evidence about autoscaling."
