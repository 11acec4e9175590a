"""Learned relation-sentence scorer: leave-one-corpus-out (LOCO) evaluation
and training (issues 10/11). A measurement: on 2026-12-02 no kind reached
precision 0.8 out of corpus except "optional" on its top 5 sentences, so the
scorer is not part of the product (its runtime module and the reader fallback
that used it stay on the unmerged branch ``learn``).

Data: :mod:`relation_data` (dev + bundled corpora; sentences labelled
``none`` / ``substitute`` / ``standin`` / ``optional``). Feature sets tried:

- ``e5``: the product's e5 passage vector of the sentence (384-d);
- ``tfidf``: character 1–3-gram TF-IDF;
- ``concat``: both side by side.

Each goes to a multinomial logistic regression (scikit-learn, the ``bench``
optional dependencies). LOCO trains on every corpus but one and scores the
held-out one; the out-of-corpus probabilities of all corpora pick ONE
threshold per kind (the lowest at which the pooled precision reaches
``TARGET_P``) and give per-corpus precision/recall at it, averaged per
language family (zh, en, ops).

Usage (from the checkout, package importable as ``threadgraph``)::

    python benchmarks/relation_model.py loco [e5,tfidf,concat]   # writes results/relation-loco.json
    python benchmarks/relation_model.py train                     # writes knowledge/lexicon/relation_scorer.npz/.json

Only the ``e5`` feature set could be shipped: inference would be
``softmax(v @ W.T + b)`` over stored weights (``knowledge/relation_scorer.py``
on branch ``learn``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # many BLAS threads on a shared 2-core machine crawl
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

import relation_data as D  # noqa: E402

RESULTS = D.REPO / "benchmarks" / "results"
LEXICON = D.REPO / "knowledge" / "lexicon"
TARGET_P = 0.8
#: The threshold of a kind whose LOCO precision never reaches TARGET_P: no probability reaches it.
DISABLED = 1.01
KINDS = D.KINDS
#: Regularisation strength of the logistic regression (inverse; chosen by LOCO among 0.3, 1, 4).
C_E5 = 4.0
C_TFIDF = 4.0


def _lr(C: float):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, max_iter=300, tol=1e-3, class_weight="balanced")


def features(name: str, rows: list[dict], vecs: np.ndarray, train: np.ndarray, test: np.ndarray):
    """``(X_train, X_test)`` of feature set ``name`` for boolean row masks."""
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfVectorizer

    if name == "e5":
        return vecs[train], vecs[test]
    texts = [r["text"] for r in rows]
    tf = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 3), min_df=2, max_features=80000, sublinear_tf=True)
    a = tf.fit_transform([t for t, m in zip(texts, train) if m])
    b = tf.transform([t for t, m in zip(texts, test) if m])
    if name == "tfidf":
        return a, b
    return sparse.hstack([a, sparse.csr_matrix(vecs[train])]).tocsr(), sparse.hstack([b, sparse.csr_matrix(vecs[test])]).tocsr()


def loco_probs(name: str, rows: list[dict], vecs: np.ndarray, y: np.ndarray, C: float) -> np.ndarray:
    """Out-of-corpus class probabilities ``(n, len(KINDS))`` of every row."""
    corp = np.array([r["corpus"] for r in rows])
    out = np.zeros((len(rows), len(KINDS)), dtype=np.float32)
    for c in D.CORPORA:
        test = corp == c
        train = ~test
        Xa, Xb = features(name, rows, vecs, train, test)
        m = _lr(C).fit(Xa, y[train])
        p = m.predict_proba(Xb)
        full = np.zeros((p.shape[0], len(KINDS)), dtype=np.float32)
        full[:, m.classes_] = p
        out[test] = full
    return out


def predict(probs: np.ndarray, thr: dict[str, float]) -> np.ndarray:
    """Predicted kind index per row: the most probable relation kind whose
    probability reaches its threshold, else 0 (``none``)."""
    pred = np.zeros(len(probs), dtype=int)
    best = np.zeros(len(probs))
    for k, kind in enumerate(KINDS):
        if k == 0:
            continue
        ok = (probs[:, k] >= thr[kind]) & (probs[:, k] > best)
        pred[ok] = k
        best[ok] = probs[ok, k]
    return pred


def pick_thresholds(probs: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Per kind, the lowest probability threshold at which pooled LOCO
    precision of that kind (alone) is ≥ ``TARGET_P`` (over at least 5 sentences);
    :data:`DISABLED` (above any probability: the kind is never predicted) when
    no threshold reaches it."""
    thr = {}
    for k, kind in enumerate(KINDS):
        if k == 0:
            continue
        order = np.argsort(-probs[:, k])
        hits = (y[order] == k).astype(float)
        prec = np.cumsum(hits) / np.arange(1, len(hits) + 1)
        ok = np.where((prec >= TARGET_P) & (np.arange(1, len(hits) + 1) >= 5))[0]
        thr[kind] = round(float(probs[order[ok[-1]], k]), 4) if len(ok) else DISABLED
    return thr


def table(rows: list[dict], y: np.ndarray, pred: np.ndarray) -> dict:
    """Per-corpus and per-family sentence-level precision/recall per kind."""
    corp = np.array([r["corpus"] for r in rows])
    per = {}
    for c in D.CORPORA:
        m = corp == c
        d = {"family": D.family(c), "sentences": int(m.sum())}
        for k, kind in enumerate(KINDS[1:], 1):
            tp = int(((pred == k) & (y == k) & m).sum())
            pp = int(((pred == k) & m).sum())
            gp = int(((y == k) & m).sum())
            d[kind] = {"tp": tp, "predicted": pp, "gold": gp,
                       "precision": round(tp / pp, 3) if pp else None, "recall": round(tp / gp, 3) if gp else None}
        per[c] = d
    fam = {}
    for f in ("zh", "en", "ops", "all"):
        cs = [c for c in D.CORPORA if f == "all" or D.family(c) == f]
        fd = {}
        for kind in KINDS[1:]:
            ps = [per[c][kind]["precision"] for c in cs if per[c][kind]["precision"] is not None]
            rs = [per[c][kind]["recall"] for c in cs if per[c][kind]["recall"] is not None]
            tp = sum(per[c][kind]["tp"] for c in cs)
            pp = sum(per[c][kind]["predicted"] for c in cs)
            gp = sum(per[c][kind]["gold"] for c in cs)
            fd[kind] = {"macro_precision": round(float(np.mean(ps)), 3) if ps else None,
                        "macro_recall": round(float(np.mean(rs)), 3) if rs else None,
                        "corpora_with_gold": len(rs), "corpora_with_predictions": len(ps),
                        "micro_precision": round(tp / pp, 3) if pp else None, "micro_recall": round(tp / gp, 3) if gp else None}
        fam[f] = fd
    return {"per_corpus": per, "families": fam}


def average_precision(probs: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Pooled LOCO average precision per kind (threshold-free ranking quality)."""
    from sklearn.metrics import average_precision_score

    return {kind: round(float(average_precision_score(y == k, probs[:, k])), 3) for k, kind in enumerate(KINDS) if k}


def markdown(res: dict) -> str:
    """A short markdown summary of a LOCO result."""
    lines = [f"LOCO ({res['chosen']} + logistic regression; thresholds {res['thresholds']}; target precision {TARGET_P})",
             "", "| family | kind | macro P | macro R | micro P | micro R |", "|---|---|---|---|---|---|"]
    for f, fd in res["results"][res["chosen"]]["families"].items():
        for kind, v in fd.items():
            lines.append(f"| {f} | {kind} | {v['macro_precision']} | {v['macro_recall']} | {v['micro_precision']} | {v['micro_recall']} |")
    lines.append("")
    lines.append("pooled average precision: " + ", ".join(f"{n}: {r['average_precision']}" for n, r in res["results"].items()))
    return "\n".join(lines)


def _data(need_vectors: bool = True):
    rows = D.load()
    vecs = D.vectors(rows) if need_vectors else np.zeros((len(rows), 1), dtype=np.float32)
    y = np.array([KINDS.index(r["label"]) for r in rows])
    return rows, vecs, y


def loco(names: list[str]) -> dict:
    """Run LOCO for each feature set in ``names``; keep the best by pooled
    mean average precision; write ``results/relation-loco.json``."""
    rows, vecs, y = _data(need_vectors=names != ["tfidf"])
    res = {}
    old = RESULTS / "relation-loco.json"
    if old.exists():  # feature sets run before (another invocation) are kept
        res.update(json.loads(old.read_text(encoding="utf-8")).get("results", {}))
    for name in names:
        t = time.time()
        probs = loco_probs(name, rows, vecs, y, C_E5 if name == "e5" else C_TFIDF)
        thr = pick_thresholds(probs, y)
        res[name] = {"thresholds": thr, "average_precision": average_precision(probs, y),
                     **table(rows, y, predict(probs, thr)), "seconds": round(time.time() - t)}
        print(name, json.dumps(res[name]["average_precision"]), json.dumps(thr),
              json.dumps(res[name]["families"]["all"]), flush=True)
        np.save(f"/tmp/relation-loco-{name}.npy", probs)
    chosen = max(res, key=lambda n: np.mean(list(res[n]["average_precision"].values())))
    out = {"chosen": chosen, "thresholds": res[chosen]["thresholds"], "target_precision": TARGET_P,
           "corpora": list(D.CORPORA), "sentences": len(rows),
           "labels": {k: int((y == i).sum()) for i, k in enumerate(KINDS)}, "results": res,
           "command": "python benchmarks/relation_model.py loco " + ",".join(res)}
    out["markdown"] = markdown(out)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "relation-loco.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(out["markdown"])
    return out


def train() -> None:
    """Train the ``e5`` model on ALL dev + bundled corpora and write
    ``knowledge/lexicon/relation_scorer.npz`` (``W`` (kinds, dim), ``b``
    (kinds,), ``kinds``) and ``relation_scorer.json`` (what it was trained on,
    thresholds and LOCO figures from ``results/relation-loco.json``)."""
    rows, vecs, y = _data()
    m = _lr(C_E5).fit(vecs, y)
    W = np.zeros((len(KINDS), vecs.shape[1]), dtype=np.float32)
    b = np.zeros(len(KINDS), dtype=np.float32)
    if m.coef_.shape[0] == len(m.classes_):
        W[m.classes_] = m.coef_
        b[m.classes_] = m.intercept_
    LEXICON.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(LEXICON / "relation_scorer.npz", W=W, b=b, kinds=np.array(KINDS))
    lo = json.loads((RESULTS / "relation-loco.json").read_text(encoding="utf-8"))
    e5 = lo["results"]["e5"]
    try:
        commit = subprocess.run(["git", "-C", str(D.REPO), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    meta = {"model": "intfloat/multilingual-e5-small passage vectors ('passage: ' prefix) -> multinomial logistic regression",
            "embedding_model": "intfloat/multilingual-e5-small", "embedding_dim": int(vecs.shape[1]), "kinds": list(KINDS), "C": C_E5, "class_weight": "balanced",
            "thresholds": e5["thresholds"], "target_precision": lo["target_precision"],
            "training_corpora": list(D.CORPORA), "sentences": len(rows),
            "labels": {k: int((y == i).sum()) for i, k in enumerate(KINDS)},
            "loco_macro": {f: {k: {"precision": v["macro_precision"], "recall": v["macro_recall"]} for k, v in fd.items()}
                           for f, fd in e5["families"].items()},
            "loco_average_precision": e5["average_precision"],
            "commit": commit,
            "retrain": "PYTHONPATH=<dir holding threadgraph> THREADGRAPH_EMBEDDING_MODEL_PATH=<e5 folder> "
                       "python benchmarks/relation_model.py loco e5 && python benchmarks/relation_model.py train"}
    (LEXICON / "relation_scorer.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("wrote", LEXICON / "relation_scorer.npz", json.dumps(meta["thresholds"]))


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "loco":
        loco((argv[1] if len(argv) > 1 else "e5,tfidf,concat").split(","))
    elif argv[0] == "train":
        train()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
