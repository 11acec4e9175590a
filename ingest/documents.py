"""Generic and procedure (SOP) documents: ``document`` → ``section``
(heading hierarchy) → ``step`` (numbered list items) ``CONTAINS`` edges with
an ``order``. Role facts (step mentions, stand-ins, responsibilities) are
added by :class:`~.roles.RoleBook`."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from ..knowledge import cues
from ..knowledge.records import Entity, Provenance, Triple, entity_id
from ..knowledge.text import DictLinker, has_cjk, lexicon, name_key, sentence_spans
from .blocks import DocResult, children, section_of
from .cues import alternation, lexicon as ingest_lexicon, regex, words
from .document import ParsedDocument
from .named_alternatives import named_alternative_pairs
from .prose_alternatives import instead_pairs, parallel_pairs
from .relations import looks_like_name, plain_noun_phrase, prose_sentences, read_document, thing_phrase, unwrap
from .tables import classify_column, split_alternatives as split_cell
from .roles import RoleBook

_PERSON_HEADS = frozenset(w.casefold() for w in words("roles", "person_heads"))
_OPT_LEAD = regex("procedures", "optional_lead", re.I)
_OPT_MARK = regex("procedures", "optional_mark", re.I)
_OPT_REACH = int(ingest_lexicon("procedures")["optional_mark_reach"])
_OPT_INTRO = regex("procedures", "optional_list_intro", re.I)
_OPT_PARA = regex("procedures", "optional_paragraph_label", re.I)
_OPT_LABEL = regex("procedures", "optional_label", re.I)
_OPT_SENTENCE = regex("procedures", "step_optional_sentence", re.I)
_OPT_CLAUSE = re.compile("|".join(words("procedures", "optional_sentence")), re.I)
_OPT_INLINE = [re.compile(p, re.I) for p in words("procedures", "optional_inline")]
_OPT_ALONE = regex("procedures", "optional_alone", re.I)
_DELEGATES = re.compile(r"\bdelegat", re.I)
_DELEGATE_LABEL = regex("roles", "delegate_label", re.I)
_PASSIVE_RULES = frozenset(words("roles", "people_cue_rules_passive"))
_IN_PLACE_RULES = frozenset(words("roles", "named_in_place_cue_rules") + words("roles", "named_in_place_cue_rules_replaced"))
_IN_PLACE_ONE_WORD = frozenset(words("roles", "named_in_place_one_word"))
_IN_PLACE_MARKED = frozenset(words("roles", "named_in_place_marked"))
_IN_PLACE_MARKER = regex("roles", "named_in_place_marker", re.I)
_IN_PLACE_INNER = frozenset(w.casefold() for w in words("roles", "named_in_place_inner"))
_PEOPLE_RULES = frozenset(words("roles", "people_cue_rules") + words("roles", "people_cue_rules_alternation")) | _PASSIVE_RULES
_STRICT_PEOPLE_RULES = frozenset(words("roles", "people_cue_rules_strict"))
_NAMED_ACTOR_RULES = frozenset(words("roles", "people_cue_rules_named_actor"))


def _in_place(f) -> bool:
    """True when found relation ``f`` was read by a construction that names both of its sides in place
    (``named_in_place_cue_rules`` of ``lexicon/roles.yaml``), and, for a rule of ``named_in_place_marked``,
    the clause after its condition says that another thing is used instead (``named_in_place_marker``)."""
    if f.rule not in _IN_PLACE_RULES:
        return False
    if f.rule not in _IN_PLACE_MARKED:
        return True
    text = unwrap(f.block.text)
    i = text.find(f.cond) if f.cond else -1
    if i < 0:
        return False
    after = re.split(r"[.;!?](?:\s|$)", text[i + len(f.cond):i + len(f.cond) + 200], maxsplit=1)[0]
    return bool(_IN_PLACE_MARKER.search(after))


_DELEGATE_RULES = frozenset(words("roles", "delegate_cue_rules"))
_THING_FALLBACK_RULES = frozenset(words("roles", "thing_fallback_cue_rules"))


_NAME_JOINS = frozenset(words("roles", "name_joins"))
_ABBR = re.compile(r"[A-Z][A-Z0-9&]{1,5}")
_VAGUE_PEOPLE = frozenset(w.casefold() for w in words("roles", "vague_people"))


def _is_person(phrase: str) -> bool:
    """A phrase naming a person or group: its last word is a person word, or
    it is a capitalized name ("Dan", "Release Team")."""
    toks = phrase.strip().split()
    if not toks:
        return False
    return toks[-1].casefold().strip(".,'s’") in _PERSON_HEADS or (  # "Director of Engineering", "Head of Security"
        all(t[:1].isupper() or t in _NAME_JOINS for t in toks) and toks[0][:1].isupper() and toks[-1][:1].isupper())


def strict_person(phrase: str, roles: DictLinker[str]) -> str:
    """How ``phrase`` names a person or group by its words (``people_cue_rules_strict`` of
    ``lexicon/roles.yaml``): ``"role"`` for a known role, ``"word"`` when its last word is a person word
    ("deputy", "Platform team") or it reads "<person word> of …" ("Director of Operations"), ``"abbr"`` for one
    abbreviation in capitals ("CMO"), ``""`` otherwise (a capitalized name alone: "Acme Chat")."""
    p = re.sub(r"^(?:the|a|an|our|your|their|its|his|her)\s+", "", phrase.strip(), flags=re.I)
    toks = p.split()
    if not toks:
        return ""
    if roles.get(p):
        return "role"
    if toks[-1].casefold().strip(".,") in _VAGUE_PEOPLE:
        return ""
    if toks[-1].casefold().strip(".,").removesuffix("'s").removesuffix("’s") in _PERSON_HEADS or (
            len(toks) >= 3 and toks[0].casefold() in _PERSON_HEADS and toks[1].casefold() == "of"):
        return "word"
    return "abbr" if len(toks) == 1 and _ABBR.fullmatch(toks[0]) else ""


def people_sides(x: str, ys: list[str], roles: DictLinker[str], abbreviations: bool = False) -> tuple[str, list[str]] | None:
    """The two people of a strict people alternation (``people_cue_rules_strict``): ``(x, ys)`` with a
    first side that lacks a person word completed by the last word of the second when that word is a lower-case
    person word ("Billing" and "Helpdesk team" → "Billing team"; a second side that is the person word alone,
    "X or contractors", shares no head with X), or ``None`` when a side does not name a person
    (:func:`strict_person`) or every side is an abbreviation (allowed with ``abbreviations``: a construction that
    says the sides act, ``people_cue_rules_named_actor``: "If the CMO is unable to act, the Bursar shall …"). An X
    whose head comes before "of" and is no person word is cut to what follows its last "of" ("sign-off of budget
    holders" → "budget holders")."""
    if not ys:
        return None
    toks = x.split()
    if "of" in toks[1:] and toks[0].casefold() not in _PERSON_HEADS:  # "sign-off of budget holders": the holders
        x = " ".join(toks[len(toks) - toks[::-1].index("of"):])
    kinds = [strict_person(y, roles) for y in ys]
    kx = strict_person(x, roles)
    if not kx and all(kinds) and len(x.split()) <= 2 and x[:1].isupper() and len(ys[0].split()) >= 2:
        last = ys[0].split()[-1]  # a shared head needs a modifier before it: "Billing or Helpdesk team", not "X or team"
        if last.islower() and last in _PERSON_HEADS:  # a common noun ("team"), never a capitalized product name
            x, kx = f"{x} {last}", "word"
    if not kx or not all(kinds) or (not abbreviations and all(k == "abbr" for k in [kx, *kinds])):
        return None
    return x, ys


def _person_word(phrase: str) -> bool:
    """A phrase that names a person or group by its words alone: its last word is a person word or it is
    an abbreviation in capitals ("IC"); a capital at the start of a sentence ("Incidents can be
    escalated …") does not count."""
    toks = phrase.strip().split()
    if not toks:
        return False
    last = toks[-1].strip(".,")
    return last.casefold().rstrip("'s’") in _PERSON_HEADS or (len(toks) == 1 and len(last) >= 2 and last.isupper())


def _coded(phrase: str, text: str) -> bool:
    """True when ``text`` writes ``phrase`` as code (`` `rsync` ``, `` `--decrypt` ``), or its first
    or last word (`` the `-d` flag ``): a command, flag, file or tool the document names, however
    short or lower-case."""
    p = phrase.strip()
    if not p or not looks_like_name(p):
        return False
    toks = p.split()
    return any(re.search(r"`[^`\n]{0,20}" + re.escape(t) + r"[^`\n]{0,20}`", text)
               for t in {p, toks[0], toks[-1]} if len(t) >= 2)


def _raw_lines(doc: ParsedDocument) -> Callable[[object], str]:
    """``raw(block)``: the block's source lines as written (inline code marks kept), for a
    Markdown file; the block's text otherwise or when the file cannot be read again."""
    lines: list[str] = []
    if doc.markdown and doc.format == "markdown":
        try:
            lines = doc.path.read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            lines = []

    def raw(b) -> str:
        return "\n".join(lines[b.line - 1:b.end_line]) if lines and b.end_line >= b.line else b.text
    return raw


_ALT_LEAD = regex("procedures", "alternative_lead", re.I)
_ALT_REACH = int(ingest_lexicon("procedures")["alternative_reach"])
_LINK = re.compile(r"!?\[([^\]\n]{0,80})\]\([^)\n]*\)")
_NAME_AT = (r"(?:the |a |an |our |your |their )?(?:⟦(?P<l>[^⟧]{2,60})⟧|`(?P<c>[^`\n]{2,60})`|"
            r"(?P<p>(?:[A-Z][\w.\-]*|#[\w\-]+)(?:\s+[A-Z][\w.\-]*){0,4}))")


@functools.lru_cache(maxsize=2)
def _means_rx(key: str) -> re.Pattern:
    return re.compile(r"(?i:\b(?:" + "|".join(words("procedures", key)) + r"))\s+" + _NAME_AT)


def _means(sentence: str, key: str) -> list[str]:
    """The names ``sentence`` (raw Markdown, links written ⟦text⟧) turns to after a means word of
    ``key`` (``lexicon/procedures.yaml``): link texts, code spans and capitalized names, in order."""
    out = []
    for m in _means_rx(key).finditer(sentence):
        n = (m.group("l") or m.group("c") or m.group("p") or "").strip()
        if n and looks_like_name(n):
            out.append(n)
    return out


def alternative_pairs(blocks: list, raw: Callable[[object], str]) -> list[tuple[str, str, object, int]]:
    """``(x, y, block, line)`` for each sentence that offers another way (``alternative_lead``:
    "Alternatively, the password is also stored in the shared BitWarden account"): Y is the first
    name the sentence turns to (``means_any``), X the name that one of the ``alternative_reach``
    sentences before it, in the same section, used (``means_strict``: "accessed using `sops`").
    Nothing when either side is missing or one name contains the other ("via Google Workspace
    single-sign-on" … "from the Google Workspace apps menu")."""
    sents: list[tuple[str, object]] = []  # (raw sentence, block) of the current section
    out = []
    path = None
    for b in blocks:
        if b.kind == "heading" or b.path != path:
            sents, path = [], b.path
        if b.kind not in ("paragraph", "item"):
            continue
        src = _LINK.sub(lambda m: f"⟦{m.group(1)}⟧", raw(b))
        text = unwrap(src)  # same length as src: lines are counted in src
        for a, z in sentence_spans(text):
            s = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text[a:z]).strip()
            if _ALT_LEAD.match(s):
                ys = _means(s, "means_any")
                x = next((n for t, _ in reversed(sents[-_ALT_REACH:]) for n in reversed(_means(t, "means_strict"))), "")
                if not x and ys:  # no means word before: a name of the same family ("Acme Console" … "via the Acme CLI")
                    x = next((n for t, _ in reversed(sents[-_ALT_REACH:]) for n in reversed(_written_names(t))
                              if same_family(n, ys[0])), "")
                if ys and x and x.casefold() not in ys[0].casefold() and ys[0].casefold() not in x.casefold():
                    out.append((x, ys[0], b, b.line + src.count("\n", 0, a)))
            sents.append((s, b))
    return out


_PAIR_USE = regex("procedures", "use_named_pair", re.I)
_REF_LINK_MARK = re.compile(r"!?\[([^\]\n]{1,80})\](?:\([^)\n]*\)|\[[^\]\n]{0,80}\])")


def named_pairs(blocks: list, raw: Callable[[object], str]) -> list[tuple[str, str, object, int]]:
    """``(x, y, block, line)`` for each sentence that offers two things the document writes as names — link
    texts or code spans, inline or reference links — for one use, one or the other (``use_named_pair``:
    "use [pass](…) or [blackbox](…) to store credentials", "approaches like [feature-flagging][] or [modular
    architectures][]"). Both sides must read as names; a list of three or more gives nothing."""
    out = []
    for b, src, text, a, z in prose_sentences(blocks, raw, _REF_LINK_MARK):
        for m in _PAIR_USE.finditer(text, a, z):
            x, y = (m.group(g).strip("⟦⟧`").strip() for g in ("x", "y"))
            if looks_like_name(x) and looks_like_name(y) and x.casefold() != y.casefold():
                out.append((x, y, b, b.line + src.count("\n", 0, m.start())))
    return out


_CONTRAST_LIMIT = regex("procedures", "contrast_limit", re.I)
_CONTRAST_LEAD = regex("procedures", "contrast_lead", re.I)
#: a name as a document writes it: a link text (⟦…⟧), a code span, a bold phrase, or capitalized / camel-case words
_WRITTEN_NAME = (r"(?:⟦(?P<l>[^⟧]{2,60})⟧|`(?P<c>[^`\n]{2,60})`|\*\*(?P<b>[^*\n]{2,60})\*\*|"
                 r"(?P<p>(?:[A-Z][\w.\-]*|[a-z]+[A-Z][\w.\-]*)(?:\s+(?:[A-Z][\w.\-]*|[a-z]+[A-Z][\w.\-]*)){0,4}))")
_WRITTEN_NAME_RX = re.compile(_WRITTEN_NAME)
_FAMILY_STEM = float(ingest_lexicon("procedures")["family_stem"])


@functools.lru_cache(maxsize=1)
def _contrast_means() -> re.Pattern:
    return re.compile(r"(?i:\b(?:" + "|".join(words("procedures", "contrast_means")) + r"))\s+(?:the |a |an |other |our )?"
                      + _WRITTEN_NAME)


def _written_names(sentence: str) -> list[str]:
    """The names ``sentence`` (links written ⟦text⟧) writes as names, in order: link texts, code spans,
    bold phrases, capitalized or camel-case words."""
    names = (_written_name(m) if m.group("p") is None else m.group("p").rstrip(".") for m in _WRITTEN_NAME_RX.finditer(sentence))
    return [n for n in names if n and looks_like_name(n)]


def same_family(a: str, b: str) -> bool:
    """True when two different names are of one family: two names of two words or more with the same first
    word ("Acme Console", "Acme CLI"), or two code strings that share a stem of at least
    ``family_stem`` of the shorter one (``lexicon/procedures.yaml``: two URLs that differ in their last part).
    A name that contains the other is the same thing, not another of its family."""
    x, y = a.strip(), b.strip()
    if not x or not y or x.casefold() in y.casefold() or y.casefold() in x.casefold():
        return False
    tx, ty = x.split(), y.split()
    if len(tx) >= 2 and len(ty) >= 2:
        return tx[0] == ty[0] and tx[0][:1].isupper() and tx[1:] != ty[1:]
    if len(tx) == 1 and len(ty) == 1 and re.search(r"[/._:-]", x + y):
        k = 0
        while k < min(len(x), len(y)) and x[k] == y[k]:
            k += 1
        return k >= max(8, _FAMILY_STEM * min(len(x), len(y)))
    return False


def _written_name(m: re.Match) -> str:
    return (m.group("l") or m.group("c") or m.group("b") or m.group("p") or "").strip()


def contrast_pairs(blocks: list, raw: Callable[[object], str]) -> list[tuple[str, str, object, int]]:
    """``(x, y, block, line)`` for each sentence that rules a named thing out (``contrast_limit``: "uBlock Origin
    does not work on Safari", "`window.event.cancelBubble = true` is not supported") followed, in the same
    section, by a sentence led by a contrast word (``contrast_lead``: "However, …", "Instead, …") that
    turns to another name (``contrast_means``: "other adblockers such as AdGuard", "use
    `event.stopPropagation()`"): Y is used in X's place. X is the last name written before the
    limit (a link, code span, bold phrase or capitalized name), Y the first name after a means word."""
    out = []
    prev: tuple[str, object] | None = None  # (X ruled out by the sentence before, its block)
    path = None
    for b in blocks:
        if b.kind == "heading" or b.path != path:
            prev, path = None, b.path
        if b.kind not in ("paragraph", "item"):
            continue
        src = _LINK.sub(lambda m: f"⟦{m.group(1)}⟧", raw(b))
        text = unwrap(src)
        for a, z in sentence_spans(text):
            s = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text[a:z]).strip()
            if prev is not None and _CONTRAST_LEAD.match(s):
                m = _contrast_means().search(s)
                y = _written_name(m) if m else ""
                if y and looks_like_name(y) and y.casefold() != prev[0].casefold():
                    out.append((prev[0], y, b, b.line + src.count("\n", 0, a)))
            lim = _CONTRAST_LIMIT.search(s)
            names = [_written_name(n) for n in _WRITTEN_NAME_RX.finditer(s[:lim.start()])] if lim else []
            prev = (names[-1], b) if names and looks_like_name(names[-1]) else None
    return out


@functools.lru_cache(maxsize=1)
def _np_rules() -> frozenset[str]:
    """Ids of the sentence-reader rules whose slots the noun-phrase trimmer cut (``trim`` in cues.yaml)."""
    return frozenset(r.id for r in cues.rules() if r.trim)


def np_side(phrase: str, text: str, raw: str = "") -> bool:
    """True when ``phrase``, one side of a construction whose slots the noun-phrase trimmer cut
    (:func:`~..knowledge.cues.noun_phrase`: it is already a short noun or verb phrase), names a thing:
    two words or more ("personal accounts for each member", "signed tokens"), or one word that is a
    name (capitalized, code, ``#channel``) or that the document names again ("tokens")."""
    p = re.sub(r"^(?:the|a|an|our|your|their|its)\s+", "", phrase.strip(), flags=re.I).strip(" *`'\"")
    if not p or not looks_like_name(p) or len(p) < 3:
        return False
    if len(p.split()) >= 2:
        return True
    return thing_phrase(p, text, _PERSON_HEADS) or _coded(p, raw) or text.casefold().count(p.casefold()) >= 2


def _named_again(phrase: str, text: str) -> bool:
    """True when the document names ``phrase`` (one to three words, no clause) at least twice: the
    X of a construction that names both sides ("an alternative to using the dashboard is …")."""
    p = phrase.strip()
    return looks_like_name(p) and len(p.split()) <= 3 and len(p) >= 3 and text.casefold().count(p.casefold()) >= 2


def _noun_phrase(phrase: str) -> bool:
    """True when no determiner or pronoun stands inside ``phrase`` after its first word
    (``named_in_place_inner``): "individual's email address", not "create an account"."""
    toks = re.sub(r"^(?:the|a|an|our|your|their|its)\s+", "", phrase.strip(), flags=re.I).split()
    return not any(t.casefold().strip(",.") in _IN_PLACE_INNER for t in toks[1:])


def named_in_place(phrase: str, text: str, one_word: bool = False) -> bool:
    """True when ``phrase`` may stand on a side of a construction that names both sides in place
    (``named_in_place_cue_rules``) although the document names it only there: a name
    (:func:`~.relations.thing_phrase`), or a lower-case noun phrase (:func:`~.relations.plain_noun_phrase`)
    of two to four words ("server analytics", "context-aware access controls", "discussion & lazy
    consensus"), of one word too when ``one_word`` (a rule of ``named_in_place_one_word``: "with a fallback
    to a vote") — no determiner or pronoun inside (``named_in_place_inner``: "create an account" is a
    clause), not led by a verb form in -ing, not a verb phrase after "to" ("… and to host services …")."""
    if thing_phrase(phrase, text, _PERSON_HEADS):
        return True
    p = re.sub(r"^(?:the|a|an|our|your|their|its)\s+", "", phrase.strip(), flags=re.I).strip(" *`'\"")
    toks = p.split()
    if (not (1 if one_word else 2) <= len(toks) <= 4 or not plain_noun_phrase(p) or toks[0].casefold().endswith("ing")
            or not _noun_phrase(p) or not all(re.fullmatch(r"[\w'’.&-]+", t) for t in toks)):  # 'the "share" process'
        return False
    if re.search(r"\bto\s+" + re.escape(p), text, re.I) and not re.search(r"(?<!\bto)\s+" + re.escape(p), text, re.I):
        return False  # "… and to host services rather than …": after "to" it is a verb phrase
    return True


def _rename(res: DocResult, eid: str, name: str) -> None:
    """Give entity ``eid`` of ``res`` (a numbered step made optional) the name of an optional part (:func:`part_name`)."""
    for e in res.entities:
        if e.id == eid:
            e.name = name
            return


def _step_name(name: str) -> str:
    """A step's display name: ``name`` cut to 80 characters (77 and "...")."""
    return name if len(name) <= 80 else name[:77] + "..."


_PARENS = re.compile(r"\s*\([^()]{0,200}\)")
_BOLD = re.compile(r"\*\*([^*\n]{1,80})\*\*|__([^_\n]{1,80})__")
_NAME_MAX = 80
_PART_BREAK = regex("procedures", "part_name_break", re.I)
_PART_DANGLING = frozenset(w.casefold() for w in words("procedures", "part_name_dangling"))
#: an emphasised phrase that opens a list item or paragraph as its label ("**Clear browser cookies** (optional).",
#: "**Executive Director** […] (typically optional …)", "**(Optional) Temporarily pause scheduled evaluations.** Because …")
_EMPH_LEAD = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s*)?(?:\[[ xX]?\]\s*)?(\*\*|__|\*|_)(?P<x>[^*_\n]{2,120}?)\1"
                        r"(?:(?=\s*(?:$|[.:;,(\[–—-]))|(?<=[.:!?]\*\*)|(?<=[.:!?]__)|(?<=[.:!?][*_]))")
_LABEL_LEAD = re.compile(r"^[^\s:]+(?:\s+[^\s:]+){0,4}:\s+")


def _balanced(s: str) -> bool:
    """True when ``s`` closes every parenthesis, bracket, code span and quotation it opens."""
    return (s.count("(") == s.count(")") and s.count("[") == s.count("]") and s.count("`") % 2 == 0
            and s.count('"') % 2 == 0 and s.count("“") == s.count("”"))


def _unmarked(s: str) -> str:
    """``s`` without the optional marker that opens it (``optional_lead``: "(Optional)", "If applicable,",
    "Optional, but nice to have:"), the parentheses that hold a marker ("(typically optional unless …)") and a
    marker word inside it ("… the maintenance message optionally with …"); its first letter in capitals when
    something was taken from its start."""
    t = s.strip()
    m = _OPT_LEAD.match(t)
    if m:
        t = t[m.end():].lstrip(" :,;.-–—)]>")
        if t[:1].islower():
            t = _LABEL_LEAD.sub("", t, count=1)  # "Optional, but nice to have: backups …"
    t = _PARENS.sub(lambda p: "" if _OPT_MARK.search(p.group()) else p.group(), t)
    t = re.sub(r"\s+", " ", "".join(x for x in re.split(_OPT_MARK.pattern, t, flags=re.I) if x is not None)).strip()
    return t[:1].upper() + t[1:] if m and t[:1].islower() else t


def complete_name(s: str) -> str:
    """``s`` (one sentence or clause) as a complete name of at most 80 characters: whole, else without its
    parentheses, else cut at the last break of ``part_name_break`` (``lexicon/procedures.yaml``: a clause or
    an adjunct after the action and its object) that leaves three words or more, ends on no word of
    ``part_name_dangling`` and closes what it opens; ``""`` when none does: a sentence cut anywhere else
    is a fragment, never a name."""
    def ok(h: str) -> bool:
        toks = h.split()
        return bool(toks) and len(h) <= _NAME_MAX and toks[-1].casefold().strip(",.;:") not in _PART_DANGLING and _balanced(h)
    s = re.sub(r"\s+", " ", s).strip().rstrip(" .;:,")
    if ok(s):
        return s
    t = re.sub(r"\s+", " ", _PARENS.sub("", s)).strip().rstrip(" .;:,")
    if ok(t):
        return t
    for m in reversed([m for m in _PART_BREAK.finditer(t) if m.start() <= _NAME_MAX]):
        head = t[:m.start()].rstrip(" ,;:–—-")
        if len(head.split()) >= 3 and ok(head):
            return head
    return ""


def part_name(text: str, raw: str = "") -> str:
    """The name of an optional part written as ``text`` (a list item, a step, a paragraph; ``raw`` its source
    with the inline marks): its first line when that line is complete (it ends its sentence, or the text
    goes on after a hard break) and at most 80 characters, as today; else the emphasised label that opens it
    ("**Clear browser cookies** (optional). If …" → "Clear browser cookies"); else its first sentence
    without the optional marker (:func:`complete_name`: "If applicable, use more secure forms of MFA for
    higher risk accounts. For example, …" → "Use more secure forms of MFA for higher risk accounts"). ``""``
    when the text holds no complete short name: a line cut mid-way ("If applicable, sync up with the
    outgoing … to take ownership of") is never one."""
    t = text.strip()
    if not t:
        return ""
    head = t.split("\n", 1)[0]
    flat = unwrap(t)
    first = head.strip()
    whole = len(head) == len(t) or flat[len(head)] == "\n" or re.search(r"[.!?:;][\"'”’)*_]*$", first)
    if whole and len(first) <= _NAME_MAX:
        return first
    lead = _EMPH_LEAD.match(raw.strip()) if raw else None
    if lead:
        x = _unmarked(_REF_LINK_MARK.sub(lambda m: m.group(1), lead.group("x")).replace("`", "")).rstrip(" .;:,")
        if x and len(x) <= _NAME_MAX and _balanced(x):
            return x
    one = flat.replace("\n", " ")
    spans = sentence_spans(one)
    sent = one[spans[0][0]:spans[0][1]] if spans else one
    return complete_name(_unmarked(sent))


def optional_text(text: str) -> bool:
    """True when a step, list item or heading marks *itself* optional (``lexicon/procedures.yaml``):
    a marker that opens it ("(Optional) Encrypt the file", "Optionally, run …", "If you wish, use …"),
    or one that stands within the first ``optional_mark_reach`` characters or closes its first
    sentence ("Clear browser cookies (optional). If …", "… to this moment (optional)"). A marker
    further into a longer text is about a part of it, not the step."""
    t = re.sub(r"^\d+[.)]\s*", "", unwrap(text).strip())
    if _OPT_LEAD.match(t) or marked_alone(t):
        return True
    spans = sentence_spans(t)
    first = t[:spans[0][1]] if spans else t
    core = first.rstrip(" .;:!*_")
    return any(m.start() <= _OPT_REACH or m.end() >= len(core) for m in _OPT_MARK.finditer(core))


def marked_alone(text: str) -> bool:
    """True when a sentence after the first of ``text`` is only an optional marker (``optional_alone``:
    "Fax: Your office fax. Optional.", "Region: … Optional. Ex. North")."""
    t = unwrap(text).strip()
    return any(_OPT_ALONE.match(t[a:z].strip()) for a, z in sentence_spans(t)[1:])


def optional_list_items(blocks: list) -> list[int]:
    """Indices of the list items that a paragraph introduces as optional ("Optional:", "They may
    optionally also provide:", ``optional_list_intro``): the items of the list right after it, at
    the list's first level; and the items nested under an item that is only such a label
    ("* Optional" > "* Customer Liaison", ``optional_label``)."""
    out: list[int] = []
    for i, b in enumerate(blocks[:-1]):
        if b.kind == "item" and _OPT_LABEL.match(b.text.strip()):
            out += [k for k in range(i + 1, len(blocks)) if blocks[k].kind == "item" and blocks[k].parent == i]
            continue
        if b.kind != "paragraph" or not _OPT_INTRO.search(b.text.strip()):
            continue
        k = i + 1
        first = blocks[k] if blocks[k].kind == "item" else None
        while first is not None and k < len(blocks) and blocks[k].kind == "item":
            if blocks[k].parent == first.parent:
                out.append(k)
            k += 1
    return out


def _previous_item_thing(blocks: list) -> Callable[[int, object], str]:
    """``focus(i, block)`` for a list item whose cue leaves X to the context ("If that fails, it
    tries the secondary replica"): the thing named by the previous item of the same list (its
    emphasised phrase, else the object of its clause) — an ordered chain of fallbacks; for a table
    row, the thing its first cell names."""
    def focus(i: int, b) -> str:
        if b.kind == "row" and not b.header and len(b.cells) >= 2:
            # a table row is about the thing in its first cell ("|Feature-Policy|… primarily replaced with
            # `Permissions-Policy`|")
            first = b.cells[0].strip(" *`_")
            return first if looks_like_name(first) else ""
        if b.kind != "item" or i == 0:
            return ""
        prev = next((k for k in range(i - 1, -1, -1) if blocks[k].kind == "item" and blocks[k].parent == b.parent), -1)
        if prev < 0 or prev != i - 1 and any(blocks[k].kind not in ("item",) for k in range(prev + 1, i)):
            return ""
        if not any(c.focus and not c.x and c.kind == "standin" for c in cues.read(b.text)):
            return ""
        t = blocks[prev].text
        m = list(_BOLD.finditer(t))
        if m:
            return (m[-1].group(1) or m[-1].group(2)).strip()
        # the previous item is itself a fallback: what it turns to; else the object it ends on
        y = next((c.y for c in cues.read(t) if c.kind == "standin" and c.y), "")
        return y or cues.trailing_object(_PARENS.sub("", t).strip())
    return focus


_NO_CELL = re.compile(alternation("columns", "empty_values"), re.I)
_THING_HEAD = re.compile(r"(?:^|\s)(?:" + alternation("columns", "thing_headers") + r")$", re.I)


def _thing_table(heads: list[str], kinds: list[str], key: str) -> bool:
    """True when a stand-in table's rows pair things, not people: its primary (``item``) or ``sub`` column, or
    a column of no known kind ("System", "Channel", "Region"), is headed by a word naming a kind of thing
    (``thing_headers`` of columns.yaml) and no such header names people ("Primary on-call", "Owner"; a lone
    "Primary" or "Secondary" names neither)."""
    if key == "role":
        return False
    cols = [(h.strip().casefold(), k) for h, k in zip(heads, kinds) if k in ("item", "sub", "")]
    # "Primary on-call", "Backup engineer", "Owner": people; a lone "Primary" / "Secondary" header says nothing
    if any(h.split() and h.split()[-1] in _PERSON_HEADS and (len(h.split()) > 1 or not k) for h, k in cols):
        return False
    cols = [h for h, _ in cols]
    return any(_THING_HEAD.search(h) for h in cols)


def table_standins(blocks: list) -> list[tuple[str, str, object, tuple[str, bool, bool]]]:
    """Stand-ins a Markdown table states by its columns: a row of a table with a ``sub`` column
    (backup, deputy, alternate, fallback, secondary, delegate… : :func:`~.tables.classify_column`)
    gives ``(x, y, row block, (condition, x_is_role, things))`` for each alternative of that cell, X being
    the row's ``item`` cell (primary, original…), else its ``role`` cell, else the cell under a header
    naming people ("Crisis Team Leader": a role), else its first cell of no known kind.
    Empty cells and placeholders ("-", "n/a", "TBD", ``empty_values`` in columns.yaml) give
    nothing; both sides must read as names. The condition is the row's ``cond`` cell."""
    out: list[tuple[str, str, object, tuple[str, bool, bool]]] = []
    kinds: list[str] = []
    heads: list[str] = []
    for b in blocks:
        if b.kind != "row":
            kinds = []
            continue
        if b.header:
            heads = [c.strip(" *`_") for c in b.cells]
            kinds = [classify_column(c) for c in heads]
            continue
        if "sub" not in kinds or len(b.cells) != len(kinds):
            continue
        key = next((k for k in ("item", "role") if k in kinds), "")
        ki = kinds.index(key) if key else next(
            (i for i, k in enumerate(kinds) if not k and _is_person(heads[i].casefold())),  # "Team Leader" | "Backup"
            next((i for i, k in enumerate(kinds) if k in ("", "recipe")), -1))
        if ki < 0:
            continue
        key = key or ("role" if _is_person(heads[ki].casefold()) else "")
        things = _thing_table(heads, kinds, key)
        x = b.cells[ki].strip(" *`")
        if not x or _NO_CELL.fullmatch(x) or not looks_like_name(x):
            continue
        cond = next((b.cells[i].strip() for i, k in enumerate(kinds) if k == "cond" and b.cells[i].strip()), "")
        for i, k in enumerate(kinds):
            if k != "sub":
                continue
            for y in split_cell(b.cells[i]):
                y = y.strip(" *`")
                if y and not _NO_CELL.fullmatch(y) and looks_like_name(y) and y.casefold() != x.casefold():
                    out.append((x, y, b, (cond, key == "role", things)))
    return out


@functools.lru_cache(maxsize=1)
def _chain_intro() -> re.Pattern:
    return re.compile("|".join(lexicon("cues").get("chain_intro", {}).get("en", [])) or r"(?!)", re.I)


def chain_pairs(blocks: list) -> list[tuple[str, str, object]]:
    """``(x, y, block of y)`` for each entry of a list introduced as an ordered chain of stand-ins
    ("We escalate to these people (in order):" then "1. Primary Engineer", "2. Secondary
    Engineer" …, cues.yaml ``chain_intro``): every entry stands in for the one before it. An
    entry counts when its text, without parentheses, reads as a short name."""
    out = []
    rx = _chain_intro()
    for i, b in enumerate(blocks[:-1]):
        if b.kind != "paragraph" or not b.text.rstrip().endswith(":") or not rx.search(b.text):
            continue
        names = []
        k = i + 1
        while k < len(blocks) and blocks[k].kind == "item" and (not names or blocks[k].parent == blocks[i + 1].parent):
            n = _PARENS.sub("", blocks[k].text).strip().rstrip(".;,")
            names.append((n if looks_like_name(n) and len(n.split()) <= 6 else "", blocks[k]))
            k += 1
        for (a, _), (c, blk) in zip(names, names[1:]):
            if a and c:
                out.append((a, c, blk))
    return out


@functools.lru_cache(maxsize=1)
def _identity_next() -> re.Pattern | None:
    rx = lexicon("cues").get("identity_next", {}).get("en")
    return re.compile(rx, re.I) if rx else None


def resolve_named(y: str, text: str) -> str:
    """The name a generic stand-in ``y`` is given by the sentence after the one that states it
    (cues.yaml ``identity_next``): "backup message queue" + "This backup queue is currently
    provided by Acme MQ." → "Acme MQ"; else ``y``."""
    rx = _identity_next()
    if rx is None or not y or has_cjk(y):
        return y
    toks = y.split()
    initials = "".join(t[0] for t in toks if t[:1].isupper()).casefold()
    flat = unwrap(text)
    spans = sentence_spans(flat)
    for (a, b), (c, d) in zip(spans, spans[1:]):
        if y.casefold() not in flat[a:b].casefold():
            continue
        m = rx.search(flat[c:d])
        if m and m.group("n").casefold() in (toks[-1].casefold(), initials) and looks_like_name(m.group("z").strip()):
            return m.group("z").strip()
    return y



def _cue_standin(xid: str, yid: str, f, rel: str) -> Triple:
    """The stand-in edge ``xid`` → ``yid`` a cue reading ``f`` found in document ``rel`` states (``f`` has
    ``cond``, ``block``, ``line``, ``rule`` and ``confidence``): SUBSTITUTES, not symmetric, with the cue's condition, its
    provenance (section, line, ``cue.<rule>``) and its confidence, at most 0.8."""
    return Triple(xid, "SUBSTITUTES", yid, {"context": "", "condition": f.cond, "symmetric": False},
                  Provenance(rel, section_of(f.block.path), f.line, f"cue.{f.rule}", min(f.confidence, 0.8)))

class DocumentExtractor:
    """Extract a generic/SOP document: ``document`` → ``section`` (heading
    hierarchy) → ``step`` (numbered list items) ``CONTAINS`` edges with an
    ``order``; role links are added by :class:`RoleBook`.

    Section ids are ``entity_id("section", f"{doc}#{heading path}")``, step ids
    ``entity_id("step", f"{doc}#{line}")`` so they are unique per document."""

    def __init__(self, roles: RoleBook | None = None) -> None:
        self.roles = roles

    def extract(self, doc: ParsedDocument) -> DocResult:
        """Run the structure rules (and role rules if a :class:`RoleBook` is
        set) on ``doc``."""
        rel = doc.rel
        did = entity_id("document", rel)
        res = DocResult(did)
        res.entities.append(Entity(did, doc.title, "document", [], doc.language, rel))
        blocks = doc.blocks
        kids = children(blocks)
        sec_ids: dict[tuple[str, ...], str] = {(): did}
        counters: dict[str, int] = {}

        def parent_of(path: tuple[str, ...]) -> str:
            while path and path not in sec_ids:
                path = path[:-1]
            return sec_ids.get(path, did)

        def nxt(pid: str) -> int:
            counters[pid] = counters.get(pid, 0) + 1
            return counters[pid]

        for i, b in enumerate(blocks):
            if b.kind == "heading" and b.path:
                sid = entity_id("section", f"{rel}#{section_of(b.path)}")
                if sid in sec_ids.values():
                    continue
                pid = parent_of(b.path[:-1])
                sec_ids[b.path] = sid
                res.entities.append(Entity(sid, b.text, "section", [], doc.language, rel))
                res.triples.append(Triple(pid, "CONTAINS", sid, {"required": True, "amount": "", "order": nxt(pid)},
                                          Provenance(rel, section_of(b.path), b.line, "doc.heading", 1.0)))
            elif b.kind == "item" and b.ordered:
                stid = entity_id("step", f"{rel}#{b.line}")
                text = b.text
                for k in kids.get(i, []):
                    if blocks[k].kind in ("item", "paragraph") and not blocks[k].ordered:
                        text += "\n- " + blocks[k].text
                pid = parent_of(b.path)
                if b.parent >= 0 and blocks[b.parent].ordered:
                    pid = entity_id("step", f"{rel}#{blocks[b.parent].line}")
                res.entities.append(Entity(stid, _step_name(text.split("\n", 1)[0]), "step", [], doc.language, rel, text))
                res.triples.append(Triple(pid, "CONTAINS", stid, {"required": True, "amount": "", "order": b.order},
                                          Provenance(rel, section_of(b.path), b.line, "doc.numbered_item", 0.9)))
        self._optional_steps(doc, res, parent_of)
        if self.roles is not None:
            self.roles.link(doc, res)
        self._read_relations(doc, res, kids)
        return res

    @staticmethod
    def _optional_steps(doc: ParsedDocument, res: DocResult, parent_of: Callable[[tuple[str, ...]], str]) -> None:
        """Mark the optional parts of a procedure: a section whose heading, or a step or list item
        whose own text, says it is optional (:func:`optional_text`), the items of a list
        introduced as optional (:func:`optional_list_items`), and the list item or section in
        which a sentence says the step may be left out ("This step is only required if …",
        ``step_optional_sentence``), and the table rows and top-level bullets of a section whose heading
        says it is optional ("### Optional extras"; not its numbered steps), get ``required = False`` on the
        ``CONTAINS`` edge from their section (or parent step). A bullet item has no step entity of
        its own; an optional one gets one (its CONTAINS from the section, ``order`` its position)."""
        rel = doc.rel
        blocks = doc.blocks
        edges = {t.object: t for t in res.triples if t.relation == "CONTAINS"}

        def add_optional(stid: str, name: str, quote: str, b, line: int, pid: str, rule: str, conf: float,
                         order: int = 0) -> Triple:
            """Optional step ``stid`` named ``name`` (see :func:`_step_name`) under ``pid``: its entity and
            its ``CONTAINS`` edge (``required = False``), also recorded in ``edges``."""
            res.entities.append(Entity(stid, _step_name(name), "step", [], doc.language, rel, quote))
            t = Triple(pid, "CONTAINS", stid, {"required": False, "amount": "", "order": order},
                       Provenance(rel, section_of(b.path), line, rule, conf))
            res.triples.append(t)
            edges[stid] = t
            return t

        raw = _raw_lines(doc)  # the markers may be written as HTML tags, which the reader drops from the text
        listed = set(optional_list_items(blocks))
        said = set()  # blocks said optional by a sentence inside them ("This step is only required if …")
        for b in blocks:
            if b.kind == "paragraph" and any(_OPT_SENTENCE.match(b.text[a:z].strip()) for a, z in sentence_spans(b.text)):
                if b.parent >= 0 and blocks[b.parent].kind == "item":
                    listed.add(b.parent)
                elif b.path:
                    said.add(b.path)
        for path in said:
            t = edges.get(entity_id("section", f"{rel}#{section_of(path)}"))
            if t is not None:
                t.properties["required"] = False
        for b in blocks:
            if b.kind not in ("paragraph", "item") or (optional_text(b.text) if b.kind == "item" else _OPT_LEAD.match(b.text.strip())):
                continue  # marked optional as a whole below
            flat = b.text.replace("\n", " ")  # a sentence goes on over a line break ("configure\n`/security.txt`.")
            for a, z in sentence_spans(flat):
                m = _OPT_CLAUSE.search(flat, a, z)
                if not m:
                    continue
                # the clause that says it ("…, Puppet may not be necessary, but …"): the step's name
                lo = flat.rfind(", ", a, m.start())
                lo = lo + 2 if lo >= 0 else a
                hi = flat.find(", but ", m.end(), z)
                name = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", flat[lo:hi if hi > 0 else z]).strip()
                if len(name) > _NAME_MAX:  # "You can optionally add …" going on for a line and more: its complete head
                    name = complete_name(_unmarked(name))
                line = b.line + b.text.count("\n", 0, m.start())
                stid = entity_id("step", f"{rel}#{line}")
                if stid not in edges and name:
                    add_optional(stid, name, flat[a:z], b, line, parent_of(b.path), "doc.optional_sentence", 0.75)
        for b in blocks:
            if b.kind not in ("paragraph", "item"):
                continue
            src = raw(b)
            for k, m in enumerate(m for rx in _OPT_INLINE for m in rx.finditer(src)):
                # a part of the text marked optional by a template ("(optional: $SCORE)", "<optional> … </end
                # optional>"): an optional part of the section, named by what the marker encloses
                name = re.sub(r"\s+", " ", m.group("x")).strip(" `")
                line = b.line + src.count("\n", 0, m.start())
                stid = entity_id("step", f"{rel}#inline{k}#{line}")
                if name and stid not in edges:
                    add_optional(stid, name, m.group(), b, line, parent_of(b.path), "doc.optional_inline", 0.75)
        # sections whose own heading says they are optional: their table rows and top-level bullets are optional parts
        optional_sections = {b.path for b in blocks if b.kind == "heading" and b.path and optional_text(b.text)}
        for i, b in enumerate(blocks):
            if b.kind == "paragraph" and b.parent < 0 and _OPT_LEAD.match(b.text.strip()) and not _OPT_INTRO.search(b.text.strip()):
                # a paragraph of its own opened by an optional label ("(Optional) Grafana API Token: …",
                # "(optional): The issue was fixed by …"): an optional part of its section; "If applicable, …"
                # opening prose is a condition (``optional_paragraph_label``)
                if not _OPT_PARA.match(b.text.strip()):
                    continue
                stid = entity_id("step", f"{rel}#{b.line}")
                name = part_name(b.text, raw(b))
                if stid not in edges and name:
                    add_optional(stid, name, b.text, b, b.line, parent_of(b.path), "doc.optional_paragraph", 0.8)
                continue
            if b.kind == "heading" and b.path and optional_text(b.text):
                t = edges.get(entity_id("section", f"{rel}#{section_of(b.path)}"))
                if t is not None:
                    t.properties["required"] = False
                continue
            if b.kind == "row" and b.path in optional_sections and not b.header and b.cells:
                # a row of a table whose section heading says it is optional ("### Optional extras" over a table
                # of tasks): an optional part of the section, named by its first cell
                stid = entity_id("step", f"{rel}#{b.line}")
                name = re.sub(r"\s+", " ", b.cells[0]).strip(" *`")
                if stid not in edges and name and len(name) <= _NAME_MAX and len(name.split()) <= 10 and re.search(r"[^\W\d_]", name):
                    add_optional(stid, name, b.text, b, b.line, parent_of(b.path), "doc.optional_section_row", 0.75)
                continue
            if b.kind == "item" and b.path in optional_sections and not b.ordered and b.parent < 0:
                listed.add(i)  # a bullet of a section whose heading says it is optional ("Extras (optional)")
            if b.kind != "item" or not (i in listed or optional_text(b.text)) or _OPT_LABEL.match(b.text.strip()):
                continue
            stid = entity_id("step", f"{rel}#{b.line}")
            t = edges.get(stid)
            name = part_name(b.text, raw(b))
            lead = _EMPH_LEAD.match(raw(b).strip()) if marked_alone(b.text) else None
            if lead and _balanced(lead.group("x")) and len(lead.group("x")) <= _NAME_MAX:
                name = re.sub(r"\s+", " ", lead.group("x")).strip(" .:;,")  # "**Fax**: … _Optional_."
            if not name:
                continue  # its text holds no complete short name: a line cut mid-way names nothing
            if t is None:
                pid = parent_of(b.path)
                if b.parent >= 0 and entity_id("step", f"{rel}#{blocks[b.parent].line}") in edges:
                    pid = entity_id("step", f"{rel}#{blocks[b.parent].line}")
                t = add_optional(stid, name, b.text, b, b.line, pid, "doc.optional_item", 0.8, order=b.order)
            else:
                _rename(res, stid, name)
            t.properties["required"] = False

    def _read_relations(self, doc: ParsedDocument, res: DocResult, kids: dict[int, list[int]]) -> None:
        """Stand-ins, fallbacks and optional steps read sentence by sentence
        (:func:`~.relations.read_document`) in every section: X anchored to a
        known role, or a phrase the sentence names as the thing that is
        unavailable ("If Slack has an outage, …"). A side that is a known role
        or ends in a person word (``lexicon/roles.yaml`` ``person_heads``) is a
        ``role``, else an ``artifact`` (a system, tool or channel).
        ``SUBSTITUTES`` X → Y with the condition as written; an ordered step
        marked optional gets ``required = False`` on its ``CONTAINS`` edge."""
        roles: DictLinker[str] = DictLinker()
        if self.roles is not None:
            for canon, aliases in self.roles.names.items():
                for n in [canon, *aliases]:
                    roles.add(n, canon)
        rel = doc.rel
        steps = {t.object: t for t in res.triples if t.relation == "CONTAINS" and t.object.startswith("step:")}
        have = {(t.subject, t.object) for t in res.triples if t.relation == "SUBSTITUTES"}
        text = "\n".join(b.text for b in doc.blocks)
        raw = _raw_lines(doc)
        for f in read_document(doc.blocks, roles, unanchored=True, focus=_previous_item_thing(doc.blocks)):
            if f.kind == "optional":
                t = steps.get(entity_id("step", f"{rel}#{f.block.line}"))
                name = part_name(f.block.text, raw(f.block))
                if t is not None and f.block.ordered and name:
                    _rename(res, t.object, name)
                    t.properties["required"] = False
                continue
            xs = re.split(r"\s+or\s+", f.x) if f.rule in _STRICT_PEOPLE_RULES else [f.x]  # "If the CMO or the Bursar is …"
            all_sides = [people_sides(x, f.ys, roles, f.rule in _NAMED_ACTOR_RULES) for x in xs] if f.rule in _STRICT_PEOPLE_RULES | _DELEGATE_RULES else [None]
            if f.rule in _STRICT_PEOPLE_RULES or all_sides[0] is not None:  # "the CMO or delegate": two people, as roles
                if any(s is None for s in all_sides) or (f.rule not in _DELEGATE_RULES | _NAMED_ACTOR_RULES
                                                         and _DELEGATES.search(f.block.text)
                                                         and not _DELEGATE_LABEL.match(f.block.text)):
                    continue
                for sides in all_sides:
                    xid = self._party(sides[0], bool(roles.get(sides[0])), roles, res, doc, "role")
                    for y in sides[1]:
                        yid = self._party(y, bool(roles.get(y)), roles, res, doc, "role")
                        if not xid or not yid or yid == xid or (xid, yid) in have:
                            continue
                        have.add((xid, yid))
                        res.triples.append(_cue_standin(xid, yid, f, rel))
                continue
            if not f.anchored and not thing_phrase(f.x, text, _PERSON_HEADS) and not _coded(f.x, raw(f.block)) and not (
                    f.kind == "substitute" and _named_again(f.x, text)) and not (
                    f.x.casefold() in _PERSON_HEADS and any(_is_person(y) and y[:1].isupper() for y in f.ys)) and not (
                    f.rule in _PEOPLE_RULES and _is_person(f.x)) and not (  # "ask your manager or the security team"
                    _in_place(f) and named_in_place(f.x, text, f.rule in _IN_PLACE_ONE_WORD)) and not (
                    f.rule in _np_rules() and np_side(f.x, text, raw(f.block))):  # "… rather than share tokens"
                continue
            if f.rule in _PASSIVE_RULES and not (roles.get(f.x) or _person_word(f.x)):
                continue  # the subject of a passive opens the sentence: its capital says nothing
            if f.rule in _PEOPLE_RULES and not ((roles.get(f.x) or _is_person(f.x))
                                                 and all(roles.get(y) or _is_person(y) for y in f.ys)):
                continue  # "ask X or Y" joins two people, never two things
            anchored = f.anchored and bool(roles.get(f.x))  # a list item's focus is a thing, not a role
            xid = self._party(f.x, anchored, roles, res, doc)
            if not xid:
                continue
            if _DELEGATES.search(f.block.text) and f.rule not in _DELEGATE_RULES and not _DELEGATE_LABEL.match(f.block.text):
                continue  # "…, the X is responsible for delegating somebody": a delegation, read by the role rules
            for y in f.ys:
                y = y if roles.get(y) else resolve_named(y, f.block.text)
                if not roles.get(y) and not thing_phrase(y, text, _PERSON_HEADS) and not _coded(y, raw(f.block)) and not (
                        xid.startswith("role:") and _is_person(y) and looks_like_name(y)) and not (  # "other people on the team"
                        _in_place(f) and _noun_phrase(f.x) and named_in_place(y, text, f.rule in _IN_PLACE_ONE_WORD)) and not (
                        f.rule in _np_rules() and np_side(y, text, raw(f.block))):
                    continue
                toks = y.split()
                ends_in_role = any(roles.get(" ".join(toks[k:])) for k in range(1, min(len(toks), 4)))
                if xid.startswith("role:") and not (roles.get(y) or _is_person(y) or ends_in_role):
                    continue  # a role stands in for a role or a person, not for an activity
                # the backup of a system named by a system-fallback construction is a thing too ("our fallback
                # option is Microsoft Teams": a product, though its last word names people)
                same_kind = "artifact" if (xid.startswith("artifact:") and f.rule in _THING_FALLBACK_RULES
                                           and not roles.get(y)) else ""
                yid = self._party(y, bool(roles.get(y)), roles, res, doc, same_kind)
                if not yid or yid == xid or (xid, yid) in have:
                    continue
                have.add((xid, yid))
                res.triples.append(_cue_standin(xid, yid, f, rel))

        for x, y, blk, cond in table_standins(doc.blocks):
            # a table of systems ("System | Primary | Backup") pairs things, whatever their capitals; elsewhere a
            # backup that names no person ("Slack | email") makes the row a pair of things
            xrole = bool(roles.get(x)) or cond[1] or (x.split()[-1].casefold() in _PERSON_HEADS if cond[2] else _is_person(x) and _is_person(y))
            xid = self._party(x, bool(roles.get(x)), roles, res, doc, "role" if xrole else "")
            yid = self._party(y, bool(roles.get(y)), roles, res, doc, "role" if xrole else "")
            if not xid or not yid or xid == yid or (xid, yid) in have:
                continue
            have.add((xid, yid))
            res.triples.append(Triple(xid, "SUBSTITUTES", yid, {"context": "", "condition": cond[0], "symmetric": False},
                                      Provenance(rel, section_of(blk.path), blk.line, "doc.table_standin", 0.8)))

        # "Alternatively, Y" after X; "X does not work on B. However, … Y"; "use ⟦A⟧ or ⟦B⟧"; "X should not be kept
        # in A. Instead, use B": things, never roles
        for pairs, rule in ((alternative_pairs(doc.blocks, raw), "doc.alternatively"),
                            (contrast_pairs(doc.blocks, raw), "doc.contrast"),
                            (named_pairs(doc.blocks, raw), "doc.named_pair"),
                            (instead_pairs(doc.blocks), "doc.instead"),
                            (parallel_pairs(doc.blocks, raw), "doc.parallel_instead")):
            for x, y, blk, line in pairs:
                xid = self._party(x, False, roles, res, doc)
                yid = self._party(y, False, roles, res, doc)
                if not xid or not yid or xid == yid or (xid, yid) in have or xid.startswith("role:") or yid.startswith("role:"):
                    continue
                have.add((xid, yid))
                res.triples.append(Triple(xid, "SUBSTITUTES", yid, {"context": "", "condition": "", "symmetric": False},
                                          Provenance(rel, section_of(blk.path), line, rule, 0.7)))

        self._named_alternatives(doc, res, roles, have, raw)

        for x, y, blk in chain_pairs(doc.blocks):
            xid = self._party(x, bool(roles.get(x)), roles, res, doc)
            yid = self._party(y, bool(roles.get(y)), roles, res, doc)
            if not xid or not yid or xid == yid or (xid, yid) in have or xid.startswith("role:") != yid.startswith("role:"):
                continue
            have.add((xid, yid))
            res.triples.append(Triple(xid, "SUBSTITUTES", yid, {"context": "", "condition": "", "symmetric": False},
                                      Provenance(rel, section_of(blk.path), blk.line, "doc.chain", 0.7)))

    def _named_alternatives(self, doc: ParsedDocument, res: DocResult, roles: DictLinker[str],
                            have: set[tuple[str, str]], raw: Callable[[object], str]) -> None:
        """``SUBSTITUTES`` (symmetric) between two named things a policy sentence offers one for the other
        (:func:`~.named_alternatives.named_alternative_pairs`: "Post to Slack in #bot-support or email team@…",
        "request either a Guest or Member account"); two known roles are left to the role rules."""
        for x, y, blk, line, rule in named_alternative_pairs(doc.blocks, raw):
            if roles.get(x) and roles.get(y):
                continue
            xid = self._party(x, bool(roles.get(x)), roles, res, doc)
            yid = self._party(y, bool(roles.get(y)), roles, res, doc)
            if not xid or not yid or xid == yid or (xid, yid) in have or (yid, xid) in have:
                continue
            have.add((xid, yid))
            res.triples.append(Triple(xid, "SUBSTITUTES", yid, {"context": "", "condition": "", "symmetric": True},
                                      Provenance(doc.rel, section_of(blk.path), line, rule, 0.75)))

    @staticmethod
    def _party(name: str, anchored: bool, roles: DictLinker[str], res: DocResult, doc: ParsedDocument,
               type_: str = "") -> str:
        """Entity id of one side of a stand-in (creating the entity), ``""``
        when the phrase does not read as a name; ``type_`` forces the entity type of a name that is no
        known role (a cell of a table's role column)."""
        if anchored or roles.get(name):
            canon = (roles.get(name) or [name])[0]
            return entity_id("role", canon)
        n = re.sub(r"^(?:the|a|an|our|your|their)\s+", "", name.strip(), flags=re.I).strip(" *`'\"")
        if not looks_like_name(n) or len(n) < 2:
            return ""
        last = n.split()[-1].casefold() if not has_cjk(n) else n
        type_ = type_ or ("role" if (last in _PERSON_HEADS or any(n.endswith(h) for h in _PERSON_HEADS if has_cjk(h)))
                          else "artifact")
        eid = entity_id(type_, n)
        if not any(e.id == eid for e in res.entities):
            res.entities.append(Entity(eid, n, type_, [], "zh" if has_cjk(n) else "en", ""))
        return eid
