"""English prose alternatives (issue 10) read with the noun-phrase trimmer of the sentence reader
(``np_trim`` of knowledge/lexicon/cues.yaml): "use Y rather than / instead of X", "Instead of X, use Y",
"Y is preferred over X", "Y (which has replaced X)", "if X does not work, Y"; "… should not … in A.
Instead, … B" across two clauses (ingest/prose_alternatives.py); and a list item whose own sentence is only
"Optional." (ingest/documents.py). Each cue is read from sentences quoted from the dev corpora (checked
against the files with ``quoted``) — positive and negative cases from at least two collections."""
from __future__ import annotations

from pathlib import Path

from conftest import GEN, cue_pairs as _read, doc_lines, edge_names, extract_copies, quoted

F18 = GEN / "ops-18f" / "docs"
GDS = GEN / "ops-gdsway" / "docs"
LULLA = GEN / "ops-lullabot" / "docs"
GOVUK = GEN / "ops-govuk" / "docs"
COMPASS = GEN / "ops-2i2c-compass" / "docs"
PASSWORDS = F18 / "general-information-and-resources" / "tech-policies" / "password-requirements.md"


def test_noun_phrase_trimmer():
    from threadgraph.knowledge.cues import noun_phrase

    # a slot before its cue starts after its last lead word; one after its cue loses leading verbs, gerund, determiners
    assert noun_phrase("Consider using web-access to 1Password", "before") == "web-access to 1Password"
    assert noun_phrase("format your question as a drop down", "before") == "drop down"
    assert noun_phrase("reusing any passwords from your personal life", "after") == "passwords from your personal life"
    assert noun_phrase("filling out a code of conduct violation report", "after") == "code of conduct violation report"
    # a gerund phrase that fits is the activity given up, kept whole (ops-gdsway standards/operating-systems.html.md 20)
    assert noun_phrase("upgrading the whole OS to a standard (non-LTS) release", "after") == "upgrading the whole OS"
    assert noun_phrase("setting up random nonsense answers and storing those answers", "after") == "random nonsense answers"
    # a clause is not a name: a verb phrase after "to", a relative clause, a pronoun, a vague phrase
    assert noun_phrase("use Amazon Web Services as core infrastructure and to host services", "before") == ""
    assert noun_phrase("services that support individual accounts", "before") == ""
    assert noun_phrase("those that do not", "after") == ""
    assert noun_phrase("any other methods", "after") == ""
    # a noun in -ing is not a gerund; a flag keeps its dash
    assert noun_phrase("string values", "after") == "string values"
    assert noun_phrase("the -d flag", "before") == "-d flag"


def test_lead_y_rather_than_x():
    r = "en.lead_y_rather_than_x"
    # ops-gdsway standards/accounts-with-third-parties.html.md 33
    line = quoted(GDS / "standards" / "accounts-with-third-parties.html.md", 33,
                  "create separate accounts for each individual, rather than share credentials")
    assert _read(line, r) == [("credentials", "separate accounts for each individual")]
    # ops-gdsway standards/web-application-firewall.html.md 31 (the reader sees the link's text)
    line = quoted(GDS / "standards" / "web-application-firewall.html.md", 31,
                  "use query variables instead of plain text (stored procedure) to prevent")
    assert _read(line + " SQL injections", r) == [("plain text", "query variables")]
    # ops-18f tools/google-drive.md 108-109 and password-requirements.md 57-58 (wrapped lines)
    text = doc_lines(F18 / "tools" / "google-drive.md", 108, 110).replace("\n", " ")
    assert "format your   question as a drop down rather than multiple choice" in text
    assert _read(text, r) == [("multiple choice", "drop down")]
    text = doc_lines(PASSWORDS, 57, 59).replace("\n", " ").split(" Also ")[0]
    assert _read(text, r) == [("passwords from your personal life", "new passwords for work services")]
    # ops-lullabot access/shared_passwords.md 31
    line = quoted(LULLA / "access" / "shared_passwords.md", 31, "Consider using web-access to 1Password instead of the extension.")
    assert _read(line, r) == [("extension", "web-access to 1Password")]
    # describing, not recommending: no verb of use or choice before Y (ops-govuk, ops-2i2c-compass)
    line = quoted(GOVUK / "kubernetes" / "fix-app" / "index.html.md", 107,
                  "This command works on a pod level rather than a container level")
    assert _read(line, r) == []
    line = quoted(COMPASS / "administration" / "domains.md", 33, "so access is granted per individual rather than via a shared account")
    assert _read("We are on Netlify's Pro plan, which comes with unlimited team members, " + line, r) == []
    # Y a clause, not a name (ops-gdsway standards/hosting.html.md 9, the link's text)
    assert quoted(GDS / "standards" / "hosting.html.md", 9, "as core infrastructure and to host services rather than using our own hardware")
    assert _read("In GDS, we use Amazon Web Services (AWS) as core infrastructure and to host services rather than "
                 "using our own hardware.", r) == []


def test_instead_of_x_lead_y():
    r = "en.instead_of_x_lead_y"
    # ops-18f password-requirements.md 42-44 (wrapped), ops-2i2c-compass code-of-conduct/index.md 107
    text = doc_lines(PASSWORDS, 42, 44).replace("\n", " ")
    assert text.startswith("Instead of setting up real answers")
    assert _read(text, r) == [("real answers", "random nonsense answers")]
    line = quoted(COMPASS / "code-of-conduct" / "index.md", 107,
                  "Instead of filling out a code of conduct violation report, please contact law enforcement directly")
    assert _read(line, r) == [("code of conduct violation report", "law enforcement")]
    # ops-govuk manual/slack-unavailable.html.md 34: "consider if there is …" turns to no thing
    line = quoted(GOVUK / "manual" / "slack-unavailable.html.md", 34,
                  "Rather than adding people individually, consider if there is a Google Group email address")
    assert _read(line, r) == []


def test_y_preferred_over_x():
    r = "en.y_preferred_over_x"
    # ops-18f tools/slack/external-collaboration.md 73
    line = quoted(F18 / "tools" / "slack" / "external-collaboration.md", 73, "Slack Connect is preferred over adding partners as guests.")
    assert _read(line, r) == [("partners as guests", "Slack Connect")]
    # ops-lullabot: a relative clause and a pronoun name nothing
    line = quoted(LULLA / "access" / "shared_accounts.md", 13,
                  "services that support individual accounts will be preferred over those that do not.")
    assert _read(line, r) == []
    assert quoted(LULLA / "access" / "two_factor_authentication.md", 17, "This is preferred over using SMS for 2FA")
    assert _read("This is preferred over using SMS for 2FA.", r) == []
    # pagerduty-incident-response during/security_incident_response.md 154: "any other methods" is vague
    pd = Path(__file__).resolve().parents[1] / "corpora" / "pagerduty-incident-response" / "docs" / "during"
    line = quoted(pd / "security_incident_response.md", 154, "Prefer voice call and Slack over any other methods.")
    assert _read(line, "en.prefer_y_over_x") == []


def test_y_which_replaced_x():
    # ops-18f tools/google-meet.md 11: Y is the name the note follows
    line = quoted(F18 / "tools" / "google-meet.md", 11, "Google Meet (which has mostly replaced Google Hangouts)")
    assert _read(line, "en.y_which_replaced_x_note") == [("Google Hangouts", "Google Meet")]
    # ops-2i2c-compass engineering/secrets.md 21: a note that names no replacement
    assert quoted(COMPASS / "engineering" / "secrets.md", 21, "(which is what is used by the Binder SRE team)")
    assert _read("It is similar to git-crypt (which is what is used by the Binder SRE team).", "en.y_which_replaced_x_note") == []


def test_if_x_fails_y():
    r = "en.if_x_fails_y"
    # ops-govuk manual/data-gov-uk-2nd-line.html.md 716
    line = quoted(GOVUK / "manual" / "data-gov-uk-2nd-line.html.md", 716, "If cancelling does not work you can terminate the query.")
    assert _read(line, r) == [("cancelling", "terminate the query")]
    # ops-govuk manual/on-call.html.md 86: "work" with an object is not a failure; ops-18f google-meet.md 59: a pronoun
    line = quoted(GOVUK / "manual" / "on-call.html.md", 86, "If you do not work a 5-day week, please talk to your delivery manager")
    assert _read(line, r) == []
    line = quoted(F18 / "tools" / "google-meet.md", 59, "Audio should now work, but if it doesn't, try re-starting your computer")
    assert _read(line, r) == []


def _instead(path: Path, first: int, last: int):
    from threadgraph.ingest.prose_alternatives import instead_pairs
    from threadgraph.ingest.readers import parse_file

    doc = parse_file(path)
    return [(x, y) for x, y, b, line in instead_pairs(doc.blocks) if first <= line <= last]


def test_instead_after_a_ruled_out_way():
    sens = F18 / "general-information-and-resources" / "sensitive-information.md"
    assert quoted(sens, 48, "in source code repositories. Instead, use")
    assert _instead(sens, 47, 49) == [("source code repositories", "alternative secret management approaches and solutions")]
    ext = F18 / "tools" / "slack" / "external-collaboration.md"
    assert quoted(ext, 99, "Instead, they should be published on TTS websites and then linked to from the")
    assert _instead(ext, 98, 100) == [("public channels", "TTS websites")]
    note = F18 / "tools" / "slack" / "notifications-general-communication.md"
    assert quoted(note, 18, "You aren’t able to delete a message: instead, you can edit the text")
    assert _instead(note, 18, 18) == [("delete a message", "edit the text")]
    # ops-2i2c-compass people/time-off.md 11: "…, but instead …" in one sentence
    off = COMPASS / "people" / "time-off.md"
    assert quoted(off, 11, "Do not apply hard limits and restrictions, but instead encourage soft minimums")
    assert _instead(off, 11, 11) == [("apply hard limits", "encourage soft minimums")]
    # ops-govuk data-gov-uk-2nd-line.html.md 178: a name inside parentheses is an aside; ops-lullabot malware.md 63:
    # "a policy of not paying" rules no way out with a modal
    dgu = GOVUK / "manual" / "data-gov-uk-2nd-line.html.md"
    assert quoted(dgu, 178, "Datasets are never hard-deleted (known as \"purged\" in CKAN), instead they are given")
    assert _instead(dgu, 178, 178) == []
    mal = LULLA / "physical" / "malware.md"
    assert quoted(mal, 63, "Lullabot has a general policy of not paying attackers to unlock files. Instead, we treat")
    assert _instead(mal, 63, 63) == []


def test_item_marked_optional_by_a_sentence_of_its_own(tmp_path):
    from threadgraph.ingest.documents import marked_alone

    slack = F18 / "tools" / "slack" / "getting-started.md"
    assert quoted(slack, 62, "8. **Phone number**: Your GSA phone number. _Optional_.")
    assert marked_alone("Phone number: Your GSA phone number. Optional.")
    assert marked_alone("Location: Your physical location/state. Optional. Ex. Minnesota")
    # another status word, or "optional" inside a sentence (ops-18f going-out-of-office.md 17), is no marker
    assert not marked_alone("Title: Your work title. Recommended. Ex. Executive Designer of TTS Awesomeness")
    assert not marked_alone("This notification is optional if you do not hold a clearance.")
    got = edge_names(extract_copies(tmp_path, slack), "CONTAINS", required=False)
    names = {o for _, o in got}
    assert {"Phone number", "Location", "Personal ReadMe"} <= names
    assert not any(n.startswith("Title") for n in names)


def test_prose_alternatives_extracted_from_the_documents(tmp_path):
    accounts = GDS / "standards" / "accounts-with-third-parties.html.md"
    got = edge_names(extract_copies(tmp_path, accounts, PASSWORDS), "SUBSTITUTES")
    assert ("credentials", "separate accounts for each individual") in got
    assert ("real answers", "random nonsense answers") in got
    assert ("passwords from your personal life", "new passwords for work services") in got


def test_alternatively_turns_to_a_name_of_the_same_family(tmp_path):
    from threadgraph.ingest.documents import same_family

    # ops-2i2c-infra howto/features/login-page.md 59-61: two URLs that differ in their last part
    login = GEN / "ops-2i2c-infra" / "docs" / "howto" / "features" / "login-page.md"
    assert quoted(login, 59, "2. `https://<domain-of-the-hub>/hub/user-redirect/lab` is valid only on hubs")
    assert quoted(login, 61, "Alternatively, you can use `https://<domain-of-the-hub>/hub/user-redirect/rstudio`")
    got = edge_names(extract_copies(tmp_path, login), "SUBSTITUTES")
    assert ("https://<domain-of-the-hub>/hub/user-redirect/lab", "https://<domain-of-the-hub>/hub/user-redirect/rstudio") in got
    # ops-govuk howto-backup-and-restore-in-aws-rds.html.md 42/44: "… section of the AWS Console" … "via the AWS CLI"
    assert same_family("AWS Console", "AWS CLI")
    # not a family: one name inside the other (ops-govuk: "Google Workspace" / "Google Workspace apps menu"), two
    # one-word names, two URLs of different sites
    assert not same_family("Google Workspace", "Google Workspace apps menu")
    assert not same_family("Slack", "Zoom")
    assert not same_family("https://github.com/a", "https://gitlab.com/b")


def _parallel(path: Path):
    from threadgraph.ingest.documents import _raw_lines
    from threadgraph.ingest.prose_alternatives import parallel_pairs
    from threadgraph.ingest.readers import parse_file

    doc = parse_file(path)
    return [(x, y) for x, y, _, _ in parallel_pairs(doc.blocks, _raw_lines(doc))]


def test_instead_after_the_same_verb_took_another_name():
    # ops-k8s-src src-oncall.md 104-106: a nested item takes another name with the verb of the item above
    oncall = GEN / "ops-k8s-src" / "docs" / "src-oncall.md"
    assert quoted(oncall, 104, '2. Select "Kubernetes HackerOne Robot" to automatically create the issue.')
    assert quoted(oncall, 106, 'select "Manual Integration" instead.')
    assert ("Kubernetes HackerOne Robot", "Manual Integration") in _parallel(oncall)
    # ops-2i2c-compass services/technical-support/process.md 142-144: "mark … as **`Resolved`**" … "as **`Closed`** instead"
    proc = COMPASS / "services" / "technical-support" / "process.md"
    assert quoted(proc, 142, "In FreshDesk, mark the incident as **`Resolved`**.")
    assert quoted(proc, 144, "mark the ticket as **`Closed`** instead.")
    assert ("Resolved", "Closed") in _parallel(proc)
    # ops-2i2c-infra howto/features/buckets.md 150: "use that environment variable instead" names nothing written
    buckets = GEN / "ops-2i2c-infra" / "docs" / "howto" / "features" / "buckets.md"
    assert quoted(buckets, 150, "If testing `$PERSISTENT_BUCKET`, use that environment variable instead")
    assert _parallel(buckets) == []
