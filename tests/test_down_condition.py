"""A question whose condition is that a thing is down (issue 11, newcomer 3 Q22): the documents
cover it only when a passage names the thing together with an outage / fallback word. Lines are
literals of the source files:

* PagerDuty docs/during/during_an_incident.md:42 "* Manually page them via Slack, with `!ic page`
  in Slack. …" and docs/training/courses/incident_response.md:236 "… the Scribe will be writing
  down notes into a Slack room …": Slack named, its outage not covered
* ops-govuk manual/slack-unavailable.html.md:10 "If Slack has an outage, we use Google Spaces as a
  fallback." and manual/fall-back-to-aws-cloudfront.html.md:9 "There is a backup Content Delivery
  Network (CDN) that can be used if Fastly is down."
* ops-gdsway standards/disaster-recovery.html.md:76 "… but not a major outage impacting multiple
  availability zones or an entire AWS region." (asked: "If a whole AWS region goes down, …")
"""

from __future__ import annotations

from conftest import GEN, REPO, doc_lines

PD = REPO / "corpora/pagerduty-incident-response/docs"
GOVUK = GEN / "ops-govuk/docs/manual"
GDSWAY = GEN / "ops-gdsway/docs/standards"


def test_the_condition_names_the_thing_that_is_down():
    from threadgraph.bot.words import down_thing

    assert down_thing("What do I do if Slack is down during an incident?") == "Slack"
    assert down_thing("what happens when the VPN goes offline") == "VPN"
    assert down_thing("Who do we call during a Fastly outage?") == "Fastly"
    assert down_thing("What should the deputy do during a major incident?") == ""
    assert down_thing("What do I do if the IC does not answer?") == ""


def test_pagerduty_lines_name_slack_but_not_its_outage():
    from threadgraph.bot.evidence import says_down

    page = doc_lines(PD / "during/during_an_incident.md", 42, 42)
    scribe = doc_lines(PD / "training/courses/incident_response.md", 236, 236)
    assert "Manually page them via Slack" in page and "writing down notes into a Slack room" in scribe
    assert not says_down("Slack", page)
    assert not says_down("Slack", scribe)


def test_ops_govuk_lines_cover_an_outage():
    from threadgraph.bot.evidence import says_down

    slack = doc_lines(GOVUK / "slack-unavailable.html.md", 10, 10)
    assert slack == "If Slack has an outage, we use Google Spaces as a fallback."
    assert says_down("Slack", slack)
    cdn = doc_lines(GOVUK / "fall-back-to-aws-cloudfront.html.md", 9, 9)
    assert cdn == "There is a backup Content Delivery Network (CDN) that can be used if Fastly is down."
    assert says_down("Fastly", cdn)
    assert not says_down("Slack", cdn)


def test_ops_gdsway_a_modified_thing_is_matched_by_its_head():
    from threadgraph.bot.evidence import says_down
    from threadgraph.bot.words import down_thing

    thing = down_thing("If a whole AWS region goes down, where could the service be recreated?")
    assert thing == "whole AWS region"
    line = doc_lines(GDSWAY / "disaster-recovery.html.md", 76, 76)
    assert "a major outage impacting multiple availability zones or an entire AWS region" in line
    assert says_down(thing, line)
