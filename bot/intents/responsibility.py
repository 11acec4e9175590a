"""Intent ``responsibility``: what a role does according to the SOPs (its
own sections and checklists, else the steps that name it, else passages).
"Who is responsible for X" and "what is X" about a non-role become ``general``."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ..citations import doc_titles, human_title
from ..compose import excerpt, t
from ..evidence import passages_support
from .. import words
from .base import DEFAULT_SLOTS, Context, Draft, Intent, register

ROLE = ("role",)


@register
class Responsibility(Intent):
    """Slot: the role."""

    name = "responsibility"
    needs = ROLE
    slots = {**DEFAULT_SLOTS, "item": ROLE, "item2": ROLE, "excl": ROLE, "cand": ROLE}
    open_ended = True
    facts_suffice = True

    def refine(self, q, u) -> None:
        """A task ("who is responsible for X"), a "who …" question or a term
        that is no role is answered from facts and passages (``general``)."""
        if u.slot_texts.get("task") or u.slot_texts.get("who") or (not q.roles and (q.unknown or q.ctx or q.items)):
            q.intent = "general"
            q.definition = u.slot_texts.get("item", "")

    def retrieve(self, c: Context) -> Draft | None:
        """Steps under the sections titled with the role (its description
        first, then its checklists); with fewer than three, the steps that name it."""
        role = c.role
        if not (role and role.id):
            return None
        titles = c.role_titles(role)
        facts = R.section_steps(c.graph, titles + words.role_checklists(titles))
        duty = tuple(self.data["duty_sections"])
        facts.sort(key=lambda f: 0 if any(s in f.subject.casefold() for s in duty) else 1)
        if len(facts) < 3:
            facts += R.role_steps(c.graph, [role.id], limit=6)
        return Draft(facts=by_phase(c, facts))

    def use_passages(self, c: Context, d: Draft) -> None:
        """Describe the role from its steps, or from passages that support it."""
        role = c.role
        if role and (d.facts or (d.passages and passages_support(c.q, d.hits))):
            d.text = responsibility_text(c.lang, role.name, d.facts, d.passages, c.q.text)
            d.found = True


def by_phase(c: Context, facts: list) -> list:
    """``facts`` for a question naming one phase of a procedure (:func:`~threadgraph.bot.words.phases`:
    "what are their duties during the meeting?"): the steps whose section or document title names that
    phase first, then those naming no phase; steps titled with another phase ("After the release")
    are left out when any step names the asked one. ``facts`` unchanged otherwise."""
    asked = words.phases(c.q.text, c.lang)
    if len(asked) != 1 or not facts:
        return facts
    titles = doc_titles(c.kb)

    def named(f) -> set[int]:
        src = getattr(f, "source", None)
        doc = getattr(src, "doc", "") or ""
        head = f"{human_title(titles.get(doc, ''))} > {getattr(src, 'section', '') or ''} > {f.subject}"
        return words.phases(head, "zh" if c.lang == "zh" else "en") | words.phases(head, "en")

    tagged = [(f, named(f)) for f in facts]
    first = [f for f, ph in tagged if ph & asked]
    if not first:
        return facts
    return first + [f for f, ph in tagged if not ph]


def responsibility_text(lang: str, role: str, facts, passages, question: str = "") -> str:
    """What a role does, from the steps/sections that name it, else from passages: each passage shown
    from its sentence that shares most terms with ``question`` (a query-biased snippet, see
    :func:`~threadgraph.bot.compose.excerpt`; from its start when nothing matches or no question is given)."""
    lines = []
    if facts:
        lines.append(t(lang, f"{role}的职责（来自 SOP）：", f"What the {role} does, according to the SOPs:"))
        for f in facts[:8]:
            # section CONTAINS step: the step text; step -RELATED-> role: the step (subject)
            step = f.properties.get("text") or (f.subject if f.relation == "RELATED" else f.object)
            lines.append(f"- {excerpt(step, '', 240)}")
    elif passages:
        lines.append(t(lang, f"关于{role}：", f"About the {role}:"))
        for i, p in enumerate(passages[:2]):
            lines.append(f"- {excerpt(p.text, question, 360 if i == 0 else 200)}")  # the describing section gets room
    return "\n".join(lines)
