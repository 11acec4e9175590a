"""The SQLite cache of parsed section outputs (:class:`LLMFactCache`)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Sequence

from pydantic import ValidationError

from .schema import PROMPT_VERSION, SYSTEM_PROMPT, ExtractedFact


class LLMFactCache:
    """Parsed section outputs by content hash (SQLite, like the embedding
    cache). Values are the :class:`ExtractedFact` dicts of a section (before
    anchoring, which depends on the document and is redone every ingest).
    Use from one thread. Raises ``sqlite3.Error`` when the file cannot be
    opened."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30)
        self._db.execute("CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, v TEXT NOT NULL)")

    @staticmethod
    def key(model: str, user_message: str) -> str:
        """sha256 of the prompt version, the system prompt, ``model`` and the
        section's ``user_message`` (document title, section path and text)."""
        raw = "\x1f".join((PROMPT_VERSION, SYSTEM_PROMPT, model, user_message))
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()

    def get(self, key: str) -> list[ExtractedFact] | None:
        """The cached facts under ``key`` (``None`` when absent or unreadable)."""
        row = self._db.execute("SELECT v FROM facts WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return [ExtractedFact.model_validate(d) for d in json.loads(row[0])["facts"]]
        except (ValueError, KeyError, TypeError, ValidationError):
            return None

    def put(self, key: str, facts: Sequence[ExtractedFact], tokens: int = 0) -> None:
        """Store ``facts`` under ``key`` (``tokens``: what they cost, kept for reference)."""
        v = json.dumps({"facts": [f.model_dump() for f in facts], "tokens": tokens}, ensure_ascii=False)
        self._db.execute("INSERT OR REPLACE INTO facts(key, v) VALUES (?, ?)", (key, v))
        self._db.commit()

    def close(self) -> None:
        """Close the database."""
        self._db.close()
