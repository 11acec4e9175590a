"""Recipe extraction: is a document a recipe, and what does it contain?

A **recipe** is a document with a heading naming an ingredients section
(``lexicon/sections.yaml``) that holds list items and reads as a dish (see
:func:`is_recipe`). It yields a ``recipe`` entity, ``CONTAINS``
recipe→ingredient/tool edges and ``SUBSTITUTES`` ingredient→ingredient edges
(see :class:`RecipeExtractor`); the grammar of one list item is
:mod:`.items`. Every fact carries a :class:`Provenance` with the document,
heading path, 1-based line, rule name and confidence (list items 0.9, amount
sections 0.8, free text 0.7).
"""

from __future__ import annotations

import dataclasses
import re

from ..knowledge.records import Entity, Provenance, Triple, entity_id
from ..knowledge.text import DictLinker, cjk_form, has_cjk, simplified, split_sentences
from .blocks import DocResult, children, section_of, split_top
from .cues import alternation, lexicon, regex, words
from .document import Block, ParsedDocument
from .items import (AMOUNT_AGAIN_EN, OPTIONAL_LABEL, PROSE_VERB, Alternative, is_collective, is_measure, is_method, is_tool,
                    form_completed, ingredient_label, line_items, paragraph_items, looks_like_step, note_clauses, parse_item, plausible_name, tool_phrases,
                    ends_in_tool_word, strip_amount)
from .normalize import Normalizer, clean_name
from ..knowledge.cues import compound_parts, split_alternatives, thing_of
from ..knowledge.cues import rules as cue_rules
from .relations import optional_parts, read_document, same_head
from .step_names import name_before, step_names, step_objects
from .surfaces import substitute_surface
from .readers.structured import key_kind
from .tables import classify_column, required_value
from .tables import split_alternatives as split_cell


# --------------------------------------------------------------------------- headings
ING_HEAD = regex("sections", "ingredients", re.I)
"""A heading naming an ingredients section (原料/材料/Ingredients/What you need…)."""
TOOL_HEAD = regex("sections", "tools", re.I)
"""A heading naming an equipment section (工具/Tools/Equipment…)."""
GARNISH_HEAD = regex("sections", "garnish", re.I)
"""A heading that is only a garnish ("Garnish", "For the garnish"): its lines are things of the recipe."""
AMOUNT_HEAD = regex("sections", "amounts", re.I)
"""A heading naming a quantities section (计算/用量/Amounts…)."""
STEP_HEAD = re.compile(rf"^\s*(?:\d+[.、]\s*)?(?:{alternation('sections', 'steps')})"
                       rf"|(?:{alternation('sections', 'steps_suffix')})\s*$", re.I)
"""A procedure section: its items are steps, never ingredients — even under a
sub-heading that names ingredients ("操作 > 处理原料")."""


def in_steps(path: tuple[str, ...]) -> bool:
    """True when a heading path lies inside a procedure section (操作/步骤/
    Steps/Method/Instructions…, see :data:`STEP_HEAD`), a trailing note in
    brackets aside ("详细烹饪步骤（通用铁锅/不粘锅版）", "Method (oven)")."""
    return any(STEP_HEAD.search(simplified(_TRAILING_NOTE.sub("", heading_words(p))))  # "步驟" reads as "步骤"
               for p in path)


_TRAILING_NOTE = re.compile(r"\s*(?:（[^（）]*）|\([^()]*\))\s*$")


def heading_words(heading: str) -> str:
    """A heading without its leading decoration (emoji, bullets, numbering
    symbols), so "📝 制作步骤" reads as "制作步骤"."""
    return re.sub(r"^[^\w（(]+", "", heading).strip()


def section_kind(path: tuple[str, ...]) -> str:
    """``"amount"`` (计算/用量…), ``"ingredient"`` (原料/材料/工具…) or ``""``
    for a block's heading path, decided by the innermost heading that names
    either (a heading naming both, "原料配比", lists ingredients). Inside a procedure section the answer is
    always ``""``: "操作 > 处理原料" lists steps, not ingredients."""
    if in_steps(path):
        return ""
    for p in reversed(path):  # the innermost heading that says what its items are
        p = simplified(p)
        if ING_HEAD.search(p) or TOOL_HEAD.search(p) or GARNISH_HEAD.search(heading_words(p)):
            return "ingredient"  # "原料配比", "主料": ingredients, even with amounts; "Garnish": its things
        if AMOUNT_HEAD.search(p):
            return "amount"
    return ""


_DISH_TITLE = re.compile(rf"(?:{alternation('sections', 'dish_title_suffixes')})\s*$|{alternation('sections', 'dish_title_words')}", re.I)
_NAME_SUFFIX_ZH = re.compile(rf"\s*(?:{alternation('sections', 'recipe_name_suffixes')})\s*$")
_NAME_SUFFIX_EN = re.compile(rf"\s*\b(?:{alternation('sections', 'recipe_name_words')})\s*$", re.I)
# "生抽：调酱香且带有咸味的底味。可用于几乎所有肉类" — a term and its explanation
_GLOSS_ITEM = re.compile(r"^[^：:]{1,12}[：:]\s*(?P<rest>.+)$")
_GLOSS_LABEL = re.compile(r"^([^：:]{1,40})[：:]")
_LABEL_AMOUNT = regex("amounts", "label_amount")
_HAS_AMOUNT = regex("amounts", "has_amount")
_CATEGORY = regex("names", "category")
_UMBRELLA = regex("names", "umbrella")
_OPEN_LIST = regex("names", "open_list")
_GENERIC_NAMES = frozenset(words("names", "generic"))
#: at most this many members of one umbrella are paired with each other
_UMBRELLA_MEMBERS = 6
_CUT_SUFFIX = re.compile(rf"^(?:{alternation('names', 'cut_suffixes')})$")
_STAND_IN_OR = regex("alternatives", "stand_in_or")
_BOTH_ZH = regex("alternatives", "both")
_COMPOUND_ZH = lexicon("alternatives")["compound_zh"]
_COMPOUND_EN = lexicon("alternatives")["compound_en"]
_SYMMETRIC_RULES = frozenset(words("alternatives", "symmetric_cue_rules"))
_OPTIONAL_LIST_EN = regex("alternatives", "optional_list_label_en", re.I)
_PAIR_RULES = frozenset(words("alternatives", "pair_cue_rules"))
_STEP_ADD_RULES = frozenset(words("alternatives", "step_addition_rules"))
"""Rules of an addition ("可加入 X"): in a step they add more of a listed ingredient, never make it optional."""
_ADDITION_RULES = frozenset(words("alternatives", "addition_cue_rules"))
_HEAD_FILL_RULES = frozenset(words("alternatives", "head_fill_rules"))
_VARIATION_RULES = frozenset(words("alternatives", "variation_cue_rules"))
_LIST_RULES = frozenset(words("alternatives", "list_cue_rules"))
_LISTED_ONLY_RULES = frozenset(words("alternatives", "listed_only_cue_rules"))
"""Optional rules whose X, when the recipe does not list it, must be a name the corpus lists ("如果有 X")."""
_LIST_PART_MAX = int(lexicon("alternatives")["list_part_max_words"])
_X_WRITTEN_RULES = frozenset(r.id for r in cue_rules() if not r.focus)
"""Cue rules whose X the sentence writes itself ("用厨房纸巾或毛巾", "没有刷子用牙刷"), not left to the context."""


def is_umbrella(name: str) -> bool:
    """True when ingredient ``name`` (cleaned) names a kind of thing rather than one thing: a ``category`` or
    ``generic`` word of ``lexicon/names.yaml`` or an ``umbrella`` shape ("各种配菜", "assorted proteins")."""
    n = name.strip()
    return bool(n) and (n in _GENERIC_NAMES or bool(_CATEGORY.search(n)) or bool(_UMBRELLA.search(n)))


def listed_additions(text: str, rule_id: str) -> list[str]:
    """The names of a list of optional additions as the cue rule ``rule_id``
    (one of ``list_cue_rules``) reads it in ``text``: its ``x`` group split at
    commas and a last "or"/"and" ("You can enhance the cake with orange zest,
    ground nuts, nut butter, …, or cherries." → orange zest, ground nuts, nut
    butter, …, cherries); parts longer than ``list_part_max_words`` are
    dropped ("dried fruit such as raisins")."""
    rule = next((r for r in cue_rules() if r.id == rule_id), None)
    m = rule.rx.search(text) if rule is not None else None
    if not m or not m.groupdict().get("x"):
        return []
    parts = re.split(r"\s*,\s*(?:(?:or|and)\s+)?|\s+(?:or|and)\s+", m.group("x"))
    return [p.strip() for p in parts if p.strip() and len(p.split()) <= _LIST_PART_MAX]


def _glossary_item(text: str) -> bool:
    """True for a list item that explains a term rather than naming an
    ingredient: ``label：`` followed by prose (sentence punctuation or ≥ 15
    characters without an amount), as in a tutorial's "常用的腌渍用料"."""
    m = _GLOSS_ITEM.match(text.strip())
    if not m:
        return False
    rest = m.group("rest").strip()
    if _LABEL_AMOUNT.match(rest):
        return False  # "盐：约 3g"
    if _name_list(rest):
        return False  # "调料：生姜，小葱，花椒，干辣椒": a labelled list of names, not an explanation
    return bool(re.search(r"[。！？；]", rest)) or len(rest) >= 15


def _label_names_thing(label: str) -> bool:
    """True when the label of a ``label：prose`` list item is itself a thing's
    name: a short English name ("Chicken Thighs") or a short Chinese one,
    emphasis and an optional note removed ("**葡萄干/杏干**（可选）" →
    葡萄干/杏干, each part a name), not a category ("肉类", "调料")."""
    name = clean_name(label, "ingredient")
    if not has_cjk(label):
        return plausible_name(name) and len(label.split()) <= 4
    parts = [p for p in re.split(r"[/／、]", name) if p.strip()]
    return bool(parts) and all(len(p) <= 8 and plausible_name(p) and not _CATEGORY.search(p) for p in parts)


_LIST_SEP = re.compile(r"\s*[，,、；;]\s*")


def _name_list(text: str) -> bool:
    """True for a run of at least three short names separated by commas
    ("生姜，小葱，花椒，干辣椒"), a parenthesised note allowed on each: a list,
    not a sentence."""
    parts = [p for p in _LIST_SEP.split(re.sub(r"（[^（）]{0,30}）|\([^()]{0,30}\)", "", text.strip(" 。."))) if p]
    return len(parts) >= 3 and all(len(p) <= 8 and not re.search(r"[。！？]", p) for p in parts)


_GUIDE_TITLE = re.compile(alternation("sections", "guide_title_words"))
_COOKING_LINE = re.compile(rf"(?:{alternation('steps', 'add_verbs')}|{alternation('steps', 'method_chars_zh')})")


def prose_recipe(doc: ParsedDocument) -> bool:
    """A Chinese dish written as numbered steps with no ingredient list
    ("# 三杯鸡" then "1. 鸡腿肉切丁，用…腌制"): the title is a short name, not a
    guide's (``guide_title_words``), the text has no section but the steps,
    and at least three list items or paragraphs — most of the document's
    items — read as cooking steps (:func:`looks_like_step`)."""
    named = doc.h1 or str(doc.front_matter.get("title", "") or "")
    if not named and not any(b.kind == "heading" for b in doc.blocks):
        named = doc.stem  # a note with no heading at all, in a collection of dishes: its file names the dish
    title = dish_name(named)
    if not title or not has_cjk(title) or not 2 <= len(title) <= 16 or _GUIDE_TITLE.search(title):
        return False
    if all(is_method(t) for t in re.split(r"[/／、与和]", title) if t.strip()):
        return False  # "炒/煎", "煮": a lesson on a method, not a dish
    body = [b for b in doc.blocks if b.kind in ("item", "paragraph")]
    if any(b.path and not in_steps(b.path) and section_kind(b.path) != "ingredient" for b in body):
        return False  # sections other than the steps: a guide or an article, not a dish
    items = [b for b in body if b.kind == "item"]
    steps = [b for b in body if looks_like_step(b.text[:60])]
    if len(steps) >= 3 and (not items or sum(1 for b in items if looks_like_step(b.text[:60])) * 2 >= len(items)):
        return True
    # short lines of cooking written one to a line ("排骨冷水下鍋，加姜片煮沸"): most lines hold a cooking verb
    lines = [ln for b in body for ln in b.text.split("\n") if ln.strip()]
    cooking = [ln for ln in lines if _COOKING_LINE.search(simplified(ln))]
    return len(lines) >= 2 and len(cooking) * 2 > len(lines) and not items


class TableRow:
    """One row of a table that lists a recipe's ingredients: the row's block
    ``index``, the ``name`` cell (it may hold "X（或 Y）"), the ``amount`` (amount
    and unit cells joined), the ``notes`` cells (notes, conditions),
    ``subs`` (the stand-ins a substitute column names) and ``required``
    (``True``/``False`` from a required/optional column, else ``None``)."""

    __slots__ = ("index", "name", "amount", "notes", "subs", "required")

    def __init__(self, index: int, name: str, amount: str, notes: list[str], subs: list[str],
                 required: bool | None) -> None:
        self.index, self.name, self.amount, self.notes, self.subs, self.required = (
            index, name, amount, notes, subs, required)


def _table_runs(blocks: list[Block]) -> list[list[int]]:
    """Indices of the row blocks of each table (a header row and the rows
    right below it, under the same heading path)."""
    runs: list[list[int]] = []
    for i, b in enumerate(blocks):
        if b.kind != "row":
            continue
        prev = blocks[runs[-1][-1]] if runs else None
        if b.header or prev is None or prev.path != b.path or b.line - prev.line > 2 or runs[-1][-1] != i - 1:
            runs.append([i])
        else:
            runs[-1].append(i)
    return runs


def ingredient_table_rows(doc: ParsedDocument) -> list[TableRow]:
    """The rows of the tables that list the document's ingredients ("| 食材 |
    用量 | 备注 |", "| 原料 | 数量 | 单位 |", "| Ingredient | Amount |"): a
    table whose header names an item column (``columns.yaml``), outside any
    procedure section, under an ingredient or amount heading — or anywhere
    when the document has no ingredient list of items. Each data row gives a
    :class:`TableRow` by the meaning of its columns."""
    blocks = doc.blocks
    has_list = any(b.kind == "item" and section_kind(b.path) == "ingredient" for b in blocks)
    out: list[TableRow] = []
    for run in _table_runs(blocks):
        head = blocks[run[0]]
        if not head.header or len(run) < 3 or in_steps(head.path):
            continue
        if has_list and section_kind(head.path) not in ("ingredient", "amount"):
            continue  # a conversion or reference table beside the recipe's own list
        kinds = [classify_column(c) for c in head.cells]
        if "item" not in kinds and section_kind(head.path) == "ingredient" and "amount" in kinds:
            # under an ingredients heading, "| What | How much |": the first column that is no amount, unit or
            # note names the things
            free = [k for k, kind in enumerate(kinds) if kind not in ("amount", "unit", "notes", "cond", "req", "sub")]
            if free:
                kinds[free[0]] = "item"
        if "item" not in kinds:
            continue
        item_col = kinds.index("item")
        for i in run[1:]:
            cells = blocks[i].cells
            if item_col >= len(cells) or not cells[item_col].strip():
                continue
            amount, notes, subs, req = [], [], [], None
            for k, (kind, cell) in enumerate(zip(kinds, cells)):
                cell = cell.strip()
                if k == item_col or not cell:
                    continue
                if kind in ("amount", "unit"):
                    amount.append(cell)
                elif kind in ("notes", "cond"):
                    notes.append(cell)
                elif kind == "sub":
                    subs.extend(split_cell(cell))
                elif kind == "req":
                    req = required_value(head.cells[k], cell)
            out.append(TableRow(i, cells[item_col].strip().strip("*").strip(), " ".join(amount), notes, subs, req))
    return out


def amount_list_paths(doc: ParsedDocument) -> set[tuple[str, ...]]:
    """Heading paths of a recipe, outside procedure and notes sections
    (附加内容, 小贴士…), whose list items read as an ingredient list by their
    shape, whatever the heading says ("腌肉调味"): at least two items, two
    thirds of them a plausible name followed by an amount ("柱侯酱 1 勺",
    "老抽酱油 0.5 勺"; ``has_amount`` of amounts.yaml), none a step. Used only
    for a document already read as a recipe (:func:`is_recipe`)."""
    groups: dict[tuple[str, ...], list[Block]] = {}
    if doc.language != "zh":
        return _amount_list_paths_en(doc)
    for b in doc.blocks:
        if (b.kind == "item" and b.path and not in_steps(b.path) and section_kind(b.path) == ""
                and not any(key_kind(heading_words(p)) == "notes" for p in b.path)):
            groups.setdefault(b.path, []).append(b)
    out: set[tuple[str, ...]] = set()
    for path, items in groups.items():
        if len(items) < 2 or any(looks_like_step(b.text[:60]) for b in items):
            continue
        good = 0
        for b in items:
            names = [clean_name(ip.name, "ingredient") for ip in parse_item(b.text)]
            if _HAS_AMOUNT.search(b.text) and names and plausible_name(names[0]) and not _CATEGORY.search(names[0]):
                good += 1
        if good * 3 >= len(items) * 2:
            out.add(path)
    return out


_COUNT_AMOUNT = regex("amounts", "count_amount_zh")
_PAREN_NOTE = re.compile(r"（[^（）]*）|\([^()]*\)")
_IMAGE_ONLY = re.compile(r"^\s*(?:!\[[^\]]*\]\([^)]*\)\s*)+$")
#: A list item written as a field: a short (bold) label, then a colon ("**<label>**: <value>").
_FIELD = re.compile(r"^\s*(?:\*\*)?([^*:：\n]{1,8}?)(?:\*\*)?\s*[:：]")


def amount_list_items(doc: ParsedDocument) -> set[int]:
    """Indices of the list items of a Chinese document that read as an ingredient list by their shape
    wherever the list stands, under a heading that names no section or under none at all (a plain list
    after the title): a run of consecutive items (an image between them aside) outside procedure, notes
    and ingredient sections, at least two items, none a step, two thirds of them a plausible name with an
    amount ("牛肉 适量", "土豆 1 个", "姜一块"; ``has_amount``/``count_amount_zh``, read through the simplified
    form) or a short name alone ("咖喱粉"), at least one with an amount. ``set()`` for
    other languages (:func:`amount_list_paths` reads their lists by heading path)."""
    if doc.language != "zh":
        return _amount_list_items_en(doc)
    runs: list[list[int]] = []
    prev = -2
    for i, b in enumerate(doc.blocks):
        if b.kind == "paragraph" and _IMAGE_ONLY.match(b.text):
            continue  # a photo between two items keeps the list
        if (b.kind == "item" and not in_steps(b.path) and section_kind(b.path) == ""
                and not any(key_kind(heading_words(p)) in ("notes", "meta") for p in b.path)):
            if runs and prev == i - 1 - _skipped_images(doc.blocks, prev, i) and doc.blocks[runs[-1][0]].path == b.path:
                runs[-1].append(i)
            else:
                runs.append([i])
            prev = i
    out: set[int] = set()
    for run in runs:
        items = [doc.blocks[i] for i in run]
        top = [b for b in items if b.parent < 0]
        if len(top) < 2 or any(looks_like_step(b.text[:60]) or re.search(r"[。！？；]\s*\S", _PAREN_NOTE.sub("", b.text))
                               for b in items):
            continue  # a step, or an item written as sentences (a guide's explanations), is no ingredient line
        fields = sum(1 for b in top if (m := _FIELD.match(b.text)) and key_kind(simplified(m.group(1).strip())) == "meta")
        if fields * 2 >= len(top):
            continue  # a list of metadata fields ("**<cuisine>**: <value>", "<time>: 30 min"): no ingredient list
        good = measured = 0
        for b in top:
            names = [clean_name(ip.name, "ingredient") for ip in parse_item(b.text)]
            if not names or not plausible_name(names[0]) or _CATEGORY.search(names[0]):
                continue
            plain = simplified(b.text)
            if _HAS_AMOUNT.search(plain) or _COUNT_AMOUNT.search(plain):
                good += 1
                measured += 1
            elif len(_PAREN_NOTE.sub("", b.text).strip()) <= 8:
                good += 1  # a name alone, maybe with a note ("咖喱粉", "白糖（或者蜂蜜）")
        if measured and good * 3 >= len(top) * 2:
            out.update(run)
    return out


def _skipped_images(blocks: list[Block], a: int, b: int) -> int:
    return sum(1 for k in range(a + 1, b) if blocks[k].kind == "paragraph" and _IMAGE_ONLY.match(blocks[k].text))


_EN_LEAD_AMOUNT = regex("amounts", "lead_amount_en", re.I)
_EN_MEASURE = regex("amounts", "amount_en", re.I)


def _amount_list_items_en(doc: ParsedDocument) -> set[int]:
    """:func:`amount_list_items` for English, for a recipe written with no ingredients heading at all (a
    list right after the title or an intro line, then the numbered steps): the items of the first bulleted
    list of at least three items outside procedure and notes sections, none a sentence, two thirds of them
    a quantity before a plausible name ("3 eggs", "30 g grated cheddar"), at least one with a unit of
    measure (``amount_en``), followed later in the document by a numbered list of at least two items.
    ``set()`` when the document has an ingredients section or table of its own."""
    blocks = doc.blocks
    if any(section_kind(b.path) == "ingredient" for b in blocks if b.kind in ("item", "paragraph")):
        return set()
    runs: list[list[int]] = []
    for i, b in enumerate(blocks):
        if b.kind != "item" or b.parent >= 0:
            continue
        if runs and runs[-1][-1] == i - 1 - _nested_below(blocks, runs[-1][-1], i) and blocks[runs[-1][0]].path == b.path \
                and blocks[runs[-1][0]].ordered == b.ordered:
            runs[-1].append(i)
        else:
            runs.append([i])
    for k, run in enumerate(runs):
        items = [blocks[i] for i in run]
        head = items[0]
        if head.ordered or len(items) < 3 or in_steps(head.path) or section_kind(head.path) \
                or any(key_kind(heading_words(p)) in ("notes", "meta") for p in head.path):
            continue
        if any(re.search(r"[.!?]\s+\S", b.text) for b in items):
            continue
        good = measured = 0
        for b in items:
            m = _EN_LEAD_AMOUNT.match(b.text.strip())
            names = [clean_name(ip.name, "ingredient") for ip in parse_item(b.text)] if m else []
            if names and plausible_name(names[0]) and not is_method(names[0]) and not _CATEGORY.search(names[0]):
                good += 1
                measured += bool(_EN_MEASURE.match(b.text.strip()))
        later_steps = any(len(r) >= 2 and blocks[r[0]].ordered for r in runs[k + 1:])
        if measured and good * 3 >= len(items) * 2 and later_steps:
            return set(run)
        return set()  # only the first list of the document may be its ingredients
    return set()


def _nested_below(blocks: list[Block], a: int, b: int) -> int:
    """How many blocks between ``a`` and ``b`` are nested in a list item (a sub-item, a paragraph of an item)."""
    return sum(1 for k in range(a + 1, b) if blocks[k].parent >= 0)


def _amount_list_paths_en(doc: ParsedDocument) -> set[tuple[str, ...]]:
    """:func:`amount_list_paths` for English: a list outside procedure and
    notes sections whose items start with a quantity before a plausible
    name ("3 Tbsp vegetable or olive oil", "1/4 tsp salt" under a front-matter
    key ``Dressing:`` or ``Filling:``), at least two items and two thirds of
    them so, none a sentence ("Bake for 20 minutes. Cool."): the items of a
    sub-recipe listed beside the ingredients."""
    groups: dict[tuple[str, ...], list[Block]] = {}
    for b in doc.blocks:
        if (b.kind == "item" and b.path and not in_steps(b.path) and section_kind(b.path) == ""
                and not any(key_kind(heading_words(p)) in ("notes", "meta") for p in b.path)):
            groups.setdefault(b.path, []).append(b)
    out: set[tuple[str, ...]] = set()
    for path, items in groups.items():
        if len(items) < 2 or any(re.search(r"[.!?]\s+\S", b.text) for b in items):
            continue
        good = 0
        for b in items:
            m = _EN_LEAD_AMOUNT.match(b.text.strip())
            names = [clean_name(ip.name, "ingredient") for ip in parse_item(b.text)] if m else []
            if names and plausible_name(names[0]) and not is_method(names[0]) and not _CATEGORY.search(names[0]):
                good += 1
        if good * 3 >= len(items) * 2:
            out.add(path)
    return out


_TEMPLATE_PATH = regex("sections", "template_path", re.I)


def is_template(doc: ParsedDocument) -> bool:
    """The document is a collection's template or sample for writing one (its path has a folder
    or a file name marked so: ``template_path`` of ``lexicon/sections.yaml``): its list is a
    placeholder, so it is no recipe."""
    return bool(_TEMPLATE_PATH.search(doc.rel or ""))


def is_recipe(doc: ParsedDocument) -> bool:
    """A recipe has a non-title heading naming an ingredients section (see
    :data:`ING_HEAD`, outside any procedure section) with list items under it
    **and** reads as a dish: either its title names a dish (``X的做法``,
    ``… recipe``) or most of those items name ingredients — not glossary
    explanations (``生抽：调酱香…。可用于…``) or generic categories
    (``蔬菜类``, ``其他肉类``). So a tutorial such as "腌（肉）" with a section
    "常用的腌渍用料" explaining seasonings stays a document."""
    if is_template(doc):
        return False
    items = [b for b in doc.blocks if b.kind == "item" and section_kind(b.path) == "ingredient"
             and any(ING_HEAD.search(p) for p in b.path)]
    if not items and doc.language != "zh":
        items = _section_line_items(doc.blocks)
    if not items and ingredient_table_rows(doc):
        # a table of ingredients ("| 食材 | 用量 |") and a procedure: a recipe
        return any(in_steps(b.path) or looks_like_step(b.text[:60]) for b in doc.blocks
                   if b.kind in ("item", "paragraph")) or bool(_DISH_TITLE.search(doc.h1 or doc.front_matter.get("title", "") or ""))
    if not items:
        # equipment and steps without an ingredient list ("所需工具" + "制作步骤") is a recipe too
        items = [b for b in doc.blocks if b.kind == "item" and section_kind(b.path) == "ingredient"]
        # the steps must be a section of their own, not a part of the equipment section
        if not items or not any(in_steps(b.path) and not any(TOOL_HEAD.search(p) for p in b.path)
                                for b in doc.blocks if b.kind in ("item", "paragraph")):
            if prose_recipe(doc):
                return True
            # a list that reads as ingredients by its shape, with no heading naming it, and the steps
            shaped = amount_list_items(doc)  # English: only with numbered steps after it
            return bool(shaped) and (doc.language != "zh" or any(
                (in_steps(b.path) or looks_like_step(b.text[:60])) and i not in shaped
                for i, b in enumerate(doc.blocks) if b.kind in ("item", "paragraph")))
    title = doc.h1 or doc.front_matter.get("title", "") or ""
    if _DISH_TITLE.search(title):
        return True
    namey = 0
    steps = any(in_steps(b.path) for b in doc.blocks if b.kind in ("item", "paragraph"))
    for b in items:
        if _glossary_item(b.text):
            # an English ingredient annotated in prose ("Chicken Thighs: When it comes to slow-cooking thighs
            # are a top choice. Alternatively, …") names a thing when the document has its steps too; a
            # Chinese tutorial's term list ("生抽：调酱香…。可用于…"), with no procedure section of its own,
            # stays an explanation; a Chinese dish whose list annotates each ingredient in prose
            # ("**胡萝卜**：抓饭的灵魂。…", "**鹰嘴豆**（可选）：提前泡发…") above its own steps names them; a
            # guide's annotated tool list ("需要准备的工具 > 工具使用要点": "**钢丝球**：只用于铁锅…") names no food
            label = _GLOSS_LABEL.match(b.text.strip())
            if steps and label and not any(TOOL_HEAD.search(p) for p in b.path) and _label_names_thing(label.group(1)):
                namey += 1
            continue
        names = [clean_name(ip.name, "ingredient") for ip in parse_item(b.text)]
        if any(n and plausible_name(n) and not _CATEGORY.search(n) and not looks_like_step(n) for n in names):
            namey += 1
    return namey * 2 > len(items)


def _section_line_items(blocks: list[Block]) -> list[Block]:
    """The lines of an English ingredients section written as paragraphs, not list items ("2 cups flour"
    then "3 carrots, grated" on lines of their own, or lines ending in hard breaks), as item blocks: what
    :func:`section_lines` reads as the recipe's items, for :func:`is_recipe` to count."""
    kind_of = lambda b: section_kind(b.path) if any(ING_HEAD.search(p) for p in b.path) else ""  # noqa: E731
    out = [dataclasses.replace(blocks[i], kind="item", text=t)
           for i, found in section_lines(blocks, kind_of).items() for t in found]
    if out and not any(_LABEL_ITEM_ING.search(heading_words(p)) for b in out for p in b.path) \
            and not any(_EN_MEASURE.match(b.text.strip()) for b in out):
        return []  # "## What you'll need" over "A laptop and a GitHub account.": no cook's list
    return out


_TITLE_NOISE = [re.compile(p, re.I) for p in words("sections", "title_noise")]
_GENERIC_STEMS = frozenset(w.casefold() for w in words("sections", "generic_stems"))
_TITLE_MODIFIER = regex("sections", "title_modifier")


def dish_name(title: str) -> str:
    """The dish a title names: the title without what a post's title carries
    around it (``title_noise`` of sections.yaml: "省钱菜谱：", "3.4元的",
    "（10min）", "（我菜谱里常出现的）"), a trailing ``的做法``/``做法``/``recipe``
    and a leading modifier (``title_modifier``: "超简单的咖喱炒饭" → 咖喱炒饭).
    "省钱菜谱：3.4元的潮州炒豆饭（10min）" → 潮州炒豆饭; a plain name is kept."""
    name = heading_words(str(title))  # "🍋 柠檬水" → 柠檬水
    for _ in range(6):
        before = name
        for rx in _TITLE_NOISE:
            cut = rx.sub("", name, count=1).strip()
            if cut and len(cut) >= 2:
                name = cut
        if name == before:
            break
    name = _NAME_SUFFIX_ZH.sub("", name)
    name = _NAME_SUFFIX_EN.sub("", name)
    if has_cjk(name):
        cut = _TITLE_MODIFIER.sub("", name).strip()
        name = cut or name
    return name.strip()


def recipe_name(doc: ParsedDocument) -> str:
    """The dish named by the H1, else the front-matter title (see
    :func:`dish_name`), else the file stem."""
    stem = doc.stem
    if stem.casefold() in _GENERIC_STEMS and "/" in (doc.rel or ""):
        stem = doc.rel.rsplit("/", 2)[-2]  # "banana-bread/README.md": the folder names the dish
    name = doc.h1 or doc.front_matter.get("title", "") or stem
    return dish_name(str(name)) or stem


_MIXED_NAME = re.compile(r"^([A-Za-z][A-Za-z0-9 '&.\-]*[A-Za-z0-9.])\s*([\u3400-\u9fff][^A-Za-z]*)$|^([\u3400-\u9fff][^A-Za-z]*?)\s*([A-Za-z][A-Za-z0-9 '&.\-]*)$")


def name_parts(name: str) -> list[str]:
    """A title that joins a Latin and a Chinese name ("Mojito莫吉托",
    "莫吉托 Mojito") read as either: its two parts (aliases of the recipe);
    ``[]`` for any other title."""
    m = _MIXED_NAME.match(name.strip())
    if not m:
        return []
    parts = [g.strip() for g in m.groups() if g and g.strip()]
    return [p for p in parts if len(p) >= 2]


#: Longest lead-in paragraph (characters) that can mark a section's list optional.
LEAD_IN_CHARS = 40


_STEP_LABEL = re.compile(rf"^\s*(?:\*\*)?(?:{alternation('sections', 'steps')})\s*(?:\*\*)?\s*[：:]")


def later_dish_blocks(blocks: list[Block], kind_of) -> set[int]:
    """Indices of the blocks of a second dish written after this recipe's method: a top-level section
    that comes after a procedure section, is not the section of the recipe's first ingredient list, and
    holds both an ingredient list of its own (``kind_of(block) == "ingredient"``) and its own method (a
    procedure heading inside it, or a line opening with a procedure label, "做法："). A side dish served
    with the recipe (a heading "搭配：<dish>" with its own 食材 and 做法) is such a section: its things are that
    dish's, not the recipe's. Returns ``set()`` when there is none."""
    tops: dict[str, list[int]] = {}
    first_ing = ""
    first_steps = None
    for i, b in enumerate(blocks):
        top = b.path[0] if b.path else ""
        tops.setdefault(top, []).append(i)
        if not first_ing and kind_of(b) == "ingredient" and b.kind != "heading":
            first_ing = top or "\0"
        if first_steps is None and b.path and in_steps(b.path):
            first_steps = i
    if not first_ing or first_steps is None:
        return set()
    out: set[int] = set()
    for top, idx in tops.items():
        if not top or top == first_ing or idx[0] <= first_steps or in_steps((top,)):
            continue
        own_ing = any(kind_of(blocks[i]) == "ingredient" and blocks[i].kind != "heading" for i in idx)
        own_steps = any(in_steps(blocks[i].path[1:]) or _STEP_LABEL.match(blocks[i].text) for i in idx)
        if own_ing and own_steps:
            out.update(idx)
    return out


def side_dish_name(heading: str) -> str:
    """The dish a side dish's heading names: its words after a label ("搭配：<dish>" → <dish>),
    without a trailing note in brackets, read as a title (:func:`dish_name`); ``""`` when nothing is left."""
    words_ = re.split(r"[：:]", heading_words(heading))[-1].strip() or heading_words(heading)
    return dish_name(_TRAILING_NOTE.sub("", words_).strip())


def optional_lead_ins(blocks: list[Block], para_items: dict[int, list[str]]) -> set[int]:
    """Indices of the list items a short lead-in paragraph marks optional (``optional_labels``:
    "额外用作点缀的食材，可选" above a garnish list, "可选工具" above one list and "必须材料" above
    the next): an item's nearest paragraph before it in its section, with only list items between,
    is at most :data:`LEAD_IN_CHARS` characters and says so. Paragraphs read as items
    (``para_items``) label nothing."""
    label: dict[tuple[str, ...], bool] = {}
    out: set[int] = set()
    for i, b in enumerate(blocks):
        if b.kind == "paragraph" and i not in para_items:
            text = b.text.strip()
            label[b.path] = len(text) <= LEAD_IN_CHARS and bool(OPTIONAL_LABEL.search(text))
        elif b.kind == "item" and label.get(b.path):
            out.add(i)
    return out


def section_lines(blocks: list[Block], kind_of) -> dict[int, list[str]]:
    """The short paragraphs of a recipe's ingredients or garnish sections
    (``kind_of(block) == "ingredient"``) read as list items, by block index
    (:func:`~threadgraph.ingest.items.line_items`): "Water or broth, as
    needed" after the list, a drink's "## Garnish" line "Orange twist or
    wedge.". A paragraph that a list follows in its section labels that list
    ("Banana Cake", "Cream Cheese Frosting") and is left out."""
    out: dict[int, list[str]] = {}
    for i, b in enumerate(blocks):
        if b.kind != "paragraph":
            continue
        found = labelled_items(b)
        if found:
            out[i] = found
            continue
        if kind_of(b) != "ingredient":
            continue
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        if nxt is not None and nxt.kind == "item" and nxt.path == b.path:
            continue
        found = paragraph_items(b.text)
        if found:
            out[i] = found
    return out


def written_for_reading(doc: ParsedDocument) -> ParsedDocument:
    """``doc`` as the extractors read it: for a Chinese document, the text of its paragraphs and list
    items in the punctuation and spacing the lexicons are written for
    (:func:`~threadgraph.knowledge.text.cjk_form`: "白糖, 盐" → "白糖，盐", "香菜cilantro" →
    "香菜 cilantro"), then :func:`listed_paragraphs`. Lines are kept, so provenance stays valid; passages are
    made from the document as written. Other documents are returned unchanged."""
    if doc.tabular:
        return doc
    if doc.language != "zh":
        return _labelled_lines_en(_label_items_en(doc))
    blocks = [dataclasses.replace(b, text=cjk_form(b.text)) if b.kind in ("item", "paragraph") and has_cjk(b.text)
              else b for b in doc.blocks]
    # a paragraph that is only a label ("**食材**：", "做法：") right above a list is that list's heading
    label = ""
    for i, b in enumerate(blocks):
        m = _LABEL_LINE.match(b.text) if b.kind == "paragraph" else None
        if m:
            label = m.group(1).strip()
            continue
        if b.kind == "item" and label and (b.parent >= 0 or i > 0):
            blocks[i] = dataclasses.replace(b, path=(*b.path, label))
            continue
        label = ""
    if any(a is not b for a, b in zip(blocks, doc.blocks)):
        doc = dataclasses.replace(doc, blocks=blocks)
    return listed_paragraphs(doc)


_LABEL_LINE = re.compile(rf"^\s*\**\s*([\u3400-\u9fff][^：:*\n]{{0,9}}?)\s*\**\s*[：:]\s*\**\s*$")
_EN_ING_LABEL = re.compile(rf"^\s*(?:\*\*|__)?\s*(?P<label>{alternation('sections', 'label_line_ingredients')}"
                           rf"|{alternation('sections', 'label_line_need')})\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(?=\S)", re.I)
_INLINE_PART_WORDS = 8
_LINE_MAX_EN = int(lexicon("sections")["line_item_max_chars"])
_NEED_LABEL = re.compile(rf"^(?:{alternation('sections', 'label_line_need')})$", re.I)


def inline_list(text: str) -> list[str]:
    """The things of an English list written on one line after its label ("2 cups basil, 50 g pine nuts, 1 clove
    garlic and olive oil"): split at top-level commas and semicolons and before a last " and "; ``[]`` unless
    there are at least two parts and each is short (at most eight words) and opens with a plausible name
    after its amount, none a method or a sentence."""
    t = re.sub(r"\s*\.\s*$", "", (text or "").strip())
    if not t or has_cjk(t) or re.search(r"[.!?]\s+\S", _PAREN_NOTE.sub("", t)):
        return []
    parts = split_top(t, ",;")
    if parts and " and " in _PAREN_NOTE.sub("", parts[-1]):
        last = parts.pop()
        cut = last.rfind(" and ")
        parts += [last[:cut].strip(), last[cut + 5:].strip()]
    if len(parts) < 2:
        return []
    for p in parts:
        names = [clean_name(ip.name, "ingredient") for ip in parse_item(p)]
        if len(_PAREN_NOTE.sub("", p).split()) > _INLINE_PART_WORDS or not names or not plausible_name(names[0]) \
                or is_method(names[0]) or is_method(p.split()[0]):
            return []
    return parts


_LABEL_ITEM = regex("sections", "label_line", re.I)
_LABEL_ITEM_ING = re.compile(rf"^(?:{alternation('sections', 'label_line_ingredients')})\b", re.I)


def _label_items_en(doc: ParsedDocument) -> ParsedDocument:
    """``doc`` with each top-level English list item that is only a section label and holds a nested list
    ("- Ingredients" over "  - 1 bag tortilla chips", "- Steps" over "  - Spread the chips") written as a
    heading over that list: the label item becomes a heading, its nested items are its section's items
    (their path gains the label; nesting deeper than one level is kept). Only in a document with such an
    ``label_line_ingredients`` item ("Ingredients", "Shopping list"); ``doc`` itself otherwise."""
    blocks = doc.blocks
    kids = children(blocks)
    labels = {i for i, b in enumerate(blocks)
              if b.kind == "item" and b.parent < 0 and i in kids and not has_cjk(b.text)
              and _LABEL_ITEM.match(heading_words(b.text).strip().rstrip(":：").strip().strip("*_").strip())}
    if not any(_LABEL_ITEM_ING.match(heading_words(blocks[i].text).strip("*_ ")) for i in labels):
        return doc
    new = list(blocks)
    for i in labels:
        b = blocks[i]
        label = heading_words(b.text).strip().rstrip(":：").strip().strip("*_").strip()
        new[i] = dataclasses.replace(b, kind="heading", text=label, path=(*b.path, label), level=len(b.path) + 2)

        def under(k: int, top: int = i) -> bool:
            while k >= 0:
                if blocks[k].parent == top:
                    return True
                k = blocks[k].parent
            return False

        for k in range(i + 1, len(blocks)):
            if under(k):
                nb = new[k]
                new[k] = dataclasses.replace(nb, path=(*nb.path, label), parent=-1 if nb.parent == i else nb.parent)
    return dataclasses.replace(doc, blocks=new)


def _labelled_lines_en(doc: ParsedDocument) -> ParsedDocument:
    """``doc`` with each English line that opens with an ingredients label and lists its things on the same
    line ("**Ingredients:** 2 cups basil, 50 g pine nuts, 1 clove garlic", "You will need: 4 eggs, 1 cup
    flour and a pinch of salt"; :func:`inline_list`) written as list items under that label, as under a
    heading; the paragraph's other lines stay a paragraph. Outside procedure sections only; ``doc`` itself
    when no line is so written."""
    blocks = doc.blocks
    new: list[Block] = []
    where: dict[int, int] = {}
    changed = False
    for i, b in enumerate(blocks):
        where[i] = len(new)
        if (b.kind == "code" and not has_cjk(b.text) and any(ING_HEAD.search(p) for p in b.path)
                and section_kind(b.path) == "ingredient"):
            # an ingredients section written in a code block ("```\n200 g flour\n2 eggs\n```"): one thing a line
            lines = b.text.split("\n")
            found = [(k, ln.strip()) for k, ln in enumerate(lines) if ln.strip()]
            if len(found) >= 2 and all(len(ln) <= _LINE_MAX_EN and not re.search(r"[.!?]\s+\S", ln) for _k, ln in found):
                new.extend(Block("item", ln, b.line + k, b.line + k, b.path, 1, parent=-1) for k, ln in found)
                changed = True
                continue
        if b.kind != "paragraph" or in_steps(b.path) or has_cjk(b.text):
            new.append(b)
            continue
        lines = b.text.split("\n")
        out: list[Block] = []
        rest: list[tuple[int, str]] = []  # the paragraph's other lines, kept in order as paragraphs

        def flush() -> None:
            if any(r.strip() for _k, r in rest):
                out.append(dataclasses.replace(b, text="\n".join(r for _k, r in rest).strip(), line=b.line + rest[0][0]))
            rest.clear()

        labelled = False
        for k, ln in enumerate(lines):
            m = _EN_ING_LABEL.match(ln)
            found = inline_list(ln[m.end():].strip("*_ ")) if m else []
            if found and _NEED_LABEL.match(m.group("label")) and not any(_EN_MEASURE.match(t) for t in found):
                found = []  # "You will need: a laptop, a GitHub account": a cook's list is measured
            if found:
                flush()
                labelled = True
                label = m.group("label").strip()
                label = label[:1].upper() + label[1:]
                out += [Block("item", t, b.line + k, b.line + k, (*b.path, label), 1, parent=-1) for t in found]
            else:
                rest.append((k, ln))
        if not labelled:
            new.append(b)
            continue
        flush()
        changed = True
        new.extend(out)
    if not changed:
        return doc
    new = [dataclasses.replace(b, parent=where.get(b.parent, -1)) if b.parent >= 0 else b for b in new]
    return dataclasses.replace(doc, blocks=new)


def listed_paragraphs(doc: ParsedDocument) -> ParsedDocument:
    """``doc`` with each Chinese paragraph that lists things written as list items, as a list would
    hold them: a paragraph of an ingredients section written as lines or as one sentence
    ("需要两个鸡蛋、一个番茄和少许盐。", see :func:`~threadgraph.ingest.items.paragraph_items`), and a line
    opening with an ingredient label ("材料：鸡腿，土豆", :func:`labelled_items`; its items live under
    the label, as under a heading). Each item keeps the paragraph's path (plus the label) and the line it
    is written on; the other blocks are kept, parents re-indexed. ``doc`` itself when nothing is so
    written (English paragraphs are read by :func:`section_lines`)."""
    blocks = doc.blocks
    if doc.language != "zh" or not any(b.kind == "paragraph" and has_cjk(b.text) for b in blocks):
        return doc
    new: list[Block] = []
    where: dict[int, int] = {}
    changed = False
    for i, b in enumerate(blocks):
        where[i] = len(new)
        out: list[Block] = []
        aside = _ASIDE.match(b.text) if b.kind == "item" else None  # "（可选配料：葱花、芝麻）" in a list
        if (b.kind == "paragraph" or aside) and has_cjk(b.text) and not in_steps(b.path):
            lines = [aside.group(1)] if aside else b.text.split("\n")
            labelled = [(k, ln) for k, ln in enumerate(lines) if ingredient_label(ln)]
            nxt = blocks[i + 1] if i + 1 < len(blocks) else None
            if labelled:
                for k, ln in labelled:
                    label = simplified(ln.strip()).split("：")[0].split(":")[0].strip("* ")
                    rest = ingredient_label(ln)
                    for t in line_items(rest) or ([rest] if _one_line_thing(rest) else []):
                        out.append(Block("item", t, b.line + k, b.line + k, (*b.path, label), 1, parent=-1))
            elif (section_kind(b.path) == "ingredient" and any(ING_HEAD.search(simplified(p)) for p in b.path)
                  and not (nxt is not None and nxt.kind == "item" and nxt.path == b.path)):
                for t in paragraph_items(b.text):
                    k = next((n for n, ln in enumerate(lines) if t in ln), 0)
                    out.append(Block("item", t, b.line + k, b.line + k, b.path, 1, parent=-1))
        if out:
            changed = True
            new.extend(out)
        else:
            new.append(b)
    if not changed:
        return doc
    new = [dataclasses.replace(b, parent=where.get(b.parent, -1)) if b.parent >= 0 else b for b in new]
    return dataclasses.replace(doc, blocks=new)


_ASIDE = re.compile(r"^\s*[（(]([^（）()]+)[）)]\s*[。.]?\s*$")


def labelled_items(b: Block) -> list[str]:
    """The things of the lines of paragraph ``b`` that open with an ingredient label ("材料：鸡腿，土豆，
    胡萝卜", "调料：盐，白糖"; :func:`~threadgraph.ingest.items.ingredient_label`) outside a procedure section:
    a label is a section heading written on the line of its list. ``[]`` for any other paragraph."""
    if b.kind != "paragraph" or in_steps(b.path):
        return []
    out: list[str] = []
    for ln in b.text.split("\n"):
        rest = ingredient_label(ln)
        if rest:
            out += line_items(rest) or ([rest] if _one_line_thing(rest) else [])
    return out


def _one_line_thing(text: str) -> bool:
    names = [clean_name(ip.name, "ingredient") for ip in parse_item(text)]
    return bool(names) and all(n and plausible_name(n) and not looks_like_step(n) for n in names)


def bare_elsewhere(blocks: list[Block], i: int, name: str, head: str) -> bool:
    """True when a block of the document other than block ``i`` names
    ``name`` without ``head`` after it ("Dry-fry cornmeal until fragrant"
    for "cornmeal" / "flour"): the name is a thing of its own there."""
    rx = re.compile(rf"\b{re.escape(name)}\b(?!\s+{re.escape(head)}\b)", re.I)
    return any(k != i and rx.search(b.text) for k, b in enumerate(blocks))


def alone_names(docs: list[ParsedDocument]) -> frozenset[str]:
    """The cleaned names of the English ingredient items of the corpus's
    recipes that offer no alternative ("1 cup water", "1/2 lime"): things a
    cook uses on their own, so "water or orange juice" is never read as
    "water juice" (:func:`~threadgraph.ingest.items.form_completed`)."""
    out: set[str] = set()
    for d in docs:
        if d.tabular or not is_recipe(d):
            continue
        for b in d.blocks:
            if b.kind != "item" or section_kind(b.path) != "ingredient" or has_cjk(b.text):
                continue
            for ip in parse_item(b.text):
                c = clean_name(ip.name or "", "ingredient")
                if c and not ip.alternatives:
                    out.add(c)
    return frozenset(out)


def recipe_vocabulary(docs: list[ParsedDocument], norm: Normalizer | None = None) -> DictLinker[str]:
    """Every ingredient and tool name the corpus's recipes list in their
    ingredient/equipment sections (cleaned; alternatives included), plus the
    alias table's names: what counts as "a thing a cook uses" when a sentence
    names a stand-in that is not in its own recipe's list."""
    vocab: DictLinker[str] = DictLinker()
    for d in docs:
        if d.tabular or not is_recipe(d):
            continue
        if not any(b.kind == "item" and section_kind(b.path) == "ingredient" for b in d.blocks):
            for b in d.blocks:  # a recipe of steps alone: the things its steps prepare and add
                if b.kind in ("item", "paragraph"):
                    for n in step_names(b.text):
                        c = clean_name(n, "ingredient")
                        if c:
                            vocab.add(c, c)
        for row in ingredient_table_rows(d):
            for ip in parse_item(row.name):
                for raw in [ip.name, *(a.raw for a in ip.alternatives), *row.subs]:
                    c = clean_name(raw or "", "ingredient")
                    if c and plausible_name(c) and not looks_like_step(c) and not is_measure(c):
                        vocab.add(c, c)
        extra = amount_list_paths(d)
        shaped = amount_list_items(d)
        para = section_lines(d.blocks, lambda b: section_kind(b.path))
        for i, b in enumerate(d.blocks):
            if i in para:
                parsed = [ip for t in para[i] for ip in parse_item(t)]
            elif b.kind != "item" or (section_kind(b.path) != "ingredient" and b.path not in extra and i not in shaped):
                continue
            else:
                parsed = parse_item(b.text)
            for ip in parsed:
                for raw in [ip.name, *(a.raw for a in ip.alternatives)]:
                    c = clean_name(raw or "", "ingredient")
                    if c and plausible_name(c) and not looks_like_step(c) and not is_measure(c):
                        vocab.add(c, c)
    if norm is not None:
        for (alias, _t), canon in norm.aliases.items():
            vocab.add(alias, canon)
            vocab.add(canon, canon)
    return vocab


#: "<word> of <name>" inside an English name: a measure or a part of the thing ("a sprig of X"), not a kind.
_OF_PHRASE = re.compile(r"\w\s+of\s+\w", re.I)

class RecipeExtractor:
    """Extract a recipe: entities ``recipe``/``ingredient``/``tool``,
    ``CONTAINS`` (``required``, ``amount``, ``order``) and ``SUBSTITUTES``
    (``context`` = recipe id, ``condition``, ``symmetric``)."""

    LIST_CONF = 0.9
    TEXT_CONF = 0.7
    STEP_CONF = 0.6

    def __init__(self, norm: Normalizer, vocabulary: DictLinker[str] | None = None,
                 alone: frozenset[str] | None = None) -> None:
        self.norm = norm
        self.vocab = vocabulary if vocabulary is not None else DictLinker()
        self.alone = alone  # names the corpus lists alone (no alternative): see alone_names

    def known_thing(self, name: str, confidence: float, *, strict: bool = False, long_ok: bool = False,
                    tool_ok: bool = False) -> str:
        """The thing a phrase read from a sentence names, or ``""``.

        A name of the corpus vocabulary (see :func:`recipe_vocabulary`) or a
        phrase made mostly (≥ 60 %) of such names ("milk and lemon juice") is
        kept as written; a longer phrase around one is cut to that name
        ("菜籽油作为次选" → "菜籽油"). Otherwise, unless ``strict``, a
        construction that states the relation in full (``confidence`` ≥ 0.85)
        may name something new when the name is short (≤ 4 CJK characters or
        ≤ 2 words) and plausible. With ``tool_ok`` (the sentence names X itself, beside Y) a Chinese tool of
        the tool lexicon is a thing too, cut to the tool phrase that opens the phrase ("毛巾擦干" → 毛巾)."""
        if has_cjk(name):
            tail = _STEP_TAIL.search(simplified(name.rstrip()))
            if tail and tail.start() >= 2:
                name = name.rstrip()[:tail.start()]  # "<name>收汁": the name ends where the step's verb starts
        c = clean_name(name, "ingredient")
        if not c:
            return ""
        if self.vocab.get(c):
            return name
        if has_cjk(c) and tool_ok and not strict:
            # a tool of the lexicon is a thing though no list names it ("用厨房纸巾或毛巾擦干" → 毛巾): the tool
            # phrase that opens the phrase, at most a two-character verb after it
            if len(c) <= 5 and ends_in_tool_word(c) and is_tool(c):
                return name
            lead = tool_phrases(c)
            if lead and c.startswith(lead[0][0]) and len(c) - len(lead[0][0]) <= 2 and len(lead[0][0]) <= 5:
                return lead[0][0]
        # a construction that names both sides in full ("replace X with Y", confidence ≥ 0.9) beside a thing
        # the recipe lists (``long_ok``) may name a longer English thing ("shredded Italian cheese blend")
        short = len(c) <= 4 if has_cjk(c) else len(c.split()) <= (4 if long_ok and confidence >= 0.9 else 2)
        new_ok = not strict and confidence >= 0.85 and short and _explicit_name(c)
        hits = self.vocab.scan(c, min_len=2)
        if hits:
            h = hits[0]
            if has_cjk(c) and len(hits) == 1 and _VERB_EDGE.fullmatch(c[:h.start]) and _METHOD_EDGE.fullmatch(c[h.end:]):
                return h.values[0]  # "加辣椒酱" → 辣椒酱, "沙茶酱炒" → 沙茶酱, "<name>收汁" → <name>: a verb around a name
            if sum(h.end - h.start for h in hits) * 10 >= len(c) * 6 or new_ok:
                return name
            return hits[0].values[0]
        if new_ok and has_cjk(c):
            lead = re.match(rf"(?:{alternation('steps', 'add_verbs')})(?=..)", c)
            if lead:
                return c[lead.end():]  # "加辣椒酱" → 辣椒酱
        return name if new_ok else ""

    def extract(self, doc: ParsedDocument) -> DocResult:
        """Run all recipe rules on ``doc``; never raises on odd content."""
        rel = doc.rel
        name = recipe_name(doc)
        rid = entity_id("recipe", name)
        res = DocResult(rid)
        title = doc.h1 or str(doc.front_matter.get("title", "") or "")
        aliases = [title] if title and title != name else []
        aliases += [p for p in name_parts(name) if p not in aliases]
        if not doc.h1 and not doc.front_matter.get("title") and not has_cjk(name) and re.search(r"\w[-_]+\w", name):
            aliases.append(re.sub(r"[-_]+", " ", name).strip())  # a file named "banana-bread": "banana bread"
        res.entities.append(Entity(rid, name, "recipe", aliases, doc.language, rel))
        blocks = doc.blocks
        kids = children(blocks)
        contains: dict[str, Triple] = {}  # object id -> CONTAINS triple
        surfaces: set[str] = set()  # cleaned surface names of this recipe's ingredients
        subs: dict[tuple[str, str], Triple] = {}
        # (umbrella, line) -> its members in order, with the block, confidence and rule that named them
        members: dict[tuple[str, int], list[tuple[str, Block, float, str]]] = {}
        order = 0
        cur: dict = {"rid": rid, "contains": contains}  # the dish the items being read belong to
        side: dict[str, tuple[str, dict[str, Triple]]] = {}  # a side dish's section -> its recipe id and things

        def ent(surface: str, type_: str, line: int) -> tuple[str, str]:
            canon = self.norm.canonical(surface, type_, doc=rel, line=line)
            if not canon:
                return "", ""
            eid = entity_id(type_, canon)
            al = [surface.strip()] if surface.strip() != canon else []
            res.entities.append(Entity(eid, canon, type_, al, "zh" if has_cjk(canon) else "en"))
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
                extra = f"{_COMPOUND_ZH}{whole}" if has_cjk(whole) else f"{_COMPOUND_EN}{whole}"
                cond = f"{cond}；{extra}" if cond else extra
                y_raw = combo[0]
            ys = [p for p in _STAND_IN_OR.split(y_raw) if p.strip()] if has_cjk(y_raw) else [y_raw]
            if len(ys) > 1:
                for y in ys:
                    add_sub(x, y, sym, cond, b, conf, rule, x_type)
                return
            y0 = substitute_surface(y_raw, x)
            y_raw = thing_of(y0)
            if y_raw != y0 and " with " in y_raw and len(split_alternatives(y_raw)) > 1:
                for y in split_alternatives(y_raw):  # "(or add lemon juice or vinegar to milk)"
                    add_sub(x, y, sym, cond, b, conf, rule, x_type)
                return
            if not y_raw or is_measure(y_raw) or is_measure(x):
                return  # "(or make with atama, …)": a way to make it, not a thing
            if any(PROSE_VERB.search(simplified(v)) or looks_like_step(v) for v in (x, y_raw)):
                return  # "用筷子、勺子或手洗净后搅拌": an instruction, not two things
            xc = clean_name(x, "ingredient")
            yc = clean_name(y_raw, "ingredient")
            if not (plausible_name(xc) and plausible_name(yc)) or is_method(xc) or is_method(yc):
                return
            if is_umbrella(xc) and not is_umbrella(yc) and not x_type:
                # "肉（猪肉、鸡肉、牛肉均可）": the members stand in for each other (paired below, unless the list is
                # open: "等", "比如"), not for the umbrella
                group = members.setdefault((xc, b.line), [])
                if yc not in [clean_name(m[0], "ingredient") for m in group]:
                    group.append((y_raw, b, conf, rule))
                return
            if _cut_form(xc, yc):
                return  # "葱（也可选用切好的葱段）": the same thing, cut — not a stand-in
            if _general_of(xc, yc) and (rule.removeprefix("cue.") in _HEAD_FILL_RULES or rule == "recipe.item_alternative"
                                        and len(strip_amount(y_raw).split()) <= len(yc.split())):
                # "frozen peas (or 1 bag peas)": Y, as written, is X without what tells
                # them apart; a stand-in found by its head word must differ from X in its cleaned name
                return
            tx = x_type or ("tool" if is_tool(xc) else "ingredient")
            if tx == "tool" and has_cjk(y_raw):
                lead = tool_phrases(y_raw.strip())
                if (lead and y_raw.strip().startswith(lead[0][0]) and 0 < len(y_raw.strip()) - len(lead[0][0]) <= 2
                        and not ends_in_tool_word(y_raw)):
                    y_raw = lead[0][0]  # "（或炒锅闷）" after a pot: the pot, not the verb after it
                    yc = clean_name(y_raw, "ingredient")
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
                {"context": cur["rid"], "condition": cond, "symmetric": sym},
                Provenance(rel, section_of(b.path), b.line, rule, conf),
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
            into = cur["contains"]
            have = into.get(eid)
            if have is not None:
                if amount and not have.properties.get("amount"):
                    have.properties["amount"] = amount
                return type_
            order += 1
            into[eid] = Triple(
                cur["rid"], "CONTAINS", eid, {"required": required, "amount": amount, "order": order},
                Provenance(rel, section_of(b.path), b.line, rule, conf),
            )
            return type_

        used: set[int] = set()
        item_names: dict[int, str] = {}
        extra = amount_list_paths(doc)  # lists that read as ingredients by their shape ("腌肉调味")
        shaped = {id(blocks[i]) for i in amount_list_items(doc)}  # such a list with no heading of its own

        def kind_of(b: Block) -> str:
            return section_kind(b.path) or ("ingredient" if b.path in extra or id(b) in shaped else "")

        # a short paragraph of an ingredients or garnish section is read as its items ("Water or broth, as
        # needed" after the list; a drink's "## Garnish" line "Orange twist or wedge."), unless a list
        # follows it in the section (then it labels that list: "Banana Cake", "Cream Cheese Frosting")
        para_items = section_lines(blocks, kind_of)
        later = later_dish_blocks(blocks, kind_of)  # a side dish after the method: its things are its own
        lead_optional = optional_lead_ins(blocks, para_items)
        # 1) ingredient sections (and amount sections, which may list more)
        for pass_amounts in (False, True):
            for i, b in enumerate(blocks):
                if b.kind != "item" and i not in para_items:
                    continue
                kind = kind_of(b)
                in_amt = kind == "amount"
                in_ing = kind == "ingredient"
                if (pass_amounts and not in_amt) or (not pass_amounts and not in_ing):
                    continue
                if i in later:
                    top = b.path[0]
                    if top not in side:
                        sname = side_dish_name(top)
                        both = has_cjk(title) and re.search(r"[A-Za-z]{3}", title)
                        if sname and (sname.casefold() in f"{title} {name}".casefold()
                                      or both and not has_cjk(sname)):
                            sname = ""  # the dish itself again (a bilingual post's second language), not a side dish
                        sid = entity_id("recipe", sname) if sname else ""
                        if sid and sid != rid:
                            res.entities.append(Entity(sid, sname, "recipe", [], doc.language, rel))
                        side[top] = (sid, {})
                    if side[top][0] and side[top][0] != rid:
                        cur["rid"], cur["contains"] = side[top]
                    else:
                        cur["rid"], cur["contains"] = rid, contains
                else:
                    cur["rid"], cur["contains"] = rid, contains
                if i in kids and not re.search(r"[=＝\d]", b.text) and len(b.text) <= 12:
                    continue  # a group label like "必须配料" / "进阶配料"
                used.add(i)
                labels = [p for p in b.path[1:]] if len(b.path) > 1 else []
                par = b.parent
                while par >= 0:
                    labels.append(blocks[par].text)
                    par = blocks[par].parent
                optional = any(OPTIONAL_LABEL.search(lb) for lb in labels) or i in lead_optional
                heading_tool = any(TOOL_HEAD.search(p) and not ING_HEAD.search(p) for p in b.path)
                parsed = (parse_item(b.text) if i not in para_items
                          else [ip for t in para_items[i] for ip in parse_item(t)])
                for ip in parsed:
                    if not ip.name:
                        continue
                    ip.name = form_completed(ip.name, ip.alternatives, lambda n: bool(self.vocab.get(n)), self.alone,
                                             lambda c, head, i=i: bare_elsewhere(blocks, i, c, head))
                    req = not (optional or ip.optional)
                    conf = self.LIST_CONF if not pass_amounts else 0.8
                    rule = "recipe.amount_item" if pass_amounts else "recipe.ingredient_item"
                    if pass_amounts and b.line and not _HAS_AMOUNT.search(b.text):
                        continue  # prose bullet in a 计算 section
                    # "砵或者有一定深度的碗": if either side of a plain "A或B" is a tool, both are
                    item_tool = heading_tool or any(
                        a.symmetric and is_tool(clean_name(a.raw, "ingredient")) for a in ip.alternatives)
                    t = add_contains(ip.name, req, ip.amount, b, conf, rule, item_tool)
                    if not t:
                        continue
                    for alt in ip.alternatives:
                        n_subs = len(subs)
                        add_sub(ip.name, alt.raw, alt.symmetric, alt.condition, b, self.LIST_CONF,
                                "recipe.item_alternative", t)
                        if not req and len(subs) > n_subs and alt.symmetric and not alt.condition:
                            # "Whipped butter or whipped cream, optional", "葡萄干/杏干（可选）", "[可选] 柠檬汁或白醋":
                            # whichever is used, it may be left out (only a stand-in read as a thing: "almonds,
                            # sliced or grated" offers none); named as the stand-in was ("或者放花椒水" → 花椒水)
                            add_contains(next(reversed(subs.values())).object.split(":", 1)[1], False, "", b, conf, rule,
                                         item_tool)
                    for ka, kb in ip.kinds:  # "beef (sirloin or flank)": one kind or the other
                        add_sub(ka, kb, True, "", b, self.LIST_CONF, "recipe.item_kinds", t)
        cur["rid"], cur["contains"] = rid, contains
        # 1a) the rows of an ingredient table: name cell, amount/unit, notes, substitute and
        # required/optional columns
        table_rows = ingredient_table_rows(doc)
        for row in table_rows:
            b = blocks[row.index]
            used.add(row.index)
            note_read = [note_clauses(n) for n in row.notes]
            for k, ip in enumerate(parse_item(row.name)):
                if not ip.name:
                    continue
                opt = ip.optional or row.required is False or (k == 0 and any(o for o, _ in note_read))
                t = add_contains(ip.name, not opt, row.amount or ip.amount, b, self.LIST_CONF, "recipe.table_row", False)
                if not t:
                    continue
                alts = list(ip.alternatives)
                if k == 0:
                    alts += [a for _, al in note_read for a in al] + [Alternative(y, False) for y in row.subs]
                for alt in alts:
                    add_sub(ip.name, alt.raw, alt.symmetric, alt.condition, b, self.LIST_CONF,
                            "recipe.table_alternative", t)
        # 1b) a recipe written as steps alone (no ingredient list): the things of the
        # corpus vocabulary its steps name are its ingredients and tools
        prose = not contains
        if prose:
            for b in blocks:
                if b.kind not in ("item", "paragraph") or not b.text.strip():
                    continue
                for n in step_names(b.text):
                    add_contains(n, True, "", b, self.STEP_CONF, "recipe.step_name", False)
                for h in self.vocab.scan(b.text, min_len=2):
                    surface = b.text[h.start:h.end]
                    add_contains(surface, True, "", b, self.STEP_CONF, "recipe.step_mention", False)
        # 2) every sentence of every block (notes, tips, steps, variations and the
        # list items themselves) read by the cue reader, X anchored to this
        # recipe's own ingredients and tools
        anchors: DictLinker[str] = DictLinker()
        for t in contains.values():
            anchors.add(t.object.split(":", 1)[1], t.object.split(":", 1)[1])
        for n in sorted(surfaces):
            anchors.add(n, n)
        row_names = {r.index: r.name for r in table_rows}
        for i in used:
            if i in para_items and len(para_items[i]) > 1:
                continue  # "Celery stick; optional salt/pepper rim.": a note is about one of its things, not the first
            text = row_names.get(i) or (para_items[i][0] if i in para_items else blocks[i].text)
            first = next((ip.name for ip in parse_item(text) if ip.name), "")
            if first:
                item_names[i] = clean_name(first, "ingredient")
        by_name = {t.object.split(":", 1)[1]: t for t in contains.values()}
        doc_text = "\n".join(b.text for b in blocks)  # a thing the recipe names twice is one it uses
        lists = {i for i, b in enumerate(blocks) if b.kind == "item" and kind_of(b) == "ingredient"}
        lists |= set(row_names)
        lists |= set(para_items)
        if prose:  # steps alone: its list items are where it names things side by side ("取五花肉或猪肩肉")
            lists = {i for i, b in enumerate(blocks) if b.kind == "item"}
            if not lists:  # steps written one to a line, as paragraphs: each line is what a list item is elsewhere
                lists = {i for i, b in enumerate(blocks) if b.kind == "paragraph"}
        idx = {id(b): i for i, b in enumerate(blocks)}
        tools: DictLinker[str] = DictLinker()  # the tools the text names, for a note "(or Y)" after one
        for b in blocks:
            if b.kind in ("paragraph", "item"):
                for surface, name in tool_phrases(b.text):
                    tools.add(surface, name)
        for b in blocks:
            # "Optional garnishes: chopped herbs and toasted seeds" (a note or a paragraph, sentence by
            # sentence): each thing it lists is optional. In a step or a list item only a label that says what
            # the things are ("Optional toppings: …", not "Optional: roll in sugar while hot.")
            if b.kind not in ("paragraph", "item") or has_cjk(b.text):
                continue
            labelled = b.kind == "item" or in_steps(b.path)
            found = [m for m in map(_OPTIONAL_LIST_EN.match, split_sentences(b.text))
                     if m and (not labelled or len(m.group(0)[:m.start("list")].split()) >= 2)]
            if b.kind == "paragraph" and not labelled and not found:
                m = _OPTIONAL_LIST_EN.match(b.text)
                found = [m] if m else []
            for part in (p for m in found for p in line_items(m.group("list"))):
                t = by_name.get(clean_name(part, "ingredient"))
                if t is not None:
                    t.properties["required"] = False
                elif self.known_thing(part, 0.85):
                    add_contains(part, False, "", b, self.LIST_CONF, "recipe.optional_list_label", False)
        for f in read_document(blocks, anchors, focus=lambda i, b: item_names.get(i, ""), lists=lists,
                               explicit=lambda x: bool(self.known_thing(x, 0.9)) or len(_listed_parts(x, surfaces)) > 1, heads=tools,
                               partial=True):
            if (prose and f.kind == "substitute" and f.anchored and f.rule in _SYMMETRIC_RULES | _PAIR_RULES
                    and has_cjk(f.block.text)):
                # a recipe written as steps alone: "先炒肉片或香腸至出油" offers one of its things or
                # another under one verb; the other is the thing that opens the words after "或"
                ys = [o for y in f.ys for o in step_objects(y)]
                hits = anchors.scan(f.phrase.rstrip()) if f.phrase else []
                # only when the thing it anchors to stands right before "或" (not "先炒肥肉片至…或至微焦")
                if ys and hits and hits[-1].end == len(f.phrase.rstrip()):
                    at = f.block.text.find(f.phrase.rstrip())
                    whole = name_before(f.block.text[max(0, at - 24):at + len(f.phrase.rstrip())] if at >= 0 else "")
                    # "炒<modifier><name>或Y": the whole name before "或", not the shorter listed <name> it ends with
                    x = whole if _whole_name(whole, hits[-1].end - hits[-1].start) else f.x
                    f = dataclasses.replace(f, x=x, ys=ys, confidence=max(f.confidence, 0.85))
            if f.kind == "optional" and f.rule in _LIST_RULES:
                # "You can enhance the cake with orange zest, ground nuts, …, or cherries": each named thing
                # the recipe does not list is an optional addition (one it lists gets an extra amount)
                if not in_steps(f.block.path):
                    for part in listed_additions(f.block.text, f.rule):
                        if not anchors.get(clean_name(part, "ingredient")) and self.known_thing(part, max(f.confidence, 0.85)):
                            add_contains(part, False, "", f.block, f.confidence, f"cue.{f.rule}", False)
                continue
            if f.kind == "optional" and f.rule in _VARIATION_RULES:
                # "For much spicier chilie, add … black pepper and … cayenne pepper": what the recipe
                # lists is an extra amount; what it does not list is an optional addition
                for part in compound_parts(f.phrase or f.x):
                    if anchors.scan(part):
                        continue
                    if not in_steps(f.block.path) and self.known_thing(part, 0.85):
                        add_contains(part, False, "", f.block, f.confidence, f"cue.{f.rule}", False)
                continue
            if f.kind == "optional" and not f.anchored and len(optional_parts(f.x)) > 1:
                # "可根据口味添加蜂蜜、炼乳或水果": each is optional
                for part in optional_parts(f.x):
                    t = (by_name.get(part) or by_name.get(self.norm.canonical(part, "ingredient"))
                         or _listed_by_head(by_name, part))
                    if t is not None:
                        t.properties["required"] = False
                    elif (prose or not in_steps(f.block.path) or f.rule in _ADDITION_RULES) and self.known_thing(
                            part, max(f.confidence, 0.85) if prose or f.rule in _ADDITION_RULES else f.confidence,
                            strict=not prose and f.rule not in _ADDITION_RULES):
                        add_contains(part, False, "", f.block, f.confidence, f"cue.{f.rule}", False)
                continue
            if f.kind == "optional" and f.rule in _LISTED_ONLY_RULES and re.search(
                    rf"(?:没有|无|不用|不加|不放){re.escape(simplified(f.phrase or f.x))}", simplified(f.block.text)):
                continue  # "若有 X…。若没有 X，选 Y": the sentence after says what stands in, X is not left out
            if f.kind == "optional":
                t = (by_name.get(f.x) or by_name.get(self.norm.canonical(f.x, "ingredient"))
                     or (_listed_by_head(by_name, f.x) if not f.anchored else None))
                if t is not None and f.rule in _STEP_ADD_RULES and in_steps(f.block.path) and not prose:
                    continue  # "可加入少许橄欖油炒勻" in a step: more of a listed ingredient, not an optional one
                if t is not None and f.confidence >= 0.7:
                    t.properties["required"] = False
                # an addition named outright ("you can add X", "can be thickened more with X") is optional in a
                # step as in unheaded prose or a note: where the method stands does not change what it says
                elif (t is None and not f.anchored and (prose or not in_steps(f.block.path) or f.rule in _ADDITION_RULES
                                                        or f.rule in _STEP_ADD_RULES)
                      and self.known_thing(f.x, max(f.confidence, 0.85) if prose or f.rule in _ADDITION_RULES
                                           else f.confidence, strict=(not prose and f.rule not in _ADDITION_RULES)
                                           or (f.rule in _LISTED_ONLY_RULES and doc_text.count(f.x) < 2))):
                    add_contains(f.x, False, "", f.block, f.confidence, f"cue.{f.rule}", False)  # "可加入椰奶"
                continue
            if f.rule in _SYMMETRIC_RULES and f.block.kind == "item" and is_collective(item_names.get(idx.get(id(f.block), -1), "")):
                continue  # "Assorted meats/fish": one mixture, its parts are not alternatives
            if f.rule in _PAIR_RULES:
                # "into a blender or food processor", "with honey or jam": two things of one kind —
                # two tools, or one of this recipe's things and a thing the corpus lists
                xc = clean_name(f.x, "ingredient")
                for y0 in f.ys:
                    yc = clean_name(y0, "ingredient")
                    lead = tool_phrases(y0.strip()) if has_cjk(yc) and is_tool(xc) and not ends_in_tool_word(yc) else []
                    if lead and y0.strip().startswith(lead[0][0]):
                        # "用小刀或者叉子伸入口子": the object of the one verb is the tool, not the words after it
                        y0 = lead[0][0]
                        yc = clean_name(y0, "ingredient")
                    if (is_tool(xc) and is_tool(yc)) or (
                            (f.anchored or self.vocab.get(xc)) and self.vocab.get(yc) and not is_tool(xc)) or (
                            # a Chinese pair under one verb ("用真空袋或者保鲜膜封好"): two short plausible
                            # names of one kind
                            has_cjk(xc) and has_cjk(yc) and is_tool(xc) == is_tool(yc)
                            and self.known_thing(f.x, 0.85) and self.known_thing(y0, 0.85)):
                        add_sub(f.x, y0, True, f.cond, f.block, f.confidence, f"cue.{f.rule}")
                continue
            # an X the sentence names outright ("没有 X，只能用 Y 代替") may be new to the lists
            parts = _listed_parts(f.x, surfaces) if not f.anchored else []
            if len(parts) > 1:
                xs = parts  # "replace the mozzarella and Parmesan with …": each of them, both listed
            else:
                x = f.x if f.anchored else self.known_thing(f.x, f.confidence, strict=f.confidence < 0.9)
                if not x:
                    continue
                xs = [x]
            cond = "；".join(c for c in (f.cond, f.ratio) if c)
            listed = f.anchored or len(xs) > 1
            # stand-ins coordinated with one that ends in the head word of the recipe's own X ("A HEAD or B HEAD
            # work" for the HEAD it lists) are kinds of that thing: names, though no list of the corpus holds them
            kin = f.kind == "substitute" and f.anchored and len(xs) == 1 and same_head(xs[0], f.ys)
            for x, y0 in ((x, y0) for x in xs for y0 in f.ys):
                tools_both = [p for p in _BOTH_ZH.split(y0) if p.strip()] if has_cjk(y0) else []
                if len(tools_both) > 1 and all(is_tool(clean_name(p, "ingredient")) for p in tools_both):
                    # "可改用平底鑊及焗盤": the tools together stand in (one edge, the whole set in its condition)
                    add_sub(x, " + ".join(p.strip() for p in tools_both), f.rule in _SYMMETRIC_RULES, cond, f.block,
                            min(f.confidence, self.TEXT_CONF + 0.1), f"cue.{f.rule}")
                    continue
                if not has_cjk(y0) and AMOUNT_AGAIN_EN.match(y0):
                    continue  # "(or about 2 bananas)": the amount again
                combo = _measured_compound(y0)
                if combo:
                    # "Replace blueberries with 2 cups pitted sweet cherries and 2 cups pitted sour cherries": both
                    # together, one stand-in (add_sub keeps the whole combination in the condition)
                    add_sub(x, combo, f.rule in _SYMMETRIC_RULES, cond, f.block,
                            min(f.confidence, self.TEXT_CONF + 0.1), f"cue.{f.rule}")
                    continue
                # a kind of X is kept whole, not cut to the corpus name inside it ("A HEAD", not "HEAD")
                # ("a sprig of X" is a measure of X, not a kind: "<qualifier> sprig of X" is no name)
                y = (y0 if kin and _explicit_name(y0) and not has_cjk(y0) and not _OF_PHRASE.search(y0) else ""
                     ) or self.known_thing(y0, f.confidence, long_ok=listed,
                                           tool_ok=f.rule in _X_WRITTEN_RULES)
                if not y:
                    continue
                # "fresh lemon or lime juice": lemon juice, when the corpus knows it
                x = form_completed(x, [Alternative(y, True)], lambda n: bool(self.vocab.get(n)), self.alone,
                                   lambda c, head, f=f: bare_elsewhere(blocks, idx.get(id(f.block), -1), c, head))
                add_sub(x, y, f.rule in _SYMMETRIC_RULES, cond, f.block, min(f.confidence, self.TEXT_CONF + 0.1),
                        f"cue.{f.rule}")
        for group in members.values():
            if _OPEN_LIST.search(group[0][1].text):
                continue  # "各种配菜（A、B、C等皆可）": examples of the umbrella, not options for each other
            group = group[:_UMBRELLA_MEMBERS]
            for i, (a, b, conf, rule) in enumerate(group):
                for c, _, _, _ in group[i + 1:]:
                    add_sub(a, c, True, "", b, conf, f"{rule}.members")
        res.triples.extend(contains.values())
        for _, things in side.values():
            res.triples.extend(things.values())
        res.triples.extend(subs.values())
        return res


_VERB_EDGE = re.compile(rf"(?:{alternation('steps', 'add_verbs')})?")
_UNIT_ZH = re.compile(rf"(?:{alternation('steps', 'step_quantity')})|^(?:{alternation('steps', 'unit_words_zh')})")
_STEP_TAIL = re.compile(rf"(?:{alternation('steps', 'name_tail_verbs_zh')})$")
_METHOD_EDGE = re.compile(rf"(?:{alternation('steps', 'method_chars_zh')}|{alternation('steps', 'name_tail_verbs_zh')})?")


def _whole_name(whole: str, hit_len: int) -> bool:
    """True when ``whole`` (the name before "或" in a step, :func:`name_before`) extends the thing the
    recipe names at its end (``hit_len`` characters) by a modifier of one or two characters (a cut or part word before the name) that is neither a unit nor a
    step word ("<amount>毫升<name>", "<X>煸香<Y>" are not names)."""
    extra = whole[:len(whole) - hit_len]
    return 0 < len(extra) <= 2 and not is_measure(extra) and not _UNIT_ZH.search(extra) and not looks_like_step(whole)


def _listed_by_head(by_name: dict[str, Triple], x: str) -> Triple | None:
    """The one thing of the recipe (``by_name``: listed name → its CONTAINS triple) whose Chinese name
    ends with ``x`` and is longer (a one-character head word → the listed "<modifier><head>"): a sentence names a listed thing by its head.
    ``None`` when ``x`` is not Chinese, or none or several listed names end with it."""
    x = x.strip()
    if not x or not has_cjk(x):
        return None
    sx = simplified(x)
    found = [t for k, t in by_name.items() if len(k) > len(x) and simplified(k).endswith(sx)]
    return found[0] if len(found) == 1 else None


def _names_listed(name: str, listed: set[str]) -> bool:
    """True when ``name`` is one of the ``listed`` cleaned names or a whole
    word group of one ("mozzarella" of "mozzarella cheese")."""
    if not name:
        return False
    rx = re.compile(rf"(?:^|\s){re.escape(name)}(?:\s|$)")
    return any(n == name or rx.search(n) for n in listed)


def _shared_head_parts(x: str, listed: set[str]) -> list[str]:
    """The two names of an English "A or B HEAD" phrase whose sides share the
    head ("light or dark brown sugar" → "light brown sugar", "dark brown
    sugar") when the recipe lists one of them (cleaned
    names in ``listed``, compared as :func:`clean_name` gives them; the other
    is its alternative in the list); else ``[]``."""
    sides = re.split(r"\s+or\s+", x.strip())
    if len(sides) != 2 or not 1 <= len(sides[0].split()) <= 2:
        return []
    right = sides[1].split()
    for k in range(1, len(right)):
        head = " ".join(right[k:])
        pair = [f"{sides[0]} {head}", sides[1]]
        if any(clean_name(p, "ingredient") in listed for p in pair):
            return pair
    return []


def _listed_parts(x: str, listed: set[str]) -> list[str]:
    """The parts of an English compound X ("the mozzarella and Parmesan") when
    each names a thing the recipe lists (:func:`_names_listed`), else ``[]``."""
    if not x or has_cjk(x):
        return []
    shared = _shared_head_parts(x, listed)  # "light or dark brown sugar": both sugars
    if shared:
        return shared
    parts = compound_parts(x)
    if len(parts) < 2 or not all(_names_listed(clean_name(p, "ingredient"), listed) for p in parts):
        return []
    out = []
    for p in parts:  # the listed name a short part stands for when only one holds it ("mozzarella cheese")
        c = clean_name(p, "ingredient")
        hold = [n for n in listed if _names_listed(c, {n})]
        out.append(hold[0] if len(hold) == 1 else p)
    return out


def _measured_compound(y: str) -> str:
    """An English stand-in made of two or more measured parts ("2 cups pitted sweet
    cherries and 2 cups pitted sour cherries") as ``"A + B"`` (the names,
    amounts left out), each part a plausible name of at most four words; ``""``
    for any other phrase ("milk and lemon juice" is read by the vocabulary)."""
    if has_cjk(y):
        return ""
    parts = [p.strip() for p in re.split(r"\s+(?:and|plus|\+)\s+", y) if p.strip()]
    if len(parts) < 2:
        return ""
    names = []
    for p in parts:
        m = _EN_LEAD_AMOUNT.match(p)
        n = m.group("name").strip() if m else ""
        c = clean_name(n, "ingredient") if n else ""
        if not c or not plausible_name(c) or len(c.split()) > 4 or is_method(c):
            return ""
        names.append(n)
    return " + ".join(names)


def _explicit_name(x: str) -> bool:
    """An ingredient or tool named explicitly by a whole construction (not one
    of the recipe's list): a short plausible name, not a step or a measure."""
    c = clean_name(x, "ingredient")
    if not c or not plausible_name(c) or looks_like_step(c) or is_measure(c) or is_method(c) or PROSE_VERB.search(simplified(c)):
        return False
    return len(c) <= 8 if has_cjk(c) else len(c.split()) <= 4


def _general_of(x: str, y: str) -> bool:
    """True when English cleaned name ``y`` is ``x`` without its leading words
    ("pea" of "frozen pea", "oat milk" of "vanilla oat milk"): a stand-in
    named so has lost what tells it from X (its
    form or kind was cut off with the amount or a modifier), and "X can be
    replaced by X in general" states nothing."""
    if has_cjk(x) or has_cjk(y):
        return False
    xw, yw = x.casefold().split(), y.casefold().split()
    return 0 < len(yw) < len(xw) and xw[-len(yw):] == yw


def _cut_form(x: str, y: str) -> bool:
    """True when one name is the other plus a cut/form suffix (葱/葱段, 姜/姜丝)."""
    a, b = (x, y) if len(x) <= len(y) else (y, x)
    return bool(a) and b.startswith(a) and bool(_CUT_SUFFIX.match(b[len(a):]))
