"""Roles in procedure documents: which roles exist (:func:`collect_roles`),
and what documents say about them (:class:`RoleBook`): steps that mention a
role, stand-ins (who covers for whom, and when) and responsibilities.

Nothing here names a role: roles are found in the documents (role sections,
glossary definitions, bold-term definitions, table columns), and the
phrasings that signal a definition, a stand-in or a duty are cue patterns in
``lexicon/roles.yaml``.
"""

from __future__ import annotations

import re

from ..knowledge.records import Entity, Merge, Provenance, Triple, entity_id
from ..knowledge.text import sentence_spans, split_sentences
from .blocks import DocResult, section_of
from .cues import fill, lexicon, regex, words
from .document import ParsedDocument
from .normalize import Normalizer

_CUES = lexicon("roles")
_DELEGATES = regex("roles", "delegates", re.I)
_GROUP_ACT_AS = regex("roles", "group_act_as", re.I)
_GROUP_ARTICLE = regex("roles", "group_article", re.I)
_GROUP_REST = regex("roles", "group_rest_split")
_RESP_HEAD = regex("roles", "duty_heads", re.I)
_DUTY_LIST = regex("roles", "duty_list_heading", re.I)
_RESP_LEAD = regex("roles", "duty_lead", re.I)
_DUTY_AND = regex("roles", "duty_and", re.I)
_DELEGATING = regex("roles", "delegating", re.I)
_NUMBERED = regex("roles", "numbered")
_CONDITION = regex("roles", "condition", re.I)
_GENERIC_OBJ = frozenset(words("roles", "vague_objects"))
_VAGUE_HEADS = frozenset(words("roles", "vague_heads"))
_ROLE_CHILD = regex("roles", "role_section_children", re.I)
_ROLE_LABEL = regex("roles", "role_heading_label", re.I)
_DEFINITION_CHILD = regex("roles", "definition_child", re.I)
_PERSON_DEF = regex("roles", "person_definition", re.I)
_QUOTED_EXPANSION = regex("roles", "quoted_expansion", re.I)
_ALIAS_PHRASE = regex("roles", "alias_phrase", re.I)
_ROLE_SENTENCE = regex("roles", "role_sentence")
_ROLE_SENTENCES = [re.compile(x) for x in words("roles", "role_sentences")]
_DUTY_CHILD = regex("roles", "responsibility_child", re.I)
_ACTIVITY = regex("roles", "activity_name", re.I)
_ROLE_SUFFIX = regex("roles", "role_title_suffix", re.I)
_PERSON_WORDS = frozenset(w.casefold() for w in words("roles", "person_heads"))
_ROLE_COLUMN = regex("roles", "role_column", re.I)
_POSSESSIVE = regex("roles", "possessive")
_ABBR = re.compile(r"^[A-Z]{2,6}s?$")
# stand-in cues: (rule name, pattern with {{role}}); flags are inside the patterns
_STAND_INS = list(_CUES["stand_in_cues"].items())


def responsibility_objects(sent: str, rules: "RoleRules", owner: str = "") -> list[tuple[str, str]]:
    """``(role, object)`` pairs a sentence makes a role responsible for —
    conservative on purpose:

    * in a role's duty list (``owner`` given: "What are the responsibilities?",
      "Steps for X"), an item or sentence *starting* with a duty verb (post,
      update, draft, manage, notify, page, assign, interact with…), possibly
      after "Be prepared to" / "You will typically be required to";
    * anywhere, "the X is responsible for <verb>ing? <object>" and "X will/
      should/must <verb> <object>" with X a known role.

    The object is the short noun phrase after the verb (≤ 4 words, stopping at
    prepositions and clause words, lower-cased): "status page", "postmortem",
    "internal stakeholders". Delegation ("responsible for delegating somebody")
    and vague objects (messages, updates, people…) yield nothing."""
    out: list[tuple[str, str]] = []
    cands: list[tuple[str, str]] = []
    if owner:
        s = _NUMBERED.sub("", sent, count=1)
        cands.append((owner, s))
        for m in _DUTY_AND.finditer(s):
            cands.append((owner, s[m.end():]))  # "update the status page and to send posts…"
    for m in rules.cue("role_is_responsible", re.I).finditer(sent):
        cands.append((rules.canon(m.group("r")), sent[m.end():]))
    for m in rules.cue("role_will").finditer(sent):
        cands.append((rules.canon(m.group("r")), sent[m.end():]))
    for role, tail in cands:
        if not role or _DELEGATING.match(tail):
            continue
        m = _RESP_LEAD.match(tail.strip())
        if not m:
            continue
        np = re.sub(r"[’']s$", "", m.group("np").strip()).strip()
        np_l = np.lower()
        words = np_l.split()
        if not words or np_l in _GENERIC_OBJ or rules.canon(np) or len(np) < 3:
            continue
        if words[0] in _VAGUE_HEADS:
            continue
        if (role, np_l) not in out:
            out.append((role, np_l))
    return out


class RoleBook:
    """Roles known across the corpus (filled by :func:`collect_roles`).

    ``names`` maps canonical role name → aliases. :meth:`link` adds step→role
    ``RELATED`` (``predicate="mentions_role"``) and role stand-in
    ``SUBSTITUTES`` to a document result."""

    def __init__(self) -> None:
        self.names: dict[str, list[str]] = {}
        self.triples: list[Triple] = []

    def entities(self) -> list[Entity]:
        """One ``role`` entity per canonical role, aliases included."""
        return [Entity(entity_id("role", n), n, "role", list(a), "en") for n, a in self.names.items()]

    def link(self, doc: ParsedDocument, res: DocResult) -> None:
        """Add role facts of ``doc`` to ``res``: step→role ``RELATED``
        (``predicate="mentions_role"``) for steps naming a role, and role
        stand-in ``SUBSTITUTES`` (subject = role being covered, object = the
        stand-in, ``context=""``, ``condition`` = the if/should clause) from
        the phrasings of ``stand_in_cues`` in ``lexicon/roles.yaml``:

        * "the B might also take on the responsibilities of the A1 and A2"
        * "If A is not available …, the B is responsible for …"
        * "(hot standby|backup|hot-swap standby) A" said of role B (B = a role
          in the heading path, a bold role in the block, or "As a B, …")
        * "B will/can act as the A"
        * "take over (command) from the A" said of role B
        * "handover to another B and assume the role of (an) A" (A is then
          covered by the B stepping down)."""
        if not self.names:
            return
        rules = self._rules()
        rel = doc.rel
        blocks = doc.blocks
        for e in res.entities:
            if e.type != "step":
                continue
            line = int(e.id.rsplit("#", 1)[1])
            for r in rules.mentions(e.text):
                res.triples.append(Triple(e.id, "RELATED", entity_id("role", r), {"predicate": "mentions_role"},
                                          Provenance(rel, "", line, "role.step_mention", 0.8)))
        title_role = rules.canon(doc.title.replace("_", " ")) or rules.canon(doc.stem.replace("_", " "))
        done: set[tuple[str, str]] = set()
        pats = [(rule, rules.cue_text(text)) for rule, text in _STAND_INS]
        for b in blocks:
            if b.kind not in ("paragraph", "item", "code"):
                continue
            head_role = next((rules.canon(split_role_name(p)[0]) for p in reversed(b.path)
                              if rules.canon(split_role_name(p)[0])), "")
            bold_roles = [rules.canon(x) for x in b.bolds if rules.canon(x)]
            # a role's duty list: "## <Role> > ### What are the responsibilities?"
            # or "## Steps for <Role>"
            owner_resp = ""
            if any(_RESP_HEAD.match(p) for p in b.path):
                owner_resp = next((rules.canon(split_role_name(p)[0]) for p in reversed(b.path)
                                   if rules.canon(split_role_name(p)[0])), "")
            for p in b.path:
                sm = _DUTY_LIST.match(p)
                if sm and rules.canon(sm.group("r").strip()):
                    owner_resp = rules.canon(sm.group("r").strip())
            for at, end in sentence_spans(b.text):
                sent = b.text[at:end]
                sline = b.line + b.text.count("\n", 0, at)
                m_as = rules.cue("as_role").match(sent)
                owner = (rules.canon(m_as.group("o")) if m_as else "") or head_role or (bold_roles[0] if bold_roles else "") or title_role
                for rule, rx in pats:
                    for m in rx.finditer(sent):
                        gd = m.groupdict()
                        if rule == "take_on":
                            subs = [(a, rules.canon(m.group("b"))) for a in rules.mentions(m.group("rest"))]
                        elif rule == "handover":
                            subs = [(rules.canon(m.group("a")), rules.canon(m.group("b")))]
                        else:
                            obj = rules.canon(gd["b"]) if gd.get("b") else owner
                            subs = [(rules.canon(m.group("a")), obj)]
                        if rule == "not_available" and _DELEGATES.match(sent[m.end():]):
                            # "If A is not available …, the B is responsible for delegating somebody
                            # to post … in their stead": B *delegates*; the stand-in is "somebody"
                            a, o = rules.canon(m.group("a")), rules.canon(m.group("b"))
                            if a and o and a != o and (o, a, "d") not in done:
                                done.add((o, a, "d"))
                                cond = m.group("cond")
                                res.triples.append(Triple(
                                    entity_id("role", o), "RELATED", entity_id("role", a),
                                    {"predicate": "delegates_stand_in", "condition": cond[:1].lower() + cond[1:]},
                                    Provenance(rel, section_of(b.path), sline, "role.delegates_stand_in",
                                               0.8 if b.kind == "item" else 0.7)))
                            continue
                        if rule == "not_available":
                            cond = m.group("cond")
                        else:
                            cm = _CONDITION.search(sent)
                            cond = cm.group(1).strip() if cm else ""
                        cond = cond[:1].lower() + cond[1:]
                        for a, o in subs:
                            if not a or not o or a == o or (a, o) in done:
                                continue
                            done.add((a, o))
                            res.triples.append(Triple(
                                entity_id("role", a), "SUBSTITUTES", entity_id("role", o),
                                {"context": "", "condition": cond, "symmetric": False},
                                Provenance(rel, section_of(b.path), sline, f"role.{rule}", 0.8 if b.kind == "item" else 0.7),
                            ))

                self._group_standins(sent, b, sline, rules, res, done, rel)
                self._responsibilities(sent, b, sline, rules, owner_resp, res, done, rel)

    def _group_standins(self, sent, b, sline, rules, res, done, rel) -> None:
        """Group stand-ins (cue ``group_act_as``): "Any member of the Kitchen
        Team can act as a Shift Lead" → Shift Lead SUBSTITUTES role "Kitchen
        Team member"; "Anyone can act as a Runner during service" → Runner
        SUBSTITUTES concept "anyone" (condition: the rest of the clause, else
        the group as written)."""
        m = _GROUP_ACT_AS.search(sent)
        if not m:
            return
        a = rules.canon(m.group("a"))
        if not a:
            return
        if m.group("team"):
            team = _GROUP_ARTICLE.sub("", m.group("team").strip())
            gname, gtype = f"{team[:1].upper()}{team[1:]} {_CUES['group_member']}", "role"
        elif m.group("expert"):
            gname, gtype = m.group("expert").strip(), "concept"
        else:
            gname, gtype = _CUES["group_anyone"], "concept"
        gid = entity_id(gtype, gname)
        if (a, gid) in done:
            return
        done.add((a, gid))
        rest = re.split(r"[.;]", sent[m.end():], maxsplit=1)[0].strip(" ,")
        rest = _GROUP_REST.split(rest, maxsplit=1)[0].strip(" ,")
        cond = rest or m.group("who").strip()
        cond = cond[:1].lower() + cond[1:]
        res.entities.append(Entity(gid, gname, gtype, [m.group("who").strip()] if gtype == "role" else [], "en"))
        res.triples.append(Triple(
            entity_id("role", a), "SUBSTITUTES", gid, {"context": "", "condition": cond, "symmetric": False},
            Provenance(rel, section_of(b.path), sline,
                       "role.group_act_as", 0.7)))

    def _responsibilities(self, sent, b, sline, rules, owner, res, done, rel) -> None:
        """RELATED role → artifact ``responsible_for`` (see :func:`responsibility_objects`)."""
        for role, obj in responsibility_objects(sent, rules, owner):
            oid = entity_id("artifact", obj)
            if (role, oid) in done:
                continue
            done.add((role, oid))
            res.entities.append(Entity(oid, obj, "artifact", [], "en"))
            res.triples.append(Triple(
                entity_id("role", role), "RELATED", oid, {"predicate": "responsible_for"},
                Provenance(rel, section_of(b.path), sline, "role.responsible_for",
                           0.8 if b.kind == "item" else 0.7)))

    def _rules(self) -> RoleRules:
        if getattr(self, "_cached", None) is None:
            self._cached = RoleRules(self)
        return self._cached


def split_role_name(raw: str) -> tuple[str, list[str]]:
    """A role heading or cell as ``(name, aliases)``: ``"Shift Lead (SL)"`` →
    ("Shift Lead", ["SL"]); ``"Shift Lead / SL"`` likewise; ``"SL"`` →
    ("SL", []); a role label is dropped: ``"Role: Runner"`` → ("Runner", [])."""
    raw = re.sub(r"\s+", " ", raw).strip().strip("*:").strip()
    raw = _ROLE_LABEL.sub("", raw)
    aliases: list[str] = []
    m = re.match(r"^(?P<n>.+?)\s*\((?P<a>[^)]+)\)\s*$", raw)
    if m:
        raw, extra = m.group("n"), m.group("a")
        aliases += [x.strip() for x in re.split(r"[/,]", extra) if x.strip()]
    parts = [p.strip() for p in raw.split("/") if p.strip()]
    full = [p for p in parts if not _ABBR.match(p)]
    aliases += [p for p in parts if _ABBR.match(p)]
    name = max(full, key=len) if full else (parts[0] if parts else raw)
    aliases += [p for p in full if p != name]
    return name, [a for a in aliases if a != name]


class RoleRules:
    """The known roles as patterns: ``role_rx`` matches any role name or
    alias (Latin names case-insensitively, abbreviations as written, with a
    plural/possessive ending), :meth:`cue` compiles a ``lexicon/roles.yaml``
    pattern with ``{{role}}`` filled, :meth:`canon` and :meth:`mentions` map
    surfaces back to canonical role names."""

    def __init__(self, book: RoleBook) -> None:
        self.book = book
        self.lookup: dict[str, str] = {}
        for canon, al in book.names.items():
            for s in [canon, *al]:
                self.lookup[s.lower() if not _ABBR.match(s) else s] = canon
        names = sorted(self.lookup, key=len, reverse=True)
        ci = [re.escape(w) for w in names if not _ABBR.match(w)]
        ab = [re.escape(w) for w in names if _ABBR.match(w)]
        alts = []
        if ci:
            alts.append("(?i:" + "|".join(ci) + ")")
        if ab:
            alts.append("|".join(ab))
        self.role_rx = "(?:" + "|".join(alts) + ")" + _CUES["role_suffix"] if alts else r"(?!x)x"
        self.find_rx = re.compile(r"(?<![\w])" + self.role_rx + r"(?![\w])")
        self._compiled: dict[tuple[str, int], re.Pattern] = {}

    def cue_text(self, text: str, flags: int = 0) -> re.Pattern:
        """Compile pattern ``text`` with ``{{role}}`` (and other slots of
        ``lexicon/roles.yaml``) filled; cached."""
        key = (text, flags)
        rx = self._compiled.get(key)
        if rx is None:
            rx = self._compiled[key] = re.compile(fill("roles", text, role=self.role_rx), flags)
        return rx

    def cue(self, key: str, flags: int = 0) -> re.Pattern:
        """The cue pattern ``key`` of ``lexicon/roles.yaml``, compiled (see :meth:`cue_text`)."""
        return self.cue_text(_CUES[key], flags)

    def canon(self, surface: str) -> str:
        """Canonical role name of ``surface`` (possessive and plural endings
        tolerated), ``""`` when it names no known role."""
        s = _POSSESSIVE.sub("", surface.strip())
        for cand in (s, s[:-1] if s.endswith("s") else s):
            c = self.lookup.get(cand) or self.lookup.get(cand.lower())
            if c:
                return c
        return ""

    def mentions(self, text: str) -> list[str]:
        """Canonical names of the roles ``text`` mentions, first mention first."""
        out: list[str] = []
        for m in self.find_rx.finditer(text):
            c = self.canon(m.group(0))
            if c and c not in out:
                out.append(c)
        return out


def collect_roles(docs: list[ParsedDocument], norm: Normalizer) -> RoleBook:
    """Find role names across ``docs`` (nothing is hard-coded):

    0. a heading labelled as a role (``Role: Runner``, cue
       ``role_heading_label``) with a section under it names a role;
    1. a heading whose child headings include "What is it?" / "What are the
       responsibilities?" names a role (``## Shift Lead (SL)``); so does a heading (the
       document title too) with a child "Responsibilities" / "Key responsibilities" whose
       name ends in a person word ("# Floor Lead Role" → Floor Lead);
    2. a glossary heading whose first paragraph defines a person ("The X is
       the person responsible…", "Typically the backup SL", "A person who…",
       ``"Food Safety Officer", someone who…``, "The Runner's job is…");
    3. a ``**Term (ABBR)** - the individual responsible…`` / "- the
       equivalent of a Shift Lead" bold-term definition;
    4. a sentence "A Floor Lead is the individual responsible…", "The Shift Lead is
       responsible for…", "the Shift Lead role" (``role_sentences``; the name ends in a
       person word, ``person_heads``);
    5. a table column headed "Role"/"Participant".

    The cue phrasings are in ``lexicon/roles.yaml``. An abbreviation in
    parentheses or after ``/`` becomes an alias; "also referred to as an
    FSO" / 'sometimes called a "Expediter"' join a name to an existing role
    as alias. Role names pass through the normalizer (alias table)."""
    book = RoleBook()
    alias_links: list[tuple[str, str, ParsedDocument, int]] = []

    def add(raw: str, extra: list[str], doc: ParsedDocument, line: int, definition: str = "") -> str:
        name, aliases = split_role_name(raw)
        qm = _QUOTED_EXPANSION.match(definition or "")
        if qm and _ABBR.match(name):
            aliases.append(name)
            name = qm.group("name").strip()
        if not name or len(name.split()) > 5 or not name[:1].isalpha():
            return ""
        name = name[0].upper() + name[1:]
        existing = {k.lower(): k for k in book.names}
        canon = existing.get(name.lower()) or norm.canonical(name, "role", doc=doc.rel, line=line)
        lst = book.names.setdefault(canon, [])
        for a in [name, *aliases, *extra]:
            a = a.strip()
            if a and a != canon and a not in lst:
                lst.append(a)
        for am in _ALIAS_PHRASE.finditer(definition or ""):
            alias_links.append((canon, am.group("a").strip(), doc, line))
        return canon

    for doc in docs:
        if doc.language != "en":
            continue
        blocks = doc.blocks
        heads = [(i, b) for i, b in enumerate(blocks) if b.kind == "heading"]
        for hi, (i, h) in enumerate(heads):
            if _ROLE_CHILD.match(h.text) or h.text.endswith("?") or len(h.text.split()) > 6:
                continue
            # rule 1: role sections
            kids = []
            for _, h2 in heads[hi + 1:]:
                if h2.level <= h.level:
                    break
                if h2.level == h.level + 1:
                    kids.append(h2.text)
            body = [b for b in blocks[i + 1:] if b.path == h.path and b.kind != "heading"]
            first = body[0].text if body and body[0].kind == "paragraph" else ""
            if _ROLE_LABEL.match(h.text) and (kids or body):  # rule 0: "Role: <name>" sections
                add(h.text, [h.text], doc, h.line, first)  # the heading too: its section describes the role
                continue
            if any(_DEFINITION_CHILD.match(k) for k in kids):
                sub = " ".join(b.text for b in blocks[i + 1:] if b.path[:len(h.path)] == h.path and b.kind == "paragraph")
                add(h.text, [], doc, h.line, sub)
                continue
            # rule 1b: a heading with a child "Responsibilities" / "Key responsibilities" whose name ends in a person word
            if any(_DUTY_CHILD.match(k.strip()) for k in kids):
                name0 = _ROLE_SUFFIX.sub("", split_role_name(h.text)[0]).strip()
                if name0 and not _ACTIVITY.match(name0) and name0.split()[-1].casefold() in _PERSON_WORDS:
                    add(_ROLE_SUFFIX.sub("", h.text.strip()).strip(), [], doc, h.line)
                    continue
            # rule 2: glossary heading definitions
            if first and h.level >= 2:
                s0 = next(iter(split_sentences(first)), "")
                name0 = split_role_name(h.text)[0]
                if (_PERSON_DEF.match(s0) or _QUOTED_EXPANSION.match(s0) or re.match(fill("roles", _CUES["job_is"], name=re.escape(name0)), s0, re.I)):
                    add(h.text, [], doc, h.line, first)
        for b in blocks:
            # rule 3: **Term** - definition
            if b.lead_bold and b.kind in ("item", "paragraph"):
                rest = b.text[len(b.lead_bold):] if b.text.startswith(b.lead_bold) else ""
                rest = rest.lstrip(" -–—:")
                if rest and _PERSON_DEF.match(rest):
                    add(b.lead_bold, [], doc, b.line, rest)
            # rule 4: sentences
            if b.kind in ("paragraph", "item"):
                for m in _ROLE_SENTENCE.finditer(b.text):
                    add(m.group("name"), [], doc, b.line)
                for rx in _ROLE_SENTENCES:
                    for m in rx.finditer(b.text):
                        if m.group("name").split()[-1].casefold() in _PERSON_WORDS:
                            add(m.group("name"), [], doc, b.line)
        # rule 5: tables with a Role column
        header: list[str] = []
        for b in blocks:
            if b.kind != "row":
                header = [] if b.kind != "row" else header
                continue
            if b.header:
                header = b.cells
                continue
            for ci, hd in enumerate(header):
                if _ROLE_COLUMN.fullmatch(hd.strip()) and ci < len(b.cells) and b.cells[ci]:
                    add(b.cells[ci], [], doc, b.line)
    # alias phrases: join names to roles
    for canon, alias, doc, line in alias_links:
        if canon not in book.names:
            continue
        existing = {k.lower(): k for k in book.names}
        target = existing.get(alias.lower()) or norm.alias(alias, "role")
        if not target:
            for k, al in book.names.items():
                if alias in al:
                    target = k
        if target and target != canon and target in book.names:
            # two names of one role: the one defined first survives
            order = list(book.names)
            keep, drop = (canon, target) if order.index(canon) < order.index(target) else (target, canon)
            moved = book.names.pop(drop)
            lst = book.names[keep]
            for a in [drop, *moved]:
                if a != keep and a not in lst:
                    lst.append(a)
            norm.merges.append(Merge(drop, keep, "role", "alias", 100.0, doc.rel, line))
        elif not target and alias not in book.names[canon]:
            book.names[canon].append(alias)
    return book
