"""Embedding loading through fastembed's real custom-model path: the shipped
4 MB test model always, the int8 multilingual-e5-small from ../shared/models
when it is there (CI has it)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import E5_PATH, TINY_MODEL, TINY_NAME


def test_test_model_loads_from_a_folder_and_normalises():
    from threadgraph.knowledge.embeddings import Embedder

    e = Embedder(TINY_NAME, TINY_MODEL)
    v = e.embed_passages(["宫保鸡丁 花生", "incident commander"])
    assert v.shape == (2, e.dim) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)


def test_missing_model_folder_is_a_clear_error(tmp_path):
    from threadgraph.knowledge.embeddings import Embedder, EmbeddingUnavailable

    with pytest.raises(EmbeddingUnavailable, match="model.onnx"):
        Embedder("some/model", tmp_path)


def test_cache_returns_the_same_vectors_and_stores_each_text_once(tmp_path):
    import sqlite3

    from threadgraph.knowledge.embeddings import EmbeddingCache, Embedder

    e = Embedder(TINY_NAME, TINY_MODEL)
    cache = EmbeddingCache(tmp_path / "c.sqlite")
    texts = ["a b c", "d e f", "a b c"]
    first = cache.embed(e, texts)
    again = cache.embed(e, texts)
    cache.close()
    assert np.array_equal(first, again) and np.array_equal(first[0], first[2])
    assert sqlite3.connect(tmp_path / "c.sqlite").execute("SELECT count(*) FROM vec").fetchone()[0] == 2


@pytest.mark.skipif(not (E5_PATH / "model.onnx").exists(), reason="multilingual-e5-small-int8 not beside the checkout")
def test_e5_ranks_the_related_chinese_passage_first():
    from threadgraph.knowledge.embeddings import Embedder

    e = Embedder("intfloat/multilingual-e5-small", E5_PATH)
    assert e.dim == 384 and e.query_prefix == "query: "
    q = e.embed_query("宫保鸡丁没有花生用什么代替")
    p = e.embed_passages(["宫保鸡丁的原料：鸡腿肉、熟花生、干辣椒", "The Deputy supports the Incident Commander"])
    assert float(p[0] @ q) > float(p[1] @ q)
