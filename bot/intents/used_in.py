"""Intent ``used_in``: which recipes use an ingredient (or one of its variants)."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..compose import fit_names, join, more_text, t
from ..linker import Mention
from .base import Context, Draft, Intent, register

#: Recipes counted at most (the answer names those that fit and says how many more).
COUNTED = 500
#: Characters the listed recipe names may take in the answer.
LIST_CHARS = 360
#: Recipe names listed at most.
LISTED = 30


@register
class UsedIn(Intent):
    """Slot: the item."""

    name = "used_in"
    needs = ("ingredient",)

    def retrieve(self, c: Context) -> Draft | None:
        """Every recipe that CONTAINS the item or a variant (up to
        :data:`COUNTED`), one fact per recipe (its first edge)."""
        if not (c.item and c.item.id):
            return None
        facts = R.used_in(c.graph, c.item_ids, limit=COUNTED)
        if c.screen and not (set(c.item_ids) & set(c.screen.forbidden)):
            # the thread's constraints leave out recipes that break them (asking about a
            # forbidden item itself still lists its recipes: the answer flags the constraint)
            facts = c.screen.keep_recipes(R.used_in(c.graph, c.item_ids, limit=max(COUNTED, 500)),
                                          lambda f: f.subject_id)
        first: dict[str, Fact] = {}
        for f in facts:
            first.setdefault(f.subject, f)
        # recipes named after the item first ("X炒鸡蛋" for 鸡蛋), then the others as retrieved
        ranked = sorted(first.values(), key=lambda f: 0 if c.item.name in f.subject else 1)
        return Draft(facts=ranked, parts={"total": len(first)})

    def compose(self, c: Context, d: Draft) -> None:
        """How many recipes, and the names that fit (the facts are cut to them)."""
        names, more = fit_names([f.subject for f in d.facts], LIST_CHARS, c.lang, LISTED)
        d.facts = d.facts[:len(names)]
        d.text = used_in_text(c.lang, c.item.name, names, more)
        if len(names) == 1 and more <= 0 and d.facts and d.facts[0].subject_id:
            # the only recipe of the answer: a following "它" / "it" is about it
            f = d.facts[0]
            c.q.answered = [Mention(f.subject, f.subject, "recipe", f.subject_id, -1, "answer")]


def used_in_text(lang: str, item: str, names: list[str], more: int = 0) -> str:
    """"N recipes use ``item``: a, b, … and M more" (``more``: names left out)."""
    names = list(dict.fromkeys(names))
    total = len(names) + max(more, 0)
    head = t(lang, f"用到{item}的菜有 {total} 道：" if total > 1 else f"用到{item}的菜：",
             f"{total} recipes use {item}: " if total > 1 else f"Recipes that use {item}: ")
    listed = join(lang, names) if more <= 0 or lang == "zh" else ", ".join(names)
    return head + listed + more_text(lang, more) + t(lang, "。", ".")
