"""Intent ``contains``: a recipe's ingredients (required / optional, with amounts) and tools."""

from __future__ import annotations

import re

from ...knowledge.facts import Fact
from ..compose import join, t
from .base import Context, Draft, Intent, register


@register
class Contains(Intent):
    """Slot: the recipe."""

    name = "contains"
    whole_dish = True
    reads_parts = True
    needs = ("recipe",)

    def retrieve(self, c: Context) -> Draft | None:
        """The recipe's CONTAINS edges in source order."""
        if not (c.ctx and c.ctx.id):
            return None
        return Draft(facts=c.contains(c.ctx.id))

    def compose(self, c: Context, d: Draft) -> None:
        """The ingredient list, then "how is it made?" as a follow-up. A question asking what
        else may go in ("还可以加什么？", "what else can I add?") gets the optional items and the
        recipe's lines that offer additions instead (:meth:`extras`), when it has any."""
        d.follow_ups = [t(c.lang, f"{c.ctx.name}怎么做？", f"What are the steps for {c.ctx.name}?")]
        if self.asks_extras(c.q.text, c.lang):
            text = self.extras(c, d)
            if text:
                d.text = text
                return
        d.text = contains_text(c.lang, c.ctx.name, d.facts, c.written_names(d.facts))

    def asks_extras(self, question: str, lang: str) -> bool:
        """The question asks what else may be added (the ``extras.question`` cues of contains.yaml)."""
        cue = self.data["extras"]["question"]["zh" if lang == "zh" else "en"]
        return re.search(cue, question, re.I) is not None

    def extras(self, c: Context, d: Draft) -> str:
        """The optional items of the recipe and the lines of its document that offer an
        addition (the ``extras.line`` cues: "还可以搭配…", "（可选）", a "…版" variant heading),
        quoted with their line; ``""`` when there are none."""
        written = c.written_names(d.facts)
        opt = [written.get(f.object_id, f.object) for f in d.facts
               if f.object_type != "tool" and not f.properties.get("required", True)]
        cue = re.compile(self.data["extras"]["line"]["zh" if c.lang == "zh" else "en"], re.I)
        lines: list[str] = []
        used = []
        for h in c.own_chunks(c.ctx):
            for raw in (h.text or "").splitlines():
                text = raw.strip().lstrip("-*•>#0123456789.) ").strip()
                if text and cue.search(text) and text not in lines and len(lines) < EXTRA_LINES:
                    lines.append(text)
                    if h not in used:
                        used.append(h)
        if not opt and not lines:
            return ""
        out = []
        if opt:
            out.append(t(c.lang, f"{c.ctx.name}里可选的：{join(c.lang, opt)}。", f"Optional in {c.ctx.name}: {join(c.lang, opt)}."))
        if lines:
            quoted = "\n".join(f"- {x}" for x in lines)
            out.append(t(c.lang, f"{c.ctx.name}的原文还提到：\n{quoted}", f"{c.ctx.name} also says:\n{quoted}"))
        if used:
            d.hits = used + [h for h in d.hits if h not in used]
        return "\n".join(out)


#: Lines of a recipe an "what else can I add?" answer quotes at most.
EXTRA_LINES = 4


def contains_text(lang: str, recipe: str, facts: list[Fact], written: dict[str, str] | None = None) -> str:
    """List a recipe's ingredients (required / optional, with amounts) and tools, each named as
    the recipe writes it when ``written`` (object id → name, see ``Context.written_names``) says so."""
    written = written or {}

    def name(f: Fact) -> str:
        return written.get(f.object_id, f.object)

    def fmt(f: Fact) -> str:
        amt = f.properties.get("amount")
        return f"{name(f)} {amt}" if amt else name(f)

    ingr = [f for f in facts if f.object_type != "tool"]
    tools = [f for f in facts if f.object_type == "tool"]
    req = [fmt(f) for f in ingr if f.properties.get("required", True)]
    opt = [fmt(f) for f in ingr if not f.properties.get("required", True)]
    lines = [t(lang, f"{recipe}需要：{join(lang, req)}。", f"{recipe} needs: {join(lang, req)}.")] if req else []
    if opt:
        lines.append(t(lang, f"可选：{join(lang, opt)}。", f"Optional: {join(lang, opt)}."))
    if tools:
        lines.append(t(lang, f"工具：{join(lang, [name(f) for f in tools])}。", f"Tools: {join(lang, [name(f) for f in tools])}."))
    return "\n".join(lines)
