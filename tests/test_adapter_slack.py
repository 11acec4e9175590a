"""Slack adapter end to end: the real slack-bolt App and slack-sdk WebClient against a fake Slack
Web API on 127.0.0.1, fed with signed Events API requests."""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request

import pytest
from pydantic import SecretStr
from slack_bolt import App
from slack_bolt.request import BoltRequest
from slack_sdk import WebClient

from fakes_platform import FakeSlack, slack_event_body, slack_headers
from standin_bot import derive_bot
from threadgraph.adapters import slack as tg_slack
from threadgraph.adapters.slack import render_answer, unescape
from threadgraph.bot.answer import Answer, Fact, Source
from threadgraph.bot.message import ThreadKey

SECRET = "test-signing-secret"
pytestmark = pytest.mark.timeout(300)  # a hang guard; the first test also builds the session KB


from conftest import FOLLOW, Q  # noqa: E402  (shared questions; `core` fixture in conftest)


@pytest.fixture
def fake():
    with FakeSlack() as server:
        yield server


@pytest.fixture
def settings(core, fake, tmp_path):
    return core.settings.model_copy(update={
        "slack_bot_token": SecretStr("xoxb-test-token"),
        "slack_signing_secret": SecretStr(SECRET),
        "slack_api_url": fake.url,
        "slack_app_token": None,
        "data_dir": tmp_path / "slack-data",
    })


class Harness:
    """An app plus helpers to deliver signed events and wait for the answers."""

    def __init__(self, app: App, fake: FakeSlack):
        self.app, self.fake = app, fake
        self.adapter = app.threadgraph_adapter
        self._n = 0

    def deliver(self, event: dict, event_id: str | None = None, retry_num: int | None = None, bad: bool = False):
        self._n += 1
        body = slack_event_body(event, event_id or f"Ev{self._n:04d}")
        resp = self.app.dispatch(BoltRequest(body=body, headers=slack_headers(SECRET, body, retry_num, bad)))
        assert self.adapter.wait_idle(10)
        return resp

    def replies(self) -> list[dict]:
        """Final reply messages: chat.update calls plus chat.postMessage calls that carry blocks."""
        return self.fake.calls_to("chat.update") + [p for p in self.fake.calls_to("chat.postMessage") if p.get("blocks")]


def mention(text: str, ts: str, channel: str = "C0001", thread_ts: str | None = None, user: str = "U0001") -> dict:
    ev = {"type": "app_mention", "user": user, "text": f"<@{FakeSlack.BOT_USER}> {text}", "ts": ts,
          "channel": channel, "team": FakeSlack.TEAM, "event_ts": ts}
    if thread_ts:
        ev["thread_ts"] = thread_ts
    return ev


def message(text: str, ts: str, channel: str = "C0001", thread_ts: str | None = None, channel_type: str = "channel",
            user: str = "U0001", **extra) -> dict:
    ev = {"type": "message", "user": user, "text": text, "ts": ts, "channel": channel, "channel_type": channel_type,
          "team": FakeSlack.TEAM, "event_ts": ts, **extra}
    if thread_ts:
        ev["thread_ts"] = thread_ts
    return ev


def section_texts(blocks: list[dict]) -> list[str]:
    return [b["text"]["text"] for b in blocks if b["type"] == "section"]


def reply_text(update: dict) -> str:
    return unescape("\n".join(section_texts(update["blocks"])))


def test_mention_answered_in_thread_and_follow_up_keeps_thread(core, fake, settings):
    seen: list = []
    h = Harness(tg_slack.create_app(derive_bot(core, seen=seen), settings), fake)
    resp = h.deliver(mention(Q, ts="1710000000.000100"))
    assert resp.status == 200
    placeholder = fake.calls_to("chat.postMessage")[0]
    assert placeholder["channel"] == "C0001" and placeholder["thread_ts"] == "1710000000.000100"
    update = fake.wait_for("chat.update")[0]
    assert update["channel"] == "C0001"
    blocks = update["blocks"]
    assert blocks[0]["type"] == "section" and "鸡胸肉" in reply_text(update)  # the KB's substitute arrived
    assert "鸡胸肉" in unescape(update["text"])  # also in the notification text
    assert blocks[-1]["type"] == "actions"
    key = ThreadKey(platform="slack", workspace=FakeSlack.TEAM, channel="C0001", thread="1710000000.000100")
    assert seen[0].thread == key
    assert seen[0].text == Q  # mention stripped

    # a follow-up in the thread without a new mention is answered, in the same thread, from its memory
    h.deliver(message(FOLLOW, ts="1710000001.000200", thread_ts="1710000000.000100"))
    assert len(seen) == 2 and seen[1].thread == key and seen[1].text == FOLLOW
    posts = fake.calls_to("chat.postMessage")
    assert len(posts) == 2 and posts[1]["thread_ts"] == "1710000000.000100"
    updates = fake.wait_for("chat.update", 2)
    assert "二荆条" in reply_text(updates[1])  # 宫保鸡丁 remembered: 干辣椒 → 二荆条

    # the same follow-up opening another thread has no memory to lean on
    h.deliver(mention(FOLLOW, ts="1710000001.000900"))
    third = fake.wait_for("chat.update", 3)[2]
    assert len(seen) == 3 and seen[2].thread.thread == "1710000001.000900"
    assert "可以用二荆条代替" not in reply_text(third)  # no remembered 宫保鸡丁 substitution in a new thread

    # a message in some other thread without a mention is not answered
    h.deliver(message("random chatter", ts="1710000002.000300", thread_ts="1710000099.000001"))
    # nor is a top-level channel message without a mention
    h.deliver(message("hello all", ts="1710000003.000400"))
    assert len(seen) == 3


def test_follow_threads_can_be_disabled(core, fake, settings):
    seen: list = []
    s = settings.model_copy(update={"slack_follow_threads": False})
    h = Harness(tg_slack.create_app(derive_bot(core, seen=seen), s), fake)
    h.deliver(mention(Q, ts="1710000000.000100"))
    h.deliver(message("还有呢?", ts="1710000001.000200", thread_ts="1710000000.000100"))
    assert len(seen) == 1


def test_dm_answered_and_bots_ignored(core, fake, settings):
    seen: list = []
    h = Harness(tg_slack.create_app(derive_bot(core, seen=seen), settings), fake)
    h.deliver(message("花生可以用什么代替?", ts="1710000010.000100", channel="D0001", channel_type="im"))
    assert len(seen) == 1
    assert seen[0].thread == ThreadKey(platform="slack", workspace=FakeSlack.TEAM, channel="D0001",
                                       thread="1710000010.000100")
    assert fake.calls_to("chat.update")[0]["channel"] == "D0001"
    # another bot, a bot_message subtype, and our own user are all ignored
    h.deliver(message("I am a bot", ts="1710000011.000100", channel="D0001", channel_type="im", bot_id="B999"))
    h.deliver(message("legacy bot", ts="1710000012.000100", channel="D0001", channel_type="im",
                      subtype="bot_message"))
    h.deliver(message("echo", ts="1710000013.000100", channel="D0001", channel_type="im", user=FakeSlack.BOT_USER))
    h.deliver(message("edited", ts="1710000014.000100", channel="D0001", channel_type="im",
                      subtype="message_changed"))
    assert len(seen) == 1


def test_retried_delivery_answered_once(core, fake, settings):
    seen: list = []
    h = Harness(tg_slack.create_app(derive_bot(core, seen=seen), settings), fake)
    ev = mention(Q, ts="1710000020.000100")
    assert h.deliver(ev, event_id="EvRETRY1").status == 200
    assert h.deliver(ev, event_id="EvRETRY1", retry_num=1).status == 200
    assert h.deliver(ev, event_id="EvRETRY1", retry_num=2).status == 200
    # the same message also delivered as a message.channels event (different event id) is answered once
    h.deliver(message(ev["text"], ts=ev["ts"]), event_id="EvOTHER")
    assert len(seen) == 1
    assert len(fake.calls_to("chat.postMessage")) == 1
    assert len(fake.calls_to("chat.update")) == 1


def test_bad_signature_rejected(core, fake, settings):
    seen: list = []
    h = Harness(tg_slack.create_app(derive_bot(core, seen=seen), settings), fake)
    resp = h.deliver(mention(Q, ts="1710000030.000100"), bad=True)
    assert resp.status == 401
    time.sleep(0.1)
    assert seen == [] and fake.calls_to("chat.postMessage") == []


def test_long_answer_split_into_sections(core, fake, settings):
    paragraph = "宫保鸡丁的花生可以换成腰果 & <b>杏仁</b>。" * 10  # ~260 chars
    long_text = "\n\n".join(f"{i:03d} {paragraph}" for i in range(40))
    assert len(long_text) > 10_000

    def longer(answer: Answer) -> Answer:
        return answer.model_copy(update={"answer": long_text})

    h = Harness(tg_slack.create_app(derive_bot(core, after=longer), settings), fake)
    h.deliver(mention(Q, ts="1710000040.000100"))
    replies = h.replies()
    sections = [t for r in replies for t in section_texts(r["blocks"])]
    assert len(sections) >= 4
    assert all(len(t) <= 3000 for t in sections)
    assert all(len(r["blocks"]) <= 50 for r in replies)
    # every paragraph arrives whole and in order, nothing lost
    joined = "\n\n".join(unescape(t) for t in sections)
    assert joined == long_text
    assert "<b>" not in "".join(sections) and "&lt;b&gt;" in sections[0]


def test_special_characters_survive(core, fake, settings):
    tricky = "用 <b>腰果</b> & *花生* _酱_ 🥜🌶️ 代替; a<b & c>d **bold**"
    seen: list = []
    h = Harness(tg_slack.create_app(derive_bot(core, seen=seen,
                                               after=lambda a: a.model_copy(update={"answer": tricky})), settings), fake)
    # Slack escapes &, <, > in incoming text; the core gets the original characters back
    incoming = "宫保鸡丁 &lt;b&gt;花生&lt;/b&gt; &amp; *辣椒* _酱_ 🥜?"
    h.deliver(mention(incoming, ts="1710000050.000100"))
    assert seen[0].text == "宫保鸡丁 <b>花生</b> & *辣椒* _酱_ 🥜?"
    update = fake.wait_for("chat.update")[0]
    text = section_texts(update["blocks"])[0]
    assert "<" not in text and ">" not in text
    assert unescape(text) == tricky
    assert unescape(update["text"]) == tricky


def test_core_exception_gives_apology_and_next_message_answered(core, fake, settings):
    calls = {"n": 0}

    def explode_once(message):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("kaboom in the core")

    h = Harness(tg_slack.create_app(derive_bot(core, before=explode_once), settings), fake)
    h.deliver(mention(Q, ts="1710000060.000100"))
    first = fake.wait_for("chat.update")[0]
    assert "Sorry" in first["text"]
    h.deliver(mention(Q, ts="1710000061.000100"))
    second = fake.wait_for("chat.update", 2)[1]
    assert "Sorry" not in second["text"] and second["blocks"][-1]["type"] == "actions"
    assert "鸡胸肉" in reply_text(second)  # the real core answered the next message


def test_channel_allowlist(core, fake, settings):
    seen: list = []
    s = settings.model_copy(update={"slack_channel_allowlist": ["CALLOWED"]})
    h = Harness(tg_slack.create_app(derive_bot(core, seen=seen), s), fake)
    resp = h.deliver(mention(Q, ts="1710000070.000100", channel="CBLOCKED"))
    assert resp.status == 200
    assert seen == [] and fake.calls_to("chat.postMessage") == []
    h.deliver(mention(Q, ts="1710000071.000100", channel="CALLOWED"))
    assert len(seen) == 1 and fake.calls_to("chat.postMessage")[0]["channel"] == "CALLOWED"


def test_vote_buttons_store_feedback_with_answer(core, fake, settings):
    h = Harness(tg_slack.create_app(core, settings), fake)
    h.deliver(mention(Q, ts="1710000080.000100"))
    update = fake.wait_for("chat.update")[0]
    actions = update["blocks"][-1]
    assert [e["action_id"] for e in actions["elements"]] == ["threadgraph_sources", "threadgraph_vote_up",
                                                             "threadgraph_vote_down"]
    up = actions["elements"][1]
    answer_id = up["value"]
    payload = {"type": "block_actions", "team": {"id": FakeSlack.TEAM}, "user": {"id": "U0042"},
               "api_app_id": "A0001", "token": "legacy", "trigger_id": "1.2.3",
               "channel": {"id": "C0001"}, "container": {"type": "message"},
               "message": {"ts": update["ts"], "thread_ts": "1710000080.000100", "text": "x"},
               "actions": [{**up, "block_id": "threadgraph_vote", "type": "button",
                            "action_ts": "1710000081.0"}]}
    body = "payload=" + urllib.parse.quote(json.dumps(payload))
    headers = slack_headers(SECRET, body)
    headers["content-type"] = "application/x-www-form-urlencoded"
    resp = h.app.dispatch(BoltRequest(body=body, headers=headers))
    assert resp.status == 200
    votes = h.adapter.feedback.votes()
    assert len(votes) == 1
    v = votes[0]
    assert v["vote"] == 1 and v["user"] == "U0042" and v["answer_id"] == answer_id
    assert v["thread"] == f"slack/{FakeSlack.TEAM}/C0001/1710000080.000100"
    assert v["answer"]["question"] == Q and "鸡胸肉" in v["answer"]["answer"]  # the answer voted on is stored
    assert any(f["object"] == "鸡胸肉" for f in v["answer"]["facts"])


def test_mounted_on_existing_app_keeps_its_handlers(core, fake, settings):
    team_events: list = []
    mw_calls: list = []
    app = App(client=WebClient(token="xoxb-team", base_url=fake.url), signing_secret=SECRET,
              process_before_response=True)

    @app.middleware
    def team_middleware(body, next):
        mw_calls.append(body.get("event_id"))
        return next()

    @app.event("app_mention")
    def team_mention(event, ack):
        ack()
        team_events.append(("team_mention", event["ts"]))

    seen: list = []
    tg_slack.install(app, derive_bot(core, seen=seen), settings)

    @app.event("reaction_added")  # registered after install: must still run
    def team_reaction(event):
        team_events.append(("team_reaction", event["reaction"]))

    @app.event("message")  # registered after install: must still run
    def team_message(event):
        team_events.append(("team_message", event["ts"]))

    h = Harness(app, fake)
    assert h.deliver(mention(Q, ts="1710000090.000100")).status == 200
    assert ("team_mention", "1710000090.000100") in team_events
    assert len(seen) == 1 and fake.wait_for("chat.update")[0]["channel"] == "C0001"
    h.deliver({"type": "reaction_added", "user": "U1", "reaction": "tada", "item": {"type": "message"},
               "event_ts": "1710000091.0"})
    assert ("team_reaction", "tada") in team_events
    h.deliver(message("hello team", ts="1710000092.000100"))
    assert ("team_message", "1710000092.000100") in team_events
    assert len(mw_calls) == 3 and len(seen) == 1


def test_render_splits_over_messages_at_50_blocks():
    facts = [Fact(id=f"f-{i:016x}", subject=f"原料{i} <&>", relation="SUBSTITUTES", object=f"替代{i}" + "x" * 400,
                  source=Source(doc=f"dishes/d{i}.md", line=i + 1)) for i in range(400)]
    text = "\n\n".join("段落" * 1400 for _ in range(4))  # 11,206 characters: under the 12,000 cap
    answer = Answer(thread="t", question="q", intent="substitution", found=True, answer=text, facts=facts)
    messages = render_answer(answer, "abc123")
    assert len(messages) >= 2
    for m in messages:
        assert 1 <= len(m["blocks"]) <= 50
        assert len(m["text"]) <= 3000
        for b in m["blocks"]:
            if b["type"] == "section":
                assert len(b["text"]["text"]) <= 3000
            if b["type"] == "context":
                assert len(b["elements"]) <= 10 and all(len(e["text"]) <= 3000 for e in b["elements"])
    all_blocks = [b for m in messages for b in m["blocks"]]
    assert all_blocks[-1]["type"] == "actions"  # buttons once, at the very end
    assert sum(b["type"] == "actions" for b in all_blocks) == 1
    assert "".join(b["text"]["text"] for b in all_blocks if b["type"] == "section") == text.replace("\n\n", "")
    # answer first: the 400 facts are not in the reply, they are behind the "Sources" button
    assert all_blocks[-1]["elements"][0]["action_id"] == "threadgraph_sources"
    context_text = "\n".join(e["text"] for b in all_blocks if b["type"] == "context" for e in b["elements"])
    assert "原料0" not in context_text


def test_sources_button_posts_the_full_evidence_to_the_user(core, fake, settings):
    h = Harness(tg_slack.create_app(core, settings), fake)
    h.deliver(mention(Q, ts="1710000085.000100"))
    update = fake.wait_for("chat.update")[0]
    assert reply_text(update).startswith("做宫保鸡丁时，手枪腿可以用鸡胸肉代替。")  # answer first
    context = [e["text"] for b in update["blocks"] if b["type"] == "context" for e in b["elements"]]
    assert context[0] == "📄 宫保鸡丁 › 必备原料和工具 (第 11 行)"  # at most three short human sources
    button = update["blocks"][-1]["elements"][0]
    assert button["action_id"] == "threadgraph_sources"
    payload = {"type": "block_actions", "team": {"id": FakeSlack.TEAM}, "user": {"id": "U0042"},
               "api_app_id": "A0001", "token": "legacy", "trigger_id": "1.2.4",
               "channel": {"id": "C0001"}, "container": {"type": "message"},
               "message": {"ts": update["ts"], "thread_ts": "1710000085.000100", "text": "x"},
               "actions": [{**button, "block_id": "threadgraph_vote", "type": "button", "action_ts": "1710000086.0"}]}
    body = "payload=" + urllib.parse.quote(json.dumps(payload))
    headers = slack_headers(SECRET, body)
    headers["content-type"] = "application/x-www-form-urlencoded"
    assert h.app.dispatch(BoltRequest(body=body, headers=headers)).status == 200
    post = fake.wait_for("chat.postEphemeral")[0]
    assert post["user"] == "U0042" and post["channel"] == "C0001" and post["thread_ts"] == "1710000085.000100"
    blocks = post["blocks"] if isinstance(post["blocks"], list) else json.loads(post["blocks"])
    evidence = unescape("\n".join(section_texts(blocks)))
    assert evidence.startswith("*Sources and evidence*") is False and "来源与证据" in evidence
    assert "手枪腿 可以用 鸡胸肉 代替（宫保鸡丁）" in evidence


def _http_post(url: str, body: str, headers: dict) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, data=body.encode(), method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_http_events_endpoint_via_serve(core, fake, settings):
    from fakes_platform import RunningServe

    seen: list = []
    s = settings.model_copy(update={"telegram_bot_token": None})
    with RunningServe(derive_bot(core, seen=seen), s, ("slack",), role="http") as running:
        url = f"http://127.0.0.1:{running.server.port}/slack/events"
        challenge = json.dumps({"token": "legacy", "challenge": "abc123", "type": "url_verification"})
        status, text = _http_post(url, challenge, slack_headers(SECRET, challenge))
        assert status == 200 and "abc123" in text
        body = slack_event_body(mention(Q, ts="1710000100.000100"), "EvHTTP1")
        status, _ = _http_post(url, body, slack_headers(SECRET, body, bad=True))
        assert status == 401
        t0 = time.monotonic()
        status, _ = _http_post(url, body, slack_headers(SECRET, body))
        assert status == 200 and time.monotonic() - t0 < 3.0  # acknowledged within Slack's 3 s
        status, _ = _http_post(url, body, slack_headers(SECRET, body, retry_num=1))
        assert status == 200
        update = fake.wait_for("chat.update")[0]
        assert update["channel"] == "C0001" and "鸡胸肉" in reply_text(update)
    assert len(seen) == 1 and seen[0].thread.thread == "1710000100.000100"
    assert len(fake.calls_to("chat.update")) == 1


def test_serve_plan_splits_web_and_worker(settings):
    from threadgraph.adapters.serve import plan

    both = settings.model_copy(update={"telegram_bot_token": SecretStr("1:x"), "slack_app_token": SecretStr("xapp-1")})
    assert (plan(both, ("all",), "worker").slack, plan(both, ("all",), "worker").telegram) == ("socket", "polling")
    assert plan(both, ("all",), "http").empty
    hooked = settings.model_copy(update={"telegram_bot_token": SecretStr("1:x"),
                                         "telegram_webhook_url": "https://x.example/tg",
                                         "telegram_webhook_secret": SecretStr("s3cret-token")})
    web, worker = plan(hooked, ("all",), "http"), plan(hooked, ("all",), "worker")
    assert (web.slack, web.telegram) == ("http", "webhook") and worker.empty
    with pytest.raises(ValueError):
        plan(settings.model_copy(update={"slack_bot_token": None}), ("slack",), "all")
    with pytest.raises(ValueError):
        plan(settings, ("discord",), "all")


# ---------------------------------------------------------------------------------------------
# Delivery faults (issue 14): each against the strict fake, which refuses what Slack refuses.


def test_long_answer_placeholder_becomes_first_part_rest_in_thread(core, fake, settings):
    """onyx#1007: a ~12k-character answer went out as ONE chat.update that Slack refuses
    (msg_blocks_too_long), leaving "thinking…" forever."""
    paragraph = "宫保鸡丁的花生可以换成腰果。" * 20  # 280 chars
    long_text = "\n\n".join(f"{i:03d} {paragraph}" for i in range(41))  # 11,724 chars: under the answer cap
    assert len(long_text) == 11_724
    h = Harness(tg_slack.create_app(derive_bot(core, after=lambda a: a.model_copy(update={"answer": long_text})),
                                    settings), fake)
    h.deliver(mention(Q, ts="1710000200.000100"))
    assert fake.rejections == []
    placeholder = fake.calls_to("chat.postMessage")[0]
    assert placeholder["text"] == tg_slack.PLACEHOLDER_TEXT
    updates = fake.calls_to("chat.update")
    assert len(updates) == 1 and section_texts(updates[0]["blocks"])[0].startswith("000 ")
    rest = fake.calls_to("chat.postMessage")[1:]
    assert len(rest) >= 1 and all(p["thread_ts"] == "1710000200.000100" for p in rest)
    sections = [t for r in updates + rest for t in section_texts(r["blocks"])]
    assert "\n\n".join(unescape(t) for t in sections) == long_text  # nothing lost, in order
    assert rest[-1]["blocks"][-1]["type"] == "actions"  # the vote buttons end the last part


@pytest.mark.parametrize("mode", ["plugin", "standalone"])
def test_rate_limited_reply_is_waited_out(core, fake, settings, mode):
    """anything-llm#5447: mounted with install() on the team's App, a 429 on the reply dropped
    the answer at once (only the standalone client retried)."""
    if mode == "plugin":
        app = App(client=WebClient(token="xoxb-team", base_url=fake.url), signing_secret=SECRET,
                  process_before_response=True)
        tg_slack.install(app, core, settings)
    else:
        app = tg_slack.create_app(core, settings)
    fake.fail_with_429("chat.update", retry_after=1)
    fake.fail_with_429("chat.postMessage", retry_after=1)  # the placeholder too
    h = Harness(app, fake)
    body = slack_event_body(mention(Q, ts="1710000300.000100"), "EvRATE1")
    assert app.dispatch(BoltRequest(body=body, headers=slack_headers(SECRET, body))).status == 200
    update = fake.wait_for("chat.update", 1, timeout=20)[0]
    assert h.adapter.wait_idle(20)
    assert "鸡胸肉" in reply_text(update)
    methods = [m for m, _ in fake.calls if m.startswith("chat.")]
    assert methods == ["chat.postMessage!failed", "chat.postMessage", "chat.update!failed", "chat.update"]


def test_failed_delivery_replaces_the_placeholder_with_an_apology(core, fake, settings):
    h = Harness(tg_slack.create_app(core, settings), fake)
    with fake.lock:
        fake.fail_next["chat.update"] = [(200, {"ok": False, "error": "internal_error"})]
    h.deliver(mention(Q, ts="1710000310.000100"))
    updates = fake.calls_to("chat.update")
    assert len(updates) == 1 and "Sorry" in updates[0]["text"]  # not left at "thinking…"


MARKER = "SECRET-USER-TEXT-7d1f"


def _records_text(caplog) -> str:
    return "\n".join(f"{r.name} {r.getMessage()} {r.exc_text or ''}" for r in caplog.records)


def test_malformed_or_unsigned_bodies_get_400_401_without_traceback_or_body_in_log(core, fake, settings, caplog):
    """The body used to be parsed before the signature check: malformed JSON gave 500 with a
    traceback; and Bolt logged the body of every rejected request."""
    import logging

    from fakes_platform import RunningServe

    caplog.set_level(logging.DEBUG)
    s = settings.model_copy(update={"telegram_bot_token": None})
    with RunningServe(core, s, ("slack",), role="http") as running:
        url = f"http://127.0.0.1:{running.server.port}/slack/events"
        broken = '{"type": "event_callback", "event": {"text": "' + MARKER + '"'  # cut off
        assert _http_post(url, broken, slack_headers(SECRET, broken))[0] == 400
        assert _http_post(url, broken, {"content-type": "application/json"})[0] == 401  # unsigned
        assert _http_post(url, broken, slack_headers(SECRET, broken, bad=True))[0] == 401
        form = "payload=%7Bnot-json" + MARKER
        headers = slack_headers(SECRET, form)
        headers["content-type"] = "application/x-www-form-urlencoded"
        assert _http_post(url, form, headers)[0] == 400
        body = slack_event_body(mention(MARKER, ts="1710000400.000100"), "EvBAD")
        assert _http_post(url, body, slack_headers(SECRET, body, bad=True))[0] == 401
        req = urllib.request.Request(url, data=b"\xff\xfe" + MARKER.encode(), method="POST")
        for k, v in slack_headers(SECRET, "").items():
            req.add_header(k, v)
        assert _http_status(req) == 401  # signature over other bytes
    logged = _records_text(caplog)
    assert MARKER not in logged
    assert not [r for r in caplog.records if r.exc_info], "a rejected request logged a traceback"
    assert fake.calls_to("chat.postMessage") == []


def test_plugin_mode_bolt_never_logs_a_rejected_body(core, fake, settings, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    app = App(client=WebClient(token="xoxb-team", base_url=fake.url), signing_secret=SECRET,
              process_before_response=True)
    tg_slack.install(app, core, settings)
    body = slack_event_body(mention(MARKER, ts="1710000500.000100"), "EvBAD2")
    resp = app.dispatch(BoltRequest(body=body, headers=slack_headers(SECRET, body, bad=True)))
    assert resp.status == 401
    assert any("Invalid request signature" in r.getMessage() for r in caplog.records)
    assert MARKER not in _records_text(caplog)


def test_no_startup_warning_about_client_and_token(core, fake, settings, caplog, monkeypatch):
    """Bolt reads SLACK_BOT_TOKEN from the environment itself; given a client too it warned
    "As you gave `client` as well, `token` will be unused." at every start."""
    import logging

    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test-token")
    caplog.set_level(logging.DEBUG)
    app = tg_slack.create_app(core, settings)
    assert app.client.base_url == fake.url and fake.calls_to("auth.test")  # checked against our API URL
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == []
    h = Harness(app, fake)
    h.deliver(mention(Q, ts="1710000600.000100"))
    assert "鸡胸肉" in reply_text(fake.wait_for("chat.update")[0])


def _http_status(req) -> int:
    import urllib.error

    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_random_40k_message_is_cut_and_other_channels_answered(core, fake, settings):
    """A random 40,000-character Slack message took 49 s (Slack expects an ack within 3 s and
    retries), and other conversations waited."""
    import random

    rng = random.Random(14)
    chars = [chr(c) for c in range(0x4E00, 0x9FA5)] + list("abcdefghij ,.?，？的了吗")
    noise = "".join(rng.choice(chars) for _ in range(40_000))
    h = Harness(tg_slack.create_app(core, settings), fake)
    body = slack_event_body(mention(noise, ts="1710000700.000100"), "EvNOISE")
    t0 = time.monotonic()
    assert h.app.dispatch(BoltRequest(body=body, headers=slack_headers(SECRET, body))).status == 200
    assert time.monotonic() - t0 < 3.0  # acknowledged at once; the answer runs on the pool
    h.deliver(mention(Q, ts="1710000701.000100", channel="C0002"))
    updates = {u["channel"]: u for u in fake.wait_for("chat.update", 2, timeout=15)}
    assert "鸡胸肉" in reply_text(updates["C0002"])
    assert reply_text(updates["C0001"]).startswith("（消息太长，我只读了前 1000 个字。）")  # mostly CJK: read as Chinese
