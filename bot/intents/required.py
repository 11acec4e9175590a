"""Intent ``required``: whether an ingredient is required or optional in a recipe."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..compose import t
from .base import Context, Draft, Intent, register

#: Ingredients cited when the asked one is not in the recipe's list.
LISTED = 12


@register
class Required(Intent):
    """Slots: the item (main) and the recipe."""

    name = "required"
    needs = ("ingredient", "recipe")

    def retrieve(self, c: Context) -> Draft | None:
        """The recipe's CONTAINS edge to the item (or a variant); without one,
        the recipe's ingredient list as the evidence that it is not there."""
        ctx, item = c.ctx, c.item
        if not (ctx and ctx.id and item and item.id):
            return None
        edge = R.contains_edge(c.graph, ctx.id, c.item_ids)
        if edge:
            return Draft(facts=edge, parts={"listed": True})
        return Draft(facts=R.contains(c.graph, ctx.id)[:LISTED], parts={"listed": False})

    def compose(self, c: Context, d: Draft) -> None:
        """Yes / optional with the amount, or "not in the list"."""
        ctx, item, lang = c.ctx, c.item, c.lang
        if d.parts["listed"]:
            d.text = required_text(lang, ctx.name, item.name, d.facts)
            d.follow_ups = [t(lang, f"{ctx.name}没有{item.name}用什么代替？", f"What can replace {item.name} in {ctx.name}?")]
        else:
            d.text = t(lang, f"{ctx.name}的原料表里没有{item.name}。", f"{item.name} is not in the ingredient list of {ctx.name}.")


def required_text(lang: str, recipe: str, item: str, facts: list[Fact]) -> str:
    """Whether ``item`` is required in ``recipe`` (from its first CONTAINS fact)."""
    f = facts[0]
    amt = f.properties.get("amount")
    if f.properties.get("required", True):
        return t(lang, f"是的，{f.object}是{recipe}的必需原料" + (f"（{amt}）" if amt else "") + "。",
                 f"Yes: {f.object} is required in {recipe}" + (f" ({amt})" if amt else "") + ".")
    return t(lang, f"不一定：{f.object}在{recipe}里是可选的" + (f"（{amt}）" if amt else "") + "。",
             f"No: {f.object} is optional in {recipe}" + (f" ({amt})" if amt else "") + ".")
