"""The Kùzu graph store.

Schema (fixed; any domain maps onto it, so a new corpus needs no schema change)::

    NODE Entity(id PK, name, type, aliases STRING[], language, doc, text)
    NODE Chunk(id PK, doc, section, text, line, language)
    REL  CONTAINS   (Entity -> Entity) required, amount, ord, + provenance
    REL  SUBSTITUTES(Entity -> Entity) context, context_name, cond, symmetric, + provenance
    REL  RELATED    (Entity -> Entity) predicate, + provenance
    REL  MENTIONS   (Chunk  -> Entity) + provenance
    provenance = id, doc, section, line, extractor, confidence

Loading uses ``COPY ... FROM`` pyarrow tables (bulk; see stack-facts: pandas 3
frames crash COPY). Every query is parameterized; no user text is ever
formatted into Cypher. Kùzu is single-writer: :meth:`GraphStore.build` writes a
fresh database file, servers open it with ``read_only=True``.
"""

from __future__ import annotations

import queue
import threading
import warnings
from pathlib import Path
from typing import Any, Iterable

import kuzu
import pyarrow as pa

from .records import Chunk, Entity, Triple

PROVENANCE_COLS = "id STRING, doc STRING, section STRING, line INT64, extractor STRING, confidence DOUBLE"

SCHEMA = [
    "CREATE NODE TABLE Entity(id STRING PRIMARY KEY, name STRING, type STRING, aliases STRING[], "
    "language STRING, doc STRING, text STRING)",
    "CREATE NODE TABLE Chunk(id STRING PRIMARY KEY, doc STRING, section STRING, text STRING, "
    "line INT64, language STRING)",
    f"CREATE REL TABLE CONTAINS(FROM Entity TO Entity, required BOOLEAN, amount STRING, ord INT64, {PROVENANCE_COLS})",
    f"CREATE REL TABLE SUBSTITUTES(FROM Entity TO Entity, context STRING, context_name STRING, cond STRING, "
    f"symmetric BOOLEAN, {PROVENANCE_COLS})",
    f"CREATE REL TABLE RELATED(FROM Entity TO Entity, predicate STRING, {PROVENANCE_COLS})",
    f"CREATE REL TABLE MENTIONS(FROM Chunk TO Entity, {PROVENANCE_COLS})",
]

RELATIONS = ("CONTAINS", "SUBSTITUTES", "RELATED")


#: Marks a statement Kùzu cannot prepare (see :meth:`GraphStore._execute`).
_AS_TEXT = object()


class GraphStore:
    """A Kùzu database holding the knowledge graph.

    ``GraphStore(path, read_only=True)`` opens an existing database file;
    :meth:`build` creates one. :meth:`query` runs parameterized Cypher and
    returns a list of dict rows. Thread-safe: a connection is used by one
    thread at a time, from a bounded pool.

    Raises ``RuntimeError`` (from Kùzu) when the file is locked by a writer.
    """

    def __init__(self, path: Path, *, read_only: bool = True, max_connections: int = 8):
        self.path = Path(path)
        self.read_only = read_only
        self._db = kuzu.Database(str(self.path), read_only=read_only)
        self._pool: queue.LifoQueue[kuzu.Connection] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(max_connections)
        self._statements: dict[int, dict[str, Any]] = {}  # id(connection) -> cypher -> prepared statement

    # -- connections -------------------------------------------------------------
    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run one parameterized statement; returns rows as dicts keyed by the
        RETURN aliases. ``cypher`` must be a constant of our code; values go in
        ``params``. Connections come from a small pool (at most
        ``max_connections`` in use at once), so 200 answering threads share a
        handful of connections instead of opening one each."""
        with self._slots:
            try:
                conn = self._pool.get_nowait()
            except queue.Empty:
                conn = kuzu.Connection(self._db)
            try:
                result = self._execute(conn, cypher, params or {})
                try:
                    cols = result.get_column_names()
                    rows = []
                    while result.has_next():
                        rows.append(dict(zip(cols, result.get_next())))
                    return rows
                finally:
                    result.close()
            finally:
                self._pool.put(conn)

    def _execute(self, conn, cypher: str, params: dict[str, Any]):
        """Execute ``cypher`` as a prepared statement (see :meth:`_prepared`), or as text when
        Kùzu cannot prepare it: Kùzu 0.11's ``prepare()`` loses a parameter used only inside an
        ``EXISTS { … }`` subquery once the statement has another parameter ("Parameter exc not
        found."), while ``execute(text, params)`` binds it. Such a statement is remembered
        and run as text from then on (it keeps its ~36 KB per call; few statements are affected)."""
        ps = self._prepared(conn, cypher)
        if ps is _AS_TEXT:
            return conn.execute(cypher, params)
        try:
            return conn.execute(ps, params)
        except RuntimeError as exc:
            msg = str(exc)
            if not (msg.startswith("Parameter ") and msg.rstrip(".").endswith("not found")):
                raise
            self._statements.setdefault(id(conn), {})[cypher] = _AS_TEXT
            return conn.execute(cypher, params)

    def _prepared(self, conn, cypher: str):
        """``cypher`` prepared once per connection. Kùzu 0.11 keeps ~36 KB for every
        ``execute(text, params)`` call until the connection closes; executing a reused prepared
        statement keeps nothing (a long-running server otherwise grows ~0.3 MB per answer)."""
        cache = self._statements.setdefault(id(conn), {})
        ps = cache.get(cypher)
        if ps is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # "use execute()": it is what leaks
                ps = cache[cypher] = conn.prepare(cypher)
        return ps

    def close(self) -> None:
        """Release the database (and its file lock)."""
        self._statements.clear()
        while not self._pool.empty():
            self._pool.get_nowait().close()
        self._db.close()

    # -- building ----------------------------------------------------------------
    @classmethod
    def build(
        cls,
        path: Path,
        entities: Iterable[Entity],
        triples: Iterable[Triple],
        chunks: Iterable[Chunk],
    ) -> dict[str, int]:
        """Create a new database at ``path`` (must not exist) and bulk-load it.

        Triples whose subject/object is not among ``entities`` are dropped (and
        counted under ``"dangling"``). Returns counts per table.
        """
        path = Path(path)
        if path.exists():
            raise FileExistsError(path)
        db = kuzu.Database(str(path))
        conn = kuzu.Connection(db)
        for stmt in SCHEMA:
            conn.execute(stmt)
        entities = list(entities)
        ids = {e.id for e in entities}
        ent_tbl = pa.table(
            {
                "id": [e.id for e in entities],
                "name": [e.name for e in entities],
                "type": [e.type for e in entities],
                "aliases": pa.array([list(e.aliases) for e in entities], type=pa.list_(pa.string())),
                "language": [e.language for e in entities],
                "doc": [e.doc for e in entities],
                "text": [e.text for e in entities],
            }
        )
        counts: dict[str, int] = {"Entity": len(entities), "dangling": 0}
        if entities:
            conn.execute("COPY Entity FROM ent_tbl")
        chunks = list(chunks)
        chunk_tbl = pa.table(chunk_columns(chunks))  # noqa: F841  (read by Kùzu's COPY)
        counts["Chunk"] = len(chunks)
        if chunks:
            conn.execute("COPY Chunk FROM chunk_tbl")

        by_rel: dict[str, dict[str, Triple]] = {r: {} for r in RELATIONS}
        names = {e.id: e.name for e in entities}
        for t in triples:
            if t.relation not in by_rel:
                raise ValueError(f"unknown relation {t.relation!r}")
            if t.subject not in ids or t.object not in ids:
                counts["dangling"] += 1
                continue
            by_rel[t.relation].setdefault(t.id, t)  # same fact twice -> once

        for rel, facts in by_rel.items():
            rows = list(facts.values())
            cols: dict[str, list] = {
                "from": [t.subject for t in rows],
                "to": [t.object for t in rows],
            }
            if rel == "CONTAINS":
                cols["required"] = pa.array([bool(t.properties.get("required", True)) for t in rows], type=pa.bool_())
                cols["amount"] = [str(t.properties.get("amount", "") or "") for t in rows]
                cols["ord"] = pa.array([int(t.properties.get("order", 0) or 0) for t in rows], type=pa.int64())
            elif rel == "SUBSTITUTES":
                ctx = [str(t.properties.get("context", "") or "") for t in rows]
                cols["context"] = ctx
                cols["context_name"] = [names.get(c, c.split(":", 1)[-1]) if c else "" for c in ctx]
                cols["cond"] = [str(t.properties.get("condition", "") or "") for t in rows]
                cols["symmetric"] = pa.array([bool(t.properties.get("symmetric", False)) for t in rows], type=pa.bool_())
            else:
                cols["predicate"] = [str(t.properties.get("predicate", "") or "") for t in rows]
            _add_provenance(cols, rows)
            counts[rel] = len(rows)
            if rows:
                tbl = pa.table(cols)  # noqa: F841  (read by Kùzu's scan of the local variable)
                conn.execute(f"COPY {rel} FROM tbl")  # rel is one of our constants

        mentions = [(c.id, eid, c) for c in chunks for eid in dict.fromkeys(c.entity_ids) if eid in ids]
        men_tbl = pa.table(
            {
                "from": [m[0] for m in mentions],
                "to": [m[1] for m in mentions],
                "id": [f"m-{m[0]}-{m[1]}" for m in mentions],
                "doc": [m[2].doc for m in mentions],
                "section": [m[2].section for m in mentions],
                "line": pa.array([m[2].line for m in mentions], type=pa.int64()),
                "extractor": ["mention-linker"] * len(mentions),
                "confidence": pa.array([1.0] * len(mentions), type=pa.float64()),
            }
        )
        counts["MENTIONS"] = len(mentions)
        if mentions:
            conn.execute("COPY MENTIONS FROM men_tbl")
        conn.close()
        db.close()
        return counts


def chunk_columns(chunks: list[Chunk]) -> dict[str, list]:
    """Arrow-ready columns of the ``Chunk`` node table (id, doc, section, text,
    line, language); the LanceDB table adds entity ids and vectors."""
    return {
        "id": [c.id for c in chunks],
        "doc": [c.doc for c in chunks],
        "section": [c.section for c in chunks],
        "text": [c.text for c in chunks],
        "line": pa.array([c.line for c in chunks], type=pa.int64()),
        "language": [c.language for c in chunks],
    }


def _add_provenance(cols: dict[str, list], rows: list[Triple]) -> None:
    cols["id"] = [t.id for t in rows]
    cols["doc"] = [t.provenance.doc for t in rows]
    cols["section"] = [t.provenance.section for t in rows]
    cols["line"] = pa.array([int(t.provenance.line) for t in rows], type=pa.int64())
    cols["extractor"] = [t.provenance.extractor for t in rows]
    cols["confidence"] = pa.array([float(t.provenance.confidence) for t in rows], type=pa.float64())
