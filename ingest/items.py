"""The grammar of an ingredient list item: names, amounts, optional
markers and stand-ins (``X（或 Y）``, ``X（可选）``, ``X（没有就用 Y 代替）``,
``2 cups X, or Y``…), and the tests that tell a thing's name from a step, a
method or a quantity.

Which words and phrasings count (tool lexicon, units, cue patterns) is data:
``lexicon/tools.yaml``, ``amounts.yaml``, ``alternatives.yaml``,
``steps.yaml``, ``sections.yaml`` and ``names.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..knowledge import bilingual, categories
from ..knowledge.text import has_cjk, simplified
from .blocks import split_top
from .cues import alternation, lexicon, regex, words
from .normalize import clean_name
from ..knowledge.cues import complete_name, head_noun, _modifiers


# --------------------------------------------------------------------------- tools
TOOL_WORDS = frozenset(words("tools", "words"))
_TOOL_SUFFIX_1 = tuple(words("tools", "suffixes"))
_NOT_TOOLS = frozenset(words("tools", "not_tools"))
_TOOL_EN = re.compile(rf"\b(?:{alternation('tools', 'english')})\b", re.I)


def is_tool(name: str) -> bool:
    """True when a (cleaned) list-item name denotes kitchen equipment
    (``lexicon/tools.yaml``).

    Chinese (traditional read through its simplified form): exact word from the tool vocabulary (锅, 刀, 砧板, 微波炉…), a
    name containing a multi-character tool word, or ending in a one-character
    tool suffix (炒锅, 菜刀, 料理机, 打蛋器…; five characters at most), minus
    foods that look like tools (锅巴, 刀豆…). A name with a ``…的`` modifier
    is judged by its head noun (``有一定深度的碗`` → 碗). English: a tool word
    anywhere (pan, pot, knife, oven, bowl…)."""
    if not name:
        return False
    if has_cjk(name):
        name = simplified(name)  # the lexicon is written once, in simplified characters (平底鑊 → 平底镬)
    if name in _NOT_TOOLS:
        return False
    if has_cjk(name):
        if "的" in name and name.rsplit("的", 1)[1] and is_tool(name.rsplit("的", 1)[1]):
            return True
        if name in TOOL_WORDS:
            return True
        if any(len(w) >= 2 and w in name for w in TOOL_WORDS):
            return True
        return name.endswith(_TOOL_SUFFIX_1) and len(name) <= 5
    return bool(_TOOL_EN.search(name))


_TOOL_LEAD_STOP = frozenset(words("tools", "phrase_stops_en"))


def tool_phrases(text: str) -> list[tuple[str, str]]:
    """The English tool names of a sentence as ``(surface, name)``: each tool
    word of the lexicon with up to three words before it that qualify it,
    sizes skipped in the name ("into a 10-by-4 inch round tube pan" → "round
    tube pan", "on buttered 9\" spring form pan" → surface 'buttered 9"
    spring form pan', name "buttered spring form pan"); for Chinese text see
    :func:`_tool_phrases_zh`."""
    if has_cjk(text):
        return _tool_phrases_zh(text)
    out: list[tuple[str, str]] = []
    for m in _TOOL_EN.finditer(text):
        toks = list(re.finditer(r"\S+", text[max(0, m.start() - 80):m.start()]))
        off = max(0, m.start() - 80)
        lead: list[str] = []
        first = m.start()
        for t in reversed(toks[-6:]):
            w = t.group()
            if re.fullmatch(r"\d[\w\-\"'″.]*|inch(?:es)?|cm", w, re.I):
                continue  # a size ("9\"", "10-by-4 inch") sits among the qualifiers
            if len(lead) == 3 or not re.fullmatch(r"[A-Za-z][a-z-]*", w) or w.casefold() in _TOOL_LEAD_STOP:
                break
            lead.insert(0, w)
            first = off + t.start()
        out.append((text[first:m.end()], " ".join([*lead, m.group()])))
    return out


_TOOL_STOPS_ZH = frozenset(words("tools", "phrase_stops_zh"))
_TOOL_ENDS_ZH = tuple(sorted({*_TOOL_SUFFIX_1, *(w for w in TOOL_WORDS if has_cjk(w))}, key=len, reverse=True))


def ends_in_tool_word(name: str) -> bool:
    """True when a Chinese name ends in a tool word or tool suffix of the
    lexicon (手冲器具, 炒锅; not 炒锅闷)."""
    return has_cjk(name) and simplified(name.strip()).endswith(_TOOL_ENDS_ZH)


def _tool_phrases_zh(text: str) -> list[tuple[str, str]]:
    """The Chinese tool names of a sentence as ``(surface, name)`` (both as
    written): each tool word or tool-suffix character of the lexicon with up to
    three characters before it, stopping at a ``phrase_stops_zh`` character
    ("倒油到鑄鐵鍋中" → 鑄鐵鍋, "盛起至烤盤備用" → 烤盤); a name
    :func:`is_tool` rejects (锅巴) and a bare one-character word (锅, 器: it
    would match inside every longer name) are left out."""
    plain = simplified(text)  # same length as ``text``
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(plain):
        end = next((w for w in _TOOL_ENDS_ZH if plain.startswith(w, i)), "")
        if not end:
            i += 1
            continue
        stop = i + len(end)
        while stop < len(plain) and any(plain.startswith(w, stop) and len(w) > 1 for w in _TOOL_ENDS_ZH):
            stop += 1  # "烤盘" is read once, not as 烤 + 盘
        start = i
        while start > 0 and i - start < 3 and "\u3400" <= plain[start - 1] <= "\u9fff" and plain[start - 1] not in _TOOL_STOPS_ZH:
            start -= 1
        name = text[start:stop]
        if len(name) >= 2 and is_tool(name) and not any(nt in plain[start:stop + 2] for nt in _NOT_TOOLS):
            out.append((name, name))
        i = stop
    return out


# --------------------------------------------------------------------------- cues
_OPT_MARK = regex("alternatives", "optional_mark", re.I)
_OPT_CLAUSE = regex("alternatives", "optional_clause", re.I)
_PAREN = re.compile(r"[（(]([^（）()]*)[）)]")
# "X(gloss)— 可用 Y 替代" / "X — 可选但推荐": a dash note after the name (em dash or a
# spaced en dash; a plain hyphen is a range, "10 - 18 ml")
_DASH_NOTE = re.compile(r"\s*(?:—+|\s–\s)\s*")
_NOTE_CUES = lexicon("alternatives")["note_cues"]
_SYM_ALT = re.compile(_NOTE_CUES["either"], re.I)
_NO_X_USE_Y = re.compile(_NOTE_CUES["if_missing_use"])
_CAN_USE_Y = re.compile(_NOTE_CUES["can_use"])
_Y_BETTER = re.compile(_NOTE_CUES["y_better"])
_Y_CAN_REPLACE = re.compile(_NOTE_CUES["y_can_replace"])
_Y_ALSO_OK = re.compile(_NOTE_CUES["y_also_fine"])
_EN_IF_NOT = re.compile(_NOTE_CUES["if_missing_use_en"], re.I)
_EN_OR = re.compile(_NOTE_CUES["or_en"], re.I)
AMOUNT_AGAIN_EN = regex("alternatives", "amount_again_en", re.I)
"""An English "or" phrase that restates the amount ("or about 2 bananas", "or more as needed")."""
_CONDITION_ONLY = regex("alternatives", "condition_only", re.I)
_DIRECTIONAL_OR = lexicon("alternatives")["directional_or"]
_ITEM_OR_EN = regex("alternatives", "item_or_en", re.I)
_OR_TO_TASTE = regex("alternatives", "or_to_taste_en", re.I)
_PREFERENCE_EN = regex("alternatives", "preference_en", re.I)
_ITEM_OR_ZH = regex("alternatives", "item_or_zh")
_OWN_NOTES_OR_EN = regex("alternatives", "own_notes_or_en", re.I)
_DASH_NOTE_EN = regex("alternatives", "dash_note_en")
_BOTH = regex("alternatives", "both")
_COLLECTIVE_EN = re.compile(rf"^(?:{alternation('alternatives', 'collective_en')})\b", re.I)
_ENUMERATION_EN = regex("alternatives", "enumeration_en", re.I)
_MAPPING_EN = regex("alternatives", "mapping_item_en")
_KINDS_NOTE = regex("alternatives", "kinds_note_en", re.I)
_KINDS_NOT = frozenset(words("alternatives", "kinds_note_not"))
_MID_NOTE = regex("alternatives", "mid_name_note_en", re.I)
_MID_OR = regex("alternatives", "mid_name_or_en", re.I)
_MID_KINDS = regex("alternatives", "mid_name_kinds_en", re.I)
_MAPPING_OR = regex("alternatives", "mapping_or_en", re.I)
MISSING_CONDITION = lexicon("alternatives")["missing_condition"]
"""The condition of a "没有 X …" stand-in (``"没有时"``)."""
_NOT_A_THING = regex("names", "not_a_thing")
_ITEM_LABEL = regex("sections", "item_labels")
OPTIONAL_LABEL = regex("sections", "optional_labels", re.I)
"""A group label or heading that makes its items optional (可选/optional…)."""

_METHOD_ZH = re.compile(rf"^(?:{alternation('steps', 'method_chars_zh')})[\u4e00-\u9fff]?$")
_METHOD_EN = frozenset(words("steps", "method_words_en"))
_MEASURE = regex("amounts", "measure", re.I)
_PROSE_START = re.compile(rf"^(?:{alternation('steps', 'prose_start')})")
PROSE_VERB = regex("steps", "prose_verbs")
"""Verbs that make a sentence an instruction (放入/加入/洗净/然后…)."""
STEP_VERB = regex("steps", "step_verbs")
"""What a cooking step says, never a thing's name (``lexicon/steps.yaml``)."""
_EN_LEAD_AMOUNT = regex("amounts", "lead_amount_en", re.I)
_AMOUNT_TAIL = regex("amounts", "amount_tail_zh")


def is_measure(raw: str) -> bool:
    """True for a pure quantity like ``400 grams``, ``240ml``, ``2-3 个``, ``1 杯``
    (English needs a known unit, so ``2 shallots`` is a name, not a measure)."""
    raw = raw.strip()
    if not raw or not re.search(r"\d", raw):
        return False
    return clean_name(raw, "ingredient") == "" or bool(_MEASURE.fullmatch(raw))


def plausible_name(name: str) -> bool:
    """Reject list-item prose that is not a thing's name: Chinese names over
    8 characters, names with sentence punctuation, digits or ``°``, or that
    start like an instruction (将/把/加入/如果…); English names over 5 words."""
    if not name or re.search(r"[。！？；;!?°\d%：:，,（）()]", name):
        return False
    if has_cjk(name):
        return len(name) <= 8 and not _PROSE_START.match(simplified(name))  # traditional reads as simplified
    return len(name.split()) <= 5


def looks_like_step(name: str) -> bool:
    """True when a list-item name reads like a cooking step or a remark, not
    a thing (see :data:`STEP_VERB`): ``干木耳泡 4 个小时``, ``去蒂``, ``关火``,
    ``盛盘``, ``葱切段``. 泡椒/泡打粉/泡发好的海参/切块的午餐肉/去皮猪肉 stay
    names. Traditional script reads through its simplified form ("出鍋" is "出锅")."""
    name = re.sub(r"^\s*\d+\s*[.、)）]\s*", "", name or "")  # "2. 干木耳泡…" — a numbered step
    return bool(name) and has_cjk(name) and bool(STEP_VERB.search(simplified(name)))


def is_method(name: str) -> bool:
    """True for a cooking method rather than a thing (切丝, "chop the …",
    "chopped"); a participle before a noun qualifies a thing ("grated
    parmesan", "grated fresh ginger")."""
    if not name:
        return False
    if has_cjk(name):
        return bool(_METHOD_ZH.match(simplified(name))) and not is_tool(name)  # 切丝 is a method, 烤箱/炒锅 are tools
    first = name.lower().split()[0]
    return first in _METHOD_EN and not (first.endswith("ed") and bool(head_noun(name)))


@dataclass(slots=True)
class Alternative:
    """A stand-in found next to an ingredient: ``raw`` surface text of Y,
    ``symmetric`` for plain "X or Y", ``condition`` text (``"没有时"``, …)."""

    raw: str
    symmetric: bool
    condition: str = ""


@dataclass(slots=True)
class ItemParse:
    """One ingredient mention of a list item: surface ``name``, ``amount``
    as written (``""`` if none), ``optional`` marker, ``alternatives``;
    ``kinds`` the pairs ``(a, b)`` of kinds of the item a note offers, one
    or the other ("beef (sirloin or flank)": b stands in for a)."""

    name: str
    amount: str = ""
    optional: bool = False
    alternatives: list[Alternative] = field(default_factory=list)
    kinds: list[tuple[str, str]] = field(default_factory=list)


def _alts_from_note(note: str) -> list[Alternative]:
    """Alternatives in one clause of a note (或者 Y / 没有…就用 Y 代替 / 可用 Y 代替 /
    也可用 Y 代替 / 没有可用 Y 替代 / or Y / if you don't have it, use Y).

    ``Y、Z`` lists give one alternative each. A compound stand-in (``A + B``,
    ``A 和 B``) stays ONE alternative whose ``raw`` is the whole combination;
    ``add_sub`` in :class:`RecipeExtractor` turns it into a single edge (see
    there). Use :func:`note_clauses` for a whole parenthesised note."""
    m = _SYM_ALT.match(note)
    if m:
        y = m.group(1)
        if not has_cjk(note):
            me = _EN_OR.match(note)
            if not me or AMOUNT_AGAIN_EN.match(me.group("y")):
                return []  # "(or about 2 bananas)", "(or more as needed)": the amount again, no other thing
            y = me.group("y")  # "(or try spinach)", "(or substitute black grapes)": the thing, not the verb
        return [Alternative(p, True) for p in split_top(y, "/／、")]
    m = _NO_X_USE_Y.search(note)
    if m:
        cond = m.group("cond").strip()
        cond = MISSING_CONDITION if not m.group("x").strip() else cond
        return [Alternative(_and_to_plus(p), False, cond) for p in split_top(m.group("y"), "、/／")]
    m = _CAN_USE_Y.match(note)
    if m:
        cond = (m.group("cond") or "").strip()  # "不能吃辣可以换 Y": Y when that holds
        return [Alternative(_and_to_plus(p), False, cond) for p in split_top(m.group("y"), "、/／")]
    m = _Y_CAN_REPLACE.match(note)
    if m and has_cjk(note):
        return [Alternative(_and_to_plus(m.group("y")), False)]
    m = _Y_ALSO_OK.match(note)
    if m and has_cjk(note) and not _NOT_A_THING.search(m.group("y")):
        return [Alternative(_and_to_plus(m.group("y")), False)]
    m = _Y_BETTER.match(note)
    if m and has_cjk(note) and better_thing(m.group("y")):
        return [Alternative(m.group("y").strip(), False)]
    m = _EN_IF_NOT.match(note)
    if m:
        return [Alternative(m.group("y"), False, m.group("cond").strip())]
    m = _EN_OR.match(note)
    if m:
        sym = not note.lower().lstrip().startswith(_DIRECTIONAL_OR)
        return [Alternative(p, sym) for p in or_parts_en(m.group("y"))]
    return []


def better_thing(y: str) -> bool:
    """True when ``y`` of a "有 Y 更好" note names a thing ("猪油", "新鲜面包粒"), not a
    way of doing the step ("有时间腌久一点更好") or a place to buy it."""
    n = clean_name(y, "ingredient")
    return (bool(n) and plausible_name(n) and not looks_like_step(y) and not _NOT_A_THING.search(y)
            and not _NAME_STOP.search(y))


def or_parts_en(y: str) -> list[str]:
    """An English stand-in phrase as the names it offers, one per "or"
    ("pecorino or parmesan" → pecorino, parmesan; "unsweetened soy yogurt or
    coconut yogurt" → both): split only when every side is a short name (at
    most five words, not a quantity); otherwise the phrase whole ("simply add
    1 Tablespoon lemon juice or vinegar to 1 cup milk…" is read later as one
    way to make it)."""
    parts = [p.strip() for p in re.split(r"\s+or\s+", y) if p.strip()]
    if len(parts) > 1 and all(len(p.split()) <= 5 and not is_measure(p) for p in parts):
        return parts
    return [y]


def comma_or(part: str) -> tuple[str, tuple[str, str] | None] | None:
    """An English item whose "or" sits in a comma clause after the name
    and joins two qualities of it, not two things: "butter, unsalted or
    salted, melted" → ("butter", ("unsalted butter", "salted butter")), two
    kinds of the item; "eggs, preferably organic or free-range, beaten" →
    ("eggs", None), a preference (``preference_en`` of alternatives.yaml),
    no alternative at all. ``None`` when the item is not so written (the
    "or" is in the name's own clause, or a side names a thing: "dried
    apricots, cranberries or raisins")."""
    clauses = split_top(part, ",")
    if len(clauses) < 2 or re.search(r"\s+or\s+", clauses[0]):
        return None
    for c in clauses[1:]:
        sides = re.split(r"\s+or\s+", c.strip())
        if len(sides) != 2:
            continue
        name = clauses[0].strip()
        if _PREFERENCE_EN.match(c):
            return name, None
        a, b = sides
        if a and b and _only_modifiers(a) and _only_modifiers(b):
            n = clean_name(name, "ingredient") or name
            return name, (f"{a.strip()} {n}", f"{b.strip()} {n}")
        return None
    return None


def _and_to_plus(y: str) -> str:
    """``A 和 B`` / ``A 及 B`` in a stand-in means both together: write it as ``A + B``."""
    return _BOTH.sub(" + ", y) if has_cjk(y) else y


def note_clauses(note: str) -> tuple[bool, list[Alternative]]:
    """Parse a whole note (the text in parentheses or after a dash) clause by
    clause — clauses are split at top-level ``，,；;`` — so that
    ``（去骨，可用羊肉替代）``, ``（一种常用日式调料，…，也可用料酒代替）``,
    ``（没有可用食用油替代，但猪油风味更佳）`` and ``（或午餐肉，可选）`` each yield
    their alternative without the neighbouring clauses leaking into Y.
    Returns ``(optional, alternatives)``: ``optional`` is true when one clause
    is an optional marker (可选 / 可选但推荐 / 可不加 / optional)."""
    optional, alts, carry = False, [], ""
    if not has_cjk(note) and _ENUMERATION_EN.match(re.split(r"\s[–—-]\s", note)[0]):
        # "(beef, dry fish, or smoked fish – optional)": examples of the item, not alternatives to it
        return any(_OPT_CLAUSE.search(c) for c in split_top(note, ",;–—")), []
    for clause in split_top(note, "，,；;。！!"):
        clause = f"{carry}，{clause}" if carry else clause
        carry = ""
        found = _alts_from_note(clause)
        if not found and _OPT_CLAUSE.search(clause):
            optional = True  # "可选", "没有的话也问题不大"
        elif not found and _CONDITION_ONLY.match(clause):
            carry = clause  # "没有鹌鹑蛋，可以用…鸡蛋代替": the condition spans the comma
        alts.extend(found)
    return optional, alts


@dataclass(slots=True)
class _Mapped:
    key: str
    amount: str
    optional: bool
    alternatives: list[Alternative]


def _strip_amount(text: str) -> str:
    """``text`` without its leading quantity ("1/2 tsp dried" → "dried"); ``""`` for a quantity alone."""
    text = text.strip(" ,;-–—")
    if not text or is_measure(text):
        return ""
    m = _EN_LEAD_AMOUNT.match(text)
    return m.group("name").strip(" ,;-–—") if m else text


def strip_amount(text: str) -> str:
    """An English name as written without its leading quantity ("1 bag
    frozen peas" → "frozen peas"); ``""`` for a quantity alone."""
    return _strip_amount(text)


def _only_modifiers(text: str) -> bool:
    return all(w.casefold().strip(",") in _MODIFIERS for w in text.split())


def _mapping_item(text: str) -> _Mapped | str | None:
    """An English ``name: amount and notes`` item (a YAML mapping of
    ingredients): its name (the key), amount, optional marker and the
    alternative its value offers — a form of the same thing ("fresh thyme: 1
    tsp chopped or 1/2 tsp dried" → dried thyme) or, after a comma or a bare
    amount, another thing ("honey: 1 tablespoon, or molasses"); "2 cloves,
    minced or presses" offers none. An item that is an optional label
    ("(optional: 1 lb of ground beef)") returns the labelled text (a str);
    ``None`` for any other item."""
    inner = re.fullmatch(r"\(\s*(.+?)\s*\)", text)
    m = _MAPPING_EN.match(inner.group(1) if inner else text)
    if not m or len(m.group("key").split()) > 5:
        return None
    key, value = m.group("key").strip(), m.group("value").strip()
    if OPTIONAL_LABEL.fullmatch(key):
        return value or None
    if inner:
        return None
    body = _OPT_MARK.sub("", _PAREN.sub("", value)).strip(" ,;-–—")
    alts: list[Alternative] = []
    mo = _MAPPING_OR.search(body)
    if mo:
        left, right = _strip_amount(body[:mo.start()]), body[mo.end():].strip(" ,;-–—")
        r = _strip_amount(right) if right and not is_measure(right) else ""
        if r and _only_modifiers(r):
            if _only_modifiers(left):  # "1 tsp chopped or 1/2 tsp dried": the same thing, another form
                alts.append(Alternative(complete_name(r, key), True))
        elif r and (mo.group("comma") or not left and not any(
                w.casefold().strip(",") in _MODIFIERS for w in body[:mo.start()].split())):
            # "1 tablespoon, or molasses"; not "2 cloves, minced or presses" (a preparation)
            alts.append(Alternative(r, True))
        body = body[:mo.start()].strip(" ,;-–—")
    am = _EN_LEAD_AMOUNT.match(body)
    amount = body if is_measure(body) else (am.group("amount") if am else "")
    return _Mapped(key, amount, bool(_OPT_MARK.search(value)), alts)


def note_kinds(note: str, name: str) -> tuple[str, str] | None:
    """The two kinds of ``name`` an English note offers, one or the other:
    "sirloin or flank, thinly sliced" → ("sirloin", "flank"); qualifiers take
    the item's head noun ("fresh or frozen" after "corn" → fresh corn / frozen
    corn); ``None`` for any other note (a list, an amount, a step)."""
    if has_cjk(note) or re.search(r"\d", note):
        return None
    m = _KINDS_NOTE.match(split_top(note, ",;")[0])
    if not m:
        return None
    a, b = m.group("a").strip(), m.group("b").strip()
    if any(w.split()[0].casefold() in _KINDS_NOT for w in (a, b)) or is_measure(a) or is_measure(b):
        return None
    if any(w in _LINE_SENTENCE_EN for w in re.findall(r"[a-z']+", f"{a} {b}".casefold())):
        return None  # "(discard or rest on rim)": what to do with it, not two kinds
    if _only_modifiers(a) != _only_modifiers(b):
        return None  # "chopped or blended for sliminess": two preparations, not two kinds
    a, b = complete_name(a, name), complete_name(b, name)
    bw = b.split()
    if len(a.split()) == 1 and len(bw) > 1 and bw[0].casefold() in _MODIFIERS:
        a = " ".join([a, *bw[1:]])  # "black-eyed or brown beans": black-eyed beans
    return (a, b) if a.casefold() != b.casefold() else None
_SENTENCE_WORD = regex("names", "sentence_words_zh")
_EXAMPLE_TAIL = regex("names", "example_tails")
_QTY_IN_NAME = re.compile(alternation("steps", "step_quantity"))
_NAME_STOP = re.compile("|".join([alternation("steps", "item_name_stops"), alternation("steps", "prep_verbs"),
                                  alternation("steps", "step_quantity")]))
_CLAUSE_SEPS = "，,；;。！!"


def _first_top_sep(text: str, seps: str) -> int:
    """Index of the first character of ``seps`` outside parentheses, or -1."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "（(【[":
            depth += 1
        elif ch in "）)】]":
            depth = max(0, depth - 1)
        elif ch in seps and depth == 0:
            return i
    return -1


def _prose_clause(clause: str) -> bool:
    """True when one clause of a Chinese list item is not a thing's name but
    a remark on it: a note with a cue (或者 Y / 可选 / 没有的话…), a step, a
    sentence (``sentence_words_zh`` of names.yaml: 了/是/我/就…) or a phrase
    that does not clean to a plausible name ("约 2 元")."""
    c = _PAREN.sub("", clause).strip()
    if not c:
        return False
    opt, alts = note_clauses(c)
    if opt or alts or looks_like_step(c) or PROSE_VERB.search(simplified(c)) or _SENTENCE_WORD.search(simplified(c)):
        return True
    for part in split_top(c, "、"):  # "老抽、淀粉": names joined by 、 are names
        n = clean_name(part, "ingredient")
        if not n or not plausible_name(n) or re.match(r"^(?:约|大约|大概)", part):
            return True
    return False


def lead_name(clause: str) -> str:
    """The thing a prose item names first, cut before its first quantity,
    preparation verb or sentence word (``item_name_stops``, ``prep_verbs``,
    ``step_quantity`` of steps.yaml): "瘦肉切了大约 2 块钱的分量" → 瘦肉,
    "猪肉我今天买了一块梅头肉" → 猪肉; ``""`` when no plausible name leads."""
    c = _PAREN.sub("", clause).strip()
    m = _NAME_STOP.search(c, 1)
    head = c[:m.start()].strip() if m else ""
    n = clean_name(head, "ingredient") if len(head) >= 2 else ""  # "小半碗开水": 小 is the amount's
    return head if n and plausible_name(n) and not looks_like_step(head) and not _SENTENCE_WORD.search(simplified(head)) else ""


def split_prose_item(text: str) -> tuple[str, str]:
    """A Chinese list item written as a sentence ("芋头，切一小块就足够了，约 2 元",
    "白酱油 1 勺，或者生抽", "虾皮抓一小把，没有的话也问题不大"): ``(its first
    clause, the rest as a note)`` when the first clause names a thing and a
    later clause is a remark (:func:`_prose_clause`); else ``(text, "")``, so a
    line of names ("鸡肉，土豆，菜椒和甜椒") stays a list."""
    clauses = split_top(text, _CLAUSE_SEPS)
    if len(clauses) < 2 or not has_cjk(text):
        return text, ""
    if not any(_prose_clause(c) for c in clauses[1:]):
        return text, ""
    # a sentence from its first clause on ("最好用西红柿丁罐头, 其他罐头, 鲜西红柿酸味不足") is one remark too:
    # its first clause is the only candidate name (dropped later when it is none), the rest is not a list
    cut = _first_top_sep(text, _CLAUSE_SEPS)
    return text[:cut].strip(), text[cut + 1:].strip()


_LINE_SENTENCE_EN = frozenset(words("sections", "line_item_sentence_words_en"))
_LINE_MAX = int(lexicon("sections")["line_item_max_chars"])


_LEAD_ZH = re.compile(rf"^(?:{alternation('sections', 'line_item_lead_zh')})\s*[：:]?\s*")
_AND_ZH = re.compile(rf"(?<=[^\s、，,])(?:{alternation('sections', 'line_item_and_zh')})(?=[^\s、，,])")
_ADD_LEAD_ZH = re.compile(rf"^(?:多|少|再|另|可)?(?:{alternation('steps', 'add_verbs')})(?![入])")
_COOKS = re.compile(rf"(?:{alternation('steps', 'method_chars_zh')}|{alternation('steps', 'add_verbs')})\S*?(?:至|到)")
_MODAL_ZH = re.compile(alternation("sections", "line_item_sentence_words_zh"))
_LINE_MAX_ZH = int(lexicon("sections")["line_item_max_chars_zh"])
_ING_LABEL = re.compile(rf"^\s*(?:\*\*)?[^\s：:，,。]{{0,4}}(?:{alternation('sections', 'ingredients')})[^\s：:，,。]{{0,2}}(?:\*\*)?\s*[：:]\s*(?:\*\*)?")


def ingredient_label(text: str) -> str:
    """The list after a Chinese ingredient label that opens a line ("材料：鸡腿，土豆，胡萝卜",
    "调料：盐，白糖"; ``ingredients`` of sections.yaml, with at most a short qualifier), read through
    its simplified form; ``""`` when the line opens with no such label."""
    t = (text or "").strip()
    if not has_cjk(t):
        return ""
    m = _ING_LABEL.match(simplified(t))
    return t[m.end():].strip() if m else ""


def _line_items_zh(text: str) -> list[str]:
    """:func:`line_items` for a Chinese line: a list written as one sentence, an opening need verb or
    ingredient label aside ("需要两个鸡蛋、一个番茄和少许盐。" → 两个鸡蛋, 一个番茄, 少许盐), split at
    top-level 、，；and before the last joining word (和/以及…, never at a name's start: 和牛). ``[]``
    for prose: several sentences, longer than ``line_item_max_chars_zh``, a part that is a step, or
    a part that does not open with a plausible name (its note after a comma aside).""" 
    t = text.strip()
    if len(_PAREN.sub("", t)) > _LINE_MAX_ZH or "\n" in t:
        return []
    plain = simplified(t)
    m = _LEAD_ZH.match(plain)
    if m and m.end() < len(t):
        t, plain = t[m.end():], plain[m.end():]
    t = re.sub(r"[。.!！]\s*$", "", t).strip()
    bare = simplified(_PAREN.sub("", t))
    if re.search(r"[。！？!?]", bare) or PROSE_VERB.search(bare) or _MODAL_ZH.search(bare):
        return []  # several sentences, or a sentence that does something with the things: prose
    parts: list[str] = []
    # the enumeration comma 、 separates the things when the line uses it; a clause comma then opens a thing's note
    seps = "、；;" if "、" in _PAREN.sub("", t) else "、，,；;"
    for piece in split_top(t, seps):
        flat = _PAREN.sub(lambda x: "（" + "＿" * (len(x.group(0)) - 2) + "）", simplified(piece))
        joins = list(_AND_ZH.finditer(flat))
        if joins:
            j = joins[-1]
            parts += [piece[:j.start()].strip(), piece[j.end():].strip()]
        else:
            parts.append(piece)
    # "多加蒜片": the thing an adding verb opens is the item (the verb is how much of it, not a thing)
    parts = [p[m.end():] if (m := _ADD_LEAD_ZH.match(simplified(p))) and len(p) - m.end() >= 2 else p for p in parts if p]
    heads = [re.split(r"[，,]", _PAREN.sub("", p), maxsplit=1)[0].strip() for p in parts]  # a thing, its note aside
    if len(parts) < 2 or any(looks_like_step(h) or len(h) > 30 or _COOKS.search(simplified(h)) for h in heads):
        return []  # "加入料酒炒至有香气": a step (a method and how far it goes), not a list
    names = sum(1 for h in heads if (n := clean_name(h, "ingredient")) and plausible_name(n)
                and not _SENTENCE_WORD.search(simplified(h)) and not PROSE_VERB.search(simplified(h)))
    return parts if names == len(parts) else []  # every part opens with a thing: a list, not a sentence


def paragraph_items(text: str) -> list[str]:
    """The things a paragraph of an ingredients section lists: one line, :func:`line_items`; several
    lines (markdown joins lines written without a bullet into one paragraph: "葱\n姜\n一勺白糖"), each
    line read so, a line holding one short thing ("一勺白糖") being that thing — ``[]`` unless at least two
    thirds of the lines read as things."""
    lines = [ln.strip() for ln in (text or "").split("\n") if ln.strip()]
    if len(lines) <= 1:
        return line_items(text)
    out: list[str] = []
    good = 0
    for ln in lines:
        found = line_items(ln) or ([ln] if _one_thing(ln) else [])
        good += bool(found)
        out += found
    return out if good * 3 >= len(lines) * 2 else []


def _one_thing(line: str) -> bool:
    """True for a line that names one thing, maybe with an amount or a note ("一勺白糖", "盐 3 g")."""
    head = re.split(r"[，,]", _PAREN.sub("", line), maxsplit=1)[0].strip()
    n = clean_name(head, "ingredient")
    return bool(n) and len(head) <= 30 and plausible_name(n) and not looks_like_step(head) and not is_method(n)


def line_items(text: str) -> list[str]:
    """A short paragraph of an ingredients or garnish section read as list
    items (a Chinese line: see :func:`_line_items_zh`, "需要两个鸡蛋、一个番茄和少许盐。"
    → three items). English: "Lime twist or wheel." → ["Lime twist or wheel"],
    "Celery stick; optional salt/pepper rim." → two items, "Pineapple slice
    and cherry." → two items (split at top-level ``;`` and " and ", never
    inside a note in parentheses). ``[]`` for prose: longer than
    ``line_item_max_chars``, several sentences, a label ending in ":", a
    line that starts with a method ("Stir …") or holds a word of a sentence
    (``line_item_sentence_words_en`` of sections.yaml: "Bitters dashed art
    on foam.")."""
    t = (text or "").strip()
    if t and has_cjk(t) and not t.endswith((":", "：")):
        return _line_items_zh(ingredient_label(t) or t)
    if not t or has_cjk(t) or len(t) > _LINE_MAX or t.endswith((":", "：")):
        return []
    t = re.sub(r"\s*\.\s*$", "", t)
    bare = _PAREN.sub(" ", t)
    if re.search(r"[.!?]\s", bare) or is_method(bare.strip()):
        return []
    if any(w in _LINE_SENTENCE_EN for w in re.findall(r"[a-z']+", bare.casefold())):
        return []
    out: list[str] = []
    for piece in split_top(t, ";"):
        depth, start, i = 0, 0, 0
        while i < len(piece):
            ch = piece[i]
            depth += ch in "(（[" 
            depth -= ch in ")）]" and depth > 0
            if depth == 0 and piece.startswith(" and ", i):
                out.append(piece[start:i])
                start = i + 5
                i += 5
                continue
            i += 1
        out.append(piece[start:])
    return [o.strip() for o in out if o.strip()]


def _balanced(text: str) -> bool:
    return text.count("（") + text.count("(") == text.count("）") + text.count(")")


_BRACKET_NOTE = re.compile(r"[\[【]([^\[\]【】]*)[\]】]")


def parse_item(text: str) -> list[ItemParse]:
    """Parse one ingredient/amount list item into ingredient mentions (see
    :func:`_parse_item` for the phrasings read).

    A note in square brackets is a note like one in parentheses ("X 少許
    [可改用 Y]", "X【可选】"). Traditional Chinese is parsed through its
    simplified form (the amounts and cue words are written once, in
    simplified characters), each surface given back as written when the item
    spells it ("西芹鹽 少許 [可改用海鹽]" → 西芹鹽, alternative 海鹽)."""
    written = text
    text = _BRACKET_NOTE.sub(lambda m: f"（{m.group(1)}）", text) if has_cjk(text) else text
    if has_cjk(text):
        m = _PREP_TAIL.match(simplified(text))  # "土豆 切丝": the cut is a note on the thing, not its name
        if m:
            text = f"{text[:m.start('prep')].rstrip()}（{text[m.start('prep'):]}）"
            written = text
    plain = simplified(text)  # same length as ``written``: an offset in one is the offset in the other
    out = [_share_head_zh(_drop_gloss(ip)) for ip in _parse_item(plain)]
    if plain == written:
        return out
    text = written

    def back(v: str) -> str:
        i = plain.find(v) if v else -1
        if i >= 0:
            return text[i:i + len(v)]
        out, k = "", 0  # a name put together from two places ("新鲜" + "迷迭香"): each piece as written
        while k < len(v):
            n = next((n for n in range(len(v) - k, 0, -1) if v[k:k + n] in plain), 0)
            if not n:
                return v
            j = plain.find(v[k:k + n])
            out, k = out + text[j:j + n], k + n
        return out

    return [ItemParse(back(ip.name), back(ip.amount), ip.optional,
                      [Alternative(back(a.raw), a.symmetric, back(a.condition)) for a in ip.alternatives], ip.kinds)
            for ip in out]


#: a preparation written after the thing, past a space or a note ("土豆 切丝", "胡萝卜（去皮）切丁")
_PREP_TAIL = re.compile(rf"^(?P<name>[^\s，,。]*[\u3400-\u9fff][^，,。]*?)(?:\s+|(?<=[）)]))"
                        rf"(?P<prep>(?:{alternation('steps', 'prep_tail_verbs')})[^\s，,。（(]{{0,6}})$")

# "雪梨醋 sherry vinegar", "孜然籽 cumin seed": a Chinese name followed by its English gloss
_EN_GLOSS = re.compile(r"^(?P<zh>\S*[\u3400-\u9fff]\S*)\s+(?P<en>[A-Za-z][A-Za-z'’&\- ]{1,40})$")


def _zh_gloss(name: str, *, checked: bool = False) -> str:
    """``name`` without the English gloss after its Chinese name; with
    ``checked``, only a gloss the bilingual lexicon confirms ("干迷迭香
    rosemary" → 干迷迭香; "其他 cheese" stays: cheese is the head, not 其他's name)."""
    m = _EN_GLOSS.match(name.strip())
    if not m or checked and not is_gloss(m.group("zh"), m.group("en")):
        return name
    return m.group("zh")


def _drop_gloss(ip: ItemParse) -> ItemParse:
    """``ip`` named by its Chinese name alone when the name is a Chinese name
    followed by its English gloss ("西芹盐 celery salt" → 西芹盐); so are its
    alternatives ("新鲜或干迷迭香 rosemary" → 干迷迭香)."""
    alts = [Alternative(_zh_gloss(a.raw, checked=True), a.symmetric, a.condition) for a in ip.alternatives]
    if _zh_gloss(ip.name) == ip.name and alts == ip.alternatives:
        return ip
    return ItemParse(_zh_gloss(ip.name), ip.amount, ip.optional, alts, ip.kinds)


_STATE_ZH = tuple(sorted(words("names", "state_zh"), key=len, reverse=True))


def _zh_head(name: str) -> str:
    """The noun a Chinese name's leading state word stands before (干迷迭香 →
    迷迭香); the name itself when it has none, or when the rest would be a
    single character (生粉 stays 生粉)."""
    n = name.strip()
    for w in _STATE_ZH:
        if n.startswith(w) and len(n) - len(w) >= 2:
            return n[len(w):]
    return n


def _share_head_zh(ip: ItemParse) -> ItemParse:
    """A side of a Chinese item that is only a state word takes the head noun
    of the other side: "新鲜或干迷迭香" → 新鲜迷迭香 / 干迷迭香, "干奥勒冈
    [新鲜也可以]" → alternative 新鲜奥勒冈."""
    name = ip.name.strip()
    if not has_cjk(name) or not ip.alternatives:
        return ip
    alts = list(ip.alternatives)
    if name in _STATE_ZH:
        heads = [_zh_head(a.raw) for a in alts if a.raw.strip() not in _STATE_ZH and _zh_head(a.raw) != a.raw.strip()]
        if not heads:
            return ip
        name = name + heads[0]
    head = _zh_head(name)
    alts = [Alternative(a.raw.strip() + head, a.symmetric, a.condition) if a.raw.strip() in _STATE_ZH and head != name
            or a.raw.strip() in _STATE_ZH and not any(name.startswith(w) for w in _STATE_ZH) else a for a in alts]
    if name == ip.name.strip() and alts == list(ip.alternatives):
        return ip
    return ItemParse(name, ip.amount, ip.optional, alts, ip.kinds)


def mid_name_note(text: str) -> str:
    """An English item whose "or" note in parentheses sits inside the name,
    before the head noun it shares, rewritten with the note after the head
    (``mid_name_note_en`` of alternatives.yaml): "2 cups chicken (or
    vegetable) stock" → "2 cups chicken stock (or vegetable stock)", "1 cup
    (light or dark) brown sugar" → "1 cup light brown sugar (or dark brown
    sugar)"; any other text is returned unchanged (a note of the amount,
    "1 (15 oz) can beans"; "(or more)", the amount again; "A or B" after
    modifiers, which would leave the first modifiers unplaced)."""
    if has_cjk(text):
        return text
    m = _MID_NOTE.match(text)
    if not m:
        return text
    pre, note, head, rest = m.group("pre").strip(), m.group("note"), m.group("head").strip(), m.group("rest")
    mo, mk = _MID_OR.match(note), _MID_KINDS.match(note)
    if mo and pre and not is_measure(pre) and not AMOUNT_AGAIN_EN.match(mo.group("y")):
        return f"{pre} {head} (or {mo.group('y')} {head}){rest}"
    if mk and not mo and (not pre or is_measure(pre)) and not any(
            w.split()[0].casefold() in _KINDS_NOT for w in (mk.group("a"), mk.group("b"))):
        return f"{pre} {mk.group('a')} {head} (or {mk.group('b')} {head}){rest}".strip()
    return text


def _parse_item(text: str) -> list[ItemParse]:
    """Parse one ingredient/amount list item into ingredient mentions.

    Handles the recipe-list phrasings ``X（或者 Y）``, ``X（或 Y）``, ``X(或Y)``,
    ``X/Y``, ``X（可选）``, ``X（没有就用 Y 代替）``, ``X（去骨，可用 Y 替代）``,
    ``X（或 Y，可选）`` (optional *and* an alternative), ``X(gloss)— 可用 Y 替代``
    (dash note), ``A或者B``, ``X = 150g``,
    ``X 500 g（约 3 只）``, several items in one line split at ``、``/``，``,
    and English ``X or Y``, ``X (optional)``, ``X, alternatively Y``.
    Pure measurement alternatives (``1 杯或 240ml``) are not alternatives."""
    text = text.strip().strip("*").strip()
    if not text:
        return []
    notes: list[str] = []
    if has_cjk(text):
        head, *tail = _DASH_NOTE.split(text, maxsplit=1)
        if tail and head.strip() and tail[0].strip():
            text, notes = head.strip(), [tail[0].strip()]  # "藏红花(Saffron)— 可用食用黄色素替代"
        glab = _LABEL_LINE.match(text)
        head, rest = (text, "") if glab and group_label(glab.group("l"), glab.group("r")) else split_prose_item(text)
        if rest:
            text, notes = head, notes + [rest]  # "白酱油 1 勺，或者生抽": the name, then a note
    text = mid_name_note(text)  # "chicken (or vegetable) stock": the note after the head it shares
    own = _own_notes_or(text)
    if own is not None:
        return own
    if not has_cjk(text):
        head, *tail = _DASH_NOTE_EN.split(text, maxsplit=1)
        if tail and tail[0].strip() and not re.match(r"[\d½¼¾⅓⅔]", tail[0].strip()) and _balanced(head) and plausible_name(clean_name(head, "ingredient")):
            text, notes = head.strip(), [tail[0].strip()]  # "Butter -- use unsalted butter to saute onions"
    amount = ""
    mapped = _mapping_item(text) if not has_cjk(text) else None
    if isinstance(mapped, str):  # "(optional: 1 lb of ground beef)"
        return [ItemParse(ip.name, ip.amount, True, ip.alternatives) for ip in parse_item(mapped)]
    if mapped is not None:
        text = mapped.key  # "cheese: grated - optional": the name; the value is read below
    m = re.match(r"^(?P<name>[^=＝]+?)\s*[=＝]\s*(?P<amount>.*)$", text)
    if m:
        text, amount = m.group("name").strip(), m.group("amount").strip()
    elif not has_cjk(text):
        m = _EN_LEAD_AMOUNT.match(text)
        if m:
            text, amount = m.group("name").strip(), m.group("amount").strip()
    else:
        m = _AMOUNT_TAIL.match(text)
        if m and not is_measure(m.group("name")) and _balanced(m.group("name")):
            text, amount = m.group("name").strip(), m.group("amount").strip()
    optional = bool(_OPT_MARK.search(text))
    if mapped is not None:
        amount, optional = mapped.amount, optional or mapped.optional
    # notes in parentheses after the name, in the amount tail and after a dash,
    # clause by clause; with several items on one line ("鸡肉，土豆，菜椒和甜椒（可以不用）")
    # a parenthesised note belongs to the item it follows
    lead = re.match(r"^\s*[（(]([^（）()]*)[）)]\s*[：:]?\s*", text)
    if lead:  # "（可选）：鸡蛋，青菜" — a leading note is about the whole line
        notes.append(lead.group(1))
        text = text[lead.end():]
    line_notes = [note_clauses(n) for n in _PAREN.findall(amount) + notes]
    name_notes = [note_clauses(n) for n in _PAREN.findall(text)]
    raw_parts = split_top(text, "、，,；;") if has_cjk(text) else [text]
    base = _PAREN.sub("", text).strip()
    unmarked = _OPT_MARK.sub("", base)
    # "Cherry, optional.": the mark's sentence stop goes with it
    base = (re.sub(r"[\s,，]*\.$", "", unmarked) if unmarked != base else unmarked).strip(" ：:,，")
    lab = _LABEL_LINE.match(base)
    if lab and has_cjk(base):
        if _ITEM_LABEL.search(lab.group("l")):
            optional = optional or bool(OPTIONAL_LABEL.search(lab.group("l")))
            base = lab.group("r")  # "工具：锅" / "可选：葱花"
        elif group_label(lab.group("l"), lab.group("r")):
            base = choice_line(lab.group("r"))  # "肉类：羊排/羊腿肉，牛腩/牛肋条，或鸡肉"
        else:
            base = lab.group("l")  # "翘嘴鱼：最佳…" / "盐：约 3g"
    if has_cjk(base):
        parts = split_top(base, "、，,；;")
    else:
        parts = [base]
    per_part = len(parts) > 1 and len(raw_parts) == len(parts)
    line_opt = optional or any(o for o, _ in line_notes)
    out: list[ItemParse] = []
    for i, part in enumerate(parts):
        if len(parts) == 1:
            found = line_notes + name_notes
        elif per_part:
            found = [note_clauses(n) for n in _PAREN.findall(raw_parts[i])]
        else:
            found = [(o, []) for o, _ in line_notes + name_notes]
        p_opt = line_opt or any(o for o, _ in found)
        comma_kinds: list[tuple[str, str]] = []
        name, palts = part, [a for _, al in found for a in al] + (mapped.alternatives if mapped is not None else [])
        if has_cjk(part) and not _ITEM_OR_ZH.search(part) and "/" not in part and lead_name(part) and (
                not plausible_name(clean_name(part, "ingredient")) or _SENTENCE_WORD.search(simplified(part))
                or _QTY_IN_NAME.search(part, 1)):
            part = name = lead_name(part)  # "瘦肉切了大约 2 块钱的分量" → 瘦肉, "虾皮抓一小把" → 虾皮
        if has_cjk(part):
            bits = split_top(part, "/／")
            if len(bits) == 1:
                bits = [b for b in _ITEM_OR_ZH.split(part) if b.strip()]
            bits = [_EXAMPLE_TAIL.split(b)[0] if _EXAMPLE_TAIL.search(b, 1) else b for b in bits]
            if len(bits) > 1 and not any(is_measure(b) for b in bits):
                name = bits[0]
                glosses = [b for b in bits[1:] if is_gloss(name, b)]
                palts += [Alternative(b, True) for b in bits[1:] if b not in glosses]
        elif is_collective(part):
            name, palts = slash_split(part)[0], []  # "Assorted meats/fish (beef, …)": one mixture, not alternatives
        else:
            part = re.sub(r"\s+and/or\s+", " or ", part)  # "green, yellow and/or orange pepper"
            part = _OR_TO_TASTE.sub("", part)  # "lime or lemon juice or to taste": the amount's "or"
            co = comma_or(part)
            m2 = _ITEM_OR_EN.match(part) if co is None else None
            if co is not None:
                name = part = co[0]  # "butter, unsalted or salted, melted": two kinds of butter
                if co[1]:
                    comma_kinds.append(co[1])
            elif m2 and not is_measure(m2.group("x")):
                name = m2.group("x")
                sym = _DIRECTIONAL_OR not in part.lower()
                palts += [Alternative(y, sym) for y in or_parts_en(m2.group("y"))]
            elif m2:
                name = m2.group("y")  # "14 ounces or 400 grams tomatoes" -> tomatoes
                name = re.sub(r"^[\d./\s]+\w*\s+", "", name) if is_measure(m2.group("x")) else name
            else:
                slash = slash_split(part)
                if len(slash) > 1 and not any(is_measure(b) for b in slash) and not re.search(r"\s\+\s", part):
                    name = _slash_head(slash)
                    palts += [Alternative(b, True) for b in slash[1:]]
        kinds: list[tuple[str, str]] = list(comma_kinds)
        if not has_cjk(part):
            name, palts = _share_heads(name.strip(), palts)
            if len(parts) == 1 and not is_collective(part):  # "500g beef (sirloin or flank, thinly sliced)"
                kinds += [k for k in (note_kinds(n, name.strip()) for n in _PAREN.findall(text) + _PAREN.findall(amount)) if k]
        out.append(ItemParse(name.strip(), amount, p_opt, palts, kinds))
    return out


_MODIFIERS = _modifiers()


_CHOICE_LEAD = regex("alternatives", "choice_lead_zh")
_LABEL_LINE = re.compile(r"^(?P<l>[^：:]{1,8})[：:]\s*(?P<r>.+)$")
"""A Chinese "label：rest" item ("工具：锅", "盐：约 3g", "肉类：羊排/羊腿肉")."""


def _label_parts(text: str) -> list[str]:
    """The names a Chinese line lists: split at ``、，,；;`` and slashes, a leading
    "或(者)" of a part dropped."""
    return [_CHOICE_LEAD.sub("", q).strip() for p in split_top(text, "、，,；;") for q in split_top(p, "/／")]


def group_label(left: str, right: str) -> bool:
    """True when ``left`` of a Chinese "left：right" item names a category of
    ingredients (a label of ``knowledge/lexicon/categories.yaml``: "肉类",
    "海鲜") and ``right`` lists the things of it ("肉类：羊排/羊腿肉，牛腩/牛肋条，
    或鸡肉"): then the label is no ingredient, the things are. A right side
    that is an amount ("肉：500g") or a remark ("肉类：用筷子按压，硬挺为全熟")
    keeps the left side as the name."""
    if not categories.labelled(left.strip(), "ingredients"):
        return False
    parts = _label_parts(_PAREN.sub("", right).strip(" 。.；;"))
    # a list ("羊排/羊腿肉，牛腩/牛肋条"): one phrase after a label may be a remark ("大米：按上述说明准备")
    return len(parts) > 1 and all(p and plausible_name(clean_name(p, "ingredient")) and p == clean_name(p, "ingredient")
                               and not _SENTENCE_WORD.search(simplified(p)) and not is_measure(p) for p in parts)


def choice_line(text: str) -> str:
    """A Chinese list of names whose last part starts with "或(者)" ("羊排/羊腿肉，
    牛腩/牛肋条，或鸡肉") offers one of them: the whole list as one slash choice
    ("羊排/羊腿肉/牛腩/牛肋条/鸡肉"), so each other name stands in for the
    first. Any other text is returned unchanged."""
    parts = split_top(text.strip().rstrip("。."), "、，,；;")
    if len(parts) < 2 or not _CHOICE_LEAD.match(parts[-1].strip()):
        return text
    return "/".join(_CHOICE_LEAD.sub("", p).strip() for p in parts)


def _slash_head(sides: list[str]) -> str:
    """The first of two English names written tight around a slash, taking the
    head the second ends with when it is a form or a kind of ``names.yaml``
    (``forms_en``, ``shared_heads_en``) and the first is one word: "salt/pepper
    rim" → salt rim, "palm/veg oil" → palm oil; "milk/cream" keeps milk."""
    a = sides[0]
    if len(sides) != 2 or a != a.rstrip() or sides[1] != sides[1].lstrip():
        return a
    ca, cb = clean_name(a, "ingredient").split(), clean_name(sides[1], "ingredient").split()
    if len(ca) != 1 or len(cb) != 2 or not (cb[-1] in _FORMS_EN or cb[-1] in _SHARED_HEADS_EN):
        return a
    return f"{a} {sides[1].split()[-1]}"


def _own_notes_or(text: str) -> list[ItemParse] | None:
    """An English "X (note) or Y (note)" item whose second note marks Y alone
    optional ("Lemon zest (express) or cherry (optional)"): X with Y as its
    alternative, and Y once more as an optional item of its own; ``None`` for
    any other item (a note after both sides is about the choice)."""
    m = _OWN_NOTES_OR_EN.match(text) if not has_cjk(text) else None
    if not m or not _OPT_CLAUSE.search(m.group("yn")) or _OPT_CLAUSE.search(m.group("xn")):
        return None
    x = _parse_item(m.group("x"))
    y = _parse_item(m.group("y"))
    if len(x) != 1 or len(y) != 1 or not x[0].name or not y[0].name or x[0].alternatives or y[0].alternatives:
        return None
    xp, yp = x[0], y[0]
    x_optional, x_alts = note_clauses(m.group("xn"))
    xp.alternatives = [Alternative(yp.name, True), *x_alts]
    xp.optional = xp.optional or x_optional
    return [xp, ItemParse(yp.name, yp.amount, True, [], yp.kinds)]


def is_collective(name: str) -> bool:
    """True for an English name of a mixture ("assorted meats", "mixed nuts"):
    its "/" and "or" join parts (``collective_en`` of alternatives.yaml)."""
    return not has_cjk(name) and bool(_COLLECTIVE_EN.match(clean_name(name, "ingredient") or name.strip()))


def is_gloss(name: str, other: str) -> bool:
    """True when ``other`` only translates ``name`` into another language
    ("芝士粉 / parmesan cheese": one thing named twice, not an alternative):
    one side has no CJK character, and that side (or its trailing words, the
    head) is listed in the bilingual lexicon with a Chinese name that occurs
    in the CJK side. "白兰地/Cognac" stays an alternative (干邑 ≠ 白兰地)."""
    a, b = name.strip(), other.strip()
    if has_cjk(a) == has_cjk(b) or not a or not b:
        return False
    zh, latin = (a, b) if has_cjk(a) else (b, a)
    zh = simplified(zh)
    toks = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", latin.casefold())
    for i in range(len(toks)):
        for eq in bilingual.equivalents(" ".join(toks[i:]), ("ingredient", "tool")):
            if has_cjk(eq) and simplified(eq) in zh:
                return True
    return False


def slash_split(text: str) -> list[str]:
    """``text`` split at a top-level "/" that is not a fraction or a ratio
    ("1/2 cup" stays whole; "cooked/canned beans" splits)."""
    bits = split_top(text, "/")
    out: list[str] = []
    for b in bits:
        if out and re.search(r"\d\s*$", out[-1]) and re.match(r"\s*\d", b):
            out[-1] = f"{out[-1]}/{b}"
        else:
            out.append(b)
    return out


def _listed_thing(part: str) -> bool:
    """True when one comma part of an English "A, B, C or D" item names a thing
    outright: one or two plain words, at least one not a qualifier
    (``modifiers`` of cues.yaml), none a participle ("diced", "sliced")."""
    w = part.strip().split()
    if not 1 <= len(w) <= 2 or not all(re.fullmatch(r"[A-Za-z][a-z-]*", t) for t in w):
        return False
    if any(t.casefold().endswith("ed") or t.casefold() in _METHOD_EN for t in w):
        return False
    return any(t.casefold() not in _MODIFIERS for t in w)


def _share_heads(name: str, alts: list[Alternative]) -> tuple[str, list[Alternative]]:
    """English names that share their head noun: "cooked/canned garbanzo beans"
    → cooked garbanzo beans / canned garbanzo beans, "French or Italian bread"
    → French bread / Italian bread, "creamy peanut butter (or chunky)" →
    chunky peanut butter; "spinach or ugu/pumpkin leaves" gives one
    alternative per slash-separated name."""
    out: list[Alternative] = []
    for a in alts:
        raw = a.raw.strip().rstrip("*")
        parts = slash_split(raw) if not has_cjk(raw) else [raw]
        if len(parts) > 1 and any(is_measure(p) for p in parts):
            parts = [raw]
        for p in parts:
            out.append(Alternative(complete_name(p.replace("*", ""), name), a.symmetric, a.condition))
    if out and not has_cjk(name):
        x = name.replace("*", "")
        listed = [p.strip() for p in x.split(",")]
        if len(listed) > 1 and all(p and all(w.casefold() in _MODIFIERS and not w.casefold().endswith("ed")
                                             for w in p.split()) for p in listed[1:]):
            # "green, yellow or orange pepper"; not "ricotta salata, grated (alternatively …)": a participle
            # after the comma is a preparation of the item
            tail = head_noun(out[0].raw.split(",")[0])  # "green, yellow or orange pepper": three peppers
            if tail:
                out = [Alternative(f"{p} {tail}", True) for p in listed[1:]] + out
                x = listed[0]
        elif len(listed) > 1 and len(out) == 1 and out[0].symmetric and all(_listed_thing(p) for p in [*listed, out[0].raw]):
            # "poultry stock, chicken broth, vegetable stock or vegetable broth": one of four things, each a name
            # of its own (two words at most and a head noun each); a participle or a note after a comma
            # ("onion, diced", "beef, thinly sliced") is no name
            out = [Alternative(p, True) for p in listed[1:]] + out
            x = listed[0]
        words_ = x.split()
        if words_ and words_[-1].casefold() in _MODIFIERS and "," not in x:
            other = out[0].raw.split(",")[0].split()
            # "light or dark brown sugar" ("packed light or dark brown sugar"): a trailing qualifier takes the
            # other side's words after its own qualifier
            # ("fresh or dried oregano" → fresh oregano); "natural or unsweetened soy yogurt" → natural yogurt:
            # only a qualifier after the other side's own keeps its words ("dark brown sugar" → brown sugar)
            tail = (" ".join(other[1:]) if len(other) > 2 and other[0].casefold() in _MODIFIERS
                    and other[1].casefold() in _MODIFIERS else head_noun(out[0].raw.split(",")[0]))
            if tail:
                x = f"{x} {tail}"
        name = x
        name, out = _share_form(name, out)
    return name, out


_FORMS_EN = frozenset(words("names", "forms_en"))


_SHARED_HEADS_EN = frozenset(words("names", "shared_heads_en")) | frozenset(words("names", "shared_heads_liquids_en"))
_FORM_BEARERS_EN = frozenset(words("names", "form_bearers_en"))


def form_completed(name: str, alts: list[Alternative], known, alone: frozenset[str] | None = None,
                   bare=None) -> str:
    """The name a bare first side of an English "A or B <head>" stands for:
    "A <form>" when the corpus knows it (``known``: a cleaned name → bool;
    ``forms_en``): "fresh lemon or lime juice" → "lemon juice", "Lemon or
    lime twist" → "lemon twist"; or "A <head>" for the head of a kind
    (``shared_heads_en``) when A is never listed alone in the corpus
    (``alone``: the cleaned names of items without alternatives; ``None``
    when not known, then no head is shared) nor named bare elsewhere in its
    document (``bare(name, head)``: "Dry-fry cornmeal until fragrant" keeps
    "cornmeal or millet flour" from meaning cornmeal flour): "canola
    or sunflower seed oil" → "canola oil", "brown teff or amaranth flour" →
    "brown teff flour"; or "A <form>" when A is a fruit of ``form_bearers_en``
    ("lime or lemon juice" → "lime juice"). ``name`` itself otherwise ("water or orange juice",
    "salt or lemon juice", "honey or maple syrup")."""
    if has_cjk(name) or not alts:
        return name
    c = clean_name(name, "ingredient")
    yw = clean_name(alts[0].raw, "ingredient").split()
    if not c or len(yw) < 2 or c.split()[-1] == yw[-1] or c.split()[-1] in _FORMS_EN:
        return name
    cand = f"{c} {yw[-1]}"
    if yw[-1] in _FORMS_EN and (known(cand) or c in _FORM_BEARERS_EN):
        return cand
    core = [w for w in c.split() if w not in _MODIFIERS]
    if alone is not None and yw[-1] in _SHARED_HEADS_EN and len(core) == 1 and 2 <= len(yw) <= 3 and c not in alone \
            and yw[0] not in _MODIFIERS and not (bare is not None and bare(c, yw[-1])):
        # one word of its own ("canola", "brown teff") against "<word> <head>" ("sunflower oil", "amaranth flour")
        return cand
    return name


def _share_form(name: str, alts: list[Alternative]) -> tuple[str, list[Alternative]]:
    """A bare form word after an English "A or" takes A's leading words
    (``forms_en`` of names.yaml): "Orange twist or wedge" → Orange wedge,
    "Orange twist or wheel" → Orange wheel. The other way round ("lime or
    lemon juice") needs the corpus vocabulary: see
    :func:`form_completed` (``water or orange juice`` is not "water juice")."""
    if not name.split() or not alts:
        return name, alts
    sides = share_form_sides([name, *(a.raw for a in alts)])
    return name, [Alternative(r, a.symmetric, a.condition) for r, a in zip(sides[1:], alts)]


def share_form_sides(sides: list[str]) -> list[str]:
    """English alternatives as written, each bare form word after the first
    side taking that side's leading words (``forms_en`` of names.yaml):
    ["Orange twist", "wedge"] → ["Orange twist", "Orange wedge"], ["chicken
    drumsticks", "quarters"] → ["chicken drumsticks", "chicken quarters"]."""
    if not sides or has_cjk(sides[0]):
        return list(sides)
    xw = sides[0].split()
    if len(xw) < 2 or xw[-1].casefold() not in _FORMS_EN:
        return list(sides)
    return [sides[0]] + [" ".join([*xw[:-1], y.strip()]) if len(y.split()) == 1 and y.strip().casefold() in _FORMS_EN
                         else y for y in sides[1:]]


