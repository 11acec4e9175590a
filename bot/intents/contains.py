"""Intent ``contains``: a recipe's ingredients (required / optional, with amounts) and tools."""

from __future__ import annotations

from ...knowledge.facts import Fact
from ..compose import join, t
from .base import Context, Draft, Intent, register


@register
class Contains(Intent):
    """Slot: the recipe."""

    name = "contains"
    needs = ("recipe",)

    def retrieve(self, c: Context) -> Draft | None:
        """The recipe's CONTAINS edges in source order."""
        if not (c.ctx and c.ctx.id):
            return None
        return Draft(facts=c.contains(c.ctx.id))

    def compose(self, c: Context, d: Draft) -> None:
        """The ingredient list, then "how is it made?" as a follow-up."""
        d.text = contains_text(c.lang, c.ctx.name, d.facts, c.written_names(d.facts))
        d.follow_ups = [t(c.lang, f"{c.ctx.name}怎么做？", f"What are the steps for {c.ctx.name}?")]


def contains_text(lang: str, recipe: str, facts: list[Fact], written: dict[str, str] | None = None) -> str:
    """List a recipe's ingredients (required / optional, with amounts) and tools, each named as
    the recipe writes it when ``written`` (object id → name, see ``Context.written_names``) says so."""
    written = written or {}

    def name(f: Fact) -> str:
        return written.get(f.object_id, f.object)

    def fmt(f: Fact) -> str:
        amt = f.properties.get("amount")
        return f"{name(f)} {amt}" if amt else name(f)

    ingr = [f for f in facts if f.object_type != "tool"]
    tools = [f for f in facts if f.object_type == "tool"]
    req = [fmt(f) for f in ingr if f.properties.get("required", True)]
    opt = [fmt(f) for f in ingr if not f.properties.get("required", True)]
    lines = [t(lang, f"{recipe}需要：{join(lang, req)}。", f"{recipe} needs: {join(lang, req)}.")] if req else []
    if opt:
        lines.append(t(lang, f"可选：{join(lang, opt)}。", f"Optional: {join(lang, opt)}."))
    if tools:
        lines.append(t(lang, f"工具：{join(lang, [name(f) for f in tools])}。", f"Tools: {join(lang, [name(f) for f in tools])}."))
    return "\n".join(lines)
