"""Operations handbooks and runbooks the rules were not written for: optional steps, explicit
substitutions between named tools, unavailability contractions, hand-offs, and roles named by
their sentences. Every cue is shown on sentences copied from at least two corpora (ops-govuk,
ops-2i2c-infra, ops-2i2c-compass under benchmarks/generalization, and the bundled PagerDuty
incident-response docs); the cues themselves are data (ingest/lexicon/procedures.yaml,
ingest/lexicon/roles.yaml, knowledge/lexicon/cues.yaml)."""
from __future__ import annotations

from threadgraph.ingest.documents import DocumentExtractor, optional_list_items, optional_text
from threadgraph.ingest.pipeline import extract_corpus
from threadgraph.ingest.readers import parse_file
from threadgraph.knowledge import cues


def _doc(tmp_path, name: str, body: str):
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return DocumentExtractor(None).extract(parse_file(p, name))


def _optional_names(res) -> set[str]:
    names = {e.id: e.name for e in res.entities}
    return {names.get(t.object, t.object) for t in res.triples
            if t.relation == "CONTAINS" and t.properties.get("required") is False}


def _subs(res) -> set[tuple[str, str]]:
    return {(t.subject, t.object) for t in res.triples if t.relation == "SUBSTITUTES"}


def _cues(sentence: str, rule: str | None = None):
    return [(c.x, c.y) for c in cues.read(sentence) if c.kind in ("standin", "substitute") and (rule is None or c.rule == rule)]


# -- optional steps ---------------------------------------------------------------------------------

def test_a_step_or_heading_that_opens_with_an_optional_mark_is_optional():
    assert optional_text("**(Optional) Temporarily pause scheduled evaluations.** Because only one evaluation can run")  # ops-govuk
    assert optional_text("(Optional) Encrypt the file with `sops`.")  # ops-2i2c-infra
    assert optional_text("3. (optional) Backfill billing data")  # ops-2i2c-infra, a heading
    assert optional_text("Optionally taint and wait")  # ops-2i2c-infra
    assert optional_text("Optionally, you can also run the deployer passing it all the info and an initial command")


def test_a_mark_that_closes_the_lead_phrase_or_follows_the_object_marks_the_step():
    assert optional_text("Clear browser cookies (optional). If the user asked CILogon to reuse the same Identity Provider")
    assert optional_text("Preview your changes (optional)")  # ops-2i2c-compass, a heading
    assert optional_text("Update the maintenance message optionally with the downtime that the app might need")  # ops-govuk
    assert optional_text("Executive Director [Chris Holdgraf] (typically optional unless there is a hot lead to shape)")


def test_a_mark_deep_in_a_step_or_a_condition_does_not_make_the_step_optional():
    # PagerDuty: "if you wish to participate" is a condition, not an optional step
    assert not optional_text("If you wish to participate however, you should join both. If you can't join the call "
                             "for some reason, you should have a dedicated proxy for the call.")
    # ops-2i2c-compass: the canned response is optional, the step (validate to the representative) is not
    assert not optional_text("Validate to the Community Representative, via the Freshdesk ticket, that there is indeed "
                             "an incident happening. If you wish, use this canned response as a start for responding:")
    # ops-2i2c-infra: "passing it …, optionally …" would be a part; a plain step stays required
    assert not optional_text("Run `deployer decrypt-age` from the infrastructure repo checkout")


def test_a_list_introduced_as_optional_makes_its_items_optional(tmp_path):
    govuk = ("# On-call\n\n## On-call checklist\n\n- Confirm you can access GCP\n\nOptional:\n\n"
             "- [Add the PagerDuty rota to your calendar](/manual/pagerduty.html)\n"
             "- Ensure you can connect to the VPN (needed to connect to Staging etc, which might be useful during an incident).\n")
    res = _doc(tmp_path, "on-call.md", govuk)
    assert _optional_names(res) == {"Add the PagerDuty rota to your calendar",
                                    "Ensure you can connect to the VPN"}  # a complete name: no line or sentence cut mid-way
    pd = ("# Postmortem\n\n## Postmortem Meeting\n\n* Required\n    * Incident Commander.\n* Optional\n"
          "    * Customer Liaison. (Only SEV-1 incidents)\n")
    res = _doc(tmp_path, "pm.md", pd)
    assert _optional_names(res) == {"Customer Liaison. (Only SEV-1 incidents)"}  # the label "Optional" is not a step


def test_optional_list_intro_reads_may_optionally_provide(tmp_path):
    p = tmp_path / "banner.md"
    p.write_text("# Banner\n\nThey may optionally also provide:\n\n- text for the 'short description'\n"
                 "- a URL for users to find more information\n\nThen publish.\n", encoding="utf-8")
    blocks = parse_file(p, "banner.md").blocks
    assert [blocks[i].text for i in optional_list_items(blocks)] == ["text for the 'short description'",
                                                                     "a URL for users to find more information"]


def test_optional_headings_and_items_become_optional_contains(tmp_path):
    infra = ("# Make an ephemeral hub\n\n## Setup\n\nDo this.\n\n"
             "## (Optional) Sharing `shared` directories from another hub with an ephemeral hub\n\nIn some cases.\n\n"
             "# Features\n\n- **(Optional) User authentication**\n- **NO Persistent storage**\n")
    res = _doc(tmp_path, "eph.md", infra)
    assert _optional_names(res) == {"(Optional) Sharing shared directories from another hub with an ephemeral hub",
                                    "(Optional) User authentication"}
    compass = "# Edit\n\n### Make your changes\n\nEdit the files.\n\n### Preview your changes (optional)\n\nTo preview, run nox.\n"
    assert _optional_names(_doc(tmp_path, "edit.md", compass)) == {"Preview your changes (optional)"}


# -- substitutions and fallbacks between named things -------------------------------------------------

def test_an_alternative_to_x_is_y():
    r = "en.alternative_to_x_is_y"
    assert _cues("An alternative to using the dashboard is accessing the Elasticsearch health API:", r) == \
        [("dashboard", "Elasticsearch health API")]  # ops-govuk
    assert _cues("As an alternative to `scp` you can use `rsync` as follows:", r) == [("scp", "rsync")]  # ops-2i2c-infra


def test_procedure_documents_keep_explicit_substitutions_between_named_things(tmp_path):
    infra = "# Move\n\nCopy the files with `scp`.\n\nAs an alternative to `scp` you can use `rsync` as follows:\n"
    assert _subs(_doc(tmp_path, "move.md", infra)) == {("artifact:scp", "artifact:rsync")}
    govuk = ("# Email\n\nIf all else fails, you can try running the work manually from a console. The recovery worker "
             "code is a good example of how to do this, but you will need to use `new.perform` instead of `perform_async`.\n")
    assert _subs(_doc(tmp_path, "email.md", govuk)) == {("artifact:perform_async", "artifact:new.perform")}
    es = ("# Elasticsearch\n\nOpen the dashboard.\n\nAn alternative to using the dashboard is accessing the "
          "Elasticsearch health API yourself:\n")
    assert _subs(_doc(tmp_path, "es.md", es)) == {("artifact:dashboard", "artifact:Elasticsearch health API")}


def test_a_lone_lower_case_word_said_once_is_a_name_only_in_an_explicit_fallback(tmp_path):
    # ops-2i2c-compass: "passkey" is named once, in lower case; the construction names both sides and its clause
    # says "instead" (issue 10: such fallbacks were dropped)
    compass = "# HubSpot\n\nIf the passkey isn't available, you can sign in with the username and password instead:\n"
    assert len(_subs(_doc(tmp_path, "crm.md", compass))) == 1
    # ops-2i2c-infra: the clause after the condition uses nothing else, so "logs" stays no name
    infra = "# Alerts\n\nIf logs are not available or not proving any useful info, then you can manually resolve the alert in PD.\n"
    assert _subs(_doc(tmp_path, "alerts.md", infra)) == set()


def test_isnt_available_is_an_unavailability_cue():
    r = "en.if_x_unavailable_y"
    # ops-2i2c-compass
    assert _cues("If the passkey isn't available, you can sign in with the username and password instead:", r) == \
        [("passkey", "username and password")]
    # ops-govuk (the long form, read before too)
    assert _cues("If GitHub.com is down, you can still clone a GOV.UK repo from CodeCommit and build and deploy an image.", r) == \
        [("GitHub.com", "CodeCommit")]


def test_hand_off_something_to_another_x():
    r = "en.hand_over_to_another_x"
    compass = ("If yes, the Director will determine whether they are the best person to respond to the situation, or if it is "
               "more appropriate to hand off the report to another Director or Steering Council member (for example, if "
               "someone else already has a relationship with the reporter or the accused).")
    assert _cues(compass, r) == [("Director", "another Director")]
    pd = "If you absolutely are the only person who can solve the problem, then handover to another IC and assume the role of an SME."
    assert _cues(pd, r) == [("IC", "another IC")]


def test_reassigning_an_incident_is_not_a_stand_in_for_the_incident():
    # ops-2i2c-compass: the incident is handed on, it does not stand for anyone
    assert _cues("**Reassign the incident on PagerDuty** to the new Responder") == []
    # a role handed over still reads (PagerDuty-style handbook sentence)
    assert _cues("Transfer the Incident Commander role to the Deputy.") == [("Incident Commander", "Deputy")]


# -- roles named by their sentences -----------------------------------------------------------------

def test_roles_named_by_responsibility_and_role_sentences(tmp_path):
    d = tmp_path / "c"
    d.mkdir()
    # ops-2i2c-compass
    (d / "em.md").write_text("# Engineering Manager\n\nThe Engineering Manager is responsible for strategic professional "
                             "development.\n\n**_TL;DR;_** The People Lead is accountable for shaping strategies.\n",
                             encoding="utf-8")
    # bundled PagerDuty docs
    (d / "sme.md").write_text("# Training\n\nThis is the same as the Subject Matter Expert role. The Incident Commander is "
                              "responsible for driving the incident to resolution.\n", encoding="utf-8")
    # ops-2i2c-infra: a permission called a role is not a person
    (d / "grafana.md").write_text('# Grafana\n\nInput the email address of the community representative. Give them the '
                                  '"Admin" role.\n', encoding="utf-8")
    ex = extract_corpus([d], root=d)
    roles = {e.name for e in ex.entities.values() if e.type == "role"}
    assert {"Engineering Manager", "People Lead", "Subject Matter Expert", "Incident Commander"} <= roles
    assert "TL;DR" not in roles and "Admin" not in roles


# -- "Alternatively, …": X is what a sentence just before used -------------------------------------

def test_alternatively_turns_from_the_means_named_just_before(tmp_path):
    # ops-2i2c-infra
    grafana = ("# Grafana\n\n### Get `Admin` access using the `admin` username and password\n\n"
               "Use the **`admin` username and password** to get `Admin` access into the Grafana.\n"
               "These credentials can be accessed using `sops` (see  [the team compass documentation](https://compass.2i2c.org/engineering/secrets/#sops-overview) for how to set up `sops` on your machine).\n"
               "See [](#setup-grafana:log-in) for how to find the credentials information.\n"
               "Alternatively, the password is also stored in the [shared BitWarden account](https://vault.bitwarden.com/#/vault).\n")
    res = _doc(tmp_path, "grafana.md", grafana)
    assert _subs(res) == {("artifact:sops", "artifact:shared BitWarden account")}
    assert [t.provenance.line for t in res.triples if t.relation == "SUBSTITUTES"] == [8]
    secrets = ("# Send secrets\n\nYou can access Bitwarden Send [here](https://vault.bitwarden.com/#/sends) after logging in.\n\n"
               "An alternative is to ask the community to setup [age](https://github.com/FiloSottile/age),\n"
               "and give us their public key. This is a bit more secure, but harder than using Bitwarden Send.\n")
    assert _subs(_doc(tmp_path, "send.md", secrets)) == {("artifact:Bitwarden Send", "artifact:age")}


def test_alternatively_needs_a_tool_used_just_before_and_two_different_names(tmp_path):
    # ops-govuk: the sentences before name a place on a form ("in the `DB instance` select"), not a tool used; the
    # only X is a name of Y's own family, the console the snapshot is taken in (ingest/documents.py: same_family)
    rds = ("# Restore\n\nIf no snapshots are available on Integration for the drill you can manually take a snapshot. "
           "You can do this in the [RDS Snapshots](https://eu-west-1.console.aws.amazon.com/rds/home) section of the AWS Console. "
           "Simply pick the DB instance you want in the `DB instance` select and give it a `Snapshot name`.\n\n"
           "Alternatively, you can take a snapshot via the AWS CLI:\n")
    assert _subs(_doc(tmp_path, "rds.md", rds)) == {("artifact:AWS Console", "artifact:AWS CLI")}
    # ops-govuk: one name inside the other is the same service, not an alternative to it
    logit = ("# Logit\n\nYou can [log into Logit directly via Google Workspace\nsingle-sign-on](https://accounts.google.com/o/saml2).\n\n"
             "Alternatively, you can open Logit from the Google Workspace apps menu in Gmail,\nby clicking the grid icon.\n")
    assert _subs(_doc(tmp_path, "logit.md", logit)) == set()


# -- MyST directives and "This step is only required if …" -------------------------------------------

def test_myst_prose_directives_are_read_as_text(tmp_path):
    from threadgraph.ingest.readers.markdown import unwrap_directives

    # ops-2i2c-compass: a glossary directive names the roles; option lines go
    compass = ("```{glossary}\nSupport Triager\n: The primary responsibilities of the Support Triager is to:\n\n"
               "  The `Support Triager` role is currently filled by the Engineering Manager or their delegate.\n```\n")
    out = unwrap_directives(compass)
    assert out.split("\n")[0] == "" and "The `Support Triager` role is currently filled" in out
    assert out.count("\n") == compass.count("\n")  # line for line
    # ops-2i2c-infra: an admonition with options; a code block stays a code block
    infra = ("```{admonition} Do not use threaded Slack messages\n:class: warning\n\nDo **NOT** use threads.\n```\n\n"
             "```bash\nscp -p -r file host:/x\n```\n")
    lines = unwrap_directives(infra).split("\n")
    assert lines[:4] == ["", "", "", "Do **NOT** use threads."] and lines[6] == "```bash"
    p = tmp_path / "roles.md"
    p.write_text("# Roles\n\n" + compass, encoding="utf-8")
    assert [b.kind for b in parse_file(p, "roles.md").blocks if "Support Triager role" in b.text] == ["paragraph"]


def test_a_sentence_that_makes_the_step_conditional_makes_it_optional(tmp_path):
    # ops-2i2c-infra: a section
    infra = ("# Move a Hub\n\n## 5. Transfer the JupyterHub Database\n\n```{note}\nThis step is only required if users have "
             "been added to a hub manually, using the admin panel.\n```\n\nCopy the database.\n\n## 6. Delete the old hub\n\nDelete it.\n")
    assert _optional_names(_doc(tmp_path, "move.md", infra)) == {"5. Transfer the JupyterHub Database"}
    # ops-2i2c-compass: a numbered step
    compass = ("# Set up sops\n\n1. **Set up `sops`**. Follow the instructions.\n"
               "2. **Set up the Google Cloud Key Management Service (KMS)**. This allows you to use your Google Cloud login.\n\n"
               "   ```{note}\n   This step is only required when setting up `sops` for the first time.\n   ```\n")
    assert _optional_names(_doc(tmp_path, "sops.md", compass)) == {
        "Set up the Google Cloud Key Management Service (KMS)"}  # its emphasised label, not a cut sentence


def test_a_code_marked_flag_is_a_name(tmp_path):
    # ops-2i2c-compass and ops-govuk: flags and methods written as code
    compass = "# Secrets\n\nDecrypt with `sops --decrypt`.\n\nYou can also use the `-d` flag instead of `--decrypt`.\n"
    assert _subs(_doc(tmp_path, "secrets.md", compass)) == {("artifact:decrypt", "artifact:-d flag")}
    govuk = ("# RDS\n\nIf you don't want this, replace the `--final-db-snapshot-identifier` parameter with "
             "`--skip-final-snapshot`.\n")
    assert _subs(_doc(tmp_path, "rds.md", govuk)) == {("artifact:final-db-snapshot-identifier parameter",
                                                       "artifact:skip-final-snapshot")}


def test_a_title_with_a_responsibilities_section_names_a_role(tmp_path):
    d = tmp_path / "c"
    d.mkdir()
    # ops-2i2c-compass role pages
    (d / "people.md").write_text("\n# People Lead Role\n\n**_TL;DR;_** Shapes strategies.\n\n## Areas of responsibility & outcomes\n\n"
                                 "- Build and run our agile people practices\n\n## Failure mode\n\nNone.\n", encoding="utf-8")
    (d / "osie.md").write_text("# Open Source Infrastructure Engineer\n\n## Outcomes \n\nReliable hubs.\n\n## Key responsibilities\n\n"
                               "- Ensure the reliable operation of the 2i2c infrastructure\n", encoding="utf-8")
    # bundled PagerDuty: an activity with responsibilities is not a role, nor is "Not Responsibilities" a duty list
    (d / "oncall.md").write_text("# Being On-Call\n\n## What is On-Call?\n\nBeing on-call means that you are able to be contacted.\n\n"
                                 "## Responsibilities\n\n1. **Prepare**\n\n## Not Responsibilities\n\n1. There should be no expectation.\n",
                                 encoding="utf-8")
    ex = extract_corpus([d], root=d)
    roles = {e.name for e in ex.entities.values() if e.type == "role"}
    assert {"People Lead", "Open Source Infrastructure Engineer"} <= roles
    assert not any("On-Call" in r or "TL;DR" in r for r in roles)


def test_a_dotted_name_after_instead_of_stays_whole():
    # ops-2i2c-infra: a domain keeps its dot; ops-govuk: a sentence's closing full stop still ends X
    assert _cues("Use of `@googlegroups.com` instead of `@2i2c.org` is suitable as this group will include non-2i2c "
                 "members, who otherwise could get control of a 2i2c.org email.", "en.use_y_instead_of_x")[0][0] == "@2i2c.org"
    # (read by the verb-led reading with the noun-phrase trimmer, which wins over en.use_y_instead_of_x: same pair)
    assert _cues("The recovery worker code is a good example of how to do this, but you will need to use `new.perform` "
                 "instead of `perform_async`.", "en.lead_y_rather_than_x") == [("perform_async", "new.perform")]


def test_ok_is_not_a_name():
    # ops-govuk: "It's OK for someone other than the author to merge a PR" names no stand-in called "OK"
    assert _cues("It's OK for someone other than the author to merge a PR, particularly if the author is not available.") == []
    # PagerDuty: '"OK vs Not OK"' — the word alone is not a thing
    assert cues.cut_phrase("OK", "y") == "" and cues.cut_phrase("okay", "x") == ""
