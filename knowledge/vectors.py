"""The LanceDB passage store: chunks with embeddings and a Chinese-capable
full-text index, plus a small table of entity-name embeddings used for entity
linking by nearest name.

Full-text search uses LanceDB's native FTS with an ngram(2–3) tokenizer (the
default tokenizer finds nothing in Chinese; ngrams find 花生 inside 熟花生 —
see ``shared/notes/stack-facts.md``). Hybrid search fuses vector and FTS hits
with reciprocal-rank fusion (``RRFReranker``; Cormack et al., 2009,
score = Σ 1/(k + rank), k = 60).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import pyarrow as pa

from .graph import chunk_columns
from .records import Chunk, Entity

log = logging.getLogger(__name__)

# Lance logs "No existing dataset" and column-projection notices at WARN; keep stderr for real errors.
os.environ.setdefault("LANCEDB_LOG", "error")

CHUNKS = "chunks"
ENTITIES = "entities"


@dataclass(slots=True)
class Hit:
    """One retrieved chunk: ``score`` is higher-is-better (RRF relevance for
    hybrid, 1 - cosine distance for vector, BM25 for full text)."""

    id: str
    doc: str
    section: str
    text: str
    line: int
    score: float
    entity_ids: list[str]


def _sql_str(value: str) -> str:
    """Quote a string literal for a LanceDB ``where`` filter (values come from
    the KB — doc paths and entity ids — but are escaped all the same)."""
    return "'" + value.replace("'", "''") + "'"


def _fts_index(table) -> None:
    try:
        from lancedb.index import FTS

        table.create_index(
            "search_text",
            config=FTS(
                base_tokenizer="ngram",
                ngram_min_length=2,
                ngram_max_length=3,
                stem=False,
                remove_stop_words=False,
                lower_case=True,
            ),
            replace=True,
        )
    except (ImportError, TypeError):  # older lancedb
        table.create_fts_index(
            "search_text", use_tantivy=False, base_tokenizer="ngram", ngram_min_length=2,
            ngram_max_length=3, stem=False, remove_stop_words=False, lower_case=True, replace=True,
        )


class VectorStore:
    """Read side of the LanceDB folder built by :meth:`build`.

    ``has_vectors`` is False when the KB was built without an embedding model
    (full-text search still works); ``has_fts`` is False when the passages
    have no full-text index (an empty KB, or one whose index was lost):
    search then uses what there is, and finds nothing rather than failing
    when there is neither. Methods return lists of :class:`Hit`.
    """

    def __init__(self, path: Path):
        import lancedb

        self.path = Path(path)
        self._db = lancedb.connect(str(self.path))
        self.chunks = self._db.open_table(CHUNKS)
        try:
            listed = self._db.list_tables()
            names = set(getattr(listed, "tables", listed))
        except AttributeError:  # older lancedb
            names = set(self._db.table_names())
        self.entities = self._db.open_table(ENTITIES) if ENTITIES in names else None
        self.has_vectors = "vector" in self.chunks.schema.names
        try:
            self.has_fts = any("search_text" in list(getattr(ix, "columns", []) or [])
                               for ix in self.chunks.list_indices())
        except Exception:  # noqa: BLE001 - an index listing that fails is no index
            self.has_fts = False

    # -- building ---------------------------------------------------------------
    @staticmethod
    def build(
        path: Path,
        chunks: Sequence[Chunk],
        chunk_vectors: np.ndarray | None,
        entities: Sequence[Entity] = (),
        entity_vectors: np.ndarray | None = None,
    ) -> None:
        """Write a new LanceDB folder at ``path``: table ``chunks`` (id, doc,
        section, text, line, language, entity_ids, search_text = heading path +
        text, [vector]) with an ngram FTS index on ``search_text``, and, when
        ``entity_vectors`` is given, table ``entities`` (id,
        name, type, vector). Vectors are float32 of shape (n, dim)."""
        import lancedb

        db = lancedb.connect(str(path))
        cols = chunk_columns(list(chunks))
        cols["entity_ids"] = pa.array([list(c.entity_ids) for c in chunks], type=pa.list_(pa.string()))
        # full text covers the heading path too: a glossary entry's term is often only its heading
        cols["search_text"] = [f"{c.section}\n{c.text}" if c.section else c.text for c in chunks]
        if chunk_vectors is not None:
            dim = chunk_vectors.shape[1]
            cols["vector"] = pa.FixedSizeListArray.from_arrays(
                pa.array(chunk_vectors.astype(np.float32).ravel(), type=pa.float32()), dim
            )
        table = db.create_table(CHUNKS, data=pa.table(cols), mode="overwrite")
        if len(chunks):
            _fts_index(table)
        if entity_vectors is not None and len(entities):
            dim = entity_vectors.shape[1]
            db.create_table(
                ENTITIES,
                data=pa.table(
                    {
                        "id": [e.id for e in entities],
                        "name": [e.name for e in entities],
                        "type": [e.type for e in entities],
                        "vector": pa.FixedSizeListArray.from_arrays(
                            pa.array(entity_vectors.astype(np.float32).ravel(), type=pa.float32()), dim
                        ),
                    }
                ),
                mode="overwrite",
            )

    # -- searching --------------------------------------------------------------
    def search(
        self,
        text: str,
        vector: np.ndarray | None = None,
        *,
        docs: Sequence[str] | None = None,
        limit: int = 8,
        mode: str = "hybrid",
    ) -> list[Hit]:
        """Find chunks for a question.

        ``mode``: ``"hybrid"`` (vector + FTS fused by RRF), ``"vector"`` or
        ``"fts"``; falls back to FTS when there are no vectors. ``docs``
        restricts hits to those documents (prefilter). Returns at most
        ``limit`` hits, best first.
        """
        where = None
        if docs:
            where = "doc IN (" + ", ".join(_sql_str(d) for d in sorted(set(docs))) + ")"
        can_vector = vector is not None and self.has_vectors
        text = text.strip()
        if not can_vector:
            mode = "fts"
        if mode in ("fts", "hybrid") and (not text or not self.has_fts):
            if not can_vector:
                return []
            mode = "vector"
        try:
            return self._search(text, vector, where, limit, mode)
        except Exception as exc:  # noqa: BLE001 - a damaged index answers with what is left
            log.warning("passage search (%s) failed: %s", mode, exc)
            if mode != "vector" and can_vector:
                return self._search(text, vector, where, limit, "vector")
            return []

    def _search(self, text: str, vector, where: str | None, limit: int, mode: str) -> list[Hit]:
        """Run one LanceDB query of ``mode`` (see :meth:`search`)."""
        if mode == "hybrid":
            from lancedb.rerankers import RRFReranker

            q = self.chunks.search(query_type="hybrid").vector(vector).text(text).rerank(RRFReranker())
            score_col = "_relevance_score"
        elif mode == "vector":
            q = self.chunks.search(vector, query_type="vector").distance_type("cosine")
            score_col = "_distance"
        else:
            q = self.chunks.search(text, query_type="fts")
            score_col = "_score"
        if where:
            q = q.where(where, prefilter=True)
        rows = q.limit(limit).select(["id", "doc", "section", "text", "line", "entity_ids"]).to_arrow().to_pylist()
        hits = []
        for r in rows:
            score = float(r.get(score_col, 0.0) or 0.0)
            if score_col == "_distance":
                score = 1.0 - score
            hits.append(Hit(r["id"], r["doc"], r["section"], r["text"], int(r["line"]), score, list(r["entity_ids"] or [])))
        return hits

    def nearest_entities(self, vector: np.ndarray, *, limit: int = 5, types: Sequence[str] | None = None) -> list[tuple[str, str, str, float]]:
        """Entity names nearest to ``vector``: ``(id, name, type, cosine similarity)``."""
        if self.entities is None or vector is None:
            return []
        q = self.entities.search(vector, query_type="vector").distance_type("cosine")
        if types:
            q = q.where("type IN (" + ", ".join(_sql_str(t) for t in types) + ")", prefilter=True)
        rows = q.limit(limit).select(["id", "name", "type"]).to_arrow().to_pylist()
        return [(r["id"], r["name"], r["type"], 1.0 - float(r["_distance"])) for r in rows]
