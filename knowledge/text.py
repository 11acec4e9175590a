"""One text toolkit for ingest and bot alike: script and language detection,
sentence splitting, stop words, plural folding, Unicode normalization of names
and one dictionary linker.

* **Normalization** (:func:`normalize`, :func:`name_key`): NFKC (full-width →
  half-width, compatibility forms), case folding, accents stripped (NFD, then
  combining marks dropped), traditional → simplified Chinese through
  ``opencc-python-reimplemented`` (the ``t2s`` table of the OpenCC project),
  whitespace collapsed; :func:`name_key` also removes spaces inside CJK/Hangul
  names (닭 가슴살 = 닭가슴살) and folds an English plural on the last word.
  Every step maps one input character to at most one output character, so
  :class:`DictLinker` maps matches back to offsets in the original text.
* **Dictionary linking** (:class:`DictLinker`): an Aho–Corasick automaton
  (``pyahocorasick``) over normalized keys, giving the non-overlapping
  longest matches (leftmost first), Latin matches only on word boundaries.
* The word lists (stop words, plural exceptions) are data in
  ``knowledge/lexicon/*.yaml``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Iterable, TypeVar

import yaml

LEXICON_DIR = Path(__file__).with_name("lexicon")

#: CJK ideographs: Extension A, the URO, compatibility ideographs, Extension B+.
CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
CJK_RE = re.compile(f"[{CJK_CLASS}]")
HANGUL_CLASS = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
KANA_CLASS = "\u3040-\u30ff"
_LATIN_WORD = re.compile(r"[A-Za-z]+")


@functools.lru_cache(maxsize=None)
def lexicon(name: str) -> Any:
    """The parsed YAML data file ``knowledge/lexicon/<name>.yaml`` (cached).
    Raises ``FileNotFoundError`` when it does not exist."""
    return yaml.safe_load((LEXICON_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


# -- script and language -----------------------------------------------------------
def has_cjk(text: str) -> bool:
    """True when ``text`` contains a CJK ideograph."""
    return CJK_RE.search(text) is not None


def is_cjk_char(ch: str) -> bool:
    """True for one CJK ideograph."""
    return CJK_RE.fullmatch(ch) is not None


def is_word_char(ch: str) -> bool:
    """True for a character that continues a Latin word (ASCII letter/digit or
    an accented Latin letter); CJK characters are never word-continuing."""
    return ch.isalnum() and not is_cjk_char(ch) and not re.match(f"[{HANGUL_CLASS}{KANA_CLASS}]", ch)


def detect_language(text: str) -> str:
    """``"zh"``, ``"en"`` or ``""`` (no letters).

    ``"zh"`` when CJK ideographs are at least twice the Latin words, unless a
    short text starts as an English sentence ("Is <葱> required in <一道菜>?"
    is English, "<X>是什么" Chinese; more cases in tests/test_text.py)."""
    cjk = len(CJK_RE.findall(text))
    words = _LATIN_WORD.findall(text)
    if not cjk and not words:
        return ""
    first = re.search(f"[A-Za-z{CJK_CLASS}]", text)
    if cjk and len(words) >= 2 and first and first.group().isascii() and len(text) <= 300:
        return "en"
    return "zh" if cjk and cjk >= 2 * len(words) else "en"


# -- sentences ---------------------------------------------------------------------
# A sentence ends after 。！？；… (and a closing quote/bracket), after .!?; before
# whitespace (so "3.5", "v1.2" and URLs stay whole), or at a newline.
_SENT_END = re.compile(
    r"(?<=[。！？；…])(?![”’」』）)\]\"'。！？])|(?<=[。！？；][”’」』）)\]\"'])"
    r"|(?<=[.!?;])(?=\s)|(?<=[.!?;][”’)\]\"'])(?=\s)|(?<=\n)")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|approx|Mr|Mrs|Ms|Dr|St|No|tbsp|tsp|oz|lb)|\b[A-Z])\.$")
# a short abbreviated unit after a number ("2 c. pitted cherries", "1 Tbsp. butter", "3 oz. chocolate"): no
# sentence end when the next word starts in lower case
_UNIT_ABBREV = re.compile(r"[\d½¼¾⅓⅔⅛]\s*[A-Za-z]{1,4}\.$")
_LOWER_NEXT = re.compile(r"\s+[a-z]")
#: the stop of such a unit inside a sentence, group 1 the unit ("2 c. pitted" → "2 c")
UNIT_DOT = re.compile(r"(?<=[\d½¼¾⅓⅔⅛])(\s?[A-Za-z]{1,4})\.(?=\s+[a-z])")


def unit_dots_blanked(text: str) -> str:
    """``text`` with the stop of each abbreviated unit after a number written as a space ("2 c. pitted
    cherries" → "2 c  pitted cherries"): same length, so offsets into it are offsets into ``text``."""
    return UNIT_DOT.sub(r"\1 ", text)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the sentences of ``text``, stripped of
    surrounding whitespace, in order; empty sentences are dropped. An
    abbreviation ("e.g.", "Mr.", "1 tbsp.") does not end a sentence, nor does
    a short unit after a number when a lower-case word follows ("2 c. pitted
    cherries")."""
    cuts = [0]
    for m in _SENT_END.finditer(text):
        p = m.start()
        if 0 < p < len(text) and not _ABBREV.search(text[max(0, p - 8):p]) and not (
                _UNIT_ABBREV.search(text[max(0, p - 8):p]) and _LOWER_NEXT.match(text, p)):
            cuts.append(p)
    cuts.append(len(text))
    spans = []
    for a, b in zip(cuts, cuts[1:]):
        seg = text[a:b]
        lead = len(seg) - len(seg.lstrip())
        trail = len(seg.rstrip())
        if trail > lead:
            spans.append((a + lead, a + trail))
    return spans


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (see :func:`sentence_spans`)."""
    return [text[a:b] for a, b in sentence_spans(text)]


# -- words -------------------------------------------------------------------------
def stop_words(lang: str) -> frozenset[str]:
    """Function words of ``lang`` (``"en"``: words; ``"zh"``: characters), from
    ``knowledge/lexicon/stopwords.yaml``."""
    data = lexicon("stopwords")
    if lang == "zh":
        return frozenset(data["zh"])
    return frozenset(data["en"].split())


@functools.lru_cache(maxsize=65536)
def singular(word: str) -> str:
    """English singular of one lower-case word by suffix rules
    (berries → berry, tomatoes → tomato, dishes → dish, eggs → egg); words
    ending in ss/us/is and the exceptions of ``lexicon/plurals.yaml`` are
    kept. Non-ASCII words are returned unchanged."""
    w = word
    if not w.isascii() or len(w) <= 3:
        return w
    data = lexicon("plurals")
    if w in data["irregular"]:
        return data["irregular"][w]
    if w in data["invariant"]:
        return w
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("oes", "ches", "shes", "sses", "xes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def content_words(text: str, lang: str | None = None) -> list[str]:
    """Latin content words of ``text`` (case-folded, stop words and words of
    ≤ 2 letters dropped) — the ``lang`` argument is accepted for symmetry."""
    stop = stop_words("en")
    return [w for w in re.findall(r"[a-z0-9][a-z0-9-]*", text.casefold()) if w not in stop and len(w) > 2]


def cjk_bigrams(text: str) -> list[str]:
    """Overlapping 2-character grams of the CJK runs of ``text`` whose
    characters are not Chinese function characters."""
    stop = stop_words("zh")
    grams = [run[i:i + 2] for run in re.findall(f"[{CJK_CLASS}]+", text) for i in range(len(run) - 1)]
    return [g for g in grams if g[0] not in stop and g[1] not in stop]


# -- normalization -----------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _t2s():
    from opencc import OpenCC

    return OpenCC("t2s")


@functools.lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    """One character normalized: NFKC, casefold, accents off, traditional →
    simplified; returns ``""`` (dropped) or one character, never more."""
    s = unicodedata.normalize("NFKC", ch).casefold()
    s = "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))
    if len(s) != 1:  # ß → ss, ﬁ → fi, ㎏ → kg: keep a one-to-one map
        s = ch.casefold() if len(ch.casefold()) == 1 else ch
    if is_cjk_char(s):
        s = _t2s().convert(s) or s
    if s.isspace():
        return " "
    return s


_FOLDED: dict[str, str] = {}


def fold(text: str) -> tuple[str, list[int]]:
    """``(folded, index)``: ``text`` with each character normalized by
    :func:`_fold_char` and ``index[i]`` the offset in ``text`` of folded
    character ``i`` (a folded string is never longer than the original).
    ASCII text takes a fast path (lower case, whitespace kept as spaces)."""
    if text.isascii():
        low = text.lower()
        if not any(c in low for c in "\t\n\r\x0b\x0c"):
            return low, list(range(len(text)))
    out, idx = [], []
    cache = _FOLDED
    for i, ch in enumerate(text):
        f = cache.get(ch)
        if f is None:
            f = cache[ch] = _fold_char(ch)
        if f:
            out.append(f)
            idx.append(i)
    return "".join(out), idx


@functools.lru_cache(maxsize=65536)
def _simplified_char(ch: str) -> str:
    s = _t2s().convert(ch)
    return s if len(s) == 1 else ch


def simplified(text: str) -> str:
    """``text`` with each traditional Chinese character written in its
    simplified form and nothing else changed: the same length, so an offset in
    the result is the offset in ``text`` (``simplified("沒有雞湯，可改用水") ==
    "没有鸡汤，可改用水"``). A character whose simplified form is not one
    character is kept."""
    if not has_cjk(text):
        return text
    return "".join(_simplified_char(c) if is_cjk_char(c) else c for c in text)


_C = CJK_CLASS
_HALF_PUNCT = {",": "，", ";": "；", ":": "：", "!": "！", "?": "？"}
_HALF_BESIDE_CJK = re.compile(rf"(?<=[{_C}）])\s*([,;:!?])(?!\d)\s*|(?<!\d)([,;:!?])\s*(?=[{_C}（])")
_CJK_LATIN = re.compile(rf"(?<=[{_C}])(?=[a-z]{{3,}})|(?<=[a-z]{{3}})(?=[{_C}])")


def cjk_form(text: str) -> str:
    """Chinese text in the form the lexicons and cue patterns are written for, whatever the writer's
    keyboard: half-width ``, ; : ! ?`` beside a Chinese character written full-width, the spaces around
    them dropped ("加白糖, 盐" → "加白糖，盐"; "1,000" and "http:" are kept); parentheses that
    hold or follow Chinese written full-width ("方便面调味料 (自己就用…)" → "方便面调味料（自己就用…）"); a
    space between Chinese and a lower-case Latin word of three letters or more ("香菜cilantro（非必要）" →
    "香菜 cilantro（非必要）"). Text without Chinese is returned unchanged; newlines are kept, so a line
    number stays valid."""
    if not has_cjk(text):
        return text

    def punct(m: re.Match) -> str:
        return _HALF_PUNCT[m.group(1) or m.group(2)]

    out = []
    for line in text.split("\n"):
        if has_cjk(line):
            line = _HALF_BESIDE_CJK.sub(punct, line)
            line = re.sub(rf"\s*\(([^()]*)\)", lambda m: (
                f"（{m.group(1)}）" if has_cjk(m.group(1)) or re.search(rf"[{_C}]\s*$", line[:m.start()])
                else m.group(0)), line)
            line = _CJK_LATIN.sub(" ", line)
        out.append(line)
    return "\n".join(out)


def normalize(text: str) -> str:
    """NFKC, case folding, no accents, simplified Chinese, whitespace runs →
    one space, stripped. ``normalize("雞胸肉") == "鸡胸肉"``,
    ``normalize("Crème Fraîche") == "creme fraiche"``, ``normalize("ＢＢＱ醬") == "bbq酱"``."""
    return re.sub(r"\s+", " ", fold(text)[0]).strip()


_NON_LATIN_SPACE = re.compile(f"(?<=[{CJK_CLASS}{HANGUL_CLASS}{KANA_CLASS}]) (?=[{CJK_CLASS}{HANGUL_CLASS}{KANA_CLASS}])")


def name_key(name: str) -> str:
    """The key two surface names share when they are one name: :func:`normalize`,
    no spaces between CJK/Hangul/Kana characters, the last English word in the
    singular (``"Fresh Tomatoes" → "fresh tomato"``, ``"닭 가슴살" → "닭가슴살"``)."""
    s = _NON_LATIN_SPACE.sub("", normalize(name))
    m = re.search(r"([a-z]+)$", s)
    if m and (m.start() == 0 or not s[m.start() - 1].isalpha()):
        s = s[: m.start()] + singular(m.group(1))
    return s


# -- dictionary linking ------------------------------------------------------------
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Match(Generic[T]):
    """One dictionary hit: ``start``/``end`` offsets in the scanned text,
    ``surface`` as written there, ``key`` the matched dictionary key and
    ``values`` the payloads registered under it."""

    start: int
    end: int
    surface: str
    key: str
    values: tuple


class DictLinker(Generic[T]):
    """Longest-match dictionary scanner over normalized text (Aho–Corasick).

    ``add(surface, value)`` registers a payload under ``name_key``-style
    normalization of ``surface`` (:func:`normalize` with CJK spaces removed;
    plurals are matched by also registering the singular key).
    ``scan(text)`` returns the non-overlapping matches, longest first at the
    leftmost position; a match that starts or ends inside a Latin word is
    skipped, and an all-caps abbreviation (see :meth:`is_abbreviation`)
    matches only in capitals. ``get(surface)`` looks one name up exactly.
    """

    def __init__(self) -> None:
        self._values: dict[str, list[T]] = {}
        self._abbr: set[str] = set()  # keys registered only from all-caps abbreviations
        self._plain: set[str] = set()
        self._automaton = None

    @staticmethod
    def is_abbreviation(surface: str) -> bool:
        """An all-caps Latin abbreviation of at most 6 letters (``SL``,
        ``HACCP``): matched case-sensitively, with a lower-case plural."""
        s = surface.strip()
        return s.isascii() and s.isupper() and len(s) <= 6

    @staticmethod
    def key(surface: str) -> str:
        """Dictionary key of ``surface``: :func:`normalize` without spaces between CJK characters."""
        return _NON_LATIN_SPACE.sub("", normalize(surface))

    def add(self, surface: str, value: T) -> None:
        """Register ``value`` under ``surface`` (and its singular form)."""
        k = self.key(surface)
        if not k:
            return
        abbr = self.is_abbreviation(surface)
        for kk in dict.fromkeys([k, name_key(surface)]):
            if abbr and kk not in self._plain:
                self._abbr.add(kk)
            elif not abbr:
                self._plain.add(kk)
                self._abbr.discard(kk)
            lst = self._values.setdefault(kk, [])
            if value not in lst:
                lst.append(value)
        self._automaton = None

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, surface: str) -> bool:
        return self.key(surface) in self._values or name_key(surface) in self._values

    def keys(self) -> Iterable[str]:
        """Every registered key."""
        return self._values.keys()

    def get(self, surface: str) -> list[T]:
        """Payloads registered under ``surface`` exactly (after normalization; plural-tolerant)."""
        return list(self._values.get(self.key(surface)) or self._values.get(name_key(surface)) or [])

    def _build(self):
        import ahocorasick

        a = ahocorasick.Automaton()
        for k in self._values:
            a.add_word(k, k)
        if len(a):
            a.make_automaton()
        self._automaton = a
        return a

    def scan(self, text: str, *, min_len: int = 1) -> list[Match[T]]:
        """Non-overlapping longest matches of registered keys in ``text``
        (offsets into ``text`` as given). Keys shorter than ``min_len``
        characters are ignored."""
        a = self._automaton if self._automaton is not None else self._build()
        if not len(a) or not text:
            return []
        folded, idx = fold(text)
        # spaces between CJK characters are not part of keys: drop them from the scan too
        keep = [i for i, ch in enumerate(folded)
                if not (ch == " " and 0 < i < len(folded) - 1 and not is_word_char(folded[i - 1]) and not is_word_char(folded[i + 1])
                        and (not folded[i - 1].isascii() and not folded[i + 1].isascii()))]
        hay = "".join(folded[i] for i in keep)
        pos = [idx[i] for i in keep]
        cands = []
        for end, k in a.iter(hay):
            start = end - len(k) + 1
            if len(k) < min_len:
                continue
            if is_word_char(hay[start]) and start > 0 and is_word_char(hay[start - 1]):
                continue
            stop = end + 1
            if is_word_char(hay[end]) and stop < len(hay) and is_word_char(hay[stop]):
                # a Latin key may be followed by a plural ending: "pancake" in "pancakes"
                tail = re.match(r"(?:e?s|')(?![^\W_])", hay[stop:stop + 3])
                if not tail:
                    continue
                stop += len(tail.group()) if tail.group() != "'" else 0
            if k in self._abbr:
                # an abbreviation only as written in capitals, with a lower-case plural ("SLs", not "SLS" or "sl")
                if not text[pos[start]:pos[end] + 1].isupper():
                    continue
                if stop > end + 1 and not text[pos[end + 1]:pos[stop - 1] + 1].islower():
                    continue
            cands.append((start, stop, k))
        cands.sort(key=lambda c: (c[0], -(c[1] - c[0])))
        out, last = [], 0
        for s, e, k in cands:
            if s < last:
                continue
            o_s, o_e = pos[s], pos[e - 1] + 1
            out.append(Match(o_s, o_e, text[o_s:o_e], k, tuple(self._values[k])))
            last = e
        return out


# -- pinyin ------------------------------------------------------------------------
#: Latin words of a question, for pinyin matching ("ü" is typed "v" or "u").
_PINYIN_TOKEN = re.compile(r"[a-zü]+")
#: What may separate the words of one written pinyin name: spaces, a hyphen, an apostrophe ("xi'an").
_PINYIN_GAP = re.compile(r"[\s'’\-]+")
#: Tokens of a Latin span tried as one pinyin name (a name rarely has more syllables written apart).
PINYIN_MAX_TOKENS = 6


@functools.lru_cache(maxsize=65536)
def pinyin_syllables(text: str) -> tuple[str, ...]:
    """The toneless pinyin syllables of an all-Chinese ``text`` (one per character, lower case,
    ``ü`` written ``v``: ``pinyin_syllables("中文") == ("zhong", "wen")``), read by
    ``pypinyin`` with its phrase dictionary for characters of several readings; ``()`` when
    ``text`` is empty or has any character that is not a CJK ideograph."""
    s = simplified("".join(text.split()))
    if not s or not all(is_cjk_char(c) for c in s):
        return ()
    from pypinyin import Style, lazy_pinyin

    syl = lazy_pinyin(s, style=Style.NORMAL, errors=lambda x: [""] * len(x))
    if len(syl) != len(s) or not all(p.isascii() and p.isalpha() for p in syl):
        return ()
    return tuple(p.lower() for p in syl)


@dataclass(frozen=True, slots=True)
class PinyinMatch(Generic[T]):
    """A span of Latin words read as the pinyin of a Chinese name: ``start``/``end`` offsets in
    the scanned text, ``surface`` as written there, ``name`` the registered Chinese surface and
    ``values`` its payloads."""

    start: int
    end: int
    surface: str
    name: str
    values: tuple


class PinyinIndex(Generic[T]):
    """Chinese names found by their pinyin: Latin words that spell a name's toneless pinyin
    ("zhongwen", "zhong wen" → 中文), part of it spelled and part said by an English name of
    the same characters (``aliases``), and a Chinese homophone of a name (a character of the
    same syllable picked wrong in a pinyin input method: 中闻 → 中文).

    ``add(surface, value)`` registers an all-Chinese name of at least two characters (others are
    ignored); ``aliases`` maps a lower-case English name to the pinyin syllables of the Chinese
    names it means. Precision guards: a name needs at least two syllables; a match covers whole
    Latin words whose boundaries fall between the name's syllables; at least two of its
    syllables are spelled in pinyin (not all said in English); and ``stop`` words (English
    function words: "he", "you") never begin or end a match found in running text. Readings
    are searched word by word and cut as soon as the letters so far begin no registered name,
    so ordinary English text costs one set lookup per word.
    """

    def __init__(self, aliases: dict[str, list[tuple[str, ...]]] | None = None,
                 stop: frozenset[str] = frozenset()) -> None:
        self._by_key: dict[str, list[tuple[str, tuple[str, ...], T]]] = {}
        self._prefixes: set[str] = set()
        self._aliases = {normalize(k): v for k, v in (aliases or {}).items() if k and v}
        self._alias_words = max((len(k.split()) for k in self._aliases), default=0)
        self._stop = stop

    def add(self, surface: str, value: T, syllables: tuple[str, ...] | None = None) -> None:
        """Register ``value`` under the pinyin of the Chinese name ``surface`` (ignored when it is
        not all Chinese or has fewer than two characters); ``syllables`` when already read
        (:func:`pinyin_of_names`)."""
        name = DictLinker.key(surface)
        syl = pinyin_syllables(name) if syllables is None else syllables
        if len(syl) < 2 or len(syl) != len(name):
            return
        key = "".join(syl)
        lst = self._by_key.setdefault(key, [])
        if not any(n == name and v == value for n, _s, v in lst):
            lst.append((name, syl, value))
        self._prefixes.update(key[:k] for k in range(1, len(key) + 1))

    def __len__(self) -> int:
        return len(self._by_key)

    def homophones(self, text: str) -> list[tuple[str, T]]:
        """``(name, value)`` of every registered name other than ``text`` itself with the same
        syllables, character for character, sharing at least one character in place with it
        (中闻 → 中文); ``[]`` when ``text`` is not all Chinese or shorter
        than two characters."""
        key = DictLinker.key(text)
        syl = pinyin_syllables(key)
        if len(syl) < 2:
            return []
        return [(n, v) for n, s, v in self._by_key.get("".join(syl), [])
                if s == syl and n != key and any(a == b for a, b in zip(n, key))]

    def homophone_spans(self, text: str, *, skip: Iterable[int] = (), min_chars: int = 3,
                        max_chars: int = 8) -> list[PinyinMatch[T]]:
        """Runs of Chinese characters in ``text`` written with homophones of a registered name
        (:meth:`homophones`: the same syllables, at least one character the same and in place,
        中闻 for 中文), of ``min_chars``..``max_chars`` characters, none of them at an offset in
        ``skip`` (characters another match already took); longest first at the leftmost position.
        Each run is read once (``pypinyin`` with its phrase dictionary), its parts by slicing."""
        if not self._by_key:
            return []
        taken = set(skip)
        out: list[PinyinMatch[T]] = []
        for m in re.finditer(f"[{CJK_CLASS}]{{{min_chars},}}", text):
            run = m.group()
            syl = pinyin_syllables(run)
            if len(syl) != len(run):
                continue
            i = 0
            while i <= len(run) - min_chars:
                hit = None
                for n in range(min(max_chars, len(run) - i), min_chars - 1, -1):
                    if any(m.start() + k in taken for k in range(i, i + n)):
                        continue
                    sub, part = run[i:i + n], syl[i:i + n]
                    names = [(nm, v) for nm, s, v in self._by_key.get("".join(part), [])
                             if s == part and nm != sub and any(a == b for a, b in zip(nm, sub))]
                    if names:
                        hit = (n, names)
                        break
                if hit is None:
                    i += 1
                    continue
                n, names = hit
                s0 = m.start() + i
                out.append(PinyinMatch(s0, s0 + n, text[s0:s0 + n], names[0][0], tuple(dict.fromkeys(v for _, v in names))))
                i += n
        return out

    def _readings(self, words: list[str], start: int) -> list[tuple[int, list[tuple[str, object]]]]:
        """``(end, pieces)`` for every reading of ``words[start:end]`` whose letters are a whole
        registered key: ``pieces`` are ``("lit", word)`` (a word spelled in pinyin) and ``("syl",
        syllables)`` (words that are an English alias). Branches whose letters begin no key are cut."""
        out: list[tuple[int, list[tuple[str, object]]]] = []
        pre, aliases = self._prefixes, self._aliases

        def walk(j: int, acc: str, pieces: list) -> None:
            if len(out) >= 32:
                return
            if j > start and acc in self._by_key:
                out.append((j, list(pieces)))
            if j >= len(words) or j - start >= PINYIN_MAX_TOKENS:
                return
            nxt = acc + words[j]
            if nxt in pre:
                pieces.append(("lit", words[j]))
                walk(j + 1, nxt, pieces)
                pieces.pop()
            for k in range(j + 1, min(len(words), j + self._alias_words) + 1):
                for syl in aliases.get(" ".join(words[j:k]), ())[:3]:
                    nxt = acc + "".join(syl)
                    if nxt in pre:
                        pieces.append(("syl", syl))
                        walk(k, nxt, pieces)
                        pieces.pop()

        walk(start, "", [])
        return out

    @staticmethod
    def _fits(pieces: list[tuple[str, object]], syl: tuple[str, ...]) -> int:
        """Syllables of ``syl`` spelled in pinyin when ``pieces`` read it exactly with every
        word ending between two syllables; ``-1`` when they do not."""
        i, spelled = 0, 0
        for kind, p in pieces:
            if kind == "syl":
                if syl[i:i + len(p)] != p:
                    return -1
                i += len(p)
                continue
            text = ""
            while i < len(syl) and len(text) < len(p):
                text += syl[i]
                i += 1
                spelled += 1
            if text != p:
                return -1
        return spelled if i == len(syl) else -1

    def _names(self, pieces: list[tuple[str, object]]) -> list[tuple[str, T]]:
        """The registered names a reading spells (at least two syllables spelled in pinyin)."""
        key = "".join(p if k == "lit" else "".join(p) for k, p in pieces)
        return [(name, value) for name, syl, value in self._by_key.get(key, []) if self._fits(pieces, syl) >= 2]

    def read(self, words: list[str]) -> list[tuple[str, T]]:
        """``(name, value)`` of the names that the Latin ``words`` (lower case, in order) spell
        together, whole; ``[]`` when none does."""
        words = [w.lower().replace("ü", "v") for w in words]
        found: list[tuple[str, T]] = []
        for end, pieces in self._readings(words, 0):
            if end == len(words):
                found += [f for f in self._names(pieces) if f not in found]
        return found

    def scan(self, text: str) -> list[PinyinMatch[T]]:
        """Non-overlapping spans of whole Latin words in ``text`` read as registered names
        (longest first at the leftmost position); a span never begins or ends with a ``stop``
        word."""
        if not self._by_key:
            return []
        low = text.lower()
        toks = [(m.start(), m.end(), m.group().replace("ü", "v")) for m in _PINYIN_TOKEN.finditer(low)]
        out: list[PinyinMatch[T]] = []
        # runs of words written together (a name's words are separated by spaces, hyphens, apostrophes only)
        runs: list[list[tuple[int, int, str]]] = []
        for t in toks:
            if runs and _PINYIN_GAP.fullmatch(low[runs[-1][-1][1]:t[0]]):
                runs[-1].append(t)
            else:
                runs.append([t])
        for run in runs:
            words = [t[2] for t in run]
            i = 0
            while i < len(run):
                best = None
                if words[i] not in self._stop:
                    for end, pieces in self._readings(words, i):
                        s, e = run[i][0], run[end - 1][1]
                        if words[end - 1] in self._stop or (best is not None and end <= best[0]):
                            continue
                        if (s > 0 and is_word_char(low[s - 1])) or (e < len(low) and is_word_char(low[e])):
                            continue  # part of a longer word or a word joined to a digit
                        found = self._names(pieces)
                        if found:
                            best = (end, found)
                if best is None:
                    i += 1
                    continue
                end, found = best
                s, e = run[i][0], run[end - 1][1]
                out.append(PinyinMatch(s, e, text[s:e], found[0][0], tuple(dict.fromkeys(v for _, v in found))))
                i = end
        return out


def pinyin_of_names(names: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """:func:`pinyin_syllables` of many all-Chinese names at once (one ``pypinyin`` pass over
    them all: building an index of thousands of names takes a fraction of a second). Names
    that are not all Chinese are left out."""
    from pypinyin import Style, lazy_pinyin

    keep = [n for n in dict.fromkeys(simplified("".join(x.split())) for x in names) if n and all(is_cjk_char(c) for c in n)]
    if not keep:
        return {}
    flat = lazy_pinyin("\n".join(keep), style=Style.NORMAL, errors="default")
    out: dict[str, tuple[str, ...]] = {}
    cur: list[str] = []
    it = iter(keep)
    for p in flat + ["\n"]:
        if p.strip():
            cur.append(p.lower())
            continue
        if "\n" in p or p == "\n":
            for _ in range(max(1, p.count("\n"))):
                n = next(it, None)
                if n is not None and len(cur) == len(n) and all(c.isascii() and c.isalpha() for c in cur):
                    out[n] = tuple(cur)
                cur = []
    return out


# -- the names a title answers to ----------------------------------------------------
_BRACKET = re.compile(r"^(.*?)\s*[（(]([^()（）]+)[)）]\s*(.*)$")
_ALL_CJK = re.compile(f"[{CJK_CLASS}]+")


def _is_cjk_word(w: str) -> bool:
    """``w`` is a Chinese dictionary word: CC-CEDICT (:mod:`threadgraph.knowledge.cedict`, when
    installed) or ``pypinyin``'s phrase dictionary."""
    from pypinyin.constants import PHRASES_DICT

    from .cedict import dictionary

    w = simplified(w)
    return w in PHRASES_DICT or w in dictionary()


def _is_note(part: str) -> bool:
    """A bracketed part that is a note on this version of a dish (``titles.yaml``: ``notes``)."""
    notes = lexicon("titles")["notes"]
    p = part.strip()
    if re.search(notes["number"], p, re.I):
        return True
    if has_cjk(p):
        return re.search(notes["zh_note"], simplified(p)) is not None
    return re.fullmatch(notes["en_note"], p) is not None


def _cjk_alternatives(parts: list[str]) -> list[str]:
    """The dishes of an all-Chinese title written with slashes between alternatives
    (``parts`` split at the slashes): the first part is a shared head and its alternative,
    the last its alternative and a shared tail, the middle ones alternatives only.
    ``["HA1", "A2", "A3"]`` (head H, alternatives A1..A3 of one length) → HA1, HA2, HA3;
    ``["A1", "A2T"]`` (shared tail T) → A1T, A2T. ``[]`` when no cut is certain (the length of an alternative comes from the
    middle parts, else from the shorter end part, and must end or start a dictionary word)."""
    first, last, middle = parts[0], parts[-1], parts[1:-1]
    if middle:
        if len({len(m) for m in middle}) != 1:
            return []
        n = len(middle[0])
    else:
        n = min(len(first), len(last))
    if len(first) < n or len(last) < n:
        return []
    head, tail = first[: len(first) - n], last[n:]
    opts = [first[len(first) - n:], *middle, last[:n]]
    if not middle and head and tail:
        return []  # both ends longer than the other: no telling where the alternatives are
    if not middle:
        # the alternative cut out of the longer end is a dictionary word, or what is left of that
        # end (the shared head or tail) is one character: a cut inside a word is no alternative
        carved, rest = (opts[0], head) if head else (opts[-1], tail)
        if rest and len(rest) > 1 and len(carved) > 1 and not _is_cjk_word(carved):
            return []
    return [head + o + tail for o in opts]


def title_names(title: str) -> list[str]:
    """The other names a recipe or document title answers to, derived from its structure
    (for linking only: the title stays the entity's name), in order, without the title itself:

    - a slash between alternatives, expanded with the shared head or tail
      ("Red/Green Curry" → "Red Curry", "Green Curry"; Chinese by character: "AB/CD糕" →
      "AB糕", "CD糕"); the two sides of a slash between
      scripts are names of their own (a translation);
    - a bracketed part: the title without it, and the part itself when it is another name (a
      translation, a nickname) rather than a note on the version (``knowledge/lexicon/titles.yaml``:
      a version, style, diet, language code or number is a note, dropped);
    - a trailing version number ("X 2") and an unbracketed Chinese version note ("X改良版") dropped.

    Returns ``[]`` for a plain title. Normalization (script, case, width) is the linker's."""
    data = lexicon("titles")
    out: list[str] = []

    def add(v: str) -> None:
        v = " ".join(v.split()).strip(" -–—,，:：;；/")
        if len(v) >= 2 and v != title and v not in out:
            out.append(v)

    bases = [title]
    m = _BRACKET.match(title)
    if m:
        bare = f"{m.group(1)} {m.group(3)}".strip() if m.group(3) and not has_cjk(m.group(3)[:1]) \
            else m.group(1) + m.group(3)
        bases = [bare]
        add(bare)
        if not _is_note(m.group(2)):
            add(m.group(2))
            bases.append(m.group(2).strip())
    for b in list(bases):
        s = re.sub(data["trailing_number"], "", b).strip()
        if s != b and len(s) >= 2:
            add(s)
            bases.append(s)
        if has_cjk(b):
            v = re.sub(data["zh_version_suffix"], "", b)
            if v != b and len(v) >= 2:
                add(v)
                bases.append(v)
    for b in bases:
        if "/" not in b:
            continue
        parts = [p.strip() for p in re.split(r"\s*[/／]\s*", b)]
        if len(parts) < 2 or not all(parts):
            continue
        if all(_ALL_CJK.fullmatch(p) for p in parts):
            for v in _cjk_alternatives(parts):
                add(v)
        elif not has_cjk(b) and not any(ch.isdigit() for ch in b) and " / " not in b:
            # Latin: the slashed word's alternatives between the words before and after it
            # (a fraction is no list of alternatives)
            toks = b.split()
            for i, t in enumerate(toks):
                if "/" in t:
                    alts = [a for a in t.split("/") if a]
                    if len(alts) > 1:
                        for a in alts:
                            add(" ".join([*toks[:i], a, *toks[i + 1:]]))
                    break
        elif len({has_cjk(p) for p in parts}) == 2 and all(has_cjk(p) != bool(re.search("[A-Za-z]", p)) for p in parts):
            for p in parts:
                add(p)  # "中文/English": each side names the dish
    return out
