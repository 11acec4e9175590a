"""Sentence data for the learned relation scorer (issues 10/11).

Every line of every document of the DEV corpora (the explicit list below) and
of the two bundled corpora is split into sentences (a list item, a table row
or a JSON string line is its own text, then cut by
:func:`threadgraph.knowledge.text.sentence_spans`). A sentence is labelled with
the kind of a gold relation when it lies on that relation's line (or one line
either side, for quotes the gold places one line off) and contains, lies in or
overlaps its ``quote``; every other sentence is ``none``. Kinds: ``substitute``,
``standin`` (gold ``stand_in`` and ``fallback``), ``optional``, ``none``.

Blind corpora are never read: the list is explicit and a corpus whose
``meta.json`` says ``"split": "blind"`` is refused.

Usage::

    python benchmarks/relation_data.py            # counts per corpus
    python benchmarks/relation_data.py embed      # also embed (cache under /tmp)

``load()`` returns the rows; ``vectors(rows)`` their e5 passage vectors (cached
in ``$RELATION_CACHE`` or ``/tmp/relation-emb/cache.sqlite``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from difflib import SequenceMatcher
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

from threadgraph.knowledge.text import sentence_spans  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
GEN = REPO / "benchmarks" / "generalization"
#: The DEV corpora (explicit; blind corpora are never listed or globbed).
DEV = ("en-baw-drinks en-communitykitchen en-ehrensberger en-ourtable en-wbushey en-wittkuhn "
       "ops-18f ops-2i2c-compass ops-2i2c-infra ops-gdsway ops-govuk ops-k8s-src ops-lullabot "
       "zh-cpq zh-drinks zh-hidetoshi zh-jzkitchen zh-meow zh-mymenu zh-seraphroy zh-zehua").split()
#: Bundled corpora: name -> (docs folder, doc-path base, gold file, family).
BUNDLED = {
    "howtocook": (REPO / "corpora" / "howtocook", REPO / "corpora", REPO / "benchmarks" / "gold" / "howtocook.jsonl", "zh"),
    "pagerduty": (REPO / "corpora" / "pagerduty-incident-response", REPO / "corpora",
                  REPO / "benchmarks" / "gold" / "pagerduty.jsonl", "ops"),
}
CORPORA = tuple(DEV) + tuple(BUNDLED)
KINDS = ("none", "substitute", "standin", "optional")
GOLD_KIND = {"substitute": "substitute", "stand_in": "standin", "fallback": "standin", "optional": "optional"}
TEXT_EXT = {".md", ".markdown", ".txt", ".json", ".rst", ".yaml", ".yml"}
MODEL_PATH = Path(os.environ.get("THREADGRAPH_EMBEDDING_MODEL_PATH", "/work/shared/models/multilingual-e5-small-int8"))
CACHE = Path(os.environ.get("RELATION_CACHE", "/tmp/relation-emb/cache.sqlite"))

_LEAD = re.compile(r"^\s*(?:[-*+>]\s+|\d+[.)]\s+|#+\s+|\[[ xX]\]\s+)+")
_JSON_KEY = re.compile(r'^\s*"[^"]{1,40}"\s*:\s*')
_WORDISH = re.compile(r"[A-Za-z\u4e00-\u9fff]")


def family(corpus: str) -> str:
    """``"zh"``, ``"en"`` or ``"ops"``: the language family of a corpus."""
    return BUNDLED[corpus][3] if corpus in BUNDLED else corpus.split("-")[0]


def _where(corpus: str) -> tuple[Path, Path, Path]:
    if corpus in BUNDLED:
        docs, base, gold, _ = BUNDLED[corpus]
        return docs, base, gold
    d = GEN / corpus
    meta = json.loads((d / "meta.json").read_text(encoding="utf-8"))
    if meta.get("split") == "blind" or corpus not in DEV:
        raise SystemExit(f"{corpus} is not a dev corpus")
    return d / "docs", d / "docs", d / "gold.jsonl"


def clean_line(line: str) -> str:
    """The text of one document line: list/heading markers, JSON keys and
    quotes, table pipes removed."""
    s = line.strip()
    if s.startswith("|"):
        s = " ; ".join(c.strip() for c in s.strip("|").split("|") if c.strip())
        if not _WORDISH.search(s) or set(s) <= set("-: ;"):
            return ""
    s = _JSON_KEY.sub("", s)
    if s.startswith('"'):
        s = s.rstrip(",[{").rstrip()
        if s.endswith('"'):
            s = s[1:-1]
        s = s.replace('\\"', '"')
    return _LEAD.sub("", s).strip()


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.casefold()).strip()


def overlaps(sentence: str, quote: str) -> bool:
    """``sentence`` contains, lies in or shares a long stretch (half of the
    shorter text, at least 4 characters) with ``quote``."""
    a, b = _norm(sentence), _norm(quote)
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return m.size >= max(4, 0.5 * min(len(a), len(b)))


def corpus_rows(corpus: str) -> tuple[list[dict], dict]:
    """Rows ``{corpus, family, doc, line, text, label}`` of one corpus and
    stats ``{sentences, <kind>: n, gold, unmatched}``."""
    docs, base, gold_path = _where(corpus)
    gold: dict[tuple[str, int], list[dict]] = {}
    golds = [json.loads(x) for x in gold_path.read_text(encoding="utf-8").splitlines() if x.strip()]
    for i, g in enumerate(golds):
        for dl in (0, -1, 1):
            gold.setdefault((g["doc"], int(g["line"]) + dl), []).append({**g, "_exact": dl == 0, "_i": i})
    rows: list[dict] = []
    matched: set[int] = set()
    for f in sorted(p for p in docs.rglob("*") if p.is_file() and p.suffix.lower() in TEXT_EXT):
        rel = f.relative_to(base).as_posix()
        fence = False
        for ln, raw in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if raw.strip().startswith("```"):
                fence = not fence
                continue
            if fence:
                continue
            text = clean_line(raw)
            if len(text) < 2 or not _WORDISH.search(text):
                continue
            here = gold.get((rel, ln), [])
            for a, b in sentence_spans(text):
                sent = text[a:b]
                if not _WORDISH.search(sent):
                    continue
                label = "none"
                # exact-line golds first; the neighbouring-line fallback only when the quote is long enough
                for g in sorted(here, key=lambda g: not g["_exact"]):
                    if (g["_exact"] or len(g["quote"]) >= 12) and overlaps(sent, g["quote"]):
                        if label == "none":
                            label = GOLD_KIND[g["kind"]]
                        matched.add(g["_i"])
                rows.append({"corpus": corpus, "family": family(corpus), "doc": rel, "line": ln,
                             "text": sent[:600], "label": label})
    if os.environ.get("RELATION_SHOW_UNMATCHED"):
        for i, g in enumerate(golds):
            if i not in matched:
                print("   UNMATCHED", g["doc"][-30:], g["line"], g["quote"][:80])
    stats = {"sentences": len(rows), **{k: sum(r["label"] == k for r in rows) for k in KINDS[1:]},
             "gold": len(golds), "unmatched": len(golds) - len(matched)}
    return rows, stats


def load(corpora=CORPORA, verbose: bool = False) -> list[dict]:
    """All rows of ``corpora`` (see :func:`corpus_rows`), in corpus order."""
    out = []
    for c in corpora:
        rows, st = corpus_rows(c)
        if verbose:
            print(f"{c:22s} {json.dumps(st)}")
        out.extend(rows)
    return out


def embedder():
    """The product's e5 embedder at :data:`MODEL_PATH`."""
    from threadgraph.knowledge.embeddings import E5_NAME, Embedder

    return Embedder(E5_NAME, MODEL_PATH)


def vectors(rows: list[dict], emb=None) -> np.ndarray:
    """e5 passage vectors (the product's ``"passage: "`` prefix) of the rows'
    texts, shape ``(len(rows), dim)``, cached in :data:`CACHE`."""
    from threadgraph.knowledge.embeddings import EmbeddingCache

    emb = emb or embedder()
    cache = EmbeddingCache(CACHE)
    try:
        done = [0]

        def progress(d, t):
            if d - done[0] >= 2000 or d == t:
                done[0] = d
                print(f"  embedded {d}/{t}", flush=True)

        return cache.embed(emb, [r["text"] for r in rows], kind=emb.passage_kind, batch_size=32, progress=progress)
    finally:
        cache.close()


def main(argv: list[str]) -> int:
    rows = load(verbose=True)
    tot = {k: sum(r["label"] == k for r in rows) for k in KINDS}
    print("total", len(rows), json.dumps(tot))
    if argv and argv[0] == "embed":
        v = vectors(rows)
        print("vectors", v.shape)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
