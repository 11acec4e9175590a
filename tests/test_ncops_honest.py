"""Honest answers on handbooks (newcomer questions on the PagerDuty SOPs, checked on dev ops
corpora too): a question for a specific value is answered only by a sentence holding one; a
two-part question is answered part by part; a stand-in's condition stays with its own sentence."""

from __future__ import annotations

from conftest import CORPORA, GEN, bot_over, doc_lines, quoted

from threadgraph.bot import parts
from threadgraph.bot.words import value_kind, value_phrase, value_sentence

PD = CORPORA / "pagerduty-incident-response" / "docs"
GOVUK = GEN / "ops-govuk" / "docs"
INFRA = GEN / "ops-2i2c-infra" / "docs"


# -- a specific value ---------------------------------------------------------------------------
def test_value_kind_reads_the_head_of_the_asked_phrase():
    assert value_kind("What is PagerDuty's production AWS account ID?") == "identifier"  # newcomer, PagerDuty
    assert value_kind("What's the contact address for people outside GDS?") == "address"
    assert value_kind("which version is the GKE master on?") == ""  # no "what is …": not read
    assert value_kind("What is the GKE master version?") == "version"
    # a kind word that is not the head of what is asked (dev questions of ops-k8s-src, ops-lullabot)
    assert value_kind("What do I use when the reserved CVE IDs for this year are exhausted?") == ""
    assert value_kind("What are the steps to decommission a client email group?") == ""
    assert value_kind("What does the Incident Commander do?") == ""
    # what a reply says the documents do not state: the asked phrase as written
    assert value_phrase("What is PagerDuty's production AWS account ID?") == "PagerDuty's production AWS account ID"
    assert value_phrase("What is the Incident Commander's phone number?") == "the Incident Commander's phone number"


def test_value_sentence_needs_a_value_of_the_kind_near_an_asked_word():
    # ops-govuk: a web address in the sentence that answers
    line = doc_lines(GOVUK / "kubernetes" / "contact-platform-engineering-team.html.md", 15, 15)
    quoted(GOVUK / "kubernetes" / "contact-platform-engineering-team.html.md", 15, "www.gov.uk/contact")
    assert value_sentence("address", line, ["contact", "outside"])
    assert not value_sentence("address", line, ["billing"])  # a value, but not beside what is asked
    # ops-2i2c-infra: a version written in the line
    line = doc_lines(INFRA / "howto" / "upgrade-cluster" / "k8s-version" / "gke.md", 51, 51)
    quoted(INFRA / "howto" / "upgrade-cluster" / "k8s-version" / "gke.md", 51, "1.32.1-gke.1357001")
    assert value_sentence("version", line, ["master", "version"])
    # PagerDuty: a definition holds no identifier ("SEV-2"-like labels are none either)
    line = doc_lines(PD / "before" / "what_is_an_incident.md", 8, 8)
    quoted(PD / "before" / "what_is_an_incident.md", 8, "Any unplanned disruption")
    assert not value_sentence("identifier", line, ["pagerduty", "production", "account"])
    line = doc_lines(PD / "before" / "severity_levels.md", 42, 42)
    assert not value_sentence("identifier", line, ["pagerduty", "production", "account"])


def test_an_unheld_value_is_not_found_and_the_closest_passage_is_related(tmp_path):
    ask = bot_over(tmp_path, {"before/what_is_an_incident.md": PD / "before" / "what_is_an_incident.md",
                              "index.md": PD / "index.md"})
    a = ask("What is PagerDuty's production AWS account ID?")
    assert not a.found
    assert "PagerDuty's production AWS account ID" in a.answer  # says what it does not hold


def test_a_value_question_routed_to_a_role_is_not_answered_by_its_duties(bot):
    # the bundled KB has the Incident Commander's duties but no phone number of theirs
    from threadgraph.bot.message import IncomingMessage, ThreadKey

    a = bot.answer(IncomingMessage(thread=ThreadKey(platform="test", thread="ic-phone"),
                                   text="What is the Incident Commander's phone number?"))
    assert not a.found
    assert "the Incident Commander's phone number" in a.answer


# -- two-part questions --------------------------------------------------------------------------
def test_split_two_part_questions():
    # the newcomer's PagerDuty question: the pronoun of the second part is the first part's object
    assert parts.split("When do we need a postmortem and who owns it?", "en") == (
        "When do we need a postmortem?", "who owns a postmortem?")
    # ops-18f dev question: an elliptical tail ("and how fast?") is no second question
    assert parts.split("Who do I email to report a security incident, and how fast?", "en") is None
    # ops-govuk dev question: one question
    assert parts.split("Who gets paged if the Primary Engineer doesn't acknowledge a PagerDuty alert?", "en") is None


def test_two_part_question_is_answered_part_by_part(tmp_path):
    pm = PD / "after" / "post_mortem_process.md"
    quoted(pm, 5, "For every major incident (SEV-2/1), we need to follow up with a postmortem.")
    quoted(pm, 11, "The first step is designating a postmortem owner. This is done by the IC")
    ask = bot_over(tmp_path, {"after/post_mortem_process.md": pm})
    a = ask("When do we need a postmortem and who owns it?")
    assert a.found
    assert "When do we need a postmortem?" in a.answer and "who owns a postmortem?" in a.answer
    assert "post_mortem_process.md:" in a.answer


# -- a stand-in's condition ------------------------------------------------------------------------
def test_merged_stand_in_drops_a_condition_of_one_sentence(bot):
    # the bundled KB records "another Incident Commander" from a plain sentence and, under a
    # condition, from another: the merged stand-in is shown without that one sentence's condition
    from threadgraph.bot.message import IncomingMessage, ThreadKey

    ic = PD / "training" / "incident_commander.md"
    quoted(ic, 224, "transferring command to another Incident Commander")
    course = PD / "training" / "courses" / "incident_response.md"
    quoted(course, 936, "If you absolutely are the only person who can solve the problem, then handover to another IC")
    a = bot.answer(IncomingMessage(thread=ThreadKey(platform="test", thread="ic"),
                                   text="Who takes over if the Incident Commander is unavailable?"))
    assert a.found and "another Incident Commander" in a.answer
    conds = {f.properties.get("condition") or "" for f in a.facts if f.object.casefold() in ("another ic", "another incident commander")}
    assert len(conds) > 1  # the group's sentences disagree on the condition
    assert "only person who can solve" not in a.answer


def test_single_source_stand_in_keeps_its_condition(tmp_path):
    oc = GOVUK / "manual" / "on-call.html.md"
    quoted(oc, 36, "if the on-call SMT is unavailable")
    ask = bot_over(tmp_path, {"manual/on-call.html.md": oc})
    a = ask("Who can stand in for the on-call SMT?")
    assert a.found
    # one sentence states it under a condition: shown as a clause beside that stand-in
    assert "(if the on-call SMT is unavailable)" in a.answer
