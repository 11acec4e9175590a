"""Fallbacks between systems, tools, channels and regions (issue 10, session 28): the constructions operations
handbooks, runbooks and DR plans use to say what to turn to when a named system is down ("During a Slack outage,
…", "Should X be unavailable, …", "X fails over to Y", "Y is our backup channel if X is down", "X (backup: Y)",
"Our main chat platform is X, our fallback option is Y") and the primary / backup tables that pair systems, not
people. Sentences are from the ops dev corpora where they hold the construction (named) and otherwise written the
way such handbooks write them; each construction also has the guard that keeps its precision. Edges are read by
the real document extractor from a tiny Markdown file."""
from __future__ import annotations

from threadgraph.knowledge import cues

_HEAD = "# Incident communications\n\nWe use Slack, Zoom, GitHub and PagerDuty.\n\n"


def _cues(sentence: str, rule: str):
    return [(c.x, c.y) for c in cues.read(sentence) if c.rule == rule]


def _standins(sentence: str):
    return {(c.x, c.y) for c in cues.read(sentence) if c.kind != "optional"}


def _extract(tmp_path, text: str, name: str = "doc.md"):
    """``{(subject, object): condition}`` of the SUBSTITUTES edges the document extractor reads from ``text``
    (subject and object as ``type:name``)."""
    from threadgraph.ingest.documents import DocumentExtractor
    from threadgraph.ingest.readers import parse_file

    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    res = DocumentExtractor(None).extract(parse_file(p, name))
    return {(t.subject, t.object): t.properties.get("condition", "") for t in res.triples
            if t.relation == "SUBSTITUTES"}


def test_during_an_outage_of_a_named_system(tmp_path):
    assert _cues("During a Slack outage, use the incident bridge on Zoom.", "en.during_x_outage_y") == [("Slack", "Zoom")]
    assert _cues("In case of a GitHub outage, push your branches to GitLab.", "en.during_x_outage_y") == [
        ("GitHub", "GitLab")]
    assert _cues("During an outage of PagerDuty, use Opsgenie to page people.", "en.during_outage_of_x_y") == [
        ("PagerDuty", "Opsgenie")]
    got = _extract(tmp_path, _HEAD + "In the event of a Slack outage, switch to Zoom.\n")
    assert ("artifact:Slack", "artifact:Zoom") in got
    # an incident is no system that is down: nothing stands in for "security"
    assert _extract(tmp_path, _HEAD + "During a security incident, the Incident Commander leads the call.\n") == {}


def test_should_a_system_be_unavailable(tmp_path):
    assert _cues("Should Slack be unavailable, use Microsoft Teams.", "en.should_x_be_unavailable_y") == [
        ("Slack", "Microsoft Teams")]
    assert ("VPN", "Bastion Host") in _standins("Should the VPN go down, connect through the Bastion Host.")
    got = _extract(tmp_path, _HEAD + "Should GitHub be unavailable, clone the repositories from CodeCommit.\n")
    assert ("artifact:GitHub", "artifact:CodeCommit") in got
    # a question of duty, not of availability
    assert _cues("Should the Incident Commander decide to stop, the call ends.", "en.should_x_be_unavailable_y") == []


def test_a_system_fails_over_to_another(tmp_path):
    r = "en.x_fails_over_to_y"
    assert _cues("The primary database fails over to the standby replica.", r) == [("primary database", "standby replica")]
    assert _cues("Vault will automatically fail over to the secondary cluster if the leader is lost.", r) == [
        ("Vault", "secondary cluster")]
    got = _extract(tmp_path, _HEAD + "The primary database fails over to the standby replica.\n")
    assert got == {("artifact:primary database", "artifact:standby replica"): ""}
    # traffic is no system: "traffic fails over" names what moves, not what stands in
    assert _cues("Traffic fails over to the secondary region.", r) == []
    # ops-govuk manual/fall-back-to-aws-cloudfront.html.md: an infinitive of purpose, no subject that fails over
    assert _cues("Raise and merge a PR in `govuk-infrastructure` to fail over to CloudFront", r) == []


def test_backup_named_with_its_kind_then_the_condition(tmp_path):
    r = "en.y_is_backup_kind_if_x_unavailable"
    assert _cues("Zoom is our backup communication channel if Slack is down.", r) == [("Slack", "Zoom")]
    assert _cues("Google Meet is the fallback video tool when Zoom is unavailable.", r) == [("Zoom", "Google Meet")]
    got = _extract(tmp_path, _HEAD + "Zoom is our backup communication channel if Slack is down.\n")
    assert got == {("artifact:Slack", "artifact:Zoom"): "if Slack is down"}


def test_backup_in_a_note_after_the_system(tmp_path):
    r = "en.x_backup_note"
    assert _cues("Use Slack (backup: Zoom) for incident comms.", r) == [("Slack", "Zoom")]
    assert _cues("Post updates on Statuspage (fallback: the main website).", r) == [("Statuspage", "main website")]
    got = _extract(tmp_path, _HEAD + "Slack (fallback: email) is the incident channel.\n")
    assert ("artifact:Slack", "artifact:email") in got
    # a note that only says something is a backup names no stand-in ("Backup codes (backup only)")
    assert _cues("Keep your recovery codes (backup only) in the vault.", r) == []


def test_primary_and_fallback_named_side_by_side(tmp_path):
    r = "en.primary_is_x_backup_is_y"
    # ops-moj-platform runbooks/joining-the-team.html.md
    s = "Our main chat platform is Slack, our fallback option is Microsoft Teams."
    assert _cues(s, r) == [("Slack", "Microsoft Teams")]
    got = _extract(tmp_path, "# Joining the team\n\n" + s + "\n")
    assert ("artifact:Slack", "artifact:Microsoft Teams") in got
    assert _cues("The primary DNS provider is Route 53, the secondary is Cloudflare.", r) == [("Route 53", "Cloudflare")]
    assert _cues("Statuspage is the primary channel, Twitter is the secondary channel.",
                 "en.x_is_primary_y_is_backup") == [("Statuspage", "Twitter")]
    # aims are ranked, nothing stands in for anything
    assert _cues("Our primary goal is uptime, and our secondary goal is cost.", r) == []
    assert _extract(tmp_path, "# Goals\n\nOur primary goal is uptime, and our secondary goal is cost.\n") == {}


def test_cannot_access_a_tool(tmp_path):
    r = "en.if_cannot_reach_x_y"
    assert _cues("If you cannot access Grafana, check the metrics in Datadog.", r) == [("Grafana", "Datadog")]
    assert _cues("If you can't log in to PagerDuty, call the on-call phone.", r) == [("PagerDuty", "on-call phone")]
    # ops-gdsway standards/storing-credentials.html.md: "then" ends the condition as a comma does (another rule
    # reads it first)
    assert ("browser's password manager", "third-party password manager") in _standins(
        "If you are unable to use your browser's password manager then you should use a third-party password manager.")


def test_primary_backup_tables_of_systems_and_of_people(tmp_path):
    text = ("# Continuity\n\n| System | Primary | Backup |\n|---|---|---|\n| Chat | Slack | Zoom |\n"
            "| Code hosting | GitHub | GitLab mirror |\n\n"
            "| Service | Primary on-call | Secondary on-call |\n|---|---|---|\n| API | Alice Jones | Bob Smith |\n\n"
            "| Primary region | Failover region |\n|---|---|\n| Frankfurt | Dublin |\n")
    got = _extract(tmp_path, text)
    # systems are things even when capitalized
    assert ("artifact:Slack", "artifact:Zoom") in got
    assert ("artifact:GitHub", "artifact:GitLab mirror") in got
    # on-call people are roles
    assert ("role:Alice Jones", "role:Bob Smith") in got
    # a "Failover" column is a backup column
    assert ("artifact:Frankfurt", "artifact:Dublin") in got
    assert not any(a.startswith("role:") and b.startswith("artifact:") for a, b in got)
