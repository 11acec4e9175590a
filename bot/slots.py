"""Reading the slots of a matched phrase pattern into an :class:`Understanding`.

A pattern's named groups are its slots: ``ctx``/``ctx2`` (a recipe or
document), ``item``/``item2`` (an ingredient, tool or role), ``excl`` (a
thing the user lacks or wants without), ``cand`` (a proposed stand-in) and the
text-only ``task``/``who``. Each intent says which entity types its groups
link to (:attr:`threadgraph.bot.intents.base.Intent.slots`).
"""

from __future__ import annotations

from typing import Mapping

from ..knowledge.text import has_cjk, is_cjk_char
from . import words
from .linker import Linker, Mention, clean_slot, is_pronoun
from .query import Understanding

#: Groups kept as text (matched against facts and passages), never linked.
TEXT_GROUPS = ("task", "who", "kind")
#: Groups naming a context; an unknown one may still name any other entity.
CTX_GROUPS = ("ctx", "ctx2")


def read_slots(u: Understanding, groups: Mapping[str, str | None], linker: Linker, types: Mapping[str, tuple[str, ...]]) -> None:
    """Link each non-empty group of a match (``groups``: name → text) to the
    entity ``types`` given for it and file it in ``u``: ``excl`` in
    ``excluded``, ``cand`` as ``candidate``, text groups only in
    ``slot_texts``, the rest in ``mentions``. A pronoun marks ``u.follow_up``."""
    for group, value in groups.items():
        if not value:
            continue
        value = clean_slot(value)
        if not value:
            continue
        u.slot_texts[group] = value
        if group in TEXT_GROUPS:
            continue  # a task phrase, matched against facts and passages, not linked
        if is_pronoun(value):
            u.follow_up = True
            continue
        mention = linker.link(value, types.get(group, ()))
        if mention.type == "unknown" and group in CTX_GROUPS:
            # the context slot may hold an ingredient or role phrase ("what can I make with X")
            alt = linker.link(value, None)
            if alt.type != "unknown":
                mention = alt
        if group == "excl":
            u.excluded.append(mention)
        elif group == "cand":
            u.candidate = mention
        else:
            u.mentions.append(mention)


def rebalance(u: Understanding, body: str, linker: Linker, *, needs_item: bool) -> None:
    """Repair slot boundaries the lazy rule split got wrong (a recipe name
    followed by 的 and an ingredient can split inside the recipe name): when a
    slot did not link, or the intent ``needs_item`` and no ingredient/tool was
    linked, the KB names found by a longest-match scan of the whole question
    (single characters allowed for ingredients and tools such as salt or a
    bowl) take the place of the unknown mentions, typed by slot."""
    unknown = [m for m in u.mentions + u.excluded if m.type == "unknown"]
    needs_item = needs_item and not any(m.type in ("ingredient", "tool") for m in u.mentions)
    if not unknown and not needs_item:
        return
    found = linker.scan(body, min_len=1 if has_cjk(body) else 2)
    multi = [m for m in found if len(m.surface) > 1]
    function_chars = words.function_chars()

    def bounded(m: Mention) -> bool:
        # a one-character name counts only between function words or other names,
        # never inside an unknown word
        i = m.start

        def edge(j: int) -> bool:
            return (j < 0 or j >= len(body) or body[j] in function_chars or not is_cjk_char(body[j])
                    or any(k.start <= j < k.start + len(k.surface) for k in multi))

        return edge(i - 1) and edge(i + 1)

    found = multi + [m for m in found if len(m.surface) == 1 and m.type in ("ingredient", "tool") and bounded(m)]
    known_ids = {m.id for m in u.mentions + u.excluded if m.id}
    if u.candidate is not None and u.candidate.id:
        known_ids.add(u.candidate.id)
    extra = [m for m in found if m.id not in known_ids]
    if not extra:
        return

    def covered(unk: Mention) -> bool:
        # the unknown slot's text overlaps a KB name found by the scan: the split was wrong
        start = body.find(unk.surface)
        if start < 0:
            return True
        end = start + len(unk.surface)
        return any(m.start < end and start < m.start + len(m.surface) for m in extra)

    kept = [m for m in u.mentions if m.type != "unknown" or unknown_dish(u, m, extra, body) or not covered(m)]
    for unk in [m for m in kept if m.type == "unknown"]:
        if unknown_dish(u, unk, extra, body):
            start = body.find(unk.surface)
            extra = [m for m in extra if not start <= m.start < start + len(unk.surface)]
    if u.excluded and all(m.type == "unknown" for m in u.excluded):
        items = [m for m in extra if m.type in ("ingredient", "tool", "role")]
        if items and all(covered(m) for m in u.excluded):
            u.excluded = items[:1]
            extra = [m for m in extra if m is not items[0]]
    u.mentions = kept + [m for m in extra if not any(m.id == k.id for k in kept)]


def unknown_dish(u: Understanding, unk: Mention, found: list[Mention], body: str) -> bool:
    """True when ``unk`` is an English context slot the KB does not link (a dish name of several words) and
    the KB names ``found`` inside it (mentions with offsets in ``body``) are only ingredients or tools
    covering less than two thirds of it: they are words of the dish's name, not a wrong split of the
    question (whole English words never split wrongly), so the slot stays an unknown dish."""
    if unk.type != "unknown" or has_cjk(unk.surface) or unk.surface not in (u.slot_texts.get("ctx"), u.slot_texts.get("ctx2")):
        return False
    start = body.find(unk.surface)
    if start < 0:
        return False
    inside = [m for m in found if start <= m.start and m.start + len(m.surface) <= start + len(unk.surface)]
    return bool(inside) and all(m.type in ("ingredient", "tool") for m in inside) and (
        sum(len(m.surface) for m in inside) * 3 < len(unk.surface) * 2)
