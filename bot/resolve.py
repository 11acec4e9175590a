"""Resolve: from what the text says (:class:`Understanding`) to a complete
:class:`Query`, with the thread's memory.

The mentions are sorted into slots by entity type; then the handler of the
understood intent may reshape or redirect the question (``prepare``: an
elliptical "and X?" continues the last intent), the handler of the resulting
intent adjusts it (``refine``) and fills missing slots from memory
(``recall``). A follow-up that names nothing and finds nothing in memory is
marked ``dangling_pronoun``.
"""

from __future__ import annotations

from . import intents
from .memory import ThreadState
from .query import CTX_TYPES, ITEM_TYPES, Query, Understanding

#: Slot groups whose text names what a question asks about (kept as written in ``Query.asked_texts``).
ASKED_GROUPS = ("item", "item2", "cand", "excl")


def resolve(u: Understanding, state: ThreadState) -> Query:
    """Fill the question's slots from its own mentions, then from the
    thread's memory for follow-ups (pronouns, "那…呢", "and without X?"). A
    newly named entity of a type replaces the remembered one of that type.
    Raises ``KeyError`` when ``u.intent`` is not a registered intent."""
    q = Query(intent=u.intent, language=u.language, text=u.text, candidate=u.candidate, task=u.slot_texts.get("task", ""),
              asked_texts=[u.slot_texts[g] for g in ASKED_GROUPS if u.slot_texts.get(g)])
    for m in u.mentions:
        if m.type == "unknown":
            q.unknown.append(m)
        elif m.type in CTX_TYPES:
            q.ctx.append(m)
        elif m.type == "role":
            q.roles.append(m)
        elif m.type in ITEM_TYPES:
            q.items.append(m)
        # sections/steps/concepts are ignored as slots
    for m in u.excluded:
        (q.unknown if m.type == "unknown" else q.excluded).append(m)
    intents.get(q.intent).prepare(q, u, state)
    intents.get(q.intent).refine(q, u)
    if q.unknown and u.elliptical and not (q.ctx or q.items or q.roles):
        return q  # "and <unknown thing>?": do not answer about the remembered one
    intents.get(q.intent).recall(q, u, state)
    if u.follow_up and not (q.ctx or q.items or q.roles or q.excluded or q.unknown):
        q.dangling_pronoun = True
    return q
