"""Handbook stand-ins whose condition says the thing is gone or no option ("is no longer reachable", "are not an
option", "is not functioning": the BE_UNAVAILABLE macro of knowledge/lexicon/cues.yaml), and the consequence clause
read for who or what acts (knowledge/cues.py ``clause_actor``: the subject of a passive of use, the subject of a
verb of acting, the object of a control verb). Every line is quoted from a dev corpus (ops-rustforge,
ops-jupiterone, ops-sourcegraph); expected values are words of those lines."""
from __future__ import annotations

import re

from conftest import GEN, doc_lines
from threadgraph.ingest.relations import unwrap
from threadgraph.knowledge import cues
from threadgraph.knowledge.text import lexicon

RUST = GEN / "ops-rustforge" / "docs" / "src"
JUPITER = GEN / "ops-jupiterone" / "docs" / "templates" / "procedures"
SOURCEGRAPH = GEN / "ops-sourcegraph" / "docs" / "departments" / "tech-ops" / "tools"


def _standins(sentence: str) -> list[tuple[str, str, str]]:
    return [(c.rule, c.x, c.y) for c in cues.read(sentence) if c.kind == "standin"]


def _unavailable() -> re.Pattern:
    macros = lexicon("cues")["macros"]["en"]
    return re.compile(r"(?:the |a |an |its )?\S+ " + macros["BE_UNAVAILABLE"], re.I)


def test_unavailability_predicate_reads_no_longer_not_an_option_not_functioning():
    rx = _unavailable()
    # ops-rustforge: "… in case the primary maintainer is no longer reachable."
    line = unwrap(doc_lines(RUST / "compiler" / "third-party-out-of-tree.md", 41, 42))
    assert "maintainer is no longer reachable" in line and rx.search("maintainer is no longer reachable")
    # ops-rustforge: "… and if hardware keys are not an option, …"
    line = unwrap(doc_lines(RUST / "infra" / "policies" / "mfa-critical-systems.md", 21, 22))
    assert "keys are not an option" in line and rx.search("keys are not an option")
    # ops-jupiterone: "In the event a {{companyShortName}} facility is not functioning due to a disaster, …"
    line = unwrap(doc_lines(JUPITER / "cp-bcdr-site.md", 3, 4))
    assert "facility is not functioning" in line and rx.search("facility is not functioning")
    # what is not gone is not read: "is no longer blocked", "are no longer needed"
    assert not rx.search("responders are no longer needed")
    assert not rx.search("it is no longer blocked")


def test_if_x_is_not_an_option_the_passive_subject_is_used():
    # ops-rustforge mfa-critical-systems.md 21-22
    sentence = ("That means using hardware security keys whenever possible, and if hardware keys are not an option, "
                "Passkeys or TOTP apps must be used otherwise.")
    assert sentence in unwrap(doc_lines(RUST / "infra" / "policies" / "mfa-critical-systems.md", 21, 22))
    # the condition opens its own clause after ", and": the clause before it is not the fallback
    assert _standins(sentence) == [("en.if_x_unavailable_y", "hardware keys", "Passkeys or TOTP apps")]


def test_designate_y_to_serve_in_the_event_x_is_unavailable():
    # ops-rustforge council.md 163
    line = doc_lines(RUST / "governance" / "council.md", 163, 163)
    sentence = line.split(". ")[0] + "."
    assert sentence == ("A top-level team can designate an alternate representative to serve in the event their primary "
                        "representative is unavailable.")
    assert _standins(sentence) == [("en.y_in_the_event_x_unavailable", "primary representative", "alternate representative")]


def test_clause_actor_shapes_and_what_it_leaves_to_the_object_reader():
    # ops-jupiterone cp-bcdr.md 61: a verb of acting
    assert "the CEO shall function as that authority" in unwrap(doc_lines(JUPITER / "cp-bcdr.md", 60, 62))
    assert cues.clause_actor("the CEO shall function as that authority or choose an alternative delegate") == "CEO"
    # ops-rustforge: a passive of use; a control verb with an infinitive of acting
    assert cues.clause_actor("Passkeys or TOTP apps must be used otherwise") == "Passkeys or TOTP apps"
    assert cues.clause_actor("A top-level team can designate an alternate representative to serve") == "alternate representative"
    # ops-jupiterone cp-data-backup.md 32: "restored" is no verb of use: the subject is what is recovered, not a stand-in
    assert "source code will be restored from the backups in AWS S3" in unwrap(doc_lines(JUPITER / "cp-data-backup.md", 31, 32))
    assert cues.clause_actor("source code will be restored from the backups in AWS S3") == ""
    # a pronoun subject names nobody
    assert cues.clause_actor("they should be contacted") == ""


def test_trailing_condition_is_not_read_across_a_coordinated_clause():
    # ops-sourcegraph computer-setup.md 39: "If you are a temporary contractor or if … the machine is unavailable, …"
    line = unwrap(doc_lines(SOURCEGRAPH / "computer-setup.md", 39, 39))
    assert line.startswith("If you are a temporary contractor or if there has been some damage or circumstance where the "
                           "machine is unavailable, you may use a personal device")
    sentence = line.split(". ")[0]
    assert not any(r == "en.if_x_unavailable_trailing" for r, _, _ in _standins(sentence))
    # a trailing condition after a comma still reads
    assert ("en.if_x_unavailable_trailing", "primary", "deputy") in _standins("Page the deputy, if the primary is unavailable.")
