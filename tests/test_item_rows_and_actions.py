"""Handbook "what do I do when X" questions the newcomer got nearby passages for (issue 11):
a question naming one item of a table by its label ("a SEV-1", "a P2") is answered with the row
that label heads, each cell under its column header; "what about a SEV-3?" asks the previous
question about the other label; "the steps to hand off the <role> role" are read from the section
whose heading names that action (hand off ~ handover ~ transfer), not from the role's checklists.
Lines quoted from the PagerDuty corpus and from dev ops corpora (ops-moj-platform, ops-jupiterone,
ops-k8s-src, ops-2i2c-compass); the cues are data (bot/lexicon/words.yaml: action_synonyms)."""

from __future__ import annotations

import pytest

from conftest import CORPORA, GEN, bot_over, quoted
from threadgraph.bot import words
from threadgraph.bot.antecedent import swap_label
from threadgraph.bot.evidence import LABEL, headed_by, identifiers
from threadgraph.bot.intents.steps import names_action
from threadgraph.bot.passages import item_row, row_text
from threadgraph.knowledge.vectors import Hit

PD = CORPORA / "pagerduty-incident-response" / "docs"
SEV = PD / "before" / "severity_levels.md"
MOJ = GEN / "ops-moj-platform" / "docs" / "runbooks" / "manage-an-incident.html.md"
J1 = GEN / "ops-jupiterone" / "docs" / "templates" / "procedures" / "cp-vuln-remediation.md"
#: during/during_an_incident.md: the first step of the Scribe's checklist
LINE_SCRIBE = 85
SRC = GEN / "ops-k8s-src" / "docs" / "src-oncall.md"
I2C = GEN / "ops-2i2c-compass" / "docs" / "services" / "interactive-computing" / "incidents" / "process.md"


# -- an item's label heads its row --------------------------------------------------------------------

def test_labels_of_items():
    assert identifiers("What should I do when a SEV-1 incident is declared?", LABEL) == ["SEV-1"]
    assert identifiers("What about a P2?", LABEL) == ["P2"]
    assert identifiers("What's the difference between SEV-2 and SEV-3?", LABEL) == ["SEV-2", "SEV-3"]
    assert identifiers("db is down what do i do first", LABEL) == []


def test_a_label_heads_a_row_or_an_item_not_a_sentence_mentioning_it():
    # pagerduty before/severity_levels.md line 23 (the chunker writes a table row "cell | cell")
    assert headed_by("SEV-1", "SEV-1 | " + quoted(SEV, 25, "Critical issue that warrants public notification"))
    # pagerduty line 5: a sentence that mentions SEV-3 is not about it
    assert not headed_by("SEV-3", quoted(SEV, 5, "Anything above a SEV-3 is automatically considered"))
    # ops-moj-platform runbooks/manage-an-incident.html.md line 106
    assert headed_by("P2", "P2 | " + quoted(MOJ, 106, "Part of the platform is down or unavailable, some user applications"))
    # a longer label is another item
    assert not headed_by("P1", "P10 | " + quoted(MOJ, 106, "Part of the platform is down"))
    assert not headed_by("SEV-1", "SEV-1a | something")


def test_a_label_heads_a_row_inside_a_chunk_of_rows():
    # ops-jupiterone cp-vuln-remediation.md lines 36-37: two rows the chunker keeps in one chunk
    text = ("P2 | Medium | 30 days | " + quoted(J1, 36, "Vulnerabilities that affect multiple users") + "\n"
            "P3 | Low | Best Effort | " + quoted(J1, 37, "Issues that affect singular users"))
    assert headed_by("P3", text) and headed_by("p2", text)
    assert not headed_by("P1", text)


def _rows(path, first, last, doc):
    """Chunks as the ingest writes a markdown table: one "cell | cell" line per row, no rule row."""
    lines = path.read_text(encoding="utf-8").splitlines()[first - 1:last]
    text = "\n".join(" | ".join(c.strip() for c in ln.strip().strip("|").split("|")) for ln in lines
                     if not set(ln.replace("|", "").strip()) <= set("-: "))
    return [Hit("h", doc, "", text, first, 1.0, [])]


def test_the_row_of_a_label_is_read_with_its_column_headers():
    # ops-jupiterone templates/procedures/cp-vuln-remediation.md lines 32-37
    row = item_row(_rows(J1, 32, 37, "j1"), "p1")
    assert row is not None and row.label == "P1"
    assert ("SLA", quoted(J1, 35, "7 days")) in row.cells
    assert ("Priority Level", quoted(J1, 35, "High")) in row.cells
    # ops-moj-platform lines 103-107: header cells in bold
    row = item_row(_rows(MOJ, 103, 107, "moj"), "P3")
    assert row is not None
    assert row.cells == [("Description", quoted(MOJ, 107, "Part of the platform is down or unavailable, user applications are still available"))]
    assert row_text("en", row).splitlines()[0] == "P3:"
    assert item_row(_rows(MOJ, 103, 107, "moj"), "P4") is None


# -- "what about a SEV-3?" asks the previous question about the other label ------------------------------

def test_a_follow_up_label_replaces_the_previous_one_of_its_kind():
    assert swap_label("What should I do when a SEV-1 incident is declared?", "a SEV-3") == \
        "What should I do when a SEV-3 incident is declared?"
    assert swap_label("Which priority is an incident where the whole platform is down, P1?", "P2") == \
        "Which priority is an incident where the whole platform is down, P2?"
    # another kind of label, or no label at all: the previous question stays as it was
    assert swap_label("What should I do when a SEV-1 incident is declared?", "P2") == \
        "What should I do when a SEV-1 incident is declared?"
    assert swap_label("What should I do when a SEV-1 incident is declared?", "the scribe") == \
        "What should I do when a SEV-1 incident is declared?"


# -- an action named in other words than its heading ---------------------------------------------------------

def test_hand_off_names_the_handover_and_transfer_headings():
    names = words.action_names("hand off the incident commander role")
    assert "transfer" in names and "hand over" in names
    # pagerduty training/incident_commander.md line 223, training/courses/incident_response.md line 839
    assert names_action(names, quoted(PD / "training" / "incident_commander.md", 223, "Transfer of Command"))
    assert names_action(names, quoted(PD / "training" / "courses" / "incident_response.md", 839, "Handover"))
    # ops-k8s-src src-oncall.md line 169
    assert names_action(names, quoted(SRC, 169, "Handoff"))
    # ops-moj-platform line 195; ops-2i2c-compass incidents/process.md line 96
    assert names_action(names, quoted(MOJ, 195, "Transferring roles"))
    assert names_action(names, quoted(I2C, 96, "Handing off Incident Responder status"))
    # "hand" alone is no action: "Handling Incidents" (pagerduty incident_commander.md line 61) is not it
    assert not names_action(names, quoted(PD / "training" / "incident_commander.md", 61, "Handling Incidents"))


def test_an_action_in_no_group_is_its_own_verb():
    names = words.action_names("escalate an incident to the incident commander")
    assert names == ("escalate",)
    assert names_action(names, "Escalation")
    assert not names_action(names, "Handling Incidents")


# -- through the real core ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("item-rows"), {
        "pd/before/severity_levels.md": SEV,
        "pd/resources/anti_patterns.md": PD / "resources" / "anti_patterns.md",
        "pd/training/incident_commander.md": PD / "training" / "incident_commander.md",
        "pd/during/during_an_incident.md": PD / "during" / "during_an_incident.md",
        "pd/before/different_roles.md": PD / "before" / "different_roles.md",
        "moj/manage-an-incident.html.md": MOJ,
    })


def test_what_to_do_for_a_level_is_its_row(ask):
    a = ask("What should I do when a SEV-1 incident is declared?", thread="sev")
    assert a.found and a.passages[0].doc.endswith("severity_levels.md")
    assert "Typical Response: " + quoted(SEV, 33, "Major incident response.") in a.answer
    assert quoted(SEV, 37, "Notify internal stakeholders.") in a.answer
    b = ask("What about a SEV-3?", thread="sev")
    assert b.found and "Typical Response: " + quoted(SEV, 75, "High-Urgency page to service team.") in b.answer
    assert quoted(SEV, 79, "If related to recent deployment, rollback.") in b.answer


def test_a_priority_label_of_another_handbook_is_its_row(ask):
    a = ask("What is a P2 incident?", thread="moj")
    assert a.found and a.passages[0].doc.endswith("manage-an-incident.html.md")
    assert quoted(MOJ, 106, "Part of the platform is down or unavailable, some user applications are impacted") in a.answer


def test_steps_to_hand_off_a_role_are_its_transfer_section(ask):
    a = ask("What are the steps to hand off the incident commander role?", thread="ic")
    assert a.found and a.intent == "steps"
    assert a.answer.startswith("Transfer of Command")
    assert quoted(PD / "training" / "incident_commander.md", 231, "notify the other IC that you wish to transfer command") in a.answer


def test_steps_for_a_role_during_a_phase_stay_its_checklist(ask):
    # "during an incident" is a phase, not an action: the Scribe's checklist answers (bundled eval
    # case en-steps-during-incident)
    a = ask("What are the steps for the Scribe during an incident?", thread="scribe")
    assert a.found and a.intent == "steps"
    assert quoted(PD / "during" / "during_an_incident.md", LINE_SCRIBE, "Update the Slack room") in a.answer
