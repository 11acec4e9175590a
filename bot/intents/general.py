"""Intent ``general``: anything else. "Who is responsible for X" from
``responsible_for`` facts; open questions from passages (definitions first);
questions about known entities from their 1–2 hop neighbourhood."""

from __future__ import annotations

import functools
import re
from types import SimpleNamespace

from ...knowledge import bilingual
from ...knowledge import retrieval as R
from ...knowledge import text as T
from ...knowledge.facts import Fact
from ..answer import Passage
from ..linker import Mention
from ..citations import doc_titles, human_title
from ..constraints import category_index
from ..compose import fact_line, join, more_text, source_line, t
from .. import quantities, scope, who, words
from ..evidence import LABEL, content_words, has_word, headed_by, identifiers, within_budget
from ..passages import (best_structure, compared_items, first_steps, head_word, item_row, list_subject, list_text,
                        row_text, structures, titled_docs)
from .base import REGISTRY, Context, Draft, Intent, recall_slot, register

#: Documents (of the best passages) searched for the list a list question asks for.
LIST_DOCS = 2
#: Passages cited for a list answer at most.
LIST_PASSAGES = 6
#: Passages a "which procedures use X" search reads, and documents it lists at most.
DOC_LIST_HITS = 40
DOC_LIST_SHOWN = 6
#: Passages a "difference between A and B" search reads, and documents whose lists it reads at most.
COMPARE_HITS = 8
COMPARE_DOCS = 4
#: Related facts written out in an answer at most (all of them stay in the evidence).
RELATED_LINES = 5

#: A numbered list item's marker.
_NUMBERED_MARK = re.compile(r"^\s*\d{1,3}[.)]\s+")
#: Questions up to this many characters that only name a role ask what it does.
BARE_ROLE_CHARS = 40
#: Recipes of the asked kind a many-recipe quantity answer reads at most.
MANY_RECIPES_READ = 30


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
        if not named and u.follow_up and state.last_intent and u.language == "en" and cue_intent(u.text, "en") not in ("", "general"):
            # "is it optional?" after a substitute question: the question's own cues say what it asks
            q.intent = cue_intent(u.text, "en")
        elif not named and u.follow_up and state.last_intent and not asks_own(u, state.last_intent):
            q.intent = state.last_intent
        elif named:
            if q.roles and not (q.ctx or q.items):
                q.intent = "responsibility" if len(u.text) <= BARE_ROLE_CHARS else "general"
            elif (q.ctx and not q.items and q.ctx[0].type == "recipe"
                  and len(u.text.rstrip("？?。!！ ")) <= len(q.ctx[0].surface) + 2):
                q.intent = "contains"

    def recall(self, q, u, state) -> None:
        """A follow-up naming nothing is about the remembered recipe, role or item (first found)."""
        if not (q.ctx or q.items or q.roles) and not q.unknown and (
                u.follow_up or (u.language == "zh" and (follows_on(u.text) or quantities.asked_kind(u.text, "zh")))):
            # (a Chinese amount question naming nothing it knows, "盐放多少？", goes on from the last too)
            # "那要煮多久？" after a recipe question: a question that goes on from the last one
            # ("那…", "然后…") and names nothing is about the remembered recipe
            for slot, into in (("ctx", q.ctx), ("role", q.roles), ("item", q.items)):
                if state.slots.get(slot):
                    recall_slot(q, state, slot, into)
                    break
        elif (u.language == "en" and not q.ctx and state.slots.get("ctx") and not q.unknown
              and words.pronoun_re().search(u.text)):
            # "do their leaders have to be ICs?": the pronoun is the remembered context even
            # though the question names a role or an item of its own
            recall_slot(q, state, "ctx", q.ctx)
        elif u.language == "zh" and not q.ctx and state.slots.get("ctx") and not q.unknown and q.items and follows_on(u.text):
            # "那牛肉要炖多久？", "它的土豆要注意什么？": an item of the remembered recipe
            recall_slot(q, state, "ctx", q.ctx)

    def retrieve(self, c: Context) -> Draft | None:
        """For an asked task: the ``responsible_for`` facts whose object matches it."""
        if not c.q.task:
            return None
        return Draft(facts=responsible_for(c.graph, c.q.task))

    def compose(self, c: Context, d: Draft) -> None:
        """Who is responsible, with the line that says so quoted."""
        d.text = responsible_text(c.lang, c.q.task, d.facts)
        line = source_line(d.facts[0], d.hits) if d.facts else ""
        if line:
            d.text += t(c.lang, f"（“{line}”）", f' ("{line}")')

    def use_passages(self, c: Context, d: Draft) -> None:
        """A list question ("What are the severity levels?") is answered with
        the list itself: the items of the table, bulleted list or top-level
        sections of the best passages' documents whose caption matches it. A quantity question
        about one recipe is answered first by that recipe's own sentences stating it (:meth:`quantity`)."""
        if not d.facts and c.mode == "hybrid" and self.quantity(c, d):
            return
        if d.facts or not d.passages or c.mode != "hybrid":
            return
        if c.lang == "en" and who.asks_who(c.q.text) and self.who(c, d):
            return
        if self.doc_list(c, d):
            return
        if self.compare(c, d):
            return
        if self.row(c, d):
            return
        subject = self.list_subject(c)
        if subject is None:
            return
        docs = list(dict.fromkeys(p.doc for p in d.passages))[:LIST_DOCS]
        titles = doc_titles(c.kb)
        found = best_structure(c.q.text, [(human_title(titles.get(doc, "")), R.doc_chunks(c.graph, doc)) for doc in docs],
                               head_word(subject))
        if found is None:
            return
        d.text, shown = list_text(c.lang, subject, found)
        hits = list({id(i.hit): i.hit for i in (shown or found.items)}.values())[:LIST_PASSAGES]
        d.hits = hits
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                      for h in hits]
        d.found = True
        d.parts["list"] = True

    def quantity(self, c: Context, d: Draft) -> bool:
        """"那要煮多久？" / "how many calories?" about one recipe (the question's or the thread's):
        the recipe's own sentences stating the asked kind of amount
        (:func:`threadgraph.bot.quantities.quantity_lines`), quoted with document and line, their
        passages cited first. False when the question asks for no known kind or no sentence states it."""
        ctx = c.ctx
        if ctx is None or not ctx.id or ctx.type != "recipe":
            return self.quantity_of_kind(c, d) if ctx is None else False
        if c.q.items:
            return self.item_amount(c, d, ctx)
        if self.item_amount(c, d, ctx, own_item(c, ctx)):
            return True
        hits = c.own_chunks(ctx)
        names = [x for m in c.q.ctx for x in (m.surface, m.name) if x]
        kind, lines = quantities.quantity_lines(c.q.text, c.lang, hits, names)
        if not lines:
            return False
        d.text = quantities.quantity_text(c.lang, ctx.name, kind, lines)
        ids = list(dict.fromkeys(x.passage_id for x in lines))
        used = sorted((h for h in hits if h.id in ids), key=lambda h: ids.index(h.id))
        return _quoted(d, used)

    def item_amount(self, c: Context, d: Draft, ctx, item=None) -> bool:
        """"X要放多少Y" / "how much Y goes in X?" (one recipe, one item, a kind of
        ``quantity_kinds`` asked about an item): the recipe's own lines stating the amount and
        naming the item (:func:`threadgraph.bot.quantities.item_lines`), quoted with document and
        line, their passages cited first. ``item``: the asked item when the question's own are not
        (:func:`own_item`). False for another kind or when no line states it."""
        kind = quantities.asked_kind(c.q.text, c.lang)
        if item is None and len(c.q.items) == 1:
            item = c.q.items[0]
        if not kind or not quantities.of_item(kind) or item is None:
            return False
        hits = c.own_chunks(ctx)
        lines = quantities.item_lines(kind, hits, [item.surface, item.name])
        if not lines:
            return False
        d.text = quantities.quantity_text(c.lang, ctx.name, kind, lines, item=item.surface or item.name)
        ids = list(dict.fromkeys(x.passage_id for x in lines))
        used = sorted((h for h in hits if h.id in ids), key=lambda h: ids.index(h.id))
        return _quoted(d, used)

    def quantity_of_kind(self, c: Context, d: Draft) -> bool:
        """A quantity question naming no recipe but a kind of food and a method ("how long do I
        steam fish?", in either language; the words read through ``question_words`` of the
        bilingual lexicon): for each recipe whose name holds the food (those whose name holds the
        method too first, at most :data:`~threadgraph.bot.quantities.SHOWN_RECIPES`), its first
        sentence stating the asked kind of amount with the method in it, quoted with document and
        line. False when the question asks for no known kind, names no food or no recipe states it."""
        kind = quantities.asked_kind(c.q.text, c.lang)
        if not kind or quantities.of_item(kind):
            return False
        asked = bilingual.question_forms(c.q.text)
        foods, methods = asked.get("foods") or [], asked.get("methods") or []
        if not foods:
            return False
        idx = category_index(c.kb)
        said = [w for g in methods for w in g]

        def holds(name: str, group: list[str]) -> bool:
            low = f" {name.casefold()} "
            return any((w in name) if not w.isascii() else re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", low)
                       for w in group)

        named = [(eid, name) for eid, name in idx.names.items()
                 if idx.types.get(eid) == "recipe" and any(holds(name, g) for g in foods)]
        named.sort(key=lambda r: (-sum(holds(r[1], g) for g in foods), not any(holds(r[1], g) for g in methods), r[1]))
        got: list[tuple[str, quantities.QuantityLine]] = []
        used = []
        for eid, name in named[:MANY_RECIPES_READ]:
            hits = c.own_chunks(SimpleNamespace(id=eid, name=name, doc=""))
            x = quantities.kind_line(kind, hits, said)
            if x is None:
                continue
            got.append((name, x))
            used += [h for h in hits if h.id == x.passage_id][:1]
            if len(got) >= quantities.SHOWN_RECIPES:
                break
        if not got:
            return False
        d.text = quantities.many_text(c.lang, kind, [_word(c.lang, g) for g in foods], [_word(c.lang, g) for g in methods], got)
        return _quoted(d, used)

    def who(self, c: Context, d: Draft) -> bool:
        """A "who does X?" question answered by the sentence of a role's own section that
        states X (:mod:`threadgraph.bot.who`): the role first, the sentence quoted, its passage
        cited first. False when no role's section states it."""
        named = [x for m in c.q.roles for x in (m.name, m.surface) if x]
        r = who.read_who(c.kb, c.q.text, d.hits, named, c._cache)
        if r is None:
            return False
        d.text = who.who_text(c.lang, r)
        d.hits = [r.hit] + [h for h in d.hits if h.id != r.hit.id]
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                      for h in d.hits[:3]]
        d.found = True
        d.parts["list"] = True  # the answer is the sentence: no neighbourhood facts after it
        return True

    def doc_list(self, c: Context, d: Draft) -> bool:
        """"Which procedures use X?" (``doc_list_questions``): the documents with a passage
        naming X (every content word of it, or the CJK term verbatim), by title, each with the
        section that names it. False when the question is no such question or no document names X."""
        lang = "zh" if c.lang == "zh" else "en"
        q = c.q.text.strip().rstrip("?？。!！ ")
        term = next((m.group("term").strip() for p in self.data.get("doc_list_questions", {}).get(lang, [])
                     for m in [re.search(p, q, re.I)] if m), "")
        term = re.sub(r"^(?:the|a|an)\s+", "", term, flags=re.I)
        if len(term) < 2:
            return False
        ws = content_words(term)

        def names(text: str) -> bool:
            return term in text if T.has_cjk(term) else bool(ws) and all(has_word(w, text) for w in ws)

        try:
            pool = c.kb.vectors.search(term, None, limit=DOC_LIST_HITS, mode="fts")
        except Exception:  # noqa: BLE001 - no full-text index
            return False
        first: dict[str, object] = {}
        for h in pool:
            if h.doc not in first and names(f"{h.section}\n{h.text}"):
                first[h.doc] = h
        if not first:
            return False
        titles = doc_titles(c.kb)
        shown = list(first.values())[:DOC_LIST_SHOWN]
        lines = [f"- {human_title(titles.get(h.doc, '')) or h.doc}" + (f" ({h.section})" if h.section else "") for h in shown]
        more = len(first) - len(shown)
        head = t(c.lang, f"提到{term}的文档：", f"Documents that mention {term}:")
        d.text = head + "\n" + "\n".join(lines) + (more_text(c.lang, more) if more > 0 else "")
        d.hits = shown
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                      for h in shown[:LIST_PASSAGES]]
        d.found = True
        d.parts["list"] = True
        return True

    def compare(self, c: Context, d: Draft) -> bool:
        """"What's the difference between A and B?" (``compare_questions``) when A and B label two
        items of one table or list (:func:`~threadgraph.bot.passages.structures`) of a document of
        the best passages or of a full-text search for both: both items with their lines, cited
        first. False when the question is no such question or no list holds both."""
        lang = "zh" if c.lang == "zh" else "en"
        q = c.q.text.strip().rstrip("?？。!！ ")
        pair = next(((m.group("a").strip(), m.group("b").strip()) for p in self.data.get("compare_questions", {}).get(lang, [])
                     for m in [re.search(p, q, re.I)] if m), None)
        if pair is None:
            return False
        docs = list(dict.fromkeys(p.doc for p in d.passages))[:LIST_DOCS]
        try:
            docs += [h.doc for h in c.kb.vectors.search(f"{pair[0]} {pair[1]}", None, limit=COMPARE_HITS, mode="fts")]
        except Exception:  # noqa: BLE001 - no full-text index: the passages' documents only
            pass
        titles = doc_titles(c.kb)
        for doc in list(dict.fromkeys(docs))[:COMPARE_DOCS]:
            both = compared_items(structures(R.doc_chunks(c.graph, doc), human_title(titles.get(doc, ""))), *pair)
            if both is None:
                continue
            head = t(c.lang, f"{both[0].label}与{both[1].label}：", f"{both[0].label} vs {both[1].label}:")
            lines = [f"- {i.label}：{i.detail}" if c.lang == "zh" else f"- {i.label}: {i.detail}" for i in both]
            d.text = head + "\n" + "\n".join(lines)
            hits = list({i.hit.id: i.hit for i in both}.values())
            d.hits = hits + [h for h in d.hits if h.id not in {x.id for x in hits}]
            d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                          for h in d.hits[:LIST_PASSAGES]]
            d.found = True
            d.parts["list"] = True
            return True
        return False

    def row(self, c: Context, d: Draft) -> bool:
        """A question naming one item by its label ("what do we do for a P1?", a label of
        :data:`~threadgraph.bot.evidence.LABEL`) whose best passage is the table row that
        label heads: the row answers, each cell under its column header, cited first. False when
        the question names no identifier or several, or no best passage is such a row."""
        codes = identifiers(c.q.text, LABEL)
        if len(codes) != 1 or not d.hits:
            return False
        top = next((h for h in d.hits[:LIST_DOCS] if headed_by(codes[0], h.text)), None)
        if top is None:
            return False
        row = item_row(R.doc_chunks(c.graph, top.doc), codes[0])
        if row is None or row.hit.id != top.id or not row.cells:
            return False
        d.text = row_text(c.lang, row)
        d.hits = [top] + [h for h in d.hits if h.id != top.id]
        if scope.asks_what_to_do(c.q.text):
            self.row_steps(c, d, row)
        d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=round(h.score, 4), line=h.line)
                      for h in d.hits[:LIST_PASSAGES]]
        d.found = True
        d.parts["list"] = True  # the answer is the row: no neighbourhood facts after it
        return True

    def row_steps(self, c: Context, d: Draft, row) -> None:
        """A what-to-do question answered by a table row whose cells name another KB document by
        its title ("See <title>.", the link lost in the chunk): that document's first numbered
        procedure (:func:`~threadgraph.bot.passages.first_steps`) follows the row, renumbered, its
        chunks cited after the row's. ``d`` unchanged when no cell names a document with one."""
        titles = doc_titles(c.kb)
        cells = " ".join(cell for _, cell in row.cells)
        for doc in titled_docs(cells, titles, row.hit.doc):
            found = first_steps(R.doc_chunks(c.graph, doc))
            if found is None:
                continue
            sec, lines, hits = found
            title = human_title(titles.get(doc, ""))
            head = sec.split(" > ")[-1].strip()
            steps = [f"{i}. {_NUMBERED_MARK.sub('', ln).strip()}" for i, ln in enumerate(lines, 1)]
            name = f"{title} › {head}" if head and head.casefold() != title.casefold() else title
            d.text += "\n\n" + t(c.lang, f"{name}：", f"{name}:") + "\n" + "\n".join(steps)
            d.hits = d.hits[:1] + hits + [h for h in d.hits[1:] if h.id not in {x.id for x in hits}]
            return

    def list_subject(self, c: Context) -> str | None:
        """What a list question asks for ("severity levels"; ``""`` when it
        names nothing), or ``None`` when the question asks for no list
        (``list_questions`` in the data file)."""
        lang = "zh" if c.lang == "zh" else "en"
        q = c.q.text.strip().rstrip("?？。!！ ")
        for pattern in self.data.get("list_questions", {}).get(lang, []):
            m = re.search(pattern, q, re.I)
            if not m:
                continue
            np = m.group("np").strip()
            if lang == "en" and not re.search(r"[a-z]{2,}[^s]s\b", np, re.I):
                continue  # "what are the ..." needs a plural: a list
            return list_subject(q, lang, [pattern])
        return None

    def extend(self, c: Context, d: Draft) -> None:
        """No facts yet about linked entities: their neighbourhood within the context budget."""
        q = c.q
        if d.parts.get("list") or not (c.use_graph and not d.facts and q.named()):
            return
        if not d.found and asks_more_than_names(q):
            # the question asks something specific the passages did not answer: facts merely
            # near the names it mentions are no answer to it (a thin graph must not pass for one)
            return
        ids = [m.id for m in q.named() if m.id]
        d.facts = within_budget(R.neighbourhood(c.graph, ids, per_hop=8), c.settings.context_budget_chars)
        if d.facts:
            d.parts["neighbourhood"] = True  # facts near the names, not an answer to what was asked
            # substitutions first (they answer most "what if I have no X" questions), then the rest
            ranked = sorted(d.facts, key=lambda f: 0 if f.relation == "SUBSTITUTES" else 1)
            lines = list(dict.fromkeys(f"- {fact_line(c.lang, f)}" for f in ranked))
            shown, more = lines[:RELATED_LINES], len(lines) - RELATED_LINES
            if more > 0:
                shown.append(t(c.lang, f"（另有 {more} 条，见来源）", f"(and {more} more in the sources)"))
            head = d.text + "\n" if d.found and d.text else ""
            d.text = head + t(c.lang, "相关事实：", "Related facts:") + "\n" + "\n".join(shown)
            d.found = True


def own_item(c: Context, ctx):
    """The ingredient or tool of recipe ``ctx`` a Chinese question names where the entity scan
    does not reach: its longest item name written in the question outside the recipe's own
    name, down to one character ("<recipe>盐放多少": a one-character name is no word of its own
    in free text, but among the recipe's own items it is). A ``Mention``, or ``None`` (an English
    question, or no such name)."""
    if c.lang != "zh":
        return None
    text = c.q.text
    for m in c.q.ctx:
        for x in (m.surface, m.name):
            if x:
                text = text.replace(x, " ")
    names = sorted({f.object for f in c.contains(ctx.id) if f.object and T.has_cjk(f.object)}, key=len, reverse=True)
    for n in names:
        if n in text:
            hit = next(f for f in c.contains(ctx.id) if f.object == n)
            return Mention(n, n, hit.object_type or "ingredient", hit.object_id, text.find(n), "recipe-item")
    return None


#: Words (English content words; Chinese bigrams count half) a question may have besides the
#: names it mentions and still be only about them ("tell me about X", "X是什么").
ABOUT_WORDS = 2


def asks_more_than_names(q) -> bool:
    """The question says more than the names it mentions: more than :data:`ABOUT_WORDS`
    English content words outside them (cue words of "tell me about" excluded as stop words),
    or as many Chinese character bigrams × 2."""
    names = [x.casefold() for m in q.named() for x in (m.surface, m.name) if x]
    words = [w for w in content_words(q.text) if not any(w in n or T.singular(w) in n for n in names)]
    grams = [g for g in T.cjk_bigrams(q.text) if not any(g in n for n in names)]
    return len(words) + len(grams) / 2 > ABOUT_WORDS


#: What an entity placeholder of a cue reads as in a follow-up's raw text.
PRONOUN_SLOT = r"\b(?:it|its|them|they|this|that|their|this one|that one)\b"


@functools.lru_cache(maxsize=None)
def _raw_cues(intent: str, lang: str) -> tuple[tuple[re.Pattern, float], ...]:
    """The ``cues`` of ``intent`` in ``lang`` for a follow-up's raw text: an entity placeholder
    stands for a pronoun ("is it optional?")."""
    h = REGISTRY.get(intent)
    out = []
    for it in ((h.data.get("cues") or {}).get(lang, []) if h else []):
        pat, w = (it, 1.0) if isinstance(it, str) else (it["re"], float(it.get("w", 1.0)))
        pat = re.sub(r"\\b\{[RIPESX]\}\\b|\{[RIPESX]\}", lambda _m: PRONOUN_SLOT, pat)
        try:
            out.append((re.compile(pat, re.I), w))
        except re.error:
            continue
    return tuple(out)


def follows_on(text: str) -> bool:
    """A Chinese question that goes on from the thread's last one: it starts with a
    ``follow_on_leads`` word of ``bot/lexicon/words.yaml`` ("那", "那么") or holds a pronoun ("它的")."""
    body = text.strip()
    leads = words.lexicon()["follow_on_leads"]["zh"]
    return any(body.startswith(x) for x in leads) or any(p in body for p in words.pronouns("zh"))


def cue_intent(text: str, lang: str) -> str:
    """The intent whose cues (placeholders read as pronouns) weigh most on ``text`` with at
    least 3 ("is it optional?" → ``required``), or ``""``."""
    best, score = "", 0.0
    for name in REGISTRY:
        got = sum(w for rx, w in _raw_cues(name, lang) if rx.search(text))
        if got > score:
            best, score = name, got
    return best if score >= 3 else ""


def asks_own(u, last_intent: str) -> bool:
    """An English follow-up with a pronoun that asks its own question ("what do I serve it
    on?"): it has content words and none of the last intent's cues match it, so it is not
    the last question again about the remembered entity (that is "and it?", "what about
    them?"); it stays ``general`` about the remembered entity."""
    if u.language != "en" or not content_words(u.text):
        return False
    return not any(rx.search(u.text) for rx, _w in _raw_cues(last_intent, u.language))


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


def _word(lang: str, forms: list[str]) -> str:
    """The form of a ``question_words`` group to say in a ``lang`` reply (its first English form
    in English, else its Chinese word)."""
    return next((w for w in forms if w.isascii()), forms[0]) if lang != "zh" else forms[0]


def _quoted(d: Draft, used: list) -> bool:
    """Finish ``d`` as an answer made of sentences quoted from the chunks ``used`` (in the order
    quoted): they are its hits and cited passages, it is found, and no neighbourhood facts follow
    them. Always True."""
    d.hits = used
    d.passages = [Passage(id=h.id, doc=h.doc, section=h.section, text=h.text, score=1.0, line=h.line) for h in used]
    d.found = True
    d.parts["list"] = True
    return True
