"""Intent ``shared``: the ingredients two recipes have in common."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..compose import join, t
from ..query import CTX_TYPES
from .base import Context, Draft, Intent, recall_slot, register, remembered


@register
class Shared(Intent):
    """Slots: two recipes; with one named, the remembered recipe is the other;
    with none ("这两款", "compare them", "both"), the thread's last two."""

    name = "shared"
    needs = ("recipe",)

    def read(self, u, match, body, linker) -> None:
        """A pattern naming no recipe refers back to the last two ("这两款有哪些共同的原料？")."""
        super().read(u, match, body, linker)
        if not any(v for k, v in match.groupdict().items() if k in ("ctx", "ctx2")):
            u.follow_up = True

    def recall(self, q, u, state) -> None:
        """One recipe named: the remembered one (if another) comes first. None
        named: the last two recipes (or documents) the thread named, oldest first."""
        if not q.ctx:
            for e in state.recent(CTX_TYPES, 2):
                q.ctx.append(remembered(e))
                q.from_memory.append(e.name)
            return
        prev = state.slots.get("ctx")
        if len(q.ctx) == 1 and prev and prev.id != q.ctx[0].id:
            recall_slot(q, state, "ctx", q.ctx)
            q.ctx.insert(0, q.ctx.pop())
        elif len(q.ctx) == 1:
            other = [e for e in state.recent(CTX_TYPES, 3) if e.id != q.ctx[0].id]
            if other:
                q.ctx.insert(0, remembered(other[-1]))
                q.from_memory.append(other[-1].name)

    def retrieve(self, c: Context) -> Draft | None:
        """Pairs of CONTAINS edges to the same ingredient, cited from both recipes."""
        a, b = (c.q.ctx + [None, None])[:2]
        if not (a and a.id and b and b.id):
            return None
        pairs = R.shared(c.graph, a.id, b.id)
        pairs += self._same_base(c, a.id, b.id, {p[0].object_id for p in pairs})
        return Draft(facts=[f for p in pairs for f in p], parts={"pairs": pairs})

    @staticmethod
    def _same_base(c: Context, a_id: str, b_id: str, done: set[str]) -> list[tuple[Fact, Fact]]:
        """Pairs of CONTAINS edges of ``a_id`` and ``b_id`` to two ingredients of one base name
        (大X / X, X片 / X: :func:`~threadgraph.knowledge.retrieval.same_base`), each of ``a_id``'s
        ingredients (not already in ``done``) paired once, in its order."""
        mine = [f for f in c.contains(a_id) if f.object_id not in done and f.object_id.startswith("ingredient:")]
        theirs = [f for f in c.contains(b_id) if f.object_id not in done and f.object_id.startswith("ingredient:")]
        names = {s for n in c.kb.names if n.type == "ingredient" for s in (n.name, n.surface)}
        out, used = [], set()
        for fa in mine:
            fb = next((f for f in theirs if f.object_id not in used and R.same_base(fa.object, f.object, names.__contains__)),
                      None)
            if fb is not None:
                used.add(fb.object_id)
                out.append((fa, fb))
        return out

    def compose(self, c: Context, d: Draft) -> None:
        """The shared ingredient names."""
        d.text = shared_text(c.lang, c.q.ctx[0].name, c.q.ctx[1].name, d.parts["pairs"])


def shared_text(lang: str, a: str, b: str, pairs: list[tuple[Fact, Fact]]) -> str:
    """Ingredients two recipes share; a pair of two names of one base thing reads "X / 大X"."""
    names = list(dict.fromkeys(p[0].object if p[0].object == p[1].object else f"{p[0].object} / {p[1].object}"
                               for p in pairs))
    return t(lang, f"{a}和{b}共同的原料：{join(lang, names)}。", f"{a} and {b} share: {join(lang, names)}.")
