"""Restart and scale-out through real ``threadgraph serve`` processes: the fake Slack and Telegram
servers on 127.0.0.1, the real core over the session KB, and the conversation state in SQLite
(the data dir) or a real redis-server.

* after SIGTERM and a new start, a follow-up in a joined Slack thread without a mention is
  answered, a reply to the bot's Telegram answer continues its thread, and a re-delivered event
  is not answered again;
* two workers share conversations; a worker killed mid-answer leaves its update to the other,
  which answers it once when the dead worker's lease runs out;
* ``serve --workers 2`` shares one port, restarts a killed worker and swaps to a newly
  published KB build.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import FOLLOW, Q, TINY_MODEL, TINY_NAME
from fakes_platform import FakeSlack, FakeTelegram, slack_event_body, slack_headers, tg_message
from redis_server import free_port
from state_fixtures import REDIS_PASSWORD, backend, redis_server  # noqa: F401 - fixtures

pytestmark = pytest.mark.timeout(300)

SECRET = "scale-signing-secret"
SLACK_TOKEN = "xoxb-scale-test-token"
TG_TOKEN = "123456:SCALE-telegram-token"
HOOK_SECRET = "hook-secret-771"
CHAT = -1001
UNAME = f"@{FakeTelegram.USERNAME}"


# -- helpers ------------------------------------------------------------------------------------


def _data_dir(tmp_path: Path, kb_dir: Path) -> Path:
    """A data folder reading the session KB (read-only); state files go beside it."""
    data = tmp_path / "data"
    (data / "kb").mkdir(parents=True)
    os.symlink(kb_dir / "kb" / "current", data / "kb" / "current")
    return data


def _env(data: Path, backend, **extra) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "THREADGRAPH_DATA_DIR": str(data),
           "THREADGRAPH_EMBEDDING_MODEL": TINY_NAME, "THREADGRAPH_EMBEDDING_MODEL_PATH": str(TINY_MODEL),
           **backend.env(), **extra}
    for k in ("OPENAI_API_KEY", "SLACK_APP_TOKEN", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "TELEGRAM_BOT_TOKEN",
              "THREADGRAPH_TELEGRAM_WEBHOOK_URL", "PORT"):
        if k not in extra:
            env.pop(k, None)
    return env


def _get(url: str, timeout: float = 10) -> tuple[int, str]:
    req = urllib.request.Request(url, headers={"Connection": "close"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _post(url: str, body: str, headers: dict, timeout: float = 60) -> int:
    req = urllib.request.Request(url, data=body.encode(), method="POST", headers={**headers, "Connection": "close"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


class Serve:
    """``threadgraph serve ARGS`` as a process on ``port``; logs in ``log``."""

    def __init__(self, args: list[str], env: dict, cwd: Path, port: int, name: str):
        self.port = port
        self.log = cwd / f"{name}.log"
        self._out = open(self.log, "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "threadgraph.cli", "serve", *args, "--host", "127.0.0.1",
                                      "--port", str(port)], stdout=self._out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
        deadline = time.monotonic() + 90
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited with {self.proc.returncode}:\n{self.text()[-3000:]}")
            try:
                if _get(f"{self.url}/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"serve did not start:\n{self.text()[-3000:]}")
            time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def term(self, timeout: float = 60) -> int:
        """SIGTERM, wait; returns the exit status."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._out.close()


class _Visible(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def visible(html_text: str) -> str:
    p = _Visible()
    p.feed(html_text)
    return "".join(p.parts)


def slack_text(update: dict) -> str:
    texts = [b["text"]["text"] for b in update["blocks"] if b["type"] == "section"]
    return "\n".join(texts).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def mention_update(update_id: int, text: str, message_id: int, chat: int = CHAT) -> dict:
    body = f"{UNAME} {text}"
    return {"update_id": update_id, "message": tg_message(body, chat_id=chat, message_id=message_id,
                                                          entities=[{"type": "mention", "offset": 0, "length": len(UNAME)}])}


def reply_update(update_id: int, text: str, message_id: int, to_bot_message: int, chat: int = CHAT) -> dict:
    bot_msg = {"message_id": to_bot_message, "date": int(time.time()), "chat": {"id": chat, "type": "supergroup"},
               "from": _bot_user(), "text": "answer"}
    return {"update_id": update_id, "message": tg_message(text, chat_id=chat, message_id=message_id, reply_to=bot_msg)}


def _bot_user() -> dict:
    return {"id": FakeTelegram.BOT_ID, "is_bot": True, "first_name": "threadgraph", "username": FakeTelegram.USERNAME}


def hook(server: Serve, update: dict, timeout: float = 60) -> int:
    """Deliver ``update`` to the webhook as Telegram does; returns the HTTP status (the answer is
    sent before the webhook acknowledges)."""
    return _post(f"{server.url}/telegram/webhook", json.dumps(update, ensure_ascii=False),
                 {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": HOOK_SECRET}, timeout)


def tg_env(data: Path, backend, fake: FakeTelegram, **extra) -> dict:
    return _env(data, backend, TELEGRAM_BOT_TOKEN=TG_TOKEN, THREADGRAPH_TELEGRAM_API_URL=fake.root,
                THREADGRAPH_TELEGRAM_WEBHOOK_URL="https://bot.example.com/telegram/webhook",
                THREADGRAPH_TELEGRAM_WEBHOOK_SECRET=HOOK_SECRET, **extra)


def assert_no_secrets(*servers: Serve) -> None:
    for s in servers:
        log = s.text()
        for secret in (REDIS_PASSWORD, TG_TOKEN.split(":")[1], SLACK_TOKEN, SECRET, HOOK_SECRET):
            assert secret not in log, (secret, s.log)


# -- restart ------------------------------------------------------------------------------------


def test_slack_restart_keeps_joined_thread_and_handled_events(backend, kb_dir, tmp_path):
    data = _data_dir(tmp_path, kb_dir)
    with FakeSlack() as fake:
        env = _env(data, backend, SLACK_BOT_TOKEN=SLACK_TOKEN, SLACK_SIGNING_SECRET=SECRET,
                   THREADGRAPH_SLACK_API_URL=fake.url)
        thread = "1710000000.000100"
        first_event = {"type": "app_mention", "user": "U0001", "text": f"<@{FakeSlack.BOT_USER}> {Q}", "ts": thread,
                       "channel": "C0001", "team": FakeSlack.TEAM, "event_ts": thread}
        first = slack_event_body(first_event, "EvFIRST")

        def deliver(server: Serve, body: str, retry: int | None = None) -> int:
            return _post(f"{server.url}/slack/events", body, slack_headers(SECRET, body, retry))

        one = Serve(["slack", "--role", "http"], env, tmp_path, free_port(), "one")
        try:
            assert deliver(one, first) == 200
            assert "鸡胸肉" in slack_text(fake.wait_for("chat.update", 1, timeout=60)[0])
        finally:
            assert one.term() == 0

        two = Serve(["slack", "--role", "http"], env, tmp_path, free_port(), "two")
        try:
            follow = {"type": "message", "user": "U0001", "text": FOLLOW, "ts": "1710000001.000200",
                      "thread_ts": thread, "channel": "C0001", "channel_type": "channel", "team": FakeSlack.TEAM,
                      "event_ts": "1710000001.000200"}
            assert deliver(two, slack_event_body(follow, "EvFOLLOW")) == 200  # no mention: a joined thread
            second = fake.wait_for("chat.update", 2, timeout=60)[1]
            assert "二荆条" in slack_text(second)  # 宫保鸡丁 remembered across the restart
            assert deliver(two, first, retry=1) == 200  # Slack re-delivers the first event
            assert deliver(two, first, retry=2) == 200
            other = {"type": "message", "user": "U0001", "text": "hello", "ts": "1710000002.000300",
                     "thread_ts": "1710000099.000001", "channel": "C0001", "channel_type": "channel",
                     "team": FakeSlack.TEAM, "event_ts": "1710000002.000300"}
            assert deliver(two, slack_event_body(other, "EvOTHER")) == 200  # a thread never joined
        finally:
            assert two.term() == 0  # drains whatever was queued
    assert [p["thread_ts"] for p in fake.calls_to("chat.postMessage")] == [thread, thread]
    assert len(fake.calls_to("chat.update")) == 2
    assert_no_secrets(one, two)


def test_telegram_restart_continues_reply_chain_and_ignores_redelivery(backend, kb_dir, tmp_path):
    data = _data_dir(tmp_path, kb_dir)
    with FakeTelegram() as fake:
        env = tg_env(data, backend, fake)
        first = mention_update(9001, Q, message_id=11)
        one = Serve(["telegram", "--role", "http"], env, tmp_path, free_port(), "one")
        try:
            assert hook(one, first) == 200
            answer = fake.calls_to("sendMessage")[0]  # sent before the webhook acknowledged
            assert answer["reply_parameters"]["message_id"] == 11 and "鸡胸肉" in visible(answer["text"])
        finally:
            assert one.term() == 0

        two = Serve(["telegram", "--role", "http"], env, tmp_path, free_port(), "two")
        try:
            assert hook(two, reply_update(9002, FOLLOW, message_id=12, to_bot_message=5001)) == 200
            follow = fake.calls_to("sendMessage")[1]
            assert follow["reply_parameters"]["message_id"] == 12
            assert "二荆条" in visible(follow["text"])  # the reply chain's memory survived the restart
            assert hook(two, first) == 200  # Telegram re-delivers the first update
            assert hook(two, reply_update(9003, FOLLOW, message_id=13, to_bot_message=5002)) == 200
            third = fake.calls_to("sendMessage")[2]
            assert third["reply_parameters"]["message_id"] == 13 and "二荆条" in visible(third["text"])
        finally:
            assert two.term() == 0
    assert len(fake.calls_to("sendMessage")) == 3
    assert fake.calls_to("setWebhook")[0]["url"] == "https://bot.example.com/telegram/webhook"
    assert_no_secrets(one, two)


# -- two workers --------------------------------------------------------------------------------


class GatedTelegram(FakeTelegram):
    """A fake Bot API that can hold the next ``sendChatAction`` until :attr:`gate` is set, so a
    worker is caught mid-answer (it has claimed the update and shows "typing")."""

    def __init__(self):
        super().__init__()
        self.hold_next = threading.Event()
        self.held = threading.Event()
        self.gate = threading.Event()

    def handle(self, method, params, headers):
        if method == "sendChatAction" and self.hold_next.is_set():
            self.hold_next.clear()
            self.held.set()
            self.gate.wait(60)
        return super().handle(method, params, headers)


def test_two_workers_share_conversations_and_a_dead_workers_update(backend, kb_dir, tmp_path):
    data = _data_dir(tmp_path, kb_dir)
    with GatedTelegram() as fake:
        env = tg_env(data, backend, fake, THREADGRAPH_STATE_LEASE_S="1")
        a = Serve(["telegram", "--role", "http"], env, tmp_path, free_port(), "a")
        b = Serve(["telegram", "--role", "http"], env, tmp_path, free_port(), "b")
        try:
            assert hook(a, mention_update(9101, Q, message_id=11)) == 200
            assert hook(b, reply_update(9102, FOLLOW, message_id=12, to_bot_message=5001)) == 200
            follow = fake.calls_to("sendMessage")[1]
            assert "二荆条" in visible(follow["text"])  # b continues the conversation a started
            assert hook(a, reply_update(9102, FOLLOW, message_id=12, to_bot_message=5001)) == 200  # again, to a
            assert len(fake.calls_to("sendMessage")) == 2

            # a is caught mid-answer and killed; the platform re-delivers its update to b
            fake.hold_next.set()
            lost: list = []
            t = threading.Thread(target=lambda: lost.append(_try_hook(a, mention_update(9103, Q, 21, chat=-1002))))
            t.start()
            assert fake.held.wait(60)
            a.proc.kill()
            a.proc.wait()
            t.join(60)
            assert lost == ["failed"]  # the platform saw no acknowledgement
            assert hook(b, mention_update(9103, Q, 21, chat=-1002)) == 200  # answered once a's lease ran out
            assert hook(b, mention_update(9103, Q, 21, chat=-1002)) == 200  # and not again
        finally:
            fake.gate.set()
            a.kill()
            assert b.term() == 0
    sent = fake.calls_to("sendMessage")
    assert len(sent) == 3
    assert sent[2]["chat_id"] == -1002 and sent[2]["reply_parameters"]["message_id"] == 21
    assert "鸡胸肉" in visible(sent[2]["text"])
    assert_no_secrets(a, b)


def _try_hook(server: Serve, update: dict) -> str:
    try:
        return f"status {hook(server, update)}"
    except OSError:
        return "failed"


# -- serve --workers N --------------------------------------------------------------------------


def _pids(url: str, attempts: int = 200, want: int = 2, patience_s: float = 60.0) -> dict[int, dict]:
    """``/status`` of the workers behind ``url`` by pid, over new connections:
    at least ``attempts`` requests, and on until ``want`` workers answered or
    ``patience_s`` seconds passed (a loaded machine starts the second worker
    late; a fixed count of fast requests can all reach the first one)."""
    seen: dict[int, dict] = {}
    deadline = time.monotonic() + patience_s
    n = 0
    while n < attempts or (len(seen) < want and time.monotonic() < deadline):
        n += 1
        try:
            status, body = _get(f"{url}/status", timeout=10)
        except OSError:
            time.sleep(0.05)
            continue
        if status == 200:
            got = json.loads(body)
            seen[got["pid"]] = got
        if len(seen) >= want and n >= 20:
            break
        if n >= attempts:
            time.sleep(0.05)
    return seen


def test_serve_workers_share_a_port_restart_and_swap_kb(redis_server, kb_dir, tmp_path):
    from threadgraph.knowledge.kb import current_build, new_build_dir, publish_build
    from state_fixtures import Backend

    backend = Backend("redis", redis_server.url)
    # a data dir of its own holding a copy of the session build (so a new one can be published)
    data = tmp_path / "data"
    src = current_build(kb_dir)
    (data / "kb" / "builds").mkdir(parents=True)
    shutil.copytree(src, data / "kb" / "builds" / "20000101T000000-1-000001")
    os.symlink("builds/20000101T000000-1-000001", data / "kb" / "current")
    port = free_port()
    with FakeTelegram() as fake:
        env = tg_env(data, backend, fake)
        sup = Serve(["telegram", "--role", "http", "--workers", "2"], env, tmp_path, port, "sup")
        try:
            workers = _pids(sup.url)
            assert sorted(w["worker"] for w in workers.values()) == [0, 1]
            assert {w["kb"] for w in workers.values()} == {"20000101T000000-1-000001"}
            assert all("redis redis://***@127.0.0.1" in w["state"] for w in workers.values())
            assert len(fake.calls_to("setWebhook")) == 1  # worker 0 only

            # a worker killed is restarted
            victim = next(pid for pid, w in workers.items() if w["worker"] == 1)
            os.kill(victim, signal.SIGKILL)
            deadline = time.monotonic() + 60
            while True:
                now = _pids(sup.url, attempts=40, patience_s=0)
                if any(w["worker"] == 1 and pid != victim for pid, w in now.items()):
                    break
                assert time.monotonic() < deadline, sup.text()[-2000:]
                time.sleep(0.5)

            # a new build published once is what every worker answers from a moment later
            tmp, final = new_build_dir(data)
            shutil.rmtree(tmp)
            shutil.copytree(src, tmp)
            publish_build(data, tmp, final)
            time.sleep(1.5)  # KBHandle checks the published build at most every second
            for i in range(6):
                assert hook(sup, mention_update(9200 + i, Q, message_id=300 + i, chat=-2000 - i)) == 200
            swapped = _pids(sup.url)
            assert sorted(w["worker"] for w in swapped.values()) == [0, 1]
            assert {w["kb"] for w in swapped.values()} == {final.name}
        finally:
            assert sup.term() == 0
    answers = fake.calls_to("sendMessage")
    assert len(answers) == 6 and all("鸡胸肉" in visible(m["text"]) for m in answers)
    assert_no_secrets(sup)
