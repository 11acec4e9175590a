"""Understanding without an LLM: language, intent, entities and constraints.

Entity linking against the KB's names and aliases, in order:

1. **longest match** — a maximal-munch scan of the text over a dictionary of
   every KB name and alias (case-folded; CJK by character, Latin by word
   boundary), the dictionary-based segmentation used for Chinese word
   segmentation (e.g. Wong & Chan, 1996, "Chinese word segmentation based on
   maximum matching");
2. **fuzzy** — rapidfuzz ``ratio`` (normalized Levenshtein) of an unlinked
   slot against the names of the expected type (threshold from settings;
   short CJK names need an exact or containment match);
3. **vector nearest names** — the query embedding against the LanceDB table
   of entity-name embeddings (used for "did you mean" suggestions).

Unknown entities (a slot the KB does not know) are kept with type
``unknown`` so that the answer can say so, never dropped.

Intent rules are regular expressions over Chinese and English phrasings;
each intent names the slots it needs (see :data:`INTENT_SLOTS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")

INTENTS = (
    "substitute", "contains", "used_in", "shared", "required", "exclude",
    "responsibility", "stand_in", "steps", "general",
)

#: Which entity types fill each intent's slots (first = main slot).
INTENT_SLOTS: dict[str, tuple[str, ...]] = {
    "substitute": ("ingredient", "recipe"),
    "contains": ("recipe",),
    "used_in": ("ingredient",),
    "shared": ("recipe",),
    "required": ("ingredient", "recipe"),
    "exclude": ("ingredient",),
    "responsibility": ("role",),
    "stand_in": ("role",),
    "steps": ("recipe",),
    "general": (),
}


def detect_language(text: str) -> str:
    """``"zh"`` when the text has at least twice as many CJK ideographs as
    Latin words, unless it starts as an English sentence (so "IC是什么" is
    Chinese, "Is 大葱 required in 宫保鸡丁?" English)."""
    cjk = len(_CJK.findall(text))
    words = re.findall(r"[A-Za-z]+", text)
    first = re.search(r"[A-Za-z\u3400-\u4dbf\u4e00-\u9fff]", text)
    if cjk and len(words) >= 2 and first and first.group().isascii():
        return "en"  # an English sentence naming Chinese dishes: "Is 大葱 required in 宫保鸡丁?"
    return "zh" if cjk and cjk >= 2 * len(words) else "en"


@dataclass
class Mention:
    """A linked (or unknown) entity mention: ``surface`` as written, ``start``
    offset in the text, KB ``id`` (None when unknown), canonical ``name``,
    ``type`` and linking ``method`` (exact, alias, fuzzy, vector, memory,
    unknown)."""

    surface: str
    name: str
    type: str
    id: str | None = None
    start: int = -1
    method: str = "exact"
    doc: str = ""
    score: float = 100.0


@dataclass
class Understanding:
    """The parsed question: ``intent``, ``language``, ``mentions`` in text
    order, ``excluded`` (things the user lacks / wants without),
    ``slot_texts`` (raw slot strings from the matched rule), ``confident``
    (a rule matched and its slots linked), ``follow_up`` (the text leaned on
    the thread's memory)."""

    text: str
    intent: str
    language: str
    mentions: list[Mention] = field(default_factory=list)
    excluded: list[Mention] = field(default_factory=list)
    slot_texts: dict[str, str] = field(default_factory=dict)
    confident: bool = False
    follow_up: bool = False
    rule: str = ""
    candidate: Mention | None = None  # "X 可以换成 Y 吗": the proposed stand-in Y


# --- intent rules ----------------------------------------------------------------
# Each rule: (intent, compiled regex). Named groups: ctx (a recipe/document),
# item (an ingredient/role), item2/ctx2 (a second one), excl (excluded thing).
_Q = r"[？?。！!\s]*$"
_ZH_RULES: list[tuple[str, str]] = [
    ("substitute", r"^(?:(?P<ctx>.+?)(?:里|中|里面)的?)?(?P<item>[^，,]+?)(?:可以|能|可不可以|能不能)(?:换成|替换成|改成|改用|用)(?P<cand>(?!什么|啥|哪)[^？?]+?)(?:代替|替代|来代替)?(?:吗|嘛|(?<!什)么)$"),
    ("substitute", r"^(?P<ctx>.+?)(?:里|中|里面)?(?:如果)?(?:没有|没|缺|少了|缺少|不想用|不想放|不想加|不用|不放|不加)(?P<item>.+?)(?:的话)?[，,]?(?:可以|能|该)?(?:用|拿|换)?(?:什么|啥|哪些)(?:东西)?(?:来)?(?:代替|替代|替换|顶替|换|代)"),
    ("substitute", r"^(?:如果)?(?:没有|没|缺|缺少|不用)(?P<item>.+?)(?:的话)?[，,]?(?:可以|能)?(?:用|拿)?(?:什么|啥)(?:来)?(?:代替|替代|替换)"),
    ("substitute", r"^(?:如果)?(?:没有|没|缺|缺少)(?P<item>[^，,]+?)(?:的话)?[，,]?(?:可以|能|该)(?:用|拿|换)(?:什么|啥)"),
    ("substitute", r"^(?:(?P<ctx>.+?)(?:里|中|里面)?的)?(?P<item>[^，,的]+?)(?:可以|能)(?:换成|换)(?:别的|其他|其它)(?:东西)?(?:吗|么)?$"),
    ("substitute", r"^(?:(?P<ctx>.+?)(?:里|中|里面)的?)?(?P<item>.+?)(?:可以|能)?(?:用|拿)?(?:什么|啥|哪些东西)(?:来)?(?:代替|替代|替换|换)"),
    ("substitute", r"^(?:(?P<ctx>.+?)(?:里|中|里面)的?)?(?P<item>.+?)的?(?:替代品|替代物|代替品|平替)"),
    ("substitute", r"^(?:什么|哪些)(?:东西)?(?:可以|能)(?:代替|替代|替换)(?P<item>.+?)$"),
    ("substitute", r"^(?P<ctx>.+?)(?:里|中)?(?:的)?(?P<item>.+?)(?:可以|能)换成什么"),
    ("required", r"^(?P<ctx>.+?)(?:里|中|里面)?(?:一定|必须|非得|必需|非要)(?:要)?(?:放|加|用|有)(?P<item>.+?)吗"),
    ("required", r"^(?P<ctx>.+?)(?:里|中|里面)?(?:可以|能)不(?:放|加|用)(?P<item>.+?)吗"),
    ("required", r"^(?P<ctx>.+?)(?:里|中|里面)?的?(?P<item>.+?)是(?:必须|必需|可选)的?吗"),
    ("required", r"^(?P<ctx>.+?)(?:里|中|里面)?的?(?P<item>.+?)(?:可以|能)(?:省略|不要|去掉)吗"),
    ("required", r"^(?P<ctx>.+?)(?:需要|要|得|必须)(?:放|加|用)?(?P<item>[^吗哪什]+?)(?:吗|么)$"),
    ("required", r"^(?P<ctx>.+?)(?:里|中|里面)?的?(?P<item>[^的]+?)(?:可以|能)不(?:放|加|用|要)(?:吗|么)?$"),
    ("required", r"^(?P<ctx>.+?)(?:里|中|里面)?的?(?P<item>[^的]+?)是(?:必须|必需|一定要)(?:放|加|用)?的?(?:吗|么)$"),
    ("shared", r"^(?P<ctx>.+?)(?:和|跟|与|同)(?P<ctx2>.+?)(?:有)?(?:哪些|什么)?(?:共同|相同|一样|都用|都要|都需要|都有|共有)"),
    ("exclude", r"^(?:有)?(?:哪些|什么)?(?:菜|菜谱|食谱)?(?:用|有|含|放)了?(?P<item>[^，,]+?)[，,]?(?:但|但是|却|而|又)?(?:不用|不需要|不放|不加|不含|没有)(?P<excl>.+?)(?:的)?(?:菜|菜谱|食谱)?$"),
    ("exclude", r"^(?:有)?(?:哪些|什么)(?:菜|菜谱|食谱)?(?:不用|不需要|不放|不加|没有)(?P<excl>.+?)$"),
    ("exclude", r"^(?:不用|不需要|不放|不加|不含|没有)(?P<excl>.+?)(?:的|能做的|可以做的)(?:菜|菜谱|食谱)"),
    ("exclude", r"^(?:没有|不用)(?P<excl>.+?)(?:能|可以)做(?:什么|哪些|啥)"),
    ("used_in", r"^(?:有)?(?:哪些|什么)(?:菜|菜谱|食谱)(?:会)?(?:用到|用|需要|要用|要放|放|加|有|里有)(?P<item>.+?)$"),
    ("used_in", r"^(?P<item>.+?)(?:可以|能)(?:用来)?做(?:什么|哪些|啥)(?:菜)?"),
    ("used_in", r"^用(?P<item>.+?)(?:可以|能)做(?:什么|哪些|啥)"),
    ("used_in", r"^(?P<item>.+?)(?:被)?用在(?:哪些|什么)(?:菜)?"),
    ("contains", r"^(?P<ctx>.+?)(?:需要|要用|要|用|得用|要准备)(?:哪些|什么|啥)(?:原料|材料|食材|配料|东西|调料)"),
    ("contains", r"^(?P<ctx>.+?)的?(?:原料|材料|食材|配料|用料|调料)(?:有哪些|是什么|有什么|都有啥|清单)"),
    ("contains", r"^(?P<ctx>.+?)(?:里|中|里面)(?:有|放了?|加了?)(?:哪些|什么|啥)"),
    ("contains", r"^(?:做)?(?P<ctx>.+?)(?:要|需要)(?:准备)?(?:什么|啥)"),
    ("steps", r"^(?P<ctx>.+?)(?:怎么做|怎样做|如何做|怎么烧|怎么炒|怎么煮|怎么弄|咋做|咋煮|咋弄|咋炒|的做法|的步骤|做法|步骤是什么|的制作步骤)"),
    ("steps", r"^(?:怎么|怎样|如何)(?:做|烧|炒|煮)(?P<ctx>.+?)$"),
]
_EN_RULES: list[tuple[str, str]] = [
    ("substitute", r"\bcan (?:i|we|you) (?:use|substitute|swap in) (?P<cand>.+?) (?:instead of|for|in place of) (?P<item>.+?)(?: in (?P<ctx>.+?))?$"),
    ("stand_in", r"\bwho (?:else )?(?:can|could|should|may|might|will) (?:stand in|fill in|step in|cover|take over|substitute|replace|deputi[sz]e|act)(?: for| as)? (?:the |an? )?(?P<item>.+?)$"),
    ("stand_in", r"\b(?:stand-?in|backup|substitute|replacement|fallback) for (?:the |an? )?(?P<item>.+?)$"),
    ("stand_in", r"\bif (?:the |an? )?(?P<item>.+?) (?:is|are) (?:not available|unavailable|absent|away|busy|out)"),
    ("stand_in", r"\bwhat (?:roles?|responsibilities) can (?:the |an? )?(?P<item2>.+?) (?:take on|cover|take over|fill)"),
    ("stand_in", r"\bcan (?:the |an? )?(?P<item2>.+?) (?:take on|cover|take over|fill in for|stand in for|act as) (?:the |an? )?(?P<item>.+?)$"),
    ("responsibility", r"\bwho(?:'s| is| are)? (?:responsible|in charge|accountable) for (?P<task>.+?)$"),
    ("responsibility", r"\bwhat (?:does|do|should|must) (?!(?:i|we|you|me|us)\b)(?:the |an? )?(?P<item>.+?) do\b"),
    ("responsibility", r"^who (?!(?:can|could|should|may|might|will|would|is|are|was)\b)(?P<who>\w+ .+?)$"),
    ("responsibility", r"\b(?:responsibilities|duties|role|job|tasks?) of (?:the |an? )?(?P<item>.+?)$"),
    ("responsibility", r"\bwhat (?:are|is) (?:the |an? )?(?P<item>.+?)(?:'s)? (?:responsibilities|duties|role|job)\b"),
    ("responsibility", r"\bwhat is (?:the |an? )?(?P<item>.+?)$"),
    ("responsibility", r"\bwhat (?:do you|does it|do they) mean by (?:the |an? )?(?P<item>.+?)$"),
    ("responsibility", r"\bwhat does (?:the |an? )?(?P<item>.+?) mean$"),
    ("responsibility", r"\bwhat (?:counts as|qualifies as) (?:the |an? )?(?P<item>.+?)$"),
    ("substitute", r"\b(?:what|which)(?: \w+)? (?:can|could|should|do) i (?:use|substitute|replace)(?: \w+)? (?:instead of|for|in place of) (?P<item>.+?)(?: in (?P<ctx>.+?))?$"),
    ("substitute", r"\b(?:substitutes?|replacements?|alternatives?) (?:for|to) (?P<item>.+?)(?: in (?P<ctx>.+?))?$"),
    ("substitute", r"\b(?:i (?:don't|do not) have|without|no|out of) (?P<item>.+?)(?: for| in)? ?(?P<ctx>.+?)?[,;] (?:what|which)"),
    ("substitute", r"\bwhat can replace (?P<item>.+?)(?: in (?P<ctx>.+?))?$"),
    ("required", r"\b(?:is|are) (?P<item>.+?) (?:required|necessary|optional|needed|essential) (?:in|for) (?P<ctx>.+?)$"),
    ("required", r"\bcan i (?:skip|leave out|omit|drop) (?:the )?(?P<item>.+?) (?:in|from) (?P<ctx>.+?)$"),
    ("required", r"\bdo i (?:need|have to use) (?P<item>.+?) (?:in|for) (?P<ctx>.+?)$"),
    ("shared", r"\b(?:what|which) (?:do|does) (?P<ctx>.+?) and (?P<ctx2>.+?) have in common"),
    ("shared", r"\b(?:common|shared) (?:ingredients|items|steps) (?:of|between|in) (?P<ctx>.+?) and (?P<ctx2>.+?)$"),
    ("exclude", r"\b(?:recipes|dishes|meals) (?:with|that use|using|containing) (?P<item>.+?) but (?:without|not|no) (?P<excl>.+?)$"),
    ("exclude", r"\b(?:recipes|dishes|meals)(?: that| which)? (?:without|don't use|do not use|with no) (?P<excl>.+?)$"),
    ("exclude", r"\bwhat can i (?:make|cook) without (?P<excl>.+?)$"),
    ("used_in", r"\b(?:which|what) (?:recipes|dishes|meals) (?:use|need|contain|include|have) (?P<item>.+?)$"),
    ("used_in", r"\bwhat can i (?:make|cook) with (?P<item>.+?)$"),
    ("contains", r"\bwhat (?:do i need|ingredients do i need|goes) (?:for|into|in) (?P<ctx>.+?)$"),
    ("contains", r"\b(?:ingredients|components) (?:of|for|in) (?P<ctx>.+?)$"),
    ("contains", r"\bwhat(?:'s| is) in (?P<ctx>.+?)$"),
    ("steps", r"\b(?:what are the )?steps (?:for|of) (?:the |an? )?(?P<item>.+?) (?P<ctx>(?:after|during|before) .+?)$"),
    ("steps", r"\b(?:what are the )?steps (?P<ctx>(?:after|during|before) .+?)$"),
    ("steps", r"\bwhat are the steps (?:for|to|of|in) (?P<ctx>.+?)$"),
    ("steps", r"\bhow (?:do|should|can) (?:i|we|you) (?P<ctx>.+?)$"),
    ("steps", r"\b(?:steps|process|procedure|checklist) (?:for|to|of) (?P<ctx>.+?)$"),
]
ZH_RULES = [(i, re.compile(p)) for i, p in _ZH_RULES]
EN_RULES = [(i, re.compile(p, re.I)) for i, p in _EN_RULES]

_FOLLOW_ZH = re.compile(r"^(?:那|那么|换成|如果是|要是|还有)?(?P<item>.+?)(?:呢|的话呢|怎么样|又如何)[？?]*$")
_FOLLOW_EN = re.compile(r"^(?:and|what about|how about|and what about|and for|and in|and with)\s+(?:the\s+)?(?P<item>.+?)[?.!]*$", re.I)
_WITHOUT_EN = re.compile(r"^(?:and\s+)?(?:without|no|minus|skipping|if i don't have|if i have no)\s+(?:the\s+)?(?P<excl>.+?)[?.!]*$", re.I)
_WITHOUT_ZH = re.compile(r"^(?:那)?(?:如果)?(?:没有|没|不用|不放|不加|缺)(?P<excl>[^，,。？?]+?)(?:呢|的话|的话呢|怎么办)?[？?]*$")
PRONOUNS_ZH = ("它", "这个", "这道菜", "这道", "那个", "这菜", "里面", "其中", "该菜", "这个菜")
PRONOUNS_EN = re.compile(r"\b(it|that|this|they|them|this one|that one|this dish|that role|this role)\b", re.I)

_STRIP_ZH = re.compile(r"^(?:请问|请|问一下|我想知道|想问|你好|那|那么|做|用)+|(?:的话|呢|吗|啊|呀|吧|了)+$")
_STRIP_EN = re.compile(r"^(?:the|a|an|my|our|some)\s+|\s+(?:role|please)$", re.I)


def clean_slot(text: str) -> str:
    """Trim punctuation, politeness and particles from a rule's slot text."""
    t = text.strip(" \t\r\n,，。.？?！!、:：\"'“”‘’")
    t = _STRIP_ZH.sub("", t).strip()
    t = _STRIP_EN.sub("", t).strip()
    if t and all(ch in _FUNCTION_CHARS for ch in t):
        return ""  # only function characters ("的"): no slot
    return t


class Linker:
    """Links text to KB entities (see module docstring).

    Built from a list of :class:`~threadgraph.knowledge.kb.EntityName`; ``link``
    resolves one slot string, ``scan`` finds all longest matches in free text.
    """

    def __init__(self, names, *, fuzzy_threshold: float = 88.0):
        self.by_surface: dict[str, list] = {}
        self.by_type: dict[str, list[str]] = {}
        self.fuzzy_threshold = fuzzy_threshold
        for n in names:
            s = n.surface.casefold().strip()
            if not s:
                continue
            self.by_surface.setdefault(s, []).append(n)
            if n.type == "document" and "_" in s:
                # file-stem titles read as words: after_an_incident -> "after an incident"
                self.by_surface.setdefault(s.replace("_", " "), []).append(n)
        for s, lst in self.by_surface.items():
            # a surface that names several entities: recipes before ingredients before the rest
            lst.sort(key=lambda n: (_TYPE_ORDER.get(n.type, 9), n.surface != n.name, n.id))
            for t in {n.type for n in lst}:
                self.by_type.setdefault(t, []).append(s)
        self.max_len = max((len(s) for s in self.by_surface), default=0)

    def _pick(self, surface: str, types: tuple[str, ...] | None):
        key = surface.casefold()
        cands = self.by_surface.get(key)
        if not cands and key.isascii() and key.endswith("s") and len(key) > 3:
            cands = self.by_surface.get(key[:-1])  # "SMEs", "scribes"
        if not cands:
            return None
        if types:
            for t in types:
                for c in cands:
                    if c.type == t:
                        return c
            return None
        return cands[0]

    def scan(self, text: str, *, types: tuple[str, ...] | None = None, min_len: int = 2) -> list[Mention]:
        """All non-overlapping longest matches of KB names in ``text``."""
        out: list[Mention] = []
        low = text.casefold()
        i, n = 0, len(low)
        while i < n:
            found = None
            latin_start = low[i].isascii() and low[i].isalnum()
            if latin_start and i > 0 and low[i - 1].isascii() and low[i - 1].isalnum():
                i += 1
                continue
            for L in range(min(self.max_len, n - i), min_len - 1, -1):
                piece = low[i : i + L]
                if piece[-1].isascii() and piece[-1].isalnum() and i + L < n and low[i + L].isascii() and low[i + L].isalnum():
                    continue  # Latin matches end on a word boundary
                hit = self._pick(piece, types)
                if hit is not None and hit.type in ("document", "concept", "section") and piece.isascii() and " " not in piece:
                    hit = None  # one-word document titles ("about", "index") are ordinary words in a question
                if hit is not None:
                    found = (hit, L)
                    break
            if found:
                hit, L = found
                out.append(Mention(text[i : i + L], hit.name, hit.type, hit.id, i, "exact" if hit.surface == hit.name else "alias", hit.doc))
                i += L
            else:
                i += 1
        return out

    def link(self, slot: str, types: tuple[str, ...] | None = None) -> Mention:
        """Resolve one slot string to an entity of ``types`` (any when None):
        exact/alias → longest contained match → fuzzy; else an ``unknown``
        mention carrying the slot text."""
        slot = clean_slot(slot)
        hit = self._pick(slot, types)
        if hit is not None:
            return Mention(slot, hit.name, hit.type, hit.id, 0, "exact" if hit.surface == hit.name else "alias", hit.doc)
        inner = self.scan(slot, types=types, min_len=1 if _CJK.search(slot) else 2)
        if inner:
            best = max(inner, key=lambda m: len(m.surface))
            # a contained name must be most of the slot ("龙肉" is not "肉"), except whole recipes/roles
            if (len(best.surface) >= 2 and len(best.surface) * 3 >= len(slot) * 2) or best.type in ("recipe", "role"):
                return best
        choices = []
        for t in types or tuple(self.by_type):
            choices.extend(self.by_type.get(t, []))
        if choices and len(slot) >= 2:
            # plain normalized Levenshtein: tolerates typos ("Incident Comander") but not
            # partial overlaps (WRatio scores "chicken" vs "incident commander" at 90)
            res = process.extractOne(slot.casefold(), choices, scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold)
            if res is not None and (len(slot) >= 4 or not _CJK.search(slot)):
                hit = self._pick(res[0], types)
                if hit is not None:
                    return Mention(slot, hit.name, hit.type, hit.id, 0, "fuzzy", hit.doc, float(res[1]))
        return Mention(slot, slot, "unknown", None, 0, "unknown", score=0.0)

    def suggest(self, slot: str, types: tuple[str, ...] | None = None, limit: int = 3) -> list[str]:
        """Near names for "did you mean" (rapidfuzz WRatio ≥ 60)."""
        slot = clean_slot(slot).casefold()
        if not slot:
            return []
        choices = []
        for t in types or tuple(self.by_type):
            choices.extend(self.by_type.get(t, []))
        if len(slot) >= 2:
            # names that contain the asked one: 红烧肉 → 南派红烧肉, 徽派红烧肉 …
            contained = sorted({self.by_surface[c][0].name for c in choices if slot in c and c != slot}, key=len)
            if contained:
                return contained[:limit]
        cjk = bool(_CJK.search(slot))
        choices = [c for c in dict.fromkeys(choices) if bool(_CJK.search(c)) == cjk]  # same script only
        res = process.extract(slot, choices, scorer=fuzz.WRatio, limit=limit * 3, score_cutoff=75)
        res = [r for r in res if 0.5 <= len(r[0]) / max(len(slot), 1) <= 2.0]
        out: list[str] = []
        for s, _score, _ in res:
            name = self.by_surface[s][0].name
            if name not in out:
                out.append(name)
        return out[:limit]


_TYPE_ORDER = {"recipe": 0, "role": 1, "ingredient": 2, "tool": 3, "document": 4, "artifact": 5, "concept": 6}


def _slot_types(intent: str, group: str) -> tuple[str, ...]:
    if group in ("ctx", "ctx2"):
        if intent in ("steps",):
            return ("recipe", "document", "concept")
        return ("recipe", "document")
    if group in ("item", "item2", "excl", "cand"):
        if intent in ("stand_in", "responsibility"):
            return ("role",)
        if intent == "steps":
            return ("role", "ingredient", "tool")
        return ("ingredient", "tool")
    return ()


def understand(text: str, linker: Linker) -> Understanding:
    """Parse ``text`` into an :class:`Understanding` using rules only.

    Memory is not consulted here (see :mod:`threadgraph.bot.conversation`);
    ``follow_up`` marks texts that need it (pronouns, "那…呢", "and …?").
    """
    raw = text.strip()
    lang = detect_language(raw)
    rules = ZH_RULES + EN_RULES if lang == "zh" else EN_RULES + ZH_RULES
    body = raw.rstrip("？?。.!！ ")
    u = Understanding(text=raw, intent="general", language=lang)
    for intent, rx in rules:
        m = rx.search(body)
        if not m:
            continue
        u.intent, u.rule = intent, rx.pattern[:40]
        for group, value in m.groupdict().items():
            if not value:
                continue
            value = clean_slot(value)
            if not value:
                continue
            u.slot_texts[group] = value
            if group in ("task", "who"):
                continue  # a task phrase, matched against facts and passages, not linked
            if _is_pronoun(value, lang):
                u.follow_up = True
                continue
            mention = linker.link(value, _slot_types(intent, group))
            if mention.type == "unknown" and group in ("ctx", "ctx2"):
                # the "recipe" slot may hold an ingredient or role phrase ("鸡蛋可以做什么")
                alt = linker.link(value, None)
                if alt.type != "unknown":
                    mention = alt
            if group == "excl":
                u.excluded.append(mention)
            elif group == "cand":
                u.candidate = mention
            else:
                u.mentions.append(mention)
        _rebalance(u, body, linker)
        break
    else:
        _follow_up_forms(u, body, linker)
    if u.intent == "general" or not u.mentions:
        # free-text entities (also for rules whose slots did not link)
        for m in linker.scan(body):
            if not any(m.id == x.id for x in u.mentions + u.excluded):
                u.mentions.append(m)
    if lang == "en" and PRONOUNS_EN.search(body):
        u.follow_up = u.follow_up or not u.mentions
    if lang == "zh" and any(p in body for p in PRONOUNS_ZH):
        u.follow_up = True
    u.confident = u.intent != "general" and all(m.type != "unknown" for m in u.mentions + u.excluded) and bool(u.mentions or u.excluded or u.follow_up)
    return u


_FUNCTION_CHARS = set("的了是吗呢啊吧在和与及或有没不要用做放加里中把被给对从到就也都还很请问可以能")

_GENERIC_CANDIDATES = {"别的", "其他", "其它", "别的东西", "其他东西", "something else", "anything else"}


def _rebalance(u: Understanding, body: str, linker: Linker) -> None:
    """Repair slot boundaries the lazy rule split got wrong ("台式卤肉饭的鸡蛋
    是必须的吗" splits as 台 / 式卤肉饭的鸡蛋): when a slot did not link, the
    KB names found by a longest-match scan of the whole question (single
    characters allowed for ingredients and tools: 盐, 糖, 碗) take the place of
    the unknown mentions, typed by slot. A generic candidate ("别的") is no
    candidate."""
    if u.candidate is not None and clean_slot(u.candidate.surface) in _GENERIC_CANDIDATES:
        u.candidate = None
    unknown = [m for m in u.mentions + u.excluded if m.type == "unknown"]
    needs_item = "ingredient" in INTENT_SLOTS.get(u.intent, ()) and u.intent != "exclude" and not any(
        m.type in ("ingredient", "tool") for m in u.mentions)
    if not unknown and not needs_item:
        return
    found = linker.scan(body, min_len=1 if _CJK.search(body) else 2)
    multi = [m for m in found if len(m.surface) > 1]

    def bounded(m: Mention) -> bool:
        # a one-character name (盐, 糖, 碗) counts only between function words or other
        # names, never inside an unknown word (肉 in 红烧肉)
        i = m.start

        def edge(j: int) -> bool:
            return (j < 0 or j >= len(body) or body[j] in _FUNCTION_CHARS or not _CJK.match(body[j])
                    or any(k.start <= j < k.start + len(k.surface) for k in multi))

        return edge(i - 1) and edge(i + 1)

    found = multi + [m for m in found if len(m.surface) == 1 and m.type in ("ingredient", "tool") and bounded(m)]
    known_ids = {m.id for m in u.mentions + u.excluded if m.id}
    if u.candidate is not None and u.candidate.id:
        known_ids.add(u.candidate.id)
    extra = [m for m in found if m.id not in known_ids]
    if not extra:
        return
    def covered(unk: Mention) -> bool:
        # the unknown slot's text overlaps a KB name found by the scan: the split was wrong
        start = body.find(unk.surface)
        if start < 0:
            return True
        end = start + len(unk.surface)
        return any(m.start < end and start < m.start + len(m.surface) for m in extra)

    kept = [m for m in u.mentions if m.type != "unknown" or not covered(m)]
    if u.excluded and all(m.type == "unknown" for m in u.excluded):
        items = [m for m in extra if m.type in ("ingredient", "tool", "role")]
        if items and all(covered(m) for m in u.excluded):
            u.excluded = items[:1]
            extra = [m for m in extra if m is not items[0]]
    u.mentions = kept + [m for m in extra if not any(m.id == k.id for k in kept)]


def _is_pronoun(value: str, lang: str) -> bool:
    v = value.strip().casefold()
    return v in PRONOUNS_ZH or bool(re.fullmatch(PRONOUNS_EN.pattern, v, re.I))


def _follow_up_forms(u: Understanding, body: str, linker: Linker) -> None:
    """Elliptical follow-ups: "那鱼香肉丝呢", "and without chicken?", "what about the Scribe?"."""
    zh = u.language == "zh"
    without_rx, follow_rx = (_WITHOUT_ZH, _FOLLOW_ZH) if zh else (_WITHOUT_EN, _FOLLOW_EN)
    tag = "zh" if zh else "en"
    m = without_rx.match(body)
    if m:
        u.intent, u.follow_up, u.rule = "without", True, f"without-{tag}"
        u.slot_texts["excl"] = m.group("excl")
        u.excluded.append(linker.link(m.group("excl"), ("ingredient", "tool") if zh else ("ingredient", "tool", "role")))
        return
    m = follow_rx.match(body)
    if not m:
        return
    u.follow_up, u.rule, u.intent = True, f"ellipsis-{tag}", "follow"
    if _is_pronoun(clean_slot(m.group("item")), tag):
        return  # "what about it?": everything comes from memory
    u.slot_texts["item"] = m.group("item")
    u.mentions.extend(linker.scan(m.group("item"), min_len=1 if zh else 2) or [linker.link(m.group("item"))])
