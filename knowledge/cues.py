"""The sentence reader: relation cues in one sentence, from language data.

A *cue* is a construction of a language that states a relation between two
things the sentence names: Y instead of X (``substitute``), Y acting for X when
X is unavailable (``standin``: a role or a system), X may be left out
(``optional``). The constructions are data (``knowledge/lexicon/cues.yaml``),
one regular expression per construction with slots ``x`` and ``y``; nothing
here knows a dish, a role or a document.

:func:`read` returns every cue of a sentence with its raw slot texts cut to
the phrase nearest the cue (:func:`cut_phrase`). Whether a slot names
something the document knows (anchoring) is decided by the caller: ingest
links X to the document's own names, the bot's passage reader to the
question's entity. Both scripts' rules run on every sentence, so mixed text
("花椒 or 麻椒") is read too.

Regexes are bounded (every slot has a length cap, no nested quantifier, and
no two adjacent repeats that can split one run two ways), so a sentence of any
length is read in linear time per rule; the condition and ratio of a sentence
are searched once per sentence, not once per cue (benchmarks/adversarial.py).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from .text import CJK_CLASS, has_cjk, lexicon, simplified, unit_dots_blanked

KINDS = ("substitute", "standin", "optional")


@dataclass(frozen=True, slots=True)
class Cue:
    """One relation cue in a sentence.

    ``kind`` is one of :data:`KINDS`; ``rule`` the rule id of cues.yaml;
    ``x``/``y`` the slot phrases (``x == ""`` with ``focus`` true: X is the item
    the sentence is about, given by the caller; ``y == ""`` for ``optional``);
    ``start``/``end`` the matched span in the sentence (characters);
    ``confidence`` in [0, 1]; ``cond`` the condition stated with it ("if X is
    down"), ``ratio`` an amount relation ("等重", "the same amount");
    ``head`` the phrase before the parenthesis the cue was read in (the
    thing the note is about), ``""`` outside parentheses."""

    kind: str
    rule: str
    x: str
    y: str
    start: int
    end: int
    confidence: float
    focus: bool = False
    item_only: bool = False
    head: str = ""
    cond: str = ""
    ratio: str = ""


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: str
    id: str
    rx: re.Pattern
    conf: float
    focus: bool
    item_only: bool
    clause_y: bool
    lang: str = ""
    after: re.Pattern | None = None
    note_only: bool = False
    trim: tuple[tuple[str, str], ...] = ()
    y_head: bool = False
    y_list: bool = False
    x_head: bool = False


def _expand(pattern: str, macros: dict[str, str]) -> str:
    for _ in range(3):  # macros may use macros
        for k, v in macros.items():
            pattern = pattern.replace("{" + k + "}", v)
    return pattern


@functools.lru_cache(maxsize=1)
def rules() -> tuple[_Rule, ...]:
    """Every rule of ``lexicon/cues.yaml``, compiled (case-insensitive).
    Raises ``re.error`` naming the rule id when a pattern does not compile."""
    data = lexicon("cues")
    out = []
    for kind in KINDS:
        for lang, items in (data.get(kind) or {}).items():
            macros = data["macros"][lang]
            for r in items:
                try:
                    rx = re.compile(_expand(r["re"], macros), re.I)
                except re.error as exc:
                    raise re.error(f"cue rule {r['id']}: {exc}") from None
                after = re.compile(f"(?:{_expand(r['after'], macros)})\\s*$", re.I) if r.get("after") else None
                trim = tuple(sorted((r.get("trim") or {}).items()))
                out.append(_Rule(kind, r["id"], rx, float(r.get("conf", 0.8)), r.get("x") == "focus",
                                 r.get("scope") == "item", r.get("y") == "clause", lang, after,
                                 r.get("scope") == "note", trim, r.get("y") == "head", r.get("y") == "list",
                                 r.get("x") == "head"))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def _words() -> dict:
    data = lexicon("cues")
    return {
        "edges": {lang: {w.casefold() for w in ws} for lang, ws in data["edges"].items()},
        "stops": data["stops"],
        "not_names": {lang: {w.casefold() for w in ws} for lang, ws in data["not_names"].items()},
        "keep_edge_before": {w.casefold() for w in data.get("keep_edge_before", {}).get("en", [])},
        "pronoun_leads": {w.casefold() for w in data.get("pronoun_leads", {}).get("en", [])},
        "ratios": [r for lang in ("zh", "en") for r in data["ratios"][lang]],
        "procedure": {lang: {w.casefold() for w in (ws or [])} for lang, ws in (data.get("procedure_starts") or {}).items()},
        "article_joins": {w.casefold() for w in data.get("article_joins", [])},
        "articles": {w.casefold() for w in data.get("articles", [])},
        "negative_lead": [re.compile(p, re.I) for p in (data.get("negative_lead") or {}).values()],
    }


#: Rules reading an alternative from a bare "or" ("X or Y", "…, or Y", "X (or Y)"): a sentence led by a
#: negative imperative lists what not to do, so they read nothing there.
_OR_RULE = re.compile(r"(?:^|[._])(?:x_can_be_y|x_or_y\w*|or_y\w*)$")


def _negative_lead(sentence: str) -> bool:
    """Whether ``sentence`` starts with a negative imperative ("Do not …", "不要…")."""
    return any(rx.search(sentence) for rx in _words()["negative_lead"])


def _last_noun_phrase(s: str) -> str:
    """The last noun phrase of an English slot read before its cue: from an
    internal article (``articles``) that follows a word not in ``article_joins``
    ("small outage the backup" → "the backup"; "lead of the other team" stays)."""
    toks = s.split()
    joins, articles = _words()["article_joins"], _words()["articles"]
    for i in range(len(toks) - 1, 0, -1):
        if toks[i].casefold() in articles and toks[i - 1].casefold().strip(",") not in joins:
            return " ".join(toks[i:])
    return s


@functools.lru_cache(maxsize=1)
def _made_from() -> re.Pattern:
    return re.compile(r"^\s*(?:" + "|".join(lexicon("cues").get("made_from", {}).get("en") or ["(?!)"]) + r")\s+", re.I)


@functools.lru_cache(maxsize=1)
def _amount_scope() -> re.Pattern:
    return re.compile((lexicon("cues").get("amount_scope") or {}).get("en", "(?!)"), re.I)


def _action_note(note: str) -> bool:
    """True when a parenthesised English ``note`` starts with an action ("flame overproof rum if desired",
    "or serve up if preferred", "leaving them slightly chunky if desired"; ``action_note_starts`` and
    ``procedure_starts`` of cues.yaml, or a gerund): an optional marker in it is about the action."""
    w = re.findall(r"[a-z]+", note.casefold())
    if w and w[0] == "or":
        w = w[1:]
    if not w or has_cjk(note):
        return False
    starts = {x.casefold() for x in (lexicon("cues").get("action_note_starts") or {}).get("en") or []}
    return w[0] in starts or w[0] in _words()["procedure"].get("en", set()) or (
        w[0].endswith("ing") and len(w[0]) > 5 and w[0] != "using")


def _keeps_thing(marker: str) -> bool:
    """True when an optional ``marker`` names a thing even in an action note ("if using")."""
    keeps = (lexicon("cues").get("action_note_keeps") or {}).get("en") or []
    return any(k.casefold() in marker.casefold() for k in keeps)


def amount_scoped(before: str) -> bool:
    """True when the text right before an optional cue or the thing it names
    ends in an amount word ("or more", "extra"): the cue is about an extra
    amount, not the item (``amount_scope`` of cues.yaml)."""
    return bool(_amount_scope().search(before))


_ZH_AMOUNT_ENTRY = re.compile(r"[^\W\d_]{1,6}\s*(?:\d+(?:\.\d+)?\s*[^\W\d_]{0,2}\s*[、，,；;]|、)")
"""An earlier entry of a list after an optional marker: a name and its amount ("可选：X 4g、Y 1.5g")
or a name before an enumeration comma ("根据口味添加 X、Y")."""


def optional_lead(gap: str, zh: bool = False) -> bool:
    """True when ``gap`` (the words between an optional marker and the name
    after it) only leads to the name ("If using", "可选：加入"), not a step
    ("roll in", "可选：去掉"). With ``zh`` (a Chinese sentence, no spaces between
    words) the gap is read against the ``zh`` words of ``optional_lead``: after
    its punctuation, those words and the earlier entries of a list ("X 4g、",
    "X、") are removed, nothing may remain."""
    lead = lexicon("cues").get("optional_lead") or {}
    if zh:
        rest = _ZH_AMOUNT_ENTRY.sub("", gap)
        rest = re.sub(r"[\W_]+", "", rest)
        for w in sorted(lead.get("zh") or [], key=len, reverse=True):
            rest = rest.replace(w, "")
        return not rest
    allowed = {w.casefold() for w in lead.get("en") or []}
    return all(w.casefold().strip("–—-") in allowed for w in gap.split() if w.strip("–—-"))


def amount_scoped_x(x: str) -> bool:
    """True when an X slot starts with an extra amount ("1 to 2 tbsps more
    water", "more salt"): the amount is optional, not the item."""
    return bool(_amount_scope_x().match(x))


@functools.lru_cache(maxsize=1)
def _amount_scope_x() -> re.Pattern:
    return re.compile((lexicon("cues").get("amount_scope") or {}).get("x_en", "(?!)"), re.I)


@functools.lru_cache(maxsize=1)
def _added_to() -> re.Pattern:
    d = lexicon("cues").get("added_to") or {}
    return re.compile(d.get("en", "(?!)").replace("{AMT}", d.get("amount", "")), re.I)


def thing_of(y: str) -> str:
    """A Y phrase as a thing: "make with ehuru" → "ehuru" (what to make it
    from, ``made_from``; ``""`` when it lists several components, "make with
    cumin, coriander, chili": what a homemade one is made of, none a stand-in); "add lemon juice or vinegar to 1 cup milk" →
    "milk with lemon juice or milk with vinegar" (``added_to``); ``""`` when it starts with another step verb ("add
    lemon juice to milk": a way to make something, not a thing,
    ``procedure_starts`` of cues.yaml); else ``y`` unchanged."""
    m = _made_from().match(y)
    if m:
        rest = y[m.end():].strip()
        # "make with cumin, coriander, etc.": the components of a homemade one, not a stand-in
        return "" if re.search(r",|\band\b|\betc\b", rest) else rest
    t = _trim_edges(y, "en") if not has_cjk(y) else y  # "simply add …"
    m = _added_to().match(t)
    if m:
        c = m.group("c").strip()
        return " or ".join(f"{c} with {a}" for a in split_alternatives(m.group("a")))
    w = t.split()
    if w and w[0].casefold().strip(",.") in _words()["procedure"].get("en", set()):
        return ""
    return y


def is_procedure(y: str) -> bool:
    """True when a Y phrase is a step, not a thing (see :func:`thing_of`)."""
    return not thing_of(y)


_CLAUSE = re.compile(r"[，,；;。!！?？:：]|\.(?=\s|$)")
_COND = re.compile(r"(?:^|\b)(?:if|when|while|in case|unless)\b[^,.;]{1,80}|(?:如果|若|要是|没有)[^，,。；;]{1,20}", re.I)


def cut_phrase(text: str, side: str) -> str:
    """Cut a raw slot to the phrase nearest the cue: for ``side="x"`` (the slot
    before the cue) the last clause and what follows the last stop phrase; for
    ``side="y"`` the first clause up to the first stop phrase. Edge words
    ("the", "some", "的", "适量"…) are trimmed. Returns ``""`` when nothing
    name-like is left (a pronoun, a vague word)."""
    s = " " + re.sub(r"\s+", " ", text).strip() + " "
    lang = "zh" if has_cjk(s) else "en"
    words = _words()
    parts = [p for p in _CLAUSE.split(s) if p.strip()]
    if not parts:
        return ""
    s = " " + (parts[-1] if side == "x" else parts[0]).strip() + " "
    stops = words["stops"]["en"] + (words["stops"]["zh"] if lang == "zh" else [])
    low = s.casefold()
    if side == "y":
        cut = min((i for i in (low.find(st.casefold(), 1) for st in stops) if i > 0), default=len(s))
        s = s[:cut]
    else:
        best = 0
        for st in stops:
            i = low.rfind(st.casefold())
            if i >= 0 and i + len(st) < len(s) - 1:
                best = max(best, i + len(st))
        s = s[best:]
        if lang == "en":
            s = " " + _last_noun_phrase(s.strip()) + " "
    s = s.strip(" \t\"'“”‘’`*_-—–·•:：")
    if lang == "en" and s.casefold().startswith(tuple(lexicon("cues")["vague_leads"]["en"])):
        return ""  # "Any brand of egg noodles will work": the thing itself, in any kind
    s = _trim_edges(s, lang)
    if lang == "en" and s and s.split()[0].casefold().replace("’", "'") in words["pronoun_leads"]:
        return ""  # "They're useful …": a clause about something else, not a name
    if not s or s.casefold() in words["not_names"]["en"] or s in words["not_names"]["zh"]:
        return ""
    return s


@functools.lru_cache(maxsize=1)
def _np() -> dict:
    d = (lexicon("cues").get("np_trim") or {}).get("en") or {}
    def alt(key: str) -> re.Pattern:
        ws = sorted(d.get(key) or [], key=len, reverse=True)
        return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in ws) + r")\b" if ws else r"(?!)", re.I)
    return {
        "leads": alt("leads"),
        "lead_start": re.compile(r"^(?:(?:" + "|".join(sorted((re.escape(w) for w in d.get("leads") or []), key=len, reverse=True))
                                 + r")\b\s*)+" if d.get("leads") else r"(?!)", re.I),
        # a gerund, with its particle ("filling out"), or alone when it is no noun in -ing ("a string")
        "gerund": re.compile(r"^(?:[a-z][a-z/-]{2,}ing\s+(?:" + "|".join(d.get("particles") or ["up"]) + r")\b|(?!(?:"
                             + "|".join(d.get("not_gerunds") or ["(?!)"]) + r")\b)[a-z][a-z/-]{2,}ing\b)\s+(?=\S)", re.I),
        "dets": re.compile(r"^(?:(?:" + "|".join(re.escape(w) for w in d.get("determiners") or []) + r")\s+)+", re.I),
        "ends": re.compile("|".join(d.get("ends") or ["(?!)"]), re.I),
        "clause": re.compile("|".join(d.get("clause_words") or ["(?!)"]), re.I),
        "max": int(d.get("max_words", 6)),
        "vague": frozenset(w.casefold() for w in d.get("vague_leads") or []),
        "adverbs": re.compile(r"(?:\s+(?:" + "|".join(d.get("trailing_adverbs") or ["(?!)"]) + r"))+$", re.I),
    }


_SPACED = re.compile(r"\s+")


def noun_phrase(text: str, side: str) -> str:
    """The short noun phrase of an English slot, trimmed by word lists (``np_trim`` of cues.yaml), no
    POS tagger: for ``side="before"`` (a slot that ends where its cue starts: "use Y rather than …") the
    phrase after the last lead word of the last clause (a verb of use or choice, "as", "using": "consider
    using web access to the portal" → "web access to the portal"); for ``side="after"`` (a slot that starts
    after its cue: "… rather than X") the first clause without its leading verbs, gerund and
    determiners ("reusing any keys from your old laptop for the new one" → "keys from your old laptop";
    a gerund phrase short enough is kept whole: "patching the whole cluster"), cut before the first ``ends`` mark ("fresh keys and storing them" → "fresh
    keys"). Returns ``""`` when what is left is not a short noun phrase: more than ``max_words``
    words, a clause word inside (an auxiliary, a relative pronoun, "to" before a lower-case word: "and
    to run jobs"), a pronoun or a vague word (``not_names``)."""
    d = _np()
    s = re.sub(r"\s+", " ", text).strip()
    parts = [p for p in _CLAUSE.split(s) if p.strip()]
    if not parts:
        return ""
    if side == "before":
        s = parts[-1].strip()
        leads = list(d["leads"].finditer(s))
        if leads:
            s = s[leads[-1].end():]
    else:
        s = parts[0].strip()
        for _ in range(3):
            t = d["lead_start"].sub("", s)
            u = " " + d["dets"].sub("", t) + " "
            e = d["ends"].search(u)
            if len((u[:e.start()] if e else u).split()) > d["max"]:
                t = d["gerund"].sub("", t)  # "patching the whole cluster" is kept whole; a longer one loses its gerund
            if t == s:
                break
            s = t
    s = d["dets"].sub("", s.strip())
    e = d["ends"].search(" " + s + " ") if side != "before" else None
    if e:
        s = (" " + s + " ")[:e.start()]
    # a name before its cue keeps a flag's leading "-" ("the -q flag"); one after it is read as a name ("--quiet")
    s = s.lstrip(" \t\"'“”‘’`*_—–·•:：" if side == "before" else " \t\"'“”‘’`*_-—–·•:：").rstrip(" \t\"'“”‘’`*_-—–·•:：")
    s = d["dets"].sub("", s).strip()
    s = d["adverbs"].sub("", s) if side != "before" else s  # "… the details publicly"
    s = re.sub(r"(?:\s+(?:and|or|but|with|of|to|for|as|then))+$", "", s, flags=re.I)  # "… the wiki and then linked"
    toks = s.split()
    if not toks or len(toks) > d["max"] or d["clause"].search(" " + s + " "):
        return ""
    if toks[0].casefold().replace("’", "'") in _words()["pronoun_leads"] or s.casefold() in _words()["not_names"]["en"]:
        return ""
    if toks[0].casefold() in d["vague"]:
        return ""  # "any other ways": no thing named
    if re.search(r"(?-i:\bto [a-z])", s):
        return ""  # "main platform and to run jobs": a verb phrase, not a name
    return s


def _acronym(tok: str) -> bool:
    """True for a word written in capitals, two letters or more ("IT" in "IT security officer"): an
    abbreviation, never the edge word it spells in lower case ("it")."""
    t = tok.strip(",.")
    return len(t) >= 2 and t.isalpha() and t.isupper()


def known_word(s: str) -> bool:
    """True when ``s`` is a name of the bilingual lexicon (``knowledge/lexicon/bilingual.yaml``)."""
    from .bilingual import equivalents

    return bool(equivalents(s))


def _trim_edges(s: str, lang: str) -> str:
    edges = _words()["edges"]
    if s in edges["zh"] or s.casefold() in edges["en"]:
        return ""
    if re.search(f"[{CJK_CLASS}]", s):
        ch_edges = sorted(edges["zh"], key=len, reverse=True)
        changed = True
        # a name of the bilingual lexicon is a word: an edge character it starts or ends with is its own
        # (a lexicon word starting with a character that is also a modal keeps that character)
        while changed and s and not known_word(s):
            changed = False
            for e in ch_edges:
                if s.startswith(e) and len(s) > len(e):
                    s, changed = s[len(e):].strip(), True
                elif s.endswith(e) and len(s) > len(e):
                    s, changed = s[: -len(e)].strip(), True
    toks = s.split()
    keep = _words()["keep_edge_before"]
    while toks and toks[0].casefold().strip(",.") in edges["en"] and not _acronym(toks[0]) and not (
            len(toks) == 2 and toks[1].casefold().strip(",.") in keep and toks[0].casefold() not in ("a", "an", "the")):
        toks.pop(0)
    while toks and toks[-1].casefold().strip(",.") in edges["en"] and not _acronym(toks[-1]):
        toks.pop()
    return " ".join(toks).strip()


def _ratio(sentence: str) -> str:
    low = sentence.casefold()
    return next((r for r in _words()["ratios"] if r.casefold() in low), "")


_PAREN = re.compile(r"[(（\[【]([^()（）\[\]【】]{1,200})[)）\]】]")
_UNAVAILABLE_X = None


def cond_subject(cond: str) -> str:
    """The thing an unavailability condition says is down ("if Slack has an outage" → "Slack"),
    ``""`` when ``cond`` is not such a condition."""
    return _cond_x(cond)


def _cond_x(cond: str) -> str:
    """X named by an unavailability condition ("if Slack has an outage" → "Slack")."""
    global _UNAVAILABLE_X
    if _UNAVAILABLE_X is None:
        macros = lexicon("cues")["macros"]["en"]
        _UNAVAILABLE_X = re.compile(_expand(r"(?:if|when|while|should|in case) (?:the |our |your |a )?{X} {BE_UNAVAILABLE}", macros), re.I)
    m = _UNAVAILABLE_X.search(cond)
    return cut_phrase(m.group("x"), "x") if m else ""


_TRAIL_PROPER = re.compile(r"((?:[A-Z][\w.\-]*\s+){0,4}[A-Z][\w.\-]*)\s*$")


def _head(before: str) -> str:
    """The thing a parenthesised note is about: the phrase just before the
    parenthesis — its trailing capitalized name in prose ("brief the Director
    (or …)" → "Director"), else the phrase cut as an X slot."""
    # the head is in the last clause, near the parenthesis: 200 characters are plenty and keep a
    # sentence with many parentheses linear
    seg = re.split(r"[，,；;。!！?？:：]|\.(?=\s|$)", before[-200:])[-1]
    m = _TRAIL_PROPER.search(seg)
    if m and len(seg.split()) > len(m.group(1).split()):
        return m.group(1).strip()
    return cut_phrase(seg, "x")


def _mask_parens(sentence: str) -> str:
    """``sentence`` with every parenthesised group blanked (same length), so
    "a backup CDN (see below) that …" reads as one clause."""
    return _PAREN.sub(lambda m: " " * len(m.group()), sentence)


@functools.lru_cache(maxsize=1)
def _triggers() -> dict[str, re.Pattern]:
    """kind → one compiled alternation of its cheap trigger fragments."""
    return {k: re.compile("|".join(v), re.I) for k, v in lexicon("cues")["triggers"].items()}


_LIST_SPLIT = re.compile(r",?\s+(?:and/or|or)\s+|,\s+", re.I)


def _match_all(text: str, offset: int, in_item: bool, head: str, in_note: bool = False) -> list[Cue]:
    out = []
    trig = _triggers()
    live = {k for k, rx in trig.items() if rx.search(text)}
    if not live:
        return out
    cond_m = _COND.search(text)  # the same for every cue of the text: searched once, not per match
    ratio = None
    for r in rules():
        if (r.item_only and not in_item) or (r.note_only and not in_note) or r.kind not in live:
            continue
        for m in r.rx.finditer(text):
            if r.lang == "zh" and not has_cjk(m.group()):
                continue  # a Chinese construction ("X or Y" too) reads only text with Chinese in it
            if r.after is not None and not r.after.search(text[max(0, m.start() - 40):m.start()]):
                continue  # the rule reads only after a given construction (its `after`, within 40 characters)
            gd = m.groupdict()
            xg = "x2" if gd.get("x2") else "x"  # a rule may offer X in two places (x, x2)
            raw_x, raw_y = gd.get(xg) or "", gd.get("y") or ""
            # a slot that ends the construction is cut from its start (the phrase
            # right after the cue), one before the cue from its end
            if r.trim:  # both slots cut by the noun-phrase trimmer, each from its side of the cue
                sides = dict(r.trim)
                x = noun_phrase(raw_x, sides.get("x", "after")) if raw_x.strip() else ""
                y = noun_phrase(raw_y, sides.get("y", "before")) if raw_y.strip() else ""
            elif r.y_list:  # Y lists people ("a manager, shift lead, or site lead"): each member cut on its own
                xs = [cut_phrase(part, "x") for part in _LIST_SPLIT.split(raw_x)] if raw_x.strip() else []
                x = " or ".join(xs) if xs and all(xs) else ""  # "If the CMO or the Bursar is unable …"
                parts = [cut_phrase(part, "y") for part in _LIST_SPLIT.split(raw_y)]
                if x and parts and all(parts) and x.casefold() not in {p.casefold() for p in parts}:
                    out.append(Cue(r.kind, r.id, x, " or ".join(parts), offset + m.start(), offset + m.end(), r.conf,
                                   cond=cond_m.group().strip() if cond_m else "", head=head))
                continue
            else:
                x = cut_phrase(raw_x, "y" if m.end(xg) == m.end() and m.start(xg) > m.start() else "x") if raw_x.strip() else ""
                y = cut_phrase(raw_y, "y" if m.end("y") == m.end() else "x") if raw_y.strip() else ""
            if r.y_head:  # "Y (which has replaced X)": Y is the phrase the note follows
                y = noun_phrase(head, "before") if head else ""
                if not y:
                    continue
            if r.x_head:  # "Slack (backup: Zoom)": X is the phrase the note follows
                x = noun_phrase(head, "before") if head else ""
                if not x:
                    continue
            if r.clause_y and raw_y:
                y = clause_actor(raw_y) or clause_object(raw_y) or y
            if gd.get("d") and x:  # "hand over to another IC": Y is X again, told apart by its determiner
                y = f"{gd['d'].casefold()} {x}"
            if r.kind == "optional" and (amount_scoped(text[max(0, m.start() - 40):m.start() + 1].rstrip("( ,"))
                                         or (raw_x and amount_scoped_x(text[m.start("x"):m.start("x") + 40]))):
                continue  # "(or more if you like it spicy)", "add 1 to 2 tbsps more water": an amount is optional
            cond = cond_m.group().strip() if cond_m and r.kind != "optional" else ""
            if r.kind != "optional":
                y = thing_of(y) if y else y
                if not y:
                    continue
                if not x and r.kind == "standin" and cond:
                    x = _cond_x(cond)
                if not x and not r.focus and raw_x.strip():
                    continue  # an X slot that names nothing usable
                if x and x.casefold() == y.casefold():
                    continue
            out.append(Cue(r.kind, r.id, x, y, offset + m.start(), offset + m.end(), r.conf, focus=not x,
                           item_only=r.item_only, head=head, cond=cond,
                           ratio=(ratio := _ratio(text) if ratio is None else ratio) if r.kind == "substitute" else ""))
    return out


@functools.lru_cache(maxsize=1)
def _modifiers() -> frozenset[str]:
    data = lexicon("cues")["modifiers"]
    return frozenset(w.casefold() for w in data["en"])


def complete_name(y: str, other: str) -> str:
    """An English alternative that only qualifies ("grated fresh") takes the
    last word of the name it stands beside (``other``: "ground ginger" →
    "grated fresh ginger"); any other ``y`` is returned unchanged."""
    words = y.split()
    mods = _modifiers()
    if words and other and not has_cjk(y) and all(w.casefold().strip(",.*") in mods for w in words):
        tail = head_noun(other)
        if tail:
            return f"{y} {tail}"
    return y


def head_noun(name: str) -> str:
    """The noun phrase a name's qualifiers stand before: ``name`` without its
    leading amounts and modifier words: the words after the last modifier or
    amount ("creamy peanut butter" → "peanut butter", "fresh ewedu leaves" →
    "ewedu leaves", "ground ginger" → "ginger"); its last word when more than
    three; ``""`` when it ends in a modifier."""
    mods = _modifiers()
    out: list[str] = []
    for w in reversed([w.strip(",.*") for w in name.split()]):
        if not w or w.casefold() in mods or not w.replace("-", "").replace("'", "").isalpha():
            break
        out.insert(0, w)
    if len(out) > 3:
        return out[-1]
    return " ".join(out)


def _complete(c: Cue) -> Cue:
    """Share the head noun between the two sides of a cue: "(or grated fresh)"
    after "ground ginger", "French or Italian bread"."""
    from dataclasses import replace

    y = complete_name(c.y, c.head or c.x) if c.y else c.y
    x = complete_name(c.x.split()[-1], c.y) if c.x and c.y and c.x.split()[-1].casefold() in _modifiers() else c.x
    if x != c.x and c.x.split()[-1] != x:
        x = " ".join(c.x.split()[:-1] + [x])
    return replace(c, x=x, y=y) if (x, y) != (c.x, c.y) else c


def read(sentence: str, *, in_item: bool = False) -> list[Cue]:
    """Every relation cue of ``sentence`` (str, one sentence or list item).

    Traditional Chinese is read through its simplified form (the rules are
    written once, in simplified characters): the cues are found in
    :func:`~.text.simplified` ``(sentence)`` and each slot is given back as
    written in ``sentence`` ("沒有高湯可以用水" → X 高湯, Y 水), as is an
    English slot that spans an abbreviated unit ("2 c. pitted cherries"). See
    :func:`_read` for what is read."""
    plain = unit_dots_blanked(simplified(sentence))  # "2 c. pitted cherries": the unit's stop ends no slot
    out = _read(plain, in_item=in_item)
    if plain == sentence or not out:
        return out
    from dataclasses import replace

    def back(v: str, lo: int, hi: int) -> str:
        if not v:
            return v
        i = plain.find(v, lo, hi)
        if i < 0:
            i = plain.find(v)
        return sentence[i:i + len(v)] if i >= 0 else v

    return [replace(c, x=back(c.x, c.start, c.end), y=back(c.y, c.start, c.end),
                    head=back(c.head, 0, c.start + 1), cond=back(c.cond, 0, len(plain))) for c in out]


def _read(sentence: str, *, in_item: bool = False) -> list[Cue]:
    """Every relation cue of ``sentence`` (str, one sentence or list item).

    The sentence is read with its parenthesised groups blanked, then each
    group is read on its own with X defaulting to the phrase just before the
    opening parenthesis ("butter (or margarine)", "X（可用 Y 代替）").
    ``in_item`` is true when the text is a list item (an ingredient line):
    then "X or Y" / "X 或 Y" rules apply too. Cues come in text order;
    overlapping cues stating the same relation keep the most confident one. A
    cue whose Y cuts to nothing is dropped; ``focus`` is true when X is left
    to the caller (the item the sentence is about)."""
    out = _match_all(_mask_parens(sentence), 0, in_item, "")
    if out and _negative_lead(sentence):
        out = [c for c in out if c.kind == "optional" or not _OR_RULE.search(c.rule)]
    for m in _PAREN.finditer(sentence):
        head = _head(sentence[: m.start()])
        inner = m.group(1)
        found = _match_all(inner, m.start(1), False, head, in_note=True)
        shared = _mid_name_head(sentence, m) if in_item and found else ""
        if shared:  # "canned (or fresh) tomatoes": Y is "fresh tomatoes"
            found = [replace(c, y=f"{c.y} {shared}") if c.kind == "substitute" and c.focus else c for c in found]
        if _action_note(inner):
            found = [c for c in found if c.kind != "optional" or _keeps_thing(sentence[c.start:c.end])]
        out += found
        # "（可选，没有 X 可以用 Y 代替）": each clause of a note starts a reading
    conds = " ".join(c.cond.casefold() for c in out if c.kind != "optional")
    keeps = frozenset(lexicon("cues").get("condition_keeps") or ())
    out = [c for c in out if not (c.kind == "optional" and conds and c.rule not in keeps
                                  and sentence[c.start:c.end].strip(" ,.()").casefold() in conds)]
    out.sort(key=lambda c: (c.start, -c.confidence))
    kept: list[Cue] = []
    for c in out:
        clash = next((k for k in kept if (k.kind == c.kind or (k.x, k.y) == (c.x, c.y))
                      and c.start < k.end and k.start < c.end and not _two_standins(k, c)), None)
        if clash is None:
            kept.append(c)
        elif (c.confidence, bool(c.x)) > (clash.confidence, bool(clash.x)):
            kept[kept.index(clash)] = c
    return [_complete(c) for c in kept]


def _mid_name_head(sentence: str, m: re.Match) -> str:
    """The head an English "or" note in parentheses shares with the name it
    sits inside (``mid_name_note_en`` / ``mid_name_head_en`` of cues.yaml):
    "canned (or fresh) tomatoes, drained" → "tomatoes";
    ``""`` when the note is not such an "or" note or ends the name."""
    lx = lexicon("cues")
    if has_cjk(sentence) or not sentence[: m.start()].strip() or not re.match(lx["mid_name_note_en"], m.group(1), re.I):
        return ""
    h = re.match(lx["mid_name_head_en"], sentence[m.end():])
    return h.group("head").strip() if h else ""


def _two_standins(a: Cue, b: Cue) -> bool:
    """True when two overlapping stand-in cues name two different stand-ins for one X ("hand off the report
    to another Director or Steering Council member": "another Director" and "Steering Council member"):
    both are kept. A Y that contains the other is one name cut two ways, not two."""
    if a.kind != "standin" or b.kind != "standin" or not a.x or a.x.casefold() != b.x.casefold():
        return False
    ya, yb = a.y.casefold(), b.y.casefold()
    return bool(ya and yb) and ya not in yb and yb not in ya


_PREP_OBJ = re.compile(r"\b(?:on|to|via|in|into|from|through|using|with|at|onto|over)\s+(?:the |a |an |our |your |their )?"
                       r"((?:[\w@#.\-/]+)(?:\s+[\w@#.\-/]+){0,5})\s*$", re.I)
_PROPER = re.compile(r"(?<![\w.])((?:[A-Z][\w.\-]*|#[\w\-]+)(?:\s+(?:[A-Z][\w.\-]*|of|for|and))*(?:\s+[A-Z][\w.\-]*|))")
_LEAD = re.compile(r"^(?:(?:so|then|and|but|just|please|instead)\s+)*(?:(?:we|you|they|i|someone|somebody|one|the team)(?:'ll|'d|’ll)?\s+)?"
                   r"(?:(?:can|could|will|would|should|may|might|must|need to|needs to|have to|has to|are able to|is able to|"
                   r"still|also|then|just|always|continue to|try to|want to)\s+)*", re.I)


def trailing_object(clause: str) -> str:
    """The object a clause ends on after a preposition ("serve the page from the primary
    mirror" → "primary mirror"), else :func:`clause_object`."""
    m = _PREP_OBJ.search(clause.strip().rstrip(".;:!?"))
    if m and not re.match(r"\d", m.group(1)):
        return cut_phrase(m.group(1), "y")
    return clause_object(clause)


@functools.lru_cache(maxsize=1)
def _actor_rx() -> tuple[re.Pattern, ...]:
    d = (lexicon("cues").get("clause_actor") or {}).get("en") or {}

    def alt(key: str) -> str:
        return "|".join(re.escape(w) for w in sorted(d.get(key) or ["(?!)"], key=len, reverse=True))
    np = r"(?:the |a |an |our |your |their |its |another |other )?(?P<np>(?:[\w@#`'’.-]+ (?:or )?){0,4}?[\w@#`'’.-]+)"
    modal = r"(?:(?:can|could|may|might|will|would|should|shall|must|needs? to|has to|have to)(?: also| then| instead| still| now)? )"
    return (
        re.compile(r"^" + np + r" " + modal + r"?(?:be|is|are|get|gets) (?:then |also |instead |only |directly )?(?:"
                   + alt("used_passive") + r")\b", re.I),
        re.compile(r"^" + np + r" " + modal + r"(?:" + alt("acting") + r")\b", re.I),
        re.compile(r"\b(?:" + alt("control") + r") " + np + r" to (?:" + alt("acting") + r")\b", re.I),
        re.compile(r"^(?:please )?(?:(?:you|we) )?" + modal + r"?(?:need to |try (?:to )?|feel free to )?(?:" + alt("contact")
                   + r") " + np + r"(?=$|\s*[`(\[]|\s(?:using|via|to|for|by|in|on|at|about|with|if|when|before|and|who|so)\b)", re.I),
    )


def clause_actor(clause: str) -> str:
    """Who or what a consequence clause turns to when that is not the object of its verb (``clause_actor`` of
    cues.yaml): the subject of a passive of use or contact ("the spare laptop or the loan pool must be used" →
    "spare laptop or loan pool"), the subject of a verb of acting for someone ("the deputy will take over" →
    "deputy"), the object of a control verb with an infinitive of acting ("the chair can name a vice-chair to
    act" → "vice-chair"), or the one a clause of contact turns to ("you can reach out to the SIG leads using …" →
    "SIG leads", "feel free to ping the entire team `@cloud`" → "entire team"). Only the first clause of ``clause``
    (str) is read;
    returns ``""`` when none of these shapes is there or the phrase names nothing (:func:`cut_phrase`)."""
    c = re.split(r"\.(?=\s|$)|[;:!?]|,", clause, maxsplit=1)[0].strip()
    c = re.sub(r"^(?:then|so|and|but|instead)\s+", "", c, flags=re.I)
    for rx in _actor_rx():
        m = rx.search(c)
        if m:
            np = m.group("np").strip()
            if np.split()[0].casefold() in _PRONOUNS_EN:
                return ""
            parts = [cut_phrase(p, "y") for p in re.split(r"\s+or\s+", np)]
            return " or ".join(parts) if all(parts) else ""
    return ""


_PRONOUNS_EN = frozenset("i you we they he she it this that there which who someone anyone somebody anybody".split())


def clause_object(clause: str) -> str:
    """The thing an action clause turns to ("post updates on the main
    website" → "main website", "we use Acme Chat" → "Acme Chat",
    "you can still clone a repo from the Mirror Host" → "Mirror Host"): a proper
    name (capitalized words) if the clause has one after its verb, else the
    object of its last preposition, else the object of its verb. ``""`` when
    nothing name-like is found."""
    c = re.split(r"\.(?=\s|$)|[;:!?]|,\s*(?:and|but|so|which)\b", clause, maxsplit=1)[0].strip()
    c = _LEAD.sub("", c)
    words = c.split()
    if len(words) <= 4 and not re.match(r"(?i)(?:use|post|send|contact|go|switch|fall|try|ask|escalate|page|call|email|clone|serve|raise|message|tell|notify|check|log)\b", c):
        return cut_phrase(c, "y")
    body = " ".join(words[1:]) if words else ""
    props = [p.strip() for p in _PROPER.findall(body) if p.strip() and p.strip().casefold() not in ("i", "the", "a")]
    if props:
        # the first name the clause turns to ("in the Google Chat space, … from the #channel" →
        # "Google Chat"), else its first name
        turned = next((p for p in props if re.search(r"\b(?:on|to|via|in|from|through|using)\s+(?:the\s+)?" + re.escape(p), body)), "")
        return cut_phrase(turned or props[0], "y")
    m = _PREP_OBJ.search(body)
    if m and not re.match(r"\d", m.group(1)):  # "for 24 hours" is a duration, not the thing turned to
        obj = re.split(r"\s+(?:for|in|on|to|from|with|at|by|until|during)\s+", m.group(1))[0]
        obj = re.sub(r"(?i)^(?:with|via|in|on|to|from|through|using|at)\s+(?:the |a |an |our |your )?", "", obj)  # "sign in with the X"
        return cut_phrase(obj, "y")
    return cut_phrase(body, "y")


_COMPOUND = re.compile(r"\s*(?:\+|＋|\band\b|\bplus\b|\bwith\b|和|加上|加|配|及|与|跟)\s*", re.I)
# a slash between digits is a fraction ("1/2 pound"), not two alternatives
_ALTS = re.compile(r"\s*(?:、|(?<!\d)/|/(?!\d)|／|\bor\b|或者|或是|或" + "".join(
    f"|(?<=\\S){re.escape(p)}(?=\\S)" for p in (lexicon("cues").get("list_particles") or {}).get("zh", [])) + r")\s*", re.I)


def split_alternatives(y: str) -> list[str]:
    """Y phrases that are alternatives of each other ("A、B", "A or B", "A 或 B"),
    each trimmed of edge words; a compound ("A + B", "A and B") stays one."""
    parts = [p for p in _ALTS.split(y) if p and p.strip()]
    if len(parts) == 1 and parts[0].strip() == y.strip():
        return [y.strip()]  # one phrase, already cut by the reader ("another IC" keeps its determiner)
    return [q for q in (_trim_edges(p.strip(), "zh" if has_cjk(p) else "en") for p in parts) if q]


def compound_parts(y: str) -> list[str]:
    """The parts of a compound stand-in ("milk and a little lemon juice" →
    ["milk", "lemon juice"]; "白糖 + 淀粉" → ["白糖", "淀粉"]); one part when
    it is not a compound."""
    parts = [p for p in _COMPOUND.split(y) if p and p.strip()]
    return [q for q in (_trim_edges(p.strip(), "zh" if has_cjk(p) else "en") for p in parts) if q] or [y]
