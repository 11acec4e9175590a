"""Intent ``stand_in``: who can stand in for a role (and who appoints one), or,
reversed, which roles a role can take on."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ...knowledge.text import stop_words
from ..compose import join, source_line, t
from ..words import with_article
from .base import DEFAULT_SLOTS, Context, Draft, Intent, register

ROLE = ("role",)


@register
class StandIn(Intent):
    """Slots: the role to replace (``item``), or only the covering role (``item2``: reversed)."""

    name = "stand_in"
    needs = ROLE
    slots = {**DEFAULT_SLOTS, "item": ROLE, "item2": ROLE, "excl": ROLE, "cand": ROLE}

    def prepare(self, q, u, state) -> None:
        """"What can X take on?" is reversed; "can X take on Y?" asks about Y."""
        if u.slot_texts.get("item2") and not u.slot_texts.get("item"):
            q.reverse = True
        if u.slot_texts.get("item2") and u.slot_texts.get("item") and len(q.roles) >= 2:
            q.roles = [q.roles[1], q.roles[0]]

    def refine(self, q, u) -> None:
        """Without a role, a named system or tool ("if the status page is down")
        is the thing to stand in for: its fallbacks are stand-ins too. Also when
        an elliptical follow-up ("and for <tool>?") moved the question here: the
        tool it names replaces the remembered one."""
        if not q.roles:
            q.roles = [m for m in u.mentions if m.type in ("artifact", "tool", "concept")][:1]

    def retrieve(self, c: Context) -> Draft | None:
        """Stand-ins of the role (direct ones only) and the roles that delegate
        a stand-in for it; reversed, the roles it can replace."""
        role = c.role
        if not (role and role.id):
            return None
        if c.q.reverse:
            subs, delegated = R.replaceable_by(c.graph, role.id), []
        else:
            subs = [f for f in R.substitutes(c.graph, [role.id]) if f.properties.get("hop") != 2]
            delegated = R.delegations(c.graph, role.id)
        if not (subs or delegated):
            return Draft()
        return Draft(facts=delegated + subs, parts={"subs": subs, "delegated": delegated})

    def compose(self, c: Context, d: Draft) -> None:
        """Delegation sentence, then the stand-ins."""
        role, lang = c.role, c.lang
        lines = []
        if d.parts["delegated"]:
            lines.append(delegation_text(lang, role.name, d.parts["delegated"]))
        if d.parts["subs"]:
            lines.append(stand_in_text(lang, role.name, d.parts["subs"], c.q.reverse, same=role_key(c)))
        if len(d.facts) == 1:
            # one recorded fallback: the line that states it says how (and when) to use it
            line = source_line(d.facts[0], d.hits)
            if line:
                lines.append(t(lang, f"（原文：“{line}”）", f'(The documents: "{line}")'))
        d.text = "\n".join(lines)
        d.follow_ups = [t(lang, f"{role.name}负责什么？", f"What does the {role.name} do?")]

    def missing(self, c: Context) -> str:
        """"who can stand in for X"."""
        if not c.q.roles:
            return super().missing(c)
        role = c.q.roles[0].name
        return t(c.lang, f"谁能代替{role}", f"who can stand in for the {role}")


def delegation_text(lang: str, role: str, facts: list[Fact]) -> str:
    """"X delegates somebody in the role's stead" sentences."""
    who = join(lang, list(dict.fromkeys(f.subject for f in facts)))
    return t(lang, f"{role}不在时，由{who}指派其他人代为履职。",
             f"If the {role} is not available, the {who} delegates somebody to act in their stead.")


def role_key(c: Context):
    """``key(name) -> str``: ``name`` casefolded with every role it writes by an alias or
    abbreviation replaced by that role's KB name, so that two stand-ins written both ways
    ("another <abbreviation>" / "another <full role name>") are listed once."""
    def key(name: str) -> str:
        out, at = [], 0
        for m in sorted(c.linker.scan(name, types=("role",)), key=lambda m: m.start):
            if m.start < at or not m.id:
                continue
            out += [name[at:m.start], m.name]
            at = m.start + len(m.surface)
        return " ".join("".join(out + [name[at:]]).casefold().split())
    return key


def _clause(cond: str) -> str:
    """A condition as a parenthesised clause: its first letter lower-cased when its first word
    is an English function word (``knowledge/lexicon/stopwords.yaml``: "If you …" → "if
    you …"); a name ("Slack is down", "IC …") stays as written."""
    w = cond.split(" ", 1)[0]
    return cond[:1].lower() + cond[1:] if w.casefold() in stop_words("en") and w[:1].isupper() else cond


def stand_in_text(lang: str, role: str, facts: list[Fact], reverse: bool = False, same=None) -> str:
    """Answer "who can stand in for ``role``" (or, with ``reverse``, "what can ``role`` cover").
    ``same(name) -> key`` merges stand-ins that name one role two ways (see :func:`role_key`);
    of a merged group the longest name is shown. A condition is shown only when it holds for the
    whole group: a stand-in stated by one sentence under a condition and by another without one
    (or under another condition) is shown without it, since each condition belongs to its own
    source sentence only."""
    same = same or (lambda n: n.casefold())

    def names(key) -> list[str]:
        seen: dict[str, list] = {}  # key -> [shown name, {condition of each fact}]
        for f in facts:  # one mention per role
            name, cond = key(f), f.properties.get("condition") or ""
            k = same(name)
            if k not in seen:
                seen[k] = [name, {cond}]
                continue
            if len(name) > len(seen[k][0]):
                seen[k][0] = name
            seen[k][1].add(cond)
        shown = []
        for n, conds in seen.values():
            c = next(iter(conds)) if len(conds) == 1 else ""
            shown.append(f"{n} ({_clause(c)})" if c else n)
        return shown

    if reverse:
        subs = names(lambda f: f.subject)
        return t(lang, f"{role}可以接替：{join(lang, subs)}。",
                 f"The {role} can take on the responsibilities of {join(lang, [with_article(x) for x in subs])}.")
    objs = names(lambda f: f.object)
    if facts and not facts[0].subject_id.startswith("role:"):
        # a system, tool or channel: its fallback
        return t(lang, f"{role}不可用时，可以改用{join(lang, objs)}。",
                 f"If {role} is unavailable, use {join(lang, objs)}.")
    return t(lang, f"可以代替{role}的角色：{join(lang, objs)}。",
             f"The {role} can be stood in for by {join(lang, [with_article(x) for x in objs])}.")
