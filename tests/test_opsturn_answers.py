"""Answers on handbooks (issue 11, task opsturn): general mechanisms, each tested on real lines
or questions of at least two corpora."""

from __future__ import annotations

from conftest import GEN, doc_lines

SG_SETUP = GEN / "ops-sourcegraph/docs/departments/tech-ops/tools/computer-setup.md"
GOVUK_PROD = GEN / "ops-govuk/docs/manual/rules-for-getting-production-access.html.md"
SG_OPSGENIE = GEN / "ops-sourcegraph/docs/departments/engineering/teams/devops/opsgenie.md"
LB_2FA = GEN / "ops-lullabot/docs/access/two_factor_authentication.md"
GDS_DR = GEN / "ops-gdsway/docs/standards/disaster-recovery.html.md"


def test_a_latin_word_ending_in_id_asks_no_identifier():
    """The Chinese value frame ("…的ID是什么") has no word boundary; on English text its "ID"
    must start a word: "testgrid" (ops-k8s-release's case) and "paid" (ops-lullabot's
    "services paid by Lullabot") end in "id" and ask for no identifier; "ID" asked in
    Chinese or English still does."""
    from threadgraph.bot.words import value_kind, value_phrase

    assert value_kind("What are the steps to escalate a test that's failing on testgrid?") == ""
    assert value_phrase("What are the steps to escalate a test that's failing on testgrid?") == ""
    assert value_kind("Which email do I use for services paid by Lullabot?") == ""
    assert value_kind("生产账号的ID是什么？") == "identifier"
    assert value_kind("What is the production account ID?") == "identifier"


def test_an_adverb_is_written_as_its_adjective():
    """ops-sourcegraph writes "as a temporary solution", ops-govuk "on a time-expiring temporary
    basis": a question's "temporarily" is written there; ops-sourcegraph's "granted
    automatically" writes "automatically" itself. Short stems are not matched ("supply" is not
    "support")."""
    from threadgraph.bot.evidence import has_word, lexical_support

    sg = doc_lines(SG_SETUP, 39, 39)
    assert "as a temporary solution" in sg
    assert has_word("temporarily", sg)
    assert lexical_support("work temporarily", sg)
    gov = doc_lines(GOVUK_PROD, 91, 91)
    assert "temporary basis" in gov
    assert has_word("temporarily", gov)
    ops = doc_lines(SG_OPSGENIE, 8, 8)
    assert has_word("automatically", ops)
    assert not has_word("supply", "Contact support for help.")
    assert not has_word("temporarily", "Use a contemporary tool.")


class _Index:
    """A KB whose full-text search returns ``texts`` as passages."""

    def __init__(self, texts: list[str]):
        from types import SimpleNamespace

        class vectors:  # noqa: N801 - the attribute name of a KB
            @staticmethod
            def search(text, vector=None, *, limit=8, mode="hybrid"):
                return [SimpleNamespace(section="", text=x) for x in texts[:limit]]

        self.vectors = vectors


def test_an_adverb_in_an_unlinked_phrase_is_not_absent_when_its_adjective_is_written():
    """ "… use a personal device for work temporarily" (ops-sourcegraph): the passage writes
    "temporary", so the phrase's last word is not absent; nor for ops-govuk's "temporary basis".
    A word written nowhere still is."""
    from threadgraph.bot.evidence import absent_dish_words

    assert absent_dish_words("work temporarily", _Index([doc_lines(SG_SETUP, 39, 39)]), []) == []
    assert absent_dish_words("access temporarily", _Index([doc_lines(GOVUK_PROD, 91, 91)]), []) == []
    assert absent_dish_words("work remotely", _Index([doc_lines(SG_SETUP, 39, 39)]), []) == ["remotely"]


def test_an_excerpt_at_a_demonstrative_subject_starts_at_the_sentence_it_points_back_to():
    """ops-lullabot: "This is preferred over using SMS for 2FA" says what the sentence before it
    describes (the authentication app); ops-gdsway: "This is particularly important for your
    data" points back to planning for the worst case. An excerpt chosen at the demonstrative
    starts one sentence earlier; a demonstrative before a noun ("This role …") does not."""
    from threadgraph.bot.compose import _leads_with_pronoun, excerpt, sentences_of

    lb = doc_lines(LB_2FA, 17, 17)
    sents = sentences_of(lb)
    i = next(k for k, s in enumerate(sents) if s.startswith("This is preferred"))
    out = excerpt(lb, "", 400, start=i)
    assert out.startswith("When an authentication app is linked to your account")
    gds = doc_lines(GDS_DR, 30, 30)
    sents = sentences_of(gds)
    i = next(k for k, s in enumerate(sents) if s.startswith("This is particularly important"))
    assert excerpt(gds, "", 400, start=i).startswith("You should also work with risk and service owners")
    assert not _leads_with_pronoun("This role consists of creating issues for failing and flaky tests.")


K8S_REMOVAL = GEN / "ops-k8s-release/docs/release-team/release-team-removal.md"


def _heading_kb(tmp_path, files):
    """A graph-only KB of copies of ``files`` (real documents), as the ``kb`` heading_echo reads."""
    import shutil
    from types import SimpleNamespace

    from conftest import tiny_settings
    from threadgraph.ingest.service import run_ingest
    from threadgraph.knowledge.graph import GraphStore
    from threadgraph.knowledge.kb import current_build

    src = tmp_path / "docs"
    src.mkdir()
    for p in files:
        shutil.copyfile(p, src / p.name)
    assert run_ingest([src], tiny_settings(tmp_path / "data"), no_vectors=True).ok
    return SimpleNamespace(graph=GraphStore(current_build(tmp_path / "data") / "graph.kuzu", read_only=True))


def test_a_section_whose_heading_echoes_the_question_leads(tmp_path):
    """ops-k8s-release: "## Shadow Removal Guideline" (release-team-removal.md:11) says what "What are some
    reasons a shadow can be removed …?" asks ("removed" ~ "Removal"); ops-govuk: "### Temporary Production
    Admin access" (rules-for-getting-production-access.html.md:89) what "How do I get temporary production
    admin access?" asks. A search that found other sections gets that section first; a heading echoing
    no more than the found ones changes nothing."""
    from threadgraph.bot.evidence import heading_echo
    from threadgraph.bot.linker import Mention
    from threadgraph.bot.query import Query
    from threadgraph.knowledge.vectors import Hit

    assert "## Shadow Removal Guideline" in doc_lines(K8S_REMOVAL, 11, 11)
    assert "### Temporary Production Admin access" in doc_lines(GOVUK_PROD, 89, 89)
    kb = _heading_kb(tmp_path, [K8S_REMOVAL, GOVUK_PROD])
    other = Hit("x", "README.md", "Kubernetes Release Team roles > Release Team Shadows", "Any Release Team member may select"
                " one or more mentees to shadow the release process.", 94, 0.5, [])
    role = Mention("Release Team", "Release Team", "role", "role:release-team", 0, "exact")
    q = Query(intent="general", language="en", text="What are some reasons a shadow can be removed from the release team?",
              roles=[role])
    got = heading_echo(kb, q, [other])
    assert got[0].section.endswith("Shadow Removal Guideline")
    assert "Failure to attend the shadow orientation" in got[0].text
    assert got[-1] is other
    q = Query(intent="steps", language="en", text="How do I get temporary production admin access?")
    got = heading_echo(kb, q, [other])
    assert got[0].section.endswith("Temporary Production Admin access")
    # the found section already says as much: nothing moves
    q = Query(intent="general", language="en", text="Who can shadow the release team roles?")
    assert heading_echo(kb, q, [other]) == [other]


def test_which_of_our_procedures_names_the_documents_asked_for():
    """The partitive "which of our/the <documents> <verb> X" asks what "which <documents> <verb> X"
    asks: ops-sourcegraph's case "Which of our playbooks involve Velero?" (dotcom_deleted_entirely.md:35
    "We use [Velero](…) to manage our disaster recovery process") and ops-2i2c-infra's tools page
    (reference/tools.md, which names kubectl)."""
    import re

    from threadgraph.bot.intents import get

    pats = get("general").data["doc_list_questions"]["en"]

    def term(q: str) -> str:
        q = q.strip().rstrip("?")
        return next((m.group("term") for p in pats for m in [re.search(p, q, re.I)] if m), "")

    assert "We use [Velero]" in doc_lines(GEN / "ops-sourcegraph/docs/departments/engineering/dev/process/incidents/"
                                          "playbooks/dotcom_deleted_entirely.md", 35, 35)
    assert term("Which of our playbooks involve Velero?") == "Velero"
    assert "kubectl" in (GEN / "ops-2i2c-infra/docs/reference/tools.md").read_text(encoding="utf-8")
    assert term("Which of the guides use kubectl?") == "kubectl"
    assert term("Which playbooks involve Velero?") == "Velero"
    assert term("Which of our teams is on call?") == ""


SG_ONCALL = GEN / "ops-sourcegraph/docs/departments/engineering/dev/process/incidents/on_call.md"
LB_SHARED = GEN / "ops-lullabot/docs/access/shared_passwords.md"
GOVUK_CDN = GEN / "ops-govuk/docs/manual/cdn.html.md"


def _hit(path, line: int, section: str = ""):
    from threadgraph.knowledge.vectors import Hit

    return Hit(f"{path.name}:{line}", path.name, section, doc_lines(path, line, line), line, 0.5, [])


def test_a_sentence_writing_the_questions_condition_answers_it():
    """ops-sourcegraph on_call.md:42 "If that person is unavailable, feel free to ping the entire team …",
    ops-lullabot shared_passwords.md:22 "If 1Password goes offline, we can still access our vaults
    locally.", ops-govuk cdn.html.md:46 "So if the homepage server is down, we'll continue to serve …":
    each is the sentence for a question asking that condition; a clause of fewer than four words, or one
    no sentence writes, reads nothing."""
    from threadgraph.bot.respond import clause_sentence, condition_clause

    other = _hit(SG_ONCALL, 41)
    q = "and if that person is unavailable?"
    assert condition_clause(q) == "if that person is unavailable"
    h, s = clause_sentence(condition_clause(q), [other, _hit(SG_ONCALL, 42)])
    assert s.startswith("If that person is unavailable, feel free to ping the entire team")
    q = "What happens if 1Password goes offline? Can we still get to our shared passwords?"
    _, s = clause_sentence(condition_clause(q), [_hit(LB_SHARED, 22)])
    assert s == "- If 1Password goes offline, we can still access our vaults locally."
    _, s = clause_sentence(condition_clause("What do we serve if the homepage server is down?"), [_hit(GOVUK_CDN, 46)])
    assert "we'll continue to serve a stale homepage" in s
    assert condition_clause("What if it fails?") == ""
    assert clause_sentence(condition_clause("What if the homepage server is slow?"), [_hit(GOVUK_CDN, 46)]) is None


def test_a_common_noun_after_a_demonstrative_points_back():
    """"and if that person is unavailable?" (ops-sourcegraph's follow-up) and "what if those people are
    away?" name nobody new: the lower-case noun after "that"/"those" is not linked (a KB entity sharing the
    word, a department called "People", is not meant); a capitalised name after it ("that Release Lead",
    ops-k8s-release's role) still is."""
    from threadgraph.bot.linker import Mention
    from threadgraph.bot.understand import _anaphoric_dropped

    person = Mention("person", "People", "role", "role:people", 12, "lemma")
    assert _anaphoric_dropped([person], "and if that person is unavailable") == []
    people = Mention("people", "People", "role", "role:people", 13, "exact")
    assert _anaphoric_dropped([people], "what if those people are away") == []
    lead = Mention("Release Lead", "Release Lead", "role", "role:release-lead", 12, "exact")
    assert _anaphoric_dropped([lead], "and if that Release Lead is unavailable") == [lead]
    assert _anaphoric_dropped([person], "who is the person on call") == [person]


def test_chat_fillers_are_trimmed_from_a_slot():
    """Chat questions of two corpora: ops-sourcegraph's "… how do i even reach IT lol" asks about
    reaching IT, ops-k8s-release's "does krel/release tooling work on windows lol" about windows; the
    focus adverb before a slot and the interjections after it are no part of it."""
    from threadgraph.bot.linker import clean_slot

    assert clean_slot("even reach IT lol") == "reach IT"
    assert clean_slot("work on windows lol") == "work on windows"
    assert clean_slot("the security team rn") == "security team"
    assert clean_slot("evening shift") == "evening shift"
    assert clean_slot("rollout") == "rollout"
