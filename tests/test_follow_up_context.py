"""A pronoun that finds nothing in memory: on a thread's first turn it points inside the
question when the question says enough of its own; on a later turn the previous question is
what it refers to, and the passages are searched with it (bot/resolve.py). An excerpt that
starts with a pronoun starts a sentence earlier (``leading_pronouns`` in bot/lexicon/words.yaml).
Documents and questions are literals from the dev corpora:

* ops-2i2c-compass business-development/crm.md:57 "The easiest way to sign in is with a passkey …",
  :65 "If the passkey isn't available, you can sign in with the username and password instead:"
* ops-2i2c-infra reference/tools.md:26 "[Lens](…) is an amazing GUI for exploring various objects",
  topic/monitoring-alerting/escalation-policies.md:22 "… escalating to the next user if the incident
  is not acknowledged within 4h."
* ops-govuk manual/pagerduty.html.md "The primary in-hours technical on-call developer should escalate the
  call to the secondary, who should then escalate it to "SMT escalations"."
* ops-govuk manual/post-a-statuspage-message.html.md:122 "When backfilling a status update,
  subscribers will not be notified. It will update relevant Slack channels though."
"""

from __future__ import annotations


import pytest

from conftest import REPO, bot_over
from threadgraph.bot.compose import excerpt
from threadgraph.bot.resolve import own_words

GEN = REPO / "benchmarks" / "generalization"


def test_a_first_question_with_words_of_its_own_keeps_its_pronoun_inside():
    assert own_words("In the outages escalation policy, who gets the incident if it is not acknowledged?") >= 3
    assert own_words("kubectl gui thing?? whats it called") >= 3
    assert own_words("What is it?") < 3
    assert own_words("它要多久？") < 3


def test_an_and_x_question_leans_on_the_last_question_that_is_not_one():
    from threadgraph.bot.intents import get

    follow = get("follow")
    # ops-govuk cases: "What colour is the emergency banner for a national emergency?" → "and for a notable death?"
    assert follow.elliptical("and for a notable death?")
    assert not follow.elliptical("What colour is the emergency banner for a national emergency?")
    # zh-zehua cases: "薄饼用什么面粉？" → "那黄油呢？"
    assert follow.elliptical("那黄油呢？")
    assert not follow.elliptical("薄饼用什么面粉？")


def test_an_excerpt_starting_with_a_pronoun_starts_a_sentence_earlier():
    text = ("When backfilling a status update, subscribers will not be notified. "
            "It will update relevant Slack channels though.")
    assert excerpt(text, "will it update relevant slack channels").startswith("When backfilling a status update")
    lens = ("- [Lens](https://k8slens.dev/) is an amazing GUI for exploring various objects\n"
            "  in a kubernetes cluster. It can do almost everything `kubectl` does, in\n"
            "  a fairly intuitive way.")
    assert "is an amazing GUI" in excerpt(lens, "can it do almost everything kubectl does")


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("followctx"),
                    {"compass/crm.md": GEN / "ops-2i2c-compass/docs/business-development/crm.md",
                     "infra/tools.md": GEN / "ops-2i2c-infra/docs/reference/tools.md",
                     "infra/escalation-policies.md": GEN / "ops-2i2c-infra/docs/topic/monitoring-alerting/escalation-policies.md",
                     "govuk/pagerduty.html.md": GEN / "ops-govuk/docs/manual/pagerduty.html.md"})


def test_a_follow_up_pronoun_refers_to_the_previous_question(ask):
    a = ask("What's the easiest way to sign into the HubSpot admin account?", thread="hub")
    assert a.found and "passkey" in a.answer
    a = ask("What if it isn't available?", thread="hub")
    assert a.found and "username and password" in a.answer


def test_a_first_turn_pronoun_pointing_inside_the_question_is_answered(ask):
    a = ask("In the outages escalation policy, who gets the incident if it is not acknowledged?", thread="esc")
    assert a.found and "next user" in a.answer
    a = ask("What is it?", thread="bare")
    assert not a.found and "referring to" in a.answer


def test_and_x_after_a_passage_answer_is_searched_with_the_previous_question(ask):
    ask("In the weekly PagerDuty drill, what should the primary in-hours on-call developer do?", thread="drill")
    a = ask("And the secondary?", thread="drill")
    assert a.found and "SMT escalations" in a.answer
