"""Stand-in and fallback constructions of operations handbooks and runbooks (knowledge/lexicon/cues.yaml),
each read from at least two different sentences, plus the precision guards (names cut at a
conjunction, pronoun-led clauses, data copied "from A to B", soft-wrapped lines)."""
from __future__ import annotations

from threadgraph.ingest.relations import unwrap
from threadgraph.knowledge import cues


def _cues(sentence: str, rule: str | None = None):
    return [(c.x, c.y) for c in cues.read(sentence) if c.kind == "standin" and (rule is None or c.rule == rule)]


def test_if_you_cannot_reach_x_contact_y():
    r = "en.if_cannot_reach_x_y"
    assert _cues("If you are not able to find an approver, in an emergency you can contact Dan or James.", r) == [("approver", "Dan")]
    assert _cues("If you cannot reach the incident commander, page the deputy.", r) == [("incident commander", "deputy")]


def test_y_used_during_x_outage():
    r = "en.y_used_during_x_outage"
    assert _cues("This standby CDN is only intended to be used during a Fastly outage, so purging is rare.", r) == [("Fastly", "standby CDN")]
    assert _cues("The secondary database is used during a primary cluster outage.", r) == [("primary cluster", "secondary database")]


def test_if_that_fails_y_leaves_x_to_the_previous_item():
    r = "en.if_that_fails_y"
    got = [(c.x, c.y, c.focus) for c in cues.read("If that fails, it tries the secondary S3 replica (eu-west-1, production only)") if c.rule == r]
    assert got == [("", "secondary S3 replica", True)]
    got = [(c.x, c.y, c.focus) for c in cues.read("Failing that, use the satellite phone.") if c.rule == r]
    assert got == [("", "satellite phone", True)]


def test_fallback_chain_in_a_list(tmp_path):
    from threadgraph.ingest.documents import DocumentExtractor
    from threadgraph.ingest.readers import parse_file

    p = tmp_path / "chain.md"
    p.write_text("# Failover\n\n1. The proxy first serves the page from the primary S3 mirror (eu-west-2)\n"
                 "2. If that fails, it tries the secondary S3 replica (eu-west-1)\n"
                 "3. As a final fallback, it attempts the tertiary GCS mirror\n", encoding="utf-8")
    res = DocumentExtractor(None).extract(parse_file(p, "chain.md"))
    subs = {(t.subject, t.object) for t in res.triples if t.relation == "SUBSTITUTES"}
    assert any(a.endswith("primary S3 mirror") and b.endswith("secondary S3 replica") for a, b in subs)
    assert any(a.endswith("secondary S3 replica") and b.endswith("tertiary GCS mirror") for a, b in subs)
    assert not any(a.startswith("role:") for a, _ in subs)


def test_copy_from_a_to_b_is_not_a_handover():
    assert _cues("GCP Storage Transfer Service copies any changes from the primary S3 bucket to the tertiary GCS bucket.") == []
    assert _cues("To find the job that manages the transfer from the AWS S3 Bucket to the GCS Bucket, navigate to it.") == []
    # a real handover still reads
    assert _cues("Transfer the Incident Commander role to the Deputy.") == [("Incident Commander", "Deputy")]


def test_names_do_not_end_in_a_conjunction():
    got = _cues("If GitHub.com is down, you can still clone a GOV.UK repo from CodeCommit and build and deploy an image.")
    assert got == [("GitHub.com", "CodeCommit")]
    assert cues.cut_phrase("salt and", "y") == "salt"
    assert cues.cut_phrase("or the deputy", "y") == "deputy"


def test_pronoun_led_phrase_is_not_a_name():
    assert cues.cut_phrase("They're useful", "x") == ""
    assert cues.cut_phrase("it's fine", "y") == ""
    assert not _cues("They're useful when network access to all machines is down.")


def test_clause_object_prefers_the_first_name_turned_to_and_skips_durations():
    assert cues.clause_object("escalate the problem in the Google Chat space, instructions are linked from the #team channel") == "Google Chat"
    assert cues.clause_object("we'll continue to serve a stale homepage for 24 hours") == "stale homepage"


def test_unwrap_joins_soft_wrapped_lines_only():
    t = "In addition we have a standby CDN set up elsewhere. This standby CDN is only intended to be used during a Fastly\noutage, so purge rarely."
    assert "\n" not in unwrap(t) and len(unwrap(t)) == len(t)
    assert unwrap("Ingredients\nSalt") == "Ingredients\nSalt"  # a short line is not a wrapped paragraph
    assert unwrap("A long enough first sentence that ends here.\nNext one") == "A long enough first sentence that ends here.\nNext one"


def test_hand_over_to_another_x():
    r = "en.hand_over_to_another_x"
    s1 = "If you absolutely are the only person who can solve the problem, then handover to another IC and assume the role of an SME."
    assert _cues(s1, r) == [("IC", "another IC")]
    assert _cues("Transfer of command involves transferring command to another Incident Commander.", r) == \
        [("Incident Commander", "another Incident Commander")]
    assert _cues("You can hand over to the next on-call if they agree, but never assume that.", r) == [("on-call", "next on-call")]
    # "hand X over to Y" still names X
    assert _cues("Hand the Scribe duties over to the Deputy.") == [("Scribe", "Deputy")]


def test_for_the_equivalent_of_x_use_y():
    r = "en.for_equivalent_of_x_use_y"
    assert _cues("For the equivalent of Slack's direct messages, use Google Chat.", r) == [("Slack's direct messages", "Google Chat")]
    assert _cues("As an equivalent to the status page, use the public Twitter account.", r) == [("status page", "public Twitter account")]


def test_escalation_list_is_a_chain_of_standins(tmp_path):
    from threadgraph.ingest.documents import DocumentExtractor
    from threadgraph.ingest.readers import parse_file

    p = tmp_path / "esc.md"
    p.write_text("# Alerts\n\nWe use [PagerDuty](https://example.org)\nto escalate to these people (in order):\n\n"
                 "1. Primary Engineer\n2. Secondary Engineer\n3. Senior Management Team member (might not be technical)\n\n"
                 "## Mirrors\n\nThe CDN serves from the mirrors in order of priority:\n\n"
                 "- Primary S3 mirror\n- Secondary S3 replica\n\n## Steps\n\nDo these in order:\n\n1. Open Grafana\n2. Open Kibana\n",
                 encoding="utf-8")
    res = DocumentExtractor(None).extract(parse_file(p, "esc.md"))
    subs = {(t.subject, t.object) for t in res.triples if t.relation == "SUBSTITUTES"}
    assert ("role:Primary Engineer", "role:Secondary Engineer") in subs
    assert ("role:Secondary Engineer", "role:Senior Management Team member") in subs
    assert ("artifact:Primary S3 mirror", "artifact:Secondary S3 replica") in subs
    assert not any("Grafana" in a for a, _ in subs)  # a plain list of steps is not a chain


def test_bare_person_noun_keeps_its_modifier():
    assert _cues("Every responsibility of a tech lead can at times be taken up by other people on the team.") == [("tech lead", "other people")]
    assert _cues("The duties of the Scribe can be taken over by another person in the call.") == [("Scribe", "another person")]
    assert cues.cut_phrase("other cheese", "y") == "cheese"  # a thing keeps being trimmed


def test_generic_standin_resolves_to_the_name_the_next_sentence_gives(tmp_path):
    from threadgraph.ingest.documents import DocumentExtractor, resolve_named
    from threadgraph.ingest.readers import parse_file

    text = ("There is a backup Content Delivery Network (CDN) that can be used if Fastly is down.\n"
            "This backup CDN is currently provided by AWS CloudFront.")
    assert resolve_named("Content Delivery Network", text) == "AWS CloudFront"
    text2 = "If the primary DNS is down, use the secondary resolver. The secondary resolver is run by Quad9 Foundation."
    assert resolve_named("secondary resolver", text2) == "Quad9 Foundation"
    assert resolve_named("secondary resolver", "Use the secondary resolver. It is fast.") == "secondary resolver"
    p = tmp_path / "cdn.md"
    p.write_text("# CDN\n\n" + text + "\n", encoding="utf-8")
    res = DocumentExtractor(None).extract(parse_file(p, "cdn.md"))
    assert [(t.subject, t.object) for t in res.triples if t.relation == "SUBSTITUTES"] == [("artifact:Fastly", "artifact:AWS CloudFront")]
