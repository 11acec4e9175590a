"""A scripted OpenAI-compatible chat server on 127.0.0.1 for tests.

It stands in for the OpenAI API only (our own code is never faked). It is a
real HTTP server (``ThreadingHTTPServer`` on port 0, in a daemon thread) serving
``POST /v1/chat/completions`` with realistic ``chat.completion`` JSON, so the
real ``openai`` and ``instructor`` clients run their whole code path.

Usage::

    with FakeOpenAI() as fake:
        fake.reply({"answer": "...", "found": True, "fact_ids": ["f-1"], "passage_ids": []})
        fake.invalid_json()
        fake.status(500)
        fake.sleep(2.0)
        settings = Settings(openai_api_key="sk-test", openai_base_url=fake.base_url, ...)
        ...
        fake.requests[0].body["messages"]      # every request is recorded

Behaviours are consumed one per request, in order. When the queue is empty the
server answers 500 (``"no scripted behaviour left"``), so an unexpected extra
request shows up as a failure and in ``requests``.

Mode awareness: ``reply(obj)`` with a dict (or pydantic model) renders it the way
the request asks for. A request with ``tools`` gets a ``tool_calls`` message
calling the first tool with ``obj`` as JSON arguments (TOOLS); a request with a
``response_format`` gets raw JSON content (JSON, JSON_SCHEMA); anything else
gets a ```json fenced block (MD_JSON). ``reply_text(s)`` sends ``s`` verbatim
(as content, or as the tool arguments in TOOLS mode).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Behaviour = Callable[[dict], tuple[int, dict]]


@dataclass
class RecordedRequest:
    """One request as received: ``path``, lower-cased ``headers`` and the parsed
    JSON ``body`` (``None`` if it was not JSON)."""

    path: str
    headers: dict[str, str]
    body: Any
    raw: bytes = b""

    @property
    def messages(self) -> list[dict]:
        return list((self.body or {}).get("messages") or [])

    def text(self) -> str:
        """All message contents of the request joined with newlines (tool-role
        contents included), for prompt assertions."""
        parts = []
        for m in self.messages:
            c = m.get("content")
            if isinstance(c, list):
                c = "\n".join(str(x.get("text", "")) for x in c if isinstance(x, dict))
            if c:
                parts.append(str(c))
        return "\n".join(parts)


def _kind(body: dict) -> str:
    if body.get("tools"):
        return "tools"
    if body.get("response_format"):
        return "json"
    return "md_json"


@dataclass
class FakeOpenAI:
    """The scripted server. ``base_url`` is ``http://127.0.0.1:PORT/v1``."""

    model: str = "fake-model"
    requests: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._queue: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._n = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle

    def start(self) -> "FakeOpenAI":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # silence stderr
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw.decode("utf-8")) if raw else None
                except ValueError:
                    body = None
                rec = RecordedRequest(
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                    raw=raw,
                )
                with fake._lock:
                    fake.requests.append(rec)
                    behaviour = fake._queue.popleft() if fake._queue else None
                if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                    code, payload = 404, _error(f"unknown path {self.path}", "invalid_request_error")
                elif not isinstance(body, dict):
                    code, payload = 400, _error("body is not JSON", "invalid_request_error")
                elif behaviour is None:
                    code, payload = 500, _error("fake server: no scripted behaviour left", "server_error")
                else:
                    code, payload = behaviour(body)
                data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
                try:
                    self.send_response(code)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.send_header("x-request-id", f"req_fake_{len(fake.requests)}")
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def pending(self) -> int:
        """Behaviours not consumed yet."""
        return len(self._queue)

    # ------------------------------------------------------------ scripting

    def _push(self, b: Behaviour) -> "FakeOpenAI":
        with self._lock:
            self._queue.append(b)
        return self

    def _completion(self, body: dict, message: dict, finish_reason: str) -> dict:
        with self._lock:
            self._n += 1
            n = self._n
        prompt_tokens = sum(len(str(m.get("content") or "")) for m in body.get("messages") or []) // 4 + 1
        completion_tokens = len(json.dumps(message, ensure_ascii=False)) // 4 + 1
        return {
            "id": f"chatcmpl-fake{n:06d}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or self.model,
            "system_fingerprint": "fp_fake",
            "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _render(self, body: dict, obj: Any, verbatim: bool, usage: tuple[int, int] | None = None) -> tuple[int, dict]:
        code, payload = self._render_message(body, obj, verbatim)
        if usage is not None:
            payload["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                                "total_tokens": usage[0] + usage[1]}
        return code, payload

    def _render_message(self, body: dict, obj: Any, verbatim: bool) -> tuple[int, dict]:
        if hasattr(obj, "model_dump"):
            obj = obj.model_dump()
        kind = _kind(body)
        text = obj if verbatim else json.dumps(obj, ensure_ascii=False)
        if kind == "tools":
            tool = body["tools"][0]["function"]["name"]
            message = {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "tool_calls": [{
                    "id": f"call_fake{len(self.requests):04d}",
                    "type": "function",
                    "function": {"name": tool, "arguments": text},
                }],
            }
            return 200, self._completion(body, message, "tool_calls")
        if kind == "md_json" and not verbatim:
            text = f"Here is the result:\n```json\n{text}\n```"
        return 200, self._completion(body, {"role": "assistant", "content": text, "refusal": None}, "stop")

    def reply(self, obj: Any, usage: tuple[int, int] | None = None) -> "FakeOpenAI":
        """Answer with ``obj`` (dict or pydantic model) rendered for the request's mode;
        ``usage=(prompt_tokens, completion_tokens)`` fixes the reported usage
        (default: about a token per four characters)."""
        return self._push(lambda body: self._render(body, obj, verbatim=False, usage=usage))

    def reply_text(self, text: str, usage: tuple[int, int] | None = None) -> "FakeOpenAI":
        """Answer with ``text`` verbatim as the content (or TOOLS arguments); ``usage`` as in :meth:`reply`."""
        return self._push(lambda body: self._render(body, text, verbatim=True, usage=usage))

    def invalid_json(self) -> "FakeOpenAI":
        """Answer with truncated, unparseable JSON in the request's mode."""
        def b(body: dict) -> tuple[int, dict]:
            broken = '{"answer": "oops, cut off", "found": tr'
            if _kind(body) == "md_json":
                broken = f"```json\n{broken}\n```"
            return self._render(body, broken, verbatim=True)
        return self._push(b)

    def status(self, code: int, body: dict | None = None) -> "FakeOpenAI":
        """Answer with HTTP ``code`` and an OpenAI-style error body (or ``body``)."""
        payload = body if body is not None else _error(f"fake error {code}", "server_error" if code >= 500 else "rate_limit_error" if code == 429 else "invalid_request_error")
        return self._push(lambda _body: (code, payload))

    def sleep(self, seconds: float, then: Any = None) -> "FakeOpenAI":
        """Wait ``seconds`` before answering (``then`` rendered like ``reply``, or
        a minimal valid-looking object) — longer than the client timeout, the
        client gives up first."""
        def b(body: dict) -> tuple[int, dict]:
            time.sleep(seconds)
            return self._render(body, then if then is not None else {"answer": "late", "found": False}, verbatim=False)
        return self._push(b)


def _error(message: str, typ: str) -> dict:
    return {"error": {"message": message, "type": typ, "param": None, "code": None}}
