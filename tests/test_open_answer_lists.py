"""Open answers read from passages (issue 11): hard-wrapped Markdown lines read as one sentence,
list questions answered with the list a sentence introduces, the headings over a procedure, a
numbered step title kept with its paragraph, and ties between sentences broken by rarer terms.
Passages are copied line ranges of dev-corpus documents; expected values are literals of them:

* ops-govuk manual/pagerduty.html.md:10-16 "We use [PagerDuty](…)" / "to escalate to these
  people (in order):" / "1. Primary Engineer" (hard-wrapped, then a numbered list)
* ops-govuk manual/fall-back-to-aws-cloudfront.html.md:28-34 the "Initial steps" of the
  "Fail over checklist" (the "Note: …" at 18-20 is the parent section's text)
* ops-2i2c-infra howto/upgrade-cluster/k8s-version/aws.md:164-171 "2. *Optionally taint and
  wait*" over "If you aren't going to forcefully drain …, you have" / "to wait …"
* ops-2i2c-compass services/interactive-computing/incidents/process.md:102-105 "follow these
  steps:" / "1. **Confirm with them** …"
* ops-k8s-src security-release-process.md:64-68 "The final selection is made by discussion &
  lazy consensus, with a fallback to a vote."
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import E5_PATH, GEN, REPO, doc_lines, quoted

PAGERDUTY = GEN / "ops-govuk/docs/manual/pagerduty.html.md"
ONCALL = GEN / "ops-govuk/docs/manual/on-call.html.md"
CDN = GEN / "ops-govuk/docs/manual/fall-back-to-aws-cloudfront.html.md"
AWS = GEN / "ops-2i2c-infra/docs/howto/upgrade-cluster/k8s-version/aws.md"
HANDOFF = GEN / "ops-2i2c-compass/docs/services/interactive-computing/incidents/process.md"
SRC = GEN / "ops-k8s-src/docs/security-release-process.md"
needs_e5 = pytest.mark.skipif(not (E5_PATH / "model.onnx").exists(), reason="multilingual-e5-small-int8 not beside the checkout")




def _chunk(path: Path, quote: str):
    """The chunk of ``path`` (parsed and chunked by the real ingest) holding ``quote``, as a Passage."""
    from threadgraph.bot.answer import Passage
    from threadgraph.ingest.chunks import make_chunks
    from threadgraph.ingest.readers import parse_file

    c = next(c for c in make_chunks(parse_file(path)) if quote in c.text)
    return Passage(id=str(c.line), doc=path.name, section=c.section, text=c.text, line=c.line)


def _p(pid: str, section: str, text: str):
    from threadgraph.bot.answer import Passage

    return Passage(id=pid, doc=pid, section=section, text=text)


# -- hard-wrapped lines ------------------------------------------------------------------------

def test_a_hard_wrapped_sentence_is_one_sentence_and_list_items_stay_apart():
    from threadgraph.bot.compose import sentences_of

    s = sentences_of(doc_lines(PAGERDUTY, 10, 16))
    assert s[1].startswith(quoted(PAGERDUTY, 11, "We use [PagerDuty]"))
    assert s[1].endswith(" " + quoted(PAGERDUTY, 12, "to escalate to these people (in order):"))
    assert s[2:5] == [quoted(PAGERDUTY, 14, "1. Primary Engineer"), quoted(PAGERDUTY, 15, "2. Secondary Engineer"),
                      quoted(PAGERDUTY, 16, "3. GOV.UK Senior Management Team member (might not be technical)")]
    s = sentences_of(doc_lines(AWS, 164, 171))
    assert s[0] == quoted(AWS, 164, "2. *Optionally taint and wait*")
    assert s[1] == (quoted(AWS, 166, "If you aren't going to forcefully drain the old node group's nodes, you have") + " "
                    + quoted(AWS, 167, "to wait for the nodes to empty out before deleting the old node group."))
    # a numbered item's wrapped continuation stays on the item; the sub-items stay apart
    s = sentences_of(doc_lines(CDN, 28, 34))
    assert s[0].endswith(quoted(CDN, 29, "and keep an eye on X/Bluesky/Mastodon - if there's a major Fastly outage there will be a lot of noise)"))
    assert s[0].startswith("1. Confirm that Fastly is the cause of the incident")
    assert s[1] == quoted(CDN, 30, "2. Escalate to GOV.UK SMT as soon as you begin to consider failing over")


def test_short_lines_and_block_lines_are_not_joined():
    from threadgraph.bot.compose import unwrap_lines

    # short lines, the next one capitalised (a heading-like line over its paragraph)
    assert unwrap_lines("#### Member selection\n\n" + doc_lines(SRC, 66, 68))[:2] == [
        "#### Member selection", ""]
    # a line ending a sentence is not continued by the next one
    text = doc_lines(SRC, 68, 68) + "\n" + doc_lines(SRC, 70, 70)
    assert len(unwrap_lines(text)) == 2
    assert unwrap_lines(text)[0] == quoted(SRC, 68, "The final selection is made by discussion & lazy consensus, with a fallback to a vote.")


# -- list questions --------------------------------------------------------------------------

@pytest.mark.parametrize("q, want", [
    ("In what order does PagerDuty escalate an urgent alert?", True),            # ops-govuk
    ("What are the initial steps of the CDN fail over checklist?", True),         # ops-govuk
    ("What are the steps to hand off incident command?", True),                   # ops-k8s-src
    ("What are the general steps when an alert fires?", True),                    # ops-2i2c-infra
    ("Can an SRC member who steps down nominate someone to replace them?", False),  # ops-k8s-src
    ("In the device checklist, is backup versioning required?", False),           # ops-lullabot
    ("Can my team use something other than Dependabot for dependency updates?", False),  # ops-gdsway
    ("做宫保鸡丁的步骤是什么？", True),
    ("宫保鸡丁要放多少盐？", False),
])
def test_list_question_cue(q, want):
    from threadgraph.bot.words import asks_list

    assert asks_list(q) is want


def test_with_list_reads_an_introducing_sentence_with_its_items():
    from threadgraph.bot.compose import sentences_of
    from threadgraph.bot.sentences import with_list

    s = sentences_of(doc_lines(HANDOFF, 102, 105))
    assert with_list(s, 0).startswith(quoted(HANDOFF, 102, "To designate another team member as the Incident Responder, follow these steps:"))
    assert quoted(HANDOFF, 104, "1. **Confirm with them**") in with_list(s, 0)
    assert quoted(HANDOFF, 105, "2. **Reassign the incident on PagerDuty**") in with_list(s, 0)
    s = sentences_of(doc_lines(PAGERDUTY, 10, 16))
    assert with_list(s, 1).endswith(quoted(PAGERDUTY, 16, "3. GOV.UK Senior Management Team member (might not be technical)"))
    assert with_list(s, 0) == s[0]  # not introducing a list: the sentence alone


@needs_e5
def test_an_order_question_leads_with_the_list_it_asks_for(e5):
    from threadgraph.bot.compose import passages_text
    from threadgraph.bot.sentences import lead_sentence

    q = "In what order does PagerDuty escalate an urgent alert?"
    # the passages the search returns first for it (ops-govuk)
    ps = [_chunk(PAGERDUTY, "to escalate to these people (in order):"),
          _chunk(PAGERDUTY, quoted(PAGERDUTY, 45, "We test PagerDuty weekly to make sure it can alert us.")),
          _chunk(ONCALL, quoted(ONCALL, 154, "acknowledge the alert in"))]
    ranked = lead_sentence(ps, q, e5.embed_query(q), e5)
    text = passages_text("en", ps, question=q, ranked=ranked or None)
    assert text.startswith("We use PagerDuty " + quoted(PAGERDUTY, 12, "to escalate to these people (in order):")), text
    assert ("\n" + quoted(PAGERDUTY, 14, "1. Primary Engineer") + "\n" + quoted(PAGERDUTY, 15, "2. Secondary Engineer")) in text


@needs_e5
def test_a_steps_question_reads_the_heading_over_the_procedure(e5):
    """The passages in the order a steps answer gets them (step sections first): the numbered
    steps under "Initial steps" hold none of the question's words, the parent section's note
    holds "CDN failover"; read under their heading, the steps keep the lead."""
    from threadgraph.bot.compose import passages_text
    from threadgraph.bot.sentences import lead_sentence

    q = "What are the initial steps of the CDN fail over checklist?"
    ps = [_chunk(CDN, "Confirm that Fastly is the cause"), _chunk(CDN, "Note: The last time we needed to initiate a CDN failover"),
          _chunk(CDN, quoted(CDN, 162, "Once you've failed over, keep a close eye on Fastly's status"))]
    assert ps[0].section == "Fail over checklist > " + quoted(CDN, 26, "### Initial steps")[4:]
    v = e5.embed_query(q)
    ranked = lead_sentence(ps, q, v, e5)
    assert not ranked or ranked[0][0] == 0, ranked
    text = passages_text("en", ps, question=q, ranked=ranked or None)
    assert text.startswith("1. Confirm that Fastly is the cause of the incident"), text
    assert "4. Sign in to the govuk-production project on " + quoted(CDN, 34, "GCP console") in text.split("\n\n")[0]
    # without the headings (not a list question) the note leads
    assert lead_sentence(ps, q, v, e5, wants_list=False)[0][0] == 1


# -- step titles and ties ----------------------------------------------------------------------

def test_an_excerpt_keeps_the_numbered_step_title_over_its_paragraph():
    from threadgraph.bot.compose import excerpt, sentences_of

    text = doc_lines(AWS, 164, 171)
    s = sentences_of(text)
    assert s[1].startswith("If you aren't going to forcefully drain")
    assert excerpt(text, "", 320, start=1).startswith(quoted(AWS, 164, "2. *Optionally taint and wait*"))
    # a title ending a sentence ("… as follows:") is not a step title: the excerpt starts where asked
    s = sentences_of(doc_lines(HANDOFF, 102, 105))
    assert excerpt(doc_lines(HANDOFF, 102, 105), "", 320, start=1).startswith("1. **Confirm with them**")
    assert s[0].endswith(":")


def test_equal_term_counts_go_to_the_sentence_with_rarer_terms():
    from threadgraph.bot.compose import best_sentence, excerpt, sentences_of

    q = "How are new SRC members selected if there is no consensus?"
    text = doc_lines(SRC, 64, 70)
    s = sentences_of(text)
    assert best_sentence(s, q)[0] == 1  # the first of equals, as the lead choice compares
    i, score = best_sentence(s, q, rare_ties=True)
    assert s[i] == quoted(SRC, 68, "The final selection is made by discussion & lazy consensus, with a fallback to a vote.")
    assert excerpt(text, q, 200, rare_ties=True).startswith("The final selection is made")
    assert excerpt(text, q, 200).startswith("Steering is encouraged")  # the lead excerpt keeps the first of equals
    # ops-govuk: "escalate" and "order" are in one sentence, "alert" in two
    s = sentences_of(doc_lines(PAGERDUTY, 10, 21))
    i, _ = best_sentence(s, "In what order does PagerDuty escalate an urgent alert?", rare_ties=True)
    assert s[i].endswith("to escalate to these people (in order):")


# -- list items and absent names ----------------------------------------------------------------

TOOLS = GEN / "ops-2i2c-infra/docs/reference/tools.md"
ONCALL_SWAP = 77  # ops-govuk on-call.html.md: "- If you need cover for a day or two, … Please ensure delivery managers …"


def test_an_excerpt_starting_inside_a_list_item_starts_at_the_item():
    from threadgraph.bot.compose import excerpt, sentences_of

    text = doc_lines(TOOLS, 26, 29)
    s = sentences_of(text)
    i = next(k for k, x in enumerate(s) if x.startswith(quoted(TOOLS, 28, "Highly recommended as a supplement")))
    assert excerpt(text, "", 320, start=i).startswith(quoted(TOOLS, 26, "- [Lens](https://k8slens.dev/) is an amazing GUI"))
    text = doc_lines(ONCALL, ONCALL_SWAP, ONCALL_SWAP + 1)
    s = sentences_of(text)
    assert s[1] == quoted(ONCALL, ONCALL_SWAP, "Please ensure delivery managers are aware of this.")
    assert excerpt(text, "", 320, start=1).startswith(quoted(ONCALL, ONCALL_SWAP, "- If you need cover for a day or two"))


PB = GEN / "en-wbushey/docs/recipes/sweets/chocolate-pb-cookies.md"


def test_a_long_list_item_is_not_stepped_back_over():
    """en-wbushey: step 1 is one long line; its note on natural peanut butter is its own answer."""
    from threadgraph.bot.compose import excerpt

    text = doc_lines(PB, 15, 15)
    q = "pb cookies w/ natural peanut butter?? will they turn out"
    out = excerpt(text, q, 320, start=2, at_least=2)  # as the lead excerpt of an open answer
    assert out.startswith(quoted(PB, 15, "Note regarding peanut butter - although natural peanut butter"))
    assert quoted(PB, 15, "Using natural or homemade peanut butter tends to result in thinner, flatter cookies") in out


class _NoPassages:
    """A KB whose full-text search finds the name in no passage (what absent_names asks it)."""

    class vectors:
        searched: list[str] = []

        @classmethod
        def search(cls, text, vector=None, *, limit=8, mode="hybrid"):
            cls.searched.append(text)
            return []


@pytest.mark.parametrize("q, want", [
    # ops-gdsway: "Besides" is capitalised only because it starts the question
    ("Besides Route 53, what do some services use to dual-host their DNS?", ["Route", "DNS"]),
    # ops-k8s-src: the name after the sentence-initial word is still checked
    ("Which Jira project tracks security disclosures?", ["Jira"]),
    # ops-govuk
    ("If Slack has an outage, what do we use instead?", ["Slack"]),
    # ops-gdsway: mid-sentence names unchanged
    ("Can we use Datadog instead of Prometheus?", ["Datadog", "Prometheus"]),
])
def test_absent_names_skip_a_sentence_initial_capital(q, want):
    from threadgraph.bot.evidence import absent_names

    assert absent_names(q, _NoPassages, []) == want


KUNGPAO = REPO / "corpora/howtocook/dishes/meat_dish/宫保鸡丁/宫保鸡丁.md"


def test_a_list_item_of_several_sentences_stays_on_its_line():
    """A line break starts each item and follows an item's last sentence, never one inside it:
    HowToCook's step "3. …肉丁；泡于清水 10 分钟…" is one item of two sentences (split at "；"),
    and ops-govuk's paragraph after its numbered list starts a new line."""
    from threadgraph.bot.compose import excerpt

    steps = doc_lines(KUNGPAO, 82, 83)
    text = excerpt(steps, limit=400)
    assert text.split("\n") == [
        quoted(KUNGPAO, 82, "3. 手枪腿用剪刀去骨，鸡肉面用刀背拍打一遍，切条后切至 1.5cm 见方肉丁；")
        + quoted(KUNGPAO, 82, "泡于清水 10 分钟，捞出控干备用（若是鸡胸脯肉，则可以直接进行切丁以及之后的动作）；"),
        quoted(KUNGPAO, 83, "4. 取大葱葱绿与姜片 5g 于碗中，倒入 50g 开水备用；") + quoted(KUNGPAO, 83, "葱白切 1.5cm 圆粒备用"),
    ]
    after = excerpt(doc_lines(PAGERDUTY, 16, 19), limit=400)
    assert after.split("\n") == [
        quoted(PAGERDUTY, 16, "3. GOV.UK Senior Management Team member (might not be technical)"),
        quoted(PAGERDUTY, 18, "It's the responsibility of the people above to make sure their details are up to date in PagerDuty")
        + " " + quoted(PAGERDUTY, 19, "and that they're correctly scheduled in.")
        + " " + quoted(PAGERDUTY, 19, "You can [add your rota to Google calendar](#add-your-pagerduty-rota-to-google-calendar)."),
    ], after
