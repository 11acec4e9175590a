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

    def __init__(self, name: str = E5_NAME, path: Path | None = None, *, threads: int | None = None):
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType

        self.name = name
        self.path = Path(path) if path else None
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

    def embed_passages(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Embed passages; returns an array of shape ``(len(texts), dim)``, float32."""
        return self._embed([self.passage_prefix + t for t in texts], batch_size)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query; returns shape ``(dim,)``, float32."""
        return self._embed([self.query_prefix + text], 1)[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Embed several queries; shape ``(len(texts), dim)``."""
        return self._embed([self.query_prefix + t for t in texts], 32)

    def _embed(self, texts: Iterable[str], batch_size: int) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:  # onnxruntime sessions are thread-safe, but batching under one lock keeps RSS flat
            vecs = list(self._model.embed(texts, batch_size=batch_size))
        return np.asarray(vecs, dtype=np.float32)


def load_embedder(settings) -> Embedder:
    """Build the :class:`Embedder` named by ``settings`` (``embedding_model``,
    ``embedding_model_path``). Raises :class:`EmbeddingUnavailable`."""
    return Embedder(settings.embedding_model, settings.embedding_model_path)
