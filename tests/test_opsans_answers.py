"""Everyday handbook questions (issue 11, task opsans): follow-ups whose own words find the
answer, a sense written in other words, a passage writing the question's content leading, and a
sentence ending with a colon showing what it introduces. Each mechanism is tested on lines or
questions of two corpora."""

from __future__ import annotations

from conftest import GEN, bot_over, doc_lines

MOJ_BACKUPS = GEN / "ops-moj-platform/docs/concepts/environments/backups.html.md"
MOJ_JOINING = GEN / "ops-moj-platform/docs/runbooks/joining-the-team.html.md"
J1_BREACH = GEN / "ops-jupiterone/docs/templates/procedures/cp-breach-investigate.md"
K8S_REMOVAL = GEN / "ops-k8s-release/docs/release-team/release-team-removal.md"
RF_DOCSRS = GEN / "ops-rustforge/docs/src/docs-rs/maintenance.md"
SRC_CNA = GEN / "ops-k8s-src/docs/cna-handbook.md"
EHR_BARS = GEN / "en-ehrensberger/docs/recipes/coconut-almond-bars.md"


def _hit(path, first: int, last: int, section: str):
    from threadgraph.knowledge.vectors import Hit

    return Hit(f"{path.name}:{first}", path.name, section, doc_lines(path, first, last), first, 0.5, [])


def test_kept_is_written_as_retained():
    """ "How long are they kept?" is answered by ops-moj-platform's "Backups are retained for 30
    days." and ops-jupiterone's "… shall be retained for a minimum of seven years": "kept" and
    "retained" are one sense (``word_synonyms``). A line writing neither is no match."""
    from threadgraph.bot.evidence import has_word, question_support

    moj = doc_lines(MOJ_BACKUPS, 31, 31)
    assert moj.strip() == "Backups are retained for 30 days."
    j1 = doc_lines(J1_BREACH, 30, 30)
    assert "retained for a minimum of seven years" in j1
    assert has_word("kept", moj) and has_word("kept", j1)
    assert has_word("keep", moj)
    assert question_support("How long are they kept?", moj)
    assert not has_word("kept", "Backups are taken daily at 00:30.")
    assert not has_word("retained", "Please note that some resources may need extra configuration.")


def test_a_follow_ups_own_words_support_a_passage():
    """ops-moj-platform: after "How long are they kept?", "What about non-production resources, do
    they get backed up too?" is answered by "Non production resources which have the tag - backup =
    true will be backed up." — its own words are there, though the earlier question's ("long",
    "kept") counted with them fall short. ops-k8s-release: after "and for a Role Lead?", "If they
    disagree with the removal, who do they escalate to?" by the Appeal section. A passage sharing
    neither's words does not support."""
    from threadgraph.bot.evidence import passages_support
    from threadgraph.bot.query import Query

    moj = _hit(MOJ_BACKUPS, 37, 37, "Non production backups > What is backed up?")
    assert "Non production resources which have the tag" in moj.text
    q = Query(intent="general", language="en", text="What about non-production resources, do they get backed up too?",
              context_text="How long are they kept?")
    assert passages_support(q, [moj])
    k8s = _hit(K8S_REMOVAL, 52, 52, "Appeal")
    assert "They can escalate to SIG Release chairs" in k8s.text
    q = Query(intent="general", language="en", text="If they disagree with the removal, who do they escalate to?",
              context_text="and for a Role Lead?")
    assert passages_support(q, [k8s])
    other = _hit(MOJ_BACKUPS, 27, 27, "Production Backups > Backup schedule")
    q = Query(intent="general", language="en", text="Who approves the on-call rota?", context_text="Who runs standups?")
    assert not passages_support(q, [other])


def test_a_passage_writing_the_questions_words_answers_a_chat_question(tmp_path):
    """A question naming nothing the graph knows, answered over real documents of two corpora:
    ops-moj-platform's "If you can't make standup, post your standup update here." answers "cant
    make standup tmrw, where do i post my update"; ops-k8s-release's Appeal section ("They can
    escalate to SIG Release chairs …") answers the third turn of a thread about removals, whose
    "they" recalls a role."""
    ask = bot_over(tmp_path, {"runbooks/joining-the-team.html.md": MOJ_JOINING,
                              "concepts/environments/backups.html.md": MOJ_BACKUPS,
                              "release-team/release-team-removal.md": K8S_REMOVAL})
    a = ask("cant make standup tmrw, where do i post my update", thread="moj")
    assert a.found
    assert "post your standup update here" in a.answer
    ask("What are some reasons a shadow can be removed from the release team?", thread="k8s")
    ask("and for a Role Lead?", thread="k8s")
    a = ask("If they disagree with the removal, who do they escalate to?", thread="k8s")
    assert a.found
    assert "SIG Release chairs" in a.answer
    ask("When are production backups taken?", thread="b")
    a = ask("How long are they kept?", thread="b")
    assert a.found
    assert "30 days" in a.answer


def test_a_passage_sharing_only_the_questions_common_words_does_not_answer_for_an_unknown_name(tmp_path):
    """en-ehrensberger: "Which recipes use saffron?" (its case: saffron occurs in no document) is not
    answered by the coconut-almond bars' "… if only the coconut or the almond is used … the hardest part
    of the recipe", which shares "recipe" and "use" but not the name asked about: not found. The
    standup question of ops-moj-platform, over the same documents, still finds its line."""
    assert "hardest part of the recipe" in EHR_BARS.read_text(encoding="utf-8")
    ask = bot_over(tmp_path, {"recipes/coconut-almond-bars.md": EHR_BARS,
                              "runbooks/joining-the-team.html.md": MOJ_JOINING})
    a = ask("Which recipes use saffron?", thread="s")
    assert not a.found
    assert "hardest part" not in a.answer
    a = ask("cant make standup tmrw, where do i post my update", thread="moj")
    assert a.found
    assert "post your standup update here" in a.answer


def _no_fences(path, first: int, last: int) -> str:
    """The lines as a chunk holds them: a code block's fences are not text."""
    return "\n".join(x for x in doc_lines(path, first, last).splitlines() if not x.startswith("```"))


def test_a_sentence_ending_with_a_colon_shows_what_it_introduces():
    """ops-rustforge: "… adding or changing this environment variable:" is followed by the setting
    on its own line; ops-k8s-src: "… you can run the following command:" by the command. An excerpt
    stopping at the colon shows that line too; a sentence ending with a stop does not pull the next."""
    from threadgraph.bot.compose import excerpt

    rf = _no_fences(RF_DOCSRS, 29, 37)
    got = excerpt(rf, "Which environment variable do I change in the docs-rs-env file?", 120)
    assert "this environment variable:" in got
    assert "CRATESFYI_TOOLCHAIN=nightly-YYYY-MM-DD" in got
    src = _no_fences(SRC_CNA, 89, 93)
    got = excerpt(src, "How do I see help on resetting my own API key?", 60)
    assert "docker run --env-file=env.txt -it --rm $USER/cvelib:latest user reset-key -h" in got
    plain = "Backups are taken daily at 00:30.\nBackups are retained for 30 days."
    assert "retained" not in excerpt(plain, "When are backups taken?", 40)


def test_a_follow_ups_follow_up_goes_on_from_the_threads_topic(tmp_path):
    """A follow-up of a follow-up is searched with what the earlier follow-up was searched with:
    ops-18f: "Should I reuse my Amazon password for ENT?" → "How often do I have to change it?" →
    "and what about security questions?" (password-requirements.md: "… consider setting up random
    nonsense answers …"); ops-moj-platform: "When are production backups taken?" → "How long are
    they kept?" → "and are they encrypted?" still carries "backups"."""
    from threadgraph.bot.antecedent import antecedent_text
    from threadgraph.bot.memory import ThreadState

    first, second = "Should I reuse my Amazon password for ENT?", "How often do I have to change it?"
    state = ThreadState(turns=[{"role": "user", "text": first, "intent": "general"},
                               {"role": "bot", "text": "Use new passwords for work services.", "intent": "general"},
                               {"role": "user", "text": second, "intent": "general", "context": first},
                               {"role": "bot", "text": "Every 90 days.", "intent": "general"}])
    assert antecedent_text(state, second, "and what about security questions?") == f"{second} {first}"
    first, second = "When are production backups taken?", "How long are they kept?"
    state = ThreadState(turns=[{"role": "user", "text": first, "intent": "general"},
                               {"role": "bot", "text": "Backups are taken daily at 00:30.", "intent": "general"},
                               {"role": "user", "text": second, "intent": "general", "context": first},
                               {"role": "bot", "text": "Backups are retained for 30 days.", "intent": "general"}])
    assert "backups" in antecedent_text(state, second, "and are they encrypted?")
    # a follow-up saying enough to stand alone (ops-sourcegraph) is not searched with what it went on from
    first, second = "and for critical severity ones?", "Who has to be notified right away when it's S2 or above?"
    state = ThreadState(turns=[{"role": "user", "text": second, "intent": "general", "context": first},
                               {"role": "bot", "text": "The Security Lead must immediately be notified.", "intent": "general"}])
    assert antecedent_text(state, second, "And S1?") == second
    first, second = "When are production backups taken?", "How long are they kept?"
    # a follow-up searched with nothing before it stays itself
    state = ThreadState(turns=[{"role": "user", "text": second, "intent": "general"},
                               {"role": "bot", "text": "Backups are retained for 30 days.", "intent": "general"}])
    assert antecedent_text(state, second, "and are they encrypted?") == second
    ask = bot_over(tmp_path, {"tech-policies/password-requirements.md":
                              GEN / "ops-18f/docs/general-information-and-resources/tech-policies/password-requirements.md",
                              "concepts/environments/backups.html.md": MOJ_BACKUPS})
    ask("Should I reuse my Amazon password for ENT?")
    ask("How often do I have to change it?")
    a = ask("and what about security questions?")
    assert "random nonsense answers" in a.answer
