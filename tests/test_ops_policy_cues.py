"""Fallback and substitution constructions of engineering-policy prose (standards, security policies,
disaster-recovery guides): a condition that a thing is missing ("Where SSO is not available, …",
"If a service does not support multiple accounts, …", "… in the event that Splunk is unavailable"),
"if you are unable to use X then you should use Y", and the ingest gate that keeps a lower-case noun
phrase named only once when the construction itself names both sides. Each cue is read from sentences
of at least two collections (ops-gdsway, ops-lullabot and public runbook / policy text); the extraction
tests read the corpus files themselves."""
from __future__ import annotations

from pathlib import Path

from conftest import cue_pairs as _read, edge_names, extract_copies, quoted
from threadgraph.ingest.documents import named_in_place

GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
GDS = GEN / "ops-gdsway" / "docs"
LULLABOT = GEN / "ops-lullabot" / "docs"


def test_where_x_is_not_available_turn_to_y():
    r = "en.where_x_unavailable_y"
    # ops-gdsway manuals/security-overview-for-websites.html.md 21
    assert _read("Where SSO is not available, or as an additional measure where possible, consider using "
                 "context-aware access controls (see [Google for example]).", r) == [("SSO", "context-aware access controls")]
    # ops-gdsway standards/principle-least-access.html.md 38
    assert _read("- in cases where JIT access is not implemented for users with privileged access that have critical "
                 "business impact, implement a documeneted periodic review (cadence to be defined) of the need to "
                 "continually have these privileged access granted to confirmed users", r) == [("JIT access", "documeneted periodic review")]
    # ASD Information Security Manual, ISM-0417 operational notes (controlstack.au)
    assert _read("Where MFA cannot be used, enforce strong password-only authentication: length/complexity, deny "
                 "common passwords, and set lockout/rate-limits to reduce guessing.", r) == [("MFA", "strong password-only authentication")]
    # ops-lullabot handbook-management.md 6: "where this is not possible" names no thing that is missing
    assert _read("In the few instances where this is not possible, the contractor policy will be split into a separate page.", r) == []


def test_if_a_tool_does_not_support_x_turn_to_y():
    r = "en.if_lacks_x_y"
    # ops-gdsway manuals/security-overview-for-websites.html.md 17
    assert _read("If the service does not support SSO, make sure you use a gov.uk email and enable multi-factor "
                 "authentication (MFA), ideally using a phishing-resistant mechanism like WebAuthn (hardware keys).", r) == [("SSO", "gov.uk email")]
    # ops-lullabot access/shared_accounts.md 11 (as the reader sees it: the link's text)
    assert _read("- If a service does not support multiple accounts, access credentials will be stored in the shared "
                 "password manager with access only granted to the users who need it.", r) == [("multiple accounts", "shared password manager")]
    # ops-lullabot physical/malware.md 39: replacing the device is no stand-in for the unsupported version
    assert _read("If your laptop, phone, or tablet does not support the required operating system version, then it is "
                 "time to replace that device with something newer.", r) == []


def test_in_the_event_that_x_is_unavailable():
    # ops-gdsway standards/logging.html.md 71-72 (one wrapped sentence)
    assert _read("CSLS utilises Amazon Kinesis and can persist logs in the event that Splunk is unavailable and will "
                 "resume sending data when Splunk is available again.", "en.y_in_the_event_x_unavailable") == [("Splunk", "Amazon Kinesis")]
    r = "en.fail_over_to_y_in_the_event_x"
    # Azure Durable Functions disaster-recovery guide
    assert _read("An important part of a disaster recovery plan is preparing to fail over to the secondary replica of "
                 "your app and storage in the event that the primary replica becomes unavailable.", r) == [("primary replica", "secondary replica")]
    # a CDN-selection product description
    assert _read("* Failover to a backup CDN in the event that the primary CDN is unavailable or too busy to serve.", r) == [("primary CDN", "backup CDN")]
    # ops-govuk manual/investigate-when-search-is-down.html.md 60: an error is not an outage
    assert _read("SearchAPIv2 raises a DiscoveryEngine::InternalError in the event of an error from Discovery Engine.",
                 "en.y_in_the_event_x_unavailable") == []


def test_if_you_are_unable_to_use_x_you_should_use_y():
    r = "en.if_no_x_use_y"
    # ops-gdsway standards/storing-credentials.html.md 17
    assert _read("If you are unable to use your browser's password manager then you should use a third-party password "
                 "manager.", r) == [("browser's password manager", "third-party password manager")]
    # public install guides: "you can try to …" and "you can run …" turn to a step, not a thing used instead
    assert _read("If you are unable to use Conda to install the required packages, you can try to create a virtual "
                 "environment using Python's builtin venv module.", r) == []
    assert _read("If you are unable to use Docker, for example you may be on an HPC, you can run Docker containers "
                 "through Singularity.", r) == []


def test_named_once_keeps_noun_phrases_not_clauses():
    text = "Consider using server analytics instead of remote analytics."
    assert named_in_place("server analytics", text) and named_in_place("remote analytics", text)
    assert not named_in_place("create an account", "create an account with a separate username")  # a clause
    assert not named_in_place("only be applied", "Tags will only be applied")  # an auxiliary
    assert not named_in_place('share" process', 'use the "share" process')  # a fragment with a quote
    # ops-gdsway standards/hosting.html.md 9: "to host services" is a verb phrase
    assert not named_in_place("host services", "as core infrastructure and to host services rather than using our own hardware")
    assert not named_in_place("text", "plain text")  # one lower-case word needs a second mention


def test_one_gate_for_sides_named_in_place():
    # the two gates (named once / explicit) are one: the same noun-phrase test, one lower-case word only under the
    # rules that hold it closely (named_in_place_one_word)
    # ops-k8s-src security-release-process.md 68 (x_with_fallback_to_y): "&" joins a name, one word is the fallback
    srp = "The final selection is made by discussion & lazy consensus, with a fallback to a vote."
    assert named_in_place("discussion & lazy consensus", srp) and named_in_place("vote", srp, one_word=True)
    # ops-2i2c-compass crm.md 65 (if_x_unavailable_y)
    crm = "If the passkey isn't available, you can sign in with the username and password instead:"
    assert named_in_place("passkey", crm, one_word=True) and named_in_place("username and password", crm, one_word=True)
    # under the other rules (use_y_instead_of_x …) a lone lower-case word needs a second mention
    assert not named_in_place("vote", srp)
    # ops-lullabot access/shared_passwords.md 22: what the clause after the condition does is no name
    assert not named_in_place("access our vaults locally", "If 1Password goes offline, we can still access our vaults "
                              "locally.", one_word=True)


def test_policy_fallbacks_extracted_from_the_documents(tmp_path):
    sec = GDS / "manuals" / "security-overview-for-websites.html.md"
    logging = GDS / "standards" / "logging.html.md"
    creds = GDS / "standards" / "storing-credentials.html.md"
    hosting = GDS / "standards" / "hosting.html.md"
    shared = LULLABOT / "access" / "shared_accounts.md"
    email = LULLABOT / "communications" / "email.md"
    subs = edge_names(extract_copies(tmp_path, sec, logging, creds, hosting, shared, email), "SUBSTITUTES")
    assert (quoted(sec, 21, "SSO"), quoted(sec, 21, "context-aware access controls")) in subs
    assert ("SSO", quoted(sec, 17, "gov.uk email")) in subs
    assert (quoted(sec, 270, "remote analytics"), quoted(sec, 270, "server analytics")) in subs
    assert (quoted(logging, 71, "Splunk"), quoted(logging, 71, "Amazon Kinesis")) in subs
    assert (quoted(creds, 17, "browser's password manager"), quoted(creds, 17, "third-party password manager")) in subs
    assert (quoted(shared, 11, "multiple accounts"), "shared password manager") in subs
    # no fragment: "to host services rather than using our own hardware", 'the "share" process rather than …'
    assert not any(y in ("host services", 'share" process') for _, y in subs)
    assert quoted(hosting, 9, "to host services rather than using our own hardware")
    assert quoted(email, 39, 'use the "share" process rather than copy/pasting Dropbox links in email')


def test_set_up_a_backup_of_a_named_system():
    r = "en.set_up_backup_x"
    # ops-gdsway manuals/security-overview-for-websites.html.md 81 and 160
    assert _read("If availability is critical, consider a backup DNS; either use infrastructure as code to deploy to both "
                 "or use automation to export and import the zone. Also, consider enabling the secondary DNS as another "
                 "active name server.", r) == [("DNS", "backup DNS"), ("DNS", "secondary DNS")]
    assert _read("Consider a backup CDN, and this could be as simple as a static version; see [Backup Static Origin] for "
                 "more details.", r) == [("CDN", "backup CDN")]
    # a self-hosting guide's DNS outage mitigation
    assert _read("- Set up a secondary DNS provider (Cloudflare, Route53) so DNS survives a MiaB outage", r) == [
        ("DNS provider", "secondary DNS provider")]
    # public text: a backup plan, offer or key names no system
    assert _read("This equipment depends on electricity. Consider a backup power plan.", r) == []
    assert _read("Maybe time for you to consider a backup plan.", r) == []
    assert _read("   - Consider a backup hardware key", r) == []


def test_backup_of_a_named_system_extracted(tmp_path):
    sec = GDS / "manuals" / "security-overview-for-websites.html.md"
    subs = edge_names(extract_copies(tmp_path, sec), "SUBSTITUTES")
    assert (quoted(sec, 81, "DNS"), quoted(sec, 81, "backup DNS")) in subs
    assert (quoted(sec, 160, "CDN"), quoted(sec, 160, "backup CDN")) in subs


def test_a_sentence_that_leaves_a_thing_out_is_an_optional_step(tmp_path):
    cfg = GDS / "standards" / "configuration-management.html.md"
    vdp = GDS / "standards" / "vulnerability-disclosure.html.md"
    sec = GDS / "manuals" / "security-overview-for-websites.html.md"
    purge = GEN / "ops-govuk" / "docs" / "manual" / "purge-cache.html.md"
    roles = Path(__file__).resolve().parents[1] / "corpora" / "pagerduty-incident-response" / "docs" / "before" / "different_roles.md"
    opt = {o for _, o in edge_names(extract_copies(tmp_path, cfg, vdp, sec, purge, roles), "CONTAINS", required=False)}
    assert quoted(cfg, 15, "Puppet may not be necessary") in opt  # the clause, not the whole sentence
    assert "As well as /.well-known/security.txt you may optionally configure /security.txt." in opt  # over a line break
    assert quoted(vdp, 48, "/security.txt") and quoted(vdp, 47, "you may optionally configure")
    assert any(o.startswith(quoted(sec, 52, "Enable DNSSEC if practicable")) for o in opt)
    # ops-govuk manual/purge-cache.html.md 86 and PagerDuty before/different_roles.md 41
    assert "You can optionally use wildcards (*)." in opt
    assert quoted(purge, 86, "You can optionally use wildcards")
    # PagerDuty: the part left out is a 91-character clause ("Asking all responders if there are strong objections to
    # posting the external communication"): no complete short name, so no part rather than a fragment cut at 80
    # characters ("… to posting the external ...") or before its object ("Asking all responders")
    assert quoted(roles, 41, "is a good practice but is not mandatory")
    assert not any(o.startswith("Asking all responders") for o in opt)
    # "where the complexity of Prometheus is not required" says nothing is left out
    mon = GDS / "standards" / "monitoring.html.md"
    opt = {o for _, o in edge_names(extract_copies(tmp_path / "m", mon) if (tmp_path / "m").mkdir() is None else None,
                                    "CONTAINS", required=False)}
    assert opt == set()


def test_use_one_named_tool_or_another():
    r = "en.use_named_x_or_y"
    # ops-gdsway manuals/security-overview-for-websites.html.md 16 and 94
    assert _read("Use Single Sign-On (SSO) wherever possible to link accounts to Google using OAuth or OIDC.", r) == [("OAuth", "OIDC")]
    assert _read("If your service uses a Content Management System (CMS), like WordPress or Joomla, or uses a non-managed "
                 "infrastructure, then you - or your supplier - must have processes in place for keeping the system and "
                 "software up-to-date.", r) == [("WordPress", "Joomla")]
    # ops-lullabot physical/malware.md 47 (link texts) and appendix/device-checklist.md 70
    assert _read("For further security and control, consider using an extension like NoScript or Ghostery.", r) == [("NoScript", "Ghostery")]
    assert _read("I can use my USB drive because I've encrypted the drive using FileVault or BitLocker.", r) == [("FileVault", "BitLocker")]
    # not alternatives: two causes (ops-govuk), a list of examples and a table cell in capitals (ops-gdsway)
    assert _read("If you are confident there is an outage caused by GCP or Discovery Engine, skip to How to contact Google", r) == []
    assert _read("- external library and container registries (for example, RubyGems, PyPI or Docker Hub)", r) == []
    assert _read("| Private | OFFICIAL-SENSITIVE | `[ORGANISATION] USE ONLY` or `RECIPIENTS ONLY` |", r) == []


def test_migrate_from_x_to_y():
    r = "en.migrate_from_x_to_y"
    # ops-gdsway standards/secrets-auditing.html.md 40
    assert _read("- look for any opportunities to replace secrets with ephemeral tokens, such as moving from hard coded AWS "
                 "secrets in GitHub Actions to using OpenID Connect.", r) == [("hard coded AWS secrets", "OpenID Connect")]
    # ops-lullabot appendix/device-checklist.md 71
    assert _read("- [ ] I switch from iOS to Android because it sounds like fun.", r) == [("iOS", "Android")]
    # a time or data that moves is no change of tool (ops-govuk alerts/check-status-gcp-mirror-sync-job.html.md 87,
    # ops-lullabot access/lullabot_vpn.md 20, ops-govuk ask-for-help.html.md 47)
    assert _read("This used to be a regular problem until the mirror sync job schedule was moved from 12:00 UTC to 18:00 UTC", r) == []
    assert _read("It is important to understand that this only protects your traffic as it moves from your computer to an "
                 "internal server.", r) == []
    assert _read("- can offer advice and assistance with changes such as migrating from one database to another safely and "
                 "efficiently", r) == []


def test_migration_extracted(tmp_path):
    aud = GDS / "standards" / "secrets-auditing.html.md"
    subs = edge_names(extract_copies(tmp_path, aud), "SUBSTITUTES")
    assert (quoted(aud, 40, "hard coded AWS secrets"), quoted(aud, 40, "OpenID Connect")) in subs
