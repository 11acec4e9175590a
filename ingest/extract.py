"""Rule-based extraction from parsed documents (no file-name special cases).

Documents are classified by *structure and language*, not by path:

* **Recipe** – a document with a heading naming an ingredients section
  (原料/材料/配料/食材/用料/Ingredients/What you need…) that holds list
  items. It yields a ``recipe`` entity, ``CONTAINS`` recipe→ingredient/tool
  edges and ``SUBSTITUTES`` ingredient→ingredient edges (see
  :class:`RecipeExtractor`).
* **Generic / SOP document** – everything else: ``document`` → ``section``
  → ``step`` ``CONTAINS`` edges, role mentions and role stand-ins (see
  :class:`DocumentExtractor`).

Roles are found across the whole corpus first (:func:`collect_roles`), so a
step in one file can link to a role defined in another.

Every fact carries a :class:`Provenance` with the document path, heading path,
1-based source line, the rule name and a confidence (list items 0.9, free
text 0.7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from threadgraph.ingest.normalize import _UNITS_EN, Normalizer, clean_name, is_cjk
from threadgraph.ingest.document import Block, ParsedDocument
from threadgraph.knowledge.records import Entity, Merge, Provenance, Triple, entity_id

# --------------------------------------------------------------------------- headings
ING_HEAD = re.compile(r"原料|材料|配料|食材|用料|主料|辅料|ingredients?|what you(?:'ll| will)? need|shopping list", re.I)
TOOL_HEAD = re.compile(r"工具|器具|器材|厨具|用具|tools?\b|equipment|utensils", re.I)
AMOUNT_HEAD = re.compile(r"计算|用量|分量|份量|配比|quantit|amounts?\b|measurements?", re.I)
# a procedure section: its items are steps, never ingredients — even under a
# sub-heading that names ingredients ("操作 > 处理原料", "操作 > 炒熟各种材料")
STEP_HEAD = re.compile(
    r"^\s*(?:\d+[.、]\s*)?(?:操作|步骤|做法|制作|流程|烹饪(?:步骤|方法|过程)|"
    r"(?:cooking\s+)?steps?\b|method\b|instructions?\b|directions?\b|procedure\b)", re.I)
OPTIONAL_LABEL = re.compile(r"可选|进阶|选用|选配|optional", re.I)
REQUIRED_LABEL = re.compile(r"必须|必备|必需|required", re.I)

# --------------------------------------------------------------------------- tools
TOOL_WORDS = (
    "微波炉 烤箱 空气炸锅 电饭煲 电饭锅 高压锅 压力锅 蒸锅 砂锅 炒锅 平底锅 汤锅 奶锅 不粘锅 铁锅 锅铲 锅盖 "
    "保鲜膜 保鲜袋 保鲜盒 剪刀 厨房纸 吸油纸 烘焙纸 油纸 锡纸 铝箔纸 量杯 量勺 砧板 案板 菜板 菜刀 刀具 "
    "牙签 竹签 温度计 模具 打蛋器 料理机 搅拌机 破壁机 榨汁机 豆浆机 面包机 绞肉机 漏勺 擀面杖 筷子 "
    "蒸笼 蒸架 烤盘 烤架 烤网 筛网 滤网 纱布 厨房秤 电子秤 裱花袋 刮刀 刮板 夹子 锅 刀 碗 盘 铲 勺 盆 "
    "盘子 碟子 汤勺 饭勺 勺子 铲子 电磁炉 燃气灶 烤炉 冰箱 密封罐 玻璃瓶 容器 密封袋 手套 刷子 笊篱 秒表 计时器 定时器 盘夹 夹子 纱布 砵 钵 钵子 灶台 炉灶"
).split()
_TOOL_SUFFIX_1 = ("锅", "刀", "碗", "盘", "铲", "勺", "盆", "炉", "机", "器", "杖", "笼", "罐", "筷", "秤", "架", "网", "膜")
_NOT_TOOLS = {"锅巴", "锅包肉", "刀豆", "刀鱼", "碗豆", "勺子菜", "火锅底料", "蒸肉米粉"}
_TOOL_EN = re.compile(
    r"\b(?:pans?|pots?|skillets?|woks?|knife|knives|ovens?|bowls?|plates?|spatula|whisk|blender|mixer|"
    r"thermometer|foil|tray|sheet pan|baking sheet|cutting board|board|saucepan|dutch oven|microwave|"
    r"air fryer|steamer|ladle|tongs|colander|sieve|rolling pin|grater|peeler|spoon|chopsticks?)\b",
    re.I,
)


def is_tool(name: str) -> bool:
    """True when a (cleaned) list-item name denotes kitchen equipment.

    Chinese: exact word from the tool vocabulary (锅, 刀, 碗, 砧板, 微波炉, 烤箱,
    空气炸锅, 保鲜膜, 厨房纸…), a name containing a multi-character tool word,
    or ending in a one-character tool suffix (炒锅, 菜刀, 料理机, 打蛋器…),
    minus known foods (锅巴, 刀豆…). A name with a ``…的`` modifier is judged
    by its head noun (``有一定深度的碗`` → 碗). English: pan, pot, knife, oven,
    bowl…"""
    if not name:
        return False
    if name in _NOT_TOOLS:
        return False
    if is_cjk(name):
        if "的" in name and name.rsplit("的", 1)[1] and is_tool(name.rsplit("的", 1)[1]):
            return True
        if name in TOOL_WORDS:
            return True
        if any(len(w) >= 2 and w in name for w in TOOL_WORDS):
            return True
        return name.endswith(_TOOL_SUFFIX_1) and len(name) <= 5
    return bool(_TOOL_EN.search(name))


# --------------------------------------------------------------------------- alternatives
_OPT_MARK = re.compile(r"\boptional\b|^可选[:：]?", re.I)
# a clause of a note that marks the item optional: "可选", "可选但推荐", "可选调味",
# "可不加", "optional" — but not "可选用 Y"/"可选择…"/"选用了速冻虾" (a choice, not optional)
_OPT_CLAUSE = re.compile(
    r"^\s*(?:可选(?![用择取])|选用\s*$|optional\b)|可以?不(?:加|放|用)(?!太|过)|可省略|可加可不加|不(?:加|放)也(?:可|行)", re.I)
_PAREN = re.compile(r"[（(]([^（）()]*)[）)]")
# "X(gloss)— 可用 Y 替代" / "X — 可选但推荐": a dash note after the name (em dash or a
# spaced en dash; a plain hyphen is a range, "10 - 18 ml")
_DASH_NOTE = re.compile(r"\s*(?:—+|\s–\s)\s*")
_SYM_ALT = re.compile(r"^\s*(?:或者|或是|或|也可以是|or)\s*(.+?)\s*$", re.I)
_NO_X_USE_Y = re.compile(
    r"(?P<cond>没有(?P<x>[^，,。；;]*?)(?:时|的话)?)[，,\s]*(?:就|则|可以|也可以|可)?\s*(?:用|使用|换成|换用|替换为|改用)\s*(?P<y>.+?)\s*(?:来)?(?:代替|替代|替换)?\s*$"
)
_CAN_USE_Y = re.compile(r"^\s*(?:也?可(?:以)?(?:用|使用|选用|换成|替换为|改为|改用)|替换为|改为|改用|(?:替代|代替|替换|替代品)\s*[:：])(?!于|作|来做)\s*(?P<y>.+?)\s*(?:来)?(?:代替|替代|替换)?\s*$")
# "（咸味曲奇可替代）" / "（电饭锅可替代，但…）": Y named first
_Y_CAN_REPLACE = re.compile(r"^\s*(?:用)?(?P<y>[^，,；;]{1,12}?)\s*(?:也)?可(?:以)?(?:替代|代替|替换)\s*$")
# "（湿木耳也可，…）" / "（其他植物油也可）" / "（紫洋葱也可以）" / "（Y 也行）": Y named, then
# "also fine" — a directional stand-in (not "不加也可以", which marks the item optional)
_Y_ALSO_OK = re.compile(r"^\s*(?!不|没|有|可|也|或|直接|\d)(?P<y>[^，,；;：:]{1,12}?)(?<!的)\s*也(?:可以?|行|成|能用|没问题)\s*$")
_NOT_A_THING = re.compile(r"超市|商店|店|网购|购买|买|品牌|牌子|参考|手")
_EN_IF_NOT = re.compile(r"^\s*(?P<cond>if (?:you )?(?:do not|don't|can't|cannot)\s+(?:have|find)[^,]*|if not available|if unavailable)\s*,?\s*(?:use\s+)?(?P<y>.+?)\s*$", re.I)
_EN_OR = re.compile(r"^\s*(?:or|alternatively,?)\s+(?:use\s+)?(?P<y>.+?)\s*$", re.I)

_METHOD_ZH = re.compile(r"^(?:切|剁|拍|煎|烤|炒|煮|蒸|炸|焯|炖|焖|拌|腌|卤|熏|烧|烙|削|刨|撕|掰|捣|磨|打)[\u4e00-\u9fff]?$")
_METHOD_EN = {
    "chop", "dice", "slice", "mince", "fry", "bake", "grill", "roast", "boil", "steam", "saute", "sauté",
    "stir", "mix", "whisk", "blend", "simmer", "poach", "broil", "toast", "peel", "grate", "shred", "cut",
    "chopped", "diced", "sliced", "minced", "grated", "shredded", "peeled", "crush", "crushed",
}
_MEASURE_ONLY = re.compile(
    r"^\s*(?:约|大约|about|approx\.?)?\s*[\d./½¼¾\-–~～至到\s]+\s*[a-zA-Z\u4e00-\u9fff]{0,12}\s*$"
)


def _is_measure(raw: str) -> bool:
    """True for a pure quantity like ``400 grams``, ``240ml``, ``2-3 个``, ``1 杯``
    (English needs a known unit, so ``2 shallots`` is a name, not a measure)."""
    raw = raw.strip()
    if not raw or not re.search(r"\d", raw):
        return False
    return clean_name(raw, "ingredient") == "" or bool(re.fullmatch(
        r"(?:约|大约|about)?\s*[\d./½¼¾]+(?:\s*[-–~～至到]\s*[\d./]+)?\s*"
        r"(?:(?:%s)\b|[个只根片勺杯碗瓣块颗粒把条张支斤两滴袋包盒罐瓶份克升毫升千克公斤]{1,3})\.?" % _UNITS_EN, raw, re.I))


_PROSE_START = re.compile(r"^(?:将|把|在|取|用|加入|放入|倒入|准备|如果|如|可以|需要|使用|当|先|再|然后|每|以|和|与|不|为|也|即|所以|但|后|时候|差不多|看)")


_PROSE_VERB = re.compile(r"装入|放入|倒入|加入|搅拌(?![机器碗棒盆])|洗净|之后|然后|后再|以后")


def plausible_name(name: str) -> bool:
    """Reject list-item prose that is not a thing's name: Chinese names over
    8 characters, names with sentence punctuation, digits or ``°``, or that
    start like an instruction (将/把/加入/如果…); English names over 5 words."""
    if not name or re.search(r"[。！？；;!?°\d%：:，,（）()]", name):
        return False
    if is_cjk(name):
        return len(name) <= 8 and not _PROSE_START.match(name)
    return len(name.split()) <= 5


# what a cooking *step* says, never an ingredient's or tool's name: a verb
# phrase (放入/加入/翻炒/关火/盛出/洗净/切成/泡 4 个小时…), a name ending in a cut
# or prep action (葱切段, 胡萝卜切末, 土豆去皮), a step opening (切/向/把/将/然后…)
# without a "…的" modifier (切块的午餐肉 is a thing), a numbered-step shape, or a
# remark about quantities/taste (可以食用, 没过, 本身的, 参见…)
STEP_VERB = re.compile(
    r"放入|加入|倒入|放在|翻炒|翻拌|关火|开火|转小火|大火|小火|盛出|盛盘|出锅|备用|洗净|烧开|烧热|"
    r"焯水|腌制|搅拌均匀|拌匀|烧至|泡\s*\d|切成|切为|切(?:段|片|丝|末|碎|块|丁|开|沫)?$|"
    r"(?:去|剥)(?:皮|蒂|芯|根|头尾|外层)$|拍(?:碎|平)$|准备好|处理|可以食用|没过|乘以|总共|本身|"
    r"参见|对于|可准备|手法|方向|"
    r"^(?:切|撕|剥|向|把|将|然后|再|先|拿|左手|右手)(?!.*的)"
)


def looks_like_step(name: str) -> bool:
    """True when a list-item name reads like a cooking step or a remark, not
    a thing (see :data:`STEP_VERB`): ``干木耳泡 4 个小时``, ``去蒂``, ``关火``,
    ``盛盘``, ``葱切段``, ``左手握住搅拌盆从``. 泡椒/泡打粉/泡发好的海参/
    切块的午餐肉/去皮猪肉 stay names."""
    name = re.sub(r"^\s*\d+\s*[.、)）]\s*", "", name or "")  # "2. 干木耳泡…" — a numbered step
    return bool(name) and is_cjk(name) and bool(STEP_VERB.search(name))


def _is_method(name: str) -> bool:
    if not name:
        return False
    if is_cjk(name):
        return bool(_METHOD_ZH.match(name)) and not is_tool(name)  # 切丝 is a method, 烤箱/炒锅 are tools
    first = name.lower().split()[0]
    return first in _METHOD_EN


def split_top(text: str, seps: str) -> list[str]:
    """Split ``text`` at any char of ``seps`` outside parentheses (（）()【】[]);
    returns the stripped, non-empty parts."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "（(【[":
            depth += 1
        elif ch in "）)】]":
            depth = max(0, depth - 1)
        if ch in seps and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p for p in (x.strip() for x in parts) if p]


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
    as written (``""`` if none), ``optional`` marker, ``alternatives``."""

    name: str
    amount: str = ""
    optional: bool = False
    alternatives: list[Alternative] = field(default_factory=list)


def _alts_from_note(note: str) -> list[Alternative]:
    """Alternatives in one clause of a note (或者 Y / 没有…就用 Y 代替 / 可用 Y 代替 /
    也可用 Y 代替 / 没有可用 Y 替代 / or Y / if you don't have it, use Y).

    ``Y、Z`` lists give one alternative each. A compound stand-in (``A + B``,
    ``A 和 B``) stays ONE alternative whose ``raw`` is the whole combination;
    ``add_sub`` in :class:`RecipeExtractor` turns it into a single edge (see
    there). Use :func:`note_clauses` for a whole parenthesised note."""
    m = _SYM_ALT.match(note)
    if m:
        return [Alternative(p, True) for p in split_top(m.group(1), "/／、")]
    m = _NO_X_USE_Y.search(note)
    if m:
        cond = m.group("cond").strip()
        cond = "没有时" if not m.group("x").strip() else cond
        return [Alternative(_and_to_plus(p), False, cond) for p in split_top(m.group("y"), "、/／")]
    m = _CAN_USE_Y.match(note)
    if m:
        return [Alternative(_and_to_plus(p), False) for p in split_top(m.group("y"), "、/／")]
    m = _Y_CAN_REPLACE.match(note)
    if m and is_cjk(note):
        return [Alternative(_and_to_plus(m.group("y")), False)]
    m = _Y_ALSO_OK.match(note)
    if m and is_cjk(note) and not _NOT_A_THING.search(m.group("y")):
        return [Alternative(_and_to_plus(m.group("y")), False)]
    m = _EN_IF_NOT.match(note)
    if m:
        return [Alternative(m.group("y"), False, m.group("cond").strip())]
    m = _EN_OR.match(note)
    if m:
        return [Alternative(m.group("y"), not note.lower().lstrip().startswith("alternatively"))]
    return []


def _and_to_plus(y: str) -> str:
    """``A 和 B`` / ``A 及 B`` in a stand-in means both together: write it as ``A + B``."""
    return re.sub(r"(?<=\S)\s*(?:和|及)\s*(?=\S)", " + ", y) if is_cjk(y) else y


def note_clauses(note: str) -> tuple[bool, list[Alternative]]:
    """Parse a whole note (the text in parentheses or after a dash) clause by
    clause — clauses are split at top-level ``，,；;`` — so that
    ``（去骨，可用羊肉替代）``, ``（一种常用日式调料，…，也可用料酒代替）``,
    ``（没有可用食用油替代，但猪油风味更佳）`` and ``（或午餐肉，可选）`` each yield
    their alternative without the neighbouring clauses leaking into Y.
    Returns ``(optional, alternatives)``: ``optional`` is true when one clause
    is an optional marker (可选 / 可选但推荐 / 可不加 / optional)."""
    optional, alts, carry = False, [], ""
    for clause in split_top(note, "，,；;"):
        clause = f"{carry}，{clause}" if carry else clause
        carry = ""
        found = _alts_from_note(clause)
        if not found and re.match(r"^\s*(?:如果|若)?没有|^\s*if (?:you )?(?:do not|don't|can't|cannot)", clause, re.I):
            carry = clause  # "没有鹌鹑蛋，可以用…鸡蛋代替": the condition spans the comma
        elif _OPT_CLAUSE.search(clause) and not found:
            optional = True
        alts.extend(found)
    return optional, alts


_Q = r"(?:about\s+)?[\d½¼¾][\d./½¼¾-]*\s*(?:(?:%s)\.?)?" % _UNITS_EN
_EN_LEAD_AMOUNT = re.compile(rf"^(?P<amount>{_Q}(?:\s*(?:or|/)\s*{_Q})?)\s+(?:of\s+)?(?P<name>[A-Za-z].*)$", re.I)
_AMOUNT_TAIL = re.compile(
    r"^(?P<name>.+?)\s+(?P<amount>(?:约|大约)?\s*[\d.½¼¾]+.*|适量.*|少许.*|若干.*)$"
)


def parse_item(text: str) -> list[ItemParse]:
    """Parse one ingredient/amount list item into ingredient mentions.

    Handles the HowToCook phrasings ``X（或者 Y）``, ``X（或 Y）``, ``X(或Y)``,
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
    if is_cjk(text):
        head, *tail = _DASH_NOTE.split(text, maxsplit=1)
        if tail and head.strip() and tail[0].strip():
            text, notes = head.strip(), [tail[0].strip()]  # "藏红花(Saffron)— 可用食用黄色素替代"
    amount = ""
    m = re.match(r"^(?P<name>[^=＝]+?)\s*[=＝]\s*(?P<amount>.*)$", text)
    if m:
        text, amount = m.group("name").strip(), m.group("amount").strip()
    elif not is_cjk(text):
        m = _EN_LEAD_AMOUNT.match(text)
        if m:
            text, amount = m.group("name").strip(), m.group("amount").strip()
    else:
        m = _AMOUNT_TAIL.match(text)
        if m and not _is_measure(m.group("name")):
            text, amount = m.group("name").strip(), m.group("amount").strip()
    optional = bool(_OPT_MARK.search(text))
    # notes in parentheses after the name, in the amount tail and after a dash,
    # clause by clause; with several items on one line ("鸡肉，土豆，菜椒和甜椒（可以不用）")
    # a parenthesised note belongs to the item it follows
    lead = re.match(r"^\s*[（(]([^（）()]*)[）)]\s*[：:]?\s*", text)
    if lead:  # "（可选）：鸡蛋，青菜" — a leading note is about the whole line
        notes.append(lead.group(1))
        text = text[lead.end():]
    line_notes = [note_clauses(n) for n in _PAREN.findall(amount) + notes]
    name_notes = [note_clauses(n) for n in _PAREN.findall(text)]
    raw_parts = split_top(text, "、，,；;") if is_cjk(text) else [text]
    base = _PAREN.sub("", text).strip()
    base = _OPT_MARK.sub("", base).strip(" ：:,，")
    lab = re.match(r"^(?P<l>[^：:]{1,8})[：:]\s*(?P<r>.+)$", base)
    if lab and is_cjk(base):
        if re.search(r"原料|材料|配料|食材|调料|工具|必备|可选|其他|主料|辅料", lab.group("l")):
            optional = optional or bool(OPTIONAL_LABEL.search(lab.group("l")))
            base = lab.group("r")  # "工具：锅" / "可选：葱花"
        else:
            base = lab.group("l")  # "翘嘴鱼：最佳…" / "盐：约 3g"
    if is_cjk(base):
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
        name, palts = part, [a for _, al in found for a in al]
        if is_cjk(part):
            bits = split_top(part, "/／")
            if len(bits) == 1:
                bits = [b for b in re.split(r"或者|或是|或|(?<![A-Za-z])or(?![A-Za-z])", part) if b.strip()]
            if len(bits) > 1 and not any(_is_measure(b) for b in bits):
                name = bits[0]
                palts += [Alternative(b, True) for b in bits[1:]]
        else:
            m2 = re.match(r"^(?P<x>.+?),?\s+(?:or|alternatively,?)\s+(?P<y>.+)$", part, re.I)
            if m2 and not _is_measure(m2.group("x")):
                name = m2.group("x")
                palts.append(Alternative(m2.group("y"), "alternatively" not in part.lower()))
            elif m2:
                name = m2.group("y")  # "14 ounces or 400 grams tomatoes" -> tomatoes
                name = re.sub(r"^[\d./\s]+\w*\s+", "", name) if _is_measure(m2.group("x")) else name
            else:
                slash = split_top(part, "/")
                if len(slash) > 1 and not any(_is_measure(b) for b in slash):
                    name = slash[0]
                    palts += [Alternative(b, True) for b in slash[1:]]
        out.append(ItemParse(name.strip(), amount, p_opt, palts))
    return out


# --------------------------------------------------------------------------- results
@dataclass
class DocResult:
    """What one document yields: entities (not yet deduplicated), triples,
    and the recipe/document entity id (``root``)."""

    root: str = ""
    entities: list[Entity] = field(default_factory=list)
    triples: list[Triple] = field(default_factory=list)


def _children(blocks: list[Block]) -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for i, b in enumerate(blocks):
        if b.parent >= 0:
            kids.setdefault(b.parent, []).append(i)
    return kids


def _sect(path: tuple[str, ...]) -> str:
    return " > ".join(path)


def in_steps(path: tuple[str, ...]) -> bool:
    """True when a heading path lies inside a procedure section (操作/步骤/做法/
    制作/流程/Steps/Method/Instructions…, see :data:`STEP_HEAD`)."""
    return any(STEP_HEAD.match(p) for p in path)


def section_kind(path: tuple[str, ...]) -> str:
    """``"amount"`` (计算/用量…), ``"ingredient"`` (原料/材料/工具…) or ``""``
    for a block's heading path. Inside a procedure section the answer is
    always ``""``: "操作 > 处理原料" lists steps, not ingredients."""
    if in_steps(path):
        return ""
    if any(AMOUNT_HEAD.search(p) for p in path):
        return "amount"
    if any(ING_HEAD.search(p) or TOOL_HEAD.search(p) for p in path):
        return "ingredient"
    return ""


_DISH_TITLE = re.compile(r"(?:的做法|做法|的制作方法|制作方法|配方)\s*$|\brecipes?\b", re.I)
# "生抽：调酱香且带有咸味的底味。可用于几乎所有肉类" — a term and its explanation
_GLOSS_ITEM = re.compile(r"^[^：:]{1,12}[：:]\s*(?P<rest>.+)$")


def _glossary_item(text: str) -> bool:
    """True for a list item that explains a term rather than naming an
    ingredient: ``label：`` followed by prose (sentence punctuation or ≥ 15
    characters without an amount), as in a tutorial's "常用的腌渍用料"."""
    m = _GLOSS_ITEM.match(text.strip())
    if not m:
        return False
    rest = m.group("rest").strip()
    if re.match(r"^(?:约|大约)?\s*[\d½¼¾]|^(?:适量|少许|若干)", rest):
        return False  # "盐：约 3g"
    return bool(re.search(r"[。！？；]", rest)) or len(rest) >= 15


def is_recipe(doc: ParsedDocument) -> bool:
    """A recipe has a non-title heading naming an ingredients section (see
    :data:`ING_HEAD`, outside any procedure section) with list items under it
    **and** reads as a dish: either its title names a dish (``X的做法``,
    ``… recipe``) or most of those items name ingredients — not glossary
    explanations (``生抽：调酱香…。可用于…``) or generic categories
    (``蔬菜类``, ``其他肉类``). So a tutorial such as "腌（肉）" with a section
    "常用的腌渍用料" explaining seasonings stays a document."""
    items = [b for b in doc.blocks if b.kind == "item" and section_kind(b.path) == "ingredient"
             and any(ING_HEAD.search(p) for p in b.path)]
    if not items:
        return False
    title = doc.h1 or doc.front_matter.get("title", "") or ""
    if _DISH_TITLE.search(title):
        return True
    namey = 0
    for b in items:
        if _glossary_item(b.text):
            continue
        names = [clean_name(ip.name, "ingredient") for ip in parse_item(b.text)]
        if any(n and plausible_name(n) and not _CATEGORY.search(n) and not looks_like_step(n) for n in names):
            namey += 1
    return namey * 2 > len(items)


def recipe_name(doc: ParsedDocument) -> str:
    """The H1 with a trailing ``的做法``/``做法``/``recipe`` stripped, else the
    front-matter title, else the file stem."""
    name = doc.h1 or doc.front_matter.get("title", "") or doc.stem
    name = re.sub(r"\s*(?:的做法|做法|的制作方法|制作方法)\s*$", "", name)
    name = re.sub(r"\s*\b(?:recipe)\s*$", "", name, flags=re.I)
    return name.strip() or doc.stem


# --------------------------------------------------------------------------- recipes
_TEXT_SUB_PATTERNS = [
    # 没有 X 就用 Y (代替)  /  没有 X 的话可以用 Y 代替
    (re.compile(r"(?P<cond>没有(?P<x>[^，,。；;！!？?]{1,12}?)(?:时|的话)?)[，,\s]*(?:就|则|可以|也可以|可|只能|只好|只得|就只能)?\s*(?:用|使用|换成|换用|改用)\s*(?P<y>[^，,。；;！!？?（(]{1,20}?)\s*(?:代替|替代|替换)"), False),
    # 可用 Y 代替 X / 用 Y 代替 X / 用 Y 替代 X
    (re.compile(r"(?:也?可(?:以)?)?(?:用|使用)\s*(?P<y>[^，,。；;！!？?（(]{1,12}?)\s*(?:来)?(?:代替|替代|替换)\s*(?P<x>[^，,。；;！!？?（(]{1,12})"), False),
    # X 可用 Y 代替 / X 也可以用 Y 替代
    (re.compile(r"(?P<x>[^，,。；;！!？?（(\s]{1,12}?)\s*(?:也)?可(?:以)?(?:用|使用)\s*(?P<y>[^，,。；;！!？?（(]{1,12}?)\s*(?:来)?(?:代替|替代|替换)"), False),
    # X 替换为 / 改为 / 换成 Y
    (re.compile(r"(?P<x>[^，,。；;！!？?（(]{1,20}?)\s*(?:替换为|替换成|改为|换成)\s*[“\"「]?(?P<y>[^，,。；;！!？?）)”\"」]{1,20})"), False),
    # English: Y instead of X / substitute Y for X / X can be replaced with Y
    (re.compile(r"(?:use\s+)?(?P<y>[\w\s-]{2,30}?)\s+instead of\s+(?P<x>[\w\s-]{2,30})", re.I), False),
    (re.compile(r"substitute\s+(?P<y>[\w\s-]{2,30}?)\s+for\s+(?P<x>[\w\s-]{2,30})", re.I), False),
    (re.compile(r"(?P<x>[\w\s-]{2,30}?)\s+can be (?:replaced|substituted) (?:with|by)\s+(?P<y>[\w\s-]{2,30})", re.I), False),
]


class RecipeExtractor:
    """Extract a recipe: entities ``recipe``/``ingredient``/``tool``,
    ``CONTAINS`` (``required``, ``amount``, ``order``) and ``SUBSTITUTES``
    (``context`` = recipe id, ``condition``, ``symmetric``)."""

    LIST_CONF = 0.9
    TEXT_CONF = 0.7

    def __init__(self, norm: Normalizer) -> None:
        self.norm = norm

    def extract(self, doc: ParsedDocument) -> DocResult:
        """Run all recipe rules on ``doc``; never raises on odd content."""
        rel = doc.rel
        name = recipe_name(doc)
        rid = entity_id("recipe", name)
        res = DocResult(rid)
        aliases = [doc.h1] if doc.h1 and doc.h1 != name else []
        res.entities.append(Entity(rid, name, "recipe", aliases, doc.language, rel))
        blocks = doc.blocks
        kids = _children(blocks)
        contains: dict[str, Triple] = {}  # object id -> CONTAINS triple
        surfaces: set[str] = set()  # cleaned surface names of this recipe's ingredients
        subs: dict[tuple[str, str], Triple] = {}
        order = 0

        def ent(surface: str, type_: str, line: int) -> tuple[str, str]:
            canon = self.norm.canonical(surface, type_, doc=rel, line=line)
            if not canon:
                return "", ""
            eid = entity_id(type_, canon)
            al = [surface.strip()] if surface.strip() != canon else []
            res.entities.append(Entity(eid, canon, type_, al, "zh" if is_cjk(canon) else "en"))
            return eid, canon

        def add_sub(x: str, y_raw: str, sym: bool, cond: str, b: Block, conf: float, rule: str,
                    x_type: str = "") -> None:
            # A compound stand-in "白糖 20 g + 玉米淀粉 5 g + 0.5 ml 柠檬汁或醋" is ONE
            # substitute, not one per part: a single edge to its first part whose
            # ``condition`` carries the whole combination as written (amounts
            # included), so an answer reads "蜂蜜 → 白糖（没有时；需组合使用：白糖 20 g +
            # 玉米淀粉 5 g + 0.5 ml 柠檬汁或醋）" and no part (玉米淀粉) is ever
            # claimed to replace X on its own.
            combo = split_top(y_raw, "+＋")
            if len(combo) > 1:
                whole = " + ".join(re.sub(r"\s+", " ", c).strip() for c in combo)
                extra = f"需组合使用：{whole}" if is_cjk(whole) else f"combined: {whole}"
                cond = f"{cond}；{extra}" if cond else extra
                y_raw = combo[0]
            ys = [p for p in re.split(r"或者|或是|或", y_raw) if p.strip()] if is_cjk(y_raw) else [y_raw]
            if len(ys) > 1:
                for y in ys:
                    add_sub(x, y, sym, cond, b, conf, rule, x_type)
                return
            y_raw = _substitute_surface(y_raw)
            if not y_raw or _is_measure(y_raw) or _is_measure(x):
                return
            if any(_PROSE_VERB.search(v) or looks_like_step(v) for v in (x, y_raw)):
                return  # "用筷子、勺子或手洗净后搅拌": an instruction, not two things
            xc = clean_name(x, "ingredient")
            yc = clean_name(y_raw, "ingredient")
            if not (plausible_name(xc) and plausible_name(yc)) or _is_method(xc) or _is_method(yc):
                return
            if _cut_form(xc, yc):
                return  # "葱（也可选用切好的葱段）": the same thing, cut — not a stand-in
            tx = x_type or ("tool" if is_tool(xc) else "ingredient")
            ty = "tool" if is_tool(yc) else "ingredient"
            if tx != ty:
                return
            xid, xcan = ent(x, tx, b.line)
            yid, ycan = ent(y_raw, ty, b.line)
            if not xid or not yid or xid == yid:
                return
            key = (xid, yid)
            if key in subs or (sym and (yid, xid) in subs):
                return
            subs[key] = Triple(
                xid, "SUBSTITUTES", yid,
                {"context": rid, "condition": cond, "symmetric": sym},
                Provenance(rel, _sect(b.path), b.line, rule, conf),
            )

        def add_contains(surface: str, required: bool, amount: str, b: Block, conf: float, rule: str, force_tool: bool) -> str:
            nonlocal order
            c = clean_name(surface, "ingredient")
            if not c or not plausible_name(c) or looks_like_step(c) or looks_like_step(surface.strip()):
                return ""
            type_ = "tool" if (force_tool or is_tool(c)) else "ingredient"
            if type_ == "ingredient":
                surfaces.add(c)
            eid, _ = ent(surface, type_, b.line)
            if not eid:
                return ""
            have = contains.get(eid)
            if have is not None:
                if amount and not have.properties.get("amount"):
                    have.properties["amount"] = amount
                return type_
            order += 1
            contains[eid] = Triple(
                rid, "CONTAINS", eid, {"required": required, "amount": amount, "order": order},
                Provenance(rel, _sect(b.path), b.line, rule, conf),
            )
            return type_

        used: set[int] = set()
        # 1) ingredient sections (and amount sections, which may list more)
        for pass_amounts in (False, True):
            for i, b in enumerate(blocks):
                if b.kind != "item":
                    continue
                kind = section_kind(b.path)
                in_amt = kind == "amount"
                in_ing = kind == "ingredient"
                if (pass_amounts and not in_amt) or (not pass_amounts and not in_ing):
                    continue
                if i in kids and not re.search(r"[=＝\d]", b.text) and len(b.text) <= 12:
                    continue  # a group label like "必须配料" / "进阶配料"
                used.add(i)
                labels = [p for p in b.path[1:]] if len(b.path) > 1 else []
                par = b.parent
                while par >= 0:
                    labels.append(blocks[par].text)
                    par = blocks[par].parent
                optional = any(OPTIONAL_LABEL.search(lb) for lb in labels)
                heading_tool = any(TOOL_HEAD.search(p) and not ING_HEAD.search(p) for p in b.path)
                for ip in parse_item(b.text):
                    if not ip.name:
                        continue
                    req = not (optional or ip.optional)
                    conf = self.LIST_CONF if not pass_amounts else 0.8
                    rule = "recipe.amount_item" if pass_amounts else "recipe.ingredient_item"
                    if pass_amounts and b.line and not re.search(r"[=＝\d]|适量|少许", b.text):
                        continue  # prose bullet in a 计算 section
                    # "砵或者有一定深度的碗": if either side of a plain "A或B" is a tool, both are
                    item_tool = heading_tool or any(
                        a.symmetric and is_tool(clean_name(a.raw, "ingredient")) for a in ip.alternatives)
                    t = add_contains(ip.name, req, ip.amount, b, conf, rule, item_tool)
                    if not t:
                        continue
                    for alt in ip.alternatives:
                        add_sub(ip.name, alt.raw, alt.symmetric, alt.condition, b, self.LIST_CONF,
                                "recipe.item_alternative", t)
        # 2) free text: steps, tips, notes
        known = {t.object.split(":", 1)[1] for t in contains.values() if t.object.startswith("ingredient:")}
        known |= surfaces
        for i, b in enumerate(blocks):
            if i in used or b.kind not in ("item", "paragraph"):
                continue
            self._text_subs(b, known, add_sub)
        res.triples.extend(contains.values())
        res.triples.extend(subs.values())
        return res

    def _text_subs(self, b: Block, known: set[str], add_sub) -> None:
        """Substitutions in prose (操作/附加内容/注意 text): parenthesised notes
        after a known ingredient (``蜂蜜（没有时使用白糖…代替）``) and the
        sentence patterns of :data:`_TEXT_SUB_PATTERNS`. The replaced side must
        mention an ingredient of this recipe."""
        text = b.text
        for m in re.finditer(r"([\u4e00-\u9fffA-Za-z]{1,12})\s*[\d.]*\s*\w{0,3}\s*[（(]([^（）()]+)[）)]", text):
            head = m.group(1)
            x = _longest_known_suffix(head, known)
            if not x:
                continue
            for alt in note_clauses(m.group(2))[1]:
                add_sub(x, alt.raw, alt.symmetric, alt.condition, b, self.TEXT_CONF, "recipe.text_note")
        for rx, sym in _TEXT_SUB_PATTERNS:
            for m in rx.finditer(text):
                xs = _mentions(m.group("x"), known)
                if not xs and "cond" in rx.groupindex:
                    # "没有雨露，只能用老抽代替": the missing thing is named right after 没有
                    x0 = clean_name(m.group("x").strip(), "ingredient")
                    if x0 and len(x0) <= 6 and plausible_name(x0) and not looks_like_step(x0):
                        xs = [x0]
                if not xs:
                    continue
                y = m.group("y").strip()
                ys = _mentions(y, known) or [y]
                cond = m.group("cond") if "cond" in rx.groupindex and m.group("cond") else ""
                cond = "没有时" if cond.startswith("没有") else cond
                add_sub(xs[-1], ys[0], sym, cond, b, self.TEXT_CONF, "recipe.text_pattern")


_CUT_SUFFIX = re.compile(r"^(?:段|丝|片|末|花|丁|块|碎|条|粒|泥|蓉|粉)$")


def _cut_form(x: str, y: str) -> bool:
    """True when one name is the other plus a cut/form suffix (葱/葱段, 姜/姜丝)."""
    a, b = (x, y) if len(x) <= len(y) else (y, x)
    return bool(a) and b.startswith(a) and bool(_CUT_SUFFIX.match(b[len(a):]))


_GENERIC = {"配料", "调料", "食材", "原料", "材料", "东西", "食物", "工具", "替代品", "其他"}
_CATEGORY = re.compile(r"类$|^(?:蔬菜|绿叶|绿叶菜|青菜|水果|肉|香料|香草|容器|坚果)$")


def _substitute_surface(y: str) -> str:
    """Clean the stand-in side Y of a substitution before normalization.

    * a leading filler, verb or determiner (了/的/将/把/放/用/使用/加入/同一个…:
      "或者放花椒水" → 花椒水, "同一个平底锅" → 平底锅) and a trailing
      代替/替代/也行/也可以/即可 are stripped;
    * "其他/其它/别的/任何/任意/普通" is dropped when what follows names a specific
      thing ("可用其他食用油替代" → 食用油, which the alias table maps to 植物油;
      "普通盐" → 盐), but kept for a category ("其他肉类", "其他蔬菜" — "any
      other meat" is the meaning);
    * ``""`` (no edge) when Y names nothing specific (其他配料, 其他调料, 工具,
      可以去除夹心的工具…)."""
    y = re.sub(r"^(?:了|的|将|把|放入|加入|放|用|使用|改用|换成)\s*", "", y.strip())
    y = re.sub(r"^(?:同一[个口只把]?|同样的|一[个口只把])\s*", "", y)  # "同一个平底锅" → 平底锅
    y = re.sub(r"\s*(?:来)?(?:代替|替代|替换|也行|也可以?|亦可|即可|均可)\s*$", "", y)
    if is_cjk(y):
        rest = re.sub(r"^(?:其他的?|其它的?|别的|任何|任意的?|普通的?)", "", y).strip()
        if clean_name(rest, "ingredient") in _GENERIC or not rest:
            return ""
        if rest != y and not _CATEGORY.search(clean_name(rest, "ingredient")):
            y = rest
    return y


def _longest_known_suffix(head: str, known: set[str]) -> str:
    for k in range(len(head)):
        if head[k:] in known and len(head) - k >= 1:
            return head[k:]
    return ""


def _mentions(span: str, known: set[str]) -> list[str]:
    """Known names occurring in ``span``, longest-first at each position, in order."""
    out, i = [], 0
    names = sorted(known, key=len, reverse=True)
    while i < len(span):
        for n in names:
            if len(n) >= 1 and span.startswith(n, i):
                out.append(n)
                i += len(n)
                break
        else:
            i += 1
    return out


# --------------------------------------------------------------------------- generic documents
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
        kids = _children(blocks)
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
                sid = entity_id("section", f"{rel}#{_sect(b.path)}")
                if sid in sec_ids.values():
                    continue
                pid = parent_of(b.path[:-1])
                sec_ids[b.path] = sid
                res.entities.append(Entity(sid, b.text, "section", [], doc.language, rel))
                res.triples.append(Triple(pid, "CONTAINS", sid, {"required": True, "amount": "", "order": nxt(pid)},
                                          Provenance(rel, _sect(b.path), b.line, "doc.heading", 1.0)))
            elif b.kind == "item" and b.ordered:
                stid = entity_id("step", f"{rel}#{b.line}")
                text = b.text
                for k in kids.get(i, []):
                    if blocks[k].kind in ("item", "paragraph") and not blocks[k].ordered:
                        text += "\n- " + blocks[k].text
                pid = parent_of(b.path)
                if b.parent >= 0 and blocks[b.parent].ordered:
                    pid = entity_id("step", f"{rel}#{blocks[b.parent].line}")
                name = text.split("\n", 1)[0]
                name = name if len(name) <= 80 else name[:77] + "..."
                res.entities.append(Entity(stid, name, "step", [], doc.language, rel, text))
                res.triples.append(Triple(pid, "CONTAINS", stid, {"required": True, "amount": "", "order": b.order},
                                          Provenance(rel, _sect(b.path), b.line, "doc.numbered_item", 0.9)))
        if self.roles is not None:
            self.roles.link(doc, res)
        return res


_DELEGATES = re.compile(r"^[^.;]*?\bresponsible for delegating\b|^[^.;]*?\b(?:delegates?|delegating)\s+(?:somebody|someone|a person|another)", re.I)
# "Any member of the Support Team can act as a customer liaison", "Anyone can act as a
# Scribe", 'Anyone who is considered a "domain expert" can act as a resolver'
_GROUP_ACT_AS = re.compile(
    r"(?P<who>\bany(?:\s+|\s*-\s*)(?:member|one)\s+of\s+(?P<team>(?:the\s+|our\s+)?[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)"
    r"|\banyone\s+who\s+is\s+(?:considered\s+)?(?:an?\s+)?[\"“](?P<expert>[^\"”]+)[\"”]|\banyone\b)"
    r"\s+(?:can|may|could)\s+(?:also\s+)?act\s+as\s+(?:the\s+|an?\s+)?(?P<a>[A-Za-z][\w ]*?[A-Za-z])(?=\s*(?:[.,;]|$|\s(?:for|during|in|at|when|if)\b))",
    re.I)
_RESP_HEAD = re.compile(r"^(?:what are the responsibilities\??|responsibilities|duties|what do they do\??)$", re.I)
_RESP_SENT = re.compile(r"\bresponsible for\b", re.I)
# verbs whose object a role is responsible for ("Post any publicly facing messages…",
# "update the status page", "Interact with internal stakeholders", "Assigning the postmortem")
_RESP_VERB = (r"(?:post(?:s|ing)?(?:\s+on)?|updat(?:e|es|ing)|draft(?:s|ing)?|writ(?:e|es|ing)|maintain(?:s|ing)?|own(?:s|ing)?|"
              r"manag(?:e|es|ing)|publish(?:es|ing)?|send(?:s|ing)?(?:\s+out)?|notify(?:ing)?|notifies|page(?:s)?|paging|"
              r"assign(?:s|ing)?|creat(?:e|es|ing)|set(?:ting)?\s*up|setup|interact(?:s|ing)?\s+with|"
              r"liais(?:e|es|ing)\s+with|communicat(?:e|es|ing)\s+with|provid(?:e|es|ing)\s+(?:status\s+)?updates\s+to)")
_NP_STOP = (r"to|for|from|with|regarding|about|as|when|once|in|on|at|of|and|or|if|that|which|by|during|"
            r"after|before|so|are|is|be|will|can|should|needed|necessary|the|a|an|you|they|it|within|among|across|"
            r"between|into|such|like|per|e\.g|who|whom|what|explaining|including|right|just|now|immediately")
_NP = rf"(?:(?:the|any|all|our|an?|other|every)\s+)?(?P<np>(?:(?!(?:{_NP_STOP})\b)[A-Za-z][\w'-]*)(?:\s+(?!(?:{_NP_STOP})\b)[A-Za-z][\w'-]*){{0,3}})"
_RESP_LEAD = re.compile(
    rf"^(?:(?:be\s+(?:prepared|ready)\s+to|you\s+will\s+(?:typically\s+|usually\s+)?(?:be\s+required|need)\s+to|"
    rf"you\s+(?:are\s+there\s+to|should|must))\s+)?(?P<v>{_RESP_VERB})\s+{_NP}", re.I)
_GENERIC_OBJ = {"messages", "message", "updates", "update", "people", "information", "issues", "things", "it",
                "them", "posts", "post", "instructions", "others", "somebody", "someone", "anyone", "incident",
                "leader", "leaders", "person", "member", "members", "teams", "team", "responders", "responder"}


def responsibility_objects(sent: str, rules: "_RoleRules", owner: str = "") -> list[tuple[str, str]]:
    """``(role, object)`` pairs a sentence makes a role responsible for —
    conservative on purpose:

    * in a role's duty list (``owner`` given: "What are the responsibilities?",
      "Steps for X"), an item or sentence *starting* with a duty verb (post,
      update, draft, manage, notify, page, assign, interact with…), possibly
      after "Be prepared to" / "You will typically be required to";
    * anywhere, "the X is responsible for <verb>ing? <object>" and "X will/
      should/must <verb> <object>" with X a known role.

    The object is the short noun phrase after the verb (≤ 4 words, stopping at
    prepositions and clause words, lower-cased): "status page", "postmortem",
    "internal stakeholders". Delegation ("responsible for delegating somebody")
    and vague objects (messages, updates, people…) yield nothing."""
    out: list[tuple[str, str]] = []
    R = rules.role_rx
    cands: list[tuple[str, str]] = []
    if owner:
        s = re.sub(r"^\s*(?:\d+[.)]\s*)?", "", sent)
        cands.append((owner, s))
        for m in re.finditer(r"\band\s+to\s+(?=\w)", s):
            cands.append((owner, s[m.end():]))  # "update the status page and to send posts…"
    for m in re.finditer(rf"(?:the\s+)?(?P<r>{R})\s+(?:is|are)\s+responsible\s+for\s+", sent, re.I):
        cands.append((rules.canon(m.group("r")), sent[m.end():]))
    for m in re.finditer(rf"(?:the\s+)?(?P<r>{R})\s+(?:will|should|must|shall)\s+(?:also\s+)?", sent):
        cands.append((rules.canon(m.group("r")), sent[m.end():]))
    for role, tail in cands:
        if not role or re.match(r"^\s*delegat", tail, re.I):
            continue
        m = _RESP_LEAD.match(tail.strip())
        if not m:
            continue
        np = re.sub(r"[’']s$", "", m.group("np").strip()).strip()
        np_l = np.lower()
        words = np_l.split()
        if not words or np_l in _GENERIC_OBJ or rules.canon(np) or len(np) < 3:
            continue
        if words[0] in {"somebody", "someone", "anyone", "people", "them", "it"}:
            continue
        if (role, np_l) not in out:
            out.append((role, np_l))
    return out


class RoleBook:
    """Roles known across the corpus (filled by :func:`collect_roles`).

    ``names`` maps canonical role name → aliases. :meth:`link` adds step→role
    ``RELATED`` (``predicate="mentions_role"``) and role stand-in
    ``SUBSTITUTES`` to a document result."""

    def __init__(self) -> None:
        self.names: dict[str, list[str]] = {}
        self.triples: list[Triple] = []

    def entities(self) -> list[Entity]:
        """One ``role`` entity per canonical role, aliases included."""
        return [Entity(entity_id("role", n), n, "role", list(a), "en") for n, a in self.names.items()]

    def link(self, doc: ParsedDocument, res: DocResult) -> None:
        """Add role facts of ``doc`` to ``res``: step→role ``RELATED``
        (``predicate="mentions_role"``) for steps naming a role, and role
        stand-in ``SUBSTITUTES`` (subject = role being covered, object = the
        stand-in, ``context=""``, ``condition`` = the if/should clause) from
        these phrasings:

        * "the B might also take on the responsibilities of the A1 and A2"
        * "If A is not available …, the B is responsible for …"
        * "(hot standby|backup|hot-swap standby) A" said of role B (B = a role
          in the heading path, a bold role in the block, or "As a B, …")
        * "B will/can act as the A"
        * "take over (command) from the A" said of role B
        * "handover to another B and assume the role of (an) A" (A is then
          covered by the B stepping down)."""
        if not self.names:
            return
        rules = self._rules()
        rel = doc.rel
        blocks = doc.blocks
        for e in res.entities:
            if e.type != "step":
                continue
            line = int(e.id.rsplit("#", 1)[1])
            for r in rules.mentions(e.text):
                res.triples.append(Triple(e.id, "RELATED", entity_id("role", r), {"predicate": "mentions_role"},
                                          Provenance(rel, "", line, "role.step_mention", 0.8)))
        title_role = rules.canon(doc.title.replace("_", " ")) or rules.canon(doc.stem.replace("_", " "))
        done: set[tuple[str, str]] = set()
        R = rules.role_rx
        pats = [
            ("take_on", re.compile(rf"(?P<b>{R})\s+(?:might|may|can|could|will|should|would)\s+(?:also\s+)?"
                                   rf"(?:take on|take over|assume|cover)\s+the\s+(?:responsibilities|role|roles|duties)\s+of\s+(?P<rest>.+)")),
            ("not_available", re.compile(rf"(?P<cond>if\s+(?:the\s+)?(?P<a>{R})\s+(?:is|are)\s+(?:not available|unavailable|absent|not present))[^,]*,\s*(?:then\s+)?(?:the\s+)?(?P<b>{R})", re.I)),
            ("standby", re.compile(rf"(?:hot[- ]standby|hot-swap standby|backup|stand-?in|standby)[\"”]?\s+(?:for\s+(?:the\s+)?)?(?P<a>{R})")),
            ("act_as", re.compile(rf"(?P<b>{R})\s+(?:will|can|may|might|could|should|would)\s+(?:also\s+)?act as\s+(?:the|a|an)\s+(?P<a>{R})")),
            ("take_over", re.compile(rf"take over (?:command |the role )?from\s+(?:the\s+)?(?P<a>{R})")),
            ("handover", re.compile(rf"hand\s?over to another\s+(?P<b>{R})\s+and assume the role of\s+(?:an?\s+|the\s+)?(?P<a>{R})", re.I)),
        ]
        for b in blocks:
            if b.kind not in ("paragraph", "item", "code"):
                continue
            head_role = next((rules.canon(p) for p in reversed(b.path) if rules.canon(p)), "")
            bold_roles = [rules.canon(x) for x in b.bolds if rules.canon(x)]
            # a role's duty list: "## Customer Liaison > ### What are the responsibilities?"
            # or "## Steps for Customer Liaison"
            owner_resp = ""
            if any(_RESP_HEAD.match(p) for p in b.path):
                owner_resp = next((rules.canon(_split_role_name(p)[0]) for p in reversed(b.path)
                                   if rules.canon(_split_role_name(p)[0])), "")
            for p in b.path:
                sm = re.match(r"^(?:steps|duties|responsibilities)\s+(?:for|of)\s+(?:the\s+|an?\s+)?(?P<r>.+)$", p, re.I)
                if sm and rules.canon(sm.group("r").strip()):
                    owner_resp = rules.canon(sm.group("r").strip())
            pos = 0
            for sent in _sentences(b.text):
                at = b.text.find(sent, pos)
                pos = max(pos, at)
                sline = b.line + b.text.count("\n", 0, max(at, 0))
                m_as = re.match(rf"^As (?:a|an|the) (?P<o>{R}),", sent)
                owner = (rules.canon(m_as.group("o")) if m_as else "") or head_role or (bold_roles[0] if bold_roles else "") or title_role
                for rule, rx in pats:
                    for m in rx.finditer(sent):
                        gd = m.groupdict()
                        if rule == "take_on":
                            subs = [(a, rules.canon(m.group("b"))) for a in rules.mentions(m.group("rest"))]
                        elif rule == "handover":
                            subs = [(rules.canon(m.group("a")), rules.canon(m.group("b")))]
                        else:
                            obj = rules.canon(gd["b"]) if gd.get("b") else owner
                            subs = [(rules.canon(m.group("a")), obj)]
                        if rule == "not_available" and _DELEGATES.match(sent[m.end():]):
                            # "If A is not available …, the IC is responsible for delegating somebody
                            # to post … in their stead": B *delegates*; the stand-in is "somebody"
                            a, o = rules.canon(m.group("a")), rules.canon(m.group("b"))
                            if a and o and a != o and (o, a, "d") not in done:
                                done.add((o, a, "d"))
                                cond = m.group("cond")
                                res.triples.append(Triple(
                                    entity_id("role", o), "RELATED", entity_id("role", a),
                                    {"predicate": "delegates_stand_in", "condition": cond[:1].lower() + cond[1:]},
                                    Provenance(rel, _sect(b.path), sline, "role.delegates_stand_in",
                                               0.8 if b.kind == "item" else 0.7)))
                            continue
                        if rule == "not_available":
                            cond = m.group("cond")
                        else:
                            cm = re.search(r"\b((?:if|should|when|unless)\s[^,.;:]+)", sent, re.I)
                            cond = cm.group(1).strip() if cm else ""
                        cond = cond[:1].lower() + cond[1:]
                        for a, o in subs:
                            if not a or not o or a == o or (a, o) in done:
                                continue
                            done.add((a, o))
                            res.triples.append(Triple(
                                entity_id("role", a), "SUBSTITUTES", entity_id("role", o),
                                {"context": "", "condition": cond, "symmetric": False},
                                Provenance(rel, _sect(b.path), sline, f"role.{rule}", 0.8 if b.kind == "item" else 0.7),
                            ))

                self._group_standins(sent, b, sline, rules, res, done, rel)
                self._responsibilities(sent, b, sline, rules, owner_resp, res, done, rel)

    def _group_standins(self, sent, b, sline, rules, res, done, rel) -> None:
        """"Any member of the Support Team can act as a Customer Liaison" →
        Customer Liaison SUBSTITUTES role "Support Team member"; "Anyone can act
        as a Scribe during an incident" → Scribe SUBSTITUTES concept "anyone"
        (condition: the rest of the clause, else the group as written)."""
        m = _GROUP_ACT_AS.search(sent)
        if not m:
            return
        a = rules.canon(m.group("a"))
        if not a:
            return
        if m.group("team"):
            team = re.sub(r"^(?:the|our)\s+", "", m.group("team").strip(), flags=re.I)
            gname, gtype = f"{team[:1].upper()}{team[1:]} member", "role"
        elif m.group("expert"):
            gname, gtype = m.group("expert").strip(), "concept"
        else:
            gname, gtype = "anyone", "concept"
        gid = entity_id(gtype, gname)
        if (a, gid) in done:
            return
        done.add((a, gid))
        rest = re.split(r"[.;]", sent[m.end():], maxsplit=1)[0].strip(" ,")
        rest = re.split(r",\s*(?:and|but)\b", rest, maxsplit=1)[0].strip(" ,")
        cond = rest or m.group("who").strip()
        cond = cond[:1].lower() + cond[1:]
        res.entities.append(Entity(gid, gname, gtype, [m.group("who").strip()] if gtype == "role" else [], "en"))
        res.triples.append(Triple(
            entity_id("role", a), "SUBSTITUTES", gid, {"context": "", "condition": cond, "symmetric": False},
            Provenance(rel, _sect(b.path), sline,
                       "role.group_act_as", 0.7)))

    def _responsibilities(self, sent, b, sline, rules, owner, res, done, rel) -> None:
        """RELATED role → artifact ``responsible_for`` (see :func:`responsibility_objects`)."""
        for role, obj in responsibility_objects(sent, rules, owner):
            oid = entity_id("artifact", obj)
            if (role, oid) in done:
                continue
            done.add((role, oid))
            res.entities.append(Entity(oid, obj, "artifact", [], "en"))
            res.triples.append(Triple(
                entity_id("role", role), "RELATED", oid, {"predicate": "responsible_for"},
                Provenance(rel, _sect(b.path), sline, "role.responsible_for",
                           0.8 if b.kind == "item" else 0.7)))

    def _rules(self) -> _RoleRules:
        if getattr(self, "_cached", None) is None:
            self._cached = _RoleRules(self)
        return self._cached


# --------------------------------------------------------------------------- roles
_ROLE_CHILD = re.compile(r"^(?:what is it\??|what are the responsibilities\??|responsibilities|what do they do\??)$", re.I)
_PERSON_DEF = re.compile(
    r"^(?:typically |usually |basically |essentially )?(?:the |a |an )?(?:backup\b|person\b|individual\b|someone\b|"
    r"somebody\b|member\b|people\b|equivalent of (?:an? |the )?(?P<eq>[A-Z][\w ]+))",
    re.I,
)
_QUOTED_EXPANSION = re.compile(r'^["“](?P<name>[A-Z][A-Za-z ]+)["”],?\s*(?:someone|a person|the person|an individual)', re.I)
_ALIAS_PHRASE = re.compile(r"(?:sometimes called|also (?:referred to|known) as|a\.k\.a\.|aka)\s+(?:an? |the )?[\"“]?(?P<a>[A-Z][\w]*(?: [A-Z][\w]*)*)", re.I)
_ROLE_SENTENCE = re.compile(r"\b(?:A|An|The) (?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+){0,3}) is the (?:individual|person) responsible")
_ABBR = re.compile(r"^[A-Z]{2,6}s?$")


def _split_role_name(raw: str) -> tuple[str, list[str]]:
    """``"Incident Commander (IC)"`` → ("Incident Commander", ["IC"]);
    ``"Incident Commander / IC"`` likewise; ``"SME"`` → ("SME", [])."""
    raw = re.sub(r"\s+", " ", raw).strip().strip("*:").strip()
    aliases: list[str] = []
    m = re.match(r"^(?P<n>.+?)\s*\((?P<a>[^)]+)\)\s*$", raw)
    if m:
        raw, extra = m.group("n"), m.group("a")
        aliases += [x.strip() for x in re.split(r"[/,]", extra) if x.strip()]
    parts = [p.strip() for p in raw.split("/") if p.strip()]
    full = [p for p in parts if not _ABBR.match(p)]
    aliases += [p for p in parts if _ABBR.match(p)]
    name = max(full, key=len) if full else (parts[0] if parts else raw)
    aliases += [p for p in full if p != name]
    return name, [a for a in aliases if a != name]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


class _RoleRules:
    """Build the role regex and run stand-in rules over sentences."""

    def __init__(self, book: RoleBook) -> None:
        self.book = book
        self.lookup: dict[str, str] = {}
        for canon, al in book.names.items():
            for s in [canon, *al]:
                self.lookup[s.lower() if not _ABBR.match(s) else s] = canon
        words = sorted(self.lookup, key=len, reverse=True)
        ci = [re.escape(w) for w in words if not _ABBR.match(w)]
        ab = [re.escape(w) for w in words if _ABBR.match(w)]
        alts = []
        if ci:
            alts.append("(?i:" + "|".join(ci) + ")")
        if ab:
            alts.append("|".join(ab))
        self.role_rx = "(?:" + "|".join(alts) + r")(?:s|'s|’s)?" if alts else r"(?!x)x"
        self.find_rx = re.compile(r"(?<![\w])" + self.role_rx + r"(?![\w])")

    def canon(self, surface: str) -> str:
        s = re.sub(r"(?:'s|’s)$", "", surface.strip())
        for cand in (s, s[:-1] if s.endswith("s") else s):
            c = self.lookup.get(cand) or self.lookup.get(cand.lower())
            if c:
                return c
        return ""

    def mentions(self, text: str) -> list[str]:
        out: list[str] = []
        for m in self.find_rx.finditer(text):
            c = self.canon(m.group(0))
            if c and c not in out:
                out.append(c)
        return out


def collect_roles(docs: list[ParsedDocument], norm: Normalizer) -> RoleBook:
    """Find role names across ``docs`` (nothing is hard-coded):

    1. a heading whose child headings include "What is it?" / "What are the
       responsibilities?" names a role (``## Incident Commander (IC)``);
    2. a glossary heading whose first paragraph defines a person ("The X is
       the person responsible…", "Typically the backup IC", "A person who…",
       ``"Subject Matter Expert", someone who…``, "The Scribe's job is…");
    3. a ``**Term (ABBR)** - the individual responsible…`` / "- the
       equivalent of an Incident Commander" bold-term definition;
    4. a sentence "A Crisis Team Leader is the individual responsible…";
    5. a table column headed "Role"/"Participant".

    An abbreviation in parentheses or after ``/`` becomes an alias; "also
    referred to as an SME" / 'sometimes called a "Resolver"' join a name to an
    existing role as alias. Role names pass through the normalizer (alias
    table: IC, SME…)."""
    book = RoleBook()
    alias_links: list[tuple[str, str, ParsedDocument, int]] = []

    def add(raw: str, extra: list[str], doc: ParsedDocument, line: int, definition: str = "") -> str:
        name, aliases = _split_role_name(raw)
        qm = _QUOTED_EXPANSION.match(definition or "")
        if qm and _ABBR.match(name):
            aliases.append(name)
            name = qm.group("name").strip()
        if not name or len(name.split()) > 5 or not name[:1].isalpha():
            return ""
        name = name[0].upper() + name[1:]
        existing = {k.lower(): k for k in book.names}
        canon = existing.get(name.lower()) or norm.canonical(name, "role", doc=doc.rel, line=line)
        lst = book.names.setdefault(canon, [])
        for a in [name, *aliases, *extra]:
            a = a.strip()
            if a and a != canon and a not in lst:
                lst.append(a)
        am = re.search(rf"\\b{re.escape(name)}\\s*\\((?P<a>[A-Z]{{2,6}})\\)", definition or "")
        if am and am.group("a") not in lst and am.group("a") != canon:
            lst.append(am.group("a"))  # "A Subject Matter Expert (SME), ..."
        for am in _ALIAS_PHRASE.finditer(definition or ""):
            alias_links.append((canon, am.group("a").strip(), doc, line))
        return canon

    for doc in docs:
        if doc.language != "en":
            continue
        blocks = doc.blocks
        heads = [(i, b) for i, b in enumerate(blocks) if b.kind == "heading"]
        for hi, (i, h) in enumerate(heads):
            if _ROLE_CHILD.match(h.text) or h.text.endswith("?") or len(h.text.split()) > 6:
                continue
            # rule 1: role sections
            kids = []
            for _, h2 in heads[hi + 1:]:
                if h2.level <= h.level:
                    break
                if h2.level == h.level + 1:
                    kids.append(h2.text)
            body = [b for b in blocks[i + 1:] if b.path == h.path and b.kind != "heading"]
            first = body[0].text if body and body[0].kind == "paragraph" else ""
            if any(re.match(r"^what is it\??$", k, re.I) for k in kids):
                sub = " ".join(b.text for b in blocks[i + 1:] if b.path[:len(h.path)] == h.path and b.kind == "paragraph")
                add(h.text, [], doc, h.line, sub)
                continue
            # rule 2: glossary heading definitions
            if first and h.level >= 2:
                s0 = _sentences(first)[0] if _sentences(first) else ""
                name0 = _split_role_name(h.text)[0]
                if (_PERSON_DEF.match(s0) or _QUOTED_EXPANSION.match(s0) or re.match(
                        rf"^(?:the |a |an )?{re.escape(name0)}(?:'s|’s) job is|^(?:the |a |an )?{re.escape(name0)} is the (?:person|individual)",
                        s0, re.I)):
                    add(h.text, [], doc, h.line, first)
        for b in blocks:
            # rule 3: **Term** - definition
            if b.lead_bold and b.kind in ("item", "paragraph"):
                rest = b.text[len(b.lead_bold):] if b.text.startswith(b.lead_bold) else ""
                rest = rest.lstrip(" -–—:")
                if rest and _PERSON_DEF.match(rest):
                    add(b.lead_bold, [], doc, b.line, rest)
            # rule 4: sentences
            if b.kind in ("paragraph", "item"):
                for m in _ROLE_SENTENCE.finditer(b.text):
                    add(m.group("name"), [], doc, b.line)
        # rule 5: tables with a Role column
        header: list[str] = []
        for b in blocks:
            if b.kind != "row":
                header = [] if b.kind != "row" else header
                continue
            if b.header:
                header = b.cells
                continue
            for ci, hd in enumerate(header):
                if re.fullmatch(r"(?:roles?|participants?)", hd.strip(), re.I) and ci < len(b.cells) and b.cells[ci]:
                    add(b.cells[ci], [], doc, b.line)
    # alias phrases: join names to roles
    for canon, alias, doc, line in alias_links:
        if canon not in book.names:
            continue
        existing = {k.lower(): k for k in book.names}
        target = existing.get(alias.lower()) or norm.alias(alias, "role")
        if not target:
            for k, al in book.names.items():
                if alias in al:
                    target = k
        if target and target != canon and target in book.names:
            # two names of one role: the one defined first survives
            order = list(book.names)
            keep, drop = (canon, target) if order.index(canon) < order.index(target) else (target, canon)
            moved = book.names.pop(drop)
            lst = book.names[keep]
            for a in [drop, *moved]:
                if a != keep and a not in lst:
                    lst.append(a)
            norm.merges.append(Merge(drop, keep, "role", "alias", 100.0, doc.rel, line))
        elif not target and alias not in book.names[canon]:
            book.names[canon].append(alias)
    return book
