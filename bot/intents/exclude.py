"""Intent ``exclude``: recipes without an ingredient (and, optionally, with another one)."""

from __future__ import annotations

import re

from ...knowledge import categories
from ...knowledge import retrieval as R
from ..compose import join, t
from ..constraints import category_index
from ..linker import Mention
from .base import Context, Draft, Intent, named_unknown_item, recall_slot, register

#: Recipe names listed when no ingredient must be included.
LISTED = 12


@register
class Exclude(Intent):
    """Slots: the excluded item (main) and an item to include."""

    name = "exclude"
    needs = ("ingredient",)

    @property
    def fills_item(self) -> bool:
        """The main slot is the excluded item, not ``items``."""
        return False

    def refine(self, q, u) -> None:
        """An excluded word the KB has no entity for but the category table
        knows ("海鲜", "dairy") is a category mention (``type`` ``category``).
        Nothing marked excluded but a negated "use" verb (``negated_use``):
        the named items are the excluded ones ("which recipes don't need flour?")."""
        rx = (self.data.get("negated_use") or {}).get("zh" if q.language == "zh" else "en")
        if not q.excluded and q.items and rx and re.search(rx, q.text, re.I):
            q.excluded, q.items = q.items, []
        for m in list(q.unknown):
            keys = categories.labelled(m.surface or m.name) or categories.labelled(categories.bare_label(m.surface or m.name))
            if keys:
                q.unknown.remove(m)
                q.excluded.append(Mention(m.surface, m.surface, "category", f"category:{keys[0]}", m.start, "category"))
        for i, m in enumerate(q.excluded):
            # a category label the linker only matched as the end of one longer ingredient name, or by
            # spelling: the category, not that one thing
            keys = categories.labelled(m.surface) if m.method in ("contained", "fuzzy") else []
            if keys:
                q.excluded[i] = Mention(m.surface, m.surface, "category", f"category:{keys[0]}", m.start, "category")

    def recall(self, q, u, state) -> None:
        """Nothing excluded named: the remembered excluded (or asked) item ("dishes without it")."""
        super().recall(q, u, state)
        if not q.excluded and not named_unknown_item(q, u):
            slot = "excluded" if state.slots.get("excluded") else "item"
            recall_slot(q, state, slot, q.excluded)

    def excluded_ids(self, c: Context) -> list[str]:
        """Ids to exclude: the excluded items with their variants, every
        member of a category an excluded word names ("肉" → 猪肉馅, 牛肉, 鸡腿…;
        knowledge/lexicon/categories.yaml) and what the thread's constraints forbid."""
        named = [m for m in c.q.excluded if m.id and m.type != "category"]
        ids = c.expand_items(named, None)
        idx = category_index(c.kb)
        for m in c.q.excluded:
            keys = [m.id.split(":", 1)[1]] if m.type == "category" and m.id else categories.labelled(m.name)
            for k in keys:
                ids += sorted(idx.ids(k) - set(ids))
        forbidden = c.screen.forbidden_ids()
        if forbidden:
            c.screen.note_applied(c.screen.constraints)
        return list(dict.fromkeys(ids + forbidden))

    def retrieve(self, c: Context) -> Draft | None:
        """Recipes that CONTAIN none of :meth:`excluded_ids` (nor, under the
        thread's constraints, need a ruled-out tool), of the asked kind: with
        an included item, its CONTAINS edges; otherwise the count, the first
        names and each listed recipe's first ingredient edge."""
        q = c.q
        if not (q.excluded and q.excluded[0].id):
            return None
        excl_ids = self.excluded_ids(c)
        blocked = c.screen.blocked_recipes()
        inc_ids = c.item_ids if c.item and c.item.id else None
        if inc_ids:
            _total, inc_facts = R.recipes_without(c.graph, excl_ids, inc_ids, limit=10_000)
            scoped = c.screen.in_scope(f.subject_id for f in inc_facts)
            inc_facts = [f for f in inc_facts if f.subject_id in scoped and f.subject_id not in blocked]
            names = list(dict.fromkeys(f.subject for f in inc_facts))
            return Draft(facts=inc_facts[:15] if names else [], parts={"names": names, "total": len(names)})
        rows = R.recipe_names_without(c.graph, excl_ids, limit=10_000)
        scoped = c.screen.in_scope(r["id"] for r in rows)
        rows = [r for r in rows if r["id"] in scoped and r["id"] not in blocked]
        facts = [f for r in rows[:LISTED] for f in c.contains(r["id"])[:1]]
        return Draft(facts=facts, parts={"names": [r["name"] for r in rows[:LISTED]], "total": len(rows)})

    def compose(self, c: Context, d: Draft) -> None:
        """How many recipes, and which."""
        include = c.item.name if c.item and c.item.id else None
        kinds = [categories.get(k).label(c.lang) for k in c.screen.scope]
        d.text = exclude_text(c.lang, join(c.lang, [m.name for m in c.q.excluded]), d.parts["names"], d.parts["total"],
                              include, kinds)


def exclude_text(lang: str, item: str, names: list[str], total: int, include: str | None = None,
                 kinds: list[str] | None = None) -> str:
    """Recipes without ``item`` (optionally containing ``include``; of the
    recipe ``kinds`` the question named, e.g. ["甜点"])."""
    dish = t(lang, "、".join(kinds), "/".join(kinds)) if kinds else t(lang, "菜", "recipes")
    if include:
        return t(lang, f"用{include}但不用{item}的{dish}（共 {total} 道）：{join(lang, names)}。",
                 f"{dish.capitalize()} with {include} but without {item} ({total}): {join(lang, names)}.")
    return t(lang, f"不用{item}的{dish}共有 {total} 道，例如：{join(lang, names)}。",
             f"{total} {dish} do not use {item}, for example: {join(lang, names)}.")
