"""Intent ``shared``: the ingredients two recipes have in common."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..compose import join, t
from .base import Context, Draft, Intent, recall_slot, register


@register
class Shared(Intent):
    """Slots: two recipes; with one named, the remembered recipe is the other."""

    name = "shared"
    needs = ("recipe",)

    def recall(self, q, u, state) -> None:
        """One recipe named: the remembered one (if another) comes first."""
        prev = state.slots.get("ctx")
        if len(q.ctx) == 1 and prev and prev.id != q.ctx[0].id:
            recall_slot(q, state, "ctx", q.ctx)
            q.ctx.insert(0, q.ctx.pop())

    def retrieve(self, c: Context) -> Draft | None:
        """Pairs of CONTAINS edges to the same ingredient, cited from both recipes."""
        a, b = (c.q.ctx + [None, None])[:2]
        if not (a and a.id and b and b.id):
            return None
        pairs = R.shared(c.graph, a.id, b.id)
        return Draft(facts=[f for p in pairs for f in p], parts={"pairs": pairs})

    def compose(self, c: Context, d: Draft) -> None:
        """The shared ingredient names."""
        d.text = shared_text(c.lang, c.q.ctx[0].name, c.q.ctx[1].name, d.parts["pairs"])


def shared_text(lang: str, a: str, b: str, pairs: list[tuple[Fact, Fact]]) -> str:
    """Ingredients two recipes share."""
    names = list(dict.fromkeys(p[0].object for p in pairs))
    return t(lang, f"{a}和{b}共同的原料：{join(lang, names)}。", f"{a} and {b} share: {join(lang, names)}.")
