"""The reader: the fallback of every intent that asks for a relation.

When the graph holds no fact for the asked entities, the retrieved passages
are read sentence by sentence with the same cue reader ingest uses
(:mod:`threadgraph.knowledge.cues`). A sentence that names the asked entity
and states the asked relation — a substitution or stand-in for it, or that it
is optional — answers the question: it is quoted with its document and line,
and the answer is ``found``. What the reader finds is also a **candidate
edge** (``extractor="reader"``): :func:`log_candidates` appends it to
``candidates.jsonl`` in the data folder, ``threadgraph export-graph`` lists
them as pending rows for review, and an accepted row becomes a graph fact at
the next ingest.
"""

from __future__ import annotations

import json
import re
import logging
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from ..knowledge import cues
from ..knowledge.records import PAGE_LINES
from ..knowledge.text import DictLinker, is_cjk_char, name_key, sentence_spans

log = logging.getLogger(__name__)

#: Confidence of a candidate edge read at question time (below rule facts).
READER_CONFIDENCE = 0.6
#: The relation kinds of the cue reader each intent asks for.
INTENT_KINDS = {"substitute": ("substitute", "standin"), "stand_in": ("standin", "substitute"),
                "required": ("optional",)}


@dataclass(frozen=True, slots=True)
class Reading:
    """A sentence that answers: ``kind`` (cue kind), ``x`` the asked entity's
    name, ``y`` the stand-in (``""`` for ``optional``), ``sentence`` as
    written, ``doc``/``line``/``passage_id`` where it was read, ``rule`` the
    cue rule and ``context`` the recipe or document asked about (``""``)."""

    kind: str
    x: str
    y: str
    sentence: str
    doc: str
    line: int
    passage_id: str
    rule: str
    context: str = ""


def read_passages(intent: str, asked: list[str], passages, *, context: str = "", limit: int = 3,
                  lacked: list[str] = ()) -> list[Reading]:
    """Sentences of ``passages`` (objects with ``id``, ``doc``, ``text``,
    ``line``) that state the relation ``intent`` asks for about one of the
    ``asked`` names. X must be an asked name: named in the cue's X slot, in
    the phrase before its parenthesis, or — for a cue that leaves X to the
    context — in the sentence before the cue. ``lacked``: the asked names the
    question says the user lacks ("没有X能做吗？", "without X, …"): whatever the
    intent, a substitution or stand-in for one of them answers too. At most
    ``limit`` readings, in passage order, one per stand-in."""
    kinds = INTENT_KINDS.get(intent, ())
    lacked = [a for a in lacked if a]
    if lacked:
        kinds = tuple(dict.fromkeys(kinds + ("substitute", "standin")))
        lack_keys = {name_key(a) for a in lacked}
    if not kinds or not asked:
        return []
    anchors: DictLinker[str] = DictLinker()
    for a in asked:
        anchors.add(a, a)
    out: list[Reading] = []
    seen: set[str] = set()
    for p in passages:
        text = p.text or ""
        for s, e in sentence_spans(text):
            sent = text[s:e]
            if not anchors.scan(sent) or code_like(sent):
                continue
            line = (p.line or 0) + text.count("\n", 0, s)
            # list-item-only cues ("X or Y" offered in an ingredient line) read only in a list item
            # or table row, as at ingest: in running prose "X or Y" is a choice between two options
            for c in cues.read(sent, in_item=in_list_item(text, s)):
                if c.kind not in kinds:
                    continue
                x = _asked(c, sent, anchors)
                if not x:
                    continue
                if c.kind not in INTENT_KINDS.get(intent, ()) and name_key(x) not in lack_keys:
                    continue  # a stand-in read only for what the user lacks
                ys = [] if c.kind == "optional" else [_item_name(y) for y in cues.split_alternatives(c.y)]
                if c.kind != "optional" and not ys:
                    continue
                for y in ys or [""]:
                    if y and name_key(y) == name_key(x):
                        continue
                    key = f"{c.kind}|{name_key(y)}"
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append(Reading(c.kind, x, y, sent.strip(), p.doc, line, p.id, c.rule, context))
                    if len(out) >= limit:
                        return out
    return out


def _item_name(y: str) -> str:
    """A Chinese stand-in as a name: a space ends it, the rest of an ingredient line being its
    amount or preparation ("<名> <切法>" → "<名>"); other text unchanged."""
    head, sep, _rest = y.strip().partition(" ")
    return head if sep and head and all(is_cjk_char(ch) for ch in head) else y


#: A command line: a flag ("--name", "-A") or an assignment inside a token ("key=value").
_CODE = re.compile(r"(?:^|\s)--?[A-Za-z][\w-]*|\w=\S")
#: An address, whose query ("?a=b") is no assignment.
_URL = re.compile(r"https?://\S+")


#: The start of a list item ("- ", "* ", "+ ", "• ", "1. ", "2) ") or of a table row ("|").
_ITEM_START = re.compile(r"\s*(?:[-*+•]\s|\d{1,3}[.)]\s|\|)")


def in_list_item(text: str, at: int) -> bool:
    """Whether offset ``at`` of ``text`` lies on a line that is a list item or a table row
    (:data:`_ITEM_START` at the line's start). ``at`` must be within ``0..len(text)``."""
    return bool(_ITEM_START.match(text, text.rfind("\n", 0, at) + 1))


def code_like(sentence: str) -> bool:
    """``sentence`` reads as a command line, not prose (a command-line flag or a ``key=value``
    token; addresses left out): its slashes and "or"s name paths and options, never a stand-in."""
    return bool(_CODE.search(_URL.sub(" ", sentence)))


def _asked(c: cues.Cue, sent: str, anchors: DictLinker[str]) -> str:
    for text in (c.x, c.head):
        hits = anchors.scan(text) if text else []
        if hits:
            return hits[-1].values[0]
    if not c.x:
        hits = [h for h in anchors.scan(sent) if h.start <= c.start]
        if hits:
            return hits[-1].values[0]
        if c.kind == "optional":
            hits = anchors.scan(sent)
            if hits:
                return hits[0].values[0]
    return ""


_LOCK = threading.Lock()


def log_candidates(data_dir: Path | str, readings: list[Reading], *, thread: str = "") -> int:
    """Append ``readings`` as candidate edges (``extractor="reader"``,
    confidence :data:`READER_CONFIDENCE`) to ``<data_dir>/candidates.jsonl``,
    skipping ones already logged; returns how many were new. Never raises:
    a write error is logged and the answer goes on."""
    if not readings:
        return 0
    path = Path(data_dir) / "candidates.jsonl"
    try:
        with _LOCK:
            known = set()
            if path.exists():
                for line in path.read_text(encoding="utf-8").splitlines():
                    try:
                        known.add(json.loads(line).get("key"))
                    except ValueError:
                        continue
            new = 0
            with path.open("a", encoding="utf-8") as fh:
                for r in readings:
                    key = f"{r.kind}|{r.x}|{r.y}|{r.doc}|{r.line}"
                    if key in known:
                        continue
                    known.add(key)
                    row = {"key": key, **asdict(r), "extractor": "reader", "confidence": READER_CONFIDENCE,
                           "status": "pending", "logged": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                    new += 1
            return new
    except OSError as exc:
        log.warning("could not log reader candidates: %s", exc)
        return 0


def reader_text(lang: str, intent: str, readings: list[Reading], *, asks_need: bool = False) -> str:
    """The answer from what the reader found: the answer first, then the
    quoted sentence with where it stands (document, line). ``asks_need``: the
    question asks whether the item is needed ("is X required?"), so an
    optional item is answered "No"."""
    first = readings[0]
    where = Path(first.doc).stem if first.doc else ""
    quote = first.sentence if len(first.sentence) <= 240 else first.sentence[:239] + "…"
    ys = list(dict.fromkeys(r.y for r in readings if r.y))
    if first.kind == "optional":
        head = (f"{first.x}可以不放：文档里写明它是可选的。" if lang == "zh"
                else f"{'No' if asks_need else 'Yes'}, {first.x} is optional: the documents say so.")
    elif intent == "stand_in" or first.kind == "standin":
        who = "、".join(ys) if lang == "zh" else " or ".join(ys)
        head = (f"{who}可以顶替{first.x}。" if lang == "zh" else f"{who} can stand in for {first.x}.")
    else:
        what = "、".join(ys) if lang == "zh" else " or ".join(ys)
        head = (f"可以用{what}代替{first.x}。" if lang == "zh" else f"You can use {what} instead of {first.x}.")
    if first.doc.lower().endswith(".pdf") and first.line >= PAGE_LINES:  # the line holds a page
        at = (f"第 {first.line // PAGE_LINES} 页" if lang == "zh" else f"p. {first.line // PAGE_LINES}")
    else:
        at = f"第 {first.line} 行" if lang == "zh" else f"line {first.line}"
    src = (f"（{where} {at}：“{quote}”）" if lang == "zh" else f' ({where}, {at}: "{quote}")')
    return head + src


@dataclass(frozen=True, slots=True)
class ItemLine:
    """A line of a document that names an asked item and says something about
    using it (an alternative, a condition, that it may be left out): ``name``
    the asked name it holds, ``text`` the line as written (list markers
    stripped), ``doc``/``line``/``passage_id`` where it stands."""

    name: str
    text: str
    doc: str
    line: int
    passage_id: str


def _name_re(name: str) -> re.Pattern:
    """``name`` as it may be written in a line: CJK as a substring, Latin as a whole word
    (case-insensitive, a plural ending allowed)."""
    if not name.isascii():
        return re.compile(re.escape(name))
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?:e?s)?(?![\w-])", re.I)


def read_item_lines(asked: list[str], hits, cue: re.Pattern, *, candidates: list[str] = (), limit: int = 2,
                    any_line: bool = False) -> list[ItemLine]:
    """Lines of ``hits`` (chunks with ``id``, ``doc``, ``text``, ``line``; in source order)
    that name one of the ``asked`` names and either match ``cue`` (an alternative, a
    condition, "optional": the ``item_line_cues`` of ``bot/lexicon/words.yaml``) or name a
    second one of the ``asked`` names or ``candidates`` (the stand-in the user proposes or
    has) apart from the first ("vanilla (1 package of vanilla sugar)"). ``any_line``: every
    line naming an asked name counts, those matching ``cue`` first. At most ``limit``
    lines, in order; each line once."""
    names = [n for n in dict.fromkeys(a.strip() for a in asked) if len(n) >= 2]
    cands = [n for n in dict.fromkeys(x.strip() for x in candidates) if len(n) >= 2 and n not in names]
    if not names:
        return []
    rxs = [(n, _name_re(n)) for n in sorted(names + cands, key=len, reverse=True)]
    out: list[tuple[bool, int, ItemLine]] = []
    seen: set[str] = set()
    for h in hits:
        for i, raw in enumerate((h.text or "").splitlines()):
            text = raw.strip().lstrip("-*•> ").strip()
            if not text or text in seen:
                continue
            spans: list[tuple[int, int, str]] = []
            for n, rx in rxs:  # longest names first; a shorter one inside a longer one is not another name
                for m in rx.finditer(text):
                    if not any(m.start() < e and s < m.end() for s, e, _ in spans):
                        spans.append((m.start(), m.end(), n))
            asked_here = [n for _, _, n in sorted(spans) if n in names]
            if not asked_here:
                continue
            said = bool(cue.search(text)) or len({n for _, _, n in spans}) >= 2
            if not (said or any_line):
                continue
            seen.add(text)
            out.append((not said, len(out), ItemLine(asked_here[0], text, h.doc, (h.line or 0) + i, h.id)))
            if len(out) >= limit and not any_line:
                break
        else:
            continue
        break
    return [x for _, _, x in sorted(out)[:limit]]


def item_line_text(lang: str, ctx: str, lines: list[ItemLine]) -> str:
    """The answer from :func:`read_item_lines`: what the document says about the asked item,
    each line quoted with where it stands (document, line)."""
    first = lines[0]
    where = Path(first.doc).stem if first.doc else ""
    quotes = []
    for x in lines:
        q = x.text if len(x.text) <= 240 else x.text[:239] + "…"
        quotes.append(f"“{q}”（{where} 第 {x.line} 行）" if lang == "zh" else f'"{q}" ({where}, line {x.line})')
    if lang == "zh":
        head = f"{ctx}里关于{first.name}的原文：" if ctx else f"文档里关于{first.name}的原文："
        return head + "\n".join(quotes)
    head = f"What {ctx} says about {first.name}: " if ctx else f"What the documents say about {first.name}: "
    return head + "\n".join(quotes)


#: Content words (or CJK bigrams) a line marked optional must share with the question.
OPTIONAL_OVERLAP = 2


def optional_line(question: str, hits, line_cue: re.Pattern, *, first: str = "") -> ItemLine | None:
    """The line of ``hits`` (chunks with ``id``, ``doc``, ``section``, ``text``, ``line``) or
    the last heading of a chunk's section that ``line_cue`` marks optional ("2. **Clear browser
    cookies** (optional).", "Preview your changes (optional)") and that shares the most (at
    least :data:`OPTIONAL_OVERLAP`) content words or Chinese bigrams with ``question`` (the
    words of ``first``, a follow-up's own question within it, count first); ``None`` when
    there is none."""
    from ..knowledge import text as T
    from .evidence import has_word

    words = T.content_words(question)
    grams = T.cjk_bigrams(question)
    own_words, own_grams = T.content_words(first), T.cjk_bigrams(first)
    best, score = None, (-1, OPTIONAL_OVERLAP - 1)
    for h in hits:
        head = (h.section or "").split(" > ")[-1].strip()
        rows = [(head, h.line or 0)] + [(raw, (h.line or 0) + i) for i, raw in enumerate((h.text or "").splitlines())]
        for raw, line in rows:
            text = raw.strip().lstrip("-*•>#").strip()
            if not text or not line_cue.search(text):
                continue
            got = sum(1 for w in words if has_word(w, text)) + sum(1 for g in grams if g in text)
            own = sum(1 for w in own_words if has_word(w, text)) + sum(1 for g in own_grams if g in text)
            if got >= OPTIONAL_OVERLAP and (own, got) > score:
                best, score = ItemLine("", text, h.doc, line, h.id), (own, got)
    return best


def optional_text(lang: str, found: ItemLine) -> str:
    """The answer from :func:`optional_line`: it is optional, with the line quoted and where it stands."""
    where = Path(found.doc).stem if found.doc else ""
    q = found.text if len(found.text) <= 240 else found.text[:239] + "…"
    if lang == "zh":
        return f"不是必须的，文档里写明是可选的：“{q}”（{where} 第 {found.line} 行）"
    return f'No, it is optional: "{q}" ({where}, line {found.line})'


@dataclass(frozen=True, slots=True)
class Parts:
    """What a document lists under an asked name (a sub-recipe such as a sauce inside a recipe):
    ``name`` the asked name as given, ``items`` the listed lines as written (list markers
    stripped), ``doc``/``line`` where the list's head stands (the heading's chunk or the parent
    item's line), ``passage_id`` its chunk."""

    name: str
    items: tuple[str, ...]
    doc: str
    line: int
    passage_id: str


#: Lines a list needs to be read as what an asked name is made of.
MIN_PARTS = 2


def _indent(raw: str) -> int:
    return len(raw) - len(raw.lstrip(" \t\u3000"))


#: A bulleted list item (numbered lines are steps, table rows are no list of parts).
_BULLET = re.compile(r"\s*[-*+•]\s")


def _item_text(raw: str) -> str:
    return _BULLET.sub("", raw, count=1).strip()


def read_parts(asked: list[str], hits, *, min_parts: int = MIN_PARTS) -> Parts | None:
    """The list a document gives under one of the ``asked`` names, read from the structure of
    ``hits`` (chunks with ``id``, ``doc``, ``section``, ``text``, ``line``; best first): a list
    item naming it with deeper-indented list items below (its sub-items), or a chunk whose last
    heading names it (its list items). At least ``min_parts`` items; the first hit that has such
    a list wins; ``None`` when none has."""
    names = [n for n in dict.fromkeys(a.strip() for a in asked if a) if len(n) >= 2]
    if not names:
        return None
    rxs = [(n, _name_re(n)) for n in sorted(names, key=len, reverse=True)]

    def named(text: str) -> str:
        return next((n for n, rx in rxs if rx.search(text)), "")

    for h in hits:
        rows = (h.text or "").splitlines()
        for i, raw in enumerate(rows):  # a list item with sub-items
            if not _BULLET.match(raw):
                continue
            n = named(_item_text(raw))
            if not n:
                continue
            depth, kids = _indent(raw), []
            for nxt in rows[i + 1:]:
                if not nxt.strip():
                    continue
                if not _BULLET.match(nxt) or _indent(nxt) <= depth:
                    break
                kids.append(_item_text(nxt))
            if len(kids) >= min_parts:
                return Parts(n, tuple(kids), h.doc, (h.line or 0) + i, h.id)
        head = (h.section or "").split(" > ")[-1]
        n = named(head) if head else ""
        if n:
            items = tuple(_item_text(r) for r in rows if _BULLET.match(r) and _item_text(r))
            if len(items) >= min_parts:
                return Parts(n, items, h.doc, h.line or 0, h.id)
    return None


def parts_text(lang: str, parts: Parts) -> str:
    """The answer from :func:`read_parts`: the listed items, with where the list stands."""
    where = Path(parts.doc).stem if parts.doc else ""
    lines = "\n".join(f"- {x}" for x in parts.items)
    if lang == "zh":
        return f"{parts.name}的原文列出（{where} 第 {parts.line} 行起）：\n{lines}"
    return f"{where} lists under {parts.name} (line {parts.line} on):\n{lines}"


#: Characters of the question an echo is taken from at most (the end of the clause before the wh-word).
MAX_ECHO = 8


def _content(text: str, echo: dict, names: list[str] = ()) -> int:
    """Characters of ``text`` outside the echo's generic words and ``names`` (the asked items:
    an echo must say something besides what is asked about)."""
    for g in sorted(names, key=len, reverse=True):
        text = text.replace(g, "")
    for g in echo["generic"]:
        text = text.replace(g, "")
    return len(text)


def question_echo(question: str, echo: dict) -> str:
    """The words of ``question`` right before its first wh-word, within the clause (cut at a
    ``boundary``, at most :data:`MAX_ECHO` characters), when at least ``min_content`` of their
    characters lie outside the ``generic`` words; ``""`` otherwise. ``echo`` is
    :func:`threadgraph.bot.words.question_echo` data."""
    m = echo["wh"].search(question)
    if not m:
        return ""
    before = question[:m.start()]
    cuts = list(echo["boundary"].finditer(before))
    lead = (before[cuts[-1].end():] if cuts else before)[-MAX_ECHO:]
    return lead if len(lead) >= 2 and _content(lead, echo) >= echo["min_content"] else ""


def echo_line(question: str, asked: list[str], hits, echo: dict | None) -> ItemLine | None:
    """The first line of ``hits`` (chunks with ``id``, ``doc``, ``text``, ``line``; best first) that
    writes the question's echo (:func:`question_echo`, or an end of it still holding
    ``min_content`` characters of its own) followed by a word (the wh-slot's filler)
    and names one of the ``asked`` names: it answers what the wh-word asks. ``None`` when the
    language has no echo data, the question no echo, or no line has it."""
    if not echo:
        return None
    lead = question_echo(question, echo)
    names = [n for n in dict.fromkeys(a.strip() for a in asked if a) if len(n) >= 2]
    if not lead or not names:
        return None
    rxs = [(n, _name_re(n)) for n in names]
    # the echo's end as a line may word it: its longest end that still says something of its own
    ends = [lead[k:] for k in range(len(lead) - 1) if _content(lead[k:], echo, names) >= echo["min_content"]]

    def fills(text: str, end: str) -> bool:
        at = text.find(end)
        return at >= 0 and at + len(end) < len(text) and text[at + len(end)].isalnum()

    for h in hits:
        for i, raw in enumerate((h.text or "").splitlines()):
            text = raw.strip().lstrip("-*•>#").strip()
            if not any(fills(text, e) for e in ends):
                continue
            n = next((n for n, rx in rxs if rx.search(text)), "")
            if n:
                return ItemLine(n, text, h.doc, (h.line or 0) + i, h.id)
    return None
