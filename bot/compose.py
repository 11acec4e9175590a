"""Deterministic answer text from graph facts and passages (no LLM).

Every sentence is built from a retrieved fact or passage; nothing is added
that the KB does not hold. Chinese and English templates; the language is the
question's.
"""

from __future__ import annotations

import re

from ..knowledge.retrieval import GraphFact

SNIPPET_CHARS = 160


def _t(lang: str, zh: str, en: str) -> str:
    return zh if lang == "zh" else en


def _join(lang: str, items: list[str]) -> str:
    items = [i for i in items if i]
    if lang == "zh":
        return "、".join(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + ", and " + items[-1]


def _src(f: GraphFact) -> str:
    return f"{f.doc}:{f.line}" if f.line else f.doc


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """One-line excerpt of a passage, at most ``limit`` characters."""
    t = " ".join(text.split())
    return t if len(t) <= limit else t[: limit - 1] + "…"


def substitute_text(lang: str, item: str, recipe: str | None, facts: list[GraphFact], uses: list[GraphFact]) -> str:
    """Answer "what can replace ``item`` (in ``recipe``)" from SUBSTITUTES facts."""
    lines = []
    if uses:
        u = uses[0]
        req = u.properties.get("required")
        lines.append(
            _t(lang, f"{u.subject}里的{u.object}是{'必需' if req else '可选'}原料。",
               f"In {u.subject}, {u.object} is {'required' if req else 'optional'}.")
        )
    here = [f for f in facts if recipe and f.properties.get("context_name") == recipe]
    general = [f for f in facts if not f.properties.get("context") and f.properties.get("hop") != 2]
    elsewhere = [f for f in facts if f.properties.get("context") and f.properties.get("context_name") != recipe and f.properties.get("hop") != 2]
    two_hop = [f for f in facts if f.properties.get("hop") == 2]

    def fmt(f: GraphFact) -> str:
        cond = f.properties.get("condition")
        return f"{f.object}（{cond}）" if (cond and lang == "zh") else (f"{f.object} ({cond})" if cond else f.object)

    if here:
        lines.append(_t(lang, f"做{recipe}时，{item}可以用{_join(lang, [fmt(f) for f in here])}代替。",
                        f"In {recipe}, {item} can be replaced by {_join(lang, [fmt(f) for f in here])}."))
    if general:
        lines.append(_t(lang, f"一般来说，{item}可以用{_join(lang, [fmt(f) for f in general])}代替。",
                        f"In general, {item} can be replaced by {_join(lang, [fmt(f) for f in general])}."))
    if elsewhere:
        parts = [
            _t(lang, f"{f.object}（见{f.properties.get('context_name')}）", f"{f.object} (in {f.properties.get('context_name')})")
            for f in elsewhere
        ]
        head = _t(lang, "其他菜谱里" if (here or general) else f"知识库里没有{recipe}专门的说法，但其他菜谱里" if recipe else "菜谱里",
                  "Other recipes" if (here or general) else (f"Nothing specific to {recipe}, but other recipes" if recipe else "Recipes"))
        lines.append(_t(lang, f"{head}用过的替代：{item} → {_join(lang, parts)}。",
                        f"{head} replace {item} with {_join(lang, parts)}."))
    if two_hop:
        parts = [_t(lang, f"{f.object}（经由{f.properties.get('via')}）", f"{f.object} (via {f.properties.get('via')})") for f in two_hop]
        lines.append(_t(lang, f"间接替代（两跳，仅供参考）：{_join(lang, parts)}。", f"Indirect (two hops, less certain): {_join(lang, parts)}."))
    return "\n".join(lines)


def delegation_text(lang: str, role: str, facts: list[GraphFact]) -> str:
    """"X delegates somebody in the role's stead" sentences."""
    who = _join(lang, list(dict.fromkeys(f.subject for f in facts)))
    return _t(lang, f"{role}不在时，由{who}指派其他人代为履职。",
              f"If the {role} is not available, the {who} delegates somebody to act in their stead.")


def responsible_text(lang: str, task: str, facts: list[GraphFact]) -> str:
    """Answer "who is responsible for ``task``" from responsible_for facts."""
    roles = list(dict.fromkeys(f.subject for f in facts))
    things = list(dict.fromkeys(f.object for f in facts))
    return _t(lang, f"根据 SOP，{_join(lang, roles)}负责{_join(lang, things)}。",
              f"According to the SOPs, the {_join(lang, roles)} {'is' if len(roles) == 1 else 'are'} responsible for the {_join(lang, things)}.")


def stand_in_text(lang: str, role: str, facts: list[GraphFact], reverse: bool = False) -> str:
    """Answer "who can stand in for ``role``" (or, with ``reverse``, "what can ``role`` cover")."""
    def names(key) -> list[str]:
        seen: dict[str, str] = {}
        for f in facts:  # one mention per role; the first condition found is kept
            name = key(f)
            if name not in seen or (not seen[name] and f.properties.get("condition")):
                seen[name] = f.properties.get("condition") or ""
        return [f"{n} ({c})" if c else n for n, c in seen.items()]

    if reverse:
        subs = names(lambda f: f.subject)
        return _t(lang, f"{role}可以接替：{_join(lang, subs)}。",
                  f"The {role} can take on the responsibilities of {_join(lang, ['the ' + x for x in subs])}.")
    objs = names(lambda f: f.object)
    return _t(lang, f"可以代替{role}的角色：{_join(lang, objs)}。",
              f"The {role} can be stood in for by {_join(lang, ['the ' + x for x in objs])}.")


def contains_text(lang: str, recipe: str, facts: list[GraphFact]) -> str:
    """List a recipe's ingredients (required / optional, with amounts) and tools."""
    def fmt(f: GraphFact) -> str:
        amt = f.properties.get("amount")
        return f"{f.object} {amt}" if amt else f.object

    ingr = [f for f in facts if f.properties.get("type", "ingredient") != "tool"]
    tools = [f for f in facts if f.properties.get("type") == "tool"]
    req = [fmt(f) for f in ingr if f.properties.get("required", True)]
    opt = [fmt(f) for f in ingr if not f.properties.get("required", True)]
    lines = [_t(lang, f"{recipe}需要：{_join(lang, req)}。", f"{recipe} needs: {_join(lang, req)}.")] if req else []
    if opt:
        lines.append(_t(lang, f"可选：{_join(lang, opt)}。", f"Optional: {_join(lang, opt)}."))
    if tools:
        lines.append(_t(lang, f"工具：{_join(lang, [f.object for f in tools])}。", f"Tools: {_join(lang, [f.object for f in tools])}."))
    return "\n".join(lines)


def used_in_text(lang: str, item: str, facts: list[GraphFact], more: bool) -> str:
    """List recipes that use ``item``."""
    names = list(dict.fromkeys(f.subject for f in facts))
    tail = _t(lang, "等" if more else "", " and more" if more else "")
    return _t(lang, f"用到{item}的菜：{_join(lang, names)}{tail}。", f"Recipes that use {item}: {_join(lang, names)}{tail}.")


def shared_text(lang: str, a: str, b: str, pairs: list[tuple[GraphFact, GraphFact]]) -> str:
    """Ingredients two recipes share."""
    names = list(dict.fromkeys(p[0].object for p in pairs))
    return _t(lang, f"{a}和{b}共同的原料：{_join(lang, names)}。", f"{a} and {b} share: {_join(lang, names)}.")


def required_text(lang: str, recipe: str, item: str, facts: list[GraphFact]) -> str:
    """Whether ``item`` is required in ``recipe``."""
    f = facts[0]
    amt = f.properties.get("amount")
    if f.properties.get("required", True):
        return _t(lang, f"是的，{f.object}是{recipe}的必需原料" + (f"（{amt}）" if amt else "") + "。",
                  f"Yes: {f.object} is required in {recipe}" + (f" ({amt})" if amt else "") + ".")
    return _t(lang, f"不一定：{f.object}在{recipe}里是可选的" + (f"（{amt}）" if amt else "") + "。",
              f"No: {f.object} is optional in {recipe}" + (f" ({amt})" if amt else "") + ".")


def exclude_text(lang: str, item: str, names: list[str], total: int, include: str | None = None) -> str:
    """Recipes without ``item`` (optionally containing ``include``)."""
    if include:
        return _t(lang, f"用{include}但不用{item}的菜（共 {total} 道）：{_join(lang, names)}。",
                  f"Recipes with {include} but without {item} ({total}): {_join(lang, names)}.")
    return _t(lang, f"不用{item}的菜共有 {total} 道，例如：{_join(lang, names)}。",
              f"{total} recipes do not use {item}, for example: {_join(lang, names)}.")


def steps_text(lang: str, title: str, facts: list[GraphFact]) -> str:
    """Numbered steps of a document or recipe."""
    lines = [_t(lang, f"{title}的步骤：", f"Steps for {title}:")]
    groups: dict[str, list[GraphFact]] = {}
    for f in facts:  # steps keep the section that lists them ("Steps for Scribe")
        groups.setdefault(f.subject, []).append(f)
    for section, steps in groups.items():
        if len(groups) > 1:
            lines.append(f"{section}:")
        for i, f in enumerate(steps, 1):
            lines.append(f"{i}. {snippet(f.properties.get('text') or f.object, 200)}")
    return "\n".join(lines)


def responsibility_text(lang: str, role: str, facts: list[GraphFact], passages) -> str:
    """What a role does, from the steps/sections that name it and passages."""
    lines = []
    if facts:
        lines.append(_t(lang, f"{role}的职责（来自 SOP）：", f"What the {role} does, according to the SOPs:"))
        for f in facts[:8]:
            # section CONTAINS step: the step text; step -RELATED-> role: the step (subject)
            step = f.properties.get("text") or (f.subject if f.relation == "RELATED" else f.object)
            lines.append(f"- {snippet(step, 200)}")
    elif passages:
        lines.append(_t(lang, f"关于{role}：", f"About the {role}:"))
        for i, p in enumerate(passages[:2]):
            lines.append(f"- {snippet(p.text, 360 if i == 0 else 200)}")  # the describing section gets room
    return "\n".join(lines)


_SENTENCE = re.compile(r"(?<=[。！？；!?;])|(?<=[.])\s+|\n+")
_STOP_EN = frozenset("a an the of for to in on and or is are be do does how what who which when where why i we you it this that with by as at from can should".split())


def _terms(question: str) -> list[str]:
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9-]*", question.casefold()) if w not in _STOP_EN and len(w) > 2]
    grams = [run[i : i + 2] for run in re.findall(r"[\u3400-\u9fff]+", question) for i in range(len(run) - 1)]
    return words + grams


def focused_snippet(text: str, question: str = "", limit: int = SNIPPET_CHARS) -> str:
    """An excerpt of ``text`` of at most ``limit`` characters that starts at
    the sentence sharing most terms with ``question`` (English content words,
    Chinese character bigrams) — the query-biased snippet of search engines
    (Tombros & Sanderson, 1998) — or at the start when nothing matches."""
    terms = _terms(question)
    sentences = [x.strip() for x in _SENTENCE.split(text) if x and x.strip()]
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
    lines = [_t(lang, "相关内容：", "From the knowledge base:")]
    for p in passages[:limit]:
        where = p.section or p.doc.rsplit("/", 1)[-1]
        lines.append(f"- {where}: {focused_snippet(p.text, question, 200)}")
    return "\n".join(lines)


def not_found_text(lang: str, what: str, suggestions: list[str]) -> str:
    """Plain "no evidence" answer with "did you mean" candidates."""
    base = _t(lang, f"知识库里没有关于{what}的依据。" if what else "知识库里没有找到能回答这个问题的依据。",
              f"The knowledge base has no evidence about {what}." if what else "The knowledge base has no evidence to answer this.")
    if suggestions:
        base += _t(lang, f" 你是不是想问：{_join(lang, suggestions)}？", f" Did you mean: {_join(lang, suggestions)}?")
    return base


def fact_line(lang: str, f: GraphFact) -> str:
    """One fact as a short sentence-like line."""
    if f.relation == "SUBSTITUTES":
        ctx = f.properties.get("context_name")
        return _t(lang, f"{f.subject} 可以用 {f.object} 代替" + (f"（{ctx}）" if ctx else ""),
                  f"{f.subject} can be replaced by {f.object}" + (f" (in {ctx})" if ctx else ""))
    if f.relation == "CONTAINS":
        req = f.properties.get("required")
        tag = "" if req is None else _t(lang, "（必需）" if req else "（可选）", " (required)" if req else " (optional)")
        return _t(lang, f"{f.subject} 包含 {f.object}{tag}", f"{f.subject} contains {f.object}{tag}")
    pred = f.properties.get("predicate") or f.relation.lower()
    return f"{snippet(f.subject, 80)} —{pred}→ {snippet(f.object, 80)}"


def candidate_text(lang: str, item: str, cand: str, recipe: str | None, confirmed: list[GraphFact], others: list[GraphFact]) -> str:
    """Answer "can ``cand`` replace ``item`` (in ``recipe``)?" from SUBSTITUTES facts."""
    where = _t(lang, f"在{recipe}里" if recipe else "", f" in {recipe}" if recipe else "")
    if confirmed:
        f = confirmed[0]
        ctx = f.properties.get("context_name")
        src = _t(lang, f"（见{ctx}）" if ctx and ctx != recipe else "", f" (recorded in {ctx})" if ctx and ctx != recipe else "")
        return _t(lang, f"可以：{where}{item}可以用{cand}代替{src}。", f"Yes: {item} can be replaced by {cand}{where}{src}.")
    alts = list(dict.fromkeys(f.object for f in others))
    return _t(lang, f"知识库没有记录{cand}可以代替{item}；记录过的替代是：{_join(lang, alts)}。",
              f"The knowledge base does not record {cand} as a substitute for {item}; recorded substitutes: {_join(lang, alts)}.")
