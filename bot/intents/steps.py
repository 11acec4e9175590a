"""Intent ``steps``: the numbered steps of a recipe or document, or a role's
checklist (optionally for one phase, e.g. "during an incident")."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..answer import Passage
from ..citations import doc_titles, human_title
from ..compose import t
from ..passages import procedure, procedure_text
from .. import words
from .base import DEFAULT_SLOTS, Context, Draft, Intent, register


@register
class Steps(Intent):
    """Slots: the recipe/document (or phase), or a role."""

    name = "steps"
    whole_dish = True
    needs = ("recipe",)
    slots = {**DEFAULT_SLOTS, "ctx": ("recipe", "document", "concept"), "ctx2": ("recipe", "document", "concept"),
             "item": ("role", "ingredient", "tool"), "item2": ("role", "ingredient", "tool"),
             "excl": ("role", "ingredient", "tool"), "cand": ("role", "ingredient", "tool")}
    open_ended = True

    def retrieve(self, c: Context) -> Draft | None:
        """A role's checklist sections (those of the named phase's document
        first), else the steps of the context's document."""
        role, ctx = c.role, c.ctx
        if role and role.id:
            facts = R.section_steps(c.graph, words.role_checklists(c.role_titles(role)), limit=40)
            if ctx and ctx.doc:
                facts = [f for f in facts if f.doc == ctx.doc] or facts
            title = f"{role.name} ({ctx.name.replace('_', ' ')})" if ctx else role.name
            return Draft(facts=facts, parts={"title": title})
        if ctx and ctx.id:
            doc = ctx.doc or (R.docs_of(c.graph, [ctx.id], limit=1) or [""])[0]
            return Draft(facts=R.steps(c.graph, doc) if doc else [], parts={"title": ctx.name.replace("_", " ")})
        return None

    def compose(self, c: Context, d: Draft) -> None:
        """The numbered steps."""
        d.text = steps_text(c.lang, d.parts["title"], d.facts)

    def use_passages(self, c: Context, d: Draft) -> None:
        """No steps in the graph: the whole procedure of the named recipe's or
        document's own file (every step section, in order and in full); else
        passages from step sections first."""
        if d.facts or not d.passages:
            return
        cues = [s.casefold() for s in self.data["step_sections"]]
        d.passages.sort(key=lambda p: 0 if any(s in (p.section or "").casefold() for s in cues) else 1)
        ctx = c.ctx
        if c.mode != "hybrid" or not (ctx and ctx.doc):
            return
        chunks = R.doc_chunks(c.graph, ctx.doc)
        sections = procedure(chunks, self.data["step_sections"])
        if not sections and ctx.type == "recipe":
            # a recipe whose method has no heading of its own: everything that is not its lists
            lists = [w.casefold() for w in self.data["list_sections"]]
            rest = [h for h in chunks if not any(w in (h.section or "").casefold() for w in lists)]
            if rest:
                sections = procedure(rest, [""])
        if not sections:
            return
        title = ctx.name if ctx.type == "recipe" else human_title(doc_titles(c.kb).get(ctx.doc, ctx.name))
        d.text = procedure_text(c.lang, title, [(sec, text) for sec, text, _ in sections])
        hits = [h for _, _, hs in sections for h in hs]
        d.hits = hits
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                      for h in hits]
        d.found = True

    def excerpt_question(self, c: Context) -> str:
        """Steps of a named thing are shown from the passage start."""
        return "" if c.q.ctx else c.q.text


def steps_text(lang: str, title: str, facts: list[Fact]) -> str:
    """Numbered steps of a document or recipe, grouped by the section that lists them."""
    lines = [t(lang, f"{title}的步骤：", f"Steps for {title}:")]
    groups: dict[str, list[Fact]] = {}
    for f in facts:
        groups.setdefault(f.subject, []).append(f)
    for section, steps in groups.items():
        if len(groups) > 1:
            lines.append(f"{section}:")
        for i, f in enumerate(steps, 1):
            lines.append(f"{i}. {' '.join((f.properties.get('text') or f.object).split())}")
    return "\n".join(lines)
