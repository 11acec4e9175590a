"""Per-thread entity memory in SQLite (embedded default; survives restarts).

One row per thread key holds a JSON state: the last turns (bounded), the
active entities (id, name, type, turn of last mention), the filled slots of
the last question and its intent. Rows older than the TTL are ignored and
purged. Safe under concurrent threads: WAL journal, one connection per OS
thread, writes in ``BEGIN IMMEDIATE`` transactions.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class RememberedEntity:
    """An entity active in a thread: KB ``id`` (None when unknown to the KB),
    ``name``, ``type`` and the ``turn`` number it was last mentioned in."""

    name: str
    type: str
    id: str | None = None
    turn: int = 0


#: The memory slot of the last asked item the KB has no entity for, kept by its surface when an
#: answer found it written (``ThreadGraphBot._remember``; recalled by an elliptical follow-up).
ASKED_ITEM = "asked_item"

#: Entities of one type a thread remembers ("these two", "compare them" reach back this far).
PER_TYPE = 6


@dataclass
class ThreadState:
    """The memory of one thread. ``turns`` are ``{"role", "text", "intent"}``
    dicts (oldest first); ``entities`` the recently named entities (most
    recent last; at most :data:`PER_TYPE` of each type); ``slots`` map a slot
    of the last questions (``ctx``, ``ctx2``, ``item``, ``excluded``,
    ``role``) to the entity that filled it; ``last_intent`` is the last
    memorable intent; ``turn`` counts the user's turns; ``constraints`` are the
    thread-long constraints the user stated (plain dicts, see
    :class:`threadgraph.bot.constraints.Constraint`); ``pantry`` the
    ingredients the user said they have (oldest first); ``dish`` the dish the last answer was
    about when it named no single recipe (a family of recipes: "X" of "A X", "B X"), which a
    follow-up naming no recipe keeps (``""`` when the last answer was about a recipe or none).

    Every field has a default, so a state stored before a field existed still loads."""

    turns: list[dict] = field(default_factory=list)
    entities: list[RememberedEntity] = field(default_factory=list)
    slots: dict[str, RememberedEntity] = field(default_factory=dict)
    last_intent: str | None = None
    turn: int = 0
    constraints: list[dict] = field(default_factory=list)
    pantry: list[RememberedEntity] = field(default_factory=list)
    dish: str = ""

    def to_json(self) -> str:
        """Serialize for storage (JSON text)."""
        return json.dumps(
            {
                "turns": self.turns,
                "entities": [asdict(e) for e in self.entities],
                "slots": {k: asdict(v) for k, v in self.slots.items()},
                "last_intent": self.last_intent,
                "turn": self.turn,
                "constraints": self.constraints,
                "pantry": [asdict(e) for e in self.pantry],
                "dish": self.dish,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, raw: str) -> "ThreadState":
        """Parse stored state; unknown keys are ignored, missing ones take
        their defaults. Raises ``ValueError``/``TypeError`` on malformed JSON."""
        d = json.loads(raw)
        return cls(
            turns=list(d.get("turns", [])),
            entities=[RememberedEntity(**e) for e in d.get("entities", [])],
            slots={k: RememberedEntity(**v) for k, v in d.get("slots", {}).items()},
            last_intent=d.get("last_intent"),
            turn=int(d.get("turn", 0)),
            constraints=[dict(c) for c in d.get("constraints", []) if isinstance(c, dict)],
            pantry=[RememberedEntity(**e) for e in d.get("pantry", [])],
            dish=str(d.get("dish") or ""),
        )

    def remember(self, entity: RememberedEntity, max_entities: int = PER_TYPE) -> None:
        """Mark ``entity`` as mentioned now (most recent last); at most
        ``max_entities`` of each type are kept (the oldest of its type goes)."""
        self.entities = [e for e in self.entities if not (e.name == entity.name and e.type == entity.type)]
        entity.turn = self.turn
        self.entities.append(entity)
        same = [e for e in self.entities if e.type == entity.type]
        if len(same) > max_entities:
            drop = {id(e) for e in same[:len(same) - max_entities]}
            self.entities = [e for e in self.entities if id(e) not in drop]

    def recent(self, types: tuple[str, ...] | list[str], n: int = 2) -> list[RememberedEntity]:
        """The last ``n`` remembered entities of ``types`` that are known to
        the KB (``id`` set), oldest first (``[]`` when none)."""
        got = [e for e in self.entities if e.type in types and e.id]
        return got[-n:] if n > 0 else []


def thread_connection(local, path) -> sqlite3.Connection:
    """This thread's SQLite connection to ``path`` (kept on ``local``, a ``threading.local``):
    autocommit (``isolation_level=None``), 30 s busy timeout, ``synchronous=NORMAL`` (WAL is
    set by the opener), so several processes on one machine share the file."""
    conn = getattr(local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("PRAGMA synchronous=NORMAL")
        local.conn = conn
    return conn


class ThreadMemory:
    """SQLite-backed store of :class:`ThreadState` keyed by thread key string.

    ``path``: the database file (created); ``ttl_s``: seconds after the last
    update when a thread is forgotten; ``max_turns``: turns kept per thread.
    """

    def __init__(self, path: Path, *, ttl_s: float = 7 * 86400, max_turns: int = 10):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.ttl_s = ttl_s
        self.max_turns = max_turns
        self._local = threading.local()
        conn = self._conn()
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS threads (key TEXT PRIMARY KEY, updated REAL NOT NULL, state TEXT NOT NULL)"
        )
        conn.execute("CREATE INDEX IF NOT EXISTS threads_updated ON threads(updated)")
        self._writes = 0

    def _conn(self) -> sqlite3.Connection:
        return thread_connection(self._local, self.path)

    def load(self, key: str) -> ThreadState:
        """The state of thread ``key`` (empty when unknown or expired)."""
        row = self._conn().execute("SELECT updated, state FROM threads WHERE key = ?", (key,)).fetchone()
        if row is None or time.time() - row[0] > self.ttl_s:
            return ThreadState()
        try:
            return ThreadState.from_json(row[1])
        except (ValueError, TypeError, KeyError):
            return ThreadState()  # a corrupt row is forgotten, not fatal

    def save(self, key: str, state: ThreadState) -> None:
        """Store ``state`` for ``key`` (turns trimmed to ``max_turns``);
        occasionally purges expired threads."""
        state.turns = state.turns[-self.max_turns * 2 :]
        now = time.time()
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "INSERT INTO threads(key, updated, state) VALUES (?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET updated = excluded.updated, state = excluded.state",
                (key, now, state.to_json()),
            )
            self._writes += 1
            if self._writes % 200 == 0:
                conn.execute("DELETE FROM threads WHERE updated < ?", (now - self.ttl_s,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def reset(self, key: str) -> bool:
        """Forget thread ``key``; returns True when something was removed."""
        cur = self._conn().execute("DELETE FROM threads WHERE key = ?", (key,))
        return cur.rowcount > 0
