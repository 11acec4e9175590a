"""Intent ``pantry``: what can I cook from what I have?

"我有鸡蛋、西红柿和葱，能做什么？" / "what can I cook with eggs, rice and
scallions?" answers in three groups:

1. recipes whose required ingredients the pantry covers (basic staples —
   salt, oil, water, sugar… the ``staples`` category of
   ``knowledge/lexicon/categories.yaml`` — count as always there);
2. recipes missing one ingredient for which the pantry holds a recorded
   substitute (a ``SUBSTITUTES`` edge);
3. recipes missing exactly one ingredient, saying what to buy.

The pantry is remembered in the thread ("那再加上豆腐呢？", "and if I also
have tofu?" add to it). Without a pantry ("我家没有烤箱，能做什么甜点？") it
lists the recipes of the asked kind that the thread's constraints allow. The
thread's constraints filter every group, and no group proposes a forbidden
item to buy or to swap in.
"""

from __future__ import annotations

import functools
import re

from ...knowledge import categories as cat
from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ...knowledge.text import name_key
from ..compose import join, t
from ..constraints import category_index, link_thing
from ..linker import Mention, clean_slot, is_pronoun
from ..memory import RememberedEntity
from ..query import ITEM_TYPES
from .base import Context, Draft, Intent, register, remembered


@register
class Pantry(Intent):
    """Slot: the pantry (a list of ingredients, ``pantry`` group), added to the
    remembered one when the question says "also" or is an elliptical follow-up."""

    name = "pantry"
    reads_item_lines = True
    needs = ("ingredient",)

    # -- understand ------------------------------------------------------------------
    @functools.cached_property
    def _split(self) -> re.Pattern:
        return re.compile(self.data["list_split"], re.I)

    def read(self, u, match, body, linker) -> None:
        """Each listed thing is linked to an ingredient (or a tool) on its own;
        things the KB does not know are kept aside (``slot_texts["unknown"]``)."""
        groups = match.groupdict()
        if "more" in groups:  # "那再加上豆腐呢？", "and if I also have tofu?"
            u.follow_up = u.elliptical = True
            u.slot_texts["more"] = "1"
        text = groups.get("pantry") or ""
        u.slot_texts["pantry"] = text
        unknown = []
        for piece in self._split.split(text):
            piece = clean_slot(piece)
            if not piece or is_pronoun(piece):
                continue
            m = link_thing(linker, piece, ITEM_TYPES)
            if m.id is None:
                inner = [x for x in linker.scan(piece, types=ITEM_TYPES) if x.id]
                if inner:
                    u.mentions.extend(inner)
                    continue
                unknown.append(piece)
                continue
            u.mentions.append(m)
        if unknown:
            u.slot_texts["unknown"] = "\n".join(unknown)

    def refine(self, q, u) -> None:
        """Things the KB does not know are the question's unknown mentions."""
        for x in (u.slot_texts.get("unknown") or "").split("\n"):
            if x:
                q.unknown.append(Mention(x, x, "unknown", None, -1, "unknown", score=0.0))
        q.ctx = []  # a dish named in the list is not a context here

    def recall(self, q, u, state) -> None:
        """"also"/elliptical follow-ups add to the remembered pantry; a question
        naming nothing ("能做什么甜点？") uses the remembered pantry as it is.
        Nothing to go on at all (no pantry, no constraint, no kind of dish):
        the question is asked back (``dangling_pronoun``)."""
        if not state.pantry:
            if not (q.items or q.unknown or state.constraints or _names_kind(u.text)):
                q.dangling_pronoun = True
            return
        adding = bool(u.slot_texts.get("more")) or u.elliptical
        if adding or not (q.items or q.unknown):
            have = {m.id for m in q.items}
            old = [remembered(e) for e in state.pantry if e.id not in have]
            q.items = old + q.items
            q.from_memory += [m.name for m in old]

    def remember(self, q, state) -> None:
        """The pantry of this question becomes the thread's pantry."""
        items = [m for m in q.items if m.id]
        if items:
            state.pantry = [RememberedEntity(m.name, m.type, m.id) for m in dict((m.id, m) for m in items).values()][-20:]

    # -- retrieve and compose ----------------------------------------------------------
    def covered(self, c: Context, pantry: list[Mention]) -> set[str]:
        """Ingredient ids the pantry covers: each item, its variants (熟/生/…
        prefixes of ``lexicon/variants.yaml``), its forms (``forms`` suffixes:
        鸡蛋清, 葱花) and the members of an interchangeable kind it belongs to
        (``rice``, ``scallion`` … of the category table)."""
        key = (str(c.kb.build), tuple(sorted((m.id or "", m.name, m.surface) for m in pantry)))
        hit = self._covered.get(key)
        if hit is None:
            hit = self._covered[key] = frozenset(self._cover(c, pantry))
            if len(self._covered) > 512:
                self._covered.clear()
        return set(hit)

    @functools.cached_property
    def _covered(self) -> dict:
        return {}

    def _cover(self, c: Context, pantry: list[Mention]) -> set[str]:
        idx = category_index(c.kb)
        forms = tuple(self.data.get("forms", {}).get("zh") or ()) + tuple(
            " " + f for f in self.data.get("forms", {}).get("en") or ())
        keys = {name_key(x) for m in pantry for x in (m.name, m.surface) if x}
        out = {m.id for m in pantry if m.id}
        for eid, k in idx._keys.items():  # noqa: SLF001 - one pass over the KB's names
            if idx.types.get(eid) != "ingredient":
                continue
            for key in keys:
                if k == key or (k.endswith(key) and k[: len(k) - len(key)] in R.VARIANT_PREFIXES) or (
                        k.startswith(key) and k[len(key):] in forms):
                    out.add(eid)
                    break
        for ck, c_ in cat.table().items():
            if c_.interchangeable and (out & idx.ids(ck)):
                out |= idx.ids(ck)
        return out

    def retrieve(self, c: Context) -> Draft | None:
        """The three groups (see the module docstring) from one parameterized
        query (:func:`~threadgraph.knowledge.retrieval.pantry_recipes`), the
        recorded substitutes among the pantry and the CONTAINS edges that
        show each listed recipe uses the pantry; without a pantry, the
        recipes of the asked kind the constraints allow."""
        pantry = [m for m in c.q.items if m.id]
        scr = c.screen
        limits = self.data.get("listed") or {}
        if not pantry:
            if not (scr.constraints or scr.scope):
                return None
            return self._list(c, int(limits.get("list", 12)))
        idx = category_index(c.kb)
        covered = self.covered(c, pantry)
        have = covered | set(idx.ids("staples"))
        forb = scr.forbidden
        rows = R.pantry_recipes(c.graph, sorted(covered), sorted(have))
        in_scope = scr.in_scope(r["id"] for r in rows)
        rows = [r for r in rows if r["id"] in in_scope]
        if forb:
            dropped = [r for r in rows if r["miss"] in forb]
            scr.note_applied(forb[r["miss"]] for r in dropped)
            rows = [r for r in rows if r["miss"] not in forb]
        rows = scr.keep_recipes(rows, lambda r: r["id"])
        added = [m for m in pantry if m.method != "memory"] if c.q.from_memory else []
        if added and rows:
            # a follow-up that adds to the pantry: what the new things make possible comes first
            news = set(R.recipes_using(c.graph, sorted(self.covered(c, added)), [r["id"] for r in rows]))
            rows.sort(key=lambda r: r["id"] not in news)
        distinct = list({m.id: m for m in pantry}.values())
        users = {m.id: set(R.recipes_using(c.graph, sorted(self.covered(c, [m])))) for m in distinct}
        if len(distinct) > 1:
            # recipes using more of what the user has come first (stable: the query's order otherwise)
            rows.sort(key=lambda r: -sum(r["id"] in u for u in users.values()))
        ready = [r for r in rows if r["miss"] is None]
        short = [r for r in rows if r["miss"] is not None]
        subs = R.substitutes_from(c.graph, sorted({r["miss"] for r in short}), sorted(covered))
        subs = scr.keep_items(subs, lambda f: f.object_id)
        swap, buy = [], []
        for r in short:
            fit = [f for f in subs if f.subject_id == r["miss"]
                   and f.properties.get("context") in (None, "", r["id"])]
            (swap if fit else buy).append((r, fit[:1]))
        ready = ready[: int(limits.get("ready", 10))]
        swap = swap[: int(limits.get("swap", 5))]
        buy = buy[: int(limits.get("buy", 8))]
        listed = [r["id"] for r in ready] + [r["id"] for r, _ in swap] + [r["id"] for r, _ in buy]
        edges = R.contains_among(c.graph, listed, sorted(covered))
        first: dict[str, Fact] = {}
        for f in edges:
            first.setdefault(f.subject_id, f)
        facts = [first[r] for r in listed if r in first] + [f for _, fit in swap for f in fit]
        every = self.use_all(c, pantry, have, set(listed) | {r["id"] for r in rows}, int(limits.get("every", 5)))
        shown = set(listed) | {r["id"] for r in every}
        # each pantry thing no listed recipe uses gets its own line; every thing does when few are listed
        sparse = len(shown) < int(limits.get("few", 3))
        unused = [m for m in distinct if sparse or not (users[m.id] & shown)]
        # (a pantry thing the KB does not know is said so, with near names, by the not-found answer)
        per_item = [] if c.q.unknown else self.for_unused(c, unused, users, have, shown, int(limits.get("per_item", 3)))
        for f in R.contains_among(c.graph, [r["id"] for r in every] + [r["id"] for _, rs in per_item for r in rs],
                                  sorted(covered)):
            if f.subject_id not in first:
                first[f.subject_id] = f
                facts.append(f)
        return Draft(facts=facts, parts={"pantry": pantry, "ready": ready, "swap": swap, "buy": buy, "every": every,
                                         "per_item": per_item,
                                         "total_ready": len([r for r in rows if r["miss"] is None])})

    def for_unused(self, c: Context, unused: list[Mention], users: dict[str, set[str]], have: set[str],
                   shown: set[str], limit: int) -> list[tuple[Mention, list[dict]]]:
        """For each pantry thing ``unused`` by every listed recipe (``shown``), up to ``limit`` recipes
        that use it and miss the fewest other required ingredients (at most ``max_missing``),
        those using more of the pantry first: ``[(mention, [{"id", "name", "miss": [names]}])]``,
        the thread's constraints applied; ``users``: pantry id → ids of the recipes using it."""
        if not unused or limit <= 0:
            return []
        scr = c.screen
        most = int(self.data.get("max_missing", 4))
        forb = scr.forbidden
        out = []
        for m in unused:
            ids = sorted(users.get(m.id, set()) - shown)
            if not ids:
                continue
            in_scope = scr.in_scope(ids)
            rows = [{"id": rid, "name": v["name"], "miss": [n for _, n in v["miss"]], "miss_ids": [i for i, _ in v["miss"]]}
                    for rid, v in R.missing_required(c.graph, [i for i in ids if i in in_scope], sorted(have)).items()
                    if 1 <= len(v["miss"]) <= most]
            rows = [r for r in rows if not any(i in forb for i in r["miss_ids"])]
            rows = scr.keep_recipes(rows, lambda r: r["id"])
            rows.sort(key=lambda r: (-sum(r["id"] in u for u in users.values()), len(r["miss"]), r["name"]))
            if rows:
                out.append((m, rows[:limit]))
        return out

    def use_all(self, c: Context, pantry: list[Mention], have: set[str], skip: set[str], limit: int) -> list[dict]:
        """Recipes that use every thing of a pantry of two or more (each through its variants and
        forms) but miss more than one other required ingredient (at most ``max_missing`` of the
        data file), fewest missing first: ``{"id", "name", "miss": [names], "miss_ids"}`` rows,
        the thread's constraints applied. ``skip``: recipes listed already."""
        distinct = list({m.id: m for m in pantry}.values())
        if len(distinct) < 2 or limit <= 0:
            return []
        common: set[str] | None = None
        for m in distinct:
            ids = set(R.recipes_using(c.graph, sorted(self.covered(c, [m]))))
            common = ids if common is None else common & ids
            if not common:
                return []
        scr = c.screen
        ids = sorted(common - skip)
        if not ids:
            return []
        in_scope = scr.in_scope(ids)
        most = int(self.data.get("max_missing", 4))
        rows = [{"id": rid, "name": v["name"], "miss": [n for _, n in v["miss"]], "miss_ids": [i for i, _ in v["miss"]]}
                for rid, v in R.missing_required(c.graph, [i for i in ids if i in in_scope], sorted(have)).items()
                if 1 < len(v["miss"]) <= most]
        forb = scr.forbidden
        rows = [r for r in rows if not any(i in forb for i in r["miss_ids"])]
        rows = scr.keep_recipes(rows, lambda r: r["id"])
        rows.sort(key=lambda r: (len(r["miss"]), r["name"]))
        return rows[:limit]

    def _list(self, c: Context, limit: int) -> Draft:
        """No pantry: recipes (of the asked kind) that break no constraint."""
        scr = c.screen
        rows = R.recipe_names_without(c.graph, scr.forbidden_ids(), limit=5000)
        scoped = scr.in_scope(r["id"] for r in rows)
        blocked = scr.blocked_recipes()
        rows = [r for r in rows if r["id"] in scoped and r["id"] not in blocked]
        if scr.constraints:
            scr.note_applied(scr.constraints)
        facts = [f for r in rows[:limit] for f in c.contains(r["id"])[:1]]
        return Draft(facts=facts, parts={"list": [r["name"] for r in rows[:limit]], "total": len(rows)})

    def compose(self, c: Context, d: Draft) -> None:
        """The groups, in order (or the list)."""
        if "list" in d.parts:
            kinds = [cat.get(k).label(c.lang) for k in c.screen.scope]
            d.text = list_text(c.lang, d.parts["list"], d.parts["total"], kinds)
            return
        d.text = pantry_text(c.lang, [m.name for m in d.parts["pantry"]], d.parts["ready"], d.parts["total_ready"],
                             d.parts["swap"], d.parts["buy"], d.parts.get("every") or [],
                             [(m.name, rows) for m, rows in d.parts.get("per_item") or []])

    def missing(self, c: Context) -> str:
        """"能用鸡蛋、番茄做的菜"."""
        names = [m.name for m in c.q.items if m.id]
        if not names:
            return ""
        return t(c.lang, f"用{join(c.lang, names)}能做的菜", f"recipes you can make with {join(c.lang, names)}")


def _names_kind(text: str) -> bool:
    """``text`` names a kind of recipe of the category table ("甜点", "soups")."""
    low = text.casefold()
    return any((w.casefold() in low) if not w.isascii() else re.search(rf"\b{re.escape(w.casefold())}\b", low)
               for w, _ in cat.label_words("recipes"))


def pantry_text(lang: str, pantry: list[str], ready: list[dict], total_ready: int,
                swap: list[tuple[dict, list[Fact]]], buy: list[tuple[dict, list[Fact]]], every: list[dict] = (),
                per_item: list[tuple[str, list[dict]]] = ()) -> str:
    """The pantry answer: what can be made now, with a swap, or after buying one thing, then
    (``every``) the recipes that use all of it but need a few more things, then (``per_item``:
    ``(thing, rows)``) recipes for each thing none of those uses, with what they still need."""
    lines = [t(lang, f"用你有的{join(lang, pantry)}（盐、油、水、糖等基础调料算作常备）：",
               f"With your {join(lang, pantry)} (salt, oil, water, sugar and other basics count as staples):")]
    if ready:
        more = t(lang, f"（共 {total_ready} 道）", f" ({total_ready} in all)") if total_ready > len(ready) else ""
        lines.append(t(lang, f"现在就能做：{join(lang, [r['name'] for r in ready])}{more}。",
                       f"Ready to cook: {join(lang, [r['name'] for r in ready])}{more}."))
    if swap:
        parts = [t(lang, f"{r['name']}（缺{r['miss_name']}，可用你有的{fit[0].object}代替）",
                   f"{r['name']} (no {r['miss_name']}: use your {fit[0].object} instead)") for r, fit in swap]
        lines.append(t(lang, f"差一样但能用你有的代替：{join(lang, parts)}。",
                       f"One ingredient short, with a recorded substitute you have: {join(lang, parts)}."))
    if buy:
        parts = [t(lang, f"{r['name']}（买{r['miss_name']}）", f"{r['name']} (buy {r['miss_name']})") for r, _ in buy]
        lines.append(t(lang, f"只差一样：{join(lang, parts)}。", f"Missing one ingredient: {join(lang, parts)}."))
    if len(lines) == 1:
        lines.append(t(lang, "知识库里没有只用这些（最多再买一样）就能做的菜。",
                       "No recipe in the knowledge base can be made with these plus at most one more ingredient."))
    if every:
        sep = "、" if lang == "zh" else ", "
        parts = [t(lang, f"{r['name']}（还差{sep.join(r['miss'])}）", f"{r['name']} (also needs {sep.join(r['miss'])})")
                 for r in every]
        lines.append(t(lang, f"用到你全部食材、还差几样的：{join(lang, parts)}。",
                       f"Using everything you have, with a few more things to buy: {join(lang, parts)}."))
    for thing, rows in per_item:
        sep = "、" if lang == "zh" else ", "
        parts = [t(lang, f"{r['name']}（还差{sep.join(r['miss'])}）", f"{r['name']} (also needs {sep.join(r['miss'])})")
                 for r in rows]
        lines.append(t(lang, f"用到{thing}的：{join(lang, parts)}。", f"Using your {thing}: {join(lang, parts)}."))
    return "\n".join(lines)


def list_text(lang: str, names: list[str], total: int, kinds: list[str]) -> str:
    """Recipes (of ``kinds``) one can make under the thread's constraints."""
    plural = [k if k.endswith("s") else k + "s" for k in kinds]
    what = t(lang, "、".join(kinds) if kinds else "菜", " or ".join(plural) if kinds else "recipes")
    if not names:
        return t(lang, f"知识库里没有符合条件的{what}。", f"No {what} in the knowledge base fit.")
    more = t(lang, f"，例如", ", for example") if total > len(names) else ""
    return t(lang, f"可以做的{what}有 {total} 道{more}：{join(lang, names)}。",
             f"You can make {total} {what}{more}: {join(lang, names)}.")
