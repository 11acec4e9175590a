"""Conversation state shared across events, restarts and workers: one interface, two backends.

Everything a conversation needs beyond the event being handled:

* **thread memory** — :class:`~threadgraph.bot.memory.ThreadState` (turns, named entities, the
  filled slots and constraints such as an excluded ingredient), keyed by ``ThreadKey.key()``,
  forgotten ``memory_ttl_s`` seconds after the last update: :attr:`StateStore.memory`;
* **processed events** — Slack ``event_id`` (and channel/ts), Telegram ``update_id``: a claim
  holding a *lease* while one process answers, then *done* for ``event_ttl_s`` seconds
  (:meth:`StateStore.claim_event`, :meth:`StateStore.finish_event`);
* **joined Slack threads** — follow-ups without a mention are answered there
  (:meth:`StateStore.join_thread`, :meth:`StateStore.is_joined`);
* **Telegram reply roots** — message id → root of its reply chain, so a reply to the bot's
  answer continues the conversation (:meth:`StateStore.set_reply_root`,
  :meth:`StateStore.reply_root`);
* **feedback** — the answers sent and the 👍/👎 votes on them: :attr:`StateStore.feedback`.

Backends (:func:`open_state` picks one from the settings):

* :class:`SQLiteState` — the embedded default, files in the data dir (``memory.sqlite``,
  ``feedback.sqlite``, ``state.sqlite``). WAL mode: any number of processes *on one machine*
  share them (``serve --workers N``).
* :class:`RedisState` — ``THREADGRAPH_STATE_URL=redis://[:password@]host:port/db`` (or
  ``rediss://``, ``unix://``), through the ``redis`` client; expiry is Redis's own (``PX`` on
  every key), claims are ``SET NX PX``. Workers on any number of machines share it.

Event claims are at-least-once with a lease: :meth:`~StateStore.claim_event` answers
:attr:`Claim.NEW` to exactly one caller (who then holds a lease of ``lease_s`` seconds, renewed
every ``lease_s / 3`` seconds by a background thread while the process lives),
:attr:`Claim.BUSY` to others while the lease lives, and :attr:`Claim.DONE` after
:meth:`~StateStore.finish_event`. When the holder dies (SIGKILL, machine loss) its lease
expires within ``lease_s`` seconds and a re-delivery of the event is claimed anew, so the
event is answered once — or, when the holder died between its reply reaching the platform and
``finish_event`` (milliseconds), twice.
"""

from __future__ import annotations

import enum
import json
import logging
import os
import socket
import sqlite3
import threading
import time
import uuid
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse, urlunparse

from .answer import Answer
from .feedback import FeedbackStore
from .memory import ThreadMemory, ThreadState
from .message import ThreadKey

log = logging.getLogger(__name__)

SCHEMES_REDIS = ("redis", "rediss", "unix")


class Claim(str, enum.Enum):
    """The outcome of :meth:`StateStore.claim_event`."""

    NEW = "new"  #: the caller now holds the event (a renewed lease) and should answer it
    BUSY = "busy"  #: another live holder is answering it
    DONE = "done"  #: it was answered already


class StateUnavailable(RuntimeError):
    """The state backend cannot be reached or is misconfigured (message carries no password)."""


class MemoryStore(Protocol):
    """Thread memory as the core uses it (:class:`~threadgraph.bot.memory.ThreadMemory` shape)."""

    def load(self, key: str) -> ThreadState:
        """The state of thread ``key`` (empty when unknown or expired)."""

    def save(self, key: str, state: ThreadState) -> None:
        """Store ``state`` for ``key`` (turns trimmed)."""

    def reset(self, key: str) -> bool:
        """Forget ``key``; True when something was removed."""


class VoteStore(Protocol):
    """Feedback as the adapters use it (:class:`~threadgraph.bot.feedback.FeedbackStore` shape)."""

    def record_answer(self, answer: Answer, thread: ThreadKey) -> str:
        """Remember a sent answer; returns its new ``answer_id`` (32 hex chars)."""

    def answer(self, answer_id: str) -> Answer | None:
        """The answer recorded under ``answer_id`` (None when unknown or expired)."""

    def vote(self, answer_id: str, vote: int, user: str, thread: ThreadKey | str | None = None) -> bool:
        """Store a ±1 vote; False when the answer is unknown, ``ValueError`` for another value."""

    def votes(self) -> list[dict]:
        """All votes, oldest first."""


def redact_url(url: str) -> str:
    """``url`` with its password (and user) replaced by ``***``: safe for logs and errors."""
    try:
        p = urlparse(url)
    except ValueError:
        return "<unparsable URL>"
    if p.password is None and p.username is None:
        return url
    host = p.hostname or ""
    if p.port:
        host = f"{host}:{p.port}"
    return urlunparse(p._replace(netloc=f"***@{host}"))


class StateStore(ABC):
    """The conversation state interface (see the module doc); thread-safe, shared by the core and
    the adapters of one process.

    ``memory_ttl_s``: seconds after its last update a thread's memory, its joined-thread mark and
    its reply roots are forgotten; ``max_turns``: user turns kept per thread; ``event_ttl_s``:
    seconds a finished event stays *done* (re-deliveries within it are not answered again);
    ``lease_s``: seconds a claim outlives a dead holder (renewed every ``lease_s / 3`` seconds
    while the holder lives)."""

    backend = "abstract"

    def __init__(self, *, memory_ttl_s: float = 7 * 86400, max_turns: int = 10,
                 event_ttl_s: float = 86400.0, lease_s: float = 10.0):
        if lease_s <= 0 or event_ttl_s <= 0 or memory_ttl_s <= 0:
            raise ValueError("memory_ttl_s, event_ttl_s and lease_s must be positive")
        self.memory_ttl_s = memory_ttl_s
        self.max_turns = max_turns
        self.event_ttl_s = event_ttl_s
        self.lease_s = lease_s
        #: identifies this store's claims (host, pid, random) — two stores never share one
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._held: set[str] = set()
        self._held_lock = threading.Lock()
        self._renewer: threading.Thread | None = None
        self._stop = threading.Event()

    # -- the parts ----------------------------------------------------------------------------

    @property
    @abstractmethod
    def memory(self) -> MemoryStore:
        """Thread memory: ``load(key) -> ThreadState`` (empty when unknown or expired),
        ``save(key, state)`` (turns trimmed to ``max_turns``), ``reset(key) -> bool``."""

    @property
    @abstractmethod
    def feedback(self) -> VoteStore:
        """Feedback: ``record_answer(answer, thread) -> answer_id`` (32 hex chars),
        ``answer(answer_id) -> Answer | None``, ``vote(answer_id, ±1, user, thread) -> bool`` (False when the answer is unknown; raises
        ``ValueError`` for another vote), ``votes() -> list[dict]`` (oldest first)."""

    # -- processed events ----------------------------------------------------------------------

    def claim_event(self, key: str) -> Claim:
        """Claim event ``key`` (e.g. ``"telegram:<bot>:update:<id>"``); see :class:`Claim`.

        On :attr:`Claim.NEW` the caller must later call :meth:`finish_event` (answered) or
        :meth:`release_event` (gave up; a re-delivery may be answered). Raises the backend's
        connection errors."""
        got = self._claim(key)
        if got is Claim.NEW:
            with self._held_lock:
                self._held.add(key)
            self._ensure_renewer()
        return got

    def finish_event(self, key: str) -> None:
        """Mark ``key`` answered: *done* for ``event_ttl_s`` seconds; stops renewing its lease."""
        with self._held_lock:
            self._held.discard(key)
        self._finish(key)

    def release_event(self, key: str) -> None:
        """Drop this store's claim of ``key`` (no-op when another holds it): the next delivery
        is claimed anew."""
        with self._held_lock:
            self._held.discard(key)
        self._release(key)

    def event_status(self, key: str) -> Claim | None:
        """:attr:`Claim.DONE`, :attr:`Claim.BUSY` (a live lease) or None (unknown/expired);
        read-only."""
        return self._status(key)

    def claim_event_wait(self, key: str, timeout: float | None = None, poll_s: float = 0.2) -> bool:
        """Claim ``key``, waiting while another holder's lease lives: True when this caller now
        holds it (answer, then :meth:`finish_event`), False when it is done (or still busy after
        ``timeout`` seconds, default ``3 * lease_s``). Blocking: call it from a worker thread."""
        deadline = time.monotonic() + (3 * self.lease_s if timeout is None else timeout)
        while True:
            got = self.claim_event(key)
            if got is Claim.NEW:
                return True
            if got is Claim.DONE or time.monotonic() >= deadline:
                return False
            time.sleep(poll_s)

    def _ensure_renewer(self) -> None:
        if self._renewer is not None and self._renewer.is_alive():
            return
        with self._held_lock:
            if self._renewer is None or not self._renewer.is_alive():
                self._renewer = threading.Thread(target=self._renew_loop, name="threadgraph-state-lease",
                                                 daemon=True)
                self._renewer.start()

    def _renew_loop(self) -> None:
        while not self._stop.wait(self.lease_s / 3):
            with self._held_lock:
                keys = list(self._held)
            if not keys:
                continue
            try:
                self._renew(keys)
            except Exception:  # noqa: BLE001 - a failed renewal is retried at the next tick
                log.warning("state: renewing %d event leases failed", len(keys), exc_info=True)

    @abstractmethod
    def _claim(self, key: str) -> Claim: ...

    @abstractmethod
    def _finish(self, key: str) -> None: ...

    @abstractmethod
    def _release(self, key: str) -> None: ...

    @abstractmethod
    def _status(self, key: str) -> Claim | None: ...

    @abstractmethod
    def _renew(self, keys: list[str]) -> None: ...

    # -- joined Slack threads -------------------------------------------------------------------

    @abstractmethod
    def join_thread(self, key: str) -> None:
        """Remember that the bot takes part in thread ``key`` (e.g. ``"slack:T1:C1:1710.0001"``)
        for ``memory_ttl_s`` seconds (refreshed on every call)."""

    @abstractmethod
    def is_joined(self, key: str) -> bool:
        """True when :meth:`join_thread` was called for ``key`` within ``memory_ttl_s``."""

    # -- Telegram reply roots ---------------------------------------------------------------------

    @abstractmethod
    def set_reply_root(self, chat: int | str, message_id: int, root: int) -> None:
        """Remember that message ``message_id`` of ``chat`` belongs to the reply chain rooted at
        message ``root`` (kept ``memory_ttl_s`` seconds)."""

    @abstractmethod
    def reply_root(self, chat: int | str, message_id: int) -> int | None:
        """The root recorded for ``message_id`` of ``chat``, or None."""

    # -- lifecycle ------------------------------------------------------------------------------

    @abstractmethod
    def ping(self) -> None:
        """Check the backend answers; raises :class:`StateUnavailable` (no password in it)."""

    @abstractmethod
    def describe(self) -> str:
        """A one-line description safe for logs (a URL's password is ``***``)."""

    def close(self) -> None:
        """Stop the lease renewer and release connections. Leases still held expire by
        themselves."""
        self._stop.set()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"


# ---------------------------------------------------------------------------------------------
# SQLite (embedded default)


_STATE_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (key TEXT PRIMARY KEY, owner TEXT NOT NULL, done INTEGER NOT NULL,
                                   expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS joined (key TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS roots (chat TEXT NOT NULL, message INTEGER NOT NULL, root INTEGER NOT NULL,
                                  expires REAL NOT NULL, PRIMARY KEY (chat, message));
CREATE INDEX IF NOT EXISTS events_expires ON events(expires);
CREATE INDEX IF NOT EXISTS joined_expires ON joined(expires);
CREATE INDEX IF NOT EXISTS roots_expires ON roots(expires);
"""


class SQLiteState(StateStore):
    """State in SQLite files of ``data_dir``: ``memory.sqlite`` (:class:`ThreadMemory`),
    ``feedback.sqlite`` (:class:`FeedbackStore`) and ``state.sqlite`` (events, joined threads,
    reply roots). WAL journal, one connection per OS thread, writes in ``BEGIN IMMEDIATE``
    transactions: safe for many threads and many processes of one machine (not across machines:
    use :class:`RedisState`). Expired rows are ignored at once and purged every 500 writes.
    Keyword arguments as :class:`StateStore`."""

    backend = "sqlite"

    def __init__(self, data_dir: str | Path, **kw: Any):
        super().__init__(**kw)
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / "state.sqlite"
        self._memory = ThreadMemory(self.data_dir / "memory.sqlite", ttl_s=self.memory_ttl_s, max_turns=self.max_turns)
        self._feedback: FeedbackStore | None = None
        self._feedback_lock = threading.Lock()
        self._local = threading.local()
        self._writes = 0
        conn = self._conn()
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(_STATE_SCHEMA)

    @property
    def memory(self) -> ThreadMemory:
        """The :class:`~threadgraph.bot.memory.ThreadMemory` in ``memory.sqlite``."""
        return self._memory

    @property
    def feedback(self) -> FeedbackStore:
        """The :class:`~threadgraph.bot.feedback.FeedbackStore` in ``feedback.sqlite`` (opened on first use)."""
        if self._feedback is None:
            with self._feedback_lock:
                if self._feedback is None:
                    self._feedback = FeedbackStore.for_data_dir(self.data_dir)
        return self._feedback

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    def _write(self, fn):
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            out = fn(conn, time.time())
            self._writes += 1
            if self._writes % 500 == 0:
                now = time.time()
                for table in ("events", "joined", "roots"):
                    conn.execute(f"DELETE FROM {table} WHERE expires < ?", (now,))  # noqa: S608 - fixed names
            conn.execute("COMMIT")
            return out
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    # events
    def _claim(self, key: str) -> Claim:
        def tx(conn, now):
            row = conn.execute("SELECT done, expires FROM events WHERE key = ?", (key,)).fetchone()
            if row is not None and row[1] > now:
                return Claim.DONE if row[0] else Claim.BUSY
            conn.execute("INSERT OR REPLACE INTO events(key, owner, done, expires) VALUES (?, ?, 0, ?)",
                         (key, self.owner, now + self.lease_s))
            return Claim.NEW

        return self._write(tx)

    def _finish(self, key: str) -> None:
        self._write(lambda conn, now: conn.execute(
            "INSERT OR REPLACE INTO events(key, owner, done, expires) VALUES (?, ?, 1, ?)",
            (key, self.owner, now + self.event_ttl_s)))

    def _release(self, key: str) -> None:
        self._write(lambda conn, now: conn.execute(
            "DELETE FROM events WHERE key = ? AND owner = ? AND done = 0", (key, self.owner)))

    def _status(self, key: str) -> Claim | None:
        row = self._conn().execute("SELECT done, expires FROM events WHERE key = ?", (key,)).fetchone()
        if row is None or row[1] <= time.time():
            return None
        return Claim.DONE if row[0] else Claim.BUSY

    def _renew(self, keys: list[str]) -> None:
        def tx(conn, now):
            conn.executemany("UPDATE events SET expires = ? WHERE key = ? AND owner = ? AND done = 0",
                             [(now + self.lease_s, k, self.owner) for k in keys])

        self._write(tx)

    # joined threads
    def join_thread(self, key: str) -> None:
        """See :meth:`StateStore.join_thread`."""
        self._write(lambda conn, now: conn.execute(
            "INSERT OR REPLACE INTO joined(key, expires) VALUES (?, ?)", (key, now + self.memory_ttl_s)))

    def is_joined(self, key: str) -> bool:
        """See :meth:`StateStore.is_joined`."""
        row = self._conn().execute("SELECT expires FROM joined WHERE key = ?", (key,)).fetchone()
        return row is not None and row[0] > time.time()

    # reply roots
    def set_reply_root(self, chat: int | str, message_id: int, root: int) -> None:
        """See :meth:`StateStore.set_reply_root`."""
        self._write(lambda conn, now: conn.execute(
            "INSERT OR REPLACE INTO roots(chat, message, root, expires) VALUES (?, ?, ?, ?)",
            (str(chat), int(message_id), int(root), now + self.memory_ttl_s)))

    def reply_root(self, chat: int | str, message_id: int) -> int | None:
        """See :meth:`StateStore.reply_root`."""
        row = self._conn().execute("SELECT root, expires FROM roots WHERE chat = ? AND message = ?",
                                   (str(chat), int(message_id))).fetchone()
        return int(row[0]) if row is not None and row[1] > time.time() else None

    # lifecycle
    def ping(self) -> None:
        """See :meth:`StateStore.ping`."""
        try:
            self._conn().execute("SELECT 1").fetchone()
        except sqlite3.Error as exc:
            raise StateUnavailable(f"state database {self.path}: {exc}") from exc

    def describe(self) -> str:
        """See :meth:`StateStore.describe`."""
        return f"sqlite {self.data_dir}"

    def close(self) -> None:
        """See :meth:`StateStore.close`."""
        super().close()
        if self._feedback is not None:
            self._feedback.close()


# ---------------------------------------------------------------------------------------------
# Redis


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


# ---------------------------------------------------------------------------------------------
# Choosing a backend


_shared: dict[tuple, StateStore] = {}
_shared_lock = threading.Lock()


def open_state(settings, *, shared: bool = True) -> StateStore:
    """The state store configured by ``settings``: :class:`RedisState` when
    ``settings.state_url`` is set (``redis://``, ``rediss://`` or ``unix://``), else
    :class:`SQLiteState` in ``settings.data_dir``. TTLs come from ``memory_ttl_days``,
    ``memory_max_turns``, ``state_event_ttl_s`` and ``state_lease_s``.

    With ``shared`` (default) one store is kept per configuration in this process, so the core
    and the adapters share connections and one lease renewer. Opening connects to nothing (call
    :meth:`StateStore.ping` to check). Raises :class:`StateUnavailable` for an unsupported URL
    scheme or a malformed URL (the password never appears in the message)."""
    url = settings.state_url.get_secret_value() if getattr(settings, "state_url", None) else ""
    common = dict(memory_ttl_s=settings.memory_ttl_days * 86400, max_turns=settings.memory_max_turns,
                  event_ttl_s=settings.state_event_ttl_s, lease_s=settings.state_lease_s)
    if url:
        scheme = url.split("://", 1)[0].lower() if "://" in url else ""
        if scheme not in SCHEMES_REDIS:
            raise StateUnavailable(f"THREADGRAPH_STATE_URL {redact_url(url)}: unsupported scheme {scheme!r} "
                                   "(redis://, rediss:// or unix://; unset for SQLite in the data dir)")
        ident = ("redis", url, settings.state_key_prefix, *common.values())

        def make() -> StateStore:
            return RedisState(url, prefix=settings.state_key_prefix,
                              answer_ttl_s=settings.feedback_ttl_days * 86400, **common)
    else:
        ident = ("sqlite", str(Path(settings.data_dir).resolve()), *common.values())

        def make() -> StateStore:
            return SQLiteState(settings.data_dir, **common)

    if not shared:
        return make()
    with _shared_lock:
        store = _shared.get(ident)
        if store is None or store._stop.is_set():
            store = _shared[ident] = make()
        return store
