"""Open answers not cut before what they must say (issue 11, task opsans2). Three document-structure
mechanisms, each on real ingest chunks or copied line ranges of dev corpora; expected values are
literals of the source files:

* a numbered list that chunking cut goes on in the document's next chunk
  (:func:`threadgraph.bot.compose.list_continuation`): ops-gdsway
  standards/vulnerability-disclosure.html.md:39-44 "Try implementing in the following order …"
  "1. Server-side redirect …" | "2. Client-side HTML …"; ops-18f tools/virtual-desktop.md:44-47
  "You may be prompted with a Welcome to Citrix window. If so:" "1. Select `Detect Receiver`." |
  "1. When prompted to Open in Citrix Workspace Launcher click `Cancel`."; a bullet after a bullet
  is not continued: ops-jupiterone templates/procedures/cp-physical.md:13-23 (a nested list);
* the lead excerpt finishes the paragraph it stops inside
  (:func:`threadgraph.bot.compose.excerpt` ``whole_paragraph``): ops-18f
  general-information-and-resources/tech-policies/security-incidents.md:31-39 "If **_classified
  information_** …" … "you can phone the IR team …"; ops-gdsway standards/monitoring.html.md:20-22
  "We recommend using [Prometheus][] …" … "You may also consider using [CloudWatch Metrics][] …";
* a table row's cell naming another document by its title leads a what-to-do question to that
  document's first numbered procedure (:func:`threadgraph.bot.passages.titled_docs`,
  :func:`~threadgraph.bot.passages.first_steps`): PagerDuty docs/before/severity_levels.md:36
  "See <a …>During an Incident</a>." and docs/during/during_an_incident.md:31-40 "## Don't Panic!"
  "1. Join the incident call and chat (see links above)."; ops-lullabot
  appendix/iso-27001.md:40-44 "- [Lullabot VPN](../access/lullabot_vpn.md)" … naming
  "Hard Drive Encryption" and "Device Lock Screens".
"""

from __future__ import annotations

from conftest import GEN, REPO, doc_lines

PD = REPO / "corpora/pagerduty-incident-response/docs"
GDS = GEN / "ops-gdsway/docs"
F18 = GEN / "ops-18f/docs"
J1 = GEN / "ops-jupiterone/docs"
LB = GEN / "ops-lullabot/docs"


def _chunks(path):
    from threadgraph.ingest.chunks import make_chunks
    from threadgraph.ingest.readers import parse_file

    return make_chunks(parse_file(path))


def _cut_at(chunks, needle):
    """The chunk holding ``needle`` and the next one."""
    i = next(k for k, c in enumerate(chunks) if needle in c.text)
    return chunks[i], chunks[i + 1]


def test_gdsway_redirect_order_goes_on_in_the_next_chunk():
    from threadgraph.bot.compose import excerpt, list_continuation

    assert doc_lines(GDS / "standards/vulnerability-disclosure.html.md", 42, 43) == (
        "1. Server-side redirect (302 status and `Location` header in response)\n"
        "2. Client-side HTML (meta `http-equiv=refresh` tag in the head)")
    lead, nxt = _cut_at(_chunks(GDS / "standards/vulnerability-disclosure.html.md"), "Server-side redirect")
    assert lead.section == nxt.section
    shown = excerpt(lead.text, "In what order should I try to implement the security.txt redirect?", 320)
    assert "1. Server-side redirect" in shown
    more = list_continuation(shown, lead.text, nxt.text)
    assert more.splitlines()[0] == "2. Client-side HTML (meta http-equiv=refresh tag in the head)"
    assert "3. Client-side JavaScript redirect" in more
    assert "As well as" not in more  # the paragraph after the list is no item of it


def test_18f_citrix_steps_go_on_in_the_next_chunk():
    from threadgraph.bot.compose import list_continuation

    assert doc_lines(F18 / "tools/virtual-desktop.md", 44, 47) == (
        "You may be prompted with a Welcome to Citrix window. If so:\n\n"
        "1. Select `Detect Receiver`.\n"
        "1. When prompted to Open in Citrix Workspace Launcher click `Cancel`.")
    lead, nxt = _cut_at(_chunks(F18 / "tools/virtual-desktop.md"), "Detect Receiver")
    shown = "You may be prompted with a Welcome to Citrix window. If so:\n1. Select Detect Receiver."
    more = list_continuation(shown, lead.text, nxt.text)
    assert more.startswith("2. When prompted to Open in Citrix Workspace Launcher click Cancel.")
    # a next chunk whose first item is not the next number holds another list
    assert list_continuation(shown, lead.text, "\n".join(nxt.text.splitlines()[1:])) == ""
    # nor one that stops before the chunk's end
    assert list_continuation("You may be prompted with a Welcome to Citrix window.", lead.text, nxt.text) == ""


def test_a_bullet_after_a_bullet_is_not_continued():
    from threadgraph.bot.compose import list_continuation

    text = doc_lines(J1 / "templates/procedures/cp-physical.md", 13, 18)
    nxt = doc_lines(J1 / "templates/procedures/cp-physical.md", 20, 23)
    assert nxt.startswith("* Enforcement of Facility Access Policies")
    assert list_continuation(text, text, nxt) == ""


def test_18f_classified_paragraph_is_finished():
    from threadgraph.bot.compose import excerpt

    text = doc_lines(F18 / "general-information-and-resources/tech-policies/security-incidents.md", 31, 39)
    q = "I reported an incident involving classified information and nobody has acknowledged it. Now what?"
    cut = excerpt(text, q, 200, at_least=2)
    assert "you can phone the IR team" not in cut
    whole = excerpt(text, q, 200, at_least=2, whole_paragraph=True)
    assert whole.startswith("If **_classified information_** is part of the incident")
    assert "you can phone the IR team via the numbers listed in Section 3.1.1" in whole
    assert not whole.startswith("Potentially sensitive data")  # the paragraph before stays out


def test_gdsway_metrics_paragraph_is_finished():
    from threadgraph.bot.compose import excerpt

    text = doc_lines(GDS / "standards/monitoring.html.md", 18, 22)
    q = "What do you recommend to gather metrics?"
    whole = excerpt(text, q, 120, start=3, whole_paragraph=True)
    assert excerpt(text, q, 120, start=3) == "We recommend using [Prometheus][] to gather metrics and monitor your service, as this is what many GDS teams are using."
    assert whole.startswith("We recommend using [Prometheus][] to gather metrics")
    assert whole.endswith("where the complexity of Prometheus is not required.")
    assert "Collecting metrics on the performance" not in whole


def test_paragraph_ids_follow_blank_lines_and_list_items():
    from threadgraph.bot.compose import _paragraph_ids, sentences_of

    text = doc_lines(F18 / "general-information-and-resources/tech-policies/security-incidents.md", 31, 39)
    assert len(_paragraph_ids(text)) == len(sentences_of(text))
    assert _paragraph_ids(text) == [0, 0, 1, 1, 1]
    steps = doc_lines(GDS / "standards/vulnerability-disclosure.html.md", 39, 44)
    ids = _paragraph_ids(steps)
    assert len(ids) == len(sentences_of(steps)) and len(set(ids[1:])) == len(ids[1:])  # one per item


def test_severity_row_names_the_during_an_incident_document():
    from threadgraph.bot.passages import first_steps, titled_docs

    assert "See <a href=\"/during/during_an_incident\">During an Incident</a>." in doc_lines(PD / "before/severity_levels.md", 36, 36)
    titles = {"docs/before/severity_levels.md": "severity_levels", "docs/during/during_an_incident.md": "during_an_incident",
              "docs/index.md": "index", "docs/before/different_roles.md": "different_roles"}
    cell = "Major incident response. Page an IC in Slack !ic page. See During an Incident. Notify internal stakeholders."
    assert titled_docs(cell, titles, "docs/before/severity_levels.md") == ["docs/during/during_an_incident.md"]
    sec, lines, _ = first_steps(_chunks(PD / "during/during_an_incident.md"))
    assert doc_lines(PD / "during/during_an_incident.md", 31, 31) == "## Don't Panic!"
    assert sec == "Don't Panic!"
    assert lines[0].startswith("1. Join the incident call and chat (see links above).")
    assert len(lines) == 3 and "Follow instructions from the Incident Commander." in lines[2]


def test_lullabot_policy_line_names_documents_by_title():
    from threadgraph.bot.passages import titled_docs

    titles = {"access/lullabot_vpn.md": "Virtual Private Network (VPN)", "physical/hard-drive-encryption.md": "Hard Drive Encryption",
              "physical/locking.md": "Device Lock Screens", "appendix/iso-27001.md": "ISO 27001"}
    text = doc_lines(LB / "appendix/iso-27001.md", 40, 44)
    got = titled_docs(text, titles, "appendix/iso-27001.md")
    assert got == ["physical/hard-drive-encryption.md", "physical/locking.md"]
    assert titled_docs(text, titles, "physical/locking.md") == ["physical/hard-drive-encryption.md"]


def test_headings_that_name_the_question():
    from threadgraph.bot.respond import heading_names

    assert doc_lines(GEN / "ops-moj-platform/docs/runbooks/manage-an-incident.html.md", 125, 125) == "### 3.1 Incident Lead"
    assert heading_names("3. Assign roles > 3.1 Incident Lead", "What are the Incident Lead's responsibilities?")
    assert not heading_names("3. Assign roles > 3.2 Scribe", "What are the Incident Lead's responsibilities?")
    assert doc_lines(PD / "training/glossary.md", 31, 31) == "### Span of Control"
    assert heading_names("Span of Control", "What is span of control?")
    assert not heading_names("Executive Swoop", "What is span of control?")


def test_moj_incident_lead_answer_starts_at_its_section():
    from threadgraph.bot.compose import best_sentence, excerpt, sentences_of
    from threadgraph.bot.respond import within_start

    text = doc_lines(GEN / "ops-moj-platform/docs/runbooks/manage-an-incident.html.md", 127, 137)
    q = "What are the Incident Lead's responsibilities?"
    sentences = sentences_of(text)
    chosen = best_sentence(sentences, q)[0]
    assert sentences[chosen] == "- if no communications lead required, the Incident Lead will be responsible for communicating"
    assert within_start(sentences, chosen)
    whole = excerpt(text, q, 320, start=0, at_least=2, whole_paragraph=True)
    assert whole.startswith("**Responsibilities**:\n- coordinate our response to the incident")
    assert "- if no communications lead required" in whole
    # the glossary entry of PagerDuty: its definition is its first sentence
    gl = sentences_of(doc_lines(PD / "training/glossary.md", 32, 32))
    assert gl[0] == "Refers to the number of direct reports you have."
    assert within_start(gl, 1) and not within_start(gl, 0)


def test_link_lists_do_not_lead_open_answers():
    from types import SimpleNamespace as P

    from threadgraph.bot.respond import pointers_last

    pd_titles = {"docs/after/after_an_incident.md": "after_an_incident", "docs/after/post_mortem_process.md": "post_mortem_process",
                 "docs/after/post_mortem_template.md": "post_mortem_template",
                 "docs/after/effective_post_mortems.md": "effective_post_mortems"}
    index = P(text=doc_lines(PD / "index.md", 39, 42))
    steps = P(text=doc_lines(PD / "after/post_mortem_process.md", 34, 37))
    assert [p is index for p in pointers_last([index, steps], pd_titles)] == [False, True]
    lb_titles = {"access/lullabot_vpn.md": "Virtual Private Network (VPN)", "physical/hard-drive-encryption.md": "Hard Drive Encryption",
                 "physical/locking.md": "Device Lock Screens"}
    links = P(text=doc_lines(LB / "appendix/iso-27001.md", 40, 44))
    own = P(text=doc_lines(LB / "appendix/iso-27001.md", 36, 38))
    assert pointers_last([links, own], lb_titles) == [own, links]
    assert pointers_last([own, links], lb_titles) == [own, links]
    assert pointers_last([links], lb_titles) == [links]  # nothing else to lead
