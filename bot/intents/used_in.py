"""Intent ``used_in``: which recipes use an ingredient (or one of its variants)."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..compose import join, t
from .base import Context, Draft, Intent, register

#: Recipes listed in one answer.
LISTED = 20


@register
class UsedIn(Intent):
    """Slot: the item."""

    name = "used_in"
    needs = ("ingredient",)

    def retrieve(self, c: Context) -> Draft | None:
        """Up to :data:`LISTED` recipes that CONTAIN the item or a variant (one more tells "and more")."""
        if not (c.item and c.item.id):
            return None
        facts = R.used_in(c.graph, c.item_ids, limit=LISTED + 1)
        if c.screen and not (set(c.item_ids) & set(c.screen.forbidden)):
            # the thread's constraints leave out recipes that break them (asking about a
            # forbidden item itself still lists its recipes: the answer flags the constraint)
            facts = c.screen.keep_recipes(R.used_in(c.graph, c.item_ids, limit=500), lambda f: f.subject_id)[:LISTED + 1]
        return Draft(facts=facts[:LISTED], parts={"more": len(facts) > LISTED})

    def compose(self, c: Context, d: Draft) -> None:
        """The recipe names."""
        d.text = used_in_text(c.lang, c.item.name, d.facts, d.parts["more"])


def used_in_text(lang: str, item: str, facts: list[Fact], more: bool) -> str:
    """List recipes that use ``item`` (``more``: the list is cut)."""
    names = list(dict.fromkeys(f.subject for f in facts))
    tail = t(lang, "等" if more else "", " and more" if more else "")
    return t(lang, f"用到{item}的菜：{join(lang, names)}{tail}。", f"Recipes that use {item}: {join(lang, names)}{tail}.")
