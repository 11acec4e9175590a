"""Entity linking against the KB's names and aliases.

In order:

1. **longest match** — a maximal-munch scan of the text over a dictionary of
   every KB name and alias (:class:`~threadgraph.knowledge.text.DictLinker`:
   Aho–Corasick over normalized names; CJK by character, Latin by word
   boundary), the dictionary-based segmentation used for Chinese word
   segmentation (e.g. Wong & Chan, 1996, "Chinese word segmentation based on
   maximum matching");
2. **pinyin** — Latin words spelling a Chinese name's toneless pinyin
   (written as one word or syllable by syllable, part of it possibly said by an
   English name of those characters) and a Chinese name typed with a homophone
   (a wrong character of the same syllable picked in a pinyin input method), through
   :class:`~threadgraph.knowledge.text.PinyinIndex` (``pypinyin``; the index is
   built once per linker, on first use);
3. **fuzzy** — rapidfuzz ``ratio`` (normalized Levenshtein) of an unlinked
   slot against the names of the expected type (threshold from settings;
   short CJK names need an exact or containment match);
4. **vector nearest names** — the query embedding against the LanceDB table
   of entity-name embeddings (used by the core for "did you mean" suggestions).

Unknown entities (a slot the KB does not know) are kept with type
``unknown`` so that the answer can say so, never dropped.
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from ..knowledge.text import (DictLinker, PinyinIndex, has_cjk, pinyin_of_names, pinyin_syllables, singular,
                              title_names)
from . import words

@functools.lru_cache(maxsize=1)
def _bilingual_groups() -> list[tuple[tuple[str, ...], list[str]]]:
    """Groups of names meaning the same thing in Chinese and English
    (``knowledge/lexicon/bilingual.yaml``), each with the entity types of its section
    (:data:`threadgraph.knowledge.bilingual.SECTIONS`; ``()`` for a section it does not
    list: any type); ``[]`` when the file is absent."""
    from ..knowledge.bilingual import SECTIONS
    from ..knowledge.text import lexicon

    try:
        data = lexicon("bilingual") or {}
    except FileNotFoundError:
        return []
    return [(SECTIONS.get(name, ()), [str(x) for x in g]) for name, sec in data.items() if isinstance(sec, list)
            for g in sec if isinstance(g, list)]


@functools.lru_cache(maxsize=1)
def _phrases() -> frozenset[str]:
    """Chinese words of ``pypinyin``'s phrase dictionary: a slot that is one of them is a word
    in its own right, never read as a homophone typo of a KB name."""
    from pypinyin.constants import PHRASES_DICT

    return frozenset(PHRASES_DICT)


@functools.lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    """English function words (``knowledge/lexicon/stopwords.yaml``): a title's tail starting
    with one ("with Vegetables", "and Artichokes") names no dish."""
    from ..knowledge.text import stop_words

    return frozenset(stop_words("en"))


#: A surface naming several entities links to the first type in this order.
_TYPE_ORDER = {"recipe": 0, "role": 1, "ingredient": 2, "tool": 3, "document": 4, "artifact": 5, "concept": 6}


#: Latin words (pinyin is typed with ASCII letters; "ü" as "v" or "ü").
_LATIN = re.compile(r"[a-zü]+", re.I)
#: A slot that is nothing but Latin words (spaces, hyphens and apostrophes between them).
_LATIN_SLOT = re.compile(r"[a-zü]+(?:[\s'’\-]+[a-zü]+)*", re.I)


#: A Latin recipe title's dish before what it comes with or in ("X with Y", "X in Y").
_TITLE_HEAD = re.compile(r"^(.+?)\s+(?:with|in|on|over)\s+\S.*$", re.I)


@dataclass
class Mention:
    """A linked (or unknown) entity mention: ``surface`` as written, ``start``
    offset in the text, KB ``id`` (None when unknown), canonical ``name``,
    ``type`` and linking ``method`` (exact, alias, pinyin, fuzzy, vector, memory,
    unknown)."""

    surface: str
    name: str
    type: str
    id: str | None = None
    start: int = -1
    method: str = "exact"
    doc: str = ""
    score: float = 100.0
    near: tuple[str, ...] = ()  # other recipe names a partly typed or misspelled slot was as close to
    typed: str = ""  # the slot as typed, when only part of it named the recipe ("carmel praline cheesecake")


def clean_slot(text: str) -> str:
    """Trim punctuation, politeness and particles from a rule's slot text;
    ``""`` when only function characters remain."""
    t = text.strip(words.slot_punctuation())
    t = words.slot_trim("zh").sub("", t).strip()
    t = words.slot_trim("en").sub("", t).strip()
    if t and all(ch in words.function_chars() for ch in t):
        return ""  # only function characters ("的"): no slot
    return t


def is_pronoun(value: str) -> bool:
    """True when ``value`` is nothing but a pronoun ("它", "this one")."""
    v = value.strip().casefold()
    return v in words.pronouns("zh") or v in words.pronouns("en")


def cjk_title_variants(title: str) -> list[str]:
    """Other ways a question names the dish of a Chinese recipe title (``title_variants`` of
    ``bot/lexicon/words.yaml``): the title without a trailing "guide"/"recipe" word
    ("<菜名>制作指南" → "<菜名>"), the part after a lead-in separator ("<系列名> - <菜名>" →
    "<菜名>"), the Chinese side of a "中文/English" title ("<中文名>/<English Name>" → "<中文名>"),
    and the trailing parts of at least ``zh_tail_chars`` characters ("ABCDE饭" → "BCDE饭", "CDE饭",
    "DE饭"). The caller keeps a variant only when it names one entity."""
    data = words.lexicon()["title_variants"]
    suffixes = sorted(data["zh_suffixes"], key=len, reverse=True)
    out: list[str] = []

    def add(v: str) -> None:
        v = v.strip(" -–—,，:：!！?？")
        if len(v) >= 2 and v != title and v not in out:
            out.append(v)

    def bare(v: str) -> str:
        for sfx in suffixes:
            if v.endswith(sfx) and len(v) - len(sfx) >= 2:
                return v[: -len(sfx)]
        return v

    parts = [p.strip() for p in re.split(data["zh_separators"], title) if p.strip()]
    # the dish is named after a lead-in ("<赞语>！<菜名>"): the last part with Chinese in it
    # (the part glossed in English when one is: "<菜名> <English Name> – <说明>")
    gloss_re = r"^([\u4e00-\u9fff]{2,})\s*/?\s*([A-Za-z][^\u4e00-\u9fff]*)$"
    glossed = [p for p in parts if re.match(gloss_re, p)]
    last = glossed[-1] if glossed else next((p for p in reversed(parts) if has_cjk(p)), "")
    names = []
    gloss = re.match(gloss_re, last)
    if gloss:
        names.append(gloss.group(1))  # "<中文名> <English Name> …", "<中文名>/<English Name>": the Chinese name
        for side in gloss.group(2).split("/"):
            if len(side.strip()) >= 5:
                out.append(side.strip())  # and its English name
    elif "/" in last:
        names.append(last.split("/")[0].strip())  # "<菜一>/<菜二>": the first dish
    if len(parts) > 1 and re.fullmatch(r"[\u4e00-\u9fff]+", last):
        names.append(last)
    names.append(title)
    dishes = []
    for v in names:
        b = bare(v)
        if re.fullmatch(r"[\u4e00-\u9fff]+", b):
            dishes.append(b)
            add(b)
    k = int(data["zh_tail_chars"])
    for v in dishes:
        for i in range(1, len(v) - k + 1):
            add(v[i:])
    return out


def _in_order(short: str, long: str) -> bool:
    """The characters of ``short`` occur in ``long`` in the same order."""
    it = iter(long)
    return all(ch in it for ch in short)


@functools.lru_cache(maxsize=8192)
def _syllables(text: str) -> tuple[str, ...]:
    return pinyin_syllables(text)


def _in_order_by_sound(short: str, long: str) -> bool:
    """The characters of ``short`` occur in ``long`` in the same order, exactly one of them
    written with a homophone (the same toneless pinyin syllable, ``pypinyin``) of the character
    it stands for: "<X>超蛋" for a name "<X>炒<Y>蛋"."""
    a, b = _syllables(short), _syllables(long)
    if not a or not b:
        return False
    j, swapped = 0, 0
    for i, ch in enumerate(short):
        while j < len(long) and long[j] != ch and b[j] != a[i]:
            j += 1
        if j == len(long):
            return False
        swapped += long[j] != ch
        j += 1
    return swapped == 1


#: Latin words, and the shortest word read as a typo of a KB name's word (:meth:`Linker.correct_names`).
_TYPO_WORD = re.compile(r"[A-Za-z]+")
_TYPO_MIN = 4

#: Characters a Chinese slot needs to be read as the end of a longer dish name.
CJK_TAIL_CHARS = 4

class Linker:
    """Links text to KB entities (see module docstring).

    Built from a list of :class:`~threadgraph.knowledge.kb.EntityName`; ``link``
    resolves one slot string, ``scan`` finds all longest matches in free text,
    ``suggest`` proposes near names. ``vocabulary`` (lower-case Latin words the KB writes,
    :meth:`~threadgraph.knowledge.kb.KnowledgeBase.vocabulary`) lets the question reader correct
    typed words the KB never writes; empty by default (no correction beyond the cue words).
    """

    def __init__(self, names, *, fuzzy_threshold: float = 88.0, vocabulary: frozenset[str] = frozenset()):
        #: lower-case Latin words the KB writes, for correcting typed words (``words.correct_typos``)
        self.vocabulary = vocabulary
        self.by_surface: dict[str, list] = {}
        self.by_type: dict[str, list[str]] = {}
        self.fuzzy_threshold = fuzzy_threshold
        #: surfaces registered from Chinese title variants: exact names only, never fuzzy-matched
        #: ("汕牛肉丸改良版" must not pull "牛肉丸改良版" to one of two dishes ending so)
        self._title_variants: set[str] = set()
        for n in names:
            s = n.surface.casefold().strip()
            if not s:
                continue
            self.by_surface.setdefault(s, []).append(n)
            if n.type == "document" and "_" in s:
                # file-stem titles read as words: after_an_incident -> "after an incident"
                self.by_surface.setdefault(s.replace("_", " "), []).append(n)
        self._add_variants(names)
        self._has_cjk_names = any(has_cjk(s) for s in self.by_surface)
        for s, lst in self.by_surface.items():
            # a surface that names several entities: recipes before ingredients before the rest
            lst.sort(key=lambda n: (_TYPE_ORDER.get(n.type, 9), n.surface != n.name, n.id))
            for t in {n.type for n in lst}:
                self.by_type.setdefault(t, []).append(s)
        self._dicts: dict[tuple[str, ...] | None, DictLinker] = {}
        self._pinyin: PinyinIndex | None = None
        self._lock = threading.Lock()

    @functools.cached_property
    def _multiword(self) -> dict[int, list[tuple[str, ...]]]:
        """The KB's Latin names of two to four words, as lower-case word tuples, by word count;
        names only of recipes or documents are left to :meth:`link`, whose close match says what it read."""
        out: dict[int, list[tuple[str, ...]]] = {}
        for s, lst in self.by_surface.items():
            if all(n.type in ("recipe", "document") for n in lst):
                continue
            ws = tuple(_TYPO_WORD.findall(s))
            if 2 <= len(ws) <= 4 and " ".join(ws) == s:
                out.setdefault(len(ws), []).append(ws)
        return out

    def correct_names(self, text: str) -> str:
        """``text`` with each run of two to four Latin words that is one typo per word away from
        exactly one KB name of as many words written as that name ("the incdent comander" → "the
        incident commander"). A word counts as a typo of the name's word when it is at least
        ``_TYPO_MIN`` letters long, the KB's own text never writes it (``vocabulary``) and it is one
        edit away (optimal string alignment, rapidfuzz ``OSA``: a letter left out, added or changed,
        two neighbours swapped); every other word must equal the name's. Runs are tried longest
        first, left to right; ``text`` is returned unchanged without a vocabulary or such a run."""
        if not self.vocabulary or not self._multiword:
            return text
        toks = list(_TYPO_WORD.finditer(text))
        out, i, pos = [], 0, 0
        while i < len(toks):
            fixed = None
            for n in (4, 3, 2):
                run = toks[i:i + n]
                if len(run) < n or any(text[a.end():b.start()] != " " for a, b in zip(run, run[1:])):
                    continue
                typed = [m.group().casefold() for m in run]
                if " ".join(typed) in self.by_surface:
                    break
                hits = [ws for ws in self._multiword.get(n, ()) if self._typos_of(typed, ws)]
                if len(hits) == 1:
                    fixed = (n, " ".join(hits[0]))
                    break
            if fixed is None:
                i += 1
                continue
            n, name = fixed
            out.append(text[pos:toks[i].start()])
            out.append(name)
            pos = toks[i + n - 1].end()
            i += n
        return "".join(out) + text[pos:] if out else text

    def _typos_of(self, typed: list[str], name: tuple[str, ...]) -> bool:
        """Each of ``typed`` equals the word of ``name`` at its place or is a typo of it (see
        :meth:`correct_names`), and at least one is a typo."""
        edits = 0
        for w, n in zip(typed, name):
            if w == n:
                continue
            if len(w) < _TYPO_MIN or w in self.vocabulary or OSA.distance(w, n) != 1:
                return False
            edits += 1
        return edits > 0

    def _add_variants(self, names) -> None:
        """Other ways people write a KB name, registered as aliases unless they
        would name two different entities: a title without its parenthesised
        gloss and the gloss itself ("Akara (Bean Cakes)" → "Akara", "Bean
        Cakes"); each side of a slash list ("Chicken/Pork/Veggie Tovarich" →
        "Tovarich", "Pork Tovarich"); the unique trailing words of a longer
        recipe title ("Nigerian Pepper Soup" → "Pepper Soup"); and the other
        language's names from the bilingual lexicon
        (``knowledge/lexicon/bilingual.yaml``)."""
        extra: dict[str, set] = {}

        def offer(surface: str, n, shortest: int = 3) -> None:
            v = " ".join(surface.split()).strip(" -–—,:;").casefold()
            if len(v) >= shortest and v not in self.by_surface:
                extra.setdefault(v, set()).add((n.id, n.name, n.type, n.doc))

        tails: dict[str, set] = {}
        for n in list(names):
            if n.type not in ("recipe", "document", "ingredient", "tool", "role"):
                continue
            s = n.surface
            if n.type == "recipe":
                # the names the title answers to by its structure: each alternative of a slash with
                # the shared head or tail, a bracketed other name, the title without a version note
                for v in title_names(s):
                    offer(v, n, 2 if has_cjk(v) else 3)  # a two-character Chinese dish is a name
                    if has_cjk(v):
                        self._title_variants.add(" ".join(v.split()).casefold())
            m = None if n.type == "recipe" else re.match(r"^(.*?)\s*[（(]([^()（）]+)[)）]\s*(.*)$", s)
            if m:
                offer(f"{m.group(1)} {m.group(3)}", n)
                offer(m.group(2), n)
            if "/" in s and not has_cjk(s) and not any(ch.isdigit() for ch in s):
                # (a fraction is no slash list: "1 1/4 cups all-purpose flour, plus more if needed"
                # must not make "needed" a name of the flour)
                head, _, rest = s.rpartition(" ")
                opts = [o.strip() for o in head.split("/") if o.strip()]
                if len(opts) > 1 and rest:
                    offer(rest, n)
                    for o in opts:
                        offer(f"{o} {rest}", n)
            if n.type == "recipe" and not has_cjk(s):
                # the unique trailing words of the title, and of the title without its gloss (so a
                # gloss does not hide that two titles end alike: "Oatmeal Chocolate Chip Cookies (en)")
                bare = re.sub(r"\s*[（(][^()（）]*[)）]\s*", " ", s).split()
                for words_ in {tuple(s.split()), tuple(bare)}:
                    for k in range(1, len(words_) - 1):
                        if words_[k].casefold() in _stop_words():
                            continue  # "with Vegetables" is no name of "Curried Chickpeas with Vegetables"
                        tails.setdefault(" ".join(words_[k:]).casefold(), set()).add((n.id, n.name, n.type, n.doc))
                m = _TITLE_HEAD.match(s)
                if m and len(m.group(1).split()) >= 2:
                    # the dish before what it comes with: "Split Pea Soup with Dill" → "Split Pea Soup"
                    tails.setdefault(m.group(1).casefold(), set()).add((n.id, n.name, n.type, n.doc))
        for t, ids in tails.items():
            if len(ids) == 1 and t not in self.by_surface:
                extra.setdefault(t, set()).update(ids)
        # a variant inside the name of an ingredient or tool ("豬肋骨" of "新鮮豬肋骨") names that thing, not the dish
        things = "\n".join(s for s, lst in self.by_surface.items() if has_cjk(s)
                            and any(x.type not in ("recipe", "document") for x in lst))
        for n in names:
            if n.type == "recipe" and has_cjk(n.surface):
                variants = cjk_title_variants(n.surface)
                for name in title_names(n.surface):
                    if has_cjk(name):
                        variants += [v for v in cjk_title_variants(name) if v not in variants]
                for v in variants:
                    key = " ".join(v.split()).strip(" -–—,:;").casefold()
                    if v.casefold() not in things and key not in self.by_surface:
                        offer(v, n)
                        self._title_variants.add(key)
        for types, group in _bilingual_groups():
            keys = [g.casefold() for g in group]
            hits = {(h.id, h.name, h.type, h.doc) for k in keys for h in self.by_surface.get(k, [])}
            if len(hits) > 1 and types:
                # a KB name that is also another kind of entity (an ingredient that a runbook-style
                # reading also made an artifact): the group names the thing of its section's type
                hits = {h for h in hits if h[2] in types} or hits
            for k in keys:
                if k not in self.by_surface:
                    extra.setdefault(k, set()).update(hits)
        if any(has_cjk(n.surface) for n in names):
            # a Chinese name's dictionary gloss (knowledge/glossary.py) names it too
            # (the bilingual lexicon's names come first)
            from ..knowledge.glossary import DICTIONARY_KINDS, linking_gloss

            for n in names:
                if n.type in DICTIONARY_KINDS and has_cjk(n.surface):
                    gloss = linking_gloss(n.surface, n.type)
                    if gloss:
                        offer(gloss, n)
        from ..knowledge.kb import EntityName

        for v, ids in extra.items():
            if len({i[0] for i in ids}) != 1:
                continue  # it would name two different things
            eid, name, type_, doc = next(iter(ids))
            self.by_surface[v] = [EntityName(eid, name, type_, v, doc)]

    def _pick(self, surface: str, types: tuple[str, ...] | None):
        key = surface.casefold()
        cands = self.by_surface.get(key)
        if not cands and key.isascii():
            cands = self.by_surface.get(singular(key))  # a plural: "<name>s"
        if not cands:
            return None
        if types:
            for t in types:
                for c in cands:
                    if c.type == t:
                        return c
            return None
        return cands[0]

    def _dictionary(self, types: tuple[str, ...] | None) -> DictLinker:
        """The longest-match dictionary of the surfaces that pick an entity of
        ``types`` (built once per type tuple). One-word Latin document,
        concept and section titles ("about", "index") are left out: in a
        question they are ordinary words."""
        key = tuple(types) if types else None
        d = self._dicts.get(key)
        if d is None:
            with self._lock:
                d = self._dicts.get(key)
                if d is None:
                    d = DictLinker()
                    for s in self.by_surface:
                        hit = self._pick(s, types)
                        if hit is None or (hit.type in ("document", "concept", "section") and s.isascii() and " " not in s):
                            continue
                        d.add(s, s)
                    d.scan("")  # build the automaton before it is shared
                    self._dicts[key] = d
        return d

    def scan(self, text: str, *, types: tuple[str, ...] | None = None, min_len: int = 2) -> list[Mention]:
        """All non-overlapping longest matches of KB names in ``text`` (of
        ``types`` when given; names shorter than ``min_len`` characters are
        ignored), in text order; ``start`` is the offset in ``text``."""
        out: list[Mention] = []
        for m in self._dictionary(types).scan(text, min_len=min_len):
            hit = next((h for h in (self._pick(s, types) for s in m.values) if h is not None), None)
            if hit is not None:
                out.append(Mention(m.surface, hit.name, hit.type, hit.id, m.start,
                                   "exact" if hit.surface == hit.name else "alias", hit.doc))
        if _LATIN.search(text) and self._has_cjk_names:
            # Latin words spelling a Chinese name's pinyin, where no name matched
            taken = [(m.start, m.start + len(m.surface)) for m in out]
            for p in self._pinyin_index().scan(text):
                if any(p.start < e and s < p.end for s, e in taken):
                    continue
                hit = self._unique(p.values, types)
                if hit is not None:
                    out.append(Mention(p.surface, hit.name, hit.type, hit.id, p.start, "pinyin", hit.doc, 95.0))
            out.sort(key=lambda m: m.start)
        if self._has_cjk_names and has_cjk(text):
            # a name written with a homophone character where no name matched: three
            # characters or more, never a word of its own, never a title variant
            taken = {i for m in out for i in range(m.start, m.start + len(m.surface))}
            found = []
            for p in self._pinyin_index().homophone_spans(text, skip=taken):
                if p.surface in _phrases():
                    continue
                hit = self._unique([s for s in p.values if s not in self._title_variants], types)
                if hit is not None:
                    found.append(Mention(p.surface, hit.name, hit.type, hit.id, p.start, "pinyin", hit.doc, 95.0))
            if found:
                out = sorted(out + found, key=lambda m: m.start)
        return out

    def _pinyin_index(self) -> PinyinIndex:
        """The pinyin index of the KB's Chinese names (built once, on first use): every Chinese
        surface except the title variants, with the English names of the bilingual lexicon as
        aliases of their Chinese words' syllables (so the pinyin of a name's first characters
        followed by the English name of its last ones reads the whole name).
        The title variants are in it for Latin spellings only (:meth:`_by_pinyin`)."""
        idx = self._pinyin
        if idx is None:
            with self._lock:
                idx = self._pinyin
                if idx is None:
                    groups = _bilingual_groups()
                    cjk = [s for s in self.by_surface if has_cjk(s)]
                    syl = pinyin_of_names(cjk + [g for _t, group in groups for g in group if has_cjk(g)])
                    aliases: dict[str, list[tuple[str, ...]]] = {}
                    for _types, group in groups:
                        syls = [p for p in dict.fromkeys(syl.get(DictLinker.key(g), ()) for g in group if has_cjk(g)) if p]
                        for g in group:
                            if syls and not has_cjk(g) and g.isascii():
                                lst = aliases.setdefault(g.casefold(), [])
                                lst.extend(p for p in syls if p not in lst)
                    idx = PinyinIndex(aliases, _stop_words())
                    for s in cjk:
                        p = syl.get(DictLinker.key(s))
                        if p:
                            idx.add(s, s, p)
                    self._pinyin = idx
        return idx

    def _unique(self, surfaces, types: tuple[str, ...] | None):
        """The one entity (of ``types``) the ``surfaces`` name, else ``None`` (none, or several)."""
        hits = {h.id: h for h in (self._pick(s, types) for s in surfaces) if h is not None}
        return next(iter(hits.values())) if len(hits) == 1 else None

    def _by_pinyin(self, slot: str, types: tuple[str, ...] | None) -> Mention | None:
        """The entity a slot names by pinyin: a slot of Latin words spelling a Chinese name's
        toneless pinyin, whole (one word, a word per syllable, or part said in English), or a
        Chinese slot written with a homophone character; only when exactly one entity fits."""
        if not self._has_cjk_names:
            return None
        idx = self._pinyin_index()
        if has_cjk(slot):
            if slot in _phrases():
                return None  # a word of its own, not a typo of a name that sounds alike
            # (a title variant is an exact name only: a homophone of a dish's tail is no typo of it)
            hit = self._unique([s for s, _ in idx.homophones(slot) if s not in self._title_variants], types)
        elif _LATIN_SLOT.fullmatch(slot):
            hit = self._unique([s for s, _ in idx.read(_LATIN.findall(slot.lower()))], types)
        else:
            return None
        if hit is None:
            return None
        return Mention(slot, hit.name, hit.type, hit.id, 0, "pinyin", hit.doc, 95.0)

    def link(self, slot: str, types: tuple[str, ...] | None = None) -> Mention:
        """Resolve one slot string to an entity of ``types`` (any when None):
        exact/alias → longest contained match → fuzzy; else an ``unknown``
        mention carrying the slot text."""
        slot = clean_slot(slot)
        hit = self._pick(slot, types)
        if hit is not None:
            return Mention(slot, hit.name, hit.type, hit.id, 0, "exact" if hit.surface == hit.name else "alias", hit.doc)
        pin = self._by_pinyin(slot, types)
        if pin is not None:
            return pin
        inner = self.scan(slot, types=types, min_len=1 if has_cjk(slot) else 2)
        if inner:
            best = max(inner, key=lambda m: len(m.surface))
            # a contained name must be most of the slot (a one-character name inside a longer
            # unknown word is not it), except whole recipes/roles
            if (len(best.surface) >= 2 and len(best.surface) * 3 >= len(slot) * 2) or best.type in ("recipe", "role"):
                if best.type in ("recipe", "document") and not has_cjk(slot) and len(best.surface) < len(slot):
                    best.typed = slot  # part of the slot named it: the answer says which recipe it used
                return best
        choices = []
        for t in types or tuple(self.by_type):
            choices.extend(self.by_type.get(t, []))
        if choices and len(slot) >= 3 and not has_cjk(slot):
            # a name that ends with the slot as whole words ("crushed X" for "X") before a typo match
            low = slot.casefold()
            ends = sorted((c for c in choices if c.endswith(" " + low) or c.endswith(" " + singular(low))), key=len)
            if ends:
                hit = self._pick(ends[0], types)
                if hit is not None:
                    return Mention(slot, hit.name, hit.type, hit.id, 0, "contained", hit.doc, 95.0,
                                   self._near(ends, hit, types))
            if types and set(types) <= {"recipe", "document"}:
                # a dish named by the words its only title starts with ("egusi" → "Egusi Soup")
                starts = {h.id: h for h in (self._pick(c, types) for c in choices if c.startswith(low + " ")) if h is not None}
                if len(starts) == 1:
                    hit = next(iter(starts.values()))
                    return Mention(slot, hit.name, hit.type, hit.id, 0, "contained", hit.doc, 95.0)
        if choices and len(slot) >= CJK_TAIL_CHARS and has_cjk(slot):
            # the end of one dish's longer name ("牛肉丸改良版" for "潮汕牛肉丸改良版"): Chinese names
            # put their modifiers first; only when exactly one recipe or document name ends so
            low = slot.casefold()
            ends = {h.id: h for h in (self._pick(c, types) for c in choices if c.endswith(low) and c != low)
                    if h is not None and h.type in ("recipe", "document")}
            if len(ends) == 1:
                hit = next(iter(ends.values()))
                return Mention(slot, hit.name, hit.type, hit.id, 0, "contained", hit.doc, 95.0)
        short = self._abbreviated_dish(slot, types)
        if short is not None:
            return short
        part = self._part_of_dish(slot, types)
        if part is not None:
            return part
        if choices and len(slot) >= 2:
            # plain normalized Levenshtein: tolerates typos (a dropped letter) but not partial
            # overlaps (WRatio scores a short word inside a long two-word name at 90)
            pool = [c for c in dict.fromkeys(choices) if c not in self._title_variants]
            res = process.extract(slot.casefold(), pool, scorer=fuzz.ratio,
                                  score_cutoff=self.fuzzy_threshold, limit=8)
            if res and (len(slot) >= 4 or not has_cjk(slot)):
                # the closest name wins; among equally close names the one nearest in length
                res.sort(key=lambda r: (-r[1], abs(len(r[0]) - len(slot)), r[0]))
                hit = self._pick(res[0][0], types)
                if hit is not None:
                    return Mention(slot, hit.name, hit.type, hit.id, 0, "fuzzy", hit.doc, float(res[0][1]),
                                   self._near([r[0] for r in res if r[1] >= res[0][1] - 3], hit, types))
        return Mention(slot, slot, "unknown", None, 0, "unknown", score=0.0)

    def _abbreviated_dish(self, slot: str, types: tuple[str, ...] | None) -> Mention | None:
        """A Chinese dish named without the middle of its name ("咖喱饭" for "咖喱牛肉饭"): a slot
        of at least 3 Chinese characters, asked as a recipe, whose characters occur in order in
        exactly one recipe name that starts with its first character and ends with its last."""
        if not types or "recipe" not in types or len(slot) < 3 or not all("\u4e00" <= ch <= "\u9fff" for ch in slot):
            return None
        found = {}
        for c in self.by_type.get("recipe", []):
            if len(c) > len(slot) and c[0] == slot[0] and c[-1] == slot[-1] and _in_order(slot, c):
                hit = self._pick(c, ("recipe",))
                if hit is not None:
                    found[hit.id] = hit
        if not found and len(slot) >= 4:
            # one character typed with a homophone (a wrong pick in a pinyin input method)
            for c in self.by_type.get("recipe", []):
                if len(c) > len(slot) and c[0] == slot[0] and c[-1] == slot[-1] and _in_order_by_sound(slot, c):
                    hit = self._pick(c, ("recipe",))
                    if hit is not None:
                        found[hit.id] = hit
        if len(found) != 1:
            return None
        hit = next(iter(found.values()))
        return Mention(slot, hit.name, hit.type, hit.id, 0, "contained", hit.doc, 90.0)

    def _part_of_dish(self, slot: str, types: tuple[str, ...] | None) -> Mention | None:
        """The recipe a slot naming a part of it names ("topping of the Florentiners" → "The best
        Florentiners", the pattern ``part_of_dish_en`` of ``bot/lexicon/words.yaml``); ``None`` when the
        slot is no such phrase or its dish links to no recipe or document."""
        if not types or not set(types) & {"recipe", "document"} or has_cjk(slot):
            return None
        m = words.part_of_dish_en().match(slot)
        if m is None:
            return None
        hit = self.link(m.group("dish"), types)
        if hit.type not in ("recipe", "document"):
            return None
        hit.typed = slot
        return hit

    def _near(self, surfaces: list[str], hit, types: tuple[str, ...] | None) -> tuple[str, ...]:
        """Names of the other recipes or documents among ``surfaces`` (candidates as close as the
        chosen ``hit``), for saying which one the answer used."""
        if hit.type not in ("recipe", "document"):
            return ()
        out = []
        for s in surfaces:
            h = self._pick(s, types)
            if h is not None and h.id != hit.id and h.type == hit.type and h.name not in out:
                out.append(h.name)
        return tuple(out[:2])

    def suggest(self, slot: str, types: tuple[str, ...] | None = None, limit: int = 3) -> list[str]:
        """Up to ``limit`` near names for "did you mean": names containing the
        slot, else same-script names with rapidfuzz WRatio ≥ 75."""
        slot = clean_slot(slot).casefold()
        if not slot:
            return []
        choices = []
        for t in types or tuple(self.by_type):
            choices.extend(self.by_type.get(t, []))
        if len(slot) >= 2:
            # names that contain the asked one: a dish name → its regional variants …
            contained = sorted({self.by_surface[c][0].name for c in choices if slot in c and c != slot}, key=len)
            if contained:
                return contained[:limit]
        cjk = has_cjk(slot)
        choices = [c for c in dict.fromkeys(choices) if has_cjk(c) == cjk]  # same script only
        res = process.extract(slot, choices, scorer=fuzz.WRatio, limit=limit * 3, score_cutoff=75)
        res = [r for r in res if 0.5 <= len(r[0]) / max(len(slot), 1) <= 2.0]
        out: list[str] = []
        for s, _score, _ in res:
            name = self.by_surface[s][0].name
            if name not in out:
                out.append(name)
        return out[:limit]
