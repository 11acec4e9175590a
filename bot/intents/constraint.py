"""Intent ``constraint``: a message that only states thread-long constraints
("我对花生过敏", "we're vegetarian", "no oven"). The answer acknowledges them
and says what they will leave out, with a few recipes of the KB as evidence;
every later answer of the thread is filtered by them
(:mod:`threadgraph.bot.constraints`)."""

from __future__ import annotations

from ...knowledge import retrieval as R
from ..compose import join, t
from ..constraints import Constraint
from .base import Context, Draft, Intent, register


@register
class ConstraintStatement(Intent):
    """No slots: the constraints come from the message (``c.screen.stated``) or the thread."""

    name = "constraint"
    memorable = False
    statement = True

    def recall(self, q, u, state) -> None:
        """Nothing to fill from memory."""

    def retrieve(self, c: Context) -> Draft | None:
        """For each stated constraint (else each remembered one), how many KB
        recipes it leaves out and up to ``examples`` of them, as CONTAINS
        facts (the evidence that they break it)."""
        screen = c.screen
        said = screen.stated or screen.constraints
        if not said:
            return Draft(parts={"rows": []})
        n = int(self.data.get("examples", 3))
        rows, facts = [], []
        for con in said:
            ids = sorted(screen._ids_of(con))  # noqa: SLF001 - the statement's own reach
            using = R.recipes_using(c.graph, ids) if ids else {}
            tools = screen._tool_recipes(con)  # noqa: SLF001
            recipes = sorted(set(using) | set(tools))
            names = []
            for rid in recipes[:n]:
                edge = R.contains_edge(c.graph, rid, [i for i, _ in using.get(rid, [])][:1]) if rid in using else []
                facts += edge[:1]
                names.append(edge[0].subject if edge else rid.split(":", 1)[-1])
            rows.append((con, len(recipes), names))
        return Draft(facts=facts, parts={"rows": rows, "new": bool(screen.stated)})

    def compose(self, c: Context, d: Draft) -> None:
        """Acknowledge (see :meth:`text`)."""
        d.text = self.text(c.lang, d.parts["rows"], d.parts.get("new", True))

    def extend(self, c: Context, d: Draft) -> None:
        """An acknowledgement is an answer even when no recipe is affected
        (and in the passages-only mode, without the graph's counts)."""
        if d.parts.get("rows") is None:
            said = c.screen.stated or c.screen.constraints
            d.parts = {"rows": [(con, None, []) for con in said], "new": bool(c.screen.stated)}
            d.text, d.passages = "", []
        if not d.text:
            d.text = self.text(c.lang, d.parts["rows"], d.parts.get("new", True))
        d.found = bool(d.parts["rows"])

    def missing(self, c: Context) -> str:
        """Nothing was stated."""
        return ""

    def text(self, lang: str, rows: list[tuple[Constraint, int, list[str]]], new: bool = True) -> str:
        """"记住了：你对花生过敏。之后的回答会排除用到花生的菜（知识库里有 13 道，例如…）…"
        from the ``text`` templates of the data file. ``rows``: (constraint,
        recipes it leaves out — ``None``: not counted —, example names); ``new``: just stated."""
        tpl = self.data["text"]
        lg = "zh" if lang == "zh" else "en"
        if not rows:
            return tpl["none"][lg]
        reasons = t(lang, "、", "; ").join(con.reason(lang) for con, _, _ in rows)
        lines = [tpl["new" if new else "current"][lg].format(reasons=reasons)]
        for con, total, names in rows:
            what = con.what(lang)
            if total is None:
                continue  # not counted (no graph)
            if total:
                key = "leaves_out_tool" if con.kind == "equipment" else "leaves_out"
                lines.append(tpl[key][lg].format(what=what, total=total, examples=join(lang, names)))
            else:
                lines.append(tpl["nothing"][lg].format(what=what))
        lines.append(tpl["reset"][lg])
        return "\n".join(lines)
