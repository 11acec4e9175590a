"""Intent ``follow``: an elliptical follow-up ("and X?", "what about X?"),
resolved to the thread's last intent about the newly named thing."""

from __future__ import annotations

import re

from ..antecedent import antecedent_text, swap_label
from ..linker import clean_slot, is_pronoun
from ..query import CTX_TYPES
from .base import REGISTRY, Intent, register


@register
class Follow(Intent):
    """Slot: the new thing (``item`` group), linked by a scan of the slot."""

    name = "follow"
    fallback = True

    def read(self, u, match, body, linker) -> None:
        """Mark the follow-up; the named thing (unless a pronoun) becomes the mentions."""
        zh = u.language == "zh"
        u.follow_up = u.elliptical = True
        item = match.group("item")
        if is_pronoun(clean_slot(item)):
            return  # "what about it?": everything comes from memory
        u.slot_texts["item"] = item
        if match.groupdict().get("prep"):
            # "and in X?" / "and for X?": X is the recipe or document the question moves to
            ctx = [m for m in linker.scan(item, types=CTX_TYPES) if m.id] or [linker.link(item, CTX_TYPES)]
            if ctx[0].type != "unknown":
                u.mentions.extend(ctx)
                return
        u.mentions.extend(linker.scan(item, min_len=1 if zh else 2) or [linker.link(item)])

    def prepare(self, q, u, state) -> None:
        """Ask the thread's last question again (an exclusion: about the new thing as the excluded one)."""
        q.intent = state.last_intent or "general"
        remembered = state.slots.get("ctx")
        if REGISTRY[q.intent].open_ended and (remembered is None or remembered.type != "recipe"):
            # "And the secondary?" after a question the passages answered (no recipe
            # remembered): what the new thing is asked about is in the previous question, searched with it
            asked = [x["text"] for x in state.turns if x.get("role") == "user" and x.get("text")]
            last = next((x for x in reversed(asked) if not self.elliptical(x)), "")
            q.context_text = antecedent_text(state, last, u.text) if last else ""
            if q.context_text and u.slot_texts.get("item"):
                # "what about a P3?" after a question about a P1: the same question about the other item
                q.context_text = swap_label(q.context_text, u.slot_texts["item"])
        focus = self.data.get("item_focus") or {}
        after_open = REGISTRY[q.intent].open_ended and remembered is not None and remembered.type == "recipe"
        if ((q.intent in focus.get("after", ()) or after_open) and q.items and not q.ctx and not q.unknown
                and state.slots.get("ctx") is not None):
            # "那X呢？" after the list of a recipe, "what about the nuts?" after an open question
            # about one: X is one of its items, asked about on its own
            q.intent = focus["intent"]
            q.focus = True
        if q.intent == "exclude" and q.items and not q.excluded:
            q.excluded, q.items = q.items, []

    def elliptical(self, text: str) -> bool:
        """``text`` is itself an elliptical follow-up (one of this intent's patterns matches it):
        the question an "and X?" leans on is the last one that is not."""
        body = " ".join(text.split()).rstrip("？?。.!！ ")
        return any(re.search(rx, body, re.I) for lang in ("zh", "en") for _rank, rx in self.patterns(lang))
