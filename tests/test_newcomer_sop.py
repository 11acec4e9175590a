"""What a newcomer got wrong on the bundled SOPs (issue 11): the reply of a "who is responsible
for doing X" question names the role, a "no evidence about …" reply cuts a long phrase at a word
boundary. Lines quoted from the PagerDuty corpus and from dev ops corpora."""

from __future__ import annotations

from threadgraph.bot import who
from threadgraph.bot.compose import not_found_text, word_cut


# -- "who is responsible for doing X?" reads the verb of X ----------------------------------------------

def test_responsible_for_a_gerund_asks_who_does_it():
    # pagerduty (the newcomer's Q21) and a general phrasing of the same construction
    assert who.question_verb("Who is responsible for communicating with customers during an incident?") == "communicating"
    assert who.question_verb("Who is in charge of paging the on-call engineers?") == "paging"
    assert who.question_verb("Who is accountable for approving the pull request?") == "approving"
    # "responsible for the <noun>" names no action: no verb (the responsible_for facts answer it)
    assert who.question_verb("Who is responsible for the status page?") == ""


def test_a_gerund_joins_its_verb_group():
    talk = who.verb_forms("communicating")
    # pagerduty, training/customer_liaison.md line 27
    assert who._has_verb(talk, "The objective of a Customer Liaison is to keep our customers informed during an "
                               "incident as to what is happening, and to act as a voice for our customers to the Incident Commander.")
    # ops-gdsway, standards/incident-management.html.md line 140
    assert who._has_verb(talk, "Make sure internal and external parties, like Information Security or your service "
                               "users are fully informed at every stage of your incident management process.")
    # ops-govuk, manual/ask-for-help.html.md line 27
    assert who._has_verb(talk, "In addition, there's a `#govuk-technical-on-call` channel that can be used to "
                               "communicate with the on-call engineers in a public forum.")
    page = who.verb_forms("paging")
    assert who._has_verb(page, "Page SME's or other on-call engineers as instructed by the Incident Commander.")  # pagerduty
    assert not who._has_verb(page, "Make sure internal and external parties, like Information Security or your service "
                                   "users are fully informed at every stage of your incident management process.")  # ops-gdsway


def test_stems_of_inflections():
    assert who._stem("communicating") == who._stem("communicate") == "communicat"
    assert who._stem("running") == "run"
    assert who._stem("paging") == who._stem("page") == "pag"
    assert who._stem("tell") == "tell"


# -- a long unknown phrase is cut at a word boundary ---------------------------------------------------

def test_word_cut_never_cuts_inside_a_word():
    q = "set up Kubernetes horizontal pod autoscaling"
    assert word_cut(q, 40) == "set up Kubernetes horizontal pod"
    assert word_cut(q, 200) == q
    assert word_cut("Supercalifragilisticexpialidocious", 10) == "Supercalif"   # one long word: cut at the limit
    assert word_cut("宫保鸡丁没有花生用什么代替", 4) == "宫保鸡丁"                  # CJK: cut at the limit


def test_not_found_after_an_ellipsis_adds_no_full_stop():
    assert not_found_text("en", "set up Kubernetes horizontal pod…", []) == \
        "The knowledge base has no evidence about set up Kubernetes horizontal pod…"
    assert not_found_text("en", "autoscaling", []) == "The knowledge base has no evidence about autoscaling."


# -- a sentence of one role's section is no answer for everyone -----------------------------------------

from threadgraph.bot import scope  # noqa: E402
from threadgraph.knowledge.vectors import Hit  # noqa: E402

ROLES = [("incident commander", "Incident Commander"), ("customer liaison", "Customer Liaison"),
         ("deputy", "Deputy"), ("scribe", "Scribe"), ("subject matter expert", "Subject Matter Expert"),
         ("platform engineer", "Platform Engineer")]
AFTER = "pagerduty-incident-response/docs/after/after_an_incident.md"
PARENT = "Follow-up Actions for Response Roles"
#: pagerduty, after/after_an_incident.md lines 10-40 (the chunks' sections and texts)
AFTER_CHUNKS = [
    Hit("a", AFTER, PARENT, "In addition to any direct follow-up items generated from an incident, each of our "
        "response roles will have a few standard follow-up tasks.", 8, 1.0, []),
    Hit("b", AFTER, f"{PARENT} > Steps for Incident Commander",
        "1. Update the incident in PagerDuty.\n    * Group any related incidents under the primary incident.\n"
        "    * Set the final severity of the incident.\n    * Resolve the incident.\n"
        "1. Create the postmortem, and assign an owner to the postmortem for the incident.", 12, 1.0, []),
    Hit("c", AFTER, f"{PARENT} > Steps for Deputy", "There are no additional steps after an incident is resolved. "
        "However, the IC may ask for your help with their steps.", 24, 1.0, []),
    Hit("d", AFTER, f"{PARENT} > Steps for Scribe", "1. Review the chat communications and extract any relevant "
        "items from key events.\n\n1. Collect all `TODO` items and add them to the postmortem.", 28, 1.0, []),
    Hit("e", AFTER, f"{PARENT} > Steps for Subject Matter Experts", "1. Add any notes you think are relevant to "
        "the postmortem.", 34, 1.0, []),
    Hit("f", AFTER, "Reviewing the Incident", "It's important that we review the incident in detail.", 46, 1.0, []),
]
#: ops-govuk, manual/rules-for-getting-production-access.html.md: one role among kinds of access
GOVUK = "manual/rules-for-getting-production-access.html.md"
GOVUK_CHUNKS = [
    Hit("g", GOVUK, "Types of production access > Production Deploy access", "Production Deploy access allows "
        "you to deploy code to production.", 27, 1.0, []),
    Hit("h", GOVUK, "Types of production access > Production Admin access", "Production Admin access gives "
        "you full administrative access.", 58, 1.0, []),
    Hit("i", GOVUK, "Types of production access > Platform Engineer access", "Platform Engineers have "
        "additional access.", 109, 1.0, []),
]


def test_what_to_do_questions():
    assert scope.asks_what_to_do("What should I do after an incident is resolved?")              # pagerduty (Q20)
    assert scope.asks_what_to_do("I'm taking vacation during my oncall week. What should I do?")  # ops-k8s-src
    assert scope.asks_what_to_do("I lost a laptop without encryption. What do I do first?")       # ops-lullabot
    assert not scope.asks_what_to_do("What does the Scribe do?")                                  # pagerduty
    assert not scope.asks_what_to_do("Who has to approve changes to the emergency banner?")       # ops-govuk


def test_a_role_sections_answer_lists_every_role():
    found = scope.per_role(f"{PARENT} > Steps for Deputy", AFTER_CHUNKS, ROLES, [])
    assert [s.role for s in found] == ["Incident Commander", "Deputy", "Scribe", "Subject Matter Expert"]
    text, shown = scope.per_role_text("en", PARENT, found)
    lines = text.splitlines()
    assert lines[0] == "It depends on your role (Follow-up Actions for Response Roles):"
    assert lines[1] == "- Incident Commander: Update the incident in PagerDuty. (+1 more step)"
    assert lines[2] == "- Deputy: There are no additional steps after an incident is resolved."
    assert lines[3] == "- Scribe: Review the chat communications and extract any relevant items from key events. (+1 more step)"
    assert len(shown) == 4


def test_no_role_overview_when_the_role_was_asked_or_the_section_is_no_role():
    assert scope.per_role(f"{PARENT} > Steps for Deputy", AFTER_CHUNKS, ROLES, ["Deputy"]) == []
    assert scope.per_role("Reviewing the Incident", AFTER_CHUNKS, ROLES, []) == []
    # ops-govuk: one section of the parent names a role, its siblings are kinds of access
    assert scope.per_role("Types of production access > Platform Engineer access", GOVUK_CHUNKS, ROLES, []) == []


# -- "what's the difference between A and B?" over two items of one list --------------------------------

import re  # noqa: E402

import yaml  # noqa: E402

from threadgraph.bot.passages import compared_items, structures  # noqa: E402

GENERAL_YAML = yaml.safe_load((__import__("pathlib").Path(scope.__file__).parent / "intents" / "general.yaml")
                              .read_text(encoding="utf-8"))


def _pair(q: str, lang: str = "en"):
    q = q.strip().rstrip("?？。!！ ")
    for p in GENERAL_YAML["compare_questions"][lang]:
        m = re.search(p, q, re.I)
        if m:
            return m.group("a"), m.group("b")
    return None


def test_compare_questions():
    assert _pair("What's the difference between a SEV-1 and a SEV-2?") == ("SEV-1", "SEV-2")          # pagerduty (Q19)
    assert _pair("How is Confidential Information different from Public Information?") == \
        ("Confidential Information", "Public Information")                                          # ops-lullabot
    assert _pair("P1和P2有什么区别？", "zh") == ("P1", "P2")
    assert _pair("What are the severity levels?") is None


def test_two_items_of_a_table():
    # pagerduty, before/severity_levels.md (the table's rows as the reader sees them)
    doc = "pagerduty-incident-response/docs/before/severity_levels.md"
    rows = Hit("s", doc, "", "Severity | Description | Typical Response\n"
               "SEV-1 | Critical issue that warrants public notification and liaison with executive teams. | Major incident response.\n"
               "SEV-2 | Critical system issue actively impacting many customers' ability to use the product. | Major incident response.\n"
               "SEV-3 | Stability or minor customer-impacting issues that require immediate attention from service owners. | Notify owners.",
               22, 1.0, [])
    a, b = compared_items(structures([rows], "Severity levels"), "SEV-1", "SEV 2")
    assert (a.label, b.label) == ("SEV-1", "SEV-2")
    assert b.detail == "Critical system issue actively impacting many customers' ability to use the product."


def test_two_items_of_a_labelled_list():
    # ops-lullabot, communications/data_classification.md lines 7-10
    doc = "communications/data_classification.md"
    bullets = Hit("l", doc, "Types of Data",
                  "* **Personal Information**: Privacy laws typically protect personal information, and include Protected Health Information (PHI) Personally Identifiable Information (PII).\n"
                  "* **Confidential Information**: Information that if disclosed, could cause financial loss, damage our reputation, or violate legal obligations.\n"
                  "* **Non-Public Information**: Information that is limited to Lullabot and our clients, but where disclosure is unlikely to lead to direct harm.\n"
                  "* **Public Information**: Includes our website, content we make public, and information we obtain from public sources.",
                  7, 1.0, [])
    found = structures([bullets], "Data Classification")
    a, b = compared_items(found, "confidential information", "Public Information")
    assert a.label == "Confidential Information" and b.label == "Public Information"
    assert b.detail == "Includes our website, content we make public, and information we obtain from public sources."
    assert compared_items(found, "Public Information", "Secret Information") is None


# -- a phase word of the question prefers the steps of that phase ----------------------------------------

from threadgraph.bot import words  # noqa: E402


def test_phase_words_of_questions_and_headings():
    assert words.phases("what are their duties during the call?", "en") == {1}                     # pagerduty (Q18)
    assert words.phases("During an incident > Steps for Scribe", "en") == {1}                       # pagerduty heading
    assert words.phases("After an incident > Follow-up Actions for Response Roles > Steps for Scribe", "en") == {2}
    assert words.phases("After the incident", "en") == {2}                                          # ops-2i2c-compass heading
    assert words.phases("Support process during expected time off", "en") == {1}                    # ops-2i2c-compass heading
    assert words.phases("Before making a PR", "en") == {0}                                          # ops-2i2c-infra heading
    assert words.phases("Different roles > What are the responsibilities?", "en") == set()         # pagerduty
    assert words.phases("Populate CVE Details after Public Disclosure", "en") == {2}                 # ops-k8s-src heading
    assert words.phases("事故期间我该做什么？", "zh") == {1}


# -- end to end over the PagerDuty documents (real ingest, test model) -----------------------------------

import pytest  # noqa: E402

from conftest import CORPORA, bot_over  # noqa: E402

PD = CORPORA / "pagerduty-incident-response" / "docs"


@pytest.fixture(scope="module")
def ask_pd(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("newcomer-pd"), {
        "resources/chatops.md": PD / "resources" / "chatops.md",
        "oncall/being_oncall.md": PD / "oncall" / "being_oncall.md",
        "after/after_an_incident.md": PD / "after" / "after_an_incident.md",
        "during/during_an_incident.md": PD / "during" / "during_an_incident.md",
        "before/different_roles.md": PD / "before" / "different_roles.md",
        "before/severity_levels.md": PD / "before" / "severity_levels.md",
        "training/customer_liaison.md": PD / "training" / "customer_liaison.md",
    })


def test_what_to_do_after_lists_the_roles(ask_pd):
    a = ask_pd("What should I do after an incident is resolved?", thread="q20")
    assert a.found and a.answer.startswith("It depends on your role")
    assert "- Incident Commander: Update the incident in PagerDuty." in a.answer
    assert "- Customer Liaison: Reply to any customer enquiries we received about the incident." in a.answer


def test_who_communicates_with_customers_names_the_role_first(ask_pd):
    a = ask_pd("Who is responsible for communicating with customers during an incident?", thread="q21")
    assert a.found and a.answer.startswith("The Customer Liaison:")


def test_difference_between_two_severity_levels(ask_pd):
    a = ask_pd("What's the difference between a SEV-1 and a SEV-2?", thread="q19")
    assert a.found and a.answer.splitlines()[0] == "SEV-1 vs SEV-2:"
    assert "- SEV-2: Critical system issue actively impacting many customers' ability to use the product." in a.answer


def test_duties_during_the_call_come_from_the_during_steps(ask_pd):
    a = ask_pd("What are the Scribe's duties during the call?", thread="q18")
    assert a.found and a.intent == "responsibility"
    assert "Start our status monitoring bot" in a.answer                       # during_an_incident.md, Steps for Scribe
    assert "Collect all `TODO` items" not in a.answer                          # after_an_incident.md, Steps for Scribe
    assert a.sources[0].doc.endswith("during/during_an_incident.md")


def test_how_verb_of_questions():
    assert words.how_verb("how do i page someone durign an incident lol") == "page"          # pagerduty (Q24)
    assert words.how_verb("How do I purge a single page from the Fastly cache?") == "purge"  # ops-govuk
    assert words.how_verb("How do I escalate a page in PagerDuty?") == "escalate"            # ops-k8s-src
    assert words.how_verb("How can I find the NFS server IP without the cloud console?") == ""  # ops-2i2c-infra: "find" says nothing
    assert words.how_verb("What should I do after an incident is resolved?") == ""


def test_how_do_i_page_reads_the_section_titled_with_the_verb(ask_pd):
    # without the heading order the search's first passage here is "Etiquette" (being_oncall.md)
    a = ask_pd("How do I page someone in Slack?", thread="q24")
    assert a.found
    assert a.passages[0].section.split(" > ")[-1].startswith("!ic page")                   # resources/chatops.md
    assert "page a specific person" in a.answer
