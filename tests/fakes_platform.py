"""Fake Slack Web API and Telegram Bot API servers on 127.0.0.1 (port 0), speaking real HTTP.

They replace only the platforms: the real slack-sdk / python-telegram-bot clients talk to them.
Each records every call as ``(method, params)`` so tests assert on what the platform received.
Use them as context managers; they always shut down.

They are strict where the real services are strict, so a test fails the way production would:

* Slack answers ``{"ok": false, "error": ...}`` (HTTP 200) for ``msg_too_long`` (``text`` over
  40,000 characters), ``invalid_blocks`` (more than 50 blocks, a section text empty or over 3,000
  characters, a context block with 0 or more than 10 elements, a button text over 75 or value over
  2,000 characters), ``msg_blocks_too_long`` (the blocks' text characters plus
  :data:`SLACK_BLOCK_OVERHEAD` per block over :data:`SLACK_BLOCKS_TEXT_LIMIT`: Slack's undocumented
  cumulative limit, rejected from ~11.3k text characters in public reports), ``no_text``,
  ``message_not_found`` (``chat.update`` of a ts it never posted); a rate limit is HTTP 429 with a
  ``Retry-After`` header and ``{"ok": false, "error": "ratelimited"}``.
* Telegram answers ``{"ok": false, "error_code": 400, "description": "Bad Request: ..."}`` for
  ``message text is empty``, ``message is too long`` (over 4,096 characters after entity
  parsing), ``can't parse entities`` (an HTML tag Telegram does not support, or unbalanced),
  ``message thread not found`` (``message_thread_id`` 1: the General topic cannot be addressed),
  ``BUTTON_DATA_INVALID`` (callback data over 64 bytes); 401 ``Unauthorized`` for a token other
  than ``valid_token`` (when set); a flood limit is HTTP 429 with ``parameters.retry_after``.
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
        #: ``(method, error body)`` of every request the fake refused as the real service would.
        self.rejections: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        self.fail_next: dict[str, list[tuple]] = {}
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
                result = outer.dispatch(path, params, dict(self.headers))
                status, body = result[0], result[1]
                extra = result[2] if len(result) > 2 else {}
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in extra.items():
                    self.send_header(k, v)
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

    def dispatch(self, path: str, params: dict, headers: dict) -> tuple:
        """``(status, body[, extra headers])`` for one request: an injected failure first, else
        :meth:`handle`; a call the fake rejects is recorded as ``"<method>!rejected"``."""
        method = path.rstrip("/").rsplit("/", 1)[-1]
        with self.lock:
            fails = self.fail_next.get(method)
            if fails:
                failure = fails.pop(0)
                self.calls.append((method + "!failed", params))
                return failure
        denied = self.check_auth(path, method, params, headers)
        if denied is not None:
            self.record(method + "!rejected", params)
            return denied
        problem = self.validate(method, params)
        if problem is not None:
            self.record(method + "!rejected", params)
            with self.lock:
                self.rejections.append((method, problem[1]))
            return problem
        return self.handle(method, params, headers)

    def check_auth(self, path: str, method: str, params: dict, headers: dict) -> tuple | None:
        """A response refusing the credentials of this request, or None (accepted)."""
        return None

    def validate(self, method: str, params: dict) -> tuple | None:
        """The error response the real service gives for these params, or None (valid)."""
        return None

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


#: Slack's cumulative limit on the text of a message's blocks (``msg_blocks_too_long``), with
#: :data:`SLACK_BLOCK_OVERHEAD` characters charged per block for its container.
SLACK_BLOCKS_TEXT_LIMIT = 12_000
SLACK_BLOCK_OVERHEAD = 40
SLACK_TEXT_LIMIT = 40_000  # chat.postMessage ``text``: msg_too_long above this


def _block_texts(node) -> list[str]:
    """Every ``text`` string inside a block (or list of blocks), depth first."""
    out: list[str] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "text" and isinstance(v, str):
                out.append(v)
            else:
                out.extend(_block_texts(v))
    elif isinstance(node, list):
        for v in node:
            out.extend(_block_texts(v))
    return out


def slack_blocks_problem(blocks) -> str | None:
    """The Slack error code for ``blocks`` (a list of Block Kit blocks), or None when valid."""
    if not isinstance(blocks, list) or len(blocks) > 50:
        return "invalid_blocks"
    for b in blocks:
        btype = b.get("type") if isinstance(b, dict) else None
        if btype == "section":
            text = (b.get("text") or {}).get("text", "")
            if not text or len(text) > 3000:
                return "invalid_blocks"
        elif btype == "context":
            els = b.get("elements") or []
            if not 1 <= len(els) <= 10 or any(len(e.get("text", "")) > 3000 for e in els):
                return "invalid_blocks"
        elif btype == "actions":
            els = b.get("elements") or []
            if not 1 <= len(els) <= 25:
                return "invalid_blocks"
            for e in els:
                if len((e.get("text") or {}).get("text", "")) > 75 or len(e.get("value", "")) > 2000:
                    return "invalid_blocks"
        elif btype not in ("divider", "header", "rich_text", "markdown", "image"):
            return "invalid_blocks"
    total = sum(len(t) for t in _block_texts(blocks)) + SLACK_BLOCK_OVERHEAD * len(blocks)
    if total > SLACK_BLOCKS_TEXT_LIMIT:
        return "msg_blocks_too_long"
    return None


class FakeSlack(_Server):
    """Fake Slack Web API at ``url`` (``http://127.0.0.1:PORT/api/``).

    Answers ``auth.test``, ``chat.postMessage`` (returns increasing ``ts``), ``chat.update`` (of
    a message it posted), ``reactions.add``/``reactions.remove`` and any other method with
    ``ok: true``; refuses what Slack refuses (see the module docstring). Use
    :meth:`fail_with_429` to inject a rate limit."""

    BOT_USER = "UBOT"
    BOT_ID = "BBOT"
    TEAM = "T0001"

    def __init__(self):
        super().__init__()
        self._ts = 1700000000.000100
        self.posted: set[str] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/"

    def fail_with_429(self, method: str, retry_after: int = 1, times: int = 1) -> None:
        """Make the next ``times`` calls to ``method`` fail as Slack does when rate limited:
        HTTP 429, ``Retry-After: retry_after`` and ``{"ok": false, "error": "ratelimited"}``."""
        failure = (429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(retry_after)})
        with self.lock:
            self.fail_next.setdefault(method, []).extend([failure] * times)

    def validate(self, method, params):
        if method not in ("chat.postMessage", "chat.update"):
            return None

        def err(code: str) -> tuple:
            return 200, {"ok": False, "error": code}

        if not params.get("channel"):
            return err("channel_not_found")
        blocks = params.get("blocks")
        if isinstance(blocks, str):
            try:
                blocks = json.loads(blocks)
            except ValueError:
                return err("invalid_blocks_format")
        text = params.get("text") or ""
        if not text.strip() and not blocks:
            return err("no_text")
        if len(text) > SLACK_TEXT_LIMIT:
            return err("msg_too_long")
        if blocks is not None:
            problem = slack_blocks_problem(blocks)
            if problem:
                return err(problem)
        if method == "chat.update":
            with self.lock:
                known = params.get("ts") in self.posted
            if not known:
                return err("message_not_found")
        return None

    def handle(self, method, params, headers):
        self.record(method, params)
        if method == "auth.test":
            return 200, {"ok": True, "url": "https://fake.slack.com/", "team": "Fake", "user": "threadgraph",
                         "team_id": self.TEAM, "user_id": self.BOT_USER, "bot_id": self.BOT_ID}
        if method == "chat.postMessage":
            with self.lock:
                self._ts += 1
                ts = f"{self._ts:.6f}"
                self.posted.add(ts)
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
#: The HTML tags the Bot API accepts in ``parse_mode=HTML``.
TELEGRAM_HTML_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
                      "code", "pre", "blockquote", "tg-emoji"}
TELEGRAM_TEXT_LIMIT = 4096  # UTF-16 code units after entity parsing


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (how Telegram counts)."""
    return len(text.encode("utf-16-le")) // 2


def telegram_html_text(html_text: str) -> str:
    """The text Telegram shows for ``html_text`` (entities parsed). Raises ``ValueError`` with
    Telegram's description when it cannot parse the entities (unsupported or unbalanced tag)."""
    from html.parser import HTMLParser

    class P(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.stack: list[str] = []
            self.out: list[str] = []

        def handle_starttag(self, tag, attrs):
            if tag not in TELEGRAM_HTML_TAGS:
                raise ValueError(f'Bad Request: can\'t parse entities: Unsupported start tag "{tag}"')
            self.stack.append(tag)

        def handle_endtag(self, tag):
            if not self.stack or self.stack[-1] != tag:
                raise ValueError(f'Bad Request: can\'t parse entities: Unmatched end tag "{tag}"')
            self.stack.pop()

        def handle_data(self, data):
            self.out.append(data)

    p = P()
    p.feed(html_text)
    p.close()
    if p.stack:
        raise ValueError(f'Bad Request: can\'t parse entities: Can\'t find end tag corresponding to start tag "{p.stack[-1]}"')
    return "".join(p.out)


class FakeTelegram(_Server):
    """Fake Telegram Bot API server at ``root`` (``http://127.0.0.1:PORT``); methods at
    ``{root}/bot{token}/{method}``.

    Answers ``getMe``, ``getUpdates`` (long-polls :meth:`push` -ed updates, waiting at most
    ``max_poll`` seconds), ``sendMessage`` (returns a Message with increasing ids, keeping
    ``message_thread_id``, the reply and the ``reply_markup``), ``editMessageText``,
    ``sendChatAction``, ``answerCallbackQuery``, ``setWebhook``/``deleteWebhook`` and anything
    else with ``true``; refuses what Telegram refuses (see the module docstring), and with
    ``valid_token`` set answers every other token with 401 Unauthorized. Use
    :meth:`fail_with_429` to inject a flood-limit error."""

    BOT_ID = 999000
    USERNAME = "threadgraph_test_bot"

    def __init__(self, max_poll: float = 0.5, valid_token: str | None = None):
        super().__init__()
        self.updates: queue.Queue = queue.Queue()
        self.max_poll = max_poll
        self.valid_token = valid_token
        #: Every Message the fake returned for sendMessage/editMessageText, in order.
        self.sent: list[dict] = []
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

    def check_auth(self, path, method, params, headers):
        if self.valid_token is None:
            return None
        token = path.strip("/").split("/")[0].removeprefix("bot")
        if token == self.valid_token:
            return None
        return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}

    def validate(self, method, params):
        def bad(description: str) -> tuple:
            return 400, {"ok": False, "error_code": 400, "description": description}

        if params.get("message_thread_id") == 1 and method.startswith("send"):
            return bad("Bad Request: message thread not found")
        if method in ("sendMessage", "editMessageText"):
            text = params.get("text") or ""
            if params.get("parse_mode") == "HTML":
                try:
                    text = telegram_html_text(text)
                except ValueError as exc:
                    return bad(str(exc))
            if not text.strip():
                return bad("Bad Request: message text is empty")
            if utf16_len(text) > TELEGRAM_TEXT_LIMIT:
                return bad("Bad Request: message is too long")
        markup = params.get("reply_markup")
        if isinstance(markup, dict):
            for row in markup.get("inline_keyboard") or []:
                for button in row:
                    if not button.get("text"):
                        return bad("Bad Request: text buttons are unallowed in the inline keyboard")
                    data = button.get("callback_data")
                    if data is not None and not 1 <= len(data.encode()) <= 64:
                        return bad("Bad Request: BUTTON_DATA_INVALID")
        if method == "answerCallbackQuery" and len(params.get("text") or "") > 200:
            return bad("Bad Request: MESSAGE_TOO_LONG")
        return None

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
            if isinstance(params.get("reply_markup"), dict):
                msg["reply_markup"] = params["reply_markup"]
            with self.lock:
                self.sent.append(copy.deepcopy(msg))
            return 200, {"ok": True, "result": msg}
        return 200, {"ok": True, "result": True}


def tg_message(text: str | None, chat_id: int = 42, user_id: int = 7, message_id: int | None = None,
               chat_type: str | None = None, thread_id: int | None = None, reply_to: dict | None = None,
               entities: list | None = None, language_code: str = "zh", **extra) -> dict:
    """A Telegram ``Message`` JSON object (private chat when ``chat_id > 0``); ``text=None`` for a
    message without text (give e.g. ``photo=[...]`` or ``sticker={...}`` in ``extra``)."""
    ctype = chat_type or ("private" if chat_id > 0 else "supergroup")
    chat = {"id": chat_id, "type": ctype}
    if ctype != "private":
        chat["title"] = "Kitchen"
    if thread_id is not None:
        chat["is_forum"] = True
    msg = {"message_id": message_id or int(time.time() * 1000) % 1_000_000, "date": int(time.time()),
           "chat": chat, "from": {"id": user_id, "is_bot": False, "first_name": "Cook",
                                  "language_code": language_code}, **extra}
    if text is not None:
        msg["text"] = text
    if text and text.startswith("/"):
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


def tg_callback(message: dict, data: str, user_id: int = 7, language_code: str = "zh") -> dict:
    """A ``callback_query`` update payload: a click on an inline button with ``data`` under the
    bot's ``message`` (a Message dict as the fake returned it from sendMessage)."""
    return {"callback_query": {"id": f"cq{time.monotonic_ns()}", "chat_instance": "ci-1", "data": data,
                               "from": {"id": user_id, "is_bot": False, "first_name": "Cook",
                                        "language_code": language_code},
                               "message": message}}


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

    def __init__(self, bot, settings, platforms=("all",), role="all", port: int | None = 0, drain_timeout=10.0,
                 **kw):
        from threadgraph.adapters.serve import serve_async

        self.lt = LoopThread()
        self.stop = self.lt.run(self._make_event())
        started = threading.Event()
        self.server = None

        def on_started(server):
            self.server = server
            started.set()

        self.future = self.lt.submit(serve_async(bot, settings, platforms, role, host="127.0.0.1", port=port,
                                                 stop=self.stop, drain_timeout=drain_timeout, started=on_started,
                                                 **kw))
        deadline = time.monotonic() + 20
        try:
            while not started.is_set():
                if self.future.done():
                    self.future.result()  # raises the start-up error
                    raise AssertionError("serve_async returned before starting")
                if time.monotonic() > deadline:
                    raise AssertionError("serve_async did not start")
                time.sleep(0.02)
        except BaseException:
            self.lt.close()
            raise

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
