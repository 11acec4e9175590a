"""Deterministic answer text shared by every intent (no LLM).

Every sentence is built from a retrieved fact or passage; nothing is added
that the KB does not hold. Chinese and English templates; the language is the
question's. Each intent's own sentences live in its module under
``bot/intents/``.
"""

from __future__ import annotations

from ..knowledge.facts import Fact
from ..knowledge.text import cjk_bigrams, content_words, split_sentences

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


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """One-line excerpt of a passage, at most ``limit`` characters."""
    s = " ".join(text.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"




def focused_snippet(text: str, question: str = "", limit: int = SNIPPET_CHARS) -> str:
    """An excerpt of ``text`` of at most ``limit`` characters that starts at
    the sentence sharing most terms with ``question`` (English content words,
    Chinese character bigrams) — the query-biased snippet of search engines
    (Tombros & Sanderson, 1998) — or at the start when nothing matches."""
    terms = content_words(question) + cjk_bigrams(question)
    sentences = split_sentences(text)
    if not terms or len(sentences) < 2:
        return snippet(text, limit)
    low = [x.casefold() for x in sentences]
    scores = [sum(1 for t in terms if t in x) for x in low]
    best = max(range(len(sentences)), key=lambda i: (scores[i], -i))
    if scores[best] == 0:
        return snippet(text, limit)
    return snippet(" ".join(sentences[best:]), limit)


def passages_text(lang: str, passages, limit: int = 2, question: str = "") -> str:
    """Answer an open question with the best passages: short excerpts that
    start at the sentence matching the question (the full passages travel in
    ``Answer.passages``)."""
    lines = [t(lang, "相关内容：", "From the knowledge base:")]
    for p in passages[:limit]:
        where = p.section or p.doc.rsplit("/", 1)[-1]
        lines.append(f"- {where}: {focused_snippet(p.text, question, 200)}")
    return "\n".join(lines)


def not_found_text(lang: str, what: str, suggestions: list[str]) -> str:
    """Plain "no evidence" answer with "did you mean" candidates."""
    base = t(lang, f"知识库里没有关于{what}的依据。" if what else "知识库里没有找到能回答这个问题的依据。",
              f"The knowledge base has no evidence about {what}." if what else "The knowledge base has no evidence to answer this.")
    if suggestions:
        base += t(lang, f" 你是不是想问：{join(lang, suggestions)}？", f" Did you mean: {join(lang, suggestions)}?")
    return base


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
    pred = f.properties.get("predicate") or f.relation.lower()
    return f"{snippet(f.subject, 80)} —{pred}→ {snippet(f.object, 80)}"
