"""The LLM path (bot/llm.py) with the real openai + instructor clients against a
scripted OpenAI-compatible server on 127.0.0.1 (tests/fakes_openai.py).

Nothing of ours is mocked: the fake server stands in for the OpenAI API only.
"""

from __future__ import annotations

import logging
import time

import pytest

from fakes_openai import FakeOpenAI
from threadgraph.bot.answer import Fact, Passage, Source
from threadgraph.bot.llm import (
    LLMAnswer,
    LLMClient,
    LLMUnderstanding,
    format_fact,
    format_passage,
    ground,
)
from threadgraph.settings import Settings

pytestmark = pytest.mark.timeout(300)  # a hang guard; the first test also builds the session KB

KEY = "sk-test-ZQ9X-distinctive-7f3a1c"

FACTS = [
    Fact(id="f-0a1b2c3d4e5f6071", subject="麻婆豆腐", relation="SUBSTITUTES", object="郫县豆瓣酱",
         properties={"context": "麻婆豆腐", "substitute": "黄豆酱"}, source=Source(doc="dishes/麻婆豆腐.md", section="原料", line=12)),
    Fact(id="f-1122334455667788", subject="麻婆豆腐", relation="CONTAINS", object="豆腐",
         properties={"required": True, "amount": "400g"}, source=Source(doc="dishes/麻婆豆腐.md", section="原料", line=8)),
    Fact(id="f-99aabbccddeeff00", subject="麻婆豆腐", relation="CONTAINS", object="花椒",
         properties={"required": False}, source=Source(doc="dishes/麻婆豆腐.md", section="原料", line=10)),
]
PASSAGES = [
    Passage(id="p-mapo-0003", doc="dishes/麻婆豆腐.md", section="原料", text="郫县豆瓣酱 2 勺（没有可用黄豆酱代替）", score=0.92, line=12),
    Passage(id="p-mapo-0007", doc="dishes/麻婆豆腐.md", section="操作", text="豆腐切块，焯水后下锅。", score=0.41, line=20),
]
QUESTION = "麻婆豆腐没有豆瓣酱用什么代替？"
DRAFT = "麻婆豆腐里的郫县豆瓣酱可以用黄豆酱代替（dishes/麻婆豆腐.md:12）。"

GOOD = {
    "answer": "没有郫县豆瓣酱时，可以用黄豆酱代替。",
    "found": True,
    "fact_ids": ["f-0a1b2c3d4e5f6071"],
    "passage_ids": ["p-mapo-0003"],
}


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def make_client(fake: FakeOpenAI, **overrides) -> LLMClient:
    values = dict(openai_api_key=KEY, openai_base_url=fake.base_url, llm_model="fake-model",
                  llm_mode="MD_JSON", llm_timeout_s=0.5, llm_max_retries=1)
    values.update(overrides)
    return LLMClient(Settings(**values))


def compose(client: LLMClient, **kw):
    args = dict(question=QUESTION, language="zh", facts=FACTS, passages=PASSAGES, draft=DRAFT)
    args.update(kw)
    return client.compose(**args)


def warnings_of(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "threadgraph.llm" and r.levelno == logging.WARNING]


# ------------------------------------------------------------------ good output


def test_good_output_md_json_is_parsed_and_prompt_carries_the_context(fake):
    client = make_client(fake)
    fake.reply(GOOD)
    out = compose(client)

    assert isinstance(out, LLMAnswer)
    assert out.found is True
    assert out.fact_ids == ["f-0a1b2c3d4e5f6071"]
    assert out.passage_ids == ["p-mapo-0003"]
    assert out.answer == GOOD["answer"]
    assert client.calls == 1
    assert len(fake.requests) == 1

    req = fake.requests[0]
    assert req.path == "/v1/chat/completions"
    assert req.headers["authorization"] == f"Bearer {KEY}"
    assert req.body["model"] == "fake-model"
    assert "tools" not in req.body and "response_format" not in req.body  # MD_JSON asks nothing special
    prompt = req.text()
    # every fact and passage is offered in the documented line format, plus the draft
    for f in FACTS:
        assert format_fact(f) in prompt
    for p in PASSAGES:
        assert format_passage(p) in prompt
    assert "[f-0a1b2c3d4e5f6071] 麻婆豆腐 -SUBSTITUTES-> 郫县豆瓣酱 (context=麻婆豆腐, substitute=黄豆酱) (source dishes/麻婆豆腐.md:12)" in prompt
    assert "[p-mapo-0003] dishes/麻婆豆腐.md § 原料: 郫县豆瓣酱 2 勺" in prompt
    assert DRAFT in prompt
    assert "Never invent a substitute" in prompt
    assert "Chinese" in prompt


@pytest.mark.parametrize("mode, marker", [("TOOLS", "tools"), ("JSON", "response_format"), ("JSON_SCHEMA", "response_format")])
def test_other_modes_parse_against_the_fake(fake, mode, marker):
    client = make_client(fake, llm_mode=mode)
    fake.reply(GOOD)
    out = compose(client)
    assert out is not None and out.fact_ids == GOOD["fact_ids"]
    assert marker in fake.requests[0].body
    if mode == "TOOLS":
        assert fake.requests[0].body["tools"][0]["function"]["name"] == "LLMAnswer"


def test_ground_returns_cited_evidence_in_citation_order():
    ans = LLMAnswer(answer="x", found=True,
                    fact_ids=["f-99aabbccddeeff00", "[f-0a1b2c3d4e5f6071]", "f-99aabbccddeeff00"],
                    passage_ids=["p-mapo-0007", "p-unknown"])
    facts, passages = ground(ans, FACTS, PASSAGES)
    assert [f.id for f in facts] == ["f-99aabbccddeeff00", "f-0a1b2c3d4e5f6071"]
    assert [p.id for p in passages] == ["p-mapo-0007"]


# ------------------------------------------------------------------ invalid JSON


def test_invalid_json_then_valid_is_retried_and_accepted(fake):
    client = make_client(fake, llm_max_retries=1)
    fake.invalid_json().reply(GOOD)
    out = compose(client)
    assert out is not None and out.fact_ids == GOOD["fact_ids"]
    assert len(fake.requests) == 2
    assert client.calls == 1  # a re-ask is part of the same call
    # the re-ask carries the broken reply and asks for a correction
    reask = fake.requests[1].messages
    assert len(reask) == len(fake.requests[0].messages) + 2
    assert reask[-2]["role"] == "assistant" and "oops, cut off" in reask[-2]["content"]
    assert "Correct your JSON" in reask[-1]["content"]


@pytest.mark.parametrize("retries", [0, 2])
def test_invalid_json_every_time_gives_none_after_bounded_tries(fake, caplog, retries):
    client = make_client(fake, llm_max_retries=retries)
    for _ in range(retries + 3):  # more than allowed, to prove the bound
        fake.invalid_json()
    with caplog.at_level(logging.DEBUG):
        out = compose(client)
    assert out is None
    assert len(fake.requests) == retries + 1
    assert fake.pending == 2
    warns = warnings_of(caplog)
    assert len(warns) == 1
    assert f"attempts={retries + 1}" in warns[0].getMessage()


# ------------------------------------------------------------------ grounding validators


def test_nonexistent_fact_id_is_reasked_with_the_error_and_fixed(fake):
    client = make_client(fake)
    fake.reply({**GOOD, "fact_ids": ["f-0a1b2c3d4e5f6071", "f-deadbeefdeadbeef"]})
    fake.reply(GOOD)
    out = compose(client)

    assert out is not None
    assert out.fact_ids == ["f-0a1b2c3d4e5f6071"]
    assert len(fake.requests) == 2
    last = fake.requests[1].messages[-1]["content"]
    assert "f-deadbeefdeadbeef" in last and "not in the retrieved facts" in last
    for f in FACTS:  # the error lists the allowed ids so the model can fix it
        assert f.id in last
    facts, passages = ground(out, FACTS, PASSAGES)
    assert {f.id for f in facts} <= {f.id for f in FACTS}


def test_nonexistent_passage_id_in_tools_mode_reasks_through_a_tool_message(fake):
    client = make_client(fake, llm_mode="TOOLS")
    fake.reply({**GOOD, "passage_ids": ["p-made-up"]}).reply(GOOD)
    out = compose(client)
    assert out is not None and out.passage_ids == ["p-mapo-0003"]
    tool_msg = fake.requests[1].messages[-1]
    assert tool_msg["role"] == "tool"
    assert "p-made-up" in tool_msg["content"] and "p-mapo-0007" in tool_msg["content"]


def test_nonexistent_id_every_time_gives_none(fake):
    client = make_client(fake, llm_max_retries=1)
    bad = {**GOOD, "fact_ids": ["f-deadbeefdeadbeef"]}
    fake.reply(bad).reply(bad).reply(GOOD)
    assert compose(client) is None
    assert len(fake.requests) == 2


@pytest.mark.parametrize(
    "payload, fragment",
    [
        ({"answer": "  ", "found": False, "fact_ids": [], "passage_ids": []}, "must not be empty"),
        ({"answer": "可以用黄豆酱。", "found": True, "fact_ids": [], "passage_ids": []}, "no fact_ids or passage_ids"),
        ({"answer": "Use soybean paste.", "found": True, "fact_ids": ["f-0a1b2c3d4e5f6071"], "passage_ids": []}, "in Chinese"),
    ],
)
def test_other_rejections_are_reasked(fake, payload, fragment):
    client = make_client(fake)
    fake.reply(payload).reply(GOOD)
    out = compose(client)
    assert out is not None and out.answer == GOOD["answer"]
    assert fragment in fake.requests[1].messages[-1]["content"]


def test_validators_without_and_with_context():
    ctx = {"fact_ids": ["f-1"], "passage_ids": [], "language": "en"}
    # no context: only the shape rules apply
    assert LLMAnswer.model_validate({"answer": "ok", "found": True, "fact_ids": ["f-x"]}).fact_ids == ["f-x"]
    with pytest.raises(ValueError, match="allowed fact ids"):
        LLMAnswer.model_validate({"answer": "ok", "found": True, "fact_ids": ["f-x"]}, context=ctx)
    ok = LLMAnswer.model_validate({"answer": "Nothing in the KB says so.", "found": False}, context=ctx)
    assert ok.fact_ids == [] and ok.passage_ids == []


def test_no_evidence_answer_is_accepted_when_it_says_so(fake):
    client = make_client(fake)
    fake.reply({"answer": "知识库里没有关于这道菜的资料。", "found": False, "fact_ids": [], "passage_ids": []})
    out = compose(client, question="佛跳墙用什么代替鲍鱼？", facts=[], passages=[], draft="没有找到佛跳墙。")
    assert out is not None and out.found is False
    assert "Allowed fact ids: [] (none: cite nothing)" in fake.requests[0].text()


# ------------------------------------------------------------------ transport failures


def test_timeout_returns_none_quickly(fake, caplog):
    client = make_client(fake, llm_timeout_s=0.5, llm_max_retries=2)
    fake.sleep(3.0, then=GOOD)
    t0 = time.monotonic()
    with caplog.at_level(logging.WARNING):
        out = compose(client)
    elapsed = time.monotonic() - t0
    assert out is None
    assert elapsed < 1.5, elapsed
    assert len(fake.requests) == 1  # a timeout is not re-asked, and openai retries are off
    (warn,) = warnings_of(caplog)
    assert "APITimeoutError" in warn.getMessage()


@pytest.mark.parametrize("code", [500, 429, 503])
def test_http_error_status_returns_none_without_retry(fake, caplog, code):
    client = make_client(fake)
    fake.status(code).reply(GOOD)
    with caplog.at_level(logging.WARNING):
        out = compose(client)
    assert out is None
    assert len(fake.requests) == 1
    (warn,) = warnings_of(caplog)
    assert f"status={code}" in warn.getMessage()


def test_unreachable_server_returns_none(fake):
    url = fake.base_url
    fake.stop()
    client = LLMClient(Settings(openai_api_key=KEY, openai_base_url=url, llm_timeout_s=0.5))
    assert compose(client) is None


def test_api_key_never_logged(fake, caplog):
    """Even when the upstream error body echoes the key (as some servers do), no
    log record from us or the libraries we drive contains it."""
    client = make_client(fake, llm_max_retries=1)
    echo = {"error": {"message": f"Incorrect API key provided: {KEY}", "type": "invalid_request_error",
                      "param": None, "code": "invalid_api_key"}}
    fake.status(401, echo)
    fake.status(500)
    fake.invalid_json().invalid_json()
    fake.sleep(2.0)
    fake.reply(GOOD)
    with caplog.at_level(logging.DEBUG):
        results = [compose(client) for _ in range(5)]
    assert results[:4] == [None, None, None, None] and results[4] is not None
    assert all(r.headers.get("authorization") == f"Bearer {KEY}" for r in fake.requests)  # the key was really used
    assert len(warnings_of(caplog)) == 4
    assert any("status=401" in r.getMessage() for r in warnings_of(caplog))
    for record in caplog.records:
        assert KEY not in record.getMessage(), (record.name, record.getMessage())
    assert KEY not in caplog.text


# ------------------------------------------------------------------ understand


def test_understand_chinese_question(fake):
    client = make_client(fake)
    fake.reply({
        "intent": "substitute",
        "entities": [{"name": "麻婆豆腐", "type": "recipe"}, {"name": "郫县豆瓣酱", "type": "ingredient"}],
        "excluded": ["郫县豆瓣酱"],
        "language": "zh",
    })
    out = client.understand("那麻婆豆腐呢？没有豆瓣酱怎么办", history=["番茄炒蛋需要哪些原料？", "番茄、鸡蛋……"],
                            known_entities=["麻婆豆腐", "郫县豆瓣酱", "番茄炒蛋"])
    assert isinstance(out, LLMUnderstanding)
    assert out.intent == "substitute" and out.language == "zh"
    assert [(e.name, e.type) for e in out.entities] == [("麻婆豆腐", "recipe"), ("郫县豆瓣酱", "ingredient")]
    assert out.excluded == ["郫县豆瓣酱"]
    prompt = fake.requests[0].text()
    assert "那麻婆豆腐呢？没有豆瓣酱怎么办" in prompt
    assert "- 番茄炒蛋需要哪些原料？" in prompt  # history
    assert "麻婆豆腐、郫县豆瓣酱、番茄炒蛋" in prompt  # known names
    assert "used_in" in prompt  # the intent list is explained


def test_understand_normalises_loose_output_and_rejects_unknown_intent(fake):
    client = make_client(fake, llm_mode="TOOLS")
    fake.reply({"intent": "dance", "entities": [], "excluded": [], "language": "en"})
    fake.reply({"intent": "Used-In", "entities": [{"name": " garlic ", "type": "vegetable"}], "language": "en-US"})
    out = client.understand("which recipes use garlic?")
    assert out is not None
    assert out.intent == "used_in" and out.language == "en"
    assert [(e.name, e.type) for e in out.entities] == [("garlic", "unknown")]
    assert "intent" in fake.requests[1].messages[-1]["content"]  # the bad intent was re-asked


def test_understand_failure_returns_none(fake):
    client = make_client(fake)
    fake.status(500)
    assert client.understand("What are the steps for a P1 incident?") is None


# ------------------------------------------------------------------ budget and config


def test_per_question_budget_allows_one_call_by_default(fake):
    client = make_client(fake)
    fake.reply({"intent": "substitute", "entities": [], "excluded": [], "language": "zh"}).reply(GOOD)
    budget = client.new_budget()
    assert client.understand(QUESTION, budget=budget) is not None
    assert compose(client, budget=budget) is None  # spent: no request made
    assert len(fake.requests) == 1 and client.calls == 1
    assert compose(client, budget=client.new_budget()) is not None  # next question
    assert client.calls == 2


def test_budget_follows_llm_max_calls(fake):
    client = make_client(fake, llm_max_calls=2)
    fake.reply({"intent": "contains", "entities": [], "excluded": [], "language": "zh"}).reply(GOOD)
    budget = client.new_budget()
    assert client.understand(QUESTION, budget=budget) is not None
    assert compose(client, budget=budget) is not None
    assert budget.remaining == 0


def test_configuration_errors():
    with pytest.raises(ValueError, match="THREADGRAPH_LLM_MODE"):
        LLMClient(Settings(openai_api_key=KEY, openai_base_url="http://127.0.0.1:9/v1", llm_mode="NOPE"))
    with pytest.raises(RuntimeError):
        LLMClient(Settings(openai_api_key=None, openai_base_url="http://127.0.0.1:9/v1"))


# ------------------------------------------------------------------ JSON in prose or fences (issue 14)

_WRAPPINGS = {
    "prose": "Sure! Here is the answer you asked for: {json} I hope this helps.",
    "fence": "```json\n{json}\n```",
    "prose+fence": "Here is the result:\n```json\n{json}\n```\nLet me know if you need anything else.",
    "bare fence": "```\n{json}\n```",
}


@pytest.mark.parametrize("wrapping", sorted(_WRAPPINGS))
@pytest.mark.parametrize("mode", ["TOOLS", "JSON", "JSON_SCHEMA", "MD_JSON"])
def test_json_in_prose_or_fences_is_accepted_in_every_mode(fake, mode, wrapping):
    """graphrag#804: JSON and JSON_SCHEMA threw away an answer wrapped in prose or a fence,
    after a wasted re-ask (servers that ignore response_format do that)."""
    import json as _json

    client = make_client(fake, llm_mode=mode, llm_max_retries=1)
    fake.reply_text(_WRAPPINGS[wrapping].format(json=_json.dumps(GOOD, ensure_ascii=False)))
    out = compose(client)
    assert out is not None and out.answer == GOOD["answer"] and out.fact_ids == ["f-0a1b2c3d4e5f6071"]
    assert len(fake.requests) == 1  # accepted at once: no re-ask


def test_prose_without_json_is_still_reasked(fake):
    client = make_client(fake, llm_mode="JSON", llm_max_retries=1)
    fake.reply_text("I cannot answer that in JSON, sorry.").reply(GOOD)
    out = compose(client)
    assert out is not None and out.fact_ids == ["f-0a1b2c3d4e5f6071"] and len(fake.requests) == 2


def test_huge_llm_answer_is_capped(fake):
    """A 200,000-character LLM answer went through whole (66 Telegram messages)."""
    from threadgraph.bot.llm_schema import MAX_ANSWER_CHARS

    huge = ("没有郫县豆瓣酱时，可以用黄豆酱代替。" * 12_000)[:200_000]
    client = make_client(fake)
    fake.reply({**GOOD, "answer": huge})
    out = compose(client)
    assert MAX_ANSWER_CHARS == 4000
    assert out is not None and len(out.answer) <= 4000 and out.answer.endswith("。")  # cut at a sentence end
    assert out.answer.startswith("没有郫县豆瓣酱时，可以用黄豆酱代替。")
    assert len(fake.requests) == 1


@pytest.mark.parametrize("mode", ["TOOLS", "JSON", "JSON_SCHEMA"])
def test_understand_reads_json_in_prose_too(fake, mode):
    client = make_client(fake, llm_mode=mode)
    fake.reply_text('Of course. ```json\n{"intent": "used_in", "entities": [{"name": "garlic", "type": "ingredient"}], '
                    '"excluded": [], "language": "en"}\n``` Anything else?')
    out = client.understand("which recipes use garlic?")
    assert out is not None and out.intent == "used_in" and [e.name for e in out.entities] == ["garlic"]
    assert len(fake.requests) == 1
