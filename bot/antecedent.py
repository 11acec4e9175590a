"""What a follow-up that names nothing is about: the earlier question plus the names the bot's answer to it
introduced (used by the resolver and by the ``follow`` intent; it imports no intent, so both can import it)."""

from __future__ import annotations

import re

from ..knowledge import text as T
from . import words
from .evidence import name_terms
from .memory import ThreadState


#: Names of the previous answer's first line added to a follow-up's search at most.
ANSWER_NAMES = 2

#: English content words a thread's first question about named things needs beyond its pronoun for
#: the pronoun to point inside it ("can an SRC member who steps down nominate someone to replace
#: them?"); fewer ("what can I use instead of it in this recipe?") and it is asked back. Chinese
#: questions are always asked back: their character bigrams do not tell a named antecedent
#: ("这两款有哪些共同的原料？" names none). A follow-up with fewer passes on what it was searched with.
ANTECEDENT_WORDS = 5


def own_words(text: str) -> int:
    """Content words (English) plus Chinese character bigrams of ``text``, pronouns left out."""
    low = text.casefold()
    for p in words.pronouns("zh"):
        low = low.replace(p, " ")
    en = [w for w in T.content_words(low) if w not in {p.casefold() for p in words.pronouns("en")}]
    return len(en) + len(T.cjk_bigrams(low))


def antecedent_text(state: ThreadState, asked: str, text: str) -> str:
    """What a follow-up ``text`` that names nothing is searched with: the earlier question
    ``asked``, then the names (:func:`~threadgraph.bot.evidence.name_terms`) the first line of
    the bot's answer to it introduced, at most :data:`ANSWER_NAMES` of them, neither question
    having them ("What should I use for <task>?" → "Use <tool> to …" → "and if it's
    unavailable?": the pronoun is the tool). Pronouns and articles around a name are dropped.
    No names are added after a question that was a follow-up itself (a pronoun, "and …") or
    an answer that starts with a list item; a follow-up's follow-up is searched with what the
    earlier one was searched with too when the earlier one says too little to stand alone (fewer
    than ``ANTECEDENT_WORDS`` own content words) ("Should I reuse my <tool> password?" → "How often do I
    have to change it?" → "and what about security questions?": the thread is about passwords)."""
    turns = state.turns
    idx = next((i for i in range(len(turns) - 1, -1, -1)
                if turns[i].get("role") == "user" and turns[i].get("text") == asked), None)
    if words.pronoun_re().search(asked) or asked.strip().casefold().startswith("and "):
        # a follow-up's own answer does not move the thread's topic; what it went on from still is
        # it when the follow-up says too little to stand alone ("How often do I have to change
        # it?"), after the follow-up itself (a long search keeps its start: the nearer question's)
        before = turns[idx].get("context", "") if idx is not None and own_words(asked) < ANTECEDENT_WORDS else ""
        return f"{asked} {before}".strip()
    if idx is None or idx + 1 >= len(turns) or turns[idx + 1].get("role") != "bot":
        return asked
    lines = [x.strip() for x in (turns[idx + 1].get("text") or "").splitlines() if x.strip()]
    lead = next((x for x in lines if not x.startswith(("(", "（"))), "")
    if re.match(r"^(?:[-*•]|\d{1,3}[.)])\s", lead):
        return asked  # an answer that starts with a list item leads with no subject of its own
    skip = {w.casefold() for w in words.pronouns("en")} | {"the", "a", "an", "this", "that", "these", "those"}
    seen = f"{asked} {text}".casefold()
    names = []
    for term in name_terms(lead):
        ws = term.split()
        while ws and ws[0].casefold() in skip:
            ws = ws[1:]
        while ws and ws[-1].casefold() in skip:
            ws = ws[:-1]
        name = " ".join(ws)
        if len(name) >= 2 and name.casefold() not in seen and name not in names:
            names.append(name)
        if len(names) >= ANSWER_NAMES:
            break
    return " ".join([asked] + names)


def swap_label(previous: str, item: str) -> str:
    """The previous question asked again about ``item`` when ``item`` is an item's label (letters,
    then a number: "a P3", "L2") and the previous question named another label of the same kind
    (the same letters: "P1"): "What should I do when a P1 is declared?" + "what about a
    P3?" → "What should I do when a P3 is declared?". ``previous`` unchanged otherwise."""
    from .evidence import LABEL

    new = re.sub(r"^(?:the|an?)\s+", "", " ".join((item or "").split()), flags=re.I)
    if not LABEL.fullmatch(new):
        return previous
    kind = re.match(r"[A-Za-z]+", new).group().casefold()

    def same_kind(m: re.Match) -> str:
        old = m.group()
        return new if re.match(r"[A-Za-z]+", old).group().casefold() == kind and old.casefold() != new.casefold() else old

    return LABEL.sub(same_kind, previous)
