"""Intent ``substitute``: what can replace an ingredient or tool (in a recipe,
in general, elsewhere, or two hops away), and "can Y replace X?"."""

from __future__ import annotations

import re

from ...knowledge import categories as cat
from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ...knowledge.text import has_cjk
from ..answer import Passage
from ..compose import join, source_line, t
from ..constraints import category_index
from ..linker import clean_slot
from ..query import CTX_TYPES, ITEM_TYPES, Query, Understanding
from ..slots import read_slots, rebalance
from .base import REGISTRY, Context, Draft, Intent, add_unslotted_recipe, register


#: Entity types of runbooks' systems and tools (not recipe items): replacing one is a fallback.
SYSTEM_TYPES = ("artifact", "concept")


@register
class Substitute(Intent):
    """Slots: the item to replace (main), the recipe it is in, a proposed candidate."""

    name = "substitute"
    reads_item_lines = True
    needs = ("ingredient", "recipe")

    def read(self, u, match, body, linker) -> None:
        """Link the slots; a candidate that names no thing ("something else") is dropped."""
        read_slots(u, match.groupdict(), linker, self.slots)
        if u.candidate is not None and clean_slot(u.candidate.surface) in self.data["generic_candidates"]:
            u.candidate = None
        if u.candidate is not None and not any(m.type in ITEM_TYPES for m in u.mentions) and not u.slot_texts.get("item"):
            u.follow_up = True  # "can I use Y then?": what Y replaces is the thread's item
        else:
            rebalance(u, body, linker, needs_item=self.fills_item)
        if not any(m.type in CTX_TYPES for m in u.mentions):
            add_unslotted_recipe(u, body, linker)

    def after_llm(self, u: Understanding) -> None:
        """What the user lacks (the LLM's ``excluded``) is the item to replace."""
        seen = {m.id or m.name for m in u.mentions}
        u.mentions += [m for m in u.excluded if (m.id or m.name) not in seen]
        u.excluded = []

    def recalls_ctx(self, q: Query, u: Understanding) -> bool:
        """The remembered recipe applies to a follow-up or when an item was named."""
        return u.follow_up or bool(q.items)

    def recall(self, q, u, state) -> None:
        """Fill slots from memory; a question about replacing a role, or a
        system or tool of a runbook ("what can I use instead of scp?"), is a
        stand-in question: its fallbacks are recorded as stand-ins."""
        super().recall(q, u, state)
        if not (q.items or q.roles):
            cand = u.candidate.surface.casefold() if u.candidate is not None else None
            q.roles = [m for m in u.mentions
                       if m.type in SYSTEM_TYPES and m.id and m.surface.casefold() != cand][:1]
        if q.roles and not q.items:
            q.intent = "stand_in"

    def refine(self, q: Query, u: Understanding) -> None:
        """"Which X is best for R?" (a ``kind`` slot): the recipe's own lines about X answer."""
        if u.slot_texts.get("kind"):
            q.kind = True

    def remembers(self, q: Query) -> bool:
        """A question about which kind of item a recipe takes is no substitution question a
        following "它可以加什么？" would continue."""
        return self.memorable and not q.kind

    def retrieve(self, c: Context) -> Draft | None:
        """``substitutes`` of the item (and its variants) ranked for the recipe,
        plus the recipe's own CONTAINS edge for the item; nothing for a question asking
        which kind of item the recipe takes (its lines answer, see ``reads_item_lines``)."""
        item, ctx = c.item, c.ctx
        cand = c.q.candidate
        if not item and cand is not None and cand.id and not c.q.kind:
            # "can I use Y (in R)?" naming no X: the edges recording what Y replaces answer
            found = R.replaced_by(c.graph, [cand.id], ctx.id if ctx else None)
            return Draft(facts=found[:1], parts={"replaces": found}) if found else Draft()
        if not (item and item.id) or (c.q.kind and ctx):
            return None
        if cand is None and len(c.q.items) > 1:
            # "no X, Y ok?": two items named, the recorded edge between them says which is proposed
            named = self._proposed(c)
            if named is not None:
                c.q.candidate, c.q.items = named
                item, cand = c.item, c.q.candidate
        subs = R.substitutes(c.graph, c.item_ids, ctx.id if ctx else None)
        subs = c.screen.keep_items(subs, lambda f: f.object_id)  # never propose what the thread's constraints forbid
        uses = R.contains_edge(c.graph, ctx.id, c.item_ids) if ctx and ctx.id else []
        head = None
        if not subs and cand is None:
            head, subs = head_substitutes(c, item, ctx)
        if head is not None:
            return Draft(facts=subs, parts={"subs": subs, "uses": uses, "head": head})
        if not subs:
            optional = [f for f in uses if not f.properties.get("required", True)]
            required = [f for f in uses if f.properties.get("required", True)]
            if optional and not required and c.q.candidate is None:
                # (every form of the item the recipe lists is optional: 生花生 optional but 熟花生 required is no)
                # nothing recorded to replace it, but the recipe can do without it
                return Draft(facts=optional[:1], parts={"optional_only": True})
            return Draft()
        if cand is not None:
            confirmed = [f for f in subs if f.object_id == cand.id or f.object == cand.name]
            kind = [] if confirmed else same_kind(c, cand.id, subs)
            if kind:
                return Draft(facts=kind, parts={"subs": subs, "confirmed": kind, "kind_of": kind[0].object})
            return Draft(facts=confirmed or subs, parts={"subs": subs, "confirmed": confirmed})
        return Draft(facts=uses[:1] + subs, parts={"subs": subs, "uses": uses})

    @staticmethod
    def _proposed(c: Context):
        """``(candidate, items)`` when one named item is recorded as a substitute for another
        (``X -> Y``, or a symmetric edge): ``Y`` becomes the candidate and the rest the items
        ("no maple syrup, honey ok??"); ``None`` when no edge joins them."""
        linked = [m for m in c.q.items if m.id]
        for x in linked:
            others = [m for m in linked if m is not x]
            ids = {m.id: m for m in others}
            got = R.substitutes_from(c.graph, c.expand_items([x], c.ctx), list(ids))
            if got:
                y = ids[got[0].object_id]
                return y, [m for m in c.q.items if m is not y]
        return None

    def compose(self, c: Context, d: Draft) -> None:
        """The substitutes, or the verdict on the proposed candidate."""
        item, ctx, lang = c.item, c.ctx, c.lang
        recipe = ctx.name if ctx else None
        if "replaces" in d.parts:
            f = d.parts["replaces"][0]
            d.text = candidate_text(lang, f.subject, f.object, recipe, d.parts["replaces"][:1], [])
            line = source_line(f, d.hits)
            if line and line not in d.text:
                d.text += t(lang, f"\n（原文：“{line}”）", f'\n(The recipe: "{line}")')
            return
        if d.parts.get("optional_only"):
            written = c.written_names(d.facts).get(d.facts[0].object_id, item.name)
            d.text = t(lang, f"没有记录{written}的替代品，不过{written}在{recipe}里是可选的，可以不放。",
                       f"No substitute for {written} is recorded in {recipe}, but it is optional there: you can leave it out.")
            return
        if d.parts.get("kind_of"):
            f = d.parts["confirmed"][0]
            d.text = kind_text(lang, item.name, c.q.candidate.name, f, recipe, source_line(f, d.hits))
            return
        if "confirmed" in d.parts:
            d.text = candidate_text(lang, item.name, c.q.candidate.name, recipe, d.parts["confirmed"], d.parts["subs"],
                                    ctx_id=ctx.id if ctx else None)
            if not d.parts["confirmed"] and ctx and ctx.id:
                own = [f for f in d.parts["subs"] if f.properties.get("context", "") == ctx.id]
                line = source_line(own[0], d.hits) if own else ""
                if line and line not in d.text:
                    # the recipe's own line offering the item with an alternative: what it allows, as written
                    d.text += t(lang, f"\n（{recipe}原文：“{line}”）", f'\n({recipe} says: "{line}")')
            return
        d.text = substitute_text(lang, d.parts.get("head") or item.name, recipe, d.parts["subs"], d.parts["uses"])
        if d.parts.get("head"):
            head = d.parts["head"]
            d.text = t(lang, f"没有专门关于{item.name}的记录；{item.name}是一种{head}，{head}的记录如下：\n",
                       f"Nothing is recorded for {item.name} itself; it is a kind of {head}, and for {head}:\n") + d.text
        if len(d.parts["subs"]) == 1:
            # one recorded substitute: the line that states it says how (and what exactly)
            line = source_line(d.parts["subs"][0], d.hits)
            if line and line not in d.text:
                d.text += t(lang, f"\n（原文：“{line}”）", f'\n(The recipe: "{line}")')
        d.follow_ups = [t(lang, f"{ctx.name}需要哪些原料？", f"What do I need for {ctx.name}?")] if ctx else []

    def extend(self, c: Context, d: Draft) -> None:
        """"Can I use Y?" where the recipe's own text says not to use Y ("不能用橄榄油代替",
        "don't use potato flour"): the answer is no, with that line quoted."""
        said = no_substitute_line(c) if c.mode != "vector" else None
        if said is not None:
            hit, text = said
            lang = "zh" if c.lang == "zh" else "en"
            data = self.data["no_substitute"]
            written = c.q.items[0].surface if lang == "en" else c.q.items[0].name
            d.text = data["answer"][lang].replace("{R}", c.ctx.name).replace("{X}", written).replace("{L}", text)
            if c.q.candidate is not None:
                d.text = t(c.lang, f"{data['answer_no'][lang]}：", f"{data['answer_no'][lang]}: ") + d.text
            d.found = True
            d.facts = []
            d.hits = [hit]
            d.passages = [Passage(id=hit.id, doc=hit.doc, section=hit.section, text=hit.text, score=1.0, line=hit.line)]
            return
        cand = c.q.candidate
        if cand is None or c.mode == "vector" or not c.ctx or not c.ctx.id:
            return
        asked = [x for m in c.q.items for x in (m.surface, m.name) if x]
        line = refusal_line(c, [x for x in dict.fromkeys([cand.surface, cand.name]) if x], asked)
        if not line:
            return
        hit, text = line
        no = self.data["refusals"]["answer_no"]["zh" if c.lang == "zh" else "en"]
        d.text = t(c.lang, f"{no}：{c.ctx.name}的原文写着不要用{cand.name}（“{text}”）。",
                   f'{no}: {c.ctx.name} says not to use {cand.name} ("{text}").')
        d.found = True
        d.facts = []
        d.hits = [hit]
        d.passages = [Passage(id=hit.id, doc=hit.doc, section=hit.section, text=hit.text, score=1.0, line=hit.line)]

    def missing(self, c: Context) -> str:
        """"substitutes for X (in Y)"."""
        q = c.q
        if not q.items:
            return super().missing(c)
        item, ctx = q.items[0].name, q.ctx[0].name if q.ctx else None
        return t(c.lang, f"{item}的替代品" + (f"（在{ctx}里）" if ctx else ""),
                 f"substitutes for {item}" + (f" in {ctx}" if ctx else ""))


def same_kind(c: Context, cand_id: str | None, subs: list[Fact]) -> list[Fact]:
    """The recorded substitutes (of ``subs``) whose object is of the same *interchangeable*
    kind as the candidate ``cand_id`` in the category table (a leg and its meat, two names of
    one cut): ``[]`` when the candidate is unlinked or of no such kind with a recorded one.
    The asked recipe's own edges come first, as ``subs`` ranks them."""
    if not cand_id or not subs:
        return []
    idx = category_index(c.kb)
    mates: set[str] = set()
    for key, kind in cat.table().items():
        ids = idx.ids(key)
        if kind.interchangeable and cand_id in ids:
            mates |= ids
    mates.discard(cand_id)
    return [f for f in subs if f.object_id in mates]


def kind_text(lang: str, item: str, cand: str, f: Fact, recipe: str | None, line: str) -> str:
    """"Yes": ``cand`` is of the same kind as ``f``'s recorded substitute for ``item`` (the
    line that records it quoted when there is one)."""
    where = recipe if recipe and f.properties.get("context_name") in (None, "", recipe) else f.properties.get("context_name")
    said = (t(lang, f"（原文：“{line}”）", f' (the recipe: "{line}")') if line else "")
    if where:
        return t(lang, f"可以：{where}里{item}可以用{f.object}代替，{cand}和{f.object}是同一类{said}。",
                 f"Yes: {where} lets {f.object} replace {item}, and {cand} is the same kind as {f.object}{said}.")
    return t(lang, f"可以：{item}可以用{f.object}代替，{cand}和{f.object}是同一类{said}。",
             f"Yes: {item} can be replaced by {f.object}, and {cand} is the same kind as {f.object}{said}.")


#: A refusal line naming none of the asked items counts only as a short standalone note.
NOTE_CHARS = 60


def refusal_line(c: Context, names: list[str], asked: list[str]):
    """(passage, line) of the context recipe's document where a ``refusals`` cue of the
    substitute data says not to use one of ``names``, in a line naming an ``asked`` item or in
    a short note of its own ("Notes: don't use potato flour"); ``None`` when there is none."""
    doc = c.ctx.doc
    if not doc:
        rows = c.graph.query("MATCH (e:Entity) WHERE e.id = $id AND e.doc <> '' RETURN e.doc AS doc", {"id": c.ctx.id})
        doc = rows[0]["doc"] if rows else ""
    if not doc:
        return None
    cues = REGISTRY["substitute"].data["refusals"]["zh" if c.lang == "zh" else "en"]
    rxs = [re.compile(cue.replace("{Y}", "(?:" + "|".join(re.escape(n) for n in names) + ")"), re.I) for cue in cues]
    for h in R.doc_chunks(c.graph, doc):
        for line in (h.text or "").splitlines():
            if any(rx.search(line) for rx in rxs) and (
                    len(line.strip()) <= NOTE_CHARS or any(a.casefold() in line.casefold() for a in asked)):
                return h, line.strip(" -*\t")
    return None


def _name_alternation(names: list[str]) -> str:
    """A regex alternation of ``names`` (longest first), each with an optional plural ending."""
    alts = sorted({n.strip().casefold() for n in names if n and n.strip()}, key=len, reverse=True)
    return "(?:" + "|".join(re.escape(a) + r"(?:e?s)?" for a in alts) + ")"


def _recipe_span(c: Context, doc: str) -> tuple[int, int]:
    """``(first, end)`` source lines of the context recipe in ``doc``: from its first CONTAINS
    line to the first line of the next recipe read from the same document (a collection of
    recipes in one file), else to the end of the document."""
    rows = c.graph.query(
        "MATCH (a:Entity)-[r:CONTAINS]->(:Entity) WHERE r.doc = $doc AND a.type = 'recipe' "
        "RETURN a.id AS id, min(r.line) AS first", {"doc": doc})
    starts = {r["id"]: int(r["first"] or 0) for r in rows}
    first = starts.get(c.ctx.id, 0)
    later = [v for k, v in starts.items() if k != c.ctx.id and v > first]
    return first, min(later) if later else 10 ** 9


def no_substitute_line(c: Context):
    """(passage, line) where the context recipe says its asked item has no substitute: a
    ``no_substitute.note`` mark on a line of the recipe naming the item ("6 Tbsp butter, melted
    (no substitute)") or a ``no_substitute.statement`` naming it ("do not substitute X"), both
    read from the substitute data; ``None`` when the recipe says no such thing (or none is asked)."""
    if not (c.ctx and c.ctx.id and c.q.items):
        return None
    data = REGISTRY["substitute"].data.get("no_substitute", {}).get("zh" if c.lang == "zh" else "en")
    if not data:
        return None
    uses = R.contains_edge(c.graph, c.ctx.id, c.item_ids)
    doc = uses[0].source.doc if uses else c.ctx.doc
    if not doc:
        return None
    names = [x for m in c.q.items for x in (m.surface, m.name)] + [f.object for f in uses]
    names = [clean_slot(n) for n in names if n]
    names = [n for n in names if n]
    if not names:
        return None
    named = re.compile(r"(?<![\w])" + _name_alternation(names) + r"(?![\w])", re.I)
    notes = [re.compile(x, re.I) for x in data.get("note", [])]
    statements = [re.compile(x.replace("{X}", _name_alternation(names)), re.I) for x in data.get("statement", [])]
    first, end = _recipe_span(c, doc)
    for h in R.doc_chunks(c.graph, doc):
        for i, line in enumerate((h.text or "").splitlines()):
            if not first <= (h.line or 0) + i < end:
                continue
            if (named.search(line) and any(rx.search(line) for rx in notes)) or any(rx.search(line) for rx in statements):
                return h, line.strip(" -*\t")
    return None


def head_names(name: str) -> list[str]:
    """The shorter names a Chinese ``name`` ends with, longest first, down to two characters: a
    Chinese compound noun is head-final, so its modifier-led name names a kind of its head
    ("<place>豆瓣酱" is a 豆瓣酱). ``[]`` for a Latin name (English compounds such as "peanut
    butter" are no kind of their last word) or one of two characters."""
    name = (name or "").strip()
    if not name or not has_cjk(name) or " " in name:
        return []
    return [name[k:] for k in range(1, len(name) - 1)]


def head_substitutes(c: Context, item, ctx) -> tuple[str | None, list[Fact]]:
    """``(head, facts)``: when nothing is recorded for the asked ``item`` itself, the substitutes
    recorded for the nearest KB ingredient it is a kind of (its head name, :func:`head_names`) in
    the asked recipe ``ctx`` or in general (never from other recipes); ``(None, [])`` when none."""
    for head in head_names(item.name):
        ids = R.entity_ids_named(c.graph, [head], "ingredient")
        if not ids:
            continue
        got = [f for f in R.substitutes(c.graph, ids, ctx.id if ctx else None)
               if f.properties.get("hop") != 2
               and (not f.properties.get("context") or (ctx is not None and f.properties.get("context") == ctx.id))]
        got = c.screen.keep_items(got, lambda f: f.object_id)
        if got:
            return head, got
    return None, []


def substitute_text(lang: str, item: str, recipe: str | None, facts: list[Fact], uses: list[Fact]) -> str:
    """Answer "what can replace ``item`` (in ``recipe``)" from SUBSTITUTES
    facts, answer first and grouped: in this recipe, in general, in other
    recipes (each substitute once, with the recipes that record it), two hops;
    then whether the recipe needs the item at all."""
    lines = []
    here = [f for f in facts if recipe and f.properties.get("context_name") == recipe]
    general = [f for f in facts if not f.properties.get("context") and f.properties.get("hop") != 2]
    elsewhere = [f for f in facts if f.properties.get("context") and f.properties.get("context_name") != recipe and f.properties.get("hop") != 2]
    two_hop = [f for f in facts if f.properties.get("hop") == 2]

    def fmt(f: Fact) -> str:
        cond = f.properties.get("condition")
        return f"{f.object}（{cond}）" if (cond and lang == "zh") else (f"{f.object} ({cond})" if cond else f.object)

    def merged(group: list[Fact]) -> list[str]:
        return list(dict.fromkeys(fmt(f) for f in group))

    if here:
        lines.append(t(lang, f"做{recipe}时，{item}可以用{join(lang, merged(here))}代替。",
                       f"In {recipe}, {item} can be replaced by {join(lang, merged(here))}."))
    if general:
        lines.append(t(lang, f"一般来说，{item}可以用{join(lang, merged(general))}代替。",
                       f"In general, {item} can be replaced by {join(lang, merged(general))}."))
    if elsewhere:
        where: dict[str, list[str]] = {}
        for f in elsewhere:
            ctxs = where.setdefault(f.object, [])
            name = f.properties.get("context_name") or ""
            if name and name not in ctxs:
                ctxs.append(name)
        parts = [t(lang, f"{o}（见{join(lang, cs[:2])}" + (f"等 {len(cs)} 道" if len(cs) > 2 else "") + "）",
                   f"{o} (in {join(lang, cs[:2])}" + (f" and {len(cs) - 2} more" if len(cs) > 2 else "") + ")")
                 if cs else o for o, cs in where.items()]
        if here or general:
            lines.append(t(lang, f"其他菜谱里还用过：{join(lang, parts)}。", f"Other recipes also use {join(lang, parts)}."))
        elif recipe:
            lines.append(t(lang, f"{recipe}没有专门的说法；其他菜谱里，{item}可以用{join(lang, parts)}代替。",
                           f"Nothing specific to {recipe}, but other recipes replace {item} with {join(lang, parts)}."))
        else:
            lines.append(t(lang, f"{item}可以用{join(lang, parts)}代替。", f"{item} can be replaced by {join(lang, parts)}."))
    if two_hop:
        parts = list(dict.fromkeys(t(lang, f"{f.object}（经由{f.properties.get('via')}）", f"{f.object} (via {f.properties.get('via')})") for f in two_hop))
        lines.append(t(lang, f"间接替代（两跳，仅供参考）：{join(lang, parts)}。", f"Indirect (two hops, less certain): {join(lang, parts)}."))
    if uses:
        u = uses[0]
        req = u.properties.get("required")
        lines.append(
            t(lang, f"{u.subject}里的{u.object}是{'必需' if req else '可选'}原料。",
              f"In {u.subject}, {u.object} is {'required' if req else 'optional'}.")
        )
    return "\n".join(lines)


def candidate_text(lang: str, item: str, cand: str, recipe: str | None, confirmed: list[Fact], others: list[Fact], *,
                   ctx_id: str | None = None) -> str:
    """Answer "can ``cand`` replace ``item`` (in ``recipe``)?" from SUBSTITUTES facts. When
    ``cand`` is not recorded, the recorded substitutes are named; with ``ctx_id`` (the asked
    recipe's id), those another recipe records are named apart, with that recipe, never as the
    asked recipe's."""
    where = t(lang, f"在{recipe}里" if recipe else "", f" in {recipe}" if recipe else "")
    if confirmed:
        f = confirmed[0]
        ctx = f.properties.get("context_name")
        src = t(lang, f"（见{ctx}）" if ctx and ctx != recipe else "", f" (recorded in {ctx})" if ctx and ctx != recipe else "")
        if recipe and ctx and ctx != recipe:
            # another recipe's edge: say whose it is, never as if the asked recipe said it
            return t(lang, f"可以：{where}{item}可以用{cand}代替{src}。",
                     f"{recipe} does not say; in {ctx}, {item} can be replaced by {cand}.")
        return t(lang, f"可以：{where}{item}可以用{cand}代替{src}。", f"Yes: {item} can be replaced by {cand}{where}{src}.")
    if recipe and ctx_id:
        own = list(dict.fromkeys(f.object for f in others if f.properties.get("context", "") in ("", ctx_id)))
        elsewhere: dict[str, str] = {}
        for f in others:
            if f.properties.get("context", "") not in ("", ctx_id) and f.object not in own:
                elsewhere.setdefault(f.object, f.properties.get("context_name") or "")
        text = t(lang, f"知识库没有记录{cand}可以代替{item}", f"The knowledge base does not record {cand} as a substitute for {item}")
        if own:
            text += t(lang, f"；{recipe}里记录的替代是：{join(lang, own)}", f"; {recipe} records: {join(lang, own)}")
        text += t(lang, "。", ".")
        if elsewhere:
            parts = [t(lang, f"{o}（{r}）" if r else o, f"{o} ({r})" if r else o) for o, r in elsewhere.items()]
            text += t(lang, f"别的菜谱里的记录：{join(lang, parts)}。", f" Other recipes record: {join(lang, parts)}.")
        return text
    alts = list(dict.fromkeys(f.object for f in others))
    return t(lang, f"知识库没有记录{cand}可以代替{item}；记录过的替代是：{join(lang, alts)}。",
             f"The knowledge base does not record {cand} as a substitute for {item}; recorded substitutes: {join(lang, alts)}.")
