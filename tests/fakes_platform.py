"""Fake Slack Web API and Telegram Bot API servers on 127.0.0.1 (port 0), speaking real HTTP.

They replace only the platforms: the real slack-sdk / python-telegram-bot clients talk to them.
Each records every call as ``(method, params)`` so tests assert on what the platform received.
Use them as context managers; they always shut down.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import queue
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Server:
    """A ThreadingHTTPServer in a daemon thread; subclasses implement ``handle(method_path, params, headers)``."""

    def __init__(self):
        self.calls: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        self.fail_next: dict[str, list[tuple[int, dict]]] = {}
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output quiet
                pass

            def do_POST(self):
                self._serve()

            def do_GET(self):
                self._serve()

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                path, _, query = self.path.partition("?")
                params = outer.parse(raw, self.headers.get("Content-Type", ""), query)
                status, body = outer.dispatch(path, params, dict(self.headers))
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        class QuietServer(ThreadingHTTPServer):
            def handle_error(self, request, client_address):  # a client hanging up is not a test failure
                import sys

                if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                    super().handle_error(request, client_address)

        self.httpd = QuietServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def parse(self, raw: bytes, ctype: str, query: str) -> dict:
        params: dict = {}
        if query:
            params.update({k: v[0] for k, v in urllib.parse.parse_qs(query).items()})
        if not raw:
            return params
        if "json" in ctype:
            params.update(json.loads(raw))
        elif "multipart" in ctype:
            raise NotImplementedError("multipart uploads are not faked")
        else:
            params.update({k: v[0] for k, v in urllib.parse.parse_qs(raw.decode(), keep_blank_values=True).items()})
        return params

    def dispatch(self, path: str, params: dict, headers: dict) -> tuple[int, dict]:
        method = path.rstrip("/").rsplit("/", 1)[-1]
        with self.lock:
            fails = self.fail_next.get(method)
            if fails:
                status, body = fails.pop(0)
                self.calls.append((method + "!failed", params))
                return status, body
        result = self.handle(method, params, headers)
        return result

    def handle(self, method: str, params: dict, headers: dict) -> tuple[int, dict]:
        raise NotImplementedError

    def record(self, method: str, params: dict) -> None:
        with self.lock:
            self.calls.append((method, copy.deepcopy(params)))

    def calls_to(self, method: str) -> list[dict]:
        """Params of every call to ``method`` so far (in order)."""
        with self.lock:
            return [p for m, p in self.calls if m == method]

    def wait_for(self, method: str, count: int = 1, timeout: float = 10.0) -> list[dict]:
        """Wait until ``method`` was called ``count`` times; returns the calls (asserts on timeout)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.calls_to(method)
            if len(got) >= count:
                return got
            time.sleep(0.02)
        raise AssertionError(f"{method} called {len(self.calls_to(method))} times, expected {count}; calls: "
                             f"{[m for m, _ in self.calls]}")

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


# ---------------------------------------------------------------------------------------------
# Slack


class FakeSlack(_Server):
    """Fake Slack Web API at ``url`` (``http://127.0.0.1:PORT/api/``).

    Answers ``auth.test``, ``chat.postMessage`` (returns increasing ``ts``), ``chat.update``,
    ``reactions.add``/``reactions.remove`` and any other method with ``ok: true``."""

    BOT_USER = "UBOT"
    BOT_ID = "BBOT"
    TEAM = "T0001"

    def __init__(self):
        super().__init__()
        self._ts = 1700000000.000100

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/"

    def handle(self, method, params, headers):
        self.record(method, params)
        if method == "auth.test":
            return 200, {"ok": True, "url": "https://fake.slack.com/", "team": "Fake", "user": "threadgraph",
                         "team_id": self.TEAM, "user_id": self.BOT_USER, "bot_id": self.BOT_ID}
        if method == "chat.postMessage":
            with self.lock:
                self._ts += 1
                ts = f"{self._ts:.6f}"
            return 200, {"ok": True, "channel": params.get("channel"), "ts": ts,
                         "message": {"text": params.get("text"), "ts": ts, "bot_id": self.BOT_ID}}
        if method == "chat.update":
            return 200, {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}
        return 200, {"ok": True}


def slack_signature(secret: str, timestamp: str, body: str) -> str:
    """The ``X-Slack-Signature`` value for ``body`` (``v0=`` + HMAC-SHA256 hex)."""
    base = f"v0:{timestamp}:{body}".encode()
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def slack_event_body(event: dict, event_id: str, team: str = FakeSlack.TEAM) -> str:
    """An Events API ``event_callback`` JSON body around ``event``."""
    return json.dumps({
        "token": "legacy", "team_id": team, "api_app_id": "A0001", "type": "event_callback",
        "event_id": event_id, "event_time": int(time.time()), "event": event,
        "authorizations": [{"team_id": team, "user_id": FakeSlack.BOT_USER, "is_bot": True}],
    }, ensure_ascii=False)


def slack_headers(secret: str, body: str, retry_num: int | None = None, bad: bool = False) -> dict:
    """Signed request headers for ``body`` (a wrong signature when ``bad``)."""
    ts = str(int(time.time()))
    sig = slack_signature(secret if not bad else secret + "x", ts, body)
    h = {"content-type": "application/json", "x-slack-request-timestamp": ts, "x-slack-signature": sig}
    if retry_num is not None:
        h["x-slack-retry-num"] = str(retry_num)
        h["x-slack-retry-reason"] = "http_timeout"
    return h


# ---------------------------------------------------------------------------------------------
# Telegram


_RAW_STRING_FIELDS = {"text", "parse_mode", "action", "url", "secret_token", "callback_query_id", "description"}


class FakeTelegram(_Server):
    """Fake Telegram Bot API server at ``root`` (``http://127.0.0.1:PORT``); methods at
    ``{root}/bot{token}/{method}``.

    Answers ``getMe``, ``getUpdates`` (long-polls :meth:`push` -ed updates, waiting at most
    ``max_poll`` seconds), ``sendMessage`` (returns a Message with increasing ids, keeping
    ``message_thread_id`` and the reply), ``editMessageText``, ``sendChatAction``,
    ``setWebhook``/``deleteWebhook`` and anything else with ``true``. Use
    :meth:`fail_with_429` to inject a flood-limit error."""

    BOT_ID = 999000
    USERNAME = "threadgraph_test_bot"

    def __init__(self, max_poll: float = 0.5):
        super().__init__()
        self.updates: queue.Queue = queue.Queue()
        self.max_poll = max_poll
        self._message_id = 5000
        self._update_id = 100

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def parse(self, raw, ctype, query):
        params = super().parse(raw, ctype, query)
        if "json" in ctype:
            return params
        out = {}
        for k, v in params.items():
            if k in _RAW_STRING_FIELDS or not isinstance(v, str):
                out[k] = v
                continue
            try:
                out[k] = json.loads(v)
            except ValueError:
                out[k] = v
        return out

    def fail_with_429(self, method: str, retry_after: int = 1, times: int = 1) -> None:
        """Make the next ``times`` calls to ``method`` fail with 429 ``retry_after``."""
        body = {"ok": False, "error_code": 429, "description": f"Too Many Requests: retry after {retry_after}",
                "parameters": {"retry_after": retry_after}}
        with self.lock:
            self.fail_next.setdefault(method, []).extend([(429, body)] * times)

    def next_update_id(self) -> int:
        with self.lock:
            self._update_id += 1
            return self._update_id

    def push(self, update: dict) -> dict:
        """Queue ``update`` (``update_id`` filled in when missing) for the next ``getUpdates``."""
        update.setdefault("update_id", self.next_update_id())
        self.updates.put(update)
        return update

    def bot_user(self) -> dict:
        return {"id": self.BOT_ID, "is_bot": True, "first_name": "threadgraph", "username": self.USERNAME,
                "can_join_groups": True, "can_read_all_group_messages": False, "supports_inline_queries": False}

    def handle(self, method, params, headers):
        if method == "getUpdates":
            self.record(method, params)
            timeout = min(float(params.get("timeout") or 0), self.max_poll)
            batch = []
            try:
                batch.append(self.updates.get(timeout=timeout) if timeout > 0 else self.updates.get_nowait())
                while True:
                    batch.append(self.updates.get_nowait())
            except queue.Empty:
                pass
            return 200, {"ok": True, "result": batch}
        self.record(method, params)
        if method == "getMe":
            return 200, {"ok": True, "result": self.bot_user()}
        if method in ("sendMessage", "editMessageText"):
            with self.lock:
                self._message_id += 1
                mid = self._message_id if method == "sendMessage" else int(params.get("message_id", 0))
            chat_id = params.get("chat_id")
            msg = {"message_id": mid, "date": int(time.time()), "text": params.get("text", ""),
                   "chat": {"id": chat_id, "type": "private" if isinstance(chat_id, int) and chat_id > 0 else "supergroup"},
                   "from": self.bot_user()}
            if params.get("message_thread_id"):
                msg["message_thread_id"] = params["message_thread_id"]
                msg["is_topic_message"] = True
            return 200, {"ok": True, "result": msg}
        return 200, {"ok": True, "result": True}


def tg_message(text: str, chat_id: int = 42, user_id: int = 7, message_id: int | None = None,
               chat_type: str | None = None, thread_id: int | None = None, reply_to: dict | None = None,
               entities: list | None = None) -> dict:
    """A Telegram ``Message`` JSON object (private chat when ``chat_id > 0``)."""
    ctype = chat_type or ("private" if chat_id > 0 else "supergroup")
    chat = {"id": chat_id, "type": ctype}
    if ctype != "private":
        chat["title"] = "Kitchen"
    if thread_id is not None:
        chat["is_forum"] = True
    msg = {"message_id": message_id or int(time.time() * 1000) % 1_000_000, "date": int(time.time()),
           "chat": chat, "from": {"id": user_id, "is_bot": False, "first_name": "Cook", "language_code": "zh"},
           "text": text}
    if text.startswith("/"):
        cmd = text.split()[0]
        msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(cmd)}]
    if entities:
        msg["entities"] = entities
    if thread_id is not None:
        msg["message_thread_id"] = thread_id
        msg["is_topic_message"] = True
    if reply_to is not None:
        msg["reply_to_message"] = reply_to
    return msg


# ---------------------------------------------------------------------------------------------
# Running async servers from synchronous tests


class LoopThread:
    """An asyncio event loop in a daemon thread; ``run(coro, timeout)`` runs a coroutine on it and
    returns its result; ``submit(coro)`` returns a concurrent Future. ``close()`` stops the loop."""

    def __init__(self):
        import asyncio

        self.asyncio = asyncio
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def submit(self, coro):
        return self.asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro, timeout: float = 20.0):
        return self.submit(coro).result(timeout=timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()


class RunningServe:
    """``threadgraph.adapters.serve.serve_async`` running on a :class:`LoopThread` until
    :meth:`close`, which sets the stop event and waits for the drain to finish."""

    def __init__(self, bot, settings, platforms=("all",), role="all", port: int | None = 0, drain_timeout=10.0):
        from threadgraph.adapters.serve import serve_async

        self.lt = LoopThread()
        self.stop = self.lt.run(self._make_event())
        started = threading.Event()
        self.server = None

        def on_started(server):
            self.server = server
            started.set()

        self.future = self.lt.submit(serve_async(bot, settings, platforms, role, host="127.0.0.1", port=port,
                                                 stop=self.stop, drain_timeout=drain_timeout, started=on_started))
        deadline = time.monotonic() + 20
        while not started.is_set():
            if self.future.done():
                self.future.result()  # raises the start-up error
                raise AssertionError("serve_async returned before starting")
            if time.monotonic() > deadline:
                raise AssertionError("serve_async did not start")
            time.sleep(0.02)

    async def _make_event(self):
        import asyncio

        return asyncio.Event()

    def close(self, timeout: float = 30.0) -> None:
        try:
            self.lt.loop.call_soon_threadsafe(self.stop.set)
            self.future.result(timeout=timeout)
        finally:
            self.lt.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
