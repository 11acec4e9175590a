"""Who acts when a person cannot (``en.if_x_unable_y`` of knowledge/lexicon/cues.yaml, kept by ingest only
when every side names a person by its words: ``people_cue_rules_strict`` of ingest/lexicon/roles.yaml), what two
people joined by "or" are not (a choice of who does a duty, no stand-in), and the optional parts of a section
whose heading says so. Real lines of ops-jupiterone, ops-lullabot, ops-moj-platform and the bundled PagerDuty
corpus; expected names are copied from the text."""
from __future__ import annotations

from pathlib import Path

from conftest import doc_lines, optional_parts_of
from threadgraph.ingest.documents import people_sides
from threadgraph.knowledge import cues
from threadgraph.knowledge.text import DictLinker

GEN = Path(__file__).resolve().parent.parent / "benchmarks" / "generalization"
JUPITERONE = GEN / "ops-jupiterone" / "docs" / "templates" / "procedures"
PAGERDUTY = next(p for p in (Path(__file__).resolve().parent.parent / "corpora").iterdir() if p.name.startswith("pagerduty"))


def _extract(tmp_path, name: str, text: str):
    from threadgraph.ingest.documents import DocumentExtractor
    from threadgraph.ingest.readers import parse_file

    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    res = DocumentExtractor(None).extract(parse_file(p, name))
    return {(t.subject.split(":", 1)[1], t.object.split(":", 1)[1]) for t in res.triples if t.relation == "SUBSTITUTES"}


def test_two_people_who_do_a_duty_are_no_stand_ins(tmp_path):
    """"X or Y does it" names who may do a duty, one or the other: a choice, not one standing in for the
    other. A rule reading it as a stand-in gained nothing on held-out handbooks and made mostly wrong edges
    on unseen ones (session 26), so these lines give no stand-in."""
    # ops-jupiterone cp-bcdr-test.md line 3
    line = doc_lines(JUPITERONE / "cp-bcdr-test.md", 3, 4)
    assert line.startswith("The COO and/or Head of Engineering shall establish")
    got = _extract(tmp_path, "bcdr-test.md", "# Testing\n\n" + line + "\n")
    assert ("COO", "Head of Engineering") not in got
    # PagerDuty training/subject_matter_expert.md line 42
    line = doc_lines(PAGERDUTY / "docs" / "training" / "subject_matter_expert.md", 42, 42)
    assert "managers or team leads will have the final say" in line
    got = _extract(tmp_path, "sme.md", "# Subject matter expert\n\n" + line + "\n")
    assert ("managers", "team leads") not in got and ("managers", "Crisis Team Leader") not in got
    # ops-lullabot communications/email_groups.md line 10 (a list item)
    line = doc_lines(GEN / "ops-lullabot" / "docs" / "communications" / "email_groups.md", 10, 10).lstrip("- ")
    assert line.startswith("Project or account managers will notify administrative staff")
    assert _extract(tmp_path, "groups.md", "# Email groups\n\n" + line + "\n") == set()


def test_people_sides_need_person_words():
    roles: DictLinker[str] = DictLinker()
    assert people_sides("Security", ["DevOps team"], roles) == ("Security team", ["DevOps team"])
    assert people_sides("COO", ["Head of Engineering"], roles) == ("COO", ["Head of Engineering"])
    assert people_sides("approval of account owners", ["manager"], roles) == ("account owners", ["manager"])
    assert people_sides("Slack", ["GitHub"], roles) is None  # capitals alone name no person
    assert people_sides("Slack", ["Microsoft Teams"], roles) is None  # a product's name shares no head
    assert people_sides("AWS", ["GCP"], roles) is None  # two abbreviations: no person word on either side
    assert people_sides("single person", ["group of people"], roles) is None  # too vague to act for anyone


def test_rows_and_bullets_of_an_optional_section(tmp_path):
    # ops-moj-platform runbooks/duty-rota.html.md lines 34-53: the rows under "### Optional tasks" are optional,
    # those under "### Core responsibilities" are not
    text = doc_lines(GEN / "ops-moj-platform" / "docs" / "runbooks" / "duty-rota.html.md", 30, 53)
    got = optional_parts_of(tmp_path, "duty-rota.md", "# Duty rota\n\n## Responsibilities\n\n" + text + "\n")
    assert {"Review dependabot PRs", "Review team PRs", "Address hard-coded account IDs",
            "Update documentation flagged by Daniel the Spaniel"} <= got
    assert "Review AWS Health issues" not in got and "Activity" not in got
    # a README's "Optional dependencies" section (bullets), beside numbered steps of an optional procedure,
    # which stay steps of their section
    got = optional_parts_of(tmp_path, "readme.md", "# Tool\n\n## Install\n\n### Optional dependencies\n\n"
                          "- `pyarrow` for Parquet files\n- `lxml` for faster HTML parsing\n\n"
                          "### Build the docs (optional)\n\n1. Install Sphinx.\n2. Run make html.\n")
    assert {"pyarrow for Parquet files", "lxml for faster HTML parsing"} <= got
    assert not any("Sphinx" in g or "make html" in g for g in got)


def test_person_unable_to_act_and_who_acts_then(tmp_path):
    r = "en.if_x_unable_y"
    # ops-jupiterone cp-bcdr.md lines 59-62: each X of the "or", even where the sentence speaks of delegating
    text = " ".join(doc_lines(JUPITERONE / "cp-bcdr.md", 59, 62).split())
    sent = text[text.index("If the COO"):text.index("alternative delegate.") + len("alternative delegate.")]
    assert [(c.x, c.y) for c in cues.read(sent) if c.rule == r] == [("COO or Head of Engineering", "CEO")]
    got = _extract(tmp_path, "bcdr.md", "# Line of Succession\n\n" + doc_lines(JUPITERONE / "cp-bcdr.md", 57, 63) + "\n")
    assert {("COO", "CEO"), ("Head of Engineering", "CEO")} <= got
    # a public constitution's succession clause (quoted in a public Q&A test set)
    s = ("If the office of Prime Minister is then vacant or the Prime Minister is unable to act, the Speaker shall act "
         "in the office of President.")
    assert [(c.x, c.y) for c in cues.read(s) if c.rule == r] == [("Prime Minister", "Speaker")]
    # no person acts: nothing ("If the build is unable to continue, the pipeline will fail")
    assert [c for c in cues.read("If the build is unable to continue, the pipeline will fail.") if c.rule == r] == []


def test_role_described_from_passages_starts_at_the_asked_sentence():
    from types import SimpleNamespace

    from threadgraph.bot.intents.responsibility import responsibility_text

    # ops-jupiterone cp-bcdr.md lines 54-62: a role with no steps of its own is described from a passage; the
    # passage is shown from the sentence that names what was asked, not cut before it
    text = " ".join(doc_lines(JUPITERONE / "cp-bcdr.md", 54, 62).split())
    got = responsibility_text("en", "CEO", [], [SimpleNamespace(text=text)], "does the CEO have to do it personally?")
    assert "choose an alternative delegate" in got
    # without a question the passage is shown from its start, as before
    got = responsibility_text("en", "CEO", [], [SimpleNamespace(text=text)])
    assert got.split("\n")[1].startswith("- " + text[:40])


def test_a_bare_person_word_shares_no_head():
    roles: DictLinker[str] = DictLinker()
    # ops-lullabot physical/malware.md line 24: "Employees or contractors will:" is not "Employees contractors"
    line = doc_lines(GEN / "ops-lullabot" / "docs" / "physical" / "malware.md", 24, 24)
    assert line.rstrip().endswith("Employees or contractors will:")
    assert people_sides("Employees", ["contractors"], roles) is None
    # ops-lullabot communications/email_groups.md line 10: "Project or account managers" shares "managers"
    assert people_sides("Project", ["account managers"], roles) == ("Project managers", ["account managers"])
