"""How policies and handbooks state delegation and alternates (knowledge/lexicon/cues.yaml, ingest side):
"X or their delegate", "X (or the delegated person)", "X defaults to Y", "Y is the default X", "Y backs up X",
"speak to X or Y" / "contact X or Y" / "Delegate to: X or Y". Every sentence is copied from a corpus
(ops-2i2c-compass, ops-k8s-src, ops-lullabot, ops-govuk, ops-2i2c-infra, bundled PagerDuty docs); each cue is
read on sentences of at least two of them, and the people-only rules are checked to join no things."""
from __future__ import annotations

from threadgraph.ingest.documents import DocumentExtractor
from threadgraph.ingest.readers import parse_file
from threadgraph.ingest.roles import RoleBook
from threadgraph.knowledge import cues


def _cues(sentence: str, rule: str):
    return [(c.x, c.y) for c in cues.read(sentence) if c.kind == "standin" and c.rule == rule]


def _subs(tmp_path, text: str, roles: tuple[str, ...] = ()) -> set[tuple[str, str]]:
    """(subject, object) entity ids (case-folded) of the SUBSTITUTES edges the procedure extractor reads from
    ``text``, with ``roles`` the roles the corpus defines."""
    p = tmp_path / "doc.md"
    p.write_text(text, encoding="utf-8")
    book = None
    if roles:
        book = RoleBook()
        book.names = {r: [] for r in roles}
    res = DocumentExtractor(book).extract(parse_file(p, "doc.md"))
    return {(t.subject.casefold(), t.object.casefold()) for t in res.triples if t.relation == "SUBSTITUTES"}


def test_x_or_their_delegate():
    # ops-2i2c-compass roles-and-team.md 19
    got = _cues("The `Support Triager` role is currently filled by the Engineering Manager or their delegate.", "en.x_or_delegate")
    assert got == [("Engineering Manager", "delegate")]


def test_or_delegate_note_is_about_the_role_before_it():
    # ops-2i2c-compass process.md 115
    got = [(c.x, c.y, "Engineering Manager" in c.head) for c in cues.read(
        "If there is no response, they should ping the **Engineering Manager** (or the delegated person) so they can "
        "secure resources to resolve the incident.") if c.rule == "en.or_delegate_note"]
    assert got == [("", "delegated person", True)]
    # bundled PagerDuty docs, during/during_an_incident.md: "As an Incident Commander (or Deputy)"
    got = [(c.y, "Incident Commander" in c.head) for c in cues.read(
        "As an Incident Commander (or Deputy), you should be prepared to brief other people.") if c.rule == "en.or_delegate_note"]
    assert got == [("Deputy", True)]


def test_delegate_edges_in_a_document(tmp_path):
    subs = _subs(tmp_path, "# Roles\n\nThe `Support Triager` role is currently filled by the Engineering Manager or their delegate.\n\n"
                           "If there is no response, they should ping the **Engineering Manager** (or the delegated person).\n",
                 roles=("Engineering Manager",))
    assert ("role:engineering manager", "role:delegate") in subs
    assert ("role:engineering manager", "role:delegated person") in subs


def test_x_defaults_to_y_between_people_only(tmp_path):
    r = "en.x_defaults_to_y"
    # ops-k8s-src security-release-process.md 96
    s = "The incident commander defaults to the current oncall, but may be handed off to other SRC or Kubernetes maintainers."
    assert _cues(s, r) == [("incident commander", "current oncall")]
    assert ("role:incident commander", "role:current oncall") in _subs(tmp_path, "# Incident Commander\n\n" + s + "\n\nThe incident commander coordinates.\n")
    # ops-govuk: a setting defaults to a value — the cue reads, the extractor keeps nothing
    s2 = "You can either delete the `enabled` and `appEnabled` entries (which all default to `true`), or you can set them explicitly to true."
    assert _subs(tmp_path, "# Re-enable\n\n" + s2 + "\n") == set()


def test_y_is_the_default_x_between_people_only(tmp_path):
    r = "en.y_is_default_x"
    # bundled PagerDuty docs, before/whos_oncall.md 17 (link markup as the reader leaves it)
    s = "A member of the Customer Support team is the default Customer Liaison."
    assert _cues(s, r) == [("Customer Liaison", "member of the Customer Support team")]
    assert any(a == "role:customer liaison" and b.endswith("member of the customer support team") for a, b in _subs(tmp_path, "# Who\n\n" + s + "\n"))
    # ops-2i2c-infra topic/monitoring-alerting/grafana.md 43: dashboards, not people — no stand-in
    s2 = ("The dashboards available at https://grafana.pilot.2i2c.cloud/dashboards are the default Grafana dashboards from "
          "JupyterHub found at jupyterhub/grafana-dashboards.")
    assert _subs(tmp_path, "# Grafana\n\n" + s2 + "\n") == set()


def test_y_backs_up_x_between_people_only(tmp_path):
    # bundled PagerDuty docs, index.md 65
    s = "How to be a Deputy and back up the Incident Commander."
    assert _cues(s, "en.y_backs_up_x") == [("Incident Commander", "Deputy")]
    assert ("role:incident commander", "role:deputy") in _subs(tmp_path, "# Training\n\n" + s + "\n")
    # ops-lullabot physical/backups.md 4: data is backed up, nobody stands in
    s2 = ("All data directly managed by Lullabot must be backed up and encrypted. Individual team members can choose to "
          "back up their workstations. If they do, they must encrypt those backups.")
    assert _subs(tmp_path, "# Backups\n\n" + s2 + "\n") == set()


def test_turn_to_x_or_y():
    r = "en.turn_to_x_or_y"
    # ops-lullabot physical/acceptable_use.md 12
    assert _cues("Should any employee be unclear on the policy or how it impacts their role they should speak to their "
                 "manager or IT security officer.", r) == [("manager", "IT security officer")]
    # bundled PagerDuty docs, during/security_incident_response.md 116
    assert _cues("**Delegate to:** VP or Director of Engineering", r) == [("VP", "Director of Engineering")]
    # ops-2i2c-compass code-of-conduct/response-protocol.md 12
    got = _cues("If yes, hand off the report to another Director or Steering Council member.", r)
    assert got == [("Director", "Steering Council member")]


def test_ask_x_or_y():
    r = "en.ask_x_or_y"
    # ops-k8s-src playbook/token-leak-process.md 25
    assert _cues("If the user is an OWNER or might have other privileged roles in the project, contact a ContribEx chair "
                 "or Steering to discuss whether further incident response is needed", r) == [("ContribEx chair", "Steering")]
    # ops-lullabot communications/data_classification.md 20
    assert _cues("If in doubt about how to classify a given document or set of data, or if data can be safely used with a "
                 "given tool, ask your manager or the security team.", r) == [("manager", "security team")]


def test_ask_x_or_y_joins_no_things(tmp_path):
    # ops-lullabot physical/lost-devices.md 72 and communications/cloud.md 100: channels and addresses, not people
    subs = _subs(tmp_path, "# Lost\n\nPost to Slack in #bot-support or email team@lullabot.com to let the team know you lost a device.\n\n"
                           "Finally, if at all in doubt, ask in #security in Slack, or email security@lullabot.com.\n")
    assert not any(a.startswith("role:") or b.startswith("role:") for a, b in subs)
    # ops-k8s-src comms-templates: "contact the user via email" names no second person
    assert _cues("Contact the user via email if possible, letting them know about the token leak.", "en.ask_x_or_y") == []


def test_ask_x_or_y_needs_the_verb_not_the_noun():
    r = "en.ask_x_or_y"
    # ops-18f tools/slack/notifications-general-communication.md 15: "message" is a noun after "a direct"
    assert _cues("You can send a direct message (DM) to a single person or a group of people.", r) == []
    # ops-lullabot appendix/links.md 12: "email" is a noun after "the"
    assert _cues("This article describes a scam where someone is able to emulate the email address of the CEO or "
                 "another senior executive, either by hacking their email account or using a look-alike domain.", r) == []
    # the verb still reads (ops-lullabot communications/data_classification.md 20)
    assert _cues("If in doubt, ask your manager or the security team.", r) == [("manager", "security team")]


def test_backup_as_a_modifier_is_no_fallback():
    # ops-lullabot physical/lost-devices.md 98: "Backup services like CrashPlan" is a kind of service
    assert [c for c in cues.read("Backup services like CrashPlan, Carbonite, and so on") if c.rule == "en.fallback_y"] == []
    # ops-govuk manual/fall-back-to-mirror.html.md 119 still reads
    got = [(c.x, c.y) for c in cues.read("As a final fallback, it attempts the **tertiary GCS mirror**") if c.rule == "en.fallback_y"]
    assert got == [("", "tertiary GCS mirror")]


def test_table_with_a_backup_column(tmp_path):
    # bundled PagerDuty docs, crisis/leadership.md 80-85 (the table as written)
    text = ("# Crisis leadership\n\n"
            "| **Crisis Scenario** | **Scenario Examples** | **Crisis Team Leader** | **Potential Backup** |\n"
            "| ------------------- | --------------------- | ---------------------- | -------------------- |\n"
            "| Critical infrastructure attack | Energy grid, water supply, telecommunications | Chief Operating Office | Logistics Chief |\n"
            "| Environmental disaster | Earthquake, hurricane, volcano | Chief Resilience Officer | Safety Chief |\n")
    p = tmp_path / "leadership.md"
    p.write_text(text, encoding="utf-8")
    res = DocumentExtractor(None).extract(parse_file(p, "leadership.md"))
    got = {(t.subject, t.object, t.properties["condition"]) for t in res.triples if t.relation == "SUBSTITUTES"}
    assert got == {("role:Chief Operating Office", "role:Logistics Chief", "Critical infrastructure attack"),
                   ("role:Chief Resilience Officer", "role:Safety Chief", "Environmental disaster")}


def test_table_without_a_stand_in_column_states_none(tmp_path):
    # ops-lullabot physical/malware.md 31-35 and ops-k8s-src README.md 26-28: no backup / alternate column
    text = ("# Versions\n\n|Operating System|Current Version|Lullabot Required Version|\n"
            "|----------------|---------------|-------------------------|\n"
            "|macOS           |13.0.1         |12.6.1 (13.0.1 preferred)|\n"
            "|iOS             |16.1.1         |16.1.1                   |\n\n"
            "| List or Group | Visibility | Uses |\n| ------------- | ---------- | ---- |\n"
            "| security@kubernetes.io | Private | Kubernetes security disclosures. |\n")
    assert _subs(tmp_path, text) == set()


def _optional_steps(tmp_path, text: str) -> list[str]:
    p = tmp_path / "doc.md"
    p.write_text(text, encoding="utf-8")
    res = DocumentExtractor(None).extract(parse_file(p, "doc.md"))
    names = {e.id: e.name for e in res.entities}
    return sorted(names[t.object] for t in res.triples if t.relation == "CONTAINS" and t.properties.get("required") is False)


def test_checklist_item_marked_optional(tmp_path):
    # ops-lullabot appendix/device-checklist.md 30-35 (a task list)
    got = _optional_steps(tmp_path, "## Backups\n\n"
                          "- [ ] If computers have a backup system in place, backups should be encrypted.\n"
                          "- [ ] Optional, but nice to have: backups support versioning to protection against ransomware style scams.\n"
                          "- [ ] If using cloud services for backups, use a private key that only you know. (Store it in 1Password.)\n")
    assert got == ["Backups support versioning to protection against ransomware style scams"]
    # ops-2i2c-infra hub-deployment-guide/configure-auth/shared-password.md 44 (a numbered step) still reads
    got = _optional_steps(tmp_path, "## Passwords\n\n1. A regular user password.\n"
                          "2. (Optional) An *admin* user password, to be distributed *just* to admins.\n")
    assert len(got) == 1 and got[0].startswith("(Optional) An admin user password")


def test_paragraph_opened_by_an_optional_marker(tmp_path):
    # ops-k8s-src comms-templates/vulnerability-announcement-email.md 76-80
    got = _optional_steps(tmp_path, "#### Acknowledgements\n\nThis vulnerability was reported by $REPORTER.\n\n"
                          "_(optional):_ The issue was fixed and coordinated by $FIXTEAM and $RELEASE_MANAGERS.\n")
    assert got == ["The issue was fixed and coordinated by $FIXTEAM and $RELEASE_MANAGERS"]
    # ops-2i2c-infra topic/infrastructure/config.md 56 (a definition-list term)
    got = _optional_steps(tmp_path, "## Configuration structure\n\nDeployer credentials\n: A `sops`-encrypted YAML file.\n\n"
                          "(Optional) Grafana API Token\n: This token allows us to programmatically create a range of useful dashboards.\n")
    assert got == ["(Optional) Grafana API Token"]
    # ops-govuk manual/on-call.html.md 38: "Optional:" introduces a list; the paragraph itself is no step
    got = _optional_steps(tmp_path, "## Before your shift\n\nOptional:\n\n- Ensure you can connect to the VPN\n")
    assert got == ["Ensure you can connect to the VPN"]


def test_two_stand_ins_in_one_phrase_are_both_kept(tmp_path):
    # ops-2i2c-compass code-of-conduct/response-protocol.md 12
    s = ("If yes, the Director will determine whether they are the best person to respond to the situation, or if it is "
         "more appropriate to hand off the report to another Director or Steering Council member (for example, if someone "
         "else already has a relationship with the reporter or the accused).")
    got = {(c.x, c.y) for c in cues.read(s) if c.kind == "standin"}
    assert got == {("Director", "another Director"), ("Director", "Steering Council member")}


def test_ask_your_x_or_y_in_a_document(tmp_path):
    # ops-govuk manual/post-a-statuspage-message.html.md 23 (a person word X named once) and ops-lullabot
    # communications/data_classification.md 20
    subs = _subs(tmp_path, "# Access\n\nIf you should have access but don’t, ask your (civil servant) tech lead or a "
                           "Senior Tech member.\n\n## Data\n\nIf in doubt about how to classify a given document, ask your "
                           "manager or the security team.\n")
    assert subs == {("role:tech lead", "role:senior tech member"), ("role:manager", "role:security team")}
