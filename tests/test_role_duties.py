"""A duty's object noun phrase (``ingest/lexicon/roles.yaml`` ``noun_phrase_stops``) ends
before a preposition of means: "create a CVSS score using …" is a duty on "cvss score"."""

from __future__ import annotations

from conftest import GEN, doc_lines

K8S = GEN / "ops-k8s-src" / "docs"


def test_a_duty_object_ends_before_using_or_via():  # ops-k8s-src, ops-lullabot
    from threadgraph.ingest.roles import RoleBook, RoleRules, responsibility_objects

    k8s = doc_lines(K8S / "security-release-process.md", 158, 158).lstrip("- ")
    gpg = doc_lines(GEN / "ops-lullabot/docs/communications/gpg.md", 56, 56).split(".", 1)[1].strip()
    book = RoleBook()
    book.names = {"Fix Team": [], "Person": []}  # the roles these lines speak of
    rules = RoleRules(book)
    written = k8s.replace("[CVSS](https://www.first.org/cvss/specification-document)", "CVSS")
    assert ("Fix Team", "cvss score") in responsibility_objects(written, rules)
    assert responsibility_objects(gpg, rules) == [("Person", "key")]
