"""The Redis state backend: :class:`RedisState` with its :class:`RedisMemory` and
:class:`RedisFeedback`, shared by workers on any number of machines. Importable from
:mod:`threadgraph.bot.state`."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from .answer import Answer
from .memory import ThreadState
from .message import ThreadKey
from .state_base import Claim, StateStore, StateUnavailable, redact_url


_RENEW_LUA = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"
_RELEASE_LUA = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))


class RedisMemory:
    """Thread memory in Redis: one string key per thread (``{prefix}thread:{key}``, the
    :meth:`ThreadState.to_json` form) expiring ``ttl_s`` seconds after the last save."""

    def __init__(self, client, prefix: str, ttl_s: float, max_turns: int):
        self._r, self._prefix, self.ttl_s, self.max_turns = client, prefix, ttl_s, max_turns

    def _k(self, key: str) -> str:
        return f"{self._prefix}thread:{key}"

    def load(self, key: str) -> ThreadState:
        """The state of thread ``key`` (empty when unknown, expired or unreadable)."""
        raw = self._r.get(self._k(key))
        if raw is None:
            return ThreadState()
        try:
            return ThreadState.from_json(raw)
        except (ValueError, TypeError, KeyError):
            return ThreadState()

    def save(self, key: str, state: ThreadState) -> None:
        """Store ``state`` (turns trimmed to ``max_turns``), expiring in ``ttl_s`` seconds."""
        state.turns = state.turns[-self.max_turns * 2 :]
        self._r.set(self._k(key), state.to_json(), px=_ms(self.ttl_s))

    def reset(self, key: str) -> bool:
        """Forget thread ``key``; True when something was removed."""
        return bool(self._r.delete(self._k(key)))


class RedisFeedback:
    """Answers and votes in Redis: ``{prefix}answer:{id}`` (JSON: thread, answer, created; expires
    after ``answer_ttl_s`` — a vote arriving later is stored without the answer) and the hash
    ``{prefix}votes`` (field ``answer_id␟user`` → the vote row as JSON, kept until deleted).
    Same contract as :class:`~threadgraph.bot.feedback.FeedbackStore`."""

    def __init__(self, client, prefix: str, answer_ttl_s: float = 7 * 86400):
        self._r, self._prefix, self.answer_ttl_s = client, prefix, answer_ttl_s

    def record_answer(self, answer: Answer, thread: ThreadKey) -> str:
        """Remember a sent answer; returns a new ``answer_id`` (32 hex chars)."""
        answer_id = uuid.uuid4().hex
        row = {"thread": thread.key(), "answer": json.loads(answer.model_dump_json()), "created": time.time()}
        self._r.set(f"{self._prefix}answer:{answer_id}", json.dumps(row, ensure_ascii=False),
                    px=_ms(self.answer_ttl_s))
        return answer_id

    def answer(self, answer_id: str) -> Answer | None:
        """The answer recorded under ``answer_id`` (None when unknown or expired): what a
        "Sources" button shows, on whichever worker the click lands."""
        raw = self._r.get(f"{self._prefix}answer:{answer_id}")
        if raw is None:
            return None
        try:
            return Answer.model_validate(json.loads(raw)["answer"])
        except (ValueError, KeyError, TypeError):
            return None

    def vote(self, answer_id: str, vote: int, user: str, thread: ThreadKey | str | None = None) -> bool:
        """Store ``vote`` (``+1``/``-1``) by ``user`` on ``answer_id`` (a later vote of the same
        user replaces it). False when the answer is unknown; ``ValueError`` for another vote."""
        if vote not in (1, -1):
            raise ValueError("vote must be +1 or -1")
        raw = self._r.get(f"{self._prefix}answer:{answer_id}")
        known = json.loads(raw) if raw else None
        thread_s = thread.key() if isinstance(thread, ThreadKey) else (thread or (known["thread"] if known else ""))
        row = {"answer_id": answer_id, "user": user, "thread": thread_s, "vote": vote,
               "answer": known["answer"] if known else None, "created": time.time()}
        self._r.hset(f"{self._prefix}votes", f"{answer_id}\x1f{user}", json.dumps(row, ensure_ascii=False))
        return known is not None

    def votes(self) -> list[dict]:
        """All votes, oldest first: dicts with ``answer_id``, ``user``, ``thread``, ``vote``,
        ``answer`` (parsed answer JSON or None)."""
        rows = [json.loads(v) for v in self._r.hvals(f"{self._prefix}votes")]
        rows.sort(key=lambda r: r.get("created", 0))
        return [{k: r.get(k) for k in ("answer_id", "user", "thread", "vote", "answer")} for r in rows]


class RedisState(StateStore):
    """State in Redis at ``url`` (``redis://[:password@]host:port/db``, ``rediss://`` for TLS or
    ``unix:///path?db=N``), every key under ``prefix`` (default ``threadgraph:``) so several
    deployments can share one Redis. Keys: ``thread:{key}`` (memory), ``event:{key}`` (claims:
    the holder's owner id with a lease, then ``done``), ``joined:{key}``, ``root:{chat}:{message}``,
    ``answer:{id}`` and the ``votes`` hash. Every key but ``votes`` carries its TTL; no key
    spans two hash slots (Redis Cluster works). One connection pool per store (thread-safe);
    ``socket_timeout`` seconds per command. Keyword arguments as :class:`StateStore`, plus
    ``answer_ttl_s`` for feedback answers."""

    backend = "redis"

    def __init__(self, url: str, *, prefix: str = "threadgraph:", socket_timeout: float = 5.0,
                 answer_ttl_s: float = 7 * 86400, **kw: Any):
        super().__init__(**kw)
        import redis

        self._url_safe = redact_url(url)
        try:
            self._r = redis.Redis.from_url(url, decode_responses=True, socket_timeout=socket_timeout,
                                           socket_connect_timeout=socket_timeout, health_check_interval=30)
        except ValueError as exc:  # the message may quote the URL
            raise StateUnavailable(f"bad THREADGRAPH_STATE_URL {self._url_safe}") from None
        self._errors = (redis.RedisError,)
        self.prefix = prefix
        self._memory = RedisMemory(self._r, prefix, self.memory_ttl_s, self.max_turns)
        self._feedback = RedisFeedback(self._r, prefix, answer_ttl_s)
        self._renew_script = self._r.register_script(_RENEW_LUA)
        self._release_script = self._r.register_script(_RELEASE_LUA)

    @property
    def client(self):
        """The ``redis.Redis`` client (decoded responses)."""
        return self._r

    @property
    def memory(self) -> RedisMemory:
        """The :class:`RedisMemory` (``{prefix}thread:*`` keys)."""
        return self._memory

    @property
    def feedback(self) -> RedisFeedback:
        """The :class:`RedisFeedback` (``{prefix}answer:*`` keys and the ``votes`` hash)."""
        return self._feedback

    def _ek(self, key: str) -> str:
        return f"{self.prefix}event:{key}"

    # events
    def _claim(self, key: str) -> Claim:
        k = self._ek(key)
        for _ in range(3):
            if self._r.set(k, self.owner, nx=True, px=_ms(self.lease_s)):
                return Claim.NEW
            got = self._r.get(k)
            if got is not None:
                return Claim.DONE if got == "done" else Claim.BUSY
            # expired between SET and GET: try again
        return Claim.BUSY

    def _finish(self, key: str) -> None:
        self._r.set(self._ek(key), "done", px=_ms(self.event_ttl_s))

    def _release(self, key: str) -> None:
        self._release_script(keys=[self._ek(key)], args=[self.owner])

    def _status(self, key: str) -> Claim | None:
        got = self._r.get(self._ek(key))
        if got is None:
            return None
        return Claim.DONE if got == "done" else Claim.BUSY

    def _renew(self, keys: list[str]) -> None:
        pipe = self._r.pipeline(transaction=False)
        for key in keys:
            self._renew_script(keys=[self._ek(key)], args=[self.owner, _ms(self.lease_s)], client=pipe)
        pipe.execute()

    # joined threads
    def join_thread(self, key: str) -> None:
        """See :meth:`StateStore.join_thread`."""
        self._r.set(f"{self.prefix}joined:{key}", "1", px=_ms(self.memory_ttl_s))

    def is_joined(self, key: str) -> bool:
        """See :meth:`StateStore.is_joined`."""
        return bool(self._r.exists(f"{self.prefix}joined:{key}"))

    # reply roots
    def set_reply_root(self, chat: int | str, message_id: int, root: int) -> None:
        """See :meth:`StateStore.set_reply_root`."""
        self._r.set(f"{self.prefix}root:{chat}:{int(message_id)}", str(int(root)), px=_ms(self.memory_ttl_s))

    def reply_root(self, chat: int | str, message_id: int) -> int | None:
        """See :meth:`StateStore.reply_root`."""
        got = self._r.get(f"{self.prefix}root:{chat}:{int(message_id)}")
        return int(got) if got is not None else None

    # lifecycle
    def ping(self) -> None:
        """See :meth:`StateStore.ping`."""
        try:
            self._r.ping()
        except self._errors as exc:
            raise StateUnavailable(f"Redis at {self._url_safe} does not answer: {type(exc).__name__}") from None

    def describe(self) -> str:
        """See :meth:`StateStore.describe`."""
        return f"redis {self._url_safe} prefix={self.prefix}"

    def close(self) -> None:
        """See :meth:`StateStore.close`."""
        super().close()
        try:
            self._r.close()
        except Exception:  # noqa: BLE001
            pass

