"""Intent ``without``: "and without X?" — a substitute question after a
recipe question, a stand-in question after a role question, else recipes without X
(after a list of recipes using Y, or without Z: the same list without X too)."""

from __future__ import annotations

from ..query import ITEM_TYPES
from .base import Intent, recall_slot, register

#: Intents after which "without X" asks for a substitute of X in the remembered recipe.
AFTER_RECIPE = ("substitute", "required", "contains", "steps")
#: Intents whose list "without X" narrows (the asked item stays included).
AFTER_LIST = ("used_in", "exclude")
#: Intents after which "without X" asks who stands in for role X.
AFTER_ROLE = ("stand_in", "responsibility")


@register
class Without(Intent):
    """Slot: the missing thing (``excl`` group)."""

    name = "without"
    fallback = True
    excl_types = {"zh": ITEM_TYPES, "en": ITEM_TYPES + ("role",)}

    def read(self, u, match, body, linker) -> None:
        """The missing thing is the excluded mention."""
        u.follow_up = True
        excl = match.group("excl")
        u.slot_texts["excl"] = excl
        u.excluded.append(linker.link(excl, self.excl_types.get(u.language, self.excl_types["en"])))

    def prepare(self, q, u, state) -> None:
        """Redirect by the thread's last intent (see the module docstring)."""
        last = state.last_intent
        if last in AFTER_RECIPE and (state.slots.get("ctx") or q.ctx):
            q.intent = "substitute"
            q.items = q.excluded or q.items
            q.excluded = []
        elif last in AFTER_ROLE or (q.excluded and q.excluded[0].type == "role"):
            q.intent = "stand_in"
            q.roles = [m for m in q.excluded if m.type == "role"] or q.roles
            q.excluded = []
        else:
            q.intent = "exclude"
            if last in AFTER_LIST and not q.items:
                # "which dishes use peanuts?" → "and without chicken?": peanut dishes without chicken
                recall_slot(q, state, "item", q.items)
            prev = state.slots.get("excluded") if last == "exclude" else None
            if prev is not None and all(m.id != prev.id for m in q.excluded):
                recall_slot(q, state, "excluded", q.excluded)  # the earlier exclusion still holds
