"""Facts from tabular records (CSV/TSV rows, JSON objects, JSON Lines).

Columns are recognised by the *meaning of their header* (English and
Chinese, case-insensitive; for JSON the key, nested keys by their last part
first), never by file name. :func:`classify_column` maps a header to one of:

========== ==================================================================
``item``   ingredient, item, original, from, food, product, "instead of",
           "substitute for", "replaces"; 原料 食材 材料 配料 用料 调料 被替代
``sub``    substitute, substitution, replacement, alternative, instead,
           swap, to, use (alone), backup, stand-in, deputy, fallback; 替代 代替 替换
           备选 替补 代用 备用
``recipe`` recipe, dish, meal; 菜 菜名 菜品 菜谱 食谱
``role``   role, position, participant; 角色 岗位 职位 职务
``resp``   responsibility, task, duty, job, accountability; 职责 任务 责任 负责
``amount`` amount, quantity, qty, measure, weight; 用量 分量 份量 数量 重量
``unit``   unit; 单位
``req``    required, optional, mandatory, essential; 必需 必须 必备 可选
``cond``   when, condition, if, situation, context, use case, occasion;
           条件 情况 场景 时机 适用 用途
``notes``  ratio, notes, comment, remark, tip, how, proportion; 备注 说明 比例
           注意 用法 提示
========== ==================================================================

Rules (:class:`TableExtractor`):

* **Substitution table** – an ``item`` (or ``role``) column plus one or more
  ``sub`` columns: ``SUBSTITUTES`` item → each alternative (``symmetric``
  False). A cell with several alternatives (``"butter; margarine"``,
  ``"黄油、猪油"``, ``"A or B"``, a JSON list) yields one edge each. A
  ``recipe`` column gives ``context`` (the recipe entity id); ``cond`` and
  ``notes`` columns (and a parenthesised note after an alternative) are kept
  in ``condition``. A ``role`` item column makes both sides roles.
* **Recipe table** – a ``recipe`` column plus an ``item`` column (and no
  ``sub`` column unless an ``amount``/``req`` column is present):
  ``CONTAINS`` recipe → ingredient/tool with ``amount`` (+ ``unit``),
  ``required`` (from a ``req`` column: yes/true/1/必需 vs no/optional/可选;
  default True unless the item says "optional") and ``order`` (row order
  within the recipe). Item cells may list several ingredients and use the
  list-item phrasings of :func:`~.items.parse_item`
  (``"X (or Y)"`` also yields SUBSTITUTES in that recipe).
* **Role table** – a ``role`` column: a ``role`` entity per row; each
  ``resp`` cell entry gives ``RELATED`` role → ``concept``
  (``predicate="responsible_for"``).

Every fact's provenance line is the 1-based source line of its row.
"""

from __future__ import annotations

import re

from ..knowledge.records import Entity, Provenance, Triple, entity_id
from ..knowledge.text import detect_language, has_cjk
from .blocks import DocResult, split_top
from .cues import alternation, lexicon, words
from .document import ParsedDocument, Record
from .items import is_tool, parse_item
from .normalize import Normalizer, clean_name
from .roles import split_role_name


_W = r"(?<![A-Za-z])(?:%s)(?![A-Za-z])"
# (kind, header pattern) in the order tried: English words on word boundaries, Chinese anywhere
_RULES: list[tuple[str, re.Pattern]] = [
    (k["kind"], re.compile(_W % "|".join(k["en"]) + "|" + "|".join(k["zh"]), re.I)) for k in lexicon("columns")["kinds"]
]
_EXACT: dict[str, str] = lexicon("columns")["exact"]


def classify_column(header: str) -> str:
    """Meaning of a column ``header``: one of ``item``, ``sub``, ``recipe``,
    ``role``, ``resp``, ``amount``, ``unit``, ``req``, ``cond``, ``notes`` or
    ``""`` (see the module docstring for the words each follows). A dotted
    JSON key path is classified by its last part first, then as a whole."""
    h = header.strip()
    parts = [p for p in re.split(r"[.\[\]]+", h) if p]
    for cand in ([parts[-1], h] if len(parts) > 1 else [h]):
        c = re.sub(r"[_\-]+", " ", cand).strip().lower()
        c = re.sub(r"\s+", " ", c)
        if c in _EXACT:
            return _EXACT[c]
        for kind, rx in _RULES:
            if rx.search(c):
                return kind
    return ""


_SEPARATORS = r"\s*[;；、|\n]\s*"
_ALT_SPLIT = re.compile("|".join([_SEPARATORS, *words("columns", "or_split")]) + r"|(?<=[^\d\s/])\s*/\s*(?=[^\d\s/])", re.I)
_LIST_SPLIT = re.compile(_SEPARATORS)
_PAREN_NOTE = re.compile(r"\s*[（(]([^（）()]*)[）)]\s*")
_TRUE = re.compile(rf"^(?:{alternation('columns', 'true_values')})$", re.I)
_FALSE = re.compile(rf"^(?:{alternation('columns', 'false_values')})$", re.I)
_OPTIONAL_VALUES = frozenset(words("columns", "optional_values"))
_OPTIONAL_HEADER = re.compile(alternation("columns", "optional_header"), re.I)


def _values(v: str | list[str]) -> list[str]:
    return [x for x in (v if isinstance(v, list) else [v]) if x and x.strip()]


def split_alternatives(value: str | list[str]) -> list[str]:
    """Alternatives in one cell: a JSON list gives its elements; a string is
    split at ``;`` ``；`` ``、`` ``|`` newlines, ``,`` outside parentheses,
    `` or ``, 或/或者/或是 and ``/`` between words (not in ``1/2``)."""
    out: list[str] = []
    for v in _values(value):
        for part in split_top(v, ",，"):
            out.extend(p.strip() for p in _ALT_SPLIT.split(part) if p and p.strip())
    return out


def _plausible(name: str) -> bool:
    """A cell part short enough to be a name (≤ 20 CJK chars / ≤ 8 words)."""
    if not name:
        return False
    if has_cjk(name):
        return len(name) <= 20
    return len(name.split()) <= 8 and len(name) <= 80


def _required(v: str, header_is_optional: bool) -> bool | None:
    v = v.strip()
    if not v:
        return None
    if _TRUE.match(v):
        return not header_is_optional
    if _FALSE.match(v):
        return header_is_optional if v.lower() not in _OPTIONAL_VALUES else False
    return None


def required_value(header: str, value: str) -> bool | None:
    """What a cell of a required/optional column says: ``True`` (required),
    ``False`` (optional) or ``None`` (neither), by the words of
    ``columns.yaml`` (``true_values``, ``false_values``, ``optional_header``):
    "optional: true" → False, "required: no" → False, "必需: 是" → True."""
    return _required(value, bool(_OPTIONAL_HEADER.search(header)))


class TableExtractor:
    """Turn the records of a tabular :class:`ParsedDocument` into facts (see
    the module docstring for the rules)."""

    CONF = 0.9

    def __init__(self, norm: Normalizer) -> None:
        self.norm = norm

    def extract(self, doc: ParsedDocument) -> DocResult:
        """Facts of all tables of ``doc``: a ``document`` entity, plus the
        substitution / recipe / role rules per table. Never raises on odd
        cell content; tables with no recognised columns yield only the
        document entity (their rows are still chunked)."""
        rel = doc.rel
        did = entity_id("document", rel)
        res = DocResult(did)
        res.entities.append(Entity(did, doc.title, "document", [], doc.language, rel))
        seen: set[tuple] = set()
        for table in doc.tables:
            kinds = {c: classify_column(c) for c in table.columns}
            cols: dict[str, list[str]] = {}
            for c in table.columns:
                if kinds[c]:
                    cols.setdefault(kinds[c], []).append(c)
            self._table(doc, table, cols, res, seen)
        return res

    # ------------------------------------------------------------------ helpers
    def _ent(self, res: DocResult, surface: str, type_: str, line: int, rel: str) -> str:
        surface = re.sub(r"\s+", " ", surface).strip()
        if type_ == "role":
            name, aliases = split_role_name(surface)
            if not name or not name[:1].isalpha():
                return ""
            name = name[0].upper() + name[1:]
            canon = self.norm.canonical(name, "role", doc=rel, line=line)
            if not canon:
                return ""
            al = [a for a in [name, *aliases] if a != canon]
            res.entities.append(Entity(entity_id("role", canon), canon, "role", al, "zh" if has_cjk(canon) else "en"))
            return entity_id("role", canon)
        canon = self.norm.canonical(surface, type_, doc=rel, line=line)
        if not canon:
            return ""
        al = [surface] if surface != canon else []
        res.entities.append(Entity(entity_id(type_, canon), canon, type_, al, "zh" if has_cjk(canon) else "en"))
        return entity_id(type_, canon)

    def _table(self, doc: ParsedDocument, table, cols: dict[str, list[str]], res: DocResult, seen: set) -> None:
        rel = doc.rel
        section = table.section
        item_col = (cols.get("item") or [None])[0]
        role_col = (cols.get("role") or [None])[0]
        recipe_col = (cols.get("recipe") or [None])[0]
        sub_cols = cols.get("sub", [])
        subject_col, subject_type = (item_col, "") if item_col else (role_col, "role")
        do_subs = bool(subject_col and sub_cols)
        do_contains = bool(recipe_col and item_col and (not sub_cols or cols.get("amount") or cols.get("req")))
        do_roles = bool(role_col)
        orders: dict[str, int] = {}
        for rec in table.records:
            row = dict(rec.fields)
            line = rec.line

            def prov(rule: str) -> Provenance:
                return Provenance(rel, section, line, rule, self.CONF)

            def first(kind: str) -> str:
                for c in cols.get(kind, []):
                    v = _values(row.get(c, ""))
                    if v:
                        return "; ".join(v)
                return ""

            recipe = first("recipe").strip() if recipe_col else ""
            rid = entity_id("recipe", recipe) if recipe and _plausible(recipe) else ""
            cond_parts = [first("cond"), first("notes")]
            if do_contains and rid:
                self._contains(doc, res, row, rec, cols, rid, recipe, orders, seen, prov)
            if do_subs:
                subjects = split_alternatives(row.get(subject_col, "")) if subject_type != "role" else \
                    _LIST_SPLIT.split(" ".join(_values(row.get(subject_col, ""))))
                for x in subjects:
                    x_note = ""
                    m = _PAREN_NOTE.search(x)
                    if m and subject_type != "role":
                        x_note = m.group(1).strip()
                    if not _plausible(clean_name(x, "ingredient") if subject_type != "role" else x):
                        continue
                    xtype = subject_type or ("tool" if is_tool(clean_name(x, "ingredient")) else "ingredient")
                    xid = self._ent(res, x, xtype, line, rel)
                    if not xid:
                        continue
                    for sc in sub_cols:
                        for y in split_alternatives(row.get(sc, "")):
                            note = ""
                            m = _PAREN_NOTE.search(y)
                            if m:
                                note = m.group(1).strip()
                            ysurf = _PAREN_NOTE.sub(" ", y).strip() if xtype == "role" else y
                            if not _plausible(clean_name(ysurf, "ingredient") if xtype != "role" else ysurf):
                                continue
                            yid = self._ent(res, ysurf, xtype, line, rel)
                            if not yid or yid == xid:
                                continue
                            key = ("S", xid, yid, rid, line)
                            if key in seen:
                                continue
                            seen.add(key)
                            cond = "; ".join(dict.fromkeys(p for p in [*cond_parts, x_note, note] if p))
                            res.triples.append(Triple(xid, "SUBSTITUTES", yid,
                                                      {"context": rid, "condition": cond, "symmetric": False},
                                                      prov("table.substitute")))
            if do_roles:
                for r in _LIST_SPLIT.split(" ".join(_values(row.get(role_col, "")))):
                    if not r or not _plausible(r):
                        continue
                    roid = self._ent(res, r, "role", line, rel)
                    if not roid:
                        continue
                    for rc in cols.get("resp", []):
                        for task in _LIST_SPLIT.split("\n".join(_values(row.get(rc, "")))):
                            task = re.sub(r"\s+", " ", task).strip(" .;")
                            if not task:
                                continue
                            name = task if len(task) <= 200 else task[:197] + "..."
                            cid = entity_id("concept", name)
                            res.entities.append(Entity(cid, name, "concept", [], detect_language(name) or doc.language))
                            key = ("R", roid, cid, line)
                            if key in seen:
                                continue
                            seen.add(key)
                            res.triples.append(Triple(roid, "RELATED", cid, {"predicate": "responsible_for"},
                                                      prov("table.role_responsibility")))

    def _contains(self, doc, res, row, rec, cols, rid, recipe, orders, seen, prov) -> None:
        rel = doc.rel
        line = rec.line
        res.entities.append(Entity(rid, recipe, "recipe", [], detect_language(recipe) or doc.language, rel))
        amount = ""
        for c in cols.get("amount", []):
            v = "; ".join(_values(row.get(c, "")))
            if v:
                amount = v
                break
        unit = "; ".join(_values(row.get((cols.get("unit") or [""])[0], ""))) if cols.get("unit") else ""
        if amount and unit and unit not in amount:
            amount = f"{amount} {unit}"
        req: bool | None = None
        for c in cols.get("req", []):
            v = "; ".join(_values(row.get(c, "")))
            req = _required(v, bool(_OPTIONAL_HEADER.search(c)))
            if req is not None:
                break
        item_col = cols["item"][0]
        cell = row.get(item_col, "")
        parts = _values(cell) if isinstance(cell, list) else split_top(cell, ";；、|\n")
        for part in parts:
            for ip in parse_item(part):
                c = clean_name(ip.name, "ingredient")
                if not c or not _plausible(c):
                    continue
                type_ = "tool" if is_tool(c) else "ingredient"
                eid = self._ent(res, ip.name, type_, line, rel)
                if not eid:
                    continue
                key = ("C", rid, eid)
                if key not in seen:
                    seen.add(key)
                    orders[rid] = orders.get(rid, 0) + 1
                    required = req if req is not None else not ip.optional
                    res.triples.append(Triple(rid, "CONTAINS", eid, {
                        "required": required, "amount": amount or ip.amount, "order": orders[rid]},
                        prov("table.recipe_ingredient")))
                for alt in ip.alternatives:
                    yc = clean_name(alt.raw, "ingredient")
                    if not yc or not _plausible(yc):
                        continue
                    yid = self._ent(res, alt.raw, type_, line, rel)
                    skey = ("S", eid, yid, rid, line)
                    if not yid or yid == eid or skey in seen:
                        continue
                    seen.add(skey)
                    res.triples.append(Triple(eid, "SUBSTITUTES", yid, {
                        "context": rid, "condition": alt.condition, "symmetric": alt.symmetric},
                        prov("table.item_alternative")))


__all__ = ["TableExtractor", "classify_column", "split_alternatives", "Record"]
