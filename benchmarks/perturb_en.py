"""Perturbation invariance of extraction on English recipe collections: copy a
DEV corpus with ONE change of form at a time and report gold recall for each.

Usage (from the checkout, with the package importable as ``threadgraph``)::

    python benchmarks/perturb_en.py <dev-corpus> [<dev-corpus> ...] [--only a,b2,...] [--keep DIR] [--lost]

A careful reader finds the same optional items and substitutions whatever the
form, so recall must not drop under any perturbation; where it drops, the
ingest has a structural defect. Gold relations are matched by document path and
names only (``generalization.gold_found``); every perturbation keeps the
document paths and never rewrites a name, so the gold file applies unchanged.

Perturbations (each applied alone to every Markdown document; a document the
change does not apply to stays as it is):

* ``rt`` the front matter only re-dumped (the control: YAML quoting changes).
* ``a``  front matter lists <-> Markdown sections: YAML ``ingredients`` /
  ``steps`` / ``directions`` / ``notes`` become ``## Ingredients`` (bullets),
  ``## Directions`` (numbered) and ``## Notes``; a document without them has its
  ingredients section moved into front matter (a YAML block string, group
  labels as ``Label:`` lines).
* ``b1``/``b2``/``b3`` the ingredients heading renamed "What you need",
  "You'll need", "Shopping list"; ``b4`` every ``#`` heading written as a bold
  pseudo-heading (``**Ingredients**``). Front-matter documents get ``a`` first
  (the row then compares with ``am``: front matter to sections only).
* ``c1``..``c4`` notes moved to a "Tips", "Variations", "Substitutions",
  "Cook's notes" section; ``c5`` notes appended to the last step's text.
* ``d``  numbered steps <-> bulleted steps (front matter: ``a`` then bullets).
* ``e1`` quantities: ASCII fractions <-> Unicode fractions, "cup" -> "c.";
  ``e2``..``e5`` the optional mark "(optional)" / ", optional" written
  "(opt.)", ", optional", ", if desired", ", for garnish". ``e5`` is a control of meaning, not of form: the
  gold does not count "X, for garnish" as optional (a garnish is part of the dish), so its drop is expected.

Refuses a blind corpus. Prints one line per perturbation: recall and the
difference from the unperturbed corpus (from ``am`` for rows built on it).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import yaml  # noqa: E402

import generalization as G  # noqa: E402
import gold_recall  # noqa: E402

FM = re.compile(r"\A---\s*\n(.*?\n)---\s*\n?", re.S)
HEAD = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ING_HEAD = re.compile(r"ingredients?|what you(?:'ll| will)? need|shopping list", re.I)
STEP_HEAD = re.compile(r"procedure|preparation|directions?|instructions?|method|steps?", re.I)
NOTE_HEAD = re.compile(r"notes?|tips?", re.I)
ITEM = re.compile(r"^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$")
FENCE = re.compile(r"^\s*(```|~~~)")
ING_KEYS = ("ingredients",)
STEP_KEYS = ("steps", "directions", "instructions", "method")
NOTE_KEYS = ("notes", "note", "tips")
VARIANTS = ["orig", "rt", "a", "am", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "c5", "d", "e1", "e2", "e3", "e4", "e5"]
NEEDS_A = {"b1", "b2", "b3", "b4", "d"}


def _str_block(dumper, s):
    style = "|" if "\n" in s else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", s, style=style)


yaml.SafeDumper.add_representer(str, _str_block)


class Doc:
    """A Markdown document split into its front matter (a dict, or None when
    it has none or it is not a YAML mapping) and its body text."""

    def __init__(self, text: str):
        m = FM.match(text)
        self.fm, self.body = None, text
        if m:
            try:
                data = yaml.safe_load(m.group(1))
            except yaml.YAMLError:
                data = None
            if isinstance(data, dict):
                self.fm, self.body = data, text[m.end():]

    def text(self) -> str:
        """The document written back (front matter re-dumped as YAML)."""
        if self.fm is None:
            return self.body
        head = yaml.safe_dump(self.fm, sort_keys=False, allow_unicode=True, width=10_000)
        return f"---\n{head}---\n{self.body}"


def _as_lines(v) -> list[str]:
    if isinstance(v, list):
        out = []
        for x in v:
            if isinstance(x, dict):  # {"group": [items]} style
                for k, items in x.items():
                    out.append(f"{k}:")
                    out.extend(_as_lines(items))
            elif x is not None:
                out.append(str(x))
        return out
    if isinstance(v, str):  # a block string: one item a line, its own bullet glyph ("• 2 eggs") dropped
        return [re.sub(r"^[•·▪◦‣]\s*", "", ln.strip()) for ln in v.splitlines()]
    return []


def _section(title: str, lines: list[str], numbered: bool) -> str:
    out, n = [f"## {title}", ""], 0
    for ln in lines:
        if not ln:
            continue
        if ln.endswith(":") and len(ln) < 60:  # a group label ("Base:", "For the sauce:")
            out += ["", f"### {ln[:-1]}", ""]
            n = 0
            continue
        n += 1
        out.append(f"{n}. {ln}" if numbered else f"- {ln}")
    return "\n".join(out) + "\n\n"


def fm_to_md(doc: Doc, numbered_steps: bool = True) -> bool:
    """Move front-matter ingredients / steps / notes into Markdown sections at
    the start of the body. Returns whether anything moved."""
    if doc.fm is None:
        return False
    parts = []
    for keys, title, numbered in ((ING_KEYS, "Ingredients", False), (STEP_KEYS, "Directions", numbered_steps)):
        for k in keys:
            if k in doc.fm and _as_lines(doc.fm[k]):
                parts.append(_section(title, _as_lines(doc.fm.pop(k)), numbered))
                break
    for k in NOTE_KEYS:
        if isinstance(doc.fm.get(k), str) and doc.fm[k].strip():
            parts.append(f"## Notes\n\n{doc.fm.pop(k).strip()}\n\n")
            break
    if not parts:
        return False
    body = doc.body.lstrip("\n")
    if body.strip() and not HEAD.match(body.splitlines()[0]) and not any(p.startswith("## Directions") for p in parts):
        body = "## Directions\n\n" + body  # the body's unheaded text is the method, not part of the new sections
    doc.body = "".join(parts) + body
    return True


def _sections(lines: list[str]) -> list[tuple[int, int, int, str]]:
    """(start, end, level, title) of every heading's section (end exclusive,
    up to the next heading of the same or a higher level)."""
    heads, fence = [], False
    for i, ln in enumerate(lines):
        if FENCE.match(ln):
            fence = not fence
        m = None if fence else HEAD.match(ln)
        if m:
            heads.append((i, len(m.group(1)), m.group(2)))
    out = []
    for j, (i, lvl, title) in enumerate(heads):
        end = next((k for k, l2, _ in heads[j + 1:] if l2 <= lvl), len(lines))
        out.append((i, end, lvl, title))
    return out


def md_to_fm(doc: Doc) -> bool:
    """Move the body's ingredients section (its list items; sub-headings as
    ``Label:`` lines) into a front-matter ``ingredients`` block string."""
    lines = doc.body.splitlines()
    for start, end, _lvl, title in _sections(lines):
        if not ING_HEAD.search(title):
            continue
        items = []
        for ln in lines[start + 1:end]:
            h, it = HEAD.match(ln), ITEM.match(ln)
            if h:
                items.append(re.sub(r":\s*$", "", h.group(2)) + ":")
            elif it and it.group(2).strip():
                items.append(it.group(2).strip())
            elif ln.strip():  # a line of the section written as a paragraph ("Water or broth, as needed")
                items.append(ln.strip())
        if not items:
            return False
        if doc.fm is None:
            doc.fm = {}
        doc.fm["ingredients"] = "\n".join(items)
        doc.body = "\n".join(lines[:start] + lines[end:]) + "\n"
        return True
    return False


def rename_ing_heading(doc: Doc, name: str) -> bool:
    lines, done = doc.body.splitlines(), False
    for i, ln in enumerate(lines):
        m = HEAD.match(ln)
        if m and ING_HEAD.search(m.group(2)):
            lines[i] = f"{m.group(1)} " + ING_HEAD.sub(name, m.group(2), count=1)
            done = True
    doc.body = "\n".join(lines) + "\n"
    return done


def bold_headings(doc: Doc) -> bool:
    lines, done = doc.body.splitlines(), False
    for i, ln in enumerate(lines):
        m = HEAD.match(ln)
        if m and m.group(2):
            lines[i] = f"**{m.group(2)}**"
            done = True
    doc.body = "\n".join(lines) + "\n"
    return done


def move_notes(doc: Doc, title: str | None) -> bool:
    """Notes (front matter ``notes`` or a Notes/Tips section) moved to a
    section called ``title``, or, when ``title`` is None, appended to the last
    step's text."""
    note = None
    if doc.fm is not None:
        for k in NOTE_KEYS:
            if isinstance(doc.fm.get(k), str) and doc.fm[k].strip():
                note = " ".join(doc.fm.pop(k).split())
                break
    lines = doc.body.splitlines()
    if note is None:
        for start, end, _lvl, t in _sections(lines):
            if NOTE_HEAD.fullmatch(re.sub(r"[^\w\s']", "", t).strip()):
                body = [re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", ln).strip() for ln in lines[start + 1:end]]
                note = " ".join(x for x in body if x)
                lines = lines[:start] + lines[end:]
                break
    if not note:
        return False
    if title is not None:
        doc.body = "\n".join(lines).rstrip("\n") + f"\n\n## {title}\n\n{note}\n"
        return True
    if doc.fm is not None:  # steps in front matter: the last one takes the note
        for k in STEP_KEYS:
            if isinstance(doc.fm.get(k), list) and doc.fm[k]:
                doc.fm[k][-1] = f"{str(doc.fm[k][-1]).rstrip()} {note}"
                doc.body = "\n".join(lines) + "\n"
                return True
    steps = [(a, b) for a, b, _l, t in _sections(lines) if STEP_HEAD.search(t) and not ING_HEAD.search(t)]
    spans = steps or [(-1, len(lines))]
    last = max((i for a, b in spans for i in range(a + 1, b) if lines[i].strip() and not HEAD.match(lines[i])),
               default=None)
    if last is None:
        doc.body = "\n".join(lines).rstrip("\n") + f"\n\n{note}\n"
    else:
        lines[last] = lines[last].rstrip() + " " + note
        doc.body = "\n".join(lines) + "\n"
    return True


def swap_step_marks(doc: Doc) -> bool:
    """Numbered step items become bullets; bulleted step items become numbered
    (inside step sections, or in a body without headings)."""
    lines, done = doc.body.splitlines(), False
    secs = [(s, e) for s, e, _l, t in _sections(lines) if STEP_HEAD.search(t) and not ING_HEAD.search(t)]
    if not secs and not any(HEAD.match(ln) for ln in lines):
        secs = [(-1, len(lines))]
    for s, e in secs:
        n = 0
        for i in range(s + 1, e):
            m = re.match(r"^(\s*)(\d{1,3}[.)]|[-*+])\s+(.*)$", lines[i])
            if not m or m.group(1):
                continue
            if m.group(2)[0].isdigit():
                lines[i] = f"- {m.group(3)}"
            else:
                n += 1
                lines[i] = f"{n}. {m.group(3)}"
            done = True
    doc.body = "\n".join(lines) + "\n"
    return done


UNI = {"1/2": "½", "1/3": "⅓", "2/3": "⅔", "1/4": "¼", "3/4": "¾", "1/8": "⅛"}
OPT = re.compile(r"\s*[(\[]\s*optional\s*[)\]]|,\s*optional\b", re.I)


def _all_text(doc: Doc, fn) -> bool:
    """Apply ``fn`` (str -> str) to the body and to every front-matter string."""
    before = doc.text()

    def walk(v):
        if isinstance(v, str):
            return fn(v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        return v

    if doc.fm is not None:
        doc.fm = walk(doc.fm)
    doc.body = fn(doc.body)
    return doc.text() != before


def fractions(s: str) -> str:
    if any(u in s for u in UNI.values()):
        for a, u in UNI.items():
            s = re.sub(rf"(\d)\s*{u}", rf"\1 {a}", s).replace(u, a)
    else:
        for a, u in UNI.items():
            s = re.sub(rf"(?<![\d/]){re.escape(a)}(?![\d/])", u, s)
    return re.sub(r"\b(\d[\d ½⅓⅔¼¾⅛/-]*?)\s*cups?\b", r"\1 c.", s)


def optional_as(mark: str):
    return lambda s: OPT.sub(mark, s)


def perturb(text: str, v: str) -> tuple[str, bool]:
    """The document ``text`` under perturbation ``v``; also whether it changed."""
    doc = Doc(text)
    if v == "orig":
        return text, False
    if v in NEEDS_A or v == "am":
        fm_to_md(doc, numbered_steps=(v != "d"))
    if v == "a":
        done = fm_to_md(doc) or md_to_fm(doc)
    elif v == "rt":  # front matter re-dumped only: the control of every row
        done = True
    elif v == "am":  # the base of the rows built on "a": front matter to sections only
        done = Doc(text).text() != doc.text()
    elif v in ("b1", "b2", "b3"):
        done = rename_ing_heading(doc, {"b1": "What you need", "b2": "You'll need", "b3": "Shopping list"}[v])
    elif v == "b4":
        done = bold_headings(doc)
    elif v.startswith("c"):
        done = move_notes(doc, {"c1": "Tips", "c2": "Variations", "c3": "Substitutions", "c4": "Cook's notes",
                                "c5": None}[v])
    elif v == "d":
        done = swap_step_marks(doc) or Doc(text).text() != doc.text()
    elif v == "e1":
        done = _all_text(doc, fractions)
    else:
        mark = {"e2": " (opt.)", "e3": ", optional", "e4": ", if desired", "e5": ", for garnish"}[v]
        done = _all_text(doc, optional_as(mark))
    return doc.text(), done


def run(name: str, variants: list[str], keep: Path | None, lost: bool = False) -> dict[str, float]:
    """Recall of corpus ``name`` under each perturbation; prints a table (with
    ``lost``, also each gold relation found unperturbed and missed perturbed:
    for WORK corpora only)."""
    misses: dict[str, set[str]] = {}
    if not (G.GEN / name / "meta.json").is_file():
        print(f"no corpus {name!r} under {G.GEN}")
        return {}
    meta = json.loads((G.GEN / name / "meta.json").read_text(encoding="utf-8"))
    if meta.get("split") == "blind":
        raise SystemExit(f"{name} is blind")
    src, gold = G.GEN / name / "docs", G.GEN / name / "gold.jsonl"
    n_gold = len(G.read_jsonl(gold))
    out: dict[str, float] = {}
    for v in variants:
        root = Path(tempfile.mkdtemp(prefix=f"perturb-{name}-{v}-"))
        docs = root / "docs"
        shutil.copytree(src, docs)
        changed = 0
        for p in docs.rglob("*.md"):
            text, done = perturb(p.read_text(encoding="utf-8"), v)
            if done:
                p.write_text(text, encoding="utf-8")
                changed += 1
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            r = gold_recall.score(f"{name}-{v}", docs, gold, ("miss",) if lost else ())
        misses[v] = {ln for ln in buf.getvalue().splitlines() if ln.startswith("  MISS")}
        out[v] = r
        base = out.get("am") if (v in NEEDS_A and "am" in out) else out.get("orig")
        diff = "" if base is None else f"{round((r - base) * n_gold):+d}"
        print(f"{name:22s} {v:5s} docs changed {changed:3d}  recall {round(r * n_gold):3d}/{n_gold} "
              f"{diff}{' (vs am)' if v in NEEDS_A else ''}", flush=True)
        if lost and v != "orig":
            for ln in sorted(misses[v] - misses.get("am" if v in NEEDS_A else "orig", set())):
                print("      LOST", ln.strip()[5:])
        if keep:
            shutil.copytree(docs, keep / name / v, dirs_exist_ok=True)
        shutil.rmtree(root, ignore_errors=True)
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    only, keep, names, lost = None, None, [], False
    it = iter(argv)
    for a in it:
        if a == "--only":
            only = next(it).split(",")
        elif a == "--lost":
            lost = True
        elif a == "--keep":
            keep = Path(next(it))
        else:
            names.append(a)
    variants = only or VARIANTS
    if "orig" not in variants:
        variants = ["orig", *variants]
    if any(v in NEEDS_A for v in variants) and "am" not in variants:
        variants.insert(1, "am")
    for n in names:
        run(n, variants, keep, lost)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
