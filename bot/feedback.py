"""Answer feedback (👍 / 👎) stored for evaluation; platform-agnostic, SQLite.

Adapters call :meth:`FeedbackStore.record_answer` when they send an answer (getting back an
``answer_id`` to put on the vote buttons) and :meth:`FeedbackStore.vote` when a button is
clicked. Each vote row carries the answer's full JSON (the public ``Answer`` contract), the
vote (``+1`` / ``-1``), the user and the thread key, so evaluation can read votes without the
platform.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from pathlib import Path

from .answer import Answer
from .message import ThreadKey

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    answer_id TEXT PRIMARY KEY,
    thread TEXT NOT NULL,
    answer_json TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS votes (
    answer_id TEXT NOT NULL,
    user TEXT NOT NULL,
    thread TEXT NOT NULL,
    vote INTEGER NOT NULL,
    answer_json TEXT,
    created REAL NOT NULL,
    PRIMARY KEY (answer_id, user)
);
"""


class FeedbackStore:
    """SQLite store of sent answers and votes on them (``{data_dir}/feedback.sqlite``).

    Thread-safe (one connection guarded by a lock). ``path`` may be ``":memory:"``."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        with self._lock:
            self._db.executescript(_SCHEMA)
            self._db.commit()

    @classmethod
    def for_data_dir(cls, data_dir: str | Path) -> "FeedbackStore":
        """The store at ``{data_dir}/feedback.sqlite``."""
        return cls(Path(data_dir) / "feedback.sqlite")

    def record_answer(self, answer: Answer, thread: ThreadKey) -> str:
        """Remember a sent answer; returns a new ``answer_id`` (32 hex chars)."""
        answer_id = uuid.uuid4().hex
        with self._lock:
            self._db.execute(
                "INSERT INTO answers VALUES (?, ?, ?, ?)",
                (answer_id, thread.key(), answer.model_dump_json(), time.time()),
            )
            self._db.commit()
        return answer_id

    def answer(self, answer_id: str) -> dict | None:
        """The recorded answer ``answer_id`` as its parsed JSON (the public ``Answer`` shape), or
        None when unknown (e.g. recorded by another deployment)."""
        with self._lock:
            row = self._db.execute("SELECT answer_json FROM answers WHERE answer_id = ?", (answer_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def vote(self, answer_id: str, vote: int, user: str, thread: ThreadKey | str | None = None) -> bool:
        """Store ``vote`` (``+1`` or ``-1``) by ``user`` on ``answer_id``; a user's later vote on
        the same answer replaces the earlier one. ``thread`` defaults to the answer's thread.

        Returns False (and stores the vote without answer JSON) when the answer is unknown,
        e.g. recorded by another deployment. Raises ``ValueError`` for a vote other than ±1."""
        if vote not in (1, -1):
            raise ValueError("vote must be +1 or -1")
        with self._lock:
            row = self._db.execute(
                "SELECT thread, answer_json FROM answers WHERE answer_id = ?", (answer_id,)
            ).fetchone()
            thread_s = thread.key() if isinstance(thread, ThreadKey) else (thread or (row[0] if row else ""))
            self._db.execute(
                "INSERT OR REPLACE INTO votes VALUES (?, ?, ?, ?, ?, ?)",
                (answer_id, user, thread_s, vote, row[1] if row else None, time.time()),
            )
            self._db.commit()
        return row is not None

    def votes(self) -> list[dict]:
        """All votes, oldest first: dicts with ``answer_id``, ``user``, ``thread``, ``vote`` and
        ``answer`` (the parsed answer JSON, or None when unknown)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT answer_id, user, thread, vote, answer_json FROM votes ORDER BY created"
            ).fetchall()
        return [
            {"answer_id": a, "user": u, "thread": t, "vote": v, "answer": json.loads(j) if j else None}
            for a, u, t, v, j in rows
        ]

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()
