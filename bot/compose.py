"""Deterministic answer text shared by every intent (no LLM).

Every sentence is built from a retrieved fact or passage; nothing is added
that the KB does not hold. Chinese and English templates; the language is the
question's. Each intent's own sentences live in its module under
``bot/intents/``.
"""

from __future__ import annotations

import re

from ..knowledge.facts import Fact
from ..knowledge.text import CJK_CLASS, cjk_bigrams, content_words, has_cjk, split_sentences
from . import words

SNIPPET_CHARS = 160


def t(lang: str, zh: str, en: str) -> str:
    """``zh`` for a Chinese question (``lang == "zh"``), ``en`` otherwise."""
    return zh if lang == "zh" else en


def join(lang: str, items: list[str]) -> str:
    """A list in running text: ``a、b、c`` in Chinese, ``a, b, and c`` in English (empty items dropped)."""
    items = [i for i in items if i]
    if lang == "zh":
        return "、".join(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + ", and " + items[-1]


def word_cut(text: str, limit: int) -> str:
    """The start of ``text`` of at most ``limit`` characters, cut at a word boundary: at the last
    space within ``limit`` when the cut falls inside a word of a spaced script ("horizontal pod
    autoscaling" at 20 → "horizontal pod"); CJK text, or a first word longer than ``limit``, is
    cut at ``limit``. ``text`` itself when it fits. No ellipsis is added."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    if text[limit].isspace() or not text[limit].isalnum() or has_cjk(text[limit - 1:limit + 1]):
        return head.rstrip()
    space = head.rfind(" ")
    return head[:space].rstrip() if space > 0 else head


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """One-line excerpt of a passage, at most ``limit`` characters."""
    s = " ".join(text.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


#: Longest single sentence an excerpt shows whole (longer ones are cut at a clause end).
SENTENCE_CAP = 400
_CLAUSE_END = re.compile(r"[，,；;：:、)）]")
#: A list item or numbered step at the start of a line.
_LIST_ITEM = re.compile(r"^(?:[-*•]\s|\d{1,3}(?:[.)]\s|、))")


def is_list_item(line: str) -> bool:
    """Whether ``line`` starts with a list item's or numbered step's marker ("- ", "2. ", "3、")."""
    return bool(_LIST_ITEM.match(line))


def whole_sentences(sentences: list[str], limit: int, groups: list[int] | None = None) -> str:
    """As many of ``sentences`` as fit in ``limit`` characters, joined; never a
    part of a sentence, except that a first sentence longer than both ``limit``
    and :data:`SENTENCE_CAP` is cut at its last clause end before the cap
    (marked "…"). A list item starts a new line, and so does what follows it: the
    sentence after a list item's last one. ``groups`` (aligned with ``sentences``,
    see :func:`_sentence_items`) says which sentences make one item ("2. Mix well; rest
    for ten minutes" is one item of two sentences); without it every sentence is its own."""
    out: list[str] = []
    used = 0
    in_item, last_group = False, None
    for k, s in enumerate(sentences):
        s = " ".join(s.split())
        if not s:
            continue
        group = groups[k] if groups is not None and k < len(groups) else k
        starts_item = bool(_LIST_ITEM.match(s))
        sep = "" if not out else "\n" if starts_item or (in_item and group != last_group) \
            else "" if out[-1][-1:] >= "\u2e80" else " "
        if out and used + len(sep) + len(s) > limit:
            break
        if not out and len(s) > max(limit, SENTENCE_CAP):
            head = s[:SENTENCE_CAP]
            cut = max((m.end() for m in _CLAUSE_END.finditer(head)), default=0)
            return (head[:cut] if cut > SENTENCE_CAP // 2 else head).rstrip("，,；;：: ") + "…"
        out.append(sep + s)
        used += len(sep) + len(s)
        in_item = starts_item or (in_item and group == last_group)
        last_group = group
    return "".join(out)


#: A line that ends a sentence or introduces what follows (the next line is not its continuation).
_LINE_END = re.compile(r"[.!?;:。！？；：…]\W*$")
#: A line that is not running text: a heading, a table row, a block quote, a code fence or a rule.
_BLOCK_LINE = re.compile(r"^(?:#|\||>|```|~~~|[-=*_]{3,}\s*$)")
#: A hard-wrapped line is at least this long: its text went on on the next line.
WRAP_WIDTH = 60


def unwrap_lines(text: str) -> list[str]:
    """The lines of ``text`` with hard-wrapped prose joined back (a Markdown paragraph or list
    item written over several source lines is one line): a non-blank line that is not a list
    item, heading, table row, quote or fence continues the line before it when that one does not
    end a sentence (:data:`_LINE_END`) and either the line starts with a lower-case letter
    ("We page" / "these people (in order):") or the line before is at
    least :data:`WRAP_WIDTH` characters long (wrapped at a fixed width). Short unpunctuated lines
    followed by a capitalised one (an ingredient per line) stay apart."""
    out: list[str] = []
    prev_raw = ""
    for raw in text.splitlines():
        line = raw.strip()
        if (out and line and prev_raw and not _LIST_ITEM.match(line) and not _BLOCK_LINE.match(line)
                and not _BLOCK_LINE.match(prev_raw) and not _LINE_END.search(prev_raw)
                and (line[:1].islower() or len(prev_raw) >= WRAP_WIDTH)):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
        prev_raw = line
    return out


def sentences_of(text: str) -> list[str]:
    """The sentences of ``text`` line by line (hard-wrapped lines joined back first, see
    :func:`unwrap_lines`), a list item's marker ("- ", "2. ") kept on its first sentence (so
    "2." is never a sentence of its own)."""
    return [s for s, _ in _sentence_items(text)]


def _paragraph_ids(text: str) -> list[int]:
    """For each sentence of :func:`sentences_of` ``text``, the index of the paragraph it is in:
    prose lines between blank lines (hard-wrapped lines joined, see :func:`unwrap_lines`) make
    one paragraph; a list item, heading, table row, quote or fence line is one of its own."""
    out: list[int] = []
    para, open_ = 0, False
    for line in unwrap_lines(text):
        if not line.strip():
            if open_:
                para, open_ = para + 1, False
            continue
        m = _LIST_ITEM.match(line)
        own = bool(m or _BLOCK_LINE.match(line))
        if own and open_:
            para, open_ = para + 1, False
        marker, rest = (line[:m.end()], line[m.end():]) if m else ("", line)
        parts = split_sentences(rest) or ([""] if marker else [])
        if parts:
            parts[0] = (marker + parts[0]).strip()
        out += [para] * sum(1 for x in parts if x)
        if own:
            para += 1
        else:
            open_ = True
    return out


def _sentence_items(text: str) -> list[tuple[str, int]]:
    """:func:`sentences_of` with, for each sentence, the index of the first sentence of the list
    item it belongs to (its own index outside list items)."""
    out: list[tuple[str, int]] = []
    for line in unwrap_lines(text):
        m = _LIST_ITEM.match(line)
        marker, rest = (line[:m.end()], line[m.end():]) if m else ("", line)
        parts = split_sentences(rest) or ([""] if marker else [])
        if parts:
            parts[0] = (marker + parts[0]).strip()
        first = len(out)
        out += [(x, first if marker else first + k) for k, x in enumerate(x for x in parts if x)]
    return out


def best_sentence(sentences: list[str], question: str, rare_ties: bool = False) -> tuple[int, int]:
    """``(index, score)`` of the sentence sharing most terms with ``question``
    (English content words, Chinese character bigrams; among equals the first, or with
    ``rare_ties`` the one whose terms fewer of ``sentences`` hold, then the first); ``(0, 0)``
    when none does."""
    terms = content_words(question) + cjk_bigrams(question)
    if not terms or not sentences:
        return 0, 0
    low = [x.casefold() for x in sentences]
    held = [[t for t in terms if t in x] for x in low]
    scores = [len(h) for h in held]
    # ties go to the sentence holding the rarer terms (fewer sentences of the passage hold them:
    # a word only the answering sentence holds over one every sentence holds), then to the earlier one
    df = {t: sum(1 for h in held if t in h) for t in set(terms)}
    rarity = [sum(1.0 / df[t] for t in h) if rare_ties else 0.0 for h in held]
    best = max(range(len(sentences)), key=lambda i: (scores[i], rarity[i], -i))
    return (best, scores[best]) if scores[best] else (0, 0)


def excerpt(text: str, question: str = "", limit: int = SNIPPET_CHARS, start: int | None = None,
            at_least: int = 1, rare_ties: bool = False, whole_list: bool = True,
            whole_paragraph: bool = False) -> str:
    """Whole sentences of ``text``, at most ``limit`` characters (see
    :func:`whole_sentences`), starting at the sentence that shares most terms
    with ``question`` (among equals, with ``rare_ties``, the one holding rarer terms, see
    :func:`best_sentence`) — the query-biased snippet of search engines (Tombros &
    Sanderson, 1998) — or at the start when nothing matches; at sentence ``start``
    (an index of :func:`sentences_of`) when it is given. At least ``at_least``
    sentences are shown (the chosen one and its next neighbours) when they fit
    :data:`NEIGHBOUR_CHARS` together. With ``whole_list`` (the default) an excerpt that stops
    inside a numbered or bulleted list shows the list to its end; without it, the excerpt
    stays within ``limit`` (a pointer to related text, not an answer). With ``whole_paragraph``
    an excerpt that stops inside a paragraph of prose shows it to its end when the excerpt then
    takes at most :data:`NEIGHBOUR_CHARS` (a paragraph makes one point: "If X, do not … Wait for
    … If you get no answer, phone …")."""
    items = _sentence_items(text)
    sentences = [x for x, _ in items]
    i = best_sentence(sentences, question, rare_ties)[0] if start is None or not 0 <= start < len(sentences) \
        else start
    if 0 <= i < len(items) and 0 < i - items[i][1] <= ITEM_BACK \
            and sum(len(x) + 1 for x in sentences[items[i][1]:i]) <= ITEM_BACK_CHARS:
        i = items[i][1]  # "It also …" inside "- <a tool> does X. It also …"
    i = _list_start(sentences, i)
    if 0 < i < len(sentences) and _step_title(sentences[i - 1]) and not _LIST_ITEM.match(sentences[i]):
        i -= 1  # "2. Optionally back up first" over the paragraph that explains the step
    if 0 < i < len(sentences) and _leads_with_pronoun(sentences[i]):
        i -= 1  # "It can do …": the sentence before names what "it" is
        while i > 0 and sentences[i][:1].islower() and i > 0:
            i -= 1  # … from its start when that is a wrapped line's continuation
    groups = [g for _, g in items][i:]
    if not whole_list and 0 <= i < len(sentences) and not _LIST_ITEM.match(sentences[i]):
        # a pointer: the prose that matched, not the list that follows it
        end = next((k for k in range(i + 1, len(sentences)) if _LIST_ITEM.match(sentences[k])), len(sentences))
        sentences, groups = sentences[:end], groups[:end - i]
    out = whole_sentences(sentences[i:], limit, groups)
    shown = _count(sentences[i:], out)
    if shown < at_least <= len(sentences) - i:
        need = sum(len(" ".join(x.split())) + 1 for x in sentences[i:i + at_least])
        if need <= NEIGHBOUR_CHARS:
            out = whole_sentences(sentences[i:], max(limit, need), groups)
            shown = _count(sentences[i:], out)
    if whole_paragraph and shown:
        paras = _paragraph_ids(text)
        if len(paras) == len(items):
            end = i + shown
            while end < len(sentences) and paras[end] == paras[end - 1] and not _LIST_ITEM.match(sentences[end]):
                end += 1
            while end > i + shown and not _ENDS_SENTENCE.search(sentences[end - 1]):
                end -= 1  # a paragraph the chunk cuts ("… so tha"): finish it only to its last whole sentence
            need = sum(len(" ".join(x.split())) + 1 for x in sentences[i:end])
            if end > i + shown and need <= NEIGHBOUR_CHARS:
                out = whole_sentences(sentences[i:end], max(limit, need), groups)
                shown = _count(sentences[i:], out)
    if (shown and i + shown < len(sentences) and sentences[i + shown - 1].rstrip().endswith((":", "："))
            and not _LIST_ITEM.match(sentences[i + shown])):
        # "… adding or changing this environment variable:" introduces what follows (a command, a
        # setting, an address written on its own line): the excerpt shows it too
        need = sum(len(" ".join(x.split())) + 1 for x in sentences[i:i + shown + 1])
        if need <= NEIGHBOUR_CHARS:
            out = whole_sentences(sentences[i:i + shown + 1], max(limit, need), groups)
            shown = _count(sentences[i:], out)
    rest = sentences[i + shown:]
    if whole_list and shown and any(_LIST_ITEM.match(x) for x in rest[:3]) and (
            any(_LIST_ITEM.match(x) for x in sentences[i:i + shown])
            or sentences[i + shown - 1].rstrip().endswith((":", "："))):
        # the excerpt stops inside a list: show the list to its end (within LIST_EXTRA more characters)
        out = whole_sentences(sentences[i:], limit + LIST_EXTRA, groups)
    return out


#: Characters the sentences an excerpt must show at least (its chosen sentence and next neighbours) may take.
NEIGHBOUR_CHARS = 560
#: A sentence that ends as sentences do (a stop, a colon, a closing quote or bracket), not cut by a chunk's end.
_ENDS_SENTENCE = re.compile(r"[.!?。！？…:：;；\"”'’)）\]]\s*$")
#: Characters an excerpt may grow by to finish a list it stops inside.
LIST_EXTRA = 320
#: List items an excerpt starting inside a numbered list may step back to reach its first item.
LIST_BACK = 3
_NUMBERED = re.compile(r"^(\d{1,3})[.)、]")


def _list_start(sentences: list[str], i: int) -> int:
    """``i``, or the first item of the numbered list sentence ``i`` is a later item of ("2. …"
    → "1. …"), when that is at most :data:`LIST_BACK` sentences back."""
    m = _NUMBERED.match(sentences[i]) if 0 <= i < len(sentences) else None
    if not m or int(m.group(1)) <= 1:
        return i
    for j in range(i - 1, max(-1, i - 1 - LIST_BACK), -1):
        k = _NUMBERED.match(sentences[j])
        if k and int(k.group(1)) == 1:
            return j
    return i


#: Sentences (and their characters) an excerpt starting inside a list item may step back to reach
#: the item's start: a short item's first sentence names what the next ones say, a long item's
#: first sentence is a step of its own.
ITEM_BACK = 2
ITEM_BACK_CHARS = 200
#: Longest numbered line read as the title of the paragraph after it.
STEP_TITLE_CHARS = 60


def _step_title(sentence: str) -> bool:
    """A numbered line that titles the paragraph after it ("2. Optionally back up first"): at
    most :data:`STEP_TITLE_CHARS` characters, not ending a sentence or introducing a list."""
    s = sentence.strip()
    return bool(_NUMBERED.match(s)) and len(s) <= STEP_TITLE_CHARS and not _LINE_END.search(s)


def _count(sentences: list[str], shown: str) -> int:
    """How many of ``sentences`` the excerpt ``shown`` (from :func:`whole_sentences`) holds."""
    n, used = 0, 0
    flat = " ".join(shown.split())
    for s in sentences:
        s = " ".join(s.split())
        if not s:
            n += 1
            continue
        pos = flat.find(s, used)
        if pos < 0:
            break
        used = pos + len(s)
        n += 1
    return n


def focused_snippet(text: str, question: str = "", limit: int = SNIPPET_CHARS) -> str:
    """An excerpt of ``text`` of at most ``limit`` characters in whole sentences
    that starts at the sentence sharing most terms with ``question`` (see :func:`excerpt`)."""
    return excerpt(text, question, limit)


def _leads_with_pronoun(sentence: str) -> bool:
    """The sentence starts with one of the ``leading_pronouns`` of ``bot/lexicon/words.yaml``, or
    with one of its ``leading_demonstratives`` as the subject of one of their verbs ("This is …")."""
    text = sentence.strip().lstrip("-*• ")
    if not text:
        return False
    lead = words.lexicon()["leading_pronouns"]
    first = text.split(None, 1)[0].strip(",.:;").casefold()
    if first in lead["en"] or any(text.startswith(p) for p in lead["zh"]):
        return True
    dem = words.lexicon()["leading_demonstratives"]["en"]
    two = text.split(None, 2)
    return len(two) >= 2 and first in dem["words"] and two[1].strip(",.:;").casefold() in dem["verbs"]


def named_excerpt(text: str, section: str) -> str:
    """``text`` led by its section's last heading when it starts with a pronoun that heading
    names ("It can do …" under a heading "<tool>" → "<tool>: It can do …"); else ``text``."""
    head = section.split(" > ")[-1].strip()
    if not head or not text or head.casefold() in text.casefold():
        return text
    if _leads_with_pronoun(text):
        return f"{head}: {text}" if head.isascii() and text[:1].isascii() else f"{head}：{text}"
    return text


def passages_text(lang: str, passages, limit: int = 2, question: str = "",
                  ranked: list[tuple[int, int, float]] | None = None) -> str:
    """Answer an open question with the best passages, answer first: whole
    sentences of the lead passage starting at the one that answers the
    question, then a shorter excerpt of the next passage with its section.
    ``ranked`` is ``(passage index, sentence index, score)`` of sentences chosen by
    meaning, best first (:func:`threadgraph.bot.sentences.lead_sentence`): the answer
    leads with the first one's passage, and each listed passage's excerpt starts at
    its sentence; without it the lead is :func:`lead_passage`'s and excerpts start
    where most question terms are.
    The full passages travel in ``Answer.passages``."""
    shown = list(passages[:limit])
    if not shown:
        return ""
    starts: dict[int, int] = {pi: si for pi, si, _ in ranked or []}
    lead = ranked[0][0] if ranked else lead_passage(passages, question) if question else 0
    order = [lead] + [i for i in range(min(limit, len(passages))) if i != lead][:limit - 1] if lead \
        else list(range(len(shown)))
    shown = [passages[i] for i in order]
    paras = [named_excerpt(excerpt(shown[0].text, question, 320, starts.get(order[0]), LEAD_SENTENCES,
                                   whole_paragraph=True),
                           shown[0].section or "")]
    for i, p in zip(order[1:], shown[1:]):
        where = (p.section or "").split(" > ")[-1].strip()
        # a shorter excerpt: among sentences sharing as many terms, the one holding rarer ones
        body = excerpt(p.text, question, 200, starts.get(i), rare_ties=True)
        if body and body not in paras[0]:
            paras.append(t(lang, f"另见「{where}」：{body}" if where else f"另见：{body}",
                           f"See also “{where}”: {body}" if where else f"See also: {body}"))
    return "\n\n".join(x for x in paras if x)


#: Sentences an open answer's lead excerpt shows at least: the one that answers and the next (within
#: :data:`NEIGHBOUR_CHARS`): "… the whole site is down. In such cases, the service can be restored from …".
LEAD_SENTENCES = 2
#: Passages (best first) whose sentences an open answer may lead with.
LEAD_FROM = 3
#: How many more question terms a later passage's best sentence must share to lead instead of the first passage.
LEAD_MARGIN = 3


def lead_passage(passages, question: str) -> int:
    """Index (among the first :data:`LEAD_FROM`) of the passage an open answer leads with: the
    first, unless a later one holds a sentence sharing at least :data:`LEAD_MARGIN` more of the
    question's terms than any sentence of the first: the search ranks a role's glossary entry
    first, the sentence saying what the question asks is in the next passage."""
    scores = [best_sentence(sentences_of(p.text), question)[1] for p in passages[:LEAD_FROM]]
    if len(scores) < 2:
        return 0
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return best if best and scores[best] >= scores[0] + LEAD_MARGIN else 0


def more_text(lang: str, n: int) -> str:
    """" and N more" / "等 N 项" for a list cut short (``""`` when ``n`` ≤ 0)."""
    if n <= 0:
        return ""
    return t(lang, f"，另有 {n} 项", f", and {n} more")


def fit_names(names: list[str], budget: int, lang: str, most: int = 1000) -> tuple[list[str], int]:
    """The leading ``names`` (at most ``most``) whose running-text list fits
    ``budget`` characters, and how many were left out (at least one is kept)."""
    out: list[str] = []
    used = 0
    for n in names:
        add = len(n) + (1 if lang == "zh" else 2)
        if out and (used + add > budget or len(out) >= most):
            break
        out.append(n)
        used += add
    return out, len(names) - len(out)


def not_found_text(lang: str, what: str, suggestions: list[str]) -> str:
    """Plain "no evidence" answer with "did you mean" candidates."""
    end = "" if what.endswith("…") else "."
    base = t(lang, f"知识库里没有关于{what}的依据。" if what else "知识库里没有找到能回答这个问题的依据。",
              f"The knowledge base has no evidence about {what}{end}" if what else "The knowledge base has no evidence to answer this.")
    if suggestions:
        base += t(lang, f" 你是不是想问：{join(lang, suggestions)}？", f" Did you mean: {join(lang, suggestions)}?")
    return base


def family_text(lang: str, what: str, names: list[str], shown: int = 5) -> str:
    """The answer when ``what`` names no entry but several entries are kinds of it ("X" →
    "southern X", "quick X"…): how many there are, the first ``shown``, and which one is meant."""
    more = len(names) - shown
    listed = join(lang, names[:shown]) + (t(lang, f"等 {len(names)} 个", f" and {more} more") if more > 0 else "")
    return t(lang, f"知识库里有 {len(names)} 个名字里带“{what}”的条目：{listed}。你问的是哪一个？",
             f"The knowledge base has {len(names)} entries named like “{what}”: {listed}. Which one do you mean?")


def fact_line(lang: str, f: Fact) -> str:
    """One fact as a short sentence-like line."""
    if f.relation == "SUBSTITUTES":
        ctx = f.properties.get("context_name")
        return t(lang, f"{f.subject} 可以用 {f.object} 代替" + (f"（{ctx}）" if ctx else ""),
                  f"{f.subject} can be replaced by {f.object}" + (f" (in {ctx})" if ctx else ""))
    if f.relation == "CONTAINS":
        req = f.properties.get("required")
        tag = "" if req is None else t(lang, "（必需）" if req else "（可选）", " (required)" if req else " (optional)")
        return t(lang, f"{f.subject} 包含 {f.object}{tag}", f"{f.subject} contains {f.object}{tag}")
    pred = (f.properties.get("predicate") or "").replace("_", " ")
    return f"{snippet(f.subject, 80)}: {pred + ' ' if pred else ''}{snippet(f.object, 80)}"


#: Longest source line quoted after a fact (characters).
QUOTE_CHARS = 240
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def source_line(f, hits) -> str:
    """The line of fact ``f``'s source passage (among ``hits``) that states it, as the document
    writes it ("Create the postmortem, and assign an owner …"; list markers and link targets
    dropped): the first line naming both its subject and object, else its object; ``""`` when
    no line does."""
    names = [f.subject.casefold(), f.object.casefold()]
    first = ""
    for h in hits:
        if h.doc != f.source.doc or (h.line or 0) > f.source.line:
            continue
        for line in (h.text or "").splitlines():
            x = _MD_LINK.sub(r"\1", re.sub(r"^\d+[.)]\s*", "", line.strip(" -*\t")))
            low = x.casefold()
            if names[1] and names[1] in low:
                x = x if len(x) <= QUOTE_CHARS else x[:QUOTE_CHARS - 1] + "…"
                if names[0] and names[0] in low:
                    return x
                first = first or x
    return first


#: Characters of a list's continuation (items in the next chunk of the document) an answer shows at most.
CONTINUATION_CHARS = 480


def list_continuation(shown: str, text: str, next_text: str, limit: int = CONTINUATION_CHARS) -> str:
    """The list items that continue, at the start of the document's next chunk ``next_text``, a
    list an excerpt ``shown`` of the chunk ``text`` stops at the end of: chunking cut the list
    ("Try in the following order: 1. …" | "2. … 3. …"). Non-empty only when ``shown`` holds the
    chunk's last sentence, and ``next_text`` starts with the list's next item: a numbered item
    numbered one more than that sentence's item when ``shown`` holds the list's item "1." too (it
    shows the list, not one item of it), or, when that sentence introduces a list (ends
    with a colon), an item "1." or a bullet (a bullet after a bullet may start another list, its
    nesting lost in the chunk); then the items (with their sentences) up to
    the first line that is no part of them, whole, within ``limit`` characters (joined by
    newlines). ``""`` otherwise."""
    items = _sentence_items(text)
    if not items or not shown:
        return ""
    last = " ".join(items[-1][0].split())
    if not last or last not in " ".join(shown.split()):
        return ""
    nxt = _sentence_items(next_text)
    if not nxt or not _LIST_ITEM.match(nxt[0][0]):
        return ""
    head = items[items[-1][1]][0].strip()  # the first sentence of the last item (its marker)
    m_last, m_next = _NUMBERED.match(head), _NUMBERED.match(nxt[0][0])
    intro = not _LIST_ITEM.match(head) and last.rstrip().endswith((":", "："))
    if m_next:
        n = int(m_next.group(1))
        if not ((m_last and n == int(m_last.group(1)) + 1 and _shows_first_item(items, shown)) or (intro and n == 1)):
            return ""
    elif not intro:
        return ""  # a bullet after a bullet may start another (nested) list: only a colon says one follows
    keep = []
    for k, (s, g) in enumerate(nxt):
        if not _LIST_ITEM.match(s) and g == k:
            break  # a sentence of no item: the list ended
        keep.append((s, g))
    out = whole_sentences([s for s, _ in keep], limit, [g for _, g in keep])
    return out if _count([s for s, _ in keep], out) else ""


def _shows_first_item(items: list[tuple[str, int]], shown: str) -> bool:
    """The numbered list ending ``items`` (:func:`_sentence_items` of a chunk) counts down by one
    from its last item to an item "1." that ``shown`` holds."""
    flat = " ".join(shown.split())
    firsts = [items[g][0] for g in dict.fromkeys(g for _, g in items)]  # each item's first sentence
    want = None
    for s in reversed(firsts):
        m = _NUMBERED.match(s.strip())
        if not m or (want is not None and int(m.group(1)) != want):
            return False
        if int(m.group(1)) == 1:
            return " ".join(s.split()) in flat
        want = int(m.group(1)) - 1
    return False


#: Spans an answer quotes from a source (or a section title it names): never glossed.
_QUOTED = re.compile(r"“[^”]*”|\"[^\"\n]*\"|「[^」]*」|『[^』]*』")
#: An English word of three letters or more, not a unit after a number ("20g", "1.5cm").
_EN_WORD = re.compile(r"(?<![0-9A-Za-z.])[A-Za-z]{3,}")
_CJK_RUN = re.compile(f"[{CJK_CLASS}]+")
_LATIN_RUN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z'’\-]*(?: [A-Za-z][A-Za-z'’\-]*)*(?![A-Za-z0-9])")


def glossed(text: str, lang: str, glossary) -> str:
    """``text`` (an answer in ``lang``) with each knowledge-base name written in the other
    language given its name in the answer's language: in an English answer a Chinese name the
    ``glossary`` (:class:`~threadgraph.knowledge.glossary.Glossary`) knows becomes
    "English (中文)", in a Chinese answer an English name becomes "中文（English）". Only a
    name standing alone counts (a whole run of its script: not part of a longer word of it), on
    a line of the answer's own language (an English answer's line with an English word; a
    Chinese answer's line with a Chinese character), outside quoted spans (a source's words
    stay as written). A name without a known gloss is kept as it is. The first letter of an
    English gloss that opens a line is capitalized."""
    if not text or glossary is None or not len(glossary):
        return text
    out = []
    for line in text.split("\n"):
        if lang == "zh":
            if not has_cjk(line):
                out.append(line)
                continue
            run_re, look = _LATIN_RUN, glossary.chinese
        else:
            if not has_cjk(line) or not _EN_WORD.search(_QUOTED.sub(" ", line)):
                out.append(line)
                continue
            run_re, look = _CJK_RUN, glossary.english
        masked = [(m.start(), m.end()) for m in _QUOTED.finditer(line)]
        pieces, last = [], 0
        for m in run_re.finditer(line):
            if any(a <= m.start() < b for a, b in masked):
                continue
            run = m.group().strip()
            before, after = line[max(0, m.start() - 1):m.start()], line[m.end():m.end() + 1]
            if lang != "zh" and re.search(r"[A-Za-z0-9]", before + after):
                continue  # part of a name mixing scripts (Latin letters or digits beside it)
            if re.match(r"\s*(?:, line \d|第 ?\d+ ?行)", line[m.end():]):
                continue  # a citation "(<title>, line N)" names the source as it is titled
            if re.search(r"\d[\d/.]*\s?$", line[:m.start()]):
                continue  # a unit or count after a number, not a thing named
            other = look(run)
            near = line[max(0, m.start() - len(other) - 2):m.end() + len(other) + 2]
            if not other or other.casefold() in near.casefold().replace(run.casefold(), " "):
                continue  # the other name already stands beside it (a title written in both scripts)
            if lang == "zh":
                shown = f"{other}（{run}）"
            else:
                head = line[:m.start()].rstrip().rstrip("(\"“").rstrip()
                if (not head or head[-1] in ".!?") and other[:1].islower():
                    other = other[0].upper() + other[1:]
                shown = f"{other} ({run})"
            pieces += [line[last:m.start()], shown]
            last = m.end()
        out.append("".join(pieces) + line[last:])
    return "\n".join(out)
