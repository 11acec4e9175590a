"""Answers read from the structure of whole documents: a procedure (every step
section of a document, in order, never cut) and a list (the items of a table,
a bulleted list or the document's top-level sections) for questions that ask
for one ("What are the severity levels?", "有哪些角色？").

Pure functions over :class:`~threadgraph.knowledge.vectors.Hit` lists (the
chunks of a document in source order, from
:func:`threadgraph.knowledge.retrieval.doc_chunks`); the cue words come from
the intents' data files. No intent, corpus or domain word is named here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..knowledge.text import content_words, singular
from .compose import sentences_of, t, unwrap_lines, whole_sentences

#: Characters a list answer aims at (the items that fit; "and N more").
LIST_CHARS = 600
#: Characters of one item's description in a list answer.
ITEM_CHARS = 110

_ROW_SEP = re.compile(r"\s+\|\s+")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)、])\s*(.+)$")
_LABEL = re.compile(r"^\**(?P<label>[^:：*]{1,60}?)\**\s*[:：]\s+(?P<rest>.+)$")


def _words(text: str) -> set[str]:
    """Singular content words (English) and the CJK runs of ``text``, for matching a question."""
    low = text.replace("_", " ").replace("-", " ").casefold()
    return {singular(w) for w in content_words(low)} | set(re.findall(r"[\u4e00-\u9fff]{2,}", low))


def _overlap(question_words: set[str], text: str) -> int:
    """How many of ``question_words`` occur in ``text`` (CJK words as substrings)."""
    have = _words(text)
    low = text.casefold()
    return sum(1 for w in question_words if w in have or (not w.isascii() and w in low))


def procedure(hits, step_cues: list[str]) -> list[tuple[str, str, list]]:
    """The step sections of one document, in source order: ``(section,
    text, chunks)`` for the chunks whose section title holds one of
    ``step_cues`` (case-insensitive), consecutive chunks of one section joined."""
    cues = [c.casefold() for c in step_cues]
    out: list[tuple[str, str, list]] = []
    for h in sorted(hits, key=lambda h: h.line):
        sec = h.section or ""
        if not any(c in sec.casefold() for c in cues):
            continue
        text = "\n".join(line.rstrip() for line in h.text.strip().splitlines() if line.strip())
        if out and out[-1][0] == sec:
            out[-1] = (sec, out[-1][1] + "\n" + text, out[-1][2] + [h])
        else:
            out.append((sec, text, [h]))
    return out


def procedure_text(lang: str, title: str, sections: list[tuple[str, str]]) -> str:
    """The whole procedure: a heading line, then each step section (titled
    with its last heading when there are several) in full."""
    lines = [t(lang, f"{title}的做法：", f"How to make {title}:")]
    heads = [s.split(" > ")[-1].strip() for s, _ in sections]
    for head, (_, text) in zip(heads, sections):
        if len(sections) > 1 and head:
            lines.append(f"【{head}】" if lang == "zh" else f"{head}:")
        lines.append(text)
    return "\n".join(lines)


@dataclass
class ListItem:
    """One item of a list answer: its ``label``, a short ``detail`` and the hit it was read from."""

    label: str
    detail: str = ""
    hit: object = None


@dataclass
class Structure:
    """A list found in a document: its ``kind`` (table, bullets, sections),
    what describes it (``caption``: header cells, section title, document
    title) and its ``items``."""

    kind: str
    caption: str
    items: list[ListItem] = field(default_factory=list)


def _first_sentence(text: str) -> str:
    s = sentences_of(text)
    return whole_sentences(s[:1], ITEM_CHARS) if s else ""


def _header(cells: list[str]) -> bool:
    """A table row that reads as a header: every cell a few words, no digit, no symbol."""
    return all(len(c.split()) <= 4 and not re.search(r"[\d#@/+]", c) for c in cells)


def structures(hits, title: str = "") -> list[Structure]:
    """The lists of one document (its chunks ``hits``): table rows (first
    cell = label, second = detail; the header row is the caption), each
    section's bulleted/numbered items (``label: detail`` lines split), and its
    top-level sections (label = heading, detail = the first sentence under it)."""
    out: list[Structure] = []
    table: Structure | None = None
    tops: dict[str, ListItem] = {}
    bullets: dict[str, Structure] = {}
    for h in sorted(hits, key=lambda h: h.line):
        sec = h.section or ""
        top = sec.split(" > ")[0].strip()
        if top and top not in tops:
            tops[top] = ListItem(top, "", h)
        if top and not tops[top].detail:
            body = "\n".join(x for x in h.text.splitlines() if not _ROW_SEP.search(x))
            tops[top].detail = _first_sentence(body)
        for line in h.text.splitlines():
            cells = _ROW_SEP.split(line.strip())
            if len(cells) >= 2 and all(cells):
                if table is None or _header(cells):
                    table = Structure("table", f"{title} {sec}")
                    out.append(table)
                if _header(cells):
                    table.caption += " " + " ".join(cells)
                    continue
                table.items.append(ListItem(cells[0].strip("* "), _first_sentence(cells[1]), h))
                continue
            m = _BULLET.match(line)
            if m and not line.startswith("  "):
                s = bullets.setdefault(sec, Structure("bullets", sec))
                body = m.group(1).strip()
                lm = _LABEL.match(body)
                s.items.append(ListItem(lm.group("label").strip(), _first_sentence(lm.group("rest")), h) if lm
                               else ListItem(_first_sentence(body), "", h))
    out += [s for s in bullets.values() if len(s.items) >= 2]
    if len(tops) >= 2:
        out.append(Structure("sections", title, list(tops.values())))
    return [s for s in out if len(s.items) >= 2]


def name_like(label: str) -> bool:
    """A label that names a thing (at most 6 words or 20 CJK characters, not a sentence)."""
    label = label.strip()
    if not label or len(label) > 60 or re.search(r"[.。!！?？;；,，]$", label):
        return False
    return len(label.split()) <= 6 if label.isascii() else len(label) <= 20


def head_word(subject: str) -> str:
    """The word a list's caption must name: the last English content word of
    ``subject`` before a preposition, singular ("severity levels during X" →
    ``level``), or the last two CJK characters."""
    if re.search(r"[\u4e00-\u9fff]", subject):
        run = re.findall(r"[\u4e00-\u9fff]+", subject)
        return run[0][-2:] if run else ""
    words = subject.replace("-", " ").split()
    cut = next((i for i, w in enumerate(words) if w.casefold() in _PREPOSITIONS), len(words))
    content = [w for w in content_words(" ".join(words[:cut]).casefold())]
    return singular(content[-1]) if content else ""


_PREPOSITIONS = {"in", "on", "at", "for", "during", "after", "before", "of", "to", "from", "with", "within", "when", "that", "which"}


def best_structure(question: str, docs: list[tuple[str, list]], head: str = "") -> Structure | None:
    """The list that answers ``question`` among the documents ``docs``
    (``(title, chunks)`` each): a structure whose items name things (see
    :func:`name_like`) and whose caption names ``head`` (when given) and
    shares most words with the question; tables before bullets before sections."""
    qw = _words(question)
    if not qw:
        return None
    order = {"table": 0, "bullets": 1, "sections": 2}
    best: tuple[int, int, int] | None = None
    pick = None
    for rank, (title, hits) in enumerate(docs):
        for s in structures(hits, title):
            if head and _overlap({head}, s.caption) == 0:
                continue
            if sum(1 for i in s.items if name_like(i.label)) < 0.8 * len(s.items):
                continue
            score = _overlap(qw, s.caption)
            key = (score, -order[s.kind], -rank)
            if score >= 1 and (best is None or key > best):
                best, pick = key, s
    return pick


def _label_key(text: str) -> str:
    """A label or asked name compared loosely: case-folded, without spaces, hyphens, underscores,
    markup or a possessive ("Tier 1" ~ "tier-1", "**Level 2**" ~ "level2")."""
    return re.sub(r"'s$|[\s\-_*`'’]", "", text.casefold())


def compared_items(found: list[Structure], a: str, b: str) -> tuple[ListItem, ListItem] | None:
    """The items labelled ``a`` and ``b`` (compared by :func:`_label_key`) of the first structure
    of ``found`` that holds both, each with a detail; ``None`` when none holds both."""
    ka, kb = _label_key(a), _label_key(b)
    if not ka or not kb or ka == kb:
        return None
    for s in found:
        by = {}
        for i in s.items:
            by.setdefault(_label_key(i.label), i)
        ia, ib = by.get(ka), by.get(kb)
        if ia is not None and ib is not None and ia.detail and ib.detail:
            return ia, ib
    return None


@dataclass
class Row:
    """One table row an item heads: its ``label`` (first cell), the ``cells`` after it paired
    with the header cell above each (``""`` when the table has no header row) and the ``hit``
    (chunk) it was read from."""

    label: str
    cells: list[tuple[str, str]] = field(default_factory=list)
    hit: object = None


def item_row(hits, label: str) -> Row | None:
    """The table row of a document (its chunks ``hits``, any order) whose first cell is
    ``label`` (compared by :func:`_label_key`: "P 1" ~ "p-1"), with the header row last seen
    above it naming its columns; ``None`` when no row is labelled so."""
    key = _label_key(label)
    if not key:
        return None
    header: list[str] = []
    for h in sorted(hits, key=lambda h: h.line):
        for line in h.text.splitlines():
            cells = [c.strip() for c in _ROW_SEP.split(line.strip())]
            if len(cells) < 2 or not all(cells):
                continue
            if _header(cells) and _label_key(cells[0].strip("* ")) != key:
                header = cells
                continue
            if _label_key(cells[0].strip("* ")) != key:
                continue
            heads = header[1:] if len(header) == len(cells) else [""] * (len(cells) - 1)
            return Row(cells[0].strip("* "), list(zip(heads, cells[1:])), h)
    return None


def row_text(lang: str, row: Row) -> str:
    """A table row as an answer: its label, then one line per cell, named by its column
    header when the table has one, every cell in full."""
    lines = [t(lang, f"{row.label}：", f"{row.label}:")]
    for head, cell in row.cells:
        if head:
            lines.append(f"- {head}：{cell}" if lang == "zh" else f"- {head}: {cell}")
        else:
            lines.append(f"- {cell}")
    return "\n".join(lines)


def list_subject(question: str, lang: str, patterns: list[str]) -> str:
    """The noun phrase a list question asks about ("the severity levels" →
    ``severity levels``), from the first of ``patterns`` (regexes with a
    ``np`` group) that matches; ``""`` when none does."""
    q = question.strip().rstrip("?？。!！ ")
    for p in patterns:
        m = re.search(p, q, re.I)
        if m and m.group("np").strip():
            return m.group("np").strip()
    return ""


def list_text(lang: str, subject: str, s: Structure, limit: int = LIST_CHARS) -> tuple[str, list[ListItem]]:
    """The list answer, answer first: the labels in one sentence, then one
    line per item with its detail while the text fits ``limit`` ("and N more"
    after that). Returns the text and the items shown in detail."""
    labels = list(dict.fromkeys(i.label for i in s.items))
    items = [next(i for i in s.items if i.label == lab) for lab in labels]
    n = len(items)
    head_names = labels if sum(len(x) + 2 for x in labels) <= limit // 2 else labels[:8]
    rest = n - len(head_names)
    names = ("、".join(head_names) if lang == "zh" else ", ".join(head_names)) + \
        (t(lang, f"等 {n} 项", f" and {rest} more") if rest > 0 else "")
    if subject:
        head = t(lang, f"{subject}共有 {n} 项：{names}。", f"There are {n} {subject}: {names}.")
    else:
        head = t(lang, f"共有 {n} 项：{names}。", f"There are {n}: {names}.")
    lines, used, shown = [head], len(head), []
    for i in items:
        if not i.detail or i.detail == i.label:
            continue
        line = f"- {i.label}：{i.detail}" if lang == "zh" else f"- {i.label}: {i.detail}"
        if used + len(line) + 1 > limit:
            left = len([x for x in items if x.detail]) - len(shown)
            lines.append(t(lang, f"……另有 {left} 项见来源。", f"… and {left} more in the sources."))
            break
        lines.append(line)
        used += len(line) + 1
        shown.append(i)
    return "\n".join(lines), shown


#: What separates a pointer's page title from its one-line description: "Title - what it holds".
_POINTER_SEP = re.compile(r"\s+[-–—]\s+|:\s+")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_NUMBERED = re.compile(r"^\s*\d{1,3}[.)]\s+\S")
#: Share of a passage's list items that must point to KB documents for it to be a link list.
POINTER_SHARE = 0.6


def _title_key(s: str) -> str:
    return re.sub(r"[\W_]+", "", s.casefold())


def pointers(text: str, titles: dict[str, str]) -> list[tuple[str, str]] | None:
    """The items of a link-list passage (an index, a table of contents, "see also" links):
    ``(doc, item line)`` for every list item of ``text`` whose lead (the text before its
    " - " / ": " description, or the whole item) is the title of a KB document
    (``titles``: doc → title; a file-stem title matches written as words: ``post_mortem_process``
    ~ "Postmortem Process"), when at least two items do and they are at least
    :data:`POINTER_SHARE` of its list items; else ``None`` (a passage of its own content)."""
    keys: dict[str, str] = {}
    for doc, title in titles.items():
        for k in (_title_key(title), _title_key(doc.rsplit("/", 1)[-1].rsplit(".", 1)[0])):
            if k:
                keys.setdefault(k, doc)
    items = [_MD_LINK.sub(r"\1", _LIST_MARK.sub("", ln)).strip() for ln in text.splitlines() if _LIST_MARK.match(ln)]
    found = []
    for it in items:
        lead = _POINTER_SEP.split(it, maxsplit=1)[0]
        doc = keys.get(_title_key(lead))
        if doc:
            found.append((doc, it))
    if len(found) >= 2 and len(found) >= POINTER_SHARE * len(items):
        return found
    return None


def numbered_section(chunks) -> tuple[str, list] | None:
    """The section of one document (``chunks`` in source order) holding the most numbered
    list items (at least three): ``(section, its chunks)``, or ``None``."""
    count: dict[str, int] = {}
    for h in chunks:
        count[h.section or ""] = count.get(h.section or "", 0) + sum(1 for ln in h.text.splitlines() if _NUMBERED.match(ln))
    best = max(count.items(), key=lambda kv: kv[1], default=None)
    if not best or best[1] < 3:
        return None
    return best[0], [h for h in chunks if (h.section or "") == best[0]]


#: Words a document's title must have to be recognised where another passage names it.
TITLE_WORDS = 2


def titled_docs(text: str, titles: dict[str, str], own: str = "") -> list[str]:
    """The KB documents (``titles``: doc → title) other than ``own`` whose title, of at least
    :data:`TITLE_WORDS` words (a file-stem title ``during_an_incident`` read as words), ``text``
    names as a whole phrase (case-insensitive; a table cell's "See <title>." whose link the chunk
    lost), in the order ``text`` names them."""
    low = " ".join(text.casefold().split())
    found: dict[str, int] = {}
    for doc, title in titles.items():
        key = " ".join(re.sub(r"[_-]+", " ", title).casefold().split())  # a file-stem title as words
        if doc == own or len(key.split()) < TITLE_WORDS:
            continue
        m = re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", low)
        if m:
            found[doc] = m.start()
    return sorted(found, key=found.get)


def first_steps(chunks, least: int = 3) -> tuple[str, list[str], list] | None:
    """The first section of one document (``chunks`` in source order) holding at least ``least``
    numbered list items (its procedure's entry point, before the steps of particular cases or
    roles): ``(section, its numbered items as lines, its chunks)``, or ``None``."""
    order: list[str] = []
    by: dict[str, list] = {}
    for h in chunks:
        sec = h.section or ""
        if sec not in by:
            order.append(sec)
        by.setdefault(sec, []).append(h)
    for sec in order:
        lines = [ln for h in by[sec] for ln in unwrap_lines(h.text) if _NUMBERED.match(ln)]
        if len(lines) >= least:
            return sec, lines, by[sec]
    return None
