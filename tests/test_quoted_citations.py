"""A citation holds what the answer quotes (issue 11, newcomer 3 Q19): when the answer text
quotes lines of some passages, those passages are cited at the quoted line (a second quoted
section of the same document too), and a passage the answer does not quote is not cited.
Passages are the real ingest chunks of bundled and dev-corpus documents; expected lines are the
literal line numbers of the quoted text in the source files:

* PagerDuty docs/oncall/being_oncall.md:33 "Involve other team members as necessary: …" and :69
  "We recommend you set your escalation timeout to 5 minutes. …" (section "Recommendations");
  docs/training/subject_matter_expert.md:24 "Have your laptop and Internet with you …" (not quoted)
* ops-govuk manual/pagerduty.html.md:21 "When an alert that triggers PagerDuty goes off, …" and :26
  "It’s your responsibility to ensure you can receive calls from Pagerduty while on-call, …"
"""

from __future__ import annotations

from pathlib import Path

from conftest import GEN, REPO, doc_lines

PD = REPO / "corpora/pagerduty-incident-response/docs"
ONCALL = PD / "oncall/being_oncall.md"
SME = PD / "training/subject_matter_expert.md"
GOVUK_PD = GEN / "ops-govuk/docs/manual/pagerduty.html.md"


def _chunk(path: Path, quote: str):
    """The chunk of ``path`` (parsed and chunked by the real ingest) holding ``quote``, as a Passage."""
    from threadgraph.bot.answer import Passage
    from threadgraph.ingest.chunks import make_chunks
    from threadgraph.ingest.readers import parse_file

    c = next(c for c in make_chunks(parse_file(path)) if quote in c.text)
    return Passage(id=f"{path.name}:{c.line}", doc=str(path.relative_to(path.parents[2])), section=c.section,
                   text=c.text, line=c.line)


def _cite(passages, answer):
    from threadgraph.bot.citations import citations
    from threadgraph.settings import Settings

    return [(c.section, c.line) for c in citations(None, Settings(_env_file=None), [], passages, answer=answer)]


def test_quoted_lines_are_cited_where_they_are_and_unquoted_passages_are_not():
    assert "Involve other team members as necessary" in doc_lines(ONCALL, 33, 33)
    assert "escalation timeout to 5 minutes" in doc_lines(ONCALL, 69, 69)
    fix = _chunk(ONCALL, "Involve other team members as necessary")
    rec = _chunk(ONCALL, "escalation timeout to 5 minutes")
    sme = _chunk(SME, "Have your laptop and Internet with you")
    answer = ("- Involve other team members as necessary: Do not hesitate to escalate if you cannot figure out "
              "the cause within a reasonable timeframe, or if the service / alert is something you have not "
              "tackled before.\n\nSee also “Recommendations”: - We recommend you set your escalation timeout "
              "to 5 minutes. This should be plenty of time for someone to acknowledge the incident if they're "
              "able to.")
    assert _cite([fix, rec, sme], answer) == [(fix.section, 33), ("Recommendations", 69)]


def test_ops_govuk_two_sections_of_one_document_quoted():
    assert "When an alert that triggers PagerDuty goes off" in doc_lines(GOVUK_PD, 21, 21)
    assert "receive calls from Pagerduty while on-call" in doc_lines(GOVUK_PD, 26, 26)
    top = _chunk(GOVUK_PD, "When an alert that triggers PagerDuty goes off")
    setup = _chunk(GOVUK_PD, "receive calls from Pagerduty while on-call")
    answer = ("When an alert that triggers PagerDuty goes off, someone on the escalation schedule must "
              "acknowledge it, otherwise it will be escalated further.\n\nSee also: It’s your responsibility "
              "to ensure you can receive calls from Pagerduty while on-call.")
    assert _cite([top, setup], answer) == [(top.section, 21), (setup.section, 26)]


def test_an_answer_quoting_no_passage_cites_one_place_per_document():
    top = _chunk(GOVUK_PD, "When an alert that triggers PagerDuty goes off")
    setup = _chunk(GOVUK_PD, "receive calls from Pagerduty while on-call")
    sme = _chunk(SME, "Have your laptop and Internet with you")
    assert _cite([top, setup, sme], "Someone else must answer.") == [(top.section, top.line), (sme.section, sme.line)]
