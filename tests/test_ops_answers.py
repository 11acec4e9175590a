"""Answers to ops questions that generalize (issue 11): mechanisms tested on real lines of
at least two dev corpora each."""

from __future__ import annotations

from conftest import GEN, doc_lines

F18_PASSWORDS = GEN / "ops-18f/docs/general-information-and-resources/tech-policies/password-requirements.md"
F18_LOGIN = GEN / "ops-18f/docs/getting-started/how-to-log-in.md"
I2C_TOOLS = GEN / "ops-2i2c-infra/docs/reference/tools.md"


class _NgramIndex:
    """A KB whose full-text search ranks ``pool`` first: passages holding the letters of a short
    name inside longer words, as the 2–3-gram index ranks them, before the one that writes it."""

    def __init__(self, pool: list[str]):
        self.calls: list[tuple[str, int]] = []
        outer = self

        class vectors:  # noqa: N801 - the attribute name of a KB
            @staticmethod
            def search(text, vector=None, *, limit=8, mode="hybrid"):
                outer.calls.append((text, limit))
                from types import SimpleNamespace

                return [SimpleNamespace(section="", text=x) for x in pool[:limit]]

        self.vectors = vectors


def test_a_name_the_retrieved_passages_write_is_not_absent():
    """ops-18f: 'ENT' is written in the passages the question retrieved; ops-2i2c-infra: 'GUI' too.
    Neither is searched for again, and neither is called absent."""
    from threadgraph.bot.evidence import absent_names

    ent = doc_lines(F18_PASSWORDS, 57, 58)
    assert "Amazon password as your ENT" in ent
    kb = _NgramIndex([])
    assert absent_names("Should I reuse my Amazon password for ENT?", kb, [], [ent]) == []
    gui = doc_lines(I2C_TOOLS, 26, 26)
    assert "is an amazing GUI for exploring" in gui
    assert absent_names("Is there a GUI alternative to kubectl?", kb, [], [gui]) == []
    assert kb.calls == []


def test_a_short_name_is_looked_for_beyond_the_first_ngram_hits():
    """The 2–3-gram index ranks passages with 'ent' inside longer words ("environment",
    "document") before one that writes 'ENT' (ops-18f); a 3-letter name written on the 11th
    passage is still found, and a name written nowhere is absent."""
    from threadgraph.bot.evidence import ABSENT_POOL, absent_names

    noise = ["If an incident involved exposing environment variables or private configuration data"] * 10
    kb = _NgramIndex(noise + [doc_lines(F18_LOGIN, 28, 28)])
    assert ABSENT_POOL > 10
    assert absent_names("How often do I change my ENT password?", kb, []) == []
    assert absent_names("Can I use my PIV card for Zork?", _NgramIndex(noise), []) == ["PIV", "Zork"]


GOVUK = GEN / "ops-govuk/docs/manual"
I2C = GEN / "ops-2i2c-infra/docs"


def test_an_and_for_tool_follow_up_asks_about_the_new_tool(tmp_path):
    """An elliptical "and for <tool>?" after a stand-in question about a system asks about the
    tool it names, not the remembered one (the stand-in intent takes a named system in
    ``refine``, which runs for the intent a follow-up is moved to). ops-2i2c-infra:
    across-clusters.md:49 "As an alternative to `scp` you can use `rsync` as follows:",
    send-secrets.md:12 "An alternative is to ask the community to setup [age](…)"; ops-govuk:
    slack-unavailable.html.md:10 "If Slack has an outage, we use Google Spaces as a fallback.",
    github-unavailable.html.md:15 "If GitHub.com is down, you can still clone a GOV.UK repo from
    CodeCommit"."""
    from conftest import bot_over, quoted

    quoted(I2C / "hub-deployment-guide/hubs/move-hubs/across-clusters.md", 49, "As an alternative to `scp` you can use `rsync`")
    quoted(I2C / "howto/send-secrets.md", 12, "An alternative is to ask the community to setup [age]")
    ask = bot_over(tmp_path / "i2c", {
        "across-clusters.md": I2C / "hub-deployment-guide/hubs/move-hubs/across-clusters.md",
        "send-secrets.md": I2C / "howto/send-secrets.md"})
    first = ask("What's an alternative to scp for moving home directories?")
    assert first.found and "rsync" in first.answer
    again = ask("And for Bitwarden Send?")
    assert again.found and "age" in again.answer and "rsync" not in again.answer

    quoted(GOVUK / "slack-unavailable.html.md", 10, "If Slack has an outage, we use Google Spaces as a fallback.")
    quoted(GOVUK / "github-unavailable.html.md", 15, "If GitHub.com is down, you can still clone a GOV.UK repo from")
    ask = bot_over(tmp_path / "govuk", {
        "slack-unavailable.html.md": GOVUK / "slack-unavailable.html.md",
        "github-unavailable.html.md": GOVUK / "github-unavailable.html.md"})
    first = ask("If Slack has an outage, what do we use instead?")
    assert first.found and "Google Spaces" in first.answer
    again = ask("and for GitHub.com?")
    assert again.found and "CodeCommit" in again.answer and "Google Spaces" not in again.answer


def test_a_command_line_is_no_sentence_the_reader_reads():
    """A command's slashes and options are no stand-in (ops-2i2c-infra aws.md:56 was read as
    "nodegroup-name instead of kubectl"); prose with slashes stays readable."""
    from threadgraph.bot.reader import code_like

    aws = I2C / "howto/upgrade-cluster/k8s-version/aws.md"
    assert code_like(quoted_line(aws, 56, "kubectl get node --label-columns=alpha.eksctl.io/nodegroup-name"))
    fix = GEN / "ops-govuk/docs/kubernetes/fix-app/index.html.md"
    assert code_like(quoted_line(fix, 30, "kubectl -n apps exec deploy/<APPNAME> -c app -- env"))
    assert not code_like(quoted_line(GOVUK / "slack-unavailable.html.md", 12,
                                     "allowing async adding/removing of members"))
    assert not code_like(quoted_line(I2C / "reference/tools.md", 30, "is a similar tool to Lens, but a terminal based UI."))
    assert not code_like("See the [guide](https://example.org/search?q=incident) for the steps.")


def quoted_line(path, n: int, quote: str) -> str:
    """Line ``n`` of ``path``, after checking that it says ``quote``."""
    from conftest import quoted

    quoted(path, n, quote)
    return path.read_text(encoding="utf-8").splitlines()[n - 1]


def test_a_runbook_question_naming_an_unknown_thing_is_answered_from_the_passages(tmp_path):
    """A substitute or steps question about something the KB has no entity for, with no graph
    fact: the passages answer when they write it (ops-2i2c-infra tools.md:26 "[Lens](…) is an
    amazing GUI for exploring various objects") or, for the verb phrase of a "how do I …", when
    the rest of the question finds them (ops-2i2c-compass crm.md:65 "If the passkey isn't
    available, you can sign in with the username and password instead:"); a thing no passage
    writes stays unanswered."""
    from conftest import bot_over

    tools = I2C / "reference/tools.md"
    crm = GEN / "ops-2i2c-compass/docs/business-development/crm.md"
    quoted_line(tools, 26, "is an amazing GUI for exploring various objects")
    quoted_line(crm, 65, "If the passkey isn't available, you can sign in with the username and password instead:")
    ask = bot_over(tmp_path, {"tools.md": tools, "crm.md": crm})
    a = ask("Is there a GUI alternative to kubectl?", thread="1")
    assert a.found and "Lens" in a.answer
    a = ask("hubspot passkey gone, how do i get in??", thread="2")
    assert a.found and "HubSpot Account page" in a.answer  # which sentence leads is the model's ranking
    a = ask("Is there a GUI alternative to Zorkctl?", thread="3")
    assert not a.found


GDS_LOGGING = GEN / "ops-gdsway/docs/standards/logging.html.md"
COMPASS_INCIDENT = GEN / "ops-2i2c-compass/docs/services/interactive-computing/incidents/before-incident.md"


def _thread(question: str, answer: str):
    from threadgraph.bot.memory import ThreadState

    return ThreadState(turns=[{"role": "user", "text": question, "intent": "general"},
                              {"role": "bot", "text": answer, "intent": "general"}])


def test_a_follow_up_pronoun_is_searched_with_the_name_the_last_answer_gave():
    """"and if it's unavailable?" after "Use <tool> to store … logs" (ops-gdsway logging.html.md:12),
    "and who fills that role?" after "This is typically the <role>" (ops-2i2c-compass
    before-incident.md:47): the name the answer introduced goes with the previous question."""
    from threadgraph.bot.antecedent import antecedent_text

    use = quoted_line(GDS_LOGGING, 12, "Use [Splunk] to store and query infrastructure, application and audit logs.")
    asked = "What should I use to store and query logs?"
    got = antecedent_text(_thread(asked, use.replace("[Splunk]", "Splunk")), asked, "And if it's unavailable?")
    assert got == asked + " Splunk"
    role = quoted_line(COMPASS_INCIDENT, 47, "This is typically the {term}`Support Triager`")
    asked = "Who is the Communication Liaison during an incident?"
    answer = "Communication Liaison " + role.replace("{term}`Support Triager`", "{term}Support Triager")
    got = antecedent_text(_thread(asked, answer), asked, "and who fills that role?")
    assert got == asked + " Support Triager"  # "Communication Liaison" is in the question already


def test_no_answer_name_after_a_follow_up_or_a_list():
    """A follow-up's own answer does not move the thread's topic, and an answer that starts with a
    list item has no subject: the previous question alone is the context (ops-gdsway, ops-2i2c-compass)."""
    from threadgraph.bot.antecedent import antecedent_text

    asked = "And if it's unavailable?"
    kinesis = quoted_line(GDS_LOGGING, 71, "CSLS utilises Amazon Kinesis and can persist logs in the event that Splunk is")
    assert antecedent_text(_thread(asked, kinesis), asked, "How long should I keep it there?") == asked
    asked = "What roles does the incident team need?"
    item = "- An {term}Incident Responder"
    assert antecedent_text(_thread(asked, item), asked, "and who fills that role?") == asked


def test_a_proposed_stand_in_the_documents_never_write_is_not_answered(tmp_path):
    """"Can we use <name> instead of X?" where no document writes <name>: the stand-ins recorded
    for X are no answer about it (ops-gdsway monitoring.html.md:22 "Amazon provides a Managed
    Prometheus service, which you may wish to use instead of hosting Prometheus yourself";
    ops-2i2c-infra across-clusters.md:49 "As an alternative to `scp` you can use `rsync`"). A
    proposed name the documents write is still answered."""
    from conftest import bot_over

    mon = GEN / "ops-gdsway/docs/standards/monitoring.html.md"
    moves = I2C / "hub-deployment-guide/hubs/move-hubs/across-clusters.md"
    quoted_line(mon, 22, "We recommend using [Prometheus][] to gather metrics and monitor your service")
    quoted_line(moves, 49, "As an alternative to `scp` you can use `rsync`")
    ask = bot_over(tmp_path, {"monitoring.md": mon, "across-clusters.md": moves})
    a = ask("Can we use Datadog instead of Prometheus?", thread="1")
    assert not a.found and "Datadog" in a.answer
    a = ask("Can we use FileZilla instead of scp?", thread="2")
    assert not a.found and "FileZilla" in a.answer
    a = ask("What's an alternative to scp for moving home directories?", thread="3")
    assert a.found and "rsync" in a.answer


def _case_texts(corpus: str) -> list[str]:
    import json

    rows = [json.loads(x) for x in (GEN / corpus / "cases.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    return [t["text"] for r in rows for t in r["turns"]]


def test_a_typo_in_a_cue_word_is_read_as_the_cue():
    """ops-2i2c-infra's chat case types "altenative"; ops-gdsway's "Is DNSSEC mandatory …" typed
    "mandatroy" reads the same; no other question of four dev ops corpora changes (inflections,
    names and short words are left alone)."""
    from threadgraph.bot.words import correct_typos

    q = "yo whats the altenative to scp for the home dirs??"
    assert q in _case_texts("ops-2i2c-infra")
    assert correct_typos(q) == "yo whats the alternative to scp for the home dirs??"
    assert "Is DNSSEC mandatory for our website?" in _case_texts("ops-gdsway")
    assert correct_typos("Is DNSSEC mandatroy for our website?") == "Is DNSSEC mandatory for our website?"
    for corpus in ("ops-18f", "ops-lullabot", "ops-gdsway", "ops-k8s-src"):
        for text in _case_texts(corpus):
            assert correct_typos(text) == text


def test_a_passage_writing_every_name_of_the_question_supports_it():
    """A question that links nothing is supported by a passage that writes each of its proper
    names, though its other words are said otherwise there: ops-gdsway
    security-overview-for-websites.html.md:52 "Enable DNSSEC if practicable" under "Must Do" for
    "Is DNSSEC mandatory …?"; ops-lullabot device-checklist.md:23 "… encrypted … with FileVault,
    BitLocker, or equivalent." for "Is FileVault a must on every laptop?". A passage missing one of
    the names ("Macs", "Akamai") does not."""
    from threadgraph.bot.evidence import passages_support
    from threadgraph.bot.query import Query
    from threadgraph.knowledge.vectors import Hit

    web = GEN / "ops-gdsway/docs/manuals/security-overview-for-websites.html.md"
    dnssec = quoted_line(web, 52, "Enable DNSSEC if practicable")
    hit = Hit("1", "w.md", "2. Domain Name Registrar > Must Do", dnssec, 52, 0.5, [])
    assert passages_support(Query(intent="general", language="en", text="Is DNSSEC mandatory for our website?"), [hit])
    checklist = GEN / "ops-lullabot/docs/appendix/device-checklist.md"
    line = quoted_line(checklist, 23, "with FileVault, BitLocker, or equivalent.")
    hit = Hit("2", "c.md", "Computers", line, 23, 0.5, [])
    assert passages_support(Query(intent="general", language="en", text="Must Macs run FileVault?"), [hit]) is False
    assert passages_support(Query(intent="general", language="en", text="Is FileVault a must on every laptop?"), [hit])
    assert not passages_support(Query(intent="general", language="en", text="Is DNSSEC a must with Akamai?"), [hit])
