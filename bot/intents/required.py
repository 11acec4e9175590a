"""Intent ``required``: whether an ingredient is required or optional in a
recipe, answered first ("可以不放：…" / "Better not: …"), then the substitutes
the KB records for it."""

from __future__ import annotations

import re

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..compose import join, t
from ...knowledge.kinds import is_kind_of
from ..linker import Mention
from .base import Context, Draft, Intent, register

#: Ingredients cited when the asked one is not in the recipe's list.
LISTED = 12
#: Substitutes named at most.
SUBSTITUTES = 3
#: Recipes of a dish family (see :func:`dish_family`) read at most.
FAMILY = 8


@register
class Required(Intent):
    """Slots: the item (main) and the recipe."""

    name = "required"
    reads_item_lines = True
    needs = ("ingredient", "recipe")

    def read(self, u, match, body, linker) -> None:
        """The pattern's slots, then :meth:`asks_action`: a Chinese item slot that holds an
        action ("要先泡吗", "一定要自己调吗") asks how to do something, not whether an ingredient is
        needed: the question is read as ``general`` (answered from the passages)."""
        super().read(u, match, body, linker)
        if self.asks_action(u):
            u.intent, u.rule = "general", f"{u.rule}>general"
            u.mentions = [m for m in u.mentions if m.type != "unknown"]

    def asks_action(self, u) -> bool:
        """The item slot of a Chinese question holds an action rather than a thing: no
        ingredient or tool was linked inside it and it matches an ``action_slot`` cue of the
        data file (an adverb of manner or time before a verb, "干嘛", "会…")."""
        text = u.slot_texts.get("item", "")
        cue = (self.data.get("action_slot") or {}).get(u.language)
        if not text or not cue or not re.search(cue, text):
            return False
        return not any(m.type in ("ingredient", "tool") and m.surface and m.surface in text for m in u.mentions)

    def retrieve(self, c: Context) -> Draft | None:
        """The recipe's CONTAINS edge to the item (or a variant) and the
        item's substitutes in this recipe or in general; without the edge, the
        recipe's ingredient list as the evidence that it is not there."""
        ctx, item = c.ctx, c.item
        if not ctx and item and item.id and c.q.asked_ctx:
            return self.family(c)
        if not (ctx and ctx.id and item and item.id):
            return None
        edge = R.contains_edge(c.graph, ctx.id, c.item_ids)
        if edge:
            subs = [f for f in R.substitutes(c.graph, c.item_ids, ctx.id)
                    if f.properties.get("hop") != 2
                    and f.properties.get("context", "") in ("", ctx.id)][:SUBSTITUTES]
            return Draft(facts=edge[:1] + subs, parts={"listed": True, "subs": subs})
        kind = self.listed_kind(c, ctx.id, item)
        if kind:
            # "without X?" where the list names a kind of X: the answer is about that kind
            subs = [f for f in R.substitutes(c.graph, [kind[0].object_id], ctx.id)
                    if f.properties.get("hop") != 2 and f.properties.get("context", "") in ("", ctx.id)][:SUBSTITUTES]
            return Draft(facts=kind[:1] + subs, parts={"listed": True, "subs": subs, "kind_of": item.surface or item.name})
        if mentioned_in_doc(c, ctx, item):
            # the recipe's own text names the item although its ingredient list (as extracted)
            # does not: "not in the list" would be wrong; the passages answer (reader)
            return None
        return Draft(facts=R.contains(c.graph, ctx.id)[:LISTED], parts={"listed": False, "subs": []})

    def listed_kind(self, c: Context, recipe_id: str, item: Mention) -> list[Fact]:
        """The CONTAINS facts of recipe ``recipe_id`` whose ingredient is a kind of ``item``
        (:func:`threadgraph.knowledge.kinds.is_kind_of`: a kind of X listed, X asked), required
        ones first; ``[]`` when its list names none."""
        names = [n for n in dict.fromkeys([item.name, item.surface]) if n]
        got = [f for f in c.contains(recipe_id) if f.object and any(is_kind_of(f.object, n) for n in names)]
        return sorted(got, key=lambda f: not f.properties.get("required", True))

    def family(self, c: Context) -> Draft | None:
        """The asked dish names no recipe but is part of the names of several ("pancakes" of
        "quick pancakes", "vegan pancakes" …; :func:`dish_family`): the item's CONTAINS edge in each of them, and
        the substitutes each records for it. ``None`` when none of them lists the item."""
        fam = dish_family(c, c.q.asked_ctx)
        edges, absent, subs = [], [], []
        for rid, name in fam[:FAMILY]:
            m = Mention(name, name, "recipe", rid, -1, "family")
            ids = c.expand_items(c.q.items, m)
            edge = R.contains_edge(c.graph, rid, ids) or self.listed_kind(c, rid, c.q.items[0])
            if not edge:
                absent.append(name)
                continue
            edges.append(edge[0])
            subs += [f for f in R.substitutes(c.graph, ids, rid)
                     if f.properties.get("hop") != 2 and f.properties.get("context", "") in ("", rid)]
        if not edges:
            return None
        subs = list({f.object_id or f.object: f for f in subs}.values())[:SUBSTITUTES]
        return Draft(facts=edges + subs, parts={"family": True, "edges": edges, "absent": absent, "subs": subs})

    def compose(self, c: Context, d: Draft) -> None:
        """The verdict with the right polarity, the amount, the substitutes."""
        ctx, item, lang = c.ctx, c.item, c.lang
        omit = self.asks_to_omit(c.q.text, lang)
        if d.parts.get("family"):
            d.text = family_text(lang, c.q.asked_ctx, item.name, d.parts["edges"], d.parts["absent"], d.parts["subs"],
                                 omit=omit, phrasing=self.data["phrasing"])
            return
        if d.parts["listed"]:
            # each substitute named as the recipe line stating it writes it (香油, not the canonical 芝麻油)
            written = c.written_names(d.parts["subs"]) if d.parts["subs"] else {}
            subs = [f.model_copy(update={"object": written[f.object_id]}) if f.object_id in written else f
                    for f in d.parts["subs"]]
            d.text = required_text(lang, ctx.name, item.name, d.facts, subs, omit=omit,
                                   phrasing=self.data["phrasing"])
            if d.parts.get("kind_of"):
                d.text += self.data["phrasing"]["zh" if lang == "zh" else "en"]["kind_note"].format(
                    kind=d.facts[0].object, item=d.parts["kind_of"])
            if d.facts[0].properties.get("required", True):
                d.text += self.must_quote(c, d)
            if not d.parts["subs"]:
                what = d.facts[0].object if d.parts.get("kind_of") else item.name
                d.follow_ups = [t(lang, f"{ctx.name}没有{what}用什么代替？", f"What can replace {what} in {ctx.name}?")]
        else:
            d.text = _fill(self.data["phrasing"], lang, "not_listed", omit, item=item.name, recipe=ctx.name)

    def must_quote(self, c: Context, d: Draft) -> str:
        """The line of the recipe's own document that says the asked item must not be left out
        ("盐, 胡椒粉不能少, 不然没味": a ``must_line`` cue of the data file), quoted after a
        "required" verdict with its line; ``""`` when there is none. Its passage is cited first."""
        cue = (self.data.get("must_line") or {}).get(c.lang)
        item = c.item
        if not cue or item is None or c.ctx is None:
            return ""
        names = [n for n in dict.fromkeys([item.surface, item.name, d.facts[0].object]) if n and len(n) >= 2]
        rx = re.compile(cue, re.I)
        for h in c.own_chunks(c.ctx):
            for i, raw in enumerate((h.text or "").splitlines()):
                text = raw.strip().lstrip("-*•>#0123456789.) ").strip()
                if text and rx.search(text) and any(n in text for n in names):
                    d.hits = [h] + [x for x in d.hits if x.id != h.id]
                    return _fill(self.data["phrasing"], "zh" if c.lang == "zh" else "en", "must_quote", False,
                                 line=text if len(text) <= 160 else text[:159] + "…")
        return ""

    def asks_to_omit(self, question: str, lang: str) -> bool:
        """The question asks whether the item may be left out ("can I skip X?",
        "可以不放X吗"), not whether it is needed (``omit_cues`` in the data file)."""
        low = question.casefold()
        return any(cue in low for cue in self.data["omit_cues"].get(lang, []))


def dish_family(c: Context, dish: str) -> list[tuple[str, str]]:
    """``(id, name)`` of the recipes whose name contains ``dish`` (at least 2 characters,
    case-insensitive) but is not it: the kinds of a dish the question names only generally,
    shortest name first."""
    key = dish.strip().casefold()
    if len(key) < 2:
        return []
    found = {n.id: n.name for n in c.kb.names if n.type == "recipe" and key in n.name.casefold() and n.name.casefold() != key}
    return sorted(found.items(), key=lambda x: (len(x[1]), x[1]))


def family_text(lang: str, dish: str, item: str, edges: list[Fact], absent: list[str], subs: list[Fact], *,
                omit: bool = True, phrasing: dict) -> str:
    """Whether ``item`` may be left out of the recipes that are kinds of ``dish``: required in
    all that list it ("better not"), optional in all ("yes"), or which in which; then the
    recipes that do not list it and the substitutes recorded in them."""
    table = phrasing["zh" if lang == "zh" else "en"]
    sep = "、" if lang == "zh" else ", "
    req = list(dict.fromkeys(f.subject for f in edges if f.properties.get("required", True)))
    opt = list(dict.fromkeys(f.subject for f in edges if not f.properties.get("required", True)))
    if req and opt:
        key = "family_mixed"
    elif req:
        key = "family_required"
    else:
        key = "family_optional"
    if lang != "zh":
        key = ("omit_" if omit else "need_") + key
    text = table[key].format(item=item, dish=dish, required=sep.join(req), optional=sep.join(opt))
    if absent:
        text += table["family_absent"].format(item=item, recipes=sep.join(absent))
    if subs:
        where = list(dict.fromkeys(s.source.doc.rsplit("/", 1)[-1].rsplit(".", 1)[0] for s in subs if s.source and s.source.doc))
        text += table["family_subs"].format(subs=sep.join(dict.fromkeys(s.object for s in subs)), recipes=sep.join(where))
    return text


def mentioned_in_doc(c: Context, ctx, item) -> bool:
    """The document of recipe ``ctx`` names ``item`` (its surface or KB name; Latin names as a
    whole word, with a plural ending, case-insensitive; Chinese names verbatim)."""
    doc = ctx.doc
    if not doc:
        rows = c.graph.query("MATCH (e:Entity) WHERE e.id = $id AND e.doc <> '' RETURN e.doc AS doc", {"id": ctx.id})
        doc = rows[0]["doc"] if rows else ""
    if not doc:
        return False
    text = "\n".join(h.text or "" for h in R.doc_chunks(c.graph, doc))
    for name in dict.fromkeys(n for n in (item.surface, item.name) if n and len(n) >= 2):
        if name.isascii():
            if re.search(rf"(?<![\w-]){re.escape(name)}(?:e?s)?(?![\w-])", text, re.I):
                return True
        elif name in text:
            return True
    return False


def _fill(phrasing: dict, lang: str, key: str, omit: bool, **kw) -> str:
    """The ``key`` template in ``lang`` (English: its ``omit_``/``need_`` form) filled with ``kw``."""
    table = phrasing["zh" if lang == "zh" else "en"]
    if lang != "zh":
        key = ("omit_" if omit else "need_") + key
    return table[key].format(**kw)


def required_text(lang: str, recipe: str, item: str, facts: list[Fact], subs: list[Fact] | None = None, *,
                  omit: bool = True, phrasing: dict | None = None) -> str:
    """Whether ``item`` may be left out of ``recipe`` (from its first CONTAINS
    fact), answer first, with the amount and the recorded substitutes."""
    phrasing = phrasing or Required().data["phrasing"]
    table = phrasing["zh" if lang == "zh" else "en"]
    f = facts[0]
    amt = f.properties.get("amount")
    amount = table["amount"].format(amount=amt) if amt else ""
    required = bool(f.properties.get("required", True))
    text = _fill(phrasing, lang, "required" if required else "optional", omit, item=f.object, recipe=recipe, amount=amount)
    names = list(dict.fromkeys(s.object for s in subs or []))
    if names:
        text += ("" if lang == "zh" else " ") + table["subs_required" if required else "subs_optional"].format(
            subs=join(lang, names) if lang == "zh" else " or ".join(names))
    return text
