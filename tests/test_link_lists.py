"""Link-list passages (issue 11, newcomer 3 Q20): an index / table-of-contents passage whose list
items name KB documents is a pointer, not an answer; a steps question follows it to the numbered
steps of the document it points to. Passages are real ingest chunks or copied line ranges;
expected values are literals of the source files:

* PagerDuty docs/index.md:39-42 "* [Postmortem Process](after/post_mortem_process.md) - _Information
  on our postmortem process, …_" (four pointers); docs/after/post_mortem_process.md:34-37
  "## Postmortem" … "1. (If not already done by the IC) Create a new postmortem for the incident."
* ops-lullabot appendix/iso-27001.md:40-44 "- [Lullabot VPN](../access/lullabot_vpn.md)" …
  "- [Lost or Stolen Devices](../physical/lost-devices.md)"; physical/locking.md:1 "## Device Lock Screens"
"""

from __future__ import annotations

from conftest import GEN, REPO, doc_lines

PD = REPO / "corpora/pagerduty-incident-response/docs"
LB = GEN / "ops-lullabot/docs"


def test_pagerduty_index_items_point_to_kb_documents():
    from threadgraph.bot.passages import pointers

    titles = {"docs/after/after_an_incident.md": "after_an_incident", "docs/after/post_mortem_process.md": "post_mortem_process",
              "docs/after/post_mortem_template.md": "post_mortem_template",
              "docs/after/effective_post_mortems.md": "effective_post_mortems", "docs/index.md": "index"}
    got = pointers(doc_lines(PD / "index.md", 39, 42), titles)
    assert [d for d, _ in got] == ["docs/after/after_an_incident.md", "docs/after/post_mortem_process.md",
                                   "docs/after/post_mortem_template.md", "docs/after/effective_post_mortems.md"]
    assert "how to write or run a postmortem" in got[1][1]
    # the numbered steps of the pointed document are no link list
    assert pointers(doc_lines(PD / "after/post_mortem_process.md", 37, 47), titles) is None


def test_ops_lullabot_policy_links_point_to_kb_documents():
    from threadgraph.bot.passages import pointers

    titles = {"access/lullabot_vpn.md": "Virtual Private Network (VPN)", "access/passwords.md": "PINs, Passcodes and Passwords",
              "physical/hard-drive-encryption.md": "Hard Drive Encryption", "physical/locking.md": "Device Lock Screens"}
    assert doc_lines(LB / "physical/locking.md", 1, 1) == "## Device Lock Screens"
    got = pointers(doc_lines(LB / "appendix/iso-27001.md", 40, 44), titles)
    assert [d for d, _ in got] == ["access/lullabot_vpn.md", "physical/hard-drive-encryption.md", "physical/locking.md"]
    # a list of the document's own points is no link list
    assert pointers(doc_lines(LB / "appendix/iso-27001.md", 36, 38), titles) is None


def test_numbered_section_of_the_postmortem_process():
    from threadgraph.bot.passages import numbered_section
    from threadgraph.ingest.chunks import make_chunks
    from threadgraph.ingest.readers import parse_file

    assert doc_lines(PD / "after/post_mortem_process.md", 34, 34) == "## Postmortem"
    sec, hits = numbered_section(make_chunks(parse_file(PD / "after/post_mortem_process.md")))
    assert sec == "Postmortem"
    text = "\n".join(h.text for h in hits)
    assert "(If not already done by the IC) Create a new postmortem for the incident." in text
    assert "Communicate internally so we can learn from the incident." in text
