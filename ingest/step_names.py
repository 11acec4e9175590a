"""The things a cooking step names, for a recipe written as steps alone (it has no
ingredient list): the subject of a preparation verb ("青蒜切小块", "虾去壳") and the object
of an adding verb ("放入一杯米酒"). The verbs, stops, counts and cuts are data in
``lexicon/steps.yaml``."""

from __future__ import annotations

import re

from ..knowledge.text import has_cjk, simplified
from .cues import alternation
from .items import PROSE_VERB, STEP_VERB, is_measure, is_method, looks_like_step, plausible_name

_PREP = re.compile(alternation("steps", "prep_verbs"))
_ADD = re.compile(rf"(?<![一了增参附追])(?:{alternation('steps', 'add_verbs')})")  # not 一下/增加/参加
_ADD_STOP = re.compile(rf"(?:{alternation('steps', 'add_object_stops')})|[里中上在就的]")
_QTY = alternation("steps", "step_quantity")
_QTY_EDGE = re.compile(rf"^(?:{_QTY})+|(?:{_QTY})+$")
_CLAUSE = re.compile(r"[，,；;。！？!?：:]")
_PARENS = re.compile(r"（[^（）]{0,40}）|\([^()]{0,40}\)")
_LEAD = re.compile(r"^(?:\d+\s*[.、)）]\s*)?(?:将|把|再|先|然后|取|另|用|准备|最后|之后|同时)?")
_NAME_OR = re.compile(r"或者|或|/|／|和|、|\+")
_PAREN_TAIL = re.compile(rf"(?:{alternation('steps', 'paren_list_tail')})$")


def _step_name(phrase: str) -> list[str]:
    """The names a phrase of a step holds once counts, parentheses and
    openings are cut ("一小块牛肉" → 牛肉, "蘑菇或香菇" → 蘑菇, 香菇)."""
    out = []
    for part in _NAME_OR.split(_PARENS.sub("", phrase)):
        if len(part) > 40:
            continue  # a clause, not a name (and keeps the edge cuts linear)
        n = _QTY_EDGE.sub("", _LEAD.sub("", part.strip())).strip()
        n = _QTY_EDGE.sub("", n).strip()
        if (2 <= len(n) <= 6 and has_cjk(n) and plausible_name(n) and not looks_like_step(n)
                and not is_measure(n) and not is_method(n) and not PROSE_VERB.search(simplified(n)) and not n.endswith(("不", "要", "可"))):
            out.append(n)
    return out


def step_names(text: str) -> list[str]:
    """The things a cooking step names: the subject of a preparation verb
    ("青蒜切小块", "虾去壳") and the object of an adding verb ("放入一杯米酒"),
    verbs and cuts from ``lexicon/steps.yaml``; used for a recipe written as
    steps alone, which has no ingredient list. Traditional script is read
    through its simplified form (the lexicon is written once, in simplified
    characters) and each name is given back as written."""
    plain = simplified(text)
    if plain != text:
        written = []
        for n in _step_names(plain):
            at = plain.find(n)
            written.append(text[at:at + len(n)] if at >= 0 else n)
        return list(dict.fromkeys(written))
    return _step_names(text)


def _step_names(text: str) -> list[str]:
    out: list[str] = []
    adding = False  # an adding verb opened a run of things: "加一勺白糖，盐少许，八角两个，生抽"
    for clause in re.split(r"([，,；;。！？!?：:])", text[:400]):
        if clause in "，,":
            continue
        if _CLAUSE.fullmatch(clause):
            adding = False  # a sentence or a list ends
            continue
        clause = clause.strip()
        if not clause:
            continue
        if adding and not _ADD.search(clause) and not _PREP.search(clause):
            stop = _ADD_STOP.search(_PARENS.sub(lambda m: "＿" * len(m.group(0)), clause), 1)  # not in a note
            run = _step_name(clause[:stop.start()] if stop else clause)
            if run:
                out += run  # a thing the verb still governs, its amount after it
                continue
            if len(clause) == 1 and has_cjk(clause):
                continue  # "鹽": a one-character thing keeps the run going
            adding = False
        m = _PREP.search(clause)
        if m and m.start() > 0:
            out += _step_name(clause[:m.start()])
        for pm in _PARENS.finditer(clause):  # "配菜（生菜、油菜均可）": a list of alternatives
            inner = _PAREN_TAIL.sub("", pm.group()[1:-1].strip())
            if _NAME_OR.search(inner):
                out += _step_name(inner)
        for a in _ADD.finditer(clause):
            adding = True
            rest = _QTY_EDGE.sub("", re.split(r"[（(]", clause[a.end():a.end() + 16])[0].strip())
            de = rest.find("的")
            if 0 <= de <= 6:
                rest = rest[de + 1:]  # "放入配色的青红椒": the name follows its modifier
            stop = _ADD_STOP.search(rest, 1)
            out += _step_name(rest[:stop.start()] if stop else rest)
    return list(dict.fromkeys(out))


_OR = re.compile(r"或者|或是|或|/|／")


def step_objects(phrase: str) -> list[str]:
    """The things that open the words after "或" in a cooking step, each cut where the step goes on
    (at a stop word of ``add_object_stops`` or a step verb: "香肠至出油" → 香肠, "青菜碎煮开" → 青菜碎,
    "葱出锅" → 葱) and without a count ("少量姜片" → 姜片); a further "或" offers one more ("土豆或红薯" →
    土豆, 红薯). Traditional script is read through its simplified form and given back as written.
    ``[]`` when nothing name-like is left."""
    out: list[str] = []
    plain = simplified(phrase)
    at = 0
    for part in _OR.split(plain):
        start = plain.find(part, at)
        at = start + len(part)
        p = _PARENS.sub(lambda m: "＿" * len(m.group(0)), part)
        cut = len(p)
        for rx in (_ADD_STOP, STEP_VERB):
            m = rx.search(p, 1)
            if m and m.start() < cut:
                cut = m.start()
        head = p[:cut]
        q = _QTY_EDGE.match(head)
        lead = q.end() if q else 0
        name = head[lead:].rstrip("＿ ").strip()
        if name and has_cjk(name) and "＿" not in name and len(name) <= 8:
            s0 = start + lead + (len(head[lead:]) - len(head[lead:].lstrip()))
            out.append(phrase[s0:s0 + len(name)])
    return out


_NAME_BREAK = re.compile(rf"(?:{alternation('steps', 'add_verbs')}|{alternation('steps', 'method_chars_zh')}"
                         rf"|{alternation('steps', 'prep_verbs')}|[用和与及跟把将在从给配、，,；;。：:（）()\s])")


def name_before(phrase: str) -> str:
    """The whole name that ends ``phrase`` (a Chinese step phrase that stops at a thing): the words
    after the last verb, method character, connector or punctuation, without a count ("…炒 <modifier><name>"
    → <modifier><name>, "加两勺 X" → X); ``""`` when nothing name-like of two to six characters is left.
    Traditional script is read through its simplified form and given back as written."""
    plain = simplified(phrase.rstrip())
    last = None
    for m in _NAME_BREAK.finditer(plain):
        last = m
    start = last.end() if last else 0
    q = _QTY_EDGE.match(plain[start:])
    if q:
        start += q.end()
    tail = plain[start:]
    if not (2 <= len(tail) <= 6 and has_cjk(tail) and plausible_name(tail) and not looks_like_step(tail)
            and not is_measure(tail) and not is_method(tail)):
        return ""
    return phrase.rstrip()[start:]
