"""Intent ``general``: anything else. "Who is responsible for X" from
``responsible_for`` facts; open questions from passages (definitions first);
questions about known entities from their 1–2 hop neighbourhood."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..compose import fact_line, join, t
from ..evidence import content_words, within_budget
from .base import Context, Draft, Intent, recall_slot, register

#: Questions up to this many characters that only name a role ask what it does.
BARE_ROLE_CHARS = 40


@register
class General(Intent):
    """No slots of its own; answers from whatever the question linked."""

    name = "general"
    memorable = False
    open_ended = True
    facts_suffice = True

    def prepare(self, q, u, state) -> None:
        """A bare follow-up continues the thread's last intent; a bare entity
        name asks the obvious thing (a role: what it does; a recipe: what it needs)."""
        named = q.ctx or q.items or q.roles
        if not named and u.follow_up and state.last_intent:
            q.intent = state.last_intent
        elif named:
            if q.roles and not (q.ctx or q.items):
                q.intent = "responsibility" if len(u.text) <= BARE_ROLE_CHARS else "general"
            elif (q.ctx and not q.items and q.ctx[0].type == "recipe"
                  and len(u.text.rstrip("？?。!！ ")) <= len(q.ctx[0].surface) + 2):
                q.intent = "contains"

    def recall(self, q, u, state) -> None:
        """A follow-up naming nothing is about the remembered recipe, role or item (first found)."""
        if not (q.ctx or q.items or q.roles) and u.follow_up and not q.unknown:
            for slot, into in (("ctx", q.ctx), ("role", q.roles), ("item", q.items)):
                if state.slots.get(slot):
                    recall_slot(q, state, slot, into)
                    break

    def retrieve(self, c: Context) -> Draft | None:
        """For an asked task: the ``responsible_for`` facts whose object matches it."""
        if not c.q.task:
            return None
        return Draft(facts=responsible_for(c.graph, c.q.task))

    def compose(self, c: Context, d: Draft) -> None:
        """Who is responsible."""
        d.text = responsible_text(c.lang, c.q.task, d.facts)

    def extend(self, c: Context, d: Draft) -> None:
        """No facts yet about linked entities: their neighbourhood within the context budget."""
        q = c.q
        if not (c.use_graph and not d.facts and q.named()):
            return
        ids = [m.id for m in q.named() if m.id]
        d.facts = within_budget(R.neighbourhood(c.graph, ids, per_hop=8), c.settings.context_budget_chars)
        if d.facts:
            lines = list(dict.fromkeys(f"- {fact_line(c.lang, f)}" for f in d.facts))[:8]
            head = d.text + "\n" if d.found and d.text else ""
            d.text = head + t(c.lang, "相关事实：", "Related facts:") + "\n" + "\n".join(lines)
            d.found = True


def responsible_for(graph, task: str) -> list[Fact]:
    """``responsible_for`` facts whose object matches the asked task ("the
    release notes" ~ "release notes"): the object's content words all occur in
    the task, or the task's in the object."""
    want = set(content_words(task))
    if not want:
        return []
    out = []
    for f in R.responsible_for(graph):
        have = set(content_words(f.object))
        if have and (have <= want or want <= have):
            out.append(f)
    return out


def responsible_text(lang: str, task: str, facts: list[Fact]) -> str:
    """Answer "who is responsible for ``task``" from responsible_for facts."""
    roles = list(dict.fromkeys(f.subject for f in facts))
    things = list(dict.fromkeys(f.object for f in facts))
    return t(lang, f"根据 SOP，{join(lang, roles)}负责{join(lang, things)}。",
             f"According to the SOPs, the {join(lang, roles)} {'is' if len(roles) == 1 else 'are'} responsible for the {join(lang, things)}.")
