"""Text embeddings with fastembed.

The default model is ``intfloat/multilingual-e5-small`` (MIT; Chinese and
English; 384-d; mean pooling + L2 normalisation; needs the ``"query: "`` /
``"passage: "`` prefixes — see the model card of intfloat/multilingual-e5-small).
It is registered with fastembed's custom-model API so that with internet it is
fetched from the hub (``onnx/model.onnx``) and with a local folder
(``THREADGRAPH_EMBEDDING_MODEL_PATH``) it loads from there without contacting
any hub. Any other model folder with the same BERT-style interface
(``model.onnx`` + ``tokenizer.json``, ``last_hidden_state`` output) loads the
same way.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

log = logging.getLogger(__name__)

E5_NAME = "intfloat/multilingual-e5-small"
E5_DIM = 384


class EmbeddingUnavailable(RuntimeError):
    """No embedding model could be loaded (offline without a local folder, a
    broken folder, ...). The message says what was tried."""


_registered: set[str] = set()
_reg_lock = threading.Lock()


def _in_fastembed_cache(name: str) -> bool:
    """True when fastembed's cache folder (``FASTEMBED_CACHE_PATH`` or its
    temp-dir default) already holds a download of model ``name``."""
    import os
    import tempfile

    root = Path(os.environ.get("FASTEMBED_CACHE_PATH") or Path(tempfile.gettempdir()) / "fastembed_cache")
    return (root / f"models--{name.replace('/', '--')}").exists()


def _check_hub_reachable(timeout_s: float = 3.0) -> None:
    """Fail fast when the model hub cannot be reached (fastembed would retry
    for ~40 s). Honours ``HF_HUB_OFFLINE`` and ``HF_ENDPOINT``; a model already
    in fastembed's cache still loads offline, so this only runs for a download.
    Raises :class:`EmbeddingUnavailable`."""
    import os
    import socket
    from urllib.parse import urlparse

    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes"):
        return  # fastembed then fails at once itself, or finds its cache
    endpoint = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    host, port = endpoint.hostname or "huggingface.co", endpoint.port or (80 if endpoint.scheme == "http" else 443)
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as exc:
        raise EmbeddingUnavailable(
            f"the model hub ({host}) is unreachable ({exc.__class__.__name__}); "
            "set THREADGRAPH_EMBEDDING_MODEL_PATH to a local model folder"
        ) from None


def _model_dim(name: str, path: Path | None) -> int:
    if path is not None:
        cfg = path / "config.json"
        if cfg.exists():
            try:
                return int(json.loads(cfg.read_text(encoding="utf-8")).get("hidden_size", E5_DIM))
            except (ValueError, OSError):
                pass
    return E5_DIM


def _uses_e5_prefixes(name: str) -> bool:
    return "e5" in name.lower()


class Embedder:
    """Embeds queries and passages into L2-normalised float32 vectors.

    ``Embedder(name, path)``: ``name`` is the fastembed model name (registered
    as a custom model when fastembed does not know it); ``path`` a local folder
    holding ``model.onnx`` and the tokenizer files, or ``None`` for the hub.

    Raises :class:`EmbeddingUnavailable` when the model cannot be loaded.
    ``dim`` is the vector size (384 for e5-small); ``name`` is recorded in the
    KB manifest so a KB is never queried with another model.
    """

    def __init__(self, name: str = E5_NAME, path: Path | None = None, *, threads: int | None = None,
                 passage_tokens: int = 512):
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType

        self.name = name
        self.path = Path(path) if path else None
        self.passage_tokens = max(16, min(512, int(passage_tokens)))
        self.dim = _model_dim(name, self.path)
        self.query_prefix = "query: " if _uses_e5_prefixes(name) else ""
        self.passage_prefix = "passage: " if _uses_e5_prefixes(name) else ""
        known = {m["model"] for m in TextEmbedding.list_supported_models()}
        with _reg_lock:
            if name not in known and name not in _registered:
                model_file = "model.onnx" if self.path else "onnx/model.onnx"
                TextEmbedding.add_custom_model(
                    model=name,
                    pooling=PoolingType.MEAN,
                    normalization=True,
                    sources=ModelSource(hf=name),
                    dim=self.dim,
                    model_file=model_file,
                )
                _registered.add(name)
        try:
            kwargs = {"threads": threads} if threads else {}
            if self.path is not None:
                if not (self.path / "model.onnx").exists():
                    raise EmbeddingUnavailable(f"no model.onnx in {self.path}")
                self._model = TextEmbedding(name, specific_model_path=str(self.path), **kwargs)
            else:
                if not _in_fastembed_cache(name):
                    _check_hub_reachable()
                self._model = TextEmbedding(name, **kwargs)
        except EmbeddingUnavailable:
            raise
        except Exception as exc:  # fastembed raises assorted errors when offline
            where = f"folder {self.path}" if self.path else "the model hub"
            raise EmbeddingUnavailable(
                f"could not load embedding model {name!r} from {where}: {type(exc).__name__}: {exc}. "
                "Set THREADGRAPH_EMBEDDING_MODEL_PATH to a local model folder."
            ) from exc
        self._lock = threading.Lock()
        # The registered dim is only a hint for fastembed; the true size is what the model emits.
        self.dim = int(self._embed(["dim probe"], 1).shape[1])

    @property
    def passage_kind(self) -> str:
        """The embedding-cache kind of passages: ``"passage"``, or
        ``"passage@N"`` when passages are cut at ``N`` tokens."""
        return "passage" if self.passage_tokens >= 512 else f"passage@{self.passage_tokens}"

    def embed_passages(self, texts: Sequence[str], batch_size: int = 16, max_tokens: int | None = None) -> np.ndarray:
        """Embed passages, each cut at ``passage_tokens`` tokens (or ``max_tokens`` when that is
        fewer: its heading path and beginning; the model's cost grows faster than linearly with
        length); returns an array of shape ``(len(texts), dim)``, float32."""
        cut = min(self.passage_tokens, max_tokens) if max_tokens else self.passage_tokens
        return self._embed([self.passage_prefix + t for t in texts], batch_size, max(8, cut))

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query; returns shape ``(dim,)``, float32."""
        return self._embed([self.query_prefix + text], 1)[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Embed several queries; shape ``(len(texts), dim)``."""
        return self._embed([self.query_prefix + t for t in texts], 32)

    def _truncate(self, max_tokens: int) -> None:
        """Cut inputs at ``max_tokens`` tokens (fastembed's tokenizer; a model
        without one keeps its own limit)."""
        tok = getattr(getattr(self._model, "model", None), "tokenizer", None)
        if tok is not None and getattr(self, "_cut", None) != max_tokens:
            try:
                tok.enable_truncation(max_length=max_tokens)
                self._cut = max_tokens
            except Exception:  # noqa: BLE001 - keep the model's own truncation
                pass

    def _embed(self, texts: Iterable[str], batch_size: int, max_tokens: int = 512) -> np.ndarray:
        """Embed ``texts`` (cut at ``max_tokens`` tokens) in length-sorted
        batches (padding is per batch, so sorting cuts wasted work ~3x on
        mixed-length passages); identical texts are embedded once. Returns
        ``(len(texts), dim)`` float32."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))
        order = sorted(range(len(unique)), key=lambda i: len(unique[i]))
        with self._lock:
            self._truncate(max_tokens)
            vecs = list(self._model.embed([unique[i] for i in order], batch_size=batch_size))
        out = np.empty((len(unique), len(vecs[0])), dtype=np.float32)
        for pos, i in enumerate(order):
            out[i] = vecs[pos]
        index = {t: i for i, t in enumerate(unique)}
        return out[[index[t] for t in texts]]


class EmbeddingCache:
    """Content-addressed store of passage vectors (SQLite), so re-ingesting
    unchanged text costs no model time. Keyed by sha1 of model name, prefix
    kind and text; values are float32 bytes."""

    def __init__(self, path: Path):
        import sqlite3

        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30)
        self._db.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, v BLOB NOT NULL)")

    @staticmethod
    def key(model: str, kind: str, text: str) -> str:
        """Cache key of one text."""
        import hashlib

        return hashlib.sha1(f"{model}\x1f{kind}\x1f{text}".encode("utf-8")).hexdigest()

    def embed(self, embedder: Embedder, texts: Sequence[str], *, kind: str = "passage", batch_size: int = 16,
              progress=None, stats: dict | None = None) -> np.ndarray:
        """Vectors for ``texts`` (shape ``(n, dim)``), computing only the ones
        not cached (each distinct text once); ``progress(done, total)`` is
        called per model batch; ``stats["embedded"]`` / ``stats["cached"]``
        are increased by the texts computed / found in the cache."""
        keys = [self.key(embedder.name, kind, t) for t in texts]
        have: dict[str, np.ndarray] = {}
        for i in range(0, len(keys), 500):
            part = keys[i : i + 500]
            rows = self._db.execute(f"SELECT key, v FROM vec WHERE key IN ({','.join('?' * len(part))})", part)
            for k, v in rows:
                vec = np.frombuffer(v, dtype=np.float32)
                if vec.shape[0] == embedder.dim:
                    have[k] = vec
        missing = list(dict.fromkeys(i for i, k in enumerate(keys) if k not in have))
        todo = list(dict.fromkeys(texts[i] for i in missing))
        if stats is not None:
            stats["embedded"] = stats.get("embedded", 0) + len(todo)
            stats["cached"] = stats.get("cached", 0) + len(set(keys) & set(have))
        # length-sorted batches (little padding), taken alternately from the long and the short end
        # so that the progress rate, and the time left shown from it, stays even
        todo.sort(key=len)
        batches = [todo[i:i + batch_size] for i in range(0, len(todo), batch_size)]
        order = []
        lo, hi = 0, len(batches) - 1
        while lo <= hi:
            order.append(batches[hi])
            if lo != hi:
                order.append(batches[lo])
            lo, hi = lo + 1, hi - 1
        done = 0
        group = 4  # batches per model call: progress moves every few seconds at most
        for g in range(0, len(order), group):
            chunk = [t for b in order[g:g + group] for t in b]
            vecs = embedder.embed_passages(chunk, batch_size) if kind.startswith("passage") else embedder.embed_queries(chunk)
            rows = []
            for t, v in zip(chunk, vecs):
                k = self.key(embedder.name, kind, t)
                have[k] = v
                rows.append((k, v.astype(np.float32).tobytes()))
            self._db.executemany("INSERT OR REPLACE INTO vec(key, v) VALUES (?, ?)", rows)
            self._db.commit()
            done += len(chunk)
            if progress:
                progress(done, len(todo))
        if not keys:
            return np.zeros((0, embedder.dim), dtype=np.float32)
        return np.stack([have[k] for k in keys]).astype(np.float32)

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def load_embedder(settings) -> Embedder:
    """Build the :class:`Embedder` named by ``settings`` (``embedding_model``,
    ``embedding_model_path``, ``embedding_passage_tokens``). Raises
    :class:`EmbeddingUnavailable`."""
    return Embedder(settings.embedding_model, settings.embedding_model_path,
                    passage_tokens=getattr(settings, "embedding_passage_tokens", 512))
