"""Intent ``steps``: the numbered steps of a recipe or document, or a role's
checklist (optionally for one phase, e.g. "during an incident")."""

from __future__ import annotations

import re

from ...knowledge import retrieval as R
from ...knowledge.facts import Fact
from ..answer import Passage
from ..citations import doc_titles, human_title
from ..compose import t
from ..passages import numbered_section, pointers, procedure, procedure_text
from .. import quantities, who, words
from ..evidence import content_words, has_word
from .base import DEFAULT_SLOTS, Context, Draft, Intent, register


@register
class Steps(Intent):
    """Slots: the recipe/document (or phase), or a role."""

    name = "steps"
    whole_dish = True
    needs = ("recipe",)
    slots = {**DEFAULT_SLOTS, "ctx": ("recipe", "document", "concept"), "ctx2": ("recipe", "document", "concept"),
             "item": ("role", "ingredient", "tool"), "item2": ("role", "ingredient", "tool"),
             "excl": ("role", "ingredient", "tool"), "cand": ("role", "ingredient", "tool")}
    open_ended = True

    def retrieve(self, c: Context) -> Draft | None:
        """The section about the action asked of a role ("the steps to hand off the <role>
        role", :func:`action_section`; hybrid mode), else the role's checklist sections (those
        of the named phase's document first), else the steps of the context's document."""
        role, ctx = c.role, c.ctx
        if role and role.id and c.mode == "hybrid":
            found = action_section(c, role)
            if found:
                # "what are the steps to hand off the <role> role?": the section about that action,
                # not the role's checklists
                return Draft(parts={"title": found[0], "section": found[1]})
        if role and role.id:
            facts = R.section_steps(c.graph, words.role_checklists(c.role_titles(role)), limit=40)
            if ctx and ctx.doc:
                facts = [f for f in facts if f.doc == ctx.doc] or facts
            title = f"{role.name} ({ctx.name.replace('_', ' ')})" if ctx else role.name
            return Draft(facts=facts, parts={"title": title})
        if ctx and ctx.id:
            doc = ctx.doc or (R.docs_of(c.graph, [ctx.id], limit=1) or [""])[0]
            return Draft(facts=R.steps(c.graph, doc) if doc else [], parts={"title": ctx.name.replace("_", " ")})
        return None

    def compose(self, c: Context, d: Draft) -> None:
        """The numbered steps."""
        d.text = steps_text(c.lang, d.parts["title"], d.facts)

    def use_passages(self, c: Context, d: Draft) -> None:
        """No steps in the graph: the whole procedure of the named recipe's or
        document's own file (every step section, in order and in full); else
        passages from step sections first."""
        if d.parts.get("section"):
            hits = d.parts["section"]
            d.text = section_text(c.lang, d.parts["title"], hits)
            d.hits = hits + [h for h in d.hits if h.id not in {x.id for x in hits}]
            d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                          for h in d.hits[:4]]
            d.found = True
            return
        if d.facts or not d.passages:
            return
        cues = [s.casefold() for s in self.data["step_sections"]]
        d.passages.sort(key=lambda p: 0 if any(s in (p.section or "").casefold() for s in cues) else 1)
        ctx = c.ctx
        if c.mode != "hybrid" or not (ctx and ctx.doc):
            follow_pointers(c, d)
            return
        chunks = R.doc_chunks(c.graph, ctx.doc)
        sections = procedure(chunks, self.data["step_sections"])
        if not sections and ctx.type == "recipe":
            # a recipe whose method has no heading of its own: everything that is not its lists
            lists = [w.casefold() for w in self.data["list_sections"]]
            rest = [h for h in chunks if not any(w in (h.section or "").casefold() for w in lists)]
            if rest:
                sections = procedure(rest, [""])
        if not sections:
            follow_pointers(c, d)
            return
        title = ctx.name if ctx.type == "recipe" else human_title(doc_titles(c.kb).get(ctx.doc, ctx.name))
        d.text = procedure_text(c.lang, title, [(sec, text) for sec, text, _ in sections])
        hits = [h for _, _, hs in sections for h in hs]
        d.hits = hits
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                      for h in hits]
        d.found = True

    def extend(self, c: Context, d: Draft) -> None:
        """A question asking the steps and, in a second part, how much of one of the recipe's
        items ("<dish>怎么做 盐放多少"): the recipe's own lines stating that amount follow the steps
        (:func:`threadgraph.bot.intents.general.own_item`, :mod:`threadgraph.bot.quantities`)."""
        ctx = c.ctx
        if not d.found or c.mode != "hybrid" or not (ctx and ctx.id and ctx.type == "recipe"):
            return
        kind = quantities.asked_kind(c.q.text, c.lang)
        if not kind or not quantities.of_item(kind):
            return
        from .general import own_item  # (general imports this module's neighbours: read lazily)

        item = c.q.items[0] if len(c.q.items) == 1 else own_item(c, ctx)
        if item is None:
            return
        hits = c.own_chunks(ctx)
        lines = quantities.item_lines(kind, hits, [item.surface, item.name])
        if not lines:
            return
        d.text += "\n\n" + quantities.quantity_text(c.lang, ctx.name, kind, lines, item=item.surface or item.name)
        ids = list(dict.fromkeys(x.passage_id for x in lines))
        used = sorted((h for h in hits if h.id in ids), key=lambda h: ids.index(h.id))
        d.hits = used + [h for h in d.hits if h.id not in ids]
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=1.0, line=h.line)
                      for h in used] + [p for p in d.passages if p.id not in ids]

    def excerpt_question(self, c: Context) -> str:
        """Steps of a named thing are shown from the passage start."""
        return "" if c.q.ctx else c.q.text


def follow_pointers(c: Context, d: Draft) -> None:
    """A steps question answered from passages among which (the first
    :data:`POINTER_PASSAGES`) is a link list (an index, a table of contents:
    :func:`~threadgraph.bot.passages.pointers`, items naming KB documents) is answered by the
    numbered steps of the document it points to (hybrid mode): the item sharing most (at least
    one) of the question's words (:data:`GENERIC_WORDS` left out; the first on a tie), its
    document's section with the most numbered items
    (:func:`~threadgraph.bot.passages.numbered_section`), shown whole and cited first; the link
    lists are dropped from the evidence. Otherwise ``d`` is left unchanged."""
    if c.mode != "hybrid" or not d.passages:
        return
    titles = doc_titles(c.kb)
    asked = [w for w in content_words(c.q.text) if w not in GENERIC_WORDS]
    lists = {p.id: pointers(p.text, titles) for p in d.passages[:POINTER_PASSAGES]}
    lists = {k: v for k, v in lists.items() if v}
    for p in d.passages[:POINTER_PASSAGES]:
        items = lists.get(p.id)
        if not items:
            continue
        score, _, (doc, _) = max((sum(1 for w in asked if has_word(w, it)), -i, (dd, it))
                                 for i, (dd, it) in enumerate(items))
        found = numbered_section(R.doc_chunks(c.graph, doc)) if score and doc != p.doc else None
        if not found:
            continue
        sec, hits = found
        title = human_title(titles.get(doc) or doc.rsplit("/", 1)[-1].rsplit(".", 1)[0])
        head = (sec.split(" > ")[-1].strip() if sec else "") or title
        d.text = section_text(c.lang, f"{head} ({title})" if head.casefold() != title.casefold() else title, hits)
        d.hits = hits + [h for h in d.hits if h.id not in {x.id for x in hits} and h.id not in lists]
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4),
                              line=h.line) for h in d.hits[:4]]
        d.found = True
        return


#: Passages searched for a link list to follow (:func:`follow_pointers`).
POINTER_PASSAGES = 4
#: Documents about a role searched for the section of an asked action (:func:`action_section`).
ACTION_DOCS = 8
#: What stands before the action of a steps question: "… steps to <action>", "how do I <action>".
ACTION_LEAD = re.compile(r"(?:\bto|\b(?:i|we|you|one))\s+(?:the\s+|an?\s+)?$", re.I)
#: Chunks of an action's section shown at most (a long section is cited, not copied whole).
SECTION_CHUNKS = 6
#: Words of a steps question that say nothing about which section answers it.
GENERIC_WORDS = frozenset({"step", "steps", "process", "procedure", "role", "way", "checklist"})


def asked_action(c: Context, role) -> str:
    """The action a steps question about ``role`` asks the steps of: its context slot text
    ("hand off the <role> role") when the question writes it after "to" or "how do I"
    (:data:`ACTION_LEAD`) and it starts with a verb, i.e. a content word that is no article, no
    phase word ("during"), no word of the role's names and not one of ``how_verb_skip``
    ("become", "get" say nothing about the action); ``""`` otherwise ("steps for the <role>
    during an incident")."""
    text = " ".join((c.q.asked_ctx or "").split())
    text = re.sub(r"^(?:the|an?)\s+", "", text, flags=re.I)
    if not text or c.lang != "en":
        return ""
    at = c.q.text.casefold().find(text.casefold())
    if at < 0 or not ACTION_LEAD.search(c.q.text[:at]):
        return ""  # "steps for the <role> during an incident": a phase, no action
    first = text.split()[0].casefold()
    role_words = {w.casefold() for x in c.role_titles(role) for w in x.split()}
    skip = set(words.lexicon().get("how_verb_skip") or ())
    if first in role_words or first in skip or not content_words(first) or words.phases(first, "en"):
        return ""
    return text


def names_action(names: tuple[str, ...], heading: str) -> bool:
    """``heading`` names the action one of ``names`` (:func:`~threadgraph.bot.words.action_names`)
    names: a phrase as whole words (written together or hyphenated too), a single verb also
    inflected or derived ("escalate" ~ "Escalation": the verb's own stem, none of its
    synonyms: a heading "On-Call" names no "page")."""
    for n in names:
        if " " in n.strip():
            if words.phrase_re(n).search(heading):
                return True
        elif has_word(n, heading) or any(re.search(rf"\b{re.escape(f)}[a-z]{{0,4}}\b", heading, re.I)
                                         for f in who.verb_forms(n.casefold())[:1]):
            return True
    return False


def action_section(c: Context, role) -> tuple[str, list] | None:
    """The section that says how to do the action a steps question asks about ``role``
    (:func:`asked_action`): among the documents about the role (:func:`~threadgraph.knowledge.retrieval.docs_of`,
    at most :data:`ACTION_DOCS`), a section whose own heading names the action
    (:func:`names_action`): one in a document or under a heading titled with the role first,
    then the one sharing most of the question's other words (the role's names, the action's and
    :data:`GENERIC_WORDS` left out), then the first found. Returns ``(title, chunks)`` (the
    heading with the document's title; the section's chunks in source order), or ``None``."""
    action = asked_action(c, role)
    if not action:
        return None
    names = words.action_names(action, c.lang)
    titles = doc_titles(c.kb)
    role_names = [x.casefold() for x in c.role_titles(role)]
    said = c.q.text.casefold()
    for n in names:
        said = words.phrase_re(n).sub(" ", said)
    for r in role_names:
        said = said.replace(r, " ")
    other = [w for w in content_words(said) if w not in GENERIC_WORDS]
    best = None
    for rank, doc in enumerate(R.docs_of(c.graph, [role.id], limit=ACTION_DOCS)):
        chunks = R.doc_chunks(c.graph, doc)
        title = human_title(titles.get(doc, ""))
        for sec in dict.fromkeys(h.section for h in chunks if h.section):
            if not names_action(names, sec.split(" > ")[-1]):
                continue
            hits = [h for h in chunks if h.section == sec][:SECTION_CHUNKS]
            path = f"{title} > {sec}".casefold()
            text = f"{sec}\n" + "\n".join(h.text for h in hits)
            key = (0 if any(r in path for r in role_names) else 1, -sum(1 for w in other if has_word(w, text)), rank)
            if best is None or key < best[0]:
                head = sec.split(" > ")[-1].strip()
                best = (key, f"{head} ({title})" if title else head, hits)
    return (best[1], best[2]) if best else None


def section_text(lang: str, title: str, hits) -> str:
    """A section as the answer: its title line, then its text in full, blank lines dropped."""
    body = "\n".join(line.rstrip() for h in hits for line in h.text.strip().splitlines() if line.strip())
    return t(lang, f"{title}：", f"{title}:") + "\n" + body


def steps_text(lang: str, title: str, facts: list[Fact]) -> str:
    """Numbered steps of a document or recipe, grouped by the section that lists them."""
    lines = [t(lang, f"{title}的步骤：", f"Steps for {title}:")]
    groups: dict[str, list[Fact]] = {}
    for f in facts:
        groups.setdefault(f.subject, []).append(f)
    for section, steps in groups.items():
        if len(groups) > 1:
            lines.append(f"{section}:")
        for i, f in enumerate(steps, 1):
            lines.append(f"{i}. {' '.join((f.properties.get('text') or f.object).split())}")
    return "\n".join(lines)
