"""Telegram adapter end to end: the real python-telegram-bot Application (long polling or our
webhook endpoint) against a fake Telegram Bot API on 127.0.0.1."""

from __future__ import annotations

import html
import json
import re
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser

import pytest
from pydantic import SecretStr
from telegram import Update
from telegram.ext import Application, CommandHandler

from fakes_platform import FakeTelegram, LoopThread, RunningServe, tg_message
from standin_bot import derive_bot
from threadgraph.adapters import telegram as tg_telegram
from threadgraph.adapters.telegram import render_html
from threadgraph.bot.answer import Answer
from threadgraph.bot.message import ThreadKey

TOKEN = "123456:TEST-telegram-token"
pytestmark = pytest.mark.timeout(300)  # a hang guard; the first test also builds the session KB


from conftest import FOLLOW, Q  # noqa: E402  (shared questions; `core` fixture in conftest)


@pytest.fixture
def fake():
    with FakeTelegram() as server:
        yield server


@pytest.fixture
def settings(core, fake, tmp_path):
    return core.settings.model_copy(update={
        "telegram_bot_token": SecretStr(TOKEN), "telegram_api_url": fake.root,
        "telegram_webhook_url": None, "telegram_webhook_secret": None,
        "slack_bot_token": None, "slack_app_token": None, "data_dir": tmp_path / "tg-data"})


class HTMLCheck(HTMLParser):
    """Checks Telegram HTML: only known tags, all balanced; collects the visible text."""

    ALLOWED = {"b", "i", "u", "s", "code", "pre", "a", "tg-spoiler", "blockquote"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        assert tag in self.ALLOWED, tag
        self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def visible(html_text: str) -> str:
    p = HTMLCheck()
    p.feed(html_text)
    p.close()
    assert p.stack == [], p.stack
    return "".join(p.text)


def sent(fake: FakeTelegram, count: int = 1, timeout: float = 10.0) -> list[dict]:
    return fake.wait_for("sendMessage", count, timeout)


def test_private_chat_answered_and_follow_up_same_thread(core, fake, settings):
    seen: list = []
    with RunningServe(derive_bot(core, seen=seen), settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        first = sent(fake)[0]
        assert first["chat_id"] == 42 and first["parse_mode"] == "HTML"
        assert "鸡胸肉" in visible(first["text"])  # the KB's substitute arrived
        actions = fake.calls_to("sendChatAction")
        assert actions and actions[0]["action"] == "typing" and actions[0]["chat_id"] == 42
        fake.push({"message": tg_message(FOLLOW, chat_id=42, message_id=2)})
        assert "二荆条" in visible(sent(fake, 2)[1]["text"])  # 宫保鸡丁 remembered in the chat
        # another private chat has its own (empty) memory
        fake.push({"message": tg_message(FOLLOW, chat_id=43, message_id=3)})
        other = sent(fake, 3)[2]
        assert other["chat_id"] == 43 and "可以用二荆条代替" not in visible(other["text"])
    key = ThreadKey(platform="telegram", workspace="42", channel="42", thread="")
    assert [m.thread for m in seen[:2]] == [key, key]
    assert seen[1].text == FOLLOW and seen[2].thread.workspace == "43"


def test_group_mention_reply_chain_and_ask(core, fake, settings):
    seen: list = []
    with RunningServe(derive_bot(core, seen=seen), settings, ("telegram",), role="worker"):
        chat = -1001
        fake.push({"message": tg_message("just chatting", chat_id=chat, message_id=10)})
        uname = f"@{FakeTelegram.USERNAME}"
        q = f"{uname} {Q}"
        fake.push({"message": tg_message(q, chat_id=chat, message_id=11,
                                         entities=[{"type": "mention", "offset": 0, "length": len(uname)}])})
        answer_msg = sent(fake)[0]
        assert answer_msg["chat_id"] == chat
        assert answer_msg["reply_parameters"]["message_id"] == 11  # quoted reply to the question
        assert seen[0].text == Q and "鸡胸肉" in visible(answer_msg["text"])
        # the bot's answer as Telegram would echo it back in reply_to_message
        bot_reply = {"message_id": 5001, "date": int(time.time()), "chat": {"id": chat, "type": "supergroup"},
                     "from": fake.bot_user(), "text": "answer"}
        fake.push({"message": tg_message(FOLLOW, chat_id=chat, message_id=12, reply_to=bot_reply)})
        assert "二荆条" in visible(sent(fake, 2)[1]["text"])  # the reply chain continues the memory
        fake.push({"message": tg_message("/ask 红烧肉可以不放糖吗?", chat_id=chat, message_id=20)})
        third = sent(fake, 3)[2]
        assert third["reply_parameters"]["message_id"] == 20 and "红烧肉" in visible(third["text"])
    assert len(seen) == 3  # "just chatting" was ignored
    root = ThreadKey(platform="telegram", workspace=str(chat), channel=str(chat), thread="11")
    assert seen[0].thread == root and seen[1].thread == root  # reply to the bot continues the memory
    assert seen[2].thread.thread == "20" and seen[2].text == "红烧肉可以不放糖吗?"


def test_forum_topic_reply_stays_in_topic(core, fake, settings):
    seen: list = []
    with RunningServe(derive_bot(core, seen=seen), settings, ("telegram",), role="worker"):
        uname = f"@{FakeTelegram.USERNAME}"
        fake.push({"message": tg_message(f"{uname} 花生可以用什么代替?", chat_id=-1002, message_id=30, thread_id=7,
                                         entities=[{"type": "mention", "offset": 0, "length": len(uname)}])})
        msg = sent(fake)[0]
        assert msg["message_thread_id"] == 7
        assert fake.calls_to("sendChatAction")[0]["message_thread_id"] == 7
    assert seen[0].thread == ThreadKey(platform="telegram", workspace="-1002", channel="-1002", thread="7")


def test_long_answer_split_with_valid_html(core, fake, settings):
    paragraph = "宫保鸡丁 <b>花生</b> & 腰果 *星* _下划线_ 🥜。" * 8
    long_text = "\n\n".join(f"{i:03d} {paragraph}" for i in range(45))
    assert len(long_text) > 10_000
    bot = derive_bot(core, after=lambda a: a.model_copy(update={"answer": long_text}))
    with RunningServe(bot, settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        fake.wait_for("sendMessage", 4)
        time.sleep(0.3)
        msgs = fake.calls_to("sendMessage")
    assert len(msgs) >= 4
    assert all(len(m["text"]) <= 4096 for m in msgs)
    texts = [visible(m["text"]) for m in msgs]  # every message is balanced HTML on its own
    body = "\n\n".join(texts)
    for i in range(45):
        assert f"{i:03d} {paragraph}" in body  # each paragraph arrived whole, unchanged
    assert body.index("000 ") < body.index("044 ")


def test_special_characters_survive(core, fake, settings):
    tricky = "用 <b>腰果</b> & *花生* _酱_ 🥜🌶️ 代替; a<b & c>d"
    seen: list = []
    bot = derive_bot(core, seen=seen, after=lambda a: a.model_copy(update={"answer": tricky}))
    with RunningServe(bot, settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message("宫保鸡丁 <b>花生</b> & *辣椒* _酱_ 🥜?", chat_id=42, message_id=1)})
        msg = sent(fake)[0]
    assert seen[0].text == "宫保鸡丁 <b>花生</b> & *辣椒* _酱_ 🥜?"
    assert msg["text"].startswith(html.escape(tricky, quote=False))
    assert visible(msg["text"]).startswith(tricky)


def test_core_exception_apology_then_next_answered(core, fake, settings):
    calls = {"n": 0}

    def explode_once(message):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("kaboom in the core")

    with RunningServe(derive_bot(core, before=explode_once), settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        assert "Sorry" in sent(fake)[0]["text"]
        fake.push({"message": tg_message(Q, chat_id=42, message_id=2)})
        second = sent(fake, 2)[1]
    assert "Sorry" not in second["text"] and calls["n"] == 2
    assert "鸡胸肉" in visible(second["text"])


def test_flood_limit_waited_out(core, fake, settings):
    fake.fail_with_429("sendMessage", retry_after=1)
    with RunningServe(core, settings, ("telegram",), role="worker"):
        t0 = time.monotonic()
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        msg = sent(fake, timeout=15)[0]
        elapsed = time.monotonic() - t0
    assert [m for m, _ in fake.calls if m.startswith("sendMessage")][:2] == ["sendMessage!failed", "sendMessage"]
    assert elapsed >= 1.0
    assert msg["chat_id"] == 42 and "鸡胸肉" in visible(msg["text"])


def test_commands_start_help_reset(core, fake, settings):
    resets: list = []
    with RunningServe(derive_bot(core, resets=resets), settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message("/start", chat_id=42, message_id=1)})
        fake.push({"message": tg_message("/help", chat_id=42, message_id=2)})
        texts = [m["text"] for m in sent(fake, 2)]
        assert all("/reset" in t for t in texts)
        fake.push({"message": tg_message("/reset", chat_id=42, message_id=3)})
        sent(fake, 3)
    assert resets == [ThreadKey(platform="telegram", workspace="42", channel="42", thread="")]


def _post(url: str, data: dict, secret: str | None) -> int:
    req = urllib.request.Request(url, data=json.dumps(data).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    if secret is not None:
        req.add_header("X-Telegram-Bot-Api-Secret-Token", secret)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_webhook_secret_checked(core, fake, settings):
    seen: list = []
    s = settings.model_copy(update={"telegram_webhook_url": "https://bot.example.com/tg/hook",
                                    "telegram_webhook_secret": SecretStr("s3cret-token")})
    with RunningServe(derive_bot(core, seen=seen), s, ("telegram",), role="http") as running:
        hook = fake.calls_to("setWebhook")[0]
        assert hook["url"] == "https://bot.example.com/tg/hook" and hook["secret_token"] == "s3cret-token"
        url = f"http://127.0.0.1:{running.server.port}/tg/hook"
        update = {"update_id": 900, "message": tg_message(Q, chat_id=42, message_id=1)}
        assert _post(url, update, "wrong") == 403
        assert _post(url, update, None) == 403
        time.sleep(0.2)
        assert seen == [] and fake.calls_to("sendMessage") == []
        assert _post(url, update, "s3cret-token") == 200
        msg = sent(fake)[0]
        assert msg["chat_id"] == 42 and "鸡胸肉" in visible(msg["text"])
    assert fake.calls_to("getUpdates") == []  # webhook mode never polls
    assert len(seen) == 1


def test_sigterm_style_stop_drains_in_flight_answer(core, fake, settings):
    seen: list = []
    bot = derive_bot(core, seen=seen, before=lambda m: time.sleep(1.0))
    running = RunningServe(bot, settings, ("telegram",), role="worker")
    try:
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.02)
        assert seen and fake.calls_to("sendMessage") == []  # answer in flight
    finally:
        running.close()  # stop requested now; must wait for the answer
    msgs = fake.calls_to("sendMessage")
    assert len(msgs) == 1 and "鸡胸肉" in visible(msgs[0]["text"])


def test_mounted_on_existing_application_keeps_its_command(core, fake, settings):
    async def ping(update: Update, context):
        await update.effective_message.reply_text("pong")

    application = (Application.builder().token(TOKEN).base_url(f"{fake.root}/bot")
                   .base_file_url(f"{fake.root}/file/bot").build())
    application.add_handler(CommandHandler("ping", ping))
    seen: list = []
    tg_telegram.install(application, derive_bot(core, seen=seen), settings)
    lt = LoopThread()
    try:
        async def start():
            await application.initialize()
            await application.start()
            await application.updater.start_polling(poll_interval=0.0, timeout=1)

        async def stop():
            await application.updater.stop()
            await application.stop()
            await application.shutdown()

        lt.run(start())
        try:
            fake.push({"message": tg_message("/ping", chat_id=42, message_id=1)})
            assert sent(fake)[0]["text"] == "pong"
            fake.push({"message": tg_message(Q, chat_id=42, message_id=2)})
            assert "鸡胸肉" in visible(sent(fake, 2)[1]["text"])
        finally:
            lt.run(stop())
    finally:
        lt.close()
    assert len(seen) == 1 and seen[0].thread.workspace == "42"


def test_sources_button_sends_the_full_evidence(core, fake, settings):
    with RunningServe(core, settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        reply = sent(fake)[0]
        text = visible(reply["text"])
        assert text.startswith("做宫保鸡丁时，手枪腿可以用鸡胸肉代替。")  # answer first
        assert "📄 宫保鸡丁 › 必备原料和工具 (第 11 行)" in text  # a short human source, no repo path
        assert "howtocook/" not in text and "⇄" not in text
        button = reply["reply_markup"]["inline_keyboard"][0][0]
        assert button["text"].startswith("📄 来源") and button["callback_data"].startswith("threadgraph_sources:")
        bot_msg = {"message_id": 5001, "date": int(time.time()), "chat": {"id": 42, "type": "private"},
                   "from": fake.bot_user(), "text": text}
        fake.push({"callback_query": {"id": "cb-1", "chat_instance": "ci-1", "data": button["callback_data"],
                                      "from": {"id": 7, "is_bot": False, "first_name": "Cook"}, "message": bot_msg}})
        evidence = sent(fake, 2)[1]
        assert fake.wait_for("answerCallbackQuery")[0]["callback_query_id"] == "cb-1"
        ev = visible(evidence["text"])
        assert ev.startswith("来源与证据") and "手枪腿 可以用 鸡胸肉 代替（宫保鸡丁）" in ev
        assert evidence["chat_id"] == 42


def test_render_html_escapes_and_respects_limit():
    text = "\n\n".join(["<b>" + "长" * 5000 + "</b> & more"] + ["短段落 & <i>"] * 3)
    answer = Answer(thread="t", question="q", intent="x", found=False, answer=text, follow_ups=["<script>?"])
    chunks = render_html(answer)
    assert all(len(c) <= 4096 for c in chunks)
    vis = "".join(visible(c) for c in chunks)
    assert vis.count("长") == 5000 and "<script>?" in vis
    assert not re.search(r"<(?!/?(b|i|code)>)", "".join(chunks))


_SERVE_SCRIPT = r'''
import logging, sys, time
from pathlib import Path
from pydantic import SecretStr
from threadgraph.adapters.serve import serve
from threadgraph.bot.core import ThreadGraphBot
from threadgraph.bot.memory import ThreadMemory
from threadgraph.knowledge.kb import KBHandle
from threadgraph.settings import Settings

api_url, work, kb_dir, model_name, model_path, token = sys.argv[1:7]

class SlowBot(ThreadGraphBot):
    def answer(self, message, retrieval="hybrid"):
        if "boom" in message.text:
            raise RuntimeError("core failure for " + message.text)
        print("ANSWERING", flush=True)
        time.sleep(1.0)
        return super().answer(message, retrieval)

logging.basicConfig(level=logging.INFO, stream=sys.stderr)
# the real core over the session KB (read-only; thread memory and feedback in this test's folder)
s = Settings(_env_file=None, data_dir=work, embedding_model=model_name, embedding_model_path=model_path,
             openai_api_key=None, telegram_bot_token=SecretStr(token), telegram_api_url=api_url)
core_settings = s.model_copy(update={"data_dir": Path(kb_dir)})
bot = SlowBot(core_settings, kb=KBHandle(Path(kb_dir), core_settings), memory=ThreadMemory(Path(work) / "memory.sqlite"))
bot.kb.get()  # open the KB before polling starts
serve(bot, s, ("telegram",), role="worker", drain_timeout=10)
print("EXITED CLEANLY", flush=True)
'''


def test_sigterm_in_a_real_process_drains_and_never_logs_the_token(fake, kb_dir, tmp_path):
    """The process-level contract (signal handling, drain, log redaction) with the real core
    over the session KB in a subprocess (its ``answer`` slowed down and failing on "boom")."""
    import os
    import signal
    import subprocess
    import sys

    from conftest import TINY_MODEL, TINY_NAME

    work = tmp_path / "d"
    work.mkdir()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("OPENAI_API_KEY", None)
    proc = subprocess.Popen([sys.executable, "-c", _SERVE_SCRIPT, fake.root, str(work), str(kb_dir), TINY_NAME,
                             str(TINY_MODEL), TOKEN],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        fake.wait_for("getUpdates", 1, timeout=30)
        fake.push({"message": tg_message("boom please", chat_id=42, message_id=1)})
        assert "Sorry" in sent(fake, 1, timeout=15)[0]["text"]  # apology, process alive
        fake.push({"message": tg_message(Q, chat_id=42, message_id=2)})
        assert proc.stdout.readline().strip() == "ANSWERING"
        proc.send_signal(signal.SIGTERM)  # while the answer is in flight
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-3000:]
    assert "EXITED CLEANLY" in out
    msgs = fake.calls_to("sendMessage")
    assert len(msgs) == 2  # the in-flight answer was delivered before exit
    assert "鸡胸肉" in visible(msgs[1]["text"])  # ... and it is the real core's answer from the KB
    assert "RuntimeError: core failure" in err and "telegram update" in err  # traceback with update id
    assert TOKEN not in err and TOKEN.split(":")[1] not in err
    assert (work / "memory.sqlite").exists() and not (kb_dir / "memory.sqlite").exists()


def test_threadgraph_serve_command_answers_over_long_polling(fake, kb_dir, tmp_path):
    """The standalone product: `threadgraph serve telegram` as a process, configured only by
    environment variables, answers a private message from the KB and exits 0 on SIGTERM."""
    import os
    import signal
    import subprocess
    import sys

    from conftest import TINY_MODEL, TINY_NAME

    data = tmp_path / "data"
    (data / "kb").mkdir(parents=True)
    # share the session KB read-only; memory and feedback go to this test's folder
    os.symlink(kb_dir / "kb" / "current", data / "kb" / "current")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TELEGRAM_BOT_TOKEN": TOKEN,
           "THREADGRAPH_TELEGRAM_API_URL": fake.root, "THREADGRAPH_DATA_DIR": str(data),
           "THREADGRAPH_EMBEDDING_MODEL": TINY_NAME, "THREADGRAPH_EMBEDDING_MODEL_PATH": str(TINY_MODEL)}
    env.pop("OPENAI_API_KEY", None)
    proc = subprocess.Popen([sys.executable, "-m", "threadgraph.cli", "serve", "telegram"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        fake.wait_for("getUpdates", 1, timeout=40)
        fake.push({"message": tg_message(Q, chat_id=7, message_id=1)})
        reply = sent(fake, 1, timeout=20)[0]
        assert reply["chat_id"] == 7 and "鸡胸肉" in visible(reply["text"])
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-2000:]
    assert TOKEN.split(":")[1] not in err


# ---------------------------------------------------------------------------------------------
# Delivery faults and missing behaviour (issue 14), against the strict fake.


def test_throttled_typing_never_delays_the_answer(core, fake, settings):
    """A 429 on sendChatAction (retry_after 137 s) used to hold the answer back: the typing call
    went first, through the rate limiter, which waits out retry_after and pauses every request."""
    fake.fail_with_429("sendChatAction", retry_after=137, times=50)
    with RunningServe(core, settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        msg = sent(fake, 1, timeout=10)[0]  # far less than 137 s
        fake.push({"message": tg_message(Q, chat_id=43, message_id=2)})  # another chat is not paused either
        other = sent(fake, 2, timeout=10)[1]
    assert "鸡胸肉" in visible(msg["text"]) and other["chat_id"] == 43
    assert any(m == "sendChatAction!failed" for m, _ in fake.calls)
    assert fake.calls_to("sendChatAction") == []  # every typing action was throttled; the answers came anyway


def test_general_topic_reply_never_names_thread_1(core, fake, settings):
    """python-telegram-bot#4739: a message in a forum's General topic (message_thread_id 1,
    is_topic_message) was answered into thread 1, which Telegram refuses."""
    seen: list = []
    with RunningServe(derive_bot(core, seen=seen), settings, ("telegram",), role="worker"):
        uname = f"@{FakeTelegram.USERNAME}"
        fake.push({"message": tg_message(f"{uname} {Q}", chat_id=-1003, message_id=40, thread_id=1,
                                         entities=[{"type": "mention", "offset": 0, "length": len(uname)}])})
        msg = sent(fake)[0]
    assert "message_thread_id" not in msg and msg["reply_parameters"]["message_id"] == 40
    assert "鸡胸肉" in visible(msg["text"])
    assert fake.rejections == []
    assert all("message_thread_id" not in c for c in fake.calls_to("sendChatAction"))


@pytest.mark.parametrize("code, start_words, help_words", [
    ("zh-hans", "你好", "我根据团队的知识库"),
    ("en", "Hi!", "I answer questions from the team's knowledge base"),
    (None, "Hi!", "I answer questions from the team's knowledge base"),
])
def test_start_and_help_speak_the_users_language(core, fake, settings, code, start_words, help_words):
    with RunningServe(core, settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message("/start", chat_id=42, message_id=1, language_code=code)})
        first = sent(fake)[0]["text"]
        fake.push({"message": tg_message("/help", chat_id=42, message_id=2, language_code=code)})
        second = sent(fake, 2)[1]["text"]
    assert start_words in first and help_words in first
    assert help_words in second and "/reset" in second


def test_vote_buttons_store_feedback_like_slack(core, fake, settings):
    from fakes_platform import tg_callback
    from threadgraph.bot.feedback import FeedbackStore

    with RunningServe(core, settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        sent(fake)
        answer_msg = fake.sent[-1]
        rows = answer_msg["reply_markup"]["inline_keyboard"]
        assert [b["text"] for b in rows[-1]] == ["👍", "👎"]
        down = rows[-1][1]["callback_data"]
        fake.push(tg_callback(answer_msg, down, user_id=77))
        ack = fake.wait_for("answerCallbackQuery")[0]
    assert ack["text"] == "谢谢反馈！"
    votes = FeedbackStore.for_data_dir(settings.data_dir).votes()
    assert len(votes) == 1
    v = votes[0]
    assert v["vote"] == -1 and v["user"] == "77" and v["thread"] == "telegram/42/42/"
    assert v["answer"]["question"] == Q and "鸡胸肉" in v["answer"]["answer"]
    assert down == f"tgv:-:{v['answer_id']}"


def test_did_you_mean_candidates_are_buttons_that_ask_again(core, fake, settings):
    from fakes_platform import tg_callback

    seen: list = []
    with RunningServe(derive_bot(core, seen=seen), settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message("红烧肉需要哪些原料？", chat_id=42, message_id=1)})
        sent(fake)
        not_found = fake.sent[-1]
        rows = not_found["reply_markup"]["inline_keyboard"]
        candidates = [r[0]["text"] for r in rows if r[0]["callback_data"].startswith("tgq:")]
        assert candidates and all("红烧肉" in c for c in candidates)
        assert rows[0][0]["callback_data"].startswith("tgq:")  # the candidates come first
        assert [b["text"] for b in rows[-1]] == ["👍", "👎"]
        fake.push(tg_callback(not_found, rows[0][0]["callback_data"]))
        again = sent(fake, 2)[1]
    assert seen[1].text == f"{candidates[0]}需要哪些原料？"
    assert seen[1].thread == seen[0].thread
    assert candidates[0] in visible(again["text"])
    assert fake.calls_to("answerCallbackQuery")


@pytest.mark.parametrize("kind, payload", [
    ("photo", {"photo": [{"file_id": "p1", "file_unique_id": "u1", "width": 90, "height": 90}]}),
    ("sticker", {"sticker": {"file_id": "s1", "file_unique_id": "u2", "type": "regular", "width": 512,
                             "height": 512, "is_animated": False, "is_video": False}}),
])
def test_photo_or_sticker_in_private_chat_gets_one_line(core, fake, settings, kind, payload):
    seen: list = []
    with RunningServe(derive_bot(core, seen=seen), settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(None, chat_id=-1004, message_id=1, **payload)})  # group: ignored
        fake.push({"message": tg_message(None, chat_id=42, message_id=2, language_code="en", **payload)})
        reply = sent(fake)[0]
        fake.push({"message": tg_message(None, chat_id=42, message_id=3, **payload)})  # zh user
        reply_zh = sent(fake, 2)[1]
    assert reply["chat_id"] == 42 and reply["text"] == "I read text questions: please type your question."
    assert reply_zh["text"] == "我只读文字问题，请用文字提问。"
    assert seen == [] and len(fake.calls_to("sendMessage")) == 2


def test_huge_answer_is_capped_before_delivery(core, fake, settings):
    """A 200,000-character (LLM) answer became 66 Telegram messages."""
    huge = "\n\n".join(["宫保鸡丁的花生可以换成腰果，" * 20] * 710)
    assert len(huge) > 200_000
    bot = derive_bot(core, after=lambda a: a.model_copy(update={"answer": huge}))
    with RunningServe(bot, settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(Q, chat_id=42, message_id=1)})
        sent(fake)
        time.sleep(1.0)
        msgs = fake.calls_to("sendMessage")
    assert 1 <= len(msgs) <= 4 and fake.rejections == []
    body = "\n\n".join(visible(m["text"]) for m in msgs)
    assert "（回答太长，已截断）" in body


# ---------------------------------------------------------------------------------------------
# Secure by default (issue 14)


def test_webhook_refuses_to_start_without_a_secret(core, fake, settings):
    """With no secret the webhook accepted forged updates (anyone could make the bot message any
    chat id), and nothing warned at start."""
    s = settings.model_copy(update={"telegram_webhook_url": "https://bot.example.com/tg/hook"})
    with pytest.raises(ValueError, match="--insecure-webhook"):
        RunningServe(core, s, ("telegram",), role="http")
    assert fake.calls == []  # refused before talking to Telegram
    bad = s.model_copy(update={"telegram_webhook_secret": SecretStr("not allowed!")})
    with pytest.raises(ValueError, match="A-Z, a-z, 0-9"):
        RunningServe(core, bad, ("telegram",), role="http")


def test_insecure_webhook_flag_starts_with_a_warning(core, fake, settings, caplog):
    import logging

    caplog.set_level(logging.INFO)
    seen: list = []
    s = settings.model_copy(update={"telegram_webhook_url": "https://bot.example.com/tg/hook"})
    with RunningServe(derive_bot(core, seen=seen), s, ("telegram",), role="http", insecure_webhook=True) as running:
        url = f"http://127.0.0.1:{running.server.port}/tg/hook"
        assert _post(url, {"update_id": 901, "message": tg_message(Q, chat_id=42, message_id=1)}, None) == 200
        sent(fake)
    assert "secret_token" not in fake.calls_to("setWebhook")[0]
    assert any(r.levelno == logging.WARNING and "WITHOUT a secret token" in r.getMessage() for r in caplog.records)
    assert len(seen) == 1


def _serve_cli(fake, kb_dir, tmp_path, env_extra: dict, args=("serve", "telegram")):
    import os
    import subprocess
    import sys

    from conftest import TINY_MODEL, TINY_NAME

    data = tmp_path / "data"
    (data / "kb").mkdir(parents=True, exist_ok=True)
    if not (data / "kb" / "current").exists():
        os.symlink(kb_dir / "kb" / "current", data / "kb" / "current")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "THREADGRAPH_TELEGRAM_API_URL": fake.root,
           "THREADGRAPH_DATA_DIR": str(data), "THREADGRAPH_EMBEDDING_MODEL": TINY_NAME,
           "THREADGRAPH_EMBEDDING_MODEL_PATH": str(TINY_MODEL), **env_extra}
    for k in ("OPENAI_API_KEY", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "THREADGRAPH_TELEGRAM_WEBHOOK_SECRET"):
        if k not in env_extra:
            env.pop(k, None)
    return subprocess.run([sys.executable, "-m", "threadgraph.cli", *args], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120)


def test_cli_webhook_without_secret_exits_2(fake, kb_dir, tmp_path):
    r = _serve_cli(fake, kb_dir, tmp_path, {"TELEGRAM_BOT_TOKEN": TOKEN,
                                            "THREADGRAPH_TELEGRAM_WEBHOOK_URL": "https://bot.example.com/tg/hook"})
    assert r.returncode == 2, r.stderr[-2000:]
    assert "THREADGRAPH_TELEGRAM_WEBHOOK_SECRET" in r.stderr and "--insecure-webhook" in r.stderr
    assert fake.calls == []


def test_rejected_token_never_reaches_the_log(kb_dir, tmp_path):
    """PTB raises InvalidToken("The token `<token>` was rejected by the server.") when getMe is
    refused; the traceback printed the token."""
    wrong = "987654:WRONG-secret-token-part-xyz"
    with FakeTelegram(valid_token=TOKEN) as strict:
        r = _serve_cli(strict, kb_dir, tmp_path, {"TELEGRAM_BOT_TOKEN": wrong})
        assert [m for m, _ in strict.calls] == ["getMe!rejected"]
    assert r.returncode == 2, r.stderr[-2000:]
    assert "Telegram rejected TELEGRAM_BOT_TOKEN" in r.stderr
    assert "WRONG-secret-token-part-xyz" not in r.stderr + r.stdout
    assert "987654" not in r.stderr + r.stdout


def test_crafted_message_never_holds_up_other_chats(core, fake, settings):
    """A crafted 4,092-character message (one Telegram message) took 27 s in the intent
    regexes, and every other chat waited."""
    crafted = (" no" * 1364)[:4092]
    with RunningServe(core, settings, ("telegram",), role="worker"):
        fake.push({"message": tg_message(crafted, chat_id=50, message_id=1)})
        fake.push({"message": tg_message(Q, chat_id=51, message_id=2)})
        msgs = sent(fake, 2, timeout=15)
    by_chat = {m["chat_id"]: visible(m["text"]) for m in msgs}
    assert "鸡胸肉" in by_chat[51]
    assert by_chat[50].startswith("(Your message is long: I read only its first 1000 characters.)")
