"""Intent ``exclude``: recipes without an ingredient (and, optionally, with another one)."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ..compose import join, t
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

    def recall(self, q, u, state) -> None:
        """Nothing excluded named: the remembered excluded (or asked) item ("dishes without it")."""
        super().recall(q, u, state)
        if not q.excluded and not named_unknown_item(q, u):
            slot = "excluded" if state.slots.get("excluded") else "item"
            recall_slot(q, state, slot, q.excluded)

    def retrieve(self, c: Context) -> Draft | None:
        """Recipes that CONTAIN none of the excluded item's variants: with an
        included item, its CONTAINS edges; otherwise the count, the first
        names and each listed recipe's first ingredient edge."""
        q = c.q
        if not (q.excluded and q.excluded[0].id):
            return None
        excl_ids = c.expand_items(q.excluded, None)
        inc_ids = c.item_ids if c.item and c.item.id else None
        total, inc_facts = R.recipes_without(c.graph, excl_ids, inc_ids)
        if inc_ids:
            names = list(dict.fromkeys(f.subject for f in inc_facts))
            return Draft(facts=inc_facts if names else [], parts={"names": names, "total": total})
        rows = R.recipe_names_without(c.graph, excl_ids, limit=LISTED)
        facts = [f for r in rows for f in R.contains(c.graph, r["id"], limit=1)]
        return Draft(facts=facts, parts={"names": [r["name"] for r in rows], "total": total})

    def compose(self, c: Context, d: Draft) -> None:
        """How many recipes, and which."""
        include = c.item.name if c.item and c.item.id else None
        d.text = exclude_text(c.lang, c.q.excluded[0].name, d.parts["names"], d.parts["total"], include)


def exclude_text(lang: str, item: str, names: list[str], total: int, include: str | None = None) -> str:
    """Recipes without ``item`` (optionally containing ``include``)."""
    if include:
        return t(lang, f"用{include}但不用{item}的菜（共 {total} 道）：{join(lang, names)}。",
                 f"Recipes with {include} but without {item} ({total}): {join(lang, names)}.")
    return t(lang, f"不用{item}的菜共有 {total} 道，例如：{join(lang, names)}。",
             f"{total} recipes do not use {item}, for example: {join(lang, names)}.")
