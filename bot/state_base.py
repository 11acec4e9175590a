"""The conversation-state interface (re-exported by :mod:`threadgraph.bot.state`, which
describes it and picks a backend): :class:`StateStore`, :class:`Claim`,
:class:`StateUnavailable`, the :class:`MemoryStore` / :class:`VoteStore` shapes and
:func:`redact_url`. The backends are :mod:`threadgraph.bot.state_sqlite` and
:mod:`threadgraph.bot.state_redis`."""

from __future__ import annotations

import enum
import logging
import os
import socket
import threading
import time
import uuid
from abc import ABC, abstractmethod
from typing import Protocol
from urllib.parse import urlparse, urlunparse

from .answer import Answer
from .memory import ThreadState
from .message import ThreadKey

log = logging.getLogger(f"{__package__}.state")  # the logger of bot/state.py, where this code lived

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

