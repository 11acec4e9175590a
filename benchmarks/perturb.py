"""Perturbation invariance of extraction: the gold recall of a dev corpus
after one change of *form* at a time, a change that leaves what the recipes
say untouched. A rule that reads the language and the document structure
keeps its recall; a rule fitted to one collection's format loses it.

Usage (from the checkout, with the package importable as ``threadgraph``)::

    python benchmarks/perturb.py <dev-corpus>|bundled:<name> [perturbation ...]

Perturbations (all when none is named):

``none``      the corpus as it is (the reference figure);
``trad``      traditional script: OpenCC ``s2t`` on the documents and on the
              gold ``x``/``y``/``quote`` (file names kept, so gold ``doc`` still
              names its file);
``simp``      simplified script: OpenCC ``t2s`` likewise (the reverse check, for a corpus
              written in traditional script);
``heads``     every ingredient-section heading renamed to another common form
              (材料/食材/用料/原料/配料/所需材料/准备/需要的东西…, in turn);
``nohead``    every ingredient-section heading removed: its list follows the
              heading before it (often the title) as a plain list;
``prose``     the list items under an ingredient-section heading written as one
              sentence ("需要两个鸡蛋、一个番茄和少许盐。");
``halfwidth`` full-width punctuation written half-width, a space after it
              (，→", " （→"(" ：→": " …);
``fullwidth`` half-width punctuation beside Chinese written full-width, and the
              spaces between Chinese and digits or Latin letters dropped.

With ``PERTURB_MISS=1`` each missed gold relation is listed (for a work corpus only).
Gold matching ignores line numbers, so a perturbation that moves lines keeps
its gold valid. The script refuses blind corpora, like ``gold_recall.py``, and
prints one line per perturbation: ``<corpus> <perturbation> found/total``.
Exit status 0, or 2 on a bad argument.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import generalization as G  # noqa: E402  (benchmarks/ on sys.path)

#: ingredient-section headings as people write them (the script's own list, not the engine's lexicon)
ING_FORMS = ["材料", "食材", "用料", "原料", "配料", "所需材料", "准备", "需要的东西", "原材料", "食材清单",
             "主料", "辅料", "调料", "配菜", "备料", "准备材料", "材料准备", "食材准备", "用料清单"]
_ING_HEADING = re.compile(
    r"^(#{1,6})\s*(?:[^\w\s]+\s*)?(?:\d+[.、]\s*)?[^\n#]{0,6}?"
    r"(?:材料|食材|用料|原料|配料|主料|辅料|调料|调味料|备料|准备|需要的东西|ingredients?)[^\n]{0,8}$", re.I)
_ITEM = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|\d+、\s*)(?:\[[ xX]\]\s*)?(?P<text>.+?)\s*$")
_HEADING = re.compile(r"^#{1,6}\s")
_STEPS = re.compile(r"步骤|步驟|做法|操作|制作|製作|方法|流程|steps?|method|instructions?|directions?", re.I)

PERTURBATIONS = ["none", "trad", "simp", "heads", "nohead", "prose", "halfwidth", "fullwidth"]


def _s2t():
    from opencc import OpenCC
    return OpenCC("s2t")


def _t2s():
    from opencc import OpenCC
    return OpenCC("t2s")


_PREP = re.compile(r"处理|處理|准备|準備|腌|醃|焯")


def _is_ing_heading(line: str) -> bool:
    """True for a markdown heading naming an ingredients section (not a steps one; a
    preparation heading such as "准备食材" is checked by its list, see :func:`_ing_headings`)."""
    t = line.strip()
    return (bool(_ING_HEADING.match(t)) and not _STEPS.search(t.lstrip("#"))
            and bool(re.search(r"[\u3400-\u9fff]", t)))  # a Chinese heading (a bilingual page keeps its English one)


def _ing_headings(lines: list[str]) -> set[int]:
    """Indices of the ingredient-section headings of a document: :func:`_is_ing_heading`, and
    for a heading that may name preparation (准备/处理…) a list of short items below it."""
    out = set()
    for i, line in enumerate(lines):
        if not _is_ing_heading(line):
            continue
        if _PREP.search(line):
            items = []
            for nxt in lines[i + 1:]:
                if _HEADING.match(nxt):
                    break
                m = _ITEM.match(nxt)
                if m:
                    items.append(m.group("text"))
            if not items or any(re.search(r"[，。,]", t) for t in items) or sorted(map(len, items))[len(items) // 2] > 12:
                continue  # a preparation step list ("准备食材" then "肉皮提前泡软，切条"), not the ingredients
        out.add(i)
    return out


def _heads(text: str, state: list[int]) -> str:
    out = []
    lines = text.split("\n")
    heads = _ing_headings(lines)
    for i, line in enumerate(lines):
        if i in heads:
            hashes = line.strip().split()[0] if line.strip().startswith("#") else "##"
            hashes = re.match(r"#+", hashes).group(0)
            form = ING_FORMS[state[0] % len(ING_FORMS)]
            state[0] += 1
            line = f"{hashes} {form}"
        out.append(line)
    return "\n".join(out)


def _nohead(text: str) -> str:
    lines = text.split("\n")
    heads = _ing_headings(lines)
    return "\n".join(line for i, line in enumerate(lines) if i not in heads)


def _prose(text: str) -> str:
    """Each run of list items under an ingredient heading → one sentence."""
    lines = text.split("\n")
    out: list[str] = []
    inside = False
    run: list[str] = []

    def flush() -> None:
        if not run:
            return
        parts = [re.sub(r"[。；;，,.\s]+$", "", p) for p in run]
        parts = [p for p in parts if p]
        if parts:
            body = "、".join(parts[:-1]) + ("和" if len(parts) > 1 else "") + parts[-1]
            out.extend([f"需要{body}。", ""])
        run.clear()

    heads = _ing_headings(lines)
    for i, line in enumerate(lines):
        if _HEADING.match(line):
            flush()
            inside = i in heads
            out.append(line)
            continue
        m = _ITEM.match(line)
        if inside and m and not line.startswith(("    ", "\t")):
            run.append(m.group("text").replace("**", ""))
            continue
        if inside and run and not line.strip():
            continue  # blank lines inside the list: the sentence goes on
        flush()
        out.append(line)
    flush()
    return "\n".join(out)


_FULL_TO_HALF = {"，": ", ", "：": ": ", "；": "; ", "（": " (", "）": ") ", "！": "! ", "？": "? ", "、": ", "}
_CJK = "\u3400-\u9fff"


def _body_lines(text: str):
    """(line, in_front_matter) for each line: YAML front matter keeps its syntax."""
    lines = text.split("\n")
    fm_end = -1
    if lines and lines[0].strip() == "---":
        fm_end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), -1)
    return [(line, i <= fm_end) for i, line in enumerate(lines)]


def _halfwidth(text: str) -> str:
    out = []
    for line, meta in _body_lines(text):
        if meta:
            out.append(line)
            continue
        lead = re.match(r"^\s*(?:\d+、)?", line).group(0)  # "1、" numbers a list item: kept
        body = line[len(lead):]
        for a, b in _FULL_TO_HALF.items():
            body = body.replace(a, b)
        out.append(lead + re.sub(r"(?<=\S)[ \t]{2,}", " ", body).rstrip())
    return "\n".join(out)


def _fullwidth(text: str) -> str:
    out = []
    for line, meta in _body_lines(text):
        if meta or re.search(r"\]\(|https?://|^\s*\|", line):
            out.append(line)  # links and table rows keep their syntax
            continue
        line = re.sub(rf"(?<=[{_CJK}])\s*,\s*|,\s*(?=[{_CJK}])", "，", line)
        line = re.sub(rf"(?<=[{_CJK}])\s*:\s*|(?<=\S):\s*(?=[{_CJK}])", "：", line)
        line = re.sub(rf"(?<=[{_CJK}])\s*;\s*", "；", line)
        line = re.sub(rf"\s*\((?=[^()]*[{_CJK}])([^()]*)\)", r"（\1）", line)
        line = re.sub(rf"(?<=[{_CJK}]) +(?=[0-9A-Za-z])|(?<=[0-9A-Za-z]) +(?=[{_CJK}])", "", line)
        out.append(line)
    return "\n".join(out)


def perturb_text(text: str, kind: str, state: list[int]) -> str:
    """``text`` (one markdown document) under perturbation ``kind``."""
    if kind == "none":
        return text
    if kind == "trad":
        return _s2t().convert(text)
    if kind == "simp":
        return _t2s().convert(text)
    if kind == "heads":
        return _heads(text, state)
    if kind == "nohead":
        return _nohead(text)
    if kind == "prose":
        return _prose(text)
    if kind == "halfwidth":
        return _halfwidth(text)
    if kind == "fullwidth":
        return _fullwidth(text)
    raise ValueError(kind)


def perturb_gold(gold: list[dict], kind: str) -> list[dict]:
    """The gold relations converted like the documents (only the script and the punctuation
    perturbations touch the names; the others change layout, not words)."""
    if kind in ("trad", "simp"):
        conv = (_s2t() if kind == "trad" else _t2s()).convert
    elif kind in ("halfwidth", "fullwidth"):
        def conv(s: str) -> str:
            return perturb_text(s, kind, [0]).strip()
    else:
        return gold
    out = []
    for g in gold:
        g = dict(g)
        for k in ("x", "y"):
            if g.get(k):
                g[k] = [conv(v) for v in g[k]]
        if g.get("quote"):
            g["quote"] = conv(g["quote"])
        out.append(g)
    return out


def recall(docs: Path, gold: list[dict]) -> tuple[int, int]:
    """Ingest ``docs`` graph-only and count the gold relations found."""
    import gold_recall

    with gold_recall.extracted(docs, "perturb-kb-") as g:
        edges = G.load_edges(g)
        found = [x for x in gold if G.gold_found(x, edges)]
        if os.environ.get("PERTURB_MISS"):  # work-set diagnosis: the gold relations missed
            for x in gold:
                if x not in found:
                    print("  MISS", x["kind"], x["x"][:2], "->", (x.get("y") or [])[:2], "|", x["doc"][-30:], x["quote"][:80])
        return len(found), len(gold)


def run(name: str, docs: Path, gold_path: Path, kinds: list[str]) -> dict[str, tuple[int, int]]:
    """Recall of corpus ``name`` under each perturbation of ``kinds``; prints one line each."""
    gold = G.read_jsonl(gold_path)
    res = {}
    for kind in kinds:
        tmp = Path(tempfile.mkdtemp(prefix=f"perturb-{kind}-"))
        try:
            state = [0]
            for f in sorted(docs.rglob("*")):
                if not f.is_file():
                    continue
                dest = tmp / "docs" / f.relative_to(docs)
                dest.parent.mkdir(parents=True, exist_ok=True)
                if f.suffix.lower() in (".md", ".markdown", ".txt"):
                    dest.write_text(perturb_text(f.read_text(encoding="utf-8"), kind, state), encoding="utf-8")
                else:
                    shutil.copy2(f, dest)
            res[kind] = recall(tmp / "docs", perturb_gold(gold, kind))
            print(f"{name} {kind} {res[kind][0]}/{res[kind][1]}", flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return res


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    kinds = argv[1:] or PERTURBATIONS
    if any(k not in PERTURBATIONS for k in kinds):
        print(f"perturbations: {' '.join(PERTURBATIONS)}")
        return 2
    if argv[0].startswith("bundled:"):
        which = argv[0].split(":", 1)[1]
        docs = G.C.CORPORA / which
        if not docs.is_dir():
            docs = next((d for d in sorted(G.C.CORPORA.iterdir()) if d.name.startswith(which)), docs)
        run(which, docs, G.C.REPO / "benchmarks" / "gold" / f"{which}.jsonl", kinds)
        return 0
    name = argv[0]
    if not (G.GEN / name / "meta.json").is_file():
        print(f"no corpus {name!r} under {G.GEN}")
        return 2
    meta = json.loads((G.GEN / name / "meta.json").read_text(encoding="utf-8"))
    if meta.get("split") == "blind":
        print(f"{name} is blind: its documents are not for code writers")
        return 2
    run(name, G.GEN / name / "docs", G.GEN / name / "gold.jsonl", kinds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
