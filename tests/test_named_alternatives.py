"""Alternatives between named things in policy prose (ingest/named_alternatives.py, ingest/lexicon/policy.yaml):
each cue read from sentences of at least two corpora (the 18F handbook, the GDS Way, Lullabot's security policy,
2i2c's infrastructure guide, GOV.UK's developer docs), and the sentences that must give nothing (a list of
examples, a noun that looks like a contact verb, an "or" inside a link text, pairs given "respectively")."""
from __future__ import annotations

from threadgraph.ingest.named_alternatives import (_LINK, also_contact_pairs, channel_or_pairs, contact_or_pairs,
                                                    different_kind_pairs, written_names)

from conftest import edge_names, mini_corpus


def _md(s: str) -> str:
    """The sentence as the reader sees it: Markdown links written ⟦text⟧."""
    return _LINK.sub(lambda m: f"⟦{m.group(1)}⟧", s)


def test_written_names_drop_the_capital_of_the_sentence():
    got = [n.text for n in written_names(_md("Contact GDS [Information Security][] or the security architects in the "
                                               "[CO:D Cyber Security team][]"))]
    assert got == ["GDS", "Information Security", "CO:D Cyber Security team"]
    got = [(n.text, n.kind) for n in written_names("Post to Slack in #bot-support or email team@lullabot.com")]
    assert got == [("Slack", "p"), ("#bot-support", "h"), ("team@lullabot.com", "e")]


def test_contact_a_or_b():
    # 18F handbook, general-information-and-resources/software.md
    assert contact_or_pairs("Also reach out in #infrastructure in Slack or by emailing tts-software@gsa.gov "
                            "for more information") == [("#infrastructure", "tts-software@gsa.gov")]
    # Lullabot, physical/lost-devices.md and communications/cloud.md
    assert contact_or_pairs("Post to Slack in #bot-support or email team@lullabot.com to let the team know you lost a "
                            "device.") == [("#bot-support", "team@lullabot.com")]
    assert contact_or_pairs("Finally, if at all in doubt (or you just want help doing the above), ask in #security in "
                            "Slack, or email security@lullabot.com.") == [("#security", "security@lullabot.com")]
    # GDS Way, standards/web-application-firewall.html.md: a chain of three contacts
    s = _md("Contact GDS [Information Security][] or the security architects in the [CO:D Cyber Security team][] or "
            "use the [#cyber-security-help Slack channel](https://gds.slack.com/messages/CCMPJKFDK/)")
    assert contact_or_pairs(s) == [("Information Security", "CO:D Cyber Security team"),
                                   ("CO:D Cyber Security team", "#cyber-security-help Slack channel")]


def test_contact_or_gives_nothing_without_a_contact():
    # GDS Way, manuals/security-overview-for-websites.html.md: "email" is an example of a record, not a verb
    assert contact_or_pairs("Consider using longer TTLs for other records (such as email, MX or TXT records) - the "
                            "recommended value is 24 hours or 86,400 seconds.") == []
    # 2i2c infrastructure, howto/features/login-page.md: the "or" ends a list of examples
    assert contact_or_pairs("`https://<domain-of-the-hub>/hub/oauth_login` will ask the user to log in if necessary, "
                            "and send them to the default configured experience for the hub (such as a profile list, "
                            "JupyterLab, or RStudio).") == []
    # 2i2c team compass, code-of-conduct/response-protocol.md: "the report" is a noun
    assert contact_or_pairs("If yes, the Director will determine whether they are the best person to respond to the "
                            "situation, or if it is more appropriate to hand off the report to another Director or "
                            "Steering Council member.") == []
    # GOV.UK developer docs, manual/investigate-when-search-is-down.html.md: the "or" is inside a link text
    assert contact_or_pairs(_md("If you are confident there is an outage caused by GCP or Discovery Engine, skip to "
                                "[How to contact Google if there is a critical issue with GCP or Discovery Engine]"
                                "(#how-to-contact-google).")) == []


def test_you_can_also_reach_it_another_way():
    # 18F handbook, getting-started/how-to-log-in.md
    s = _md("Any integration beyond basic requires a [GSA IT Help Desk ticket](https://servicedesk.gsa.gov), you can "
            "also start a ticket by emailing `itservicedesk@gsa.gov`.")
    assert also_contact_pairs(s, "") == [("GSA IT Help Desk ticket", "itservicedesk@gsa.gov")]
    # GDS Way, standards/incident-management.html.md: X is named by the sentence before
    s = _md("You can also use the [#cyber-security-help Slack channel](https://gds.slack.com/messages/CCMPJKFDK/) to "
            "contact CO:D Cyber within normal working hours.")
    assert also_contact_pairs(s, _md("The [CO:D Cyber Security team].")) == [
        ("CO:D Cyber Security team", "#cyber-security-help Slack channel")]
    # 2i2c team compass, engineering/secrets.md: an "instead of" sentence is read by the sentence cues
    assert also_contact_pairs("You can also use the `-d` flag instead of `--decrypt`.", "Run `sops --decrypt`.") == []
    # "also use" without saying it reaches somebody offers no contact
    assert also_contact_pairs("You can also use the `Slack` app on your phone.", "Install [Zoom](https://zoom.us).") == []


def test_a_different_tool_such_as_y():
    # GDS Way, standards/tracking-dependencies.html.md: X is named by the sentence before
    s = _md("Service teams are free to use a different tool such as [Snyk](https://snyk.io/), but will need to add a "
            "`no-dependabot` tag to their repository for monitoring purposes.")
    prev = ("The COD Cyber Security team will review the repositories that do not have dependency management in use "
            "and will turn on Dependabot where required.")
    assert different_kind_pairs(s, prev) == [("Dependabot", "Snyk")]
    # 18F handbook, tools/google-drive.md: X is named earlier in the sentence, two Ys joined by "or"
    s = ("In the case that you intend to involve those agencies in an initiative where a Google Form is being used, "
         "it's smart to create a version in another format, like a Word doc or fillable PDF.")
    assert different_kind_pairs(s, "") == [("Google Form", "Word doc"), ("Google Form", "fillable PDF")]
    # 2i2c infrastructure, howto/features/binderhub-ui.md: "another resource" is no kind of tool
    assert different_kind_pairs(_md("Give access to the binder service from another resource, such as [live "
                                    "computation with a MyST website](https://mystmd.org/guide)."), "") == []
    # "other tools such as …" adds examples, it replaces nothing
    assert different_kind_pairs("We use Dependabot and other tools such as Snyk.", "") == []


def test_two_means_of_communication():
    # 18F handbook, travel-and-leave/going-out-of-office.md
    assert channel_or_pairs("Tell team members or partners via Slack or email, and make sure your work is covered.") == [
        ("Slack", "email")]
    # GDS Way, standards/user-support.html.md and standards/alerting.html.md
    assert channel_or_pairs("users might contact 1st line support using an online form or by email") == [
        ("online form", "email")]
    assert channel_or_pairs("You can also configure these tools to send alert notifications using email or Slack.") == [
        ("email", "Slack")]
    # Lullabot, communications/email.md and physical/lost-devices.md
    assert channel_or_pairs("Verbally exchange information on video or phone.") == [("video", "phone")]
    assert channel_or_pairs("Get on a phone or video call with a member of the admin team to confirm the lost "
                            "device.") == [("phone", "video call")]
    # two names without a channel word are left to the sentence cues; a channel word must be the whole side
    assert channel_or_pairs("link accounts to Google using OAuth or OIDC.") == []
    assert channel_or_pairs("Share alerts from AWS or GCP with all engineers via our Slack support channel.") == []


def test_named_alternatives_are_symmetric_edges(tmp_path):
    ex = mini_corpus(tmp_path, {
        "software.md": "# Software\n\nAlso reach out in #infrastructure in Slack or by emailing tts-software@gsa.gov "
                       "for more information.\n",
        "lost.md": "# Lost devices\n\nPost to Slack in #bot-support or email team@lullabot.com to let the team know "
                   "you lost a device.\n\nYou can send a direct message to a single person or a group of people.\n"})
    assert edge_names(ex, "SUBSTITUTES", symmetric=True) >= {("#infrastructure", "tts-software@gsa.gov"),
                                                             ("#bot-support", "team@lullabot.com")}
    # "a single person or a group of people" names no thing: the named-alternatives reader reads nothing there
    assert not any("person" in a or "person" in b for a, b in edge_names(ex, "SUBSTITUTES", symmetric=True))
