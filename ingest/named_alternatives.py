"""Alternatives between named things in policy and handbook prose (issue 10).

A policy sentence offers one contact, channel or tool in the place of another: "post in #some-channel or e-mail
team@example.org", "contact [Team A][] or the people in [Team B][]", "you can also open a ticket by e-mailing
`desk@example.org`". The reader keeps a pair only when BOTH sides are written as names (:func:`written_names`: a
link text, a code span, a bold phrase, a #channel, an @handle, an e-mail address or capitalized words), so a list of
activities or a status value ("a single person or a group of people") gives nothing. "Either X or Y" is not read:
two options of one choice are not one for the other. The cue words are data (``lexicon/policy.yaml``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import NamedTuple

from .cues import lexicon, regex, words
from .relations import looks_like_name, prose_sentences

#: a Markdown link, inline or by reference ("[text](url)", "[text][]", "[text][ref]", "[text]"): its text is a name
_LINK = re.compile(r"!?\[([^\]\n]{1,80})\](?:\([^)\n]*\)|\[[^\]\n]{0,80}\]|(?![(\[:]))")
#: one capitalized or camel-case word of a name ("Slack", "GDS", "CO:D", "iCloud")
_CAP_WORD = r"(?:[A-Z][\w.:+'’-]*|[a-z]+[A-Z][\w.:-]*)"
#: a name as the document writes it (the same shapes as ingest/documents.py, plus channels, handles and addresses)
_NAME = re.compile(
    r"⟦(?P<l>[^⟧]{2,60})⟧|`(?P<c>[^`\n]{2,60})`|\*\*(?P<b>[^*\n]{2,60})\*\*"
    r"|(?P<e>(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+)|(?P<h>(?<![\w/@])[#@][A-Za-z][\w-]*\w)"
    r"|(?P<p>(?<![\w#@])" + _CAP_WORD + r"(?:\s+" + _CAP_WORD + r"){0,4})")
#: a name pattern without groups, for the slots of a cue
_NAME_SLOT = (r"(?:⟦[^⟧]{2,60}⟧|`[^`\n]{2,60}`|\*\*[^*\n]{2,60}\*\*|(?-i:" + _CAP_WORD + r"(?:\s+" + _CAP_WORD
              + r"){0,4}))")
#: the kinds of name that point at one place precisely (a link, code, a channel or handle, an address)
_PRECISE = frozenset("lceh")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


class Name(NamedTuple):
    """A name written in a sentence: its offsets, its text (marks removed) and its kind (a group of ``_NAME``)."""
    start: int
    end: int
    text: str
    kind: str


def written_names(sentence: str) -> list[Name]:
    """The names ``sentence`` (raw Markdown, links written ⟦text⟧) writes, in order: link texts, code spans, bold
    phrases, e-mail addresses, #channels and @handles, and runs of capitalized words. A capitalized word that
    opens the sentence is a capital of the sentence, not a name ("Contact GDS" names GDS). This is the named-thing
    test every cue of ``lexicon/policy.yaml`` shares."""
    out = []
    lead = len(sentence) - len(sentence.lstrip())
    for m in _NAME.finditer(sentence):
        kind = m.lastgroup or ""
        text, start = m.group(kind), m.start()
        if kind == "p":
            text = text.rstrip(".:'’")
            if start == lead:  # the sentence's first word: drop it unless it is written as a name (all capitals)
                first, _, rest = text.partition(" ")
                if not (first.isupper() and len(first) >= 2):
                    if not rest:
                        continue
                    start += len(first) + 1
                    text = rest
        text = text.strip()
        if text and looks_like_name(text):
            out.append(Name(start, start + len(text) + (2 if kind in "lc" else 4 if kind == "b" else 0), text, kind))
    return out


@functools.lru_cache(maxsize=1)
def _rules() -> dict:
    data = lexicon("policy")
    return {
        # a contact verb used as a verb: not part of a compound ("on-call") nor followed by list punctuation ("such
        # as email, MX or TXT records"), and (see _contact_verb) not a noun after a determiner ("the report")
        "verb": re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in words("policy", "contact_verbs"))
                           + r")\b(?![-,.;:])", re.I),
        "verb_noun": re.compile(r"(?:^|\W)(?:" + "|".join(re.escape(w) for w in words("policy", "contact_verb_not_after"))
                                + r")\s+$", re.I),
        "verb_reach": int(data["contact_verb_reach"]),
        "not_alternatives": re.compile(r"\b(?:" + "|".join(words("policy", "not_alternatives")) + r")\b", re.I),
        "or": re.compile(r",?\s+or\s+", re.I),
        "or_reach": int(data["contact_or_reach"]),
        "stops": frozenset(w.casefold() for w in words("policy", "contact_or_stops")),
        "place": re.compile(r"\s+(?:" + "|".join(words("policy", "name_place_joins")) + r")\s+(?:the\s+)?$", re.I),
        "also": regex("policy", "also_contact_lead", re.I),
        "also_reach": int(data["also_contact_reach"]),
        "also_purpose": regex("policy", "also_use_purpose", re.I),
        "also_skip": regex("policy", "also_contact_skip", re.I),
        "different": regex("policy", "different_kind", re.I),
        "channel_or": regex("policy", "channel_or", re.I, thing=_NAME_SLOT),
        "channel_word": re.compile(r"(?:" + "|".join(words("policy", "channel_words")) + r")", re.I),
        "different_words": int(data["different_kind_words"]),
    }


def _side_before(s: str, names: list[Name], at: int, after: int) -> Name | None:
    """The name that ends right before offset ``at`` (only a comma between), after offset ``after``; of two names
    joined by a place word ("#infrastructure in Slack", "Slack in #bot-support") the precise one."""
    before = [n for n in names if after <= n.start and n.end <= at]
    if not before or s[before[-1].end:at].strip(" ,"):
        return None
    last = before[-1]
    if len(before) >= 2 and _rules()["place"].search(s[before[-2].end:last.start]):
        prev = before[-2]
        if prev.kind in _PRECISE and last.kind not in _PRECISE:
            return prev
    return last


def _side_after(s: str, names: list[Name], at: int, reach: int) -> Name | None:
    """The first name after offset ``at`` when at most ``reach`` plain words stand before it, none a stop word of
    ``contact_or_stops`` and no sentence punctuation."""
    after = [n for n in names if n.start >= at]
    if not after:
        return None
    gap = s[at:after[0].start]
    toks = gap.split()
    if len(toks) > reach or re.search(r"[,.;:!?()]", gap) or any(t.casefold() in _rules()["stops"] for t in toks):
        return None
    return after[0]


def _distinct(x: str, y: str) -> bool:
    return x.casefold() != y.casefold() and x.casefold() not in y.casefold() and y.casefold() not in x.casefold()


def contact_or_pairs(s: str) -> list[tuple[str, str]]:
    """``(x, y)`` for each "or" of sentence ``s`` that joins two named contacts after a contact verb
    (``contact_verbs``): "Post to Slack in #bot-support or email team@…" gives ("#bot-support", "team@…")."""
    r = _rules()
    v = _contact_verb(s)
    if not v or r["not_alternatives"].search(s):
        return []
    names = written_names(s)
    out: list[tuple[str, str]] = []
    last_y: Name | None = None
    for m in r["or"].finditer(s, v.end()):
        if any(n.start < m.start() < n.end for n in names):
            continue  # an "or" inside a link text or a code span is part of that name
        x = _side_before(s, names, m.start(), v.end())
        if x is None or (last_y is None or x != last_y) and not _governed(s, v.end(), x):
            last_y = None
            continue
        y = _side_after(s, names, m.end(), r["or_reach"])
        last_y = y
        if y and _distinct(x.text, y.text):
            out.append((x.text, y.text))
    return out


def _contact_verb(s: str) -> re.Match | None:
    """The first contact verb of sentence ``s`` used as a verb (``contact_verbs``, not after a word of
    ``contact_verb_not_after``)."""
    r = _rules()
    return next((m for m in r["verb"].finditer(s) if not r["verb_noun"].search(s[:m.start()])), None)


def _governed(s: str, verb_end: int, x: Name) -> bool:
    """True when name ``x`` is the first side the contact verb ending at ``verb_end`` turns to: at most
    ``contact_verb_reach`` words between them, no bracket or clause punctuation, and no comma right before ``x``
    (then it ends a list: "a profile list, JupyterLab, or RStudio")."""
    gap = s[verb_end:x.start]
    return (len(gap.split()) <= _rules()["verb_reach"] and not re.search(r"[;:()]", gap)
            and not gap.rstrip(" ⟦`*").endswith(","))


def also_contact_pairs(s: str, previous: str) -> list[tuple[str, str]]:
    """``(x, y)`` when sentence ``s`` offers a second way to reach a named thing (``also_contact_lead``: "you can
    also start a ticket by emailing `itservicedesk@…`"): Y is the name right after the lead, X the name written last
    before it in ``s``, else the name written last in ``previous`` (the sentence before, in the same block)."""
    r = _rules()
    m = r["also"].search(s)
    if not m or r["not_alternatives"].search(s) or r["also_skip"].search(s) or (re.search(r"\buse$", m.group(), re.I) and not r["also_purpose"].search(s, m.end())):
        return []  # "also use the `-d` flag instead of …" is read by the instead-of cues; "also use" must say it reaches
    names = written_names(s)
    y = _side_after(s, names, m.end(), r["also_reach"])
    before = [n for n in names if n.end <= m.start()] or written_names(previous)
    if not y or not before or not _distinct(before[-1].text, y.text):
        return []
    return [(before[-1].text, y.text)]


def _unmark(name: str) -> str:
    """``name`` without its Markdown marks (⟦link⟧, `code`, **bold**) and a leading article."""
    name = re.sub(r"[⟦⟧`]|\*\*", "", name).strip()
    return re.sub(r"^(?:the|a|an)\s+", "", name, flags=re.I).strip().rstrip(".:'’")


def different_kind_pairs(s: str, previous: str) -> list[tuple[str, str]]:
    """``(x, y)`` for each named thing sentence ``s`` offers as a different one of a kind (``different_kind``: "free
    to use a different tool such as [Snyk](…)", "in another format, like a Word doc or fillable PDF"): X is the name
    written last before the cue in ``s``, else in ``previous``; each Y is a part of the list after the cue (up to
    the end of its clause, split at "or") that holds a written name and has at most ``different_kind_words`` words."""
    r = _rules()
    m = r["different"].search(s)
    if not m:
        return []
    before = [n for n in written_names(s) if n.end <= m.start()] or written_names(previous)
    if not before:
        return []
    x = before[-1].text
    tail = re.split(r"[,;:!?()]|\.(?:\s|$)|\s(?:but|and|if|when|to)\s", s[m.end():], maxsplit=1)[0]
    out = []
    for part in re.split(r"\s+or\s+", tail):
        y = _unmark(part)
        if (written_names(part) and 1 <= len(y.split()) <= r["different_words"] and looks_like_name(y)
                and _distinct(x, y)):
            out.append((x, y))
    return out


def channel_or_pairs(s: str) -> list[tuple[str, str]]:
    """``(x, y)`` for two means of communication sentence ``s`` offers one for the other (``channel_or``: "via Slack or
    email", "using an online form or by email", "on video or phone"): each side a channel word or a written name, at
    least one a channel word (two products after "using" are read by the sentence cues)."""
    r = _rules()
    out = []
    for m in r["channel_or"].finditer(s):
        x, y = (_unmark(m.group(g)) for g in ("x", "y"))
        if any(r["channel_word"].fullmatch(v) for v in (x, y)) and _distinct(x, y):
            out.append((x, y))
    return out


def named_alternative_pairs(blocks: list, raw: Callable[[object], str]) -> list[tuple[str, str, object, int, str]]:
    """``(x, y, block, line, rule)`` for every alternative between two named things the paragraphs and list items
    of a document state (:func:`contact_or_pairs`, :func:`also_contact_pairs`, :func:`different_kind_pairs`, :func:`channel_or_pairs`); ``raw``
    gives a block's source as written (links and code marks kept)."""
    out = []
    prev, last = "", None
    for b, src, text, a, z in prose_sentences(blocks, raw, _LINK):
        if b is not last:
            prev, last = "", b
        s = _LIST_MARK.sub("", text[a:z])
        line = b.line + src.count("\n", 0, a)
        for rule, pairs in (("doc.contact_or", contact_or_pairs(s)), ("doc.also_contact", also_contact_pairs(s, prev)),
                            ("doc.different_kind", different_kind_pairs(s, prev)),
                            ("doc.channel_or", channel_or_pairs(s))):
            out.extend((x, y, b, line, rule) for x, y in pairs)
        prev = s
    return out
