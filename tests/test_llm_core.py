"""The LLM path through the REAL core (bot/core.py ``ThreadGraphBot``) over the
session KB, with the real openai + instructor clients talking to a scripted
OpenAI-compatible server on 127.0.0.1 (tests/fakes_openai.py).

Nothing of ours is mocked: the fake server stands in for the OpenAI API only.
Every LLM outcome is compared with the deterministic answer of a bot without a
key (same KB, own memory): the LLM may only reword it, citing retrieved ids.
"""

from __future__ import annotations

import itertools
import time

import pytest
from pydantic import SecretStr

from conftest import tiny_settings
from fakes_openai import FakeOpenAI, RecordedRequest
from threadgraph.bot.core import ThreadGraphBot
from threadgraph.bot.memory import ThreadMemory
from threadgraph.bot.message import IncomingMessage, ThreadKey

# importing openai/instructor costs ~1.5 s: do it at collection, not inside a timed answer
import instructor  # noqa: F401,E402
import openai  # noqa: F401,E402

pytestmark = pytest.mark.timeout(300)  # a hang guard; the first test also builds the session KB

KEY = "sk-test-core-9c4e1b-distinctive"
Q = "宫保鸡丁没有手枪腿用什么代替？"
# phrasings the rules cannot parse (intent "general"): the one LLM call is `understand`
UNSURE = "做宫保鸡丁的时候手枪腿家里一点都不剩了"  # no phrase pattern and no cue word reads it
BAD_ID = "f-deadbeefdeadbeef"

COMPOSE_MARK = "You write the answer of a question-answering bot"
UNDERSTAND_MARK = "You analyse one chat message"


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def make_bot(kb_dir, kb_handle, tmp_path):
    """``make_bot(fake=None, **settings)``: the real core over the session KB with
    its own thread memory; with ``fake`` it has an API key and talks to the fake."""
    n = itertools.count()

    def _make(fake: FakeOpenAI | None = None, **kw) -> ThreadGraphBot:
        if fake is not None:
            kw = {"openai_base_url": fake.base_url, "llm_timeout_s": 0.5, "llm_mode": "MD_JSON", **kw}
        s = tiny_settings(kb_dir, **kw)
        if fake is not None:
            # tiny_settings() pins openai_api_key=None, so the key is set on the copy
            s = s.model_copy(update={"openai_api_key": SecretStr(KEY)})
            assert s.llm_enabled
        return ThreadGraphBot(s, kb=kb_handle, memory=ThreadMemory(tmp_path / f"memory-{next(n)}.sqlite"))

    return _make


def ask(bot: ThreadGraphBot, text: str, thread: str = "t"):
    return bot.answer(IncomingMessage(thread=ThreadKey(platform="test", thread=thread), text=text))


@pytest.fixture
def baseline(make_bot):
    """The no-LLM answers (a bot without a key) to Q and to its follow-up."""
    plain = make_bot()
    assert not plain.settings.llm_enabled
    first = ask(plain, Q)
    follow = ask(plain, "那干辣椒呢？")
    # the premise of the compose tests: the rules answer Q confidently, with a real substitute fact
    assert first.found and first.intent == "substitute"
    assert any(f.relation == "SUBSTITUTES" and f.object == "鸡胸肉" for f in first.facts)
    assert "鸡胸肉" in first.answer and first.passages
    return {"q": first, "follow": follow}


def sub_fact(ans):
    return next(f for f in ans.facts if f.relation == "SUBSTITUTES")


def dump(ans) -> dict:
    return ans.model_dump()


def kind(req: RecordedRequest) -> str:
    system = req.messages[0]["content"] if req.messages else ""
    if COMPOSE_MARK in system:
        return "compose"
    if UNDERSTAND_MARK in system:
        return "understand"
    return "?"


def llm_calls(requests: list[RecordedRequest]) -> int:
    """Distinct calls: a re-ask repeats its call's system + first user message."""
    return len({(r.messages[0]["content"], r.messages[1]["content"]) for r in requests})


# ------------------------------------------------------------------ (a) good output


def test_good_compose_output_replaces_text_and_cites_exactly_the_cited_facts(make_bot, fake, baseline):
    base = baseline["q"]
    fid = sub_fact(base).id
    pid = base.passages[0].id
    text = "没有手枪腿的话，宫保鸡丁可以改用鸡胸肉来做。"
    fake.reply({"answer": text, "found": True, "fact_ids": [fid], "passage_ids": [pid]})

    bot = make_bot(fake)
    ans = ask(bot, Q)

    assert len(fake.requests) == 1 and kind(fake.requests[0]) == "compose"
    prompt = fake.requests[0].text()
    assert Q in prompt and base.answer in prompt  # the question and the deterministic draft
    for f in base.facts:  # every retrieved fact is offered with its real id
        assert f"[{f.id}]" in prompt
    assert ans.answer == text
    assert [f.id for f in ans.facts] == [fid]
    assert ans.facts[0] == sub_fact(base)  # the KB fact itself (subject, object, source), not a copy of the LLM's words
    assert [p.id for p in ans.passages] == [pid]
    assert ans.found is True and ans.intent == base.intent and ans.entities == base.entities
    assert fake.pending == 0


def test_at_most_one_request_per_question_in_a_thread(make_bot, fake, baseline):
    base, follow = baseline["q"], baseline["follow"]
    assert follow.found and "二荆条" in follow.answer  # the follow-up is answered from thread memory
    fake.reply({"answer": "可以用鸡胸肉代替手枪腿。", "found": True, "fact_ids": [sub_fact(base).id], "passage_ids": []})
    fake.reply({"answer": "干辣椒可以用二荆条代替。", "found": True, "fact_ids": [sub_fact(follow).id], "passage_ids": []})
    fake.reply({"intent": "substitute", "language": "zh", "excluded": [],
                "entities": [{"name": "宫保鸡丁", "type": "recipe"}, {"name": "手枪腿", "type": "ingredient"}]})

    bot = make_bot(fake)
    a1 = ask(bot, Q)
    assert len(fake.requests) == 1
    a2 = ask(bot, "那干辣椒呢？")
    assert len(fake.requests) == 2
    a3 = ask(bot, UNSURE)
    assert len(fake.requests) == 3  # understand spent the budget: no compose call for this question

    assert [kind(r) for r in fake.requests] == ["compose", "compose", "understand"]
    assert a1.answer == "可以用鸡胸肉代替手枪腿。"
    assert a2.answer == "干辣椒可以用二荆条代替。" and [f.id for f in a2.facts] == [sub_fact(follow).id]
    assert "二荆条" in fake.requests[1].text()  # the follow-up's evidence came from the remembered recipe
    assert a3.found and "鸡胸肉" in a3.answer
    assert fake.pending == 0


# ------------------------------------------------------------------ (b) invalid JSON


def test_invalid_json_on_every_try_falls_back_to_the_deterministic_answer(make_bot, fake, baseline):
    bot = make_bot(fake)
    tries = bot.settings.llm_max_retries + 1
    for _ in range(tries + 1):  # one more than allowed: it must stay unused
        fake.invalid_json()

    ans = ask(bot, Q)

    assert dump(ans) == dump(baseline["q"])
    assert len(fake.requests) == tries and fake.pending == 1
    assert all(kind(r) == "compose" for r in fake.requests)
    assert llm_calls(fake.requests) == 1


# ------------------------------------------------------------------ (c) ungrounded citations


def test_bad_fact_id_is_reasked_and_the_corrected_answer_cites_only_real_ids(make_bot, fake, baseline):
    base = baseline["q"]
    real = {f.id for f in base.facts}
    assert BAD_ID not in real
    fid = sub_fact(base).id
    fake.reply({"answer": "可以用龙肉代替手枪腿。", "found": True, "fact_ids": [BAD_ID], "passage_ids": []})
    fake.reply({"answer": "可以用鸡胸肉代替手枪腿。", "found": True, "fact_ids": [fid], "passage_ids": []})

    ans = ask(make_bot(fake), Q)

    assert len(fake.requests) == 2 and llm_calls(fake.requests) == 1
    reask = fake.requests[1]
    # the validation error goes back to the model (not just its own echoed reply): names the bad id, lists allowed ids
    feedback = [m for m in reask.messages[2:] if m.get("role") != "assistant"]
    fb_text = "\n".join(str(m.get("content")) for m in feedback)
    assert BAD_ID in fb_text and "not in the retrieved facts" in fb_text and fid in fb_text
    assert ans.answer == "可以用鸡胸肉代替手枪腿。"
    assert [f.id for f in ans.facts] == [fid]
    assert {f.id for f in ans.facts} <= real
    assert "龙肉" not in ans.answer


def test_bad_fact_id_on_every_try_falls_back_to_the_deterministic_answer(make_bot, fake, baseline):
    bot = make_bot(fake)
    tries = bot.settings.llm_max_retries + 1
    for _ in range(tries + 1):
        fake.reply({"answer": "可以用龙肉代替手枪腿。", "found": True, "fact_ids": [BAD_ID], "passage_ids": []})

    ans = ask(bot, Q)

    assert dump(ans) == dump(baseline["q"])
    assert "龙肉" not in ans.answer and BAD_ID not in [f.id for f in ans.facts]
    assert len(fake.requests) == tries and fake.pending == 1


# ------------------------------------------------------------------ (d) timeout


def test_timeout_falls_back_quickly(make_bot, fake, baseline):
    bot = make_bot(fake)
    ask(bot, "宫保鸡丁需要哪些原料？", thread="warm-up")  # open the client and the linker (the fake answers 500)
    fake.requests.clear()
    fake.sleep(3.0, then={"answer": "太迟了：可以用龙肉代替。", "found": True, "fact_ids": [sub_fact(baseline["q"]).id]})

    t0 = time.monotonic()
    ans = ask(bot, Q)
    elapsed = time.monotonic() - t0

    assert elapsed < 2.5, elapsed
    assert dump(ans) == dump(baseline["q"])
    assert len(fake.requests) == 1  # a timeout is not retried


# ------------------------------------------------------------------ (e) understand when the rules are unsure


def test_unsure_question_goes_to_understand_and_entities_are_linked(make_bot, fake, baseline):
    base = baseline["q"]
    fake.reply({"intent": "substitute", "language": "zh", "excluded": ["手枪腿"],
                "entities": [{"name": "宫保鸡丁", "type": "recipe"}, {"name": "手枪腿", "type": "ingredient"}]})

    ans = ask(make_bot(fake), UNSURE)

    assert len(fake.requests) == 1 and kind(fake.requests[0]) == "understand"
    assert UNSURE in fake.requests[0].text()
    assert ans.found and ans.intent == "substitute"
    ids = {e.name: e.id for e in ans.entities}
    assert ids["宫保鸡丁"] == "recipe:宫保鸡丁" and ids["手枪腿"] == "ingredient:手枪腿"
    # the same grounded, deterministic answer as the rule-parsed question (compose was not called)
    assert ans.answer == base.answer and [f.id for f in ans.facts] == [f.id for f in base.facts]
    assert ans.entities == base.entities  # linked once each, to the KB's ids


def test_lacked_item_given_only_as_excluded_is_the_item_to_replace(make_bot, fake, baseline):
    """The understand prompt tells the model to put what the user lacks (没有X) in
    ``excluded``; for a substitute question that is the item to replace."""
    base = baseline["q"]
    fake.reply({"intent": "substitute", "language": "zh", "excluded": ["手枪腿"],
                "entities": [{"name": "宫保鸡丁", "type": "recipe"}]})

    ans = ask(make_bot(fake), UNSURE)

    assert len(fake.requests) == 1 and kind(fake.requests[0]) == "understand"
    assert ans.found and ans.intent == "substitute"
    assert ans.answer == base.answer and [f.id for f in ans.facts] == [f.id for f in base.facts]
    assert ans.entities == base.entities  # linked once each, to the KB's ids


@pytest.mark.parametrize("name, typ", [("凤凰爪", "ingredient"), ("独角兽肉", "unknown")])
def test_invented_entity_stays_unknown_and_nothing_is_found(make_bot, fake, name, typ):
    question = f"宫保鸡丁里的{name}用完了咋整"  # rules: intent "general", not confident
    fake.reply({"intent": "substitute", "language": "zh", "excluded": [name],
                "entities": [{"name": "宫保鸡丁", "type": "recipe"}, {"name": name, "type": typ}]})

    ans = ask(make_bot(fake), question)

    assert len(fake.requests) == 1 and kind(fake.requests[0]) == "understand"
    invented = [e for e in ans.entities if e.name == name]
    assert invented and all(e.type == "unknown" and e.id is None for e in invented)
    assert next(e for e in ans.entities if e.name == "宫保鸡丁").id == "recipe:宫保鸡丁"
    assert ans.found is False
    assert ans.facts == []
    assert name in ans.answer
    assert "鸡胸肉" not in ans.answer and "代替。" not in ans.answer  # no substitute of another item offered


# ------------------------------------------------------------------ (f) the answer text stays grounded


def test_invented_ingredient_beside_a_real_citation_is_reasked_once_then_falls_back(make_bot, fake, baseline):
    """"…独角兽肉或三文鱼" next to one real citation (手枪腿 → 鸡胸肉): the names are
    not in the cited evidence, so the model is asked once more, then the
    deterministic answer is used."""
    base = baseline["q"]
    fid, pid = sub_fact(base).id, base.passages[0].id
    invented = {"answer": "宫保鸡丁里的手枪腿可以用鸡胸肉、独角兽肉或三文鱼代替。", "found": True,
                "fact_ids": [fid], "passage_ids": [pid]}
    bot = make_bot(fake)
    assert bot.settings.llm_max_retries == 1
    for _ in range(3):
        fake.reply(invented)

    ans = ask(bot, Q)

    assert dump(ans) == dump(base)
    assert "独角兽肉" not in ans.answer and "三文鱼" not in ans.answer
    assert len(fake.requests) == 2 and llm_calls(fake.requests) == 1 and fake.pending == 1
    feedback = "\n".join(str(m.get("content")) for m in fake.requests[1].messages[2:] if m.get("role") != "assistant")
    assert "独角兽肉" in feedback and "三文鱼" in feedback and "鸡胸肉" not in feedback.split("names")[1][:40]


def test_invented_ingredient_then_a_grounded_answer_keeps_the_grounded_one(make_bot, fake, baseline):
    base = baseline["q"]
    fid = sub_fact(base).id
    fake.reply({"answer": "可以用独角兽肉代替手枪腿。", "found": True, "fact_ids": [fid], "passage_ids": []})
    fake.reply({"answer": "可以用鸡胸肉代替手枪腿。", "found": True, "fact_ids": [fid], "passage_ids": []})

    ans = ask(make_bot(fake), Q)

    assert ans.answer == "可以用鸡胸肉代替手枪腿。" and [f.id for f in ans.facts] == [fid]
    assert len(fake.requests) == 2
    assert [c.doc for c in ans.sources] == [sub_fact(base).source.doc]  # the sources of what it cites


def test_invented_amount_is_not_grounded(make_bot, fake, baseline):
    """宫保鸡丁.md gives 手枪腿 "1 支（约 350g）"; 500g is nowhere in the evidence."""
    base = baseline["q"]
    fid = sub_fact(base).id
    for _ in range(2):
        fake.reply({"answer": "可以用 500g 鸡胸肉代替手枪腿。", "found": True, "fact_ids": [fid], "passage_ids": []})
    ans = ask(make_bot(fake), Q)
    assert dump(ans) == dump(base) and "500g" not in ans.answer


def test_invented_role_in_english_falls_back(make_bot, fake):
    q = "Who can stand in for the Incident Commander?"
    base = ask(make_bot(), q)
    assert base.found and "Deputy" in base.answer
    fid = base.facts[0].id
    for _ in range(2):
        fake.reply({"answer": "The Deputy, the Chief Astronaut or the Scribe can stand in.", "found": True,
                    "fact_ids": [fid], "passage_ids": []})
    ans = ask(make_bot(fake), q)
    assert ans.answer == base.answer and "Astronaut" not in ans.answer
    assert len(fake.requests) == 2


def test_overlong_answer_is_capped_at_a_sentence_end(make_bot, fake, baseline):
    base = baseline["q"]
    fid, pid = sub_fact(base).id, base.passages[0].id
    sentence = "没有手枪腿的话，宫保鸡丁可以改用鸡胸肉来做。"
    fake.reply({"answer": sentence * 120, "found": True, "fact_ids": [fid], "passage_ids": [pid]})
    bot = make_bot(fake)

    ans = ask(bot, Q)

    limit = bot.settings.llm_max_answer_chars
    assert len(sentence * 120) > 2 * limit
    assert len(fake.requests) == 1  # capped, not re-asked
    assert limit // 2 < len(ans.answer) <= limit
    assert ans.answer.startswith(sentence) and ans.answer.endswith("。")
    assert ans.answer == sentence * (len(ans.answer) // len(sentence))


def test_an_llm_answer_keeps_what_the_thread_constraints_did(make_bot, fake, baseline):
    fid = sub_fact(baseline["q"]).id
    fake.reply({"answer": "可以用鸡胸肉代替手枪腿。", "found": True, "fact_ids": [fid], "passage_ids": []})
    bot = make_bot(fake)
    ack = ask(bot, "我对花生过敏")
    assert ack.found and ack.intent == "constraint" and not fake.requests  # acknowledged without the LLM
    ans = ask(bot, Q)
    assert len(fake.requests) == 1 and kind(fake.requests[0]) == "compose"
    assert ans.answer.startswith("可以用鸡胸肉代替手枪腿。")
    assert "注意：宫保鸡丁用到熟花生、生花生（你对花生过敏）。" in ans.answer  # the LLM's wording dropped it: put back
