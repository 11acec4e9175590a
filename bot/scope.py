"""Answers scoped to one role: a sentence under a heading that names a role ("… > Steps for
<Role>") states what *that* role does. Asked "what should I do after X?" without naming a role,
such a sentence is no answer for everyone; when the document gives each role its own section
under one parent heading, the answer is the roles' sections, each with its first step.

Pure functions over :class:`~threadgraph.knowledge.vectors.Hit` lists (a document's chunks in
source order) and the KB's role names (``(surface case-folded, name)`` pairs, see
:func:`threadgraph.bot.who.section_role`). The question shapes are data (``what_to_do_question``
of ``bot/lexicon/words.yaml``); no role or corpus word is named here.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from .compose import is_list_item, sentences_of, t, whole_sentences
from .who import section_role
from . import words

#: Characters of one role's first step in the answer.
STEP_CHARS = 160
#: Characters the whole answer aims at (roles beyond it: "and N more").
ANSWER_CHARS = 700
#: Role sections a document must have under one parent heading to be read per role.
MIN_ROLES = 2


@dataclass
class RoleSection:
    """One role's section: the ``role`` its heading names, the ``section`` path, its ``text``
    (its chunks joined, source order) and the ``hits`` (chunks) it was read from."""

    role: str
    section: str
    text: str = ""
    hits: list = field(default_factory=list)


@functools.lru_cache(maxsize=None)
def _what_to_do() -> tuple[re.Pattern, ...]:
    got = words.lexicon().get("what_to_do_question") or {}
    return tuple(re.compile(p, re.I) for p in got.values())


def asks_what_to_do(text: str) -> bool:
    """The question asks what the asker should do ("What should I do after …?", "what do we do
    when …"; ``what_to_do_question`` of ``bot/lexicon/words.yaml``) or for steps
    (:func:`~threadgraph.bot.words.asks_list`)."""
    return any(rx.search(text) for rx in _what_to_do()) or words.asks_list(text)


def parent(section: str) -> str:
    """The section path without its last heading ("A > B > C" → "A > B"; "A" → "")."""
    parts = [p.strip() for p in (section or "").split(" > ")]
    return " > ".join(parts[:-1])


def role_sections(chunks, under: str, roles: list[tuple[str, str]]) -> list[RoleSection]:
    """The sections directly under the parent heading ``under`` whose own (last) heading names a
    role (:func:`~threadgraph.bot.who.section_role` of that heading alone), in source order, one
    per section path (its chunks joined). ``chunks``: one document's hits."""
    out: dict[str, RoleSection] = {}
    for h in sorted(chunks, key=lambda h: h.line):
        sec = h.section or ""
        if " > " not in sec and under:
            continue
        if parent(sec) != under:
            continue
        role = section_role(sec.split(" > ")[-1], roles)
        if not role:
            continue
        rs = out.setdefault(sec, RoleSection(role, sec))
        body = "\n".join(x.rstrip() for x in (h.text or "").strip().splitlines() if x.strip())
        rs.text = f"{rs.text}\n{body}".strip()
        rs.hits.append(h)
    return list(out.values())


def per_role(lead_section: str, chunks, roles: list[tuple[str, str]], asked_roles: list[str]) -> list[RoleSection]:
    """The role sections an answer led by a sentence of ``lead_section`` should show instead:
    ``[]`` when that section's heading names no role, names a role the question asked about
    (``asked_roles``: names and surfaces), or its parent heading has fewer than :data:`MIN_ROLES`
    sections of distinct roles; else those sections (:func:`role_sections`)."""
    role = section_role((lead_section or "").split(" > ")[-1], roles)
    asked = {x.casefold() for x in asked_roles if x}
    if not role or role.casefold() in asked:
        return []
    found = role_sections(chunks, parent(lead_section), roles)
    if len({s.role for s in found}) < MIN_ROLES:
        return []
    return found


def first_step(text: str) -> tuple[str, int]:
    """The first sentence (or list item) of a role section's ``text``, cut to :data:`STEP_CHARS`,
    and how many more list items the section has."""
    ss = [s for s in sentences_of(text) if s.strip()]
    if not ss:
        return "", 0
    items = [s for s in ss if is_list_item(s)]
    first = items[0] if items else ss[0]
    numbered = first.lstrip()[:1].isdigit()
    items = [s for s in items if s.lstrip()[:1].isdigit() == numbered]  # steps, not their sub-items
    first = re.sub(r"^\s*(?:[-*•]|\d{1,3}[.)、])\s*", "", first).strip()
    more = max(0, len(items) - 1)
    return whole_sentences([first], STEP_CHARS), more


def per_role_text(lang: str, heading: str, sections: list[RoleSection], limit: int = ANSWER_CHARS) -> tuple[str, list[RoleSection]]:
    """The answer: it depends on the asker's role (under ``heading``), then one line per role
    section with its first step ("and N more steps"), while the text fits ``limit``. Returns the
    text and the sections shown."""
    head = t(lang, f"要看你的角色（{heading}）：" if heading else "要看你的角色：",
             f"It depends on your role ({heading}):" if heading else "It depends on your role:")
    lines, used, shown = [head], len(head), []
    for s in sections:
        step, more = first_step(s.text)
        if not step:
            continue
        tail = t(lang, f"（另有 {more} 步）", f" (+{more} more step{'s' if more > 1 else ''})") if more else ""
        line = f"- {s.role}：{step}{tail}" if lang == "zh" else f"- {s.role}: {step}{tail}"
        if shown and used + len(line) + 1 > limit:
            left = len(sections) - len(shown)
            lines.append(t(lang, f"……另有 {left} 个角色见来源。", f"… and {left} more roles in the sources."))
            break
        lines.append(line)
        used += len(line) + 1
        shown.append(s)
    return "\n".join(lines), shown
