"""Relations read sentence by sentence, in every section of a document.

The cue reader (:mod:`..knowledge.cues`) finds the constructions of a
language that state a substitution, a stand-in/fallback or an optional item;
this module applies it to every sentence of every block and **anchors** each
cue: X must be something the document itself names — an ingredient or tool
of the recipe, a role of the corpus, or (for stand-ins and fallbacks in
procedure documents) a named system, tool or group the sentence is about.
Y is cut from its slot; the extractors decide its entity and type.

No section name is whitelisted: notes, tips, variations, FAQ, steps and
lists are all read.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..knowledge import cues
from ..knowledge.text import DictLinker, has_cjk, sentence_spans, simplified
from .cues import alternation, words
from .document import Block
from .items import ends_in_tool_word, is_tool, share_form_sides, tool_phrases
from .normalize import clean_name
from .step_names import name_before

READ_KINDS = ("paragraph", "item", "row")
_PAIR_RULES = frozenset(words("alternatives", "pair_cue_rules"))
_NOTE_PAIR_RULES = frozenset(words("alternatives", "note_pair_rules"))
"""Rules reading a note that lists kinds ("肉（羊肉/牛肉/鸡肉）"): X must be a whole name the document knows."""
"""Rules joining two things of one kind ("into a blender or food processor"): X may be new, the
extractor checks the pair."""


@dataclass(slots=True)
class Found:
    """One anchored relation read from a sentence.

    ``kind``: ``substitute`` | ``standin`` | ``optional``; ``x`` the anchored
    name (canonical when it came from the anchors, else the phrase as
    written); ``anchored`` whether X is one of the document's own names;
    ``ys`` the stand-in alternatives (each a phrase as written; a compound
    "A and B" stays one); ``cond``/``ratio`` as stated; ``block`` and ``line``
    (1-based) where it was read; ``confidence`` of the rule; ``rule`` the cue
    rule id; ``phrase`` the X phrase as the cue read it (``""`` when X was left to the context)."""

    kind: str
    x: str
    anchored: bool
    ys: list[str]
    cond: str
    ratio: str
    block: Block
    line: int
    confidence: float
    rule: str
    phrase: str = ""


def _last(anchors: DictLinker[str], text: str) -> str:
    hits = anchors.scan(text) if text else []
    return hits[-1].values[0] if hits else ""


def _nearest(anchors: DictLinker[str], sent: str, pos: int, end: int | None = None) -> str:
    """The anchored name closest to ``pos`` in ``sent`` (preceding names first); ``""`` when there is none.

    With ``end`` (where the optional marker at ``pos`` ends), a name after the marker counts only when
    the words between lead to it (``cues.optional_lead``: "可选：X", "可选：撒上 X"): a marker
    that opens an action ("可选：去掉 X 的外皮") makes the step optional, not the thing it handles."""
    hits = anchors.scan(sent)
    if not hits:
        return ""
    before = [h for h in hits if h.end <= pos + 1]
    if before:
        return before[-1].values[0]
    if end is not None and not cues.optional_lead(sent[end:hits[0].start], zh=True):
        return ""
    return hits[0].values[0]


def read_document(blocks: list[Block], anchors: DictLinker[str], *, focus: Callable[[int, Block], str] | None = None,
                  skip: set[int] | None = None, unanchored: bool = False,
                  explicit: Callable[[str], bool] | None = None, lists: set[int] | None = None,
                  kinds: tuple[str, ...] = cues.KINDS, heads: DictLinker[str] | None = None,
                  partial: bool = False) -> list[Found]:
    """Every anchored relation of ``blocks`` (a parsed document's blocks).

    ``anchors`` maps the document's own names (any surface) to canonical
    names. ``focus(i, block)`` names the thing a block is about (a list
    item's ingredient), used when a cue leaves X to the context ("Use dry
    sherry instead."); the thing named last in the previous sentences of the
    same block is the next fallback. ``skip`` holds block indices already
    read by a stricter grammar. With ``unanchored`` (procedure documents) a
    stand-in whose X names nothing known keeps X as written when it reads as
    a name. ``explicit(x)`` accepts an X that a whole construction states
    explicitly ("用 Y 代替 X", "X can be replaced with Y", "可加入 X") although
    the anchors do not hold it — the document names it right there; the
    extractor says what a valid name of its kind is. With ``unanchored`` a
    substitution whose construction names both sides ("use Y instead of X",
    confidence ≥ 0.85, not a list-item-only rule) keeps X as written too. ``lists`` holds the
    indices of the blocks that are entries of a list of things (ingredients,
    equipment), where "X or Y" offers alternatives; by default every list
    item. Only cues of ``kinds`` are returned. ``heads`` holds further names a
    parenthesised note "(or Y)" may be about when it follows one (the tools a
    recipe's steps name: "into a round tube pan (or 2 loaf pans)"). With
    ``partial`` an English X the sentence names by part of a name of the
    document ("the HEAD" for its "MODIFIER HEAD") is anchored to that name
    when exactly one fits (:func:`partial_anchor`)."""
    out: list[Found] = []
    skip = skip or set()
    for i, b in enumerate(blocks):
        if i in skip or b.kind not in READ_KINDS or not b.text.strip():
            continue
        item = (i in lists) if lists is not None else b.kind == "item"
        own = focus(i, b) if focus else ""
        flat = unwrap(b.text)
        spans = sentence_spans(flat)
        for k, (s, e) in enumerate(spans):
            sent = flat[s:e]
            line = b.line + b.text.count("\n", 0, s)
            found = [c for c in cues.read(sent, in_item=item) if c.kind in kinds]
            if not found:
                continue
            # the thing named last before this sentence in the block (read only when needed)
            # in a list item (one ingredient and its notes) an X left to the context is the thing named last
            # before; in running prose a thing named sentences earlier is another topic ("…做菜脯炒粿条…！
            # …你也可以用陈村粉来代替": not 菜脯), so only the sentence just before counts
            earlier = reversed(earlier_spans(spans, k, item, b.kind))
            prev = next((x for x in (_last(anchors, b.text[a:z]) for a, z in earlier) if x), "") or own
            for c in found:
                f = _anchor(c, sent, anchors, own, prev, unanchored, explicit, heads, flat, partial)
                if (c.focus and not c.x and heads is not None and has_cjk(sent) and not (f and is_tool(f[0]))
                        and _tool_y(c.y) and not _USE_AS.search(simplified(sent[max(0, c.start):]))):
                    # "用鑄鐵鍋的好處是…。如沒有，可改用平底鑊": a tool stands in for the tool named in that
                    # sentence or the one just before, not for the ingredient the step is about
                    before = spans[max(0, k - 1):k] + [(s, s + max(0, c.start))]
                    tool = next((t for t in (_last(heads, flat[a:z]) for a, z in reversed(before)) if t), "")
                    if tool:
                        f = (tool, True)
                if f is None:
                    continue
                x, anchored = f
                ys = [] if c.kind == "optional" else share_form_sides(cues.split_alternatives(c.y))
                if (ys and c.focus and c.rule in _HEAD_FILL and not own and not has_cjk(sent)
                        and x == same_head_anchor(anchors, ys, flat)):
                    ys = share_last_head(ys)  # "red or yellow onions": red onions
                if c.kind != "optional" and not ys:
                    continue
                out.append(Found(c.kind, x, anchored, ys, c.cond, c.ratio, b, line, c.confidence, c.rule, c.x))
    return out


def earlier_spans(spans: list[tuple[int, int]], k: int, item: bool, kind: str) -> list[tuple[int, int]]:
    """The sentences before sentence ``k`` of a block that an X left to the
    context may name: all of them in a list item, only the one just before in
    running prose."""
    return spans[:k] if item or kind != "paragraph" else spans[max(0, k - 1):k]


def _tool_y(y: str) -> bool:
    """True when the first stand-in of ``y`` is kitchen equipment (every part
    of "A及B"), the phrase ending in its tool word."""
    ys = cues.split_alternatives(y)
    parts = [p for p in _BOTH.split(ys[0]) if p.strip()] if ys else []
    # "可改用平底鑊及焗盤": each part ends in a tool word; "可以用筷子确认" goes on with a step
    return bool(parts) and all(_ends_in_tool(p.strip()) and is_tool(clean_name(p, "ingredient")) for p in parts)


def _ends_in_tool(part: str) -> bool:
    # "炒锅闷": a tool and one verb character after it (the way it is used) still names the tool
    lead = tool_phrases(part)
    return ends_in_tool_word(part) or bool(lead) and part.startswith(lead[0][0]) and len(part) - len(lead[0][0]) <= 1


_BOTH = re.compile(words("alternatives", "both")[0])
_USE_AS = re.compile(alternation("alternatives", "use_as_zh"))

#: Clause separators: a parenthesised note is about the last clause before it.
_HEAD_CLAUSE = re.compile(r"[，,；;。]")

# a soft line break: a long line (a wrapped paragraph) that stops mid-sentence — after a letter,
# digit, comma or closing bracket — and a next line that goes on with a Latin letter or a link
_SOFT_BREAK = re.compile(r"(?<=[^\n]{40})(?<=[A-Za-z0-9,)`*_])\n(?=[ \t]*+[A-Za-z\[(`*_])")


def unwrap(text: str) -> str:
    """``text`` with the soft line breaks of a wrapped English paragraph made spaces (same
    length, so offsets and line numbers stay): "used during a database\\noutage" is one sentence."""
    return _SOFT_BREAK.sub(" ", text) if "\n" in text else text


def prose_sentences(blocks: list, raw, link: re.Pattern):
    """Yield ``(block, src, text, start, end)`` for each sentence of the paragraphs and list items among
    ``blocks``: ``src`` is the block's source as written (``raw(block)``) with every ``link`` match's first
    group marked ``⟦…⟧``, ``text`` is ``src`` unwrapped (same length), and ``text[start:end]`` is the
    sentence; its line is ``block.line + src.count("\\n", 0, start)``."""
    for b in blocks:
        if b.kind not in ("paragraph", "item"):
            continue
        src = link.sub(lambda m: f"⟦{m.group(1)}⟧", raw(b))
        text = unwrap(src)
        for a, z in sentence_spans(text):
            yield b, src, text, a, z


@functools.lru_cache(maxsize=1)
def _and_zh() -> re.Pattern:
    return re.compile(alternation("alternatives", "optional_and_zh"))


def optional_parts(x: str) -> list[str]:
    """The things a phrase of optional additions names: its alternatives, and
    in Chinese the parts of "X和Y" ("还可加耗油和老抽": each is optional)."""
    parts = cues.split_alternatives(x)
    if has_cjk(x):
        parts = [q.strip() for p in parts for q in _and_zh().split(p) if q.strip()]
    return parts


_QTY_HEAD = re.compile(rf"(?:{alternation('steps', 'step_quantity')})|[\d一二两三四五六七八九十几半各每]")
"""A count or measure opening a phrase ("一些 X"): what follows it is the name."""

_SUBJECT_END = re.compile(r"(?:也|都|则|就)?(?:是|为)\s*$")
"""What may stand between a subject and the optional marker about it ("X 是可选的", "X 也是可选的")."""

_NEAR = 8
"""At most this many characters between a thing and a cue that leaves X to it."""


def _adjacent(gap: str) -> bool:
    """True when ``gap`` (the text between an optional marker and a name) is
    at most three words inside one clause."""
    return not re.search(r"[,;.!?:()]", gap) and len(gap.split()) <= 3


_HEAD_FILL = frozenset(words("alternatives", "head_fill_rules"))


def _word_key(w: str) -> str:
    w = w.casefold().strip(",.;:*'’\"")
    return w[:-2] if w.endswith("es") and len(w) > 4 else w[:-1] if w.endswith("s") and len(w) > 3 else w


_DETERMINER = re.compile(rf"^(?:(?:{'|'.join(map(re.escape, words('alternatives', 'partial_name_lead_en')))})\s+)+", re.I)


def _same_word(a: str, b: str) -> bool:
    """One English word in the singular or the plural ("word"/"words", "box"/"boxes")."""
    def forms(w: str) -> set[str]:
        w = w.casefold().strip(",.;:*'’\"")
        return {w, w[:-1], w[:-2]} if w.endswith("es") else {w, w[:-1]} if w.endswith("s") else {w}
    return bool(forms(a) & forms(b))


def partial_anchor(anchors: DictLinker[str], x: str) -> str:
    """The document's own thing an English X names by part of its name: the
    one anchor (canonical name) that ends in X's last word and holds every
    other word of X ("the HEAD" → "MODIFIER HEAD", "A HEADs" → "MODIFIER A
    HEAD"; plural or not), when X (determiners dropped) is at most three
    words; ``""`` when none or several do, for a Chinese X, or when X names an
    anchor whole (then :func:`_last` finds it)."""
    x = _DETERMINER.sub("", x.strip())
    xw = x.split()
    if not xw or len(xw) > 3 or has_cjk(x) or not re.fullmatch(r"[A-Za-z][\w'’ -]*", x):
        return ""
    found = set()
    for k in anchors.keys():
        kw = k.split()
        if (len(kw) > len(xw) and _same_word(kw[-1], xw[-1])
                and all(any(_same_word(a, b) for b in kw[:-1]) for a in xw[:-1])):
            found.update(anchors.get(k))
    return next(iter(found)) if len(found) == 1 else ""


def same_head(x: str, ys: list[str]) -> bool:
    """True when one English stand-in of ``ys`` ends in the last word of ``x``
    (plural or not: "A HEADs" for "HEAD") and is not ``x`` itself;
    ``False`` for Chinese names or an empty ``x``."""
    xw = [_word_key(w) for w in x.split()]
    if not xw or has_cjk(x):
        return False
    for y in ys:
        yw = [_word_key(w) for w in y.split()]
        if yw and not has_cjk(y) and yw[-1] == xw[-1] and yw != xw:
            return True
    return False


def same_head_anchor(anchors: DictLinker[str], ys: list[str], block_text: str) -> str:
    """The document's own thing a stand-in of ``ys`` (English phrases) is
    about when the text leaves X to the context: the anchor (canonical name)
    whose last word is the last word of a stand-in ("white onion" for "red
    onions", plural or not); among several, those sharing the longest word
    ending with it ("unsalted peanut butter" over "butter" for "salted peanut
    butter"), then those ``block_text`` names; ``""`` unless
    exactly one is left, or when the stand-in is that thing itself; a
    stand-in of more than four words is a clause and matches nothing."""
    best: dict[str, int] = {}
    for y in ys:
        yw = [_word_key(w) for w in y.split()]
        if not yw or len(yw) > 4:
            continue  # a clause ("gently press a lime wedge before adding the ice"), not a name
        for k in anchors.keys():
            kw = [_word_key(w) for w in k.split()]
            n = 0
            while n < min(len(kw), len(yw)) and kw[-1 - n] == yw[-1 - n]:
                n += 1
            if n == 0:
                continue
            if n == len(kw) == len(yw):
                return ""  # the stand-in is one of the document's own things: no other thing to replace
            for v in anchors.get(k):
                best[v] = max(best.get(v, 0), n)
    if not best:
        return ""
    top = max(best.values())
    cands = sorted(v for v, n in best.items() if n == top)
    if len(cands) > 1:
        hits = {h.values[0] for h in anchors.scan(block_text)}
        cands = [v for v in cands if v in hits]
    return cands[0] if len(cands) == 1 else ""


def share_last_head(ys: list[str]) -> list[str]:
    """English stand-ins of one "A or B HEAD" phrase, each one-word side
    given the last side's last word ("red", "yellow onions" → "red onions",
    "yellow onions"); unchanged when the last
    side is one word."""
    last = ys[-1].split()
    if len(last) < 2:
        return list(ys)
    return [f"{y} {last[-1]}" if len(y.split()) == 1 else y for y in ys[:-1]] + [ys[-1]]


def _anchor(c: cues.Cue, sent: str, anchors: DictLinker[str], own: str, prev: str,
            unanchored: bool, explicit: Callable[[str], bool] | None,
            heads: DictLinker[str] | None = None, block_text: str = "", partial: bool = False) -> tuple[str, bool] | None:
    """``(x, anchored)`` for cue ``c`` or ``None`` when X cannot be anchored."""
    if c.rule in _NOTE_PAIR_RULES:
        # a note listing kinds ("肉（羊肉/牛肉/鸡肉）"): X a whole name the document knows, or a kind of the
        # thing the note follows (its name ends X); a note of steps ("（切块/切片）") is neither
        x = c.x.strip()
        hits = anchors.scan(x)
        if hits and hits[-1].start == 0 and hits[-1].end == len(x):
            return hits[-1].values[0], True
        base = own or _last(anchors, c.head)
        if base and has_cjk(base) and len(x) > len(base) and x.endswith(base):
            return x, False
        return None
    if c.x and explicit is not None and c.rule in _PAIR_RULES:
        # two things side by side ("倒入香菇水或清水"): X is the whole phrase — anchored only when a
        # name of the document spans all of it, never a name inside it (香菇 of 香菇水)
        hits = anchors.scan(c.x.strip())
        if hits and hits[-1].start == 0 and hits[-1].end == len(c.x.strip()):
            return hits[-1].values[0], True
        return c.x, False
    if c.kind == "optional" and c.x:
        if explicit is not None and len(optional_parts(c.x)) > 1:
            return c.x, False  # "还可加入豆干丁、黄瓜丁": each part, not only the last one known
        hit = _last(anchors, c.x) or (partial_anchor(anchors, c.x) if partial else "")
        if hit:
            whole = c.x.strip()
            h = anchors.scan(whole)[-1]
            if (explicit is not None and has_cjk(whole) and h.end == len(whole) and 0 < h.start <= 2
                    and not _QTY_HEAD.match(whole) and explicit(whole)):
                return whole, False  # "如果有 <modifier><name>": the whole name, not the listed <name> it ends with
            return hit, True
        return (c.x, False) if explicit is not None and c.confidence >= 0.75 and explicit(c.x) else None
    if c.kind == "optional":
        if c.head and not own and not has_cjk(c.head):
            hits = anchors.scan(c.head)
            if hits and re.match(r"\s*(?:,|&|and\b)\s*[^\W\d_]", c.head[hits[-1].end:]):
                # "sift together the flour, salt and sugar (if using)": the marker is about the last thing
                # ("sugar", which the list names otherwise), never the one named before it
                return None
        if c.head and has_cjk(sent) and explicit is not None:
            # "（X 是可选的）": a note with its own subject before the marker is about that subject
            opened = max(sent.rfind("（", 0, max(0, c.start)), sent.rfind("(", 0, max(0, c.start)))
            note = sent[opened + 1:max(0, c.start)] if opened >= 0 else ""
            inner = _SUBJECT_END.sub("", note) if _SUBJECT_END.search(note) else ""  # "X 是可选的", not "没有也可以不放"
            if inner:
                hits = anchors.scan(inner)
                if hits and hits[-1].end == len(inner):
                    return hits[-1].values[0], True
                named = name_before(inner)
                if named and explicit(named):
                    return named, False
        if c.head:
            hit = _last(anchors, c.head)
            if hit:
                return hit, True
            if not own or own.casefold() not in _HEAD_CLAUSE.split(c.head)[-1].casefold():
                # "…，5g Y（可选）" in a step about X: the note is about Y, which the list lacks — the name right
                # before the note ("…用 A 配 B（可选）" → B) when the corpus knows it as a thing
                named = name_before(c.head) if has_cjk(c.head) and explicit is not None else ""
                return (named, False) if named and explicit(named) else None
        if own:
            return own, True
        # the thing right beside the marker ("kasoori methi crushed if using", "Optional – If using
        # onion"), not one further off in the sentence ("Add the paneer cubes, and … if using")
        if has_cjk(sent):
            hit = _nearest(anchors, sent, c.start, c.end)
            if hit:
                return hit, True
            # "X 是可选的": the subject right before the marker, a thing the corpus knows
            before = sent[:max(0, c.start)]
            subject = _SUBJECT_END.sub("", before) if _SUBJECT_END.search(before) else ""
            named = name_before(subject) if explicit is not None and subject and subject[-1:] not in "，,；;" else ""
            return (named, False) if named and explicit(named) else None
        hits = anchors.scan(sent)
        before = [h for h in hits if h.end <= c.start + 1 and _adjacent(sent[h.end:c.start])]
        after = [h for h in hits if h.start >= c.end - 1 and _adjacent(sent[c.end:h.start])
                 and cues.optional_lead(sent[c.end:h.start])]
        h = before[-1] if before else (after[0] if after else None)
        if h is None or cues.amount_scoped(sent[max(0, h.start - 30):h.start]):
            return None  # "Optional: toss in extra sugar": the extra amount, not the sugar
        return h.values[0], True
    hit = _last(anchors, c.x) or (partial_anchor(anchors, c.x) if partial else "")
    if hit:
        return hit, True
    if c.head:
        # a note "(or Y)" is about the phrase it follows: a name at the end of it ("…buttered spring
        # form pan (or use parchment paper)" is about the pan, not the coconut sprinkled on it)
        hits = anchors.scan(c.head)
        if hits and len(c.head[hits[-1].end:].split()) <= 2:
            return hits[-1].values[0], True
        hits = heads.scan(c.head) if heads is not None else []
        if hits and len(c.head[hits[-1].end:].split()) <= 2:
            return hits[-1].values[0], True
        obj = _verb_object(c.head) if (c.kind == "substitute" and not own and not c.x and explicit is not None
                                       and has_cjk(c.head)) else ""
        if obj and explicit(obj):
            return obj, True  # "热锅放油（有猪油更好）": the object of the step's adding verb, a thing of the corpus
        if not own and not c.x:
            return None
    if c.x and c.head and not c.focus and explicit is not None and c.confidence >= 0.9 and explicit(c.x):
        # a note that names its X outright ("（无肥肉可用黄油代替）" after "猪/牛后腿肉"): that X, not the item
        return c.x, False
    if own and (c.focus or c.head or c.item_only or not c.x):
        return own, True
    if c.focus:  # "放入冰糖一二十克，或者等量红糖": the thing named just before, in the same sentence, close by
        before = sent[:max(0, c.start)]
        hits = anchors.scan(before) if before else []
        if hits and len(before) - hits[-1].end <= _NEAR:
            return hits[-1].values[0], True
    if c.focus and c.kind == "substitute" and c.rule in _HEAD_FILL and not own and not has_cjk(sent):
        same = same_head_anchor(anchors, cues.split_alternatives(c.y), block_text or sent)
        if same:
            return same, True  # "You can use red or yellow onions here": the white onion it lists
    if c.focus and prev:
        return prev, True
    if c.x and explicit is not None and c.rule in _PAIR_RULES:
        return c.x, False  # "into a blender or food processor": the extractor checks the pair
    if c.x and explicit is not None and c.confidence >= 0.85 and not c.focus and explicit(c.x):
        return c.x, False
    if unanchored and c.kind == "standin":
        x = c.x or c.head
        if x and looks_like_name(x):
            return x, False
    if unanchored and c.kind == "substitute" and c.x and not c.focus and not c.item_only and c.confidence >= 0.85:
        # a whole construction that names both sides ("use Y instead of X", "an alternative to X is Y")
        return (c.x, False) if looks_like_name(c.x) else None
    return None


_VERB_START = re.compile(r"^(?:is|are|was|were|be|been|has|have|had|do|does|did|can|will|would|should|must|may|might|"
                         r"get|gets|make|makes|go|goes|take|takes|use|uses|need|needs|try|see|check|run|find)\b", re.I)


@functools.lru_cache(maxsize=1)
def _add_verb_object() -> re.Pattern:
    return re.compile(f"(?:{alternation('steps', 'add_verbs')})" + r"(?P<o>[^，,。；;：:！!？?、\s()（）]{1,6})$")


def _verb_object(head: str) -> str:
    """The object of the adding verb that ends a Chinese step phrase ("热锅放油" → "油", "锅中倒入清水" →
    "清水"); ``""`` when the phrase does not end in one (at most six characters after the verb)."""
    m = _add_verb_object().search(head.strip())
    return m.group("o") if m else ""


def looks_like_name(phrase: str) -> bool:
    """True for a short phrase that can name a thing: 1–6 words (or 1–12 CJK
    characters), not starting with a verb or a pronoun, with a letter."""
    p = phrase.strip()
    if not p or not re.search(r"[^\W\d_]", p):
        return False
    if has_cjk(p):
        return 1 <= len(p) <= 12
    words = p.split()
    return 1 <= len(words) <= 6 and not _VERB_START.match(p) and (_caps(words[0]) or words[0].casefold() not in (
        "i", "you", "we", "they", "he", "she", "it", "this", "that", "there", "which", "what", "who"))


_AUX = frozenset("is are was were be been being may might can could will would should must shall do does did has have "
                 "had isn't aren't won't can't don't doesn't".split())
_DISCOURSE = frozenset("for only skip example ok okay so then also just yes no note see this that these those there here "
                       "it they we you he she".split())


def _caps(tok: str) -> bool:
    """True for a word of two letters or more written in capitals (an abbreviation)."""
    t = tok.strip(",.")
    return len(t) >= 2 and t.isalpha() and t.isupper()


def thing_phrase(phrase: str, doc_text: str, heads: frozenset[str] = frozenset()) -> bool:
    """True when ``phrase`` reads as the name of a thing the document names (a
    system, channel, tool, team or person): not a clause (no auxiliary or
    modal verb), not a discourse word, and either a proper name (a
    capitalized word, a ``#channel`` or a ``code`` token) or a phrase that
    the document uses more than once (``doc_text``, case-insensitive) — a
    single lower-case word only when it is one of ``heads`` (person words)."""
    p = re.sub(r"^(?:the|a|an|our|your|their|its)\s+", "", phrase.strip(), flags=re.I).strip(" *`'\"")
    if not p or has_cjk(p):
        return bool(p) and looks_like_name(p)
    toks = p.split()
    if any(t.casefold().strip(",.") in _AUX and not _caps(t) for t in toks) or (toks[0].casefold() in _DISCOURSE
                                                                             and not _caps(toks[0])):
        return False  # an abbreviation in capitals ("IT security officer") is a name, not the word "it"
    if not looks_like_name(p):
        return False
    if any(t[:1].isupper() or t.startswith(("#", "@", "`")) or re.search(r"[A-Z].*[A-Z]|\.\w", t) for t in toks):
        return True
    if len(toks) == 1 and not heads:
        return False  # one lower-case word ("want", "service") is too vague to be named
    if len(toks) == 1 and toks[0].casefold() not in heads:
        return False
    return doc_text.casefold().count(p.casefold()) >= 2


_PRONOUNS = frozenset("i me my we us our you your they them their he him his she her it its".split())


def plain_noun_phrase(phrase: str) -> bool:
    """True when ``phrase`` is a short noun phrase (one to four words, the first not a discourse word,
    none an auxiliary or modal verb, at least three characters), capitalized or not: what a
    construction that names both of its sides in place ("with a fallback to a vote", "If the passkey isn't
    available, …") may name once, in lower case."""
    p = re.sub(r"^(?:the|a|an|our|your|their|its)\s+", "", phrase.strip(), flags=re.I).strip(" *`'\"")
    if not p or has_cjk(p) or len(p) < 3 or not looks_like_name(p):
        return False
    toks = p.split()
    if any(t.casefold() in _PRONOUNS for t in toks[1:]):
        return False  # "access our vaults locally": a clause, not a name
    return len(toks) <= 4 and not any(t.casefold().strip(",.") in _AUX for t in toks) and (
        toks[0].casefold() not in _DISCOURSE or _caps(toks[0]))
