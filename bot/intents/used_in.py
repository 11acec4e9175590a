"""Intent ``used_in``: which recipes use an ingredient (or one of its variants)."""

from __future__ import annotations

import re

from ...knowledge import retrieval as R
from ...knowledge.text import singular
from ...knowledge import text as T
from ...knowledge import bilingual
from ...knowledge.facts import Fact
from ..answer import Passage
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
        :data:`COUNTED`), one fact per recipe (its first edge). The variants include the
        ingredients an English name heads ("oloroso sherry" for "sherry"): the linker links the
        asked word to one of them, the other recipes use the others."""
        if not (c.item and c.item.id):
            return None
        ids = c.item_ids + [x for x in R.headed_by(c.graph, [c.item.surface, c.item.name]) if x not in c.item_ids]
        ids += [x for x in cjk_headed_by(c, [c.item.surface, c.item.name]) if x not in ids]
        # other names of the same thing (knowledge/lexicon/bilingual.yaml: a regional name of a sauce is that sauce) and their kinds
        same = [n for n in bilingual.equivalents(c.item.name, ("ingredient",)) if T.has_cjk(n)]
        ids += [x for x in R.entity_ids_named(c.graph, same, "ingredient") if x not in ids]
        ids += [x for x in cjk_headed_by(c, same) if x not in ids]
        # the forms written after the asked word ("cashews": "cashew nut", "pecans": "pecan half")
        ids += [x for x in R.head_variants(c.graph, [singular(c.item.surface.casefold())]) if x not in ids]
        facts = R.used_in(c.graph, ids, limit=COUNTED)
        variants_only = bool(facts) and len(ids) > len(c.item_ids) and not R.used_in(c.graph, c.item_ids, limit=1)
        if c.screen and not (set(ids) & set(c.screen.forbidden)):
            # the thread's constraints leave out recipes that break them (asking about a
            # forbidden item itself still lists its recipes: the answer flags the constraint)
            facts = c.screen.keep_recipes(R.used_in(c.graph, ids, limit=max(COUNTED, 500)),
                                          lambda f: f.subject_id)
        first: dict[str, Fact] = {}
        for f in facts:
            first.setdefault(f.subject, f)
        # recipes named after the item first ("X炒鸡蛋" for 鸡蛋), then the others as retrieved
        ranked = sorted(first.values(), key=lambda f: 0 if c.item.name in f.subject else 1)
        return Draft(facts=ranked, parts={"total": len(first), "variants_only": variants_only})

    def compose(self, c: Context, d: Draft) -> None:
        """How many recipes, and the names that fit (the facts are cut to them)."""
        names, more = fit_names([f.subject for f in d.facts], LIST_CHARS, c.lang, LISTED)
        d.facts = d.facts[:len(names)]
        d.text = used_in_text(c.lang, c.item.name, names, more)
        if len(names) == 1 and more <= 0 and d.facts and d.facts[0].subject_id:
            # the only recipe of the answer: a following "它" / "it" is about it
            f = d.facts[0]
            c.q.answered = [Mention(f.subject, f.subject, "recipe", f.subject_id, -1, "answer")]


    def use_passages(self, c: Context, d: Draft) -> None:
        """No recipe CONTAINS the asked thing itself in the graph (it is no extracted ingredient,
        e.g. named only in a step, or only kinds of it are): the recipes whose own document text
        names it, from a full-text search for it, after those the graph has (hybrid mode only)."""
        if (d.facts and not d.parts.get("variants_only")) or c.mode != "hybrid":
            return
        term = (c.q.unknown[0].surface if c.q.unknown else asked_term(c.item) if c.item else "").strip()
        if len(term) < 2:
            return
        found = recipes_naming(c, term)
        listed = [f.subject for f in d.facts]
        if not [name for name, _h in found if name not in listed]:
            return
        # only kinds of the asked thing are recorded as ingredients ("firm tofu"): the recipes whose
        # text names it in another form count too
        names = list(dict.fromkeys(listed + [name for name, _h in found]))
        shown, more = fit_names(names, LIST_CHARS, c.lang, LISTED)
        d.text = used_in_text(c.lang, term, shown, more) + t(c.lang, "（据菜谱原文）", " (from the recipes' text)")
        hits = list({h.id: h for _n, h in found}.values())[:3]
        d.hits = hits
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                      for h in hits]
        d.found = True
        if len(shown) == 1 and more <= 0:
            rid = next((rid for name, rid in recipe_ids(c, [h.doc for h in hits]) if name == shown[0]), None)
            if rid:
                c.q.answered = [Mention(shown[0], shown[0], "recipe", rid, -1, "answer")]


def asked_term(m: Mention) -> str:
    """The words a text search for the asked item looks for: an English surface as the user wrote
    it, in the singular ("sherry", not the "oloroso sherry" the linker chose; "cashew" finds
    "cashews" too), else the linked name."""
    if m.surface and m.surface.isascii() and m.name.isascii() and m.surface.casefold() != m.name.casefold():
        return T.name_key(m.surface)
    return m.name


#: Passages a full-text search for an asked term reads at most.
TERM_HITS = 24


def recipe_ids(c: Context, docs: list[str]) -> list[tuple[str, str]]:
    """(name, id) of the recipes defined in ``docs``."""
    if not docs:
        return []
    rows = c.graph.query("MATCH (e:Entity) WHERE e.doc IN $docs AND e.type = 'recipe' RETURN e.name AS name, e.id AS id, e.doc AS doc",
                         {"docs": sorted(set(docs))})
    return [(r["name"], r["id"]) for r in rows]


def recipes_naming(c: Context, term: str) -> list[tuple[str, object]]:
    """(recipe name, passage) for each recipe whose document has a passage naming ``term``
    (CJK verbatim; Latin as a whole word, plural allowed, case-insensitive), in search order;
    a document that defines more than one recipe (a collection) names none."""
    try:
        hits = c.kb.vectors.search(term, None, limit=TERM_HITS, mode="fts")
    except Exception:  # noqa: BLE001 - no full-text index
        return []
    if term.isascii():
        rx = re.compile(rf"(?<![\w-]){re.escape(term)}(?:e?s)?(?![\w-])", re.I)
        hits = [h for h in hits if rx.search(h.text or "")]
    else:
        hits = [h for h in hits if term in (h.text or "")]
    if not hits:
        return []
    by_doc: dict[str, list[str]] = {}
    rows = c.graph.query("MATCH (e:Entity) WHERE e.doc IN $docs AND e.type = 'recipe' RETURN e.name AS name, e.doc AS doc",
                         {"docs": sorted({h.doc for h in hits})})
    for r in rows:
        by_doc.setdefault(r["doc"], []).append(r["name"])
    return [(by_doc[h.doc][0], h) for h in hits if len(by_doc.get(h.doc, [])) == 1]


#: Chinese kinds of an asked ingredient added at most (``cjk_headed_by``).
CJK_KINDS = 24


def cjk_headed_by(c: Context, names: list[str]) -> list[str]:
    """Ids of ingredients whose Chinese name ends with one of ``names`` (at least 2 characters):
    Chinese compounds are head-final, so "熏马肠子" and "碎肉马肠子" are kinds of 马肠子 and the
    recipes that use them use it. Names shorter than 2 characters (盐, 肉) are skipped."""
    out: list[str] = []
    for n in dict.fromkeys(x for x in names if x and len(x) >= 2 and all(T.is_cjk_char(ch) for ch in x)):
        rows = c.graph.query("MATCH (e:Entity) WHERE e.type = 'ingredient' AND e.name ENDS WITH $n AND e.name <> $n "
                             "RETURN e.id AS id ORDER BY e.name LIMIT $limit", {"n": n, "limit": CJK_KINDS})
        out += [r["id"] for r in rows if r["id"] not in out]
    return out


def used_in_text(lang: str, item: str, names: list[str], more: int = 0) -> str:
    """"N recipes use ``item``: a, b, … and M more" (``more``: names left out)."""
    names = list(dict.fromkeys(names))
    total = len(names) + max(more, 0)
    head = t(lang, f"用到{item}的菜有 {total} 道：" if total > 1 else f"用到{item}的菜：",
             f"{total} recipes use {item}: " if total > 1 else f"Recipes that use {item}: ")
    listed = join(lang, names) if more <= 0 or lang == "zh" else ", ".join(names)
    return head + listed + more_text(lang, more) + t(lang, "。", ".")
