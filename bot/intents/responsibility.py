"""Intent ``responsibility``: what a role does according to the SOPs (its
own sections and checklists, else the steps that name it, else passages).
"Who is responsible for X" and "what is X" about a non-role become ``general``."""

from __future__ import annotations

from ...knowledge import retrieval as R
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
        return Draft(facts=facts)

    def use_passages(self, c: Context, d: Draft) -> None:
        """Describe the role from its steps, or from passages that support it."""
        role = c.role
        if role and (d.facts or (d.passages and passages_support(c.q, d.hits))):
            d.text = responsibility_text(c.lang, role.name, d.facts, d.passages)
            d.found = True


def responsibility_text(lang: str, role: str, facts, passages) -> str:
    """What a role does, from the steps/sections that name it, else from passages."""
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
            lines.append(f"- {excerpt(p.text, '', 360 if i == 0 else 200)}")  # the describing section gets room
    return "\n".join(lines)
