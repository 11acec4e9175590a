"""General English constructions of stand-ins, fallbacks and optional parts in operations documents
(issue 10): passives, fallbacks stated with "with a fallback to" / "failing that", role alternation,
template markers of optional parts. Each construction is read from sentences of at least two
different corpora (the ops dev corpora, the bundled PagerDuty corpus, public runbooks), with the
expected names copied from the text, plus the guards that keep precision."""
from __future__ import annotations

from conftest import document_sub_pairs, optional_parts_of
from threadgraph.knowledge import cues


def _standins(sentence: str, rule: str):
    return [(c.x, c.y) for c in cues.read(sentence) if c.kind == "standin" and c.rule == rule]




def test_role_handed_on_in_the_passive():
    r = "en.x_passive_handed_to_y"
    # kubernetes/committee-security-response security-release-process.md (ops-k8s-src)
    assert _standins("The incident commander defaults to the current oncall, but may be handed off to other SRC or "
                     "Kubernetes maintainers.", r) == [("incident commander", "SRC or Kubernetes maintainers")]
    # jamesduffy/documentation docs/incident-response/plan.md
    assert _standins("As more personnel join, the IC role may be reassigned to a more senior or experienced individual.",
                     r) == [("IC", "senior or experienced individual")]


def test_passive_hand_on_keeps_people_only(tmp_path):
    got = document_sub_pairs(tmp_path, "src.md", "# Incident commander\n\nThe incident commander defaults to the current oncall, "
                   "but may be handed off to other SRC or Kubernetes maintainers.\n")
    assert ("incident commander", "Kubernetes maintainers") in got
    # an issue or a task is escalated or delegated, not a person: no stand-in (PagerDuty deputy.md)
    got = document_sub_pairs(tmp_path, "deputy.md", "# Deputy\n\nThose tasks will be delegated to the resolvers by the IC.\n\n"
                   "Incidents can be escalated to the SRE team.\n")
    assert not any(x.casefold() in ("tasks", "incidents") for x, _ in got)


def test_with_a_fallback_to_y():
    r = "en.x_with_fallback_to_y"
    # ops-k8s-src security-release-process.md
    assert _standins("The final selection is made by discussion & lazy consensus, with a fallback to a vote.", r) == [
        ("discussion & lazy consensus", "vote")]
    # a public board-support sample's README
    assert _standins("The default iDigi network configuration uses DHCP, with a fallback to the given static IP address.",
                     r) == [("DHCP", "given static IP address")]
    # a public Android app's comment: "or, failing that,"
    assert _standins("Instead we'll just send users to the youTube app or, failing that, to Chrome.", r) == [
        ("youTube app", "Chrome")]


def test_explicit_fallback_keeps_plain_nouns_named_once(tmp_path):
    got = document_sub_pairs(tmp_path, "srp.md", "# Selection\n\nThe final selection is made by discussion & lazy consensus, "
                   "with a fallback to a vote.\n")
    assert ("discussion & lazy consensus", "vote") in got
    # ops-2i2c-compass crm.md: the passkey is lower case; the clause says "instead"
    got = document_sub_pairs(tmp_path, "crm.md", "# Fallback: username, password, and 2FA\n\nIf the passkey isn't available, you "
                   "can sign in with the username and password instead:\n")
    assert ("passkey", "username and password") in got
    # ops-govuk cdn.html.md: "continue to serve"
    got = document_sub_pairs(tmp_path, "cdn.md", "# Homepage\n\nWe also set a grace period of 24 hours. So if the homepage server "
                   "is down, we'll continue to serve a stale homepage for 24 hours.\n")
    assert ("homepage server", "stale homepage") in got


def test_unavailable_condition_without_another_means_reads_nothing(tmp_path):
    # ops-2i2c-infra manage-alerts/index.md and ops-govuk search-alerts-and-monitoring: the clause after the
    # condition does something else, it does not use another thing
    got = document_sub_pairs(tmp_path, "alerts.md", "# Alerts\n\n- If logs are not available or not proving any useful info, then "
                   "you can manually resolve the alert in PD as a mystery.\n\nFor example, if autocomplete was not "
                   "working on a Monday, you could choose the last Monday that the service was healthy on to estimate "
                   "the impact.\n")
    assert got == set()
    # ops-lullabot shared_passwords.md: a clause is not a name
    got = document_sub_pairs(tmp_path, "pw.md", "# Passwords\n\nIf 1Password goes offline, we can still access our vaults locally.\n")
    assert not any(y == "access our vaults locally" for _, y in got)


def test_two_people_in_one_responsibility():
    r = "en.x_or_y_responsible"
    # PagerDuty incident response docs, whos_oncall.md
    assert _standins("Marketing or Public Relations is the primary response team for any public relations Incident.", r) == [
        ("Marketing", "Public Relations")]
    # a public security-policy template (policy change requests)
    assert _standins("The Security Officer or the Privacy Officer is assigned to review the policy change request.", r) == [
        ("Security Officer", "Privacy Officer")]
    # ops-govuk ownership-meaning.html.md
    assert _standins("actions arising from incident reviews (the Tech Lead and/or Product Manager should attend any "
                     "incident review relating to the application)", r) == [("Tech Lead", "Product Manager")]
    # a list of things is no responsibility of people
    assert _standins("Slack or email is fine for updates.", r) == []


def test_alternation_of_people_only_and_delegation_labels(tmp_path):
    got = document_sub_pairs(tmp_path, "ir.md", "# Internal Communication\n\n**Delegate to:** VP or Director of Engineering\n\n"
                   "Communicate internally only once you are confident that the attack was not sourced internally.\n")
    assert ("VP", "Director of Engineering") in got
    got = document_sub_pairs(tmp_path, "updates.md", "# Updates\n\nThe status page or the blog is the primary contact for customers.\n")
    assert got == set()


def test_template_marks_one_part_optional(tmp_path):
    # ops-k8s-src comms-templates/distributors-announcement-email.md (the marker is an HTML-like tag)
    got = optional_parts_of(tmp_path, "email.md", "### Issue Details\n\nA security issue was discovered in Kubernetes where "
                          "$ACTOR may be able to $DO_SOMETHING. <optional> Kubernetes clusters are only affected if "
                          "$CONDITION </end optional>\n\nThis issue has been rated **$SEVERITY** (link to CVSS calculator "
                          "https://www.first.org/cvss/calculator/3.1) (optional: $SCORE), and assigned **$CVE_NUMBER**\n")
    assert {"Kubernetes clusters are only affected if $CONDITION", "$SCORE"} <= got
    # a public README: "(Optional: …)" giving a reason is about the item before it, no part named by the reason
    got = optional_parts_of(tmp_path, "readme.md", "## Prerequisites\n\n* A Minecraft Server\n* Python 2.7\n"
                          "* [psutil](https://code.google.com/p/psutil/) (Optional: Needed by the agent to report server status)\n")
    assert not any(n.startswith("Needed") for n in got)


def test_if_possible_and_if_applicable_lead_an_optional_part(tmp_path):
    # ops-k8s-src comms-templates/vulnerability-announcement-email.md
    got = optional_parts_of(tmp_path, "mitigate.md", "### How do I mitigate this vulnerability?\n\n_(If possible):_ Prior "
                          "to upgrading, this vulnerability can be mitigated by ...\n")
    assert any(n.startswith("(If possible): Prior to upgrading, this vulnerability can be mitigated by") for n in got)
    # ops-lullabot appendix/device-checklist.md
    got = optional_parts_of(tmp_path, "devices.md", "## Mobile Devices\n\n- [ ] Devices have a passcode.\n"
                          "- [ ] If applicable, rooted Android phones and jailbroken iPhones should be treated with care.\n")
    assert "Rooted Android phones and jailbroken iPhones should be treated with care" in got  # the marker is the edge
    assert not any(n.startswith("Devices have") for n in got)


def test_ruled_out_then_however_or_instead_names_the_replacement(tmp_path):
    # ops-lullabot physical/malware.md
    got = document_sub_pairs(tmp_path, "malware.md", "### Safari\n\nuBlock Origin does not work on Safari. However, other adblockers "
                   "such as [AdGuard](https://apps.apple.com/app/adguard-for-safari/id1440147259) are available.\n")
    assert got == {("uBlock Origin", "AdGuard")}
    # a public HTML-email guide's "JavaScript workarounds"
    got = document_sub_pairs(tmp_path, "js.md", "## JavaScript workarounds\n\n`window.event.cancelBubble = true` is not supported. "
                   "Instead, use `event.stopPropagation()`\n")
    assert got == {("window.event.cancelBubble = true", "event.stopPropagation()")}
    # a public app README: what to use instead is no name ("development builds"): nothing
    got = document_sub_pairs(tmp_path, "builds.md", "## Development Builds\n\nPara's native module requirements mean **Expo Go** is "
                   "not supported. Instead, use development builds through either of these methods:\n")
    assert got == set()
