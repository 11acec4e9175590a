"""The embedded state backend: :class:`SQLiteState`, files in the data dir (``memory.sqlite``,
``feedback.sqlite``, ``state.sqlite``) shared by the processes of one machine. Importable
from :mod:`threadgraph.bot.state`."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from .feedback import FeedbackStore
from .memory import ThreadMemory, thread_connection
from .state_base import Claim, StateStore, StateUnavailable


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
        return thread_connection(self._local, self.path)

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

