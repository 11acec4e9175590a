"""Intent ``without``: "and without X?" — a substitute question after a
recipe question, a stand-in question after a role question, else recipes without X."""

from __future__ import annotations

from ..query import ITEM_TYPES
from .base import Intent, register

#: Intents after which "without X" asks for a substitute of X in the remembered recipe.
AFTER_RECIPE = ("substitute", "required", "contains", "steps")
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
