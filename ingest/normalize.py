"""Name normalization: one canonical entity per thing.

:class:`Normalizer.canonical` maps a surface name to a canonical name in five
steps, stopping at the first that applies:

1. **alias** – lookup in the alias table by normalized key (see 3): the
   bundled ``ingest/aliases.csv`` (columns ``alias,canonical,type``) with
   ``Settings.alias_csv`` merged over it (later rows win).
2. **clean** – rule-based cleaning (:func:`clean_name`): amounts and units,
   quantity words (``盐用量为`` → 盐, ``八角量`` → 八角), parenthesised notes,
   qualifiers (适量/少许/新鲜的/optional…), English articles, sizes and plurals
   are stripped; the cleaned name is looked up in the alias table again.
3. **normalize** – the same key as an already-seen canonical name of the
   same type: :func:`~..knowledge.text.name_key` (NFKC, case, accents,
   traditional → simplified, full-width, spaces inside CJK/Hangul names,
   plurals), so 雞胸肉/鸡胸肉, ＢＢＱ酱/BBQ酱, 닭 가슴살/닭가슴살 and crème
   fraîche/creme fraiche are one node each (the first spelling seen names it).
4. exact match with an already-seen canonical name of the same type.
5. **fuzzy** – rapidfuzz ``WRatio`` against already-seen canonical names of
   the same type, merging only above ``Settings.fuzzy_threshold`` *and* past
   the guards of :func:`fuzzy_allowed` (short Chinese names never fuzzy-merge,
   so 白糖/红糖 and 生抽/老抽 stay apart).

A name that is not a thing's name (:func:`is_entity_name`: a quantity
fragment, a unit, a piece of a sentence) has no canonical name: the
extractors make no node of it. Every non-identity mapping is recorded once
as a :class:`Merge` (``merges.csv``).
"""

from __future__ import annotations

import csv
import re
import unicodedata
from pathlib import Path

from rapidfuzz import fuzz, process

from ..knowledge.records import Merge
from ..knowledge.text import CJK_CLASS, HANGUL_CLASS, has_cjk, name_key, simplified, singular

from .cues import alternation, lexicon, regex

BUNDLED_ALIASES = Path(__file__).with_name("aliases.csv")

_PARENS = re.compile(r"[（(【\[][^（）()【】\[\]]*[）)】\]]")
_AMOUNT_ZH = regex("amounts", "amount_zh")
_QUALIFIERS_ZH = regex("amounts", "qualifiers_zh")
_VAGUE_ZH = regex("amounts", "vague_amounts_zh")
_QTY_SUFFIX_ZH = regex("amounts", "quantity_suffix_zh")
_FORMULA_TAIL_ZH = regex("amounts", "formula_tail_zh")
_VARIABLE_TAIL_ZH = regex("amounts", "variable_tail_zh")
_AMOUNT_EN = regex("amounts", "amount_en", re.I)
_NUMBER_EN = regex("amounts", "bare_number_en")
_MEASURE_OF_EN = regex("amounts", "measure_of_en", re.I)
_PURPOSE_EN = regex("amounts", "purpose_en", re.I)
_FORM_OF_EN = regex("amounts", "form_of_en", re.I)
_ARTICLES_EN = re.compile(rf"^(?:{alternation('amounts', 'articles_en')})\s+", re.I)
_SIZES_EN = re.compile(rf"^(?:{alternation('amounts', 'sizes_en')})\s+", re.I)
_QUALIFIERS_EN = re.compile(rf"\b(?:{alternation('amounts', 'qualifiers_en')})\b", re.I)
_PUNCT = " \t\r\n、，,。.;；:：!！?？*~～-—–_\"'“”‘’`|/=≥≤<>＜＞"

_NOT_NAMES = lexicon("names")["not_names"]
_NOT_WHOLE = frozenset(name_key(w) for w in [*_NOT_NAMES["whole"], *_NOT_NAMES.get("whole_amount_en", [])])
_QTY_NOUN_ZH = re.compile("(?:%s)[是为在约]?$" % "|".join(map(re.escape, _NOT_NAMES["quantity_nouns_zh"])))
# quantity nouns that are not quantity suffixes themselves ("质量" must not lose its "量")
_QTY_NOUN_END_ZH = re.compile("(?:%s)$" % "|".join(
    re.escape(n) for n in _NOT_NAMES["quantity_nouns_zh"] if not _QTY_SUFFIX_ZH.fullmatch(n)))
_FRAGMENT_ZH = re.compile("|".join(map(re.escape, _NOT_NAMES["fragments_zh"])))
_EDGE_EN = re.compile(r"^(?:{0})\b|\b(?:{0})$".format("|".join(map(re.escape, _NOT_NAMES["edge_words_en"]))), re.I)
_GENERIC_EN = _NOT_NAMES["generic_en"]
_GENERIC_LEADS = frozenset(_GENERIC_EN["leads"])
_GENERIC_MODS = _GENERIC_LEADS | frozenset(_GENERIC_EN["labels"])
_GENERIC_HEADS = frozenset(_GENERIC_EN["heads"])
_UNIT_ALONE = re.compile(rf"^(?:{alternation('amounts', 'units_zh')})\.?$", re.I)
_MEASURE_ALONE = regex("amounts", "measure", re.I)
_LETTER = re.compile(rf"[^\W\d_]|[{CJK_CLASS}{HANGUL_CLASS}]")
_THING_TYPES = ("ingredient", "tool")

#: Pairs that look alike but are different things (``lexicon/names.yaml``);
#: never merged by fuzzy matching even if a user lowers the threshold.
NEVER_MERGE = frozenset(frozenset(p) for p in lexicon("names")["never_merge"])


def _sub_plain(rx: re.Pattern, s: str, count: int = 0) -> str:
    """``rx.sub("", s)`` with the matches found in the simplified form of ``s`` (same length, see
    :func:`~threadgraph.knowledge.text.simplified`) and cut from ``s`` as written: the amount and
    qualifier patterns are written once, in simplified characters, and "兩勺" reads as "两勺"."""
    plain = simplified(s)
    if plain == s:
        return rx.sub("", s, count=count)
    out, last = [], 0
    for n, m in enumerate(rx.finditer(plain)):
        if count and n >= count:
            break
        out.append(s[last:m.start()])
        last = m.end()
    out.append(s[last:])
    return "".join(out)


def clean_name(name: str, type_: str = "ingredient") -> str:
    """Rule-based cleaning of a surface name; returns ``""`` if nothing is left.

    For ``ingredient``/``tool``: parenthesised notes, ``= amount`` tails,
    amounts with units (``150g``, ``1 个``, ``两根``, ``2 cups``), Chinese
    qualifiers (适量, 少许, 新鲜的, 可选…), a leading ``…的`` modifier
    (``不辣的青椒`` → ``青椒``; for a ``tool`` even before a one-character
    head noun: ``有一定深度的碗`` → ``碗``, ``放得下玉米的锅`` → ``锅``), English articles/qualifiers, text after a
    comma (``onion, chopped``) and English plurals are removed; English is
    lower-cased. Other types only get whitespace/punctuation trimmed and a
    leading English article removed."""
    s = re.sub(r"\s+", " ", name).strip()
    if type_ not in ("ingredient", "tool"):
        s = _ARTICLES_EN.sub("", s) if not has_cjk(s) else s
        return s.strip(_PUNCT)
    prev = None
    while prev != s:
        prev = s
        s = _PARENS.sub("", s)
    s = re.split(r"[=＝（(]", s, maxsplit=1)[0]  # also drops an unclosed "(note…" tail
    s = re.sub(r"[\U0001F000-\U0001FFFF\u2600-\u27BF\u2460-\u24FF\uFE0F]", "", s)
    if has_cjk(s):
        s = _sub_plain(_FORMULA_TAIL_ZH, s)
        s = _sub_plain(_VARIABLE_TAIL_ZH, s.strip())
        s = _sub_plain(_AMOUNT_ZH, s)
        s = _QUALIFIERS_ZH.sub("", s)
        s = _sub_plain(_VAGUE_ZH, s)
        s = s.replace(" ", "").strip(_PUNCT)
        s = re.sub(r"^(?:℃|°C?)\s*", "", s)  # "30 ℃ 温水" without its number
        prev = None
        while prev != s and len(s) > 1 and name_key(s) not in _NOT_WHOLE and not _QTY_NOUN_END_ZH.search(simplified(s)):
            prev = s
            s = _sub_plain(_QTY_SUFFIX_ZH, s).strip(_PUNCT) or s  # "盐用量为" → 盐, "青椒的数量" → 青椒
        if "的" in s:
            tail = s.rsplit("的", 1)[1]
            if len(tail) >= 2 or (tail and type_ == "tool"):
                s = tail  # "不辣的青椒" → 青椒; a tool is its head noun: "有一定深度的碗" → 碗
        s = re.sub(r"^[\d.]+", "", s)
        return unicodedata.normalize("NFKC", s.strip(_PUNCT)).strip(_PUNCT)
    m = re.match(r"^(?P<n>[^:：]{1,40}?)\s*[:：]\s*(?P<a>[\d½¼¾⅓⅔⅛].*)$", s)
    if m:
        s = m.group("n")  # "flour: 2 cups" (a mapping written as key: amount)
    head, _, rest = s.partition(",")
    s = head
    if rest and re.fullmatch(r"[\W\d½¼¾⅓⅔⅛]*(?:\s*[A-Za-z]+(?:ed|ly)\b[\W]*)+", _AMOUNT_EN.sub(" ", head)):
        s = rest.split(",", 1)[0]  # "1 c. grated, unsweetened coconut": the name follows its participles
    s = _PURPOSE_EN.sub("", s)  # "oil for frying" → oil
    m = _FORM_OF_EN.match(s.strip())
    if m:  # "Juice of 1 lemon" → lemon juice
        fruit = m.group("name").split()
        s = " ".join([*fruit[:-1], singular(fruit[-1].lower()), m.group("form")])
    s = _AMOUNT_EN.sub(" ", s)
    s = _NUMBER_EN.sub(" ", s)
    s = _QUALIFIERS_EN.sub(" ", s)
    s = re.sub(r"\s+", " ", s).strip(_PUNCT).lower()
    prev = None
    while prev != s:
        prev = s
        s = _ARTICLES_EN.sub("", s).strip(_PUNCT)
        s = _SIZES_EN.sub("", s).strip(_PUNCT)
        s = _MEASURE_OF_EN.sub("", s).strip(_PUNCT)  # "pinch of salt" → salt
    s = unicodedata.normalize("NFKC", s).strip(_PUNCT)
    words = s.split()
    if words:
        words[-1] = singular(words[-1])
    return " ".join(words)


def is_entity_name(name: str, type_: str = "ingredient") -> bool:
    """True when a cleaned ``name`` can name a node of entity ``type_``.

    Never a name, whatever the type: text without a letter (``"2"``, ``"…"``),
    a pure quantity (``"2-3 个"``) and, except for a ``tool`` (碗, 汤匙), a
    unit alone (``"克"``, ``"cup"``).
    For ``ingredient``/``tool`` also not (data in ``lexicon/names.yaml``
    ``not_names``): a quantity or label word alone (约, 各, 数量, 人, 注,
    原则, "to taste"), a Chinese name ending in a quantity noun (冷藏时间,
    推荐合计重量; 温度计 is a tool) or holding a sentence word (容量在,
    分别为每, 其中应该包含, 蛋挞皮品牌不限), an English name starting or ending with a function word
    ("yellow and", "or orange pepper"). Extractors call it on a candidate
    name; :meth:`Normalizer.canonical` applies it, so nothing invalid becomes
    a node."""
    s = (name or "").strip()
    if not s or not _LETTER.search(s):
        return False
    if _MEASURE_ALONE.fullmatch(s) or (_UNIT_ALONE.match(s) and type_ != "tool"):  # 碗, 汤匙 are tools too
        return False
    if type_ not in _THING_TYPES:
        return True
    if name_key(s) in _NOT_WHOLE:
        return False
    if has_cjk(s):
        return not (_QTY_NOUN_ZH.search(s) or _FRAGMENT_ZH.search(s))
    return not _EDGE_EN.search(s) and not _generic_en(s)


def _generic_en(name: str) -> bool:
    """True for an English name that leaves the thing open ("similar crumbs",
    "vegan alternative", "equivalent replacement"; ``not_names.generic_en``
    of ``lexicon/names.yaml``); "egg substitute" names a thing."""
    w = name.casefold().split()
    if not w:
        return False
    return w[0] in _GENERIC_LEADS or (w[-1] in _GENERIC_HEADS and all(x in _GENERIC_MODS for x in w[:-1]))


def fuzzy_allowed(a: str, b: str) -> bool:
    """Guards applied before a fuzzy merge of ``a`` into ``b`` (both cleaned).

    * never for the explicit :data:`NEVER_MERGE` pairs;
    * Chinese: both names must have at least 4 characters and share their
      first and last character (a 2- or 3-character name differs in meaning
      with a single character: 白糖/红糖, 生抽/老抽, 番茄酱/番茄汁);
    * Latin: both at least 5 characters, same digits, same first letter and a
      plain (not partial) similarity of at least 85, so a name is not merged
      into a longer one containing it (butter / buttermilk), and never into
      its own words with a head word more ("sunflower seed" / "sunflower seed
      oil"; "kashmiri chili powder" / "kashmiri red chili powder" may merge)."""
    if a == b:
        return True
    if frozenset((a, b)) in NEVER_MERGE:
        return False
    if has_cjk(a) or has_cjk(b):
        return len(a) >= 4 and len(b) >= 4 and a[0] == b[0] and a[-1] == b[-1]
    if len(a) < 5 or len(b) < 5 or a[0].lower() != b[0].lower():
        return False
    wa, wb = a.lower().split(), b.lower().split()
    short, long_ = sorted((wa, wb), key=len)
    if len(short) < len(long_) and long_[:len(short)] == short:
        return False  # "sunflower seed" / "sunflower seed oil": a head word more names another thing
    # WRatio scores a name contained in another (butter / buttermilk, cream /
    # cream cheese) near 100; Latin merges also need a high plain ratio.
    if fuzz.ratio(a.lower(), b.lower()) < 85:
        return False
    return re.findall(r"\d", a) == re.findall(r"\d", b)


class Normalizer:
    """Stateful name normalizer for one extraction run.

    ``threshold`` is the rapidfuzz WRatio score (0-100) above which fuzzy
    merges happen; ``alias_csv`` an optional extra CSV (``alias,canonical[,type]``;
    an empty type applies to every type) merged over the bundled table.
    ``merges`` collects one :class:`Merge` per distinct non-identity mapping.
    Raises ``OSError``/``csv.Error`` if an alias CSV cannot be read."""

    def __init__(self, threshold: float = 90.0, alias_csv: Path | None = None) -> None:
        self.threshold = threshold
        self.aliases: dict[tuple[str, str], str] = {}
        self._load(BUNDLED_ALIASES)
        if alias_csv:
            self._load(Path(alias_csv))
        self.seen: dict[tuple[str, str], list[str]] = {}
        self._seen_set: dict[str, set[str]] = {}
        self.merges: list[Merge] = []
        self._merged: set[tuple[str, str, str]] = set()
        self._cache: dict[tuple[str, str], tuple[str, str, float]] = {}
        self._by_key: dict[tuple[str, str], str] = {}  # (type, name_key) → first canonical seen

    def _load(self, path: Path) -> None:
        if not path.exists():
            return
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                if not row or row[0].strip().startswith("#") or row[0].strip().lower() == "alias":
                    continue
                if len(row) < 2:
                    continue
                alias, canon = row[0].strip(), row[1].strip()
                type_ = row[2].strip() if len(row) > 2 else ""
                if alias and canon:
                    self.aliases[(self._key(alias), type_)] = canon

    @staticmethod
    def _key(name: str) -> str:
        return name_key(name)

    def alias(self, name: str, type_: str) -> str | None:
        """Alias-table lookup for ``name`` (type-specific rows first, then
        type-less rows); ``None`` when absent."""
        k = self._key(name)
        return self.aliases.get((k, type_)) or self.aliases.get((k, ""))

    def resolve(self, surface: str, type_: str) -> tuple[str, str, float]:
        """``(canonical, method, score)`` for ``surface`` without recording
        anything; method is ``""`` for identity, ``alias``, ``clean``,
        ``normalize`` or ``fuzzy``; canonical is ``""`` when cleaning leaves
        nothing or no thing's name (:func:`is_entity_name`)."""
        key = (surface, type_)
        hit = self._cache.get(key)
        if hit is not None and hit[1] != "":
            return hit
        s = re.sub(r"\s+", " ", surface).strip()
        a = self.alias(s, type_)
        if a:
            res = (a, "alias" if a != s else "", 100.0)
        else:
            c = clean_name(s, type_)
            if not c or not is_entity_name(c, type_):
                return ("", "", 0.0)
            a = self.alias(c, type_)
            method = "alias" if a else ("" if c == s else "normalize" if name_key(c) == name_key(s) else "clean")
            c = a or c
            seen = self._seen_set.get(type_, set())
            same = self._by_key.get((type_, name_key(c)))
            if c in seen:
                res = (c, method, 100.0)
            elif same is not None and same != c:
                res = (same, "normalize", 100.0)  # 雞胸肉 → 鸡胸肉, ＢＢＱ酱 → BBQ酱, creme fraiche → crème fraîche
            else:
                res = (c, method, 100.0)
                # bucketed by first character: fuzzy_allowed() demands it anyway
                cands = self.seen.get((type_, c[:1].lower()))
                if cands and self.threshold < 100:
                    best = process.extractOne(c, cands, scorer=fuzz.WRatio, score_cutoff=self.threshold)
                    if best is not None and best[0] != c and fuzzy_allowed(c, best[0]):
                        res = (best[0], "fuzzy", float(best[1]))
        self._cache[key] = res
        return res

    def canonical(self, surface: str, type_: str, *, doc: str = "", line: int = 0) -> str:
        """Canonical name of ``surface`` for entity ``type_`` (``""`` if the
        name cleans to nothing or is not a thing's name, see
        :func:`is_entity_name`: then no node may be made). Registers the result as seen and records a
        :class:`Merge` (with ``doc``/``line`` of the first occurrence) when the
        canonical differs from the surface."""
        canon, method, score = self.resolve(surface, type_)
        if not canon or not is_entity_name(canon, type_):
            return ""
        seen = self._seen_set.setdefault(type_, set())
        if canon not in seen:
            seen.add(canon)
            self.seen.setdefault((type_, canon[:1].lower()), []).append(canon)
            self._by_key.setdefault((type_, name_key(canon)), canon)
        surf = re.sub(r"\s+", " ", surface).strip()
        if canon != surf:
            k = (surf, canon, type_)
            if k not in self._merged:
                self._merged.add(k)
                self.merges.append(Merge(surf, canon, type_, method or "clean", score, doc, line))
        return canon
