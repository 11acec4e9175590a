"""Sentence-level answer selection for open answers (bot/sentences.py), with the real e5 model
beside the checkout and the 4 MB test model. Passages are copied line ranges of dev-corpus
documents; expected values are literals of those lines:

* ops-gdsway standards/tracking-dependencies.html.md:34 "Service teams are free to use a
  different tool such as [Snyk](https://snyk.io/)" (the top passage, lines 19-30, lists Dependabot)
* ops-lullabot physical/acceptable_use.md:12 "Should any employee be unclear on the policy or how
  it impacts their role they should speak to their manager or IT security officer."
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import E5_PATH, REPO, TINY_MODEL, TINY_NAME, doc_lines, quoted

GEN = REPO / "benchmarks" / "generalization"
DEPS = GEN / "ops-gdsway/docs/standards/tracking-dependencies.html.md"
AUP = GEN / "ops-lullabot/docs/physical/acceptable_use.md"
needs_e5 = pytest.mark.skipif(not (E5_PATH / "model.onnx").exists(), reason="multilingual-e5-small-int8 not beside the checkout")




@pytest.fixture(scope="module")
def tiny():
    from threadgraph.knowledge.embeddings import Embedder

    return Embedder(TINY_NAME, TINY_MODEL)


def _deps():
    from threadgraph.bot.answer import Passage

    return [Passage(id="a", doc="tracking-dependencies.html.md", section="Update dependencies frequently", text=doc_lines(DEPS, 19, 30)),
            Passage(id="b", doc="tracking-dependencies.html.md", section="Update dependencies frequently", text=doc_lines(DEPS, 32, 34))]


def _aup():
    from threadgraph.bot.answer import Passage

    return [Passage(id="c", doc="acceptable_use.md", section="Acceptable Use Policy > Compliance", text=doc_lines(AUP, 12, 16)),
            Passage(id="p", doc="acceptable_use.md", section="Acceptable Use Policy > Policy", text=doc_lines(AUP, 4, 6))]


@needs_e5
def test_the_answering_sentence_of_the_second_passage_leads(e5):
    """The top passage lists Dependabot and shares the question's words; the sentence that
    answers "something other than Dependabot" is in the next passage, and now leads."""
    from threadgraph.bot.compose import passages_text
    from threadgraph.bot.sentences import lead_sentence

    q = "Can my team use something other than Dependabot for dependency updates?"
    snyk = quoted(DEPS, 34, "Service teams are free to use a different tool such as [Snyk](https://snyk.io/)")
    assert snyk not in passages_text("en", _deps(), question=q).split("\n\n")[0]  # the lexical choice
    ranked = lead_sentence(_deps(), q, e5.embed_query(q), e5)
    assert ranked and ranked[0][0] == 1, ranked
    lead = passages_text("en", _deps(), question=q, ranked=ranked).split("\n\n")[0]
    assert snyk in lead, lead
    assert lead.startswith("The COD Cyber Security team will review the repositories"), lead  # whole sentences


@needs_e5
def test_a_later_sentence_of_the_first_passage_leads(e5):
    from threadgraph.bot.compose import passages_text
    from threadgraph.bot.sentences import lead_sentence

    q = "Who should I talk to if I'm unclear about the acceptable use policy?"
    ranked = lead_sentence(_aup(), q, e5.embed_query(q), e5)
    text = passages_text("en", _aup(), question=q, ranked=ranked)
    want = quoted(AUP, 12, "Should any employee be unclear on the policy or how it impacts their role they should "
                           "speak to their manager or IT security officer.")
    assert text.startswith(want), text
    assert not passages_text("en", _aup(), question=q).startswith(want)  # the lexical choice


def test_without_an_embedder_or_a_question_vector_the_lexical_choice_stays(tiny):
    from threadgraph.bot.sentences import lead_sentence, rank_passages

    q = "Can my team use something other than Dependabot for dependency updates?"
    assert lead_sentence(_deps(), q, None, tiny) == []
    assert lead_sentence(_deps(), q, tiny.embed_query(q), None) == []
    assert rank_passages(_deps(), "", tiny.embed_query(q), tiny) == []


def test_the_test_model_ranks_and_sentence_vectors_are_computed_once(tiny):
    """With the token-overlap test model the ranking runs (one best sentence per passage, best
    first); a second ranking of the same sentences embeds nothing (the LRU)."""
    from threadgraph.bot import sentences as S

    class Counting:
        name, dim, calls = tiny.name, tiny.dim, 0

        def embed_passages(self, texts, max_tokens=None):
            Counting.calls += len(texts)
            return tiny.embed_passages(texts, max_tokens=max_tokens)

    q = "Who should I talk to if I'm unclear about the acceptable use policy?"
    qv = tiny.embed_query(q)
    S._cache.clear()
    ranked = S.rank_passages(_aup(), q, qv, Counting())
    assert sorted(pi for pi, _, _ in ranked) == [0, 1]
    first = Counting.calls
    assert first > 0
    assert S.rank_passages(_aup(), q, qv, Counting()) == ranked
    assert Counting.calls == first


@pytest.mark.parametrize("line, expected", [
    ((DEPS, 87, "[Snyk]: https://snyk.io/"), False),
    ((AUP, 9, "This policy applies to all Lullabot employees and contractors."), True),
])
def test_link_references_never_lead(line, expected):
    from threadgraph.bot.sentences import candidate

    assert candidate(quoted(*line)) is expected


def test_a_follow_up_leads_with_the_line_that_answers_it_not_the_rota(tmp_path):
    """ops-govuk: "and if I'm on-call when I need it?" after "Who has to approve my Temporary
    Production Admin pull request?" leads with rules-for-getting-production-access.html.md:104's
    "If you're on-call, you will probably need to ask the other on-call person." (regressed to
    the on-call rota passage when the lexical lead passage was added)."""
    from conftest import bot_over

    manual = GEN / "ops-govuk/docs/manual"
    ask = bot_over(tmp_path, {"manual/rules-for-getting-production-access.html.md": manual / "rules-for-getting-production-access.html.md",
                              "manual/on-call.html.md": manual / "on-call.html.md"})
    ask("Who has to approve my Temporary Production Admin pull request?", thread="tpa")
    a = ask("and if I'm on-call when I need it?", thread="tpa")
    want = quoted(manual / "rules-for-getting-production-access.html.md", 104,
                  "If you're on-call, you will probably need to ask the other on-call person.")
    assert a.found and a.answer.startswith(want), a.answer
    assert a.passages[0].doc == "manual/rules-for-getting-production-access.html.md"


def test_the_lead_excerpt_shows_the_answering_sentence_with_its_next_neighbour():
    """ops-gdsway disaster-recovery.html.md:76: the sentence naming the AWS region is followed by
    the one that answers ("In such cases, the service could be recreated in another hosting
    provider or in an alternative region"); the two together pass the 320-character lead, and
    are shown whole."""
    from threadgraph.bot.answer import Passage
    from threadgraph.bot.compose import passages_text

    dr = GEN / "ops-gdsway/docs/standards/disaster-recovery.html.md"
    p = Passage(id="d", doc="disaster-recovery.html.md", section="Decide on manual or automatic recovery", text=doc_lines(dr, 76, 76))
    text = passages_text("en", [p], question="If a whole AWS region goes down, where could the service be recreated?")
    assert text.startswith(quoted(dr, 76, "For example, a service may be designed to withstand a failure in a single availability zone")), text
    assert quoted(dr, 76, "the service could be recreated in another hosting provider or in an alternative region") in text, text


def test_at_least_two_sentences_within_the_neighbour_budget():
    """ops-lullabot hard-drive-encryption.md:14: with a 60-character limit, asking for two
    sentences shows "For macOS users, …" and the one after it, whole; the default shows one."""
    from threadgraph.bot.compose import excerpt

    hd = GEN / "ops-lullabot/docs/physical/hard-drive-encryption.md"
    text = doc_lines(hd, 14, 14)
    first = quoted(hd, 14, "For macOS users, FileVault is generally enabled by default.")
    one = excerpt(text, "Is FileVault enabled by default for macOS users?", 60)
    two = excerpt(text, "Is FileVault enabled by default for macOS users?", 60, at_least=2)
    assert one == first
    assert two.startswith(first + " Confirm that it is by following"), two


JZ = GEN / "zh-jzkitchen/docs/2015-01-12-鑄鐵鍋慢煮咖喱-泰式慢煮紅咖喱菠蘿雞–Thai Chicken and-Pineapple-Red-Curry.md"
SR = GEN / "zh-seraphroy/docs/2023-01-13-脆皮烧肉.md"


@needs_e5
@pytest.mark.parametrize("path, parts, q, want, also", [
    # zh-jzkitchen: the baking line, not "如果咖喱汁不能蓋過雞腿，要20-30分鐘把雞反轉" after it
    (JZ, [(26, 32, "材料："), (37, 43, "步驟："), (17, 20, "")], "泰式慢煮紅咖喱菠蘿雞要焗多久？",
     (41, "把整鍋放入已預熱至 160 C 的焗爐中焗 60－70分鐘。"), (41, "如果咖喱汁不能蓋過雞腿")),
    # zh-seraphroy: the 300°F line, not the 480°F line after it
    (SR, [(31, 31, "结果"), (20, 27, "步骤"), (14, 16, "原材料")], "脆皮烧肉第二天烤箱要开多少度？",
     (26, "第二天拿出来放在网架上300华氏度+风吹烤两个小时"), (27, "拿出来，烤箱提升温度到480华氏度，烤40分钟")),
])
def test_a_quantity_answer_starts_at_the_sentence_before_the_ranked_one(e5, path, parts, q, want, also):
    """A quantity question (the search's three passages of the recipe) ranks the sentence right
    after the one stating the asked quantity best; the answer starts one sentence earlier (that
    sentence states a quantity), and shows both."""
    from threadgraph.bot.answer import Passage
    from threadgraph.bot.compose import passages_text
    from threadgraph.bot.sentences import lead_sentence, sentence_scores

    p = [Passage(id=str(a), doc=path.name, section=sec, text=doc_lines(path, a, b)) for a, b, sec in parts]
    qv = e5.embed_query(q)
    ranked = lead_sentence(p, q, qv, e5)
    assert ranked and ranked[0][0] == 1, ranked
    scores = sentence_scores(p, q, qv, e5)
    assert scores[(1, ranked[0][1] + 1)] > scores.get((1, ranked[0][1]), float("-inf"))  # ranked after
    lead = passages_text("zh", p, question=q, ranked=ranked).split("\n\n")[0]
    assert lead.lstrip("-*0123456789. ").startswith(quoted(path, *want)), lead
    assert quoted(path, *also) in lead, lead


def test_no_step_back_without_a_quantity_or_a_close_score():
    """step_back keeps the chosen sentence when the question asks no quantity and the previous
    sentence is not scored; ops-gdsway tracking-dependencies.html.md lines 32-34."""
    from threadgraph.bot.answer import Passage
    from threadgraph.bot.sentences import step_back

    p = [Passage(id="b", doc="tracking-dependencies.html.md", section="", text=doc_lines(DEPS, 32, 34))]
    assert step_back(p, "Can my team use something other than Dependabot?", {(0, 1): 3.0}, 0, 1) == 1
    assert step_back(p, "Can my team use something other than Dependabot?", {(0, 0): 2.5, (0, 1): 3.0}, 0, 1) == 0
