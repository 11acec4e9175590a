"""Graph retrieval: one parameterized Cypher query per question type, plus
subgraph expansion for open questions.

Every function takes a :class:`~threadgraph.knowledge.graph.GraphStore` and
entity ids (never user text as query text) and returns
:class:`~threadgraph.knowledge.facts.Fact` records with provenance, best first.
"""

from __future__ import annotations

from typing import Callable

from .facts import Fact, Source
from .graph import GraphStore
from . import text as T
from .text import lexicon

_PROV = "r.id AS fid, r.doc AS doc, r.section AS section, r.line AS line, r.confidence AS confidence"


def _fact(row: dict, relation: str, props: dict, object_type: str | None = None) -> Fact:
    return Fact(
        id=row["fid"], subject=row["sn"], relation=relation, object=row["obn"],
        properties={k: v for k, v in props.items() if v not in (None, "")},
        source=Source(doc=row["doc"] or "", section=row["section"] or "", line=int(row["line"] or 0)),
        subject_id=row["s"], object_id=row["o"], object_type=object_type or "",
        confidence=float(row["confidence"] if row["confidence"] is not None else 1.0),
    )


def _sub_fact(row: dict, **extra) -> Fact:
    return _fact(
        row, "SUBSTITUTES",
        {"context": row["ctx"], "context_name": row["ctxn"], "condition": row["cond"], "symmetric": row["sym"], **extra},
    )


_SUB_COLS = (
    "a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, r.context AS ctx, r.context_name AS ctxn, "
    "r.cond AS cond, r.symmetric AS sym, " + _PROV
)


def substitutes(graph: GraphStore, item_ids: list[str], context_id: str | None = None, *, limit: int = 12) -> list[Fact]:
    """Stand-ins for any of ``item_ids`` (ingredients, tools or roles).

    Order: substitutions recorded in ``context_id`` (e.g. the recipe) first,
    then general ones (no context), then those recorded in other contexts,
    then 2-hop ones through an intermediate item (``properties.hop = 2``,
    ``via``). A symmetric edge ``A or B`` counts in both directions; a
    directed edge ``X -> Y`` means "Y can replace X".
    """
    if not item_ids:
        return []
    direct = graph.query(
        f"MATCH (a:Entity)-[r:SUBSTITUTES]->(b:Entity) WHERE a.id IN $ids RETURN {_SUB_COLS}", {"ids": item_ids}
    )
    reverse = graph.query(
        f"MATCH (b:Entity)-[r:SUBSTITUTES]->(a:Entity) WHERE a.id IN $ids AND r.symmetric RETURN {_SUB_COLS}",
        {"ids": item_ids},
    )
    facts: list[Fact] = []
    seen: set[str] = set()
    for row in direct:
        facts.append(_sub_fact(row))
    for row in reverse:
        # a symmetric edge B -> A read from the asked item's side: s = A (asked), o = B
        facts.append(_sub_fact(row))

    def rank(f: Fact) -> tuple:
        ctx = f.properties.get("context", "")
        tier = 0 if (context_id and ctx == context_id) else 1 if not ctx else 2
        return (tier, -f.confidence, f.object, f.id)

    facts.sort(key=rank)
    out = []
    for f in facts:
        key = (f.object_id, f.properties.get("context", ""))
        if f.object_id in item_ids or key in seen:
            continue
        seen.add(key)
        out.append(f)
    if not out:
        two_hop = _two_hop(graph, item_ids)
        have = {f.object_id for f in out}
        for row in two_hop:
            if row["o"] in have:
                continue
            have.add(row["o"])
            out.append(_sub_fact(row, hop=2, via=row["via"]))
    return out[:limit]


def replaced_by(graph: GraphStore, cand_ids: list[str], context_id: str | None = None, *, limit: int = 12) -> list[Fact]:
    """What any of ``cand_ids`` is recorded to replace: directed SUBSTITUTES edges ``X -> Y``
    with ``Y`` among ``cand_ids`` ("Y can replace X"), and symmetric edges ``Y -> X`` read the
    same way (subject ``X``, object ``Y``): the evidence for "can I use Y (instead of X)?" when
    the question names only ``Y``. Ordered as :func:`substitutes` (the context's first, then
    general ones, then other contexts)."""
    if not cand_ids:
        return []
    rows = graph.query(
        f"MATCH (a:Entity)-[r:SUBSTITUTES]->(b:Entity) WHERE b.id IN $ids AND NOT a.id IN $ids RETURN {_SUB_COLS}",
        {"ids": cand_ids},
    )
    flipped = graph.query(
        "MATCH (b:Entity)-[r:SUBSTITUTES]->(a:Entity) WHERE b.id IN $ids AND NOT a.id IN $ids AND r.symmetric "
        f"RETURN {_SUB_COLS}",
        {"ids": cand_ids},
    )
    facts = [_sub_fact(r) for r in rows]
    for r in flipped:  # the symmetric edge Y -> X read from X's side
        r = dict(r)
        r["s"], r["sn"], r["o"], r["obn"] = r["o"], r["obn"], r["s"], r["sn"]
        facts.append(_sub_fact(r))

    def rank(f: Fact) -> tuple:
        ctx = f.properties.get("context", "")
        return (0 if (context_id and ctx == context_id) else 1 if not ctx else 2, -f.confidence, f.subject, f.id)

    out, seen = [], set()
    for f in sorted(facts, key=rank):
        key = (f.subject_id, f.properties.get("context", ""))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out[:limit]


def replaceable_by(graph: GraphStore, item_id: str) -> list[Fact]:
    """The reverse of :func:`substitutes`: directed SUBSTITUTES edges ``X -> item_id``,
    i.e. the things ``item_id`` can replace (for a role: the roles it can take
    on), best first."""
    rows = graph.query(
        f"MATCH (a:Entity)-[r:SUBSTITUTES]->(b:Entity) WHERE b.id = $id RETURN {_SUB_COLS} ORDER BY r.confidence DESC, a.name",
        {"id": item_id},
    )
    return [_sub_fact(r) for r in rows]


def _two_hop(graph: GraphStore, item_ids: list[str]) -> list[dict]:
    """Items that replace a replacement of the asked item (A→M→B) where both
    steps hold in the same context (or one is general); confidence halved."""
    rows = graph.query(
        "MATCH (a:Entity)-[r1:SUBSTITUTES]->(m:Entity)-[r:SUBSTITUTES]->(b:Entity) "
        "WHERE a.id IN $ids AND NOT b.id IN $ids AND a.type = b.type "
        "AND (r1.context = r.context OR r1.context = '' OR r.context = '') "
        f"RETURN m.name AS via, a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, r.context AS ctx, "
        f"r.context_name AS ctxn, r.cond AS cond, r.symmetric AS sym, {_PROV} "
        "ORDER BY r.confidence DESC, b.name LIMIT 20",
        {"ids": item_ids},
    )
    for row in rows:
        row["confidence"] = float(row["confidence"] or 1.0) * 0.5
    return rows


def contains(graph: GraphStore, parent_id: str, *, types: list[str] | None = None, limit: int = 80) -> list[Fact]:
    """What ``parent_id`` CONTAINS (a recipe's ingredients and tools with
    ``required`` and ``amount``, a document's sections...), in source order."""
    rows = graph.query(
        "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE a.id = $id AND b.type IN $types "
        f"RETURN a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, b.type AS otype, r.required AS req, "
        f"r.amount AS amount, r.ord AS ord, {_PROV} ORDER BY r.ord, r.line LIMIT $limit",
        {"id": parent_id, "types": types or ["ingredient", "tool"], "limit": limit},
    )
    return [_fact(r, "CONTAINS", {"required": r["req"], "amount": r["amount"]}, r["otype"]) for r in rows]


def contains_edge(graph: GraphStore, parent_id: str, item_ids: list[str]) -> list[Fact]:
    """The CONTAINS edges from ``parent_id`` to any of ``item_ids``, in source order."""
    return contains_among(graph, [parent_id], item_ids)


def used_in(graph: GraphStore, item_ids: list[str], *, limit: int = 30) -> list[Fact]:
    """Recipes (or other parents) that CONTAIN any of ``item_ids``."""
    rows = graph.query(
        "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE b.id IN $ids AND a.type = 'recipe' "
        f"RETURN a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, r.required AS req, r.amount AS amount, {_PROV} "
        "ORDER BY r.required DESC, a.name LIMIT $limit",
        {"ids": item_ids, "limit": limit},
    )
    return [_fact(r, "CONTAINS", {"required": r["req"], "amount": r["amount"]}) for r in rows]


def shared(graph: GraphStore, a_id: str, b_id: str) -> list[tuple[Fact, Fact]]:
    """Items both ``a_id`` and ``b_id`` CONTAIN, as pairs of edges."""
    rows = graph.query(
        "MATCH (a:Entity)-[r:CONTAINS]->(i:Entity)<-[r2:CONTAINS]-(b:Entity) "
        "WHERE a.id = $a AND b.id = $b AND i.type = 'ingredient' "
        f"RETURN a.id AS s, a.name AS sn, i.id AS o, i.name AS obn, r.required AS req, r.amount AS amount, {_PROV}, "
        "b.id AS s2, b.name AS sn2, r2.id AS fid2, r2.doc AS doc2, r2.section AS section2, r2.line AS line2, "
        "r2.confidence AS confidence2, r2.required AS req2, r2.amount AS amount2 ORDER BY r.ord",
        {"a": a_id, "b": b_id},
    )
    out = []
    for r in rows:
        f1 = _fact(r, "CONTAINS", {"required": r["req"], "amount": r["amount"]})
        r2 = {"fid": r["fid2"], "s": r["s2"], "sn": r["sn2"], "o": r["o"], "obn": r["obn"], "doc": r["doc2"],
              "section": r["section2"], "line": r["line2"], "confidence": r["confidence2"]}
        out.append((f1, _fact(r2, "CONTAINS", {"required": r["req2"], "amount": r["amount2"]})))
    return out


def recipes_without(graph: GraphStore, exclude_ids: list[str], include_ids: list[str] | None = None, *, limit: int = 15) -> tuple[int, list[Fact]]:
    """Recipes that CONTAIN none of ``exclude_ids`` (and, when given, some of
    ``include_ids``). Returns ``(total count, facts)``: with ``include_ids``
    the positive CONTAINS edges (at most ``limit``), otherwise no facts — use
    :func:`recipe_names_without` for the names."""
    if include_ids:
        rows = graph.query(
            "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE a.type = 'recipe' AND b.id IN $inc "
            "AND NOT EXISTS { MATCH (a)-[:CONTAINS]->(x:Entity) WHERE x.id IN $exc } "
            f"RETURN a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, r.required AS req, r.amount AS amount, {_PROV} "
            "ORDER BY a.name",
            {"inc": include_ids, "exc": exclude_ids},
        )
        facts = [_fact(r, "CONTAINS", {"required": r["req"], "amount": r["amount"]}) for r in rows]
        return len(facts), facts[:limit]
    total = graph.query(
        "MATCH (a:Entity) WHERE a.type = 'recipe' AND NOT EXISTS { MATCH (a)-[:CONTAINS]->(x:Entity) WHERE x.id IN $exc } "
        "RETURN count(a) AS n",
        {"exc": exclude_ids},
    )[0]["n"]
    return int(total), []


def recipe_names_without(graph: GraphStore, exclude_ids: list[str], *, limit: int = 15) -> list[dict]:
    """Names and docs of recipes that CONTAIN none of ``exclude_ids``."""
    return graph.query(
        "MATCH (a:Entity) WHERE a.type = 'recipe' AND NOT EXISTS { MATCH (a)-[:CONTAINS]->(x:Entity) WHERE x.id IN $exc } "
        "RETURN a.id AS id, a.name AS name, a.doc AS doc ORDER BY a.name LIMIT $limit",
        {"exc": exclude_ids, "limit": limit},
    )


def steps(graph: GraphStore, doc: str, *, section_like: str | None = None, limit: int = 40) -> list[Fact]:
    """Numbered steps of document ``doc`` in source order (parent section →
    step, ``properties.text`` the step text). ``section_like`` keeps only
    steps whose parent section name contains it (case-insensitive)."""
    rows = graph.query(
        "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE b.type = 'step' AND r.doc = $doc "
        "AND ($sec = '' OR lower(a.name) CONTAINS lower($sec)) "
        f"RETURN a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, b.text AS text, r.ord AS ord, {_PROV} "
        "ORDER BY r.line LIMIT $limit",
        {"doc": doc, "sec": section_like or "", "limit": limit},
    )
    return [_fact(r, "CONTAINS", {"text": r["text"], "order": r["ord"]}) for r in rows]


def role_steps(graph: GraphStore, role_ids: list[str], *, limit: int = 30) -> list[Fact]:
    """Steps that name one of ``role_ids`` (step CONTAINS/RELATED role), with
    the step text — what the role does according to the SOPs."""
    rows = graph.query(
        "MATCH (b:Entity)-[r]->(a:Entity) WHERE a.id IN $ids AND b.type = 'step' "
        f"RETURN b.id AS s, b.text AS sn, a.id AS o, a.name AS obn, label(r) AS rel, {_PROV} "
        "ORDER BY r.doc, r.line LIMIT $limit",
        {"ids": role_ids, "limit": limit},
    )
    return [_fact(r, r["rel"], {}) for r in rows]


def docs_of(graph: GraphStore, entity_ids: list[str], *, limit: int = 8) -> list[str]:
    """Documents that define or mention ``entity_ids``: the entity's own doc
    first, then docs whose chunks MENTION it most."""
    own = graph.query("MATCH (e:Entity) WHERE e.id IN $ids AND e.doc <> '' RETURN DISTINCT e.doc AS doc", {"ids": entity_ids})
    docs = [r["doc"] for r in own]
    if len(docs) < limit:
        rows = graph.query(
            "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity) WHERE e.id IN $ids RETURN c.doc AS doc, count(*) AS n "
            "ORDER BY n DESC, doc LIMIT $limit",
            {"ids": entity_ids, "limit": limit},
        )
        docs += [r["doc"] for r in rows if r["doc"] not in docs]
    return docs[:limit]


def neighbourhood(graph: GraphStore, entity_ids: list[str], *, per_hop: int = 12, hops: int = 2) -> list[Fact]:
    """Subgraph expansion for open questions: up to ``per_hop`` triples per
    hop, breadth-first from ``entity_ids`` over CONTAINS, SUBSTITUTES and
    RELATED (structure nodes — sections and steps — are not expanded)."""
    frontier = list(entity_ids)
    seen_nodes = set(frontier)
    out: list[Fact] = []
    seen_facts: set[str] = set()
    for hop in range(1, hops + 1):
        if not frontier:
            break
        rows = []
        for pattern in ("(a:Entity)-[r]->(b:Entity)", "(b:Entity)-[r]->(a:Entity)"):
            rows += graph.query(
                f"MATCH {pattern} WHERE a.id IN $ids AND NOT b.type IN ['section', 'step', 'document'] "
                "AND label(r) <> 'MENTIONS' "
                "RETURN CASE WHEN $out THEN a.id ELSE b.id END AS s, CASE WHEN $out THEN a.name ELSE b.name END AS sn, "
                "CASE WHEN $out THEN b.id ELSE a.id END AS o, CASE WHEN $out THEN b.name ELSE a.name END AS obn, "
                f"label(r) AS rel, b.id AS nb, {_PROV} ORDER BY r.confidence DESC, r.doc, r.line LIMIT $limit",
                {"ids": frontier, "limit": per_hop, "out": pattern.startswith("(a")},
            )
        nxt = []
        for r in rows:
            if r["fid"] in seen_facts:
                continue
            seen_facts.add(r["fid"])
            out.append(_fact(r, r["rel"], {"hop": hop}))
            if r["nb"] not in seen_nodes:
                seen_nodes.add(r["nb"])
                nxt.append(r["nb"])
        frontier = nxt
    return out


#: Modifiers before (a cooked X is an X) and forms after (X碎: crushed X) the same ingredient, ``lexicon/variants.yaml``.
VARIANT_PREFIXES: tuple[str, ...] = tuple(lexicon("variants")["prefixes"])
VARIANT_SUFFIXES: tuple[str, ...] = tuple(lexicon("variants").get("suffixes", []))
#: English forms written after an ingredient's name, with their space (" nut", " halves").
VARIANT_SUFFIXES_EN: tuple[str, ...] = tuple(lexicon("variants").get("suffixes_en", []))


KIND_PREFIXES: tuple[str, ...] = tuple(lexicon("variants").get("kind_prefixes", []))


def _bases(name: str) -> set[str]:
    """``name`` and what remains of it without a variant or kind prefix and/or a variant suffix."""
    out = {name}
    for p in ("",) + VARIANT_PREFIXES + KIND_PREFIXES:
        for s in ("",) + VARIANT_SUFFIXES:
            if (p or s) and len(name) > len(p) + len(s) and name.startswith(p) and name.endswith(s):
                out.add(name[len(p):len(name) - len(s)] if s else name[len(p):])
    return out


def same_base(a: str, b: str, known: Callable[[str], bool] = lambda _n: False) -> bool:
    """True when ingredient names ``a`` and ``b`` differ but name one base thing: they are equal, or
    one is the other, after a variant prefix and/or suffix (熟X / X, X片 / X;
    :data:`VARIANT_PREFIXES`, :data:`VARIANT_SUFFIXES`) or a kind modifier before it (大X / X,
    老X / X; ``kind_prefixes`` of ``lexicon/variants.yaml``) is removed — or both are, leaving a
    base that ``known`` accepts as a name (生X / X片 → X; never two products whose common tail names nothing)."""
    if not a or not b or a == b:
        return False
    ba, bb = _bases(a), _bases(b)
    if a in bb or b in ba:
        return True
    return any(known(x) for x in (ba & bb))


def entity_ids_named(graph: GraphStore, names: list[str], etype: str) -> list[str]:
    """Ids of the entities of type ``etype`` named exactly one of ``names`` (``[]`` for no names)."""
    if not names:
        return []
    rows = graph.query("MATCH (e:Entity) WHERE e.type = $t AND e.name IN $n RETURN e.id AS id ORDER BY e.name",
                       {"t": etype, "n": list(names)})
    return [r["id"] for r in rows]


def head_variants(graph: GraphStore, names: list[str], *, limit: int = 12) -> list[str]:
    """Ids of ingredients that are a variant of one of ``names`` (by name, at most ``limit``): a
    prefix of :data:`VARIANT_PREFIXES` and/or a suffix of :data:`VARIANT_SUFFIXES` around it
    (熟X, X碎, 熟X米 are kinds of X; X油 is not); English prefixes carry their space."""
    if not names:
        return []
    variants = [p + n + s for n in names for p in ("",) + VARIANT_PREFIXES for s in ("",) + VARIANT_SUFFIXES
                if p or s]
    # English modifiers stack ("whole raw cashew", "pitted medjool date")
    latin = [p for p in VARIANT_PREFIXES if p.endswith(" ")]
    variants += [a + b + n for n in names if n.isascii() for a in latin for b in latin if a != b]
    variants += [p + n + s for n in names if n.isascii() for p in ("",) + tuple(latin) for s in VARIANT_SUFFIXES_EN]
    rows = graph.query(
        "MATCH (e:Entity) WHERE e.type = 'ingredient' AND e.name IN $v RETURN e.id AS id ORDER BY e.name LIMIT $limit",
        {"v": variants, "limit": limit},
    )
    return [r["id"] for r in rows]


def headed_by(graph: GraphStore, names: list[str], *, limit: int = 24) -> list[str]:
    """Ids of ingredients whose English name ends with one of ``names`` as whole words, compared
    by :func:`~threadgraph.knowledge.text.name_key` ("oloroso sherry", "ground tiger nut" and
    "whole raw cashew" for "sherry", "tiger nuts", "cashews"): English names are head-final, so each
    is a kind of the asked thing. Non-Latin names and names under 3 characters are skipped."""
    keys = sorted({T.name_key(n) for n in names if n and n.isascii() and len(n.strip()) >= 3})
    if not keys:
        return []
    out: list[str] = []
    for k in keys:
        rows = graph.query(
            "MATCH (e:Entity) WHERE e.type = 'ingredient' AND (lower(e.name) = $k OR lower(e.name) ENDS WITH $tail) "
            "RETURN e.id AS id ORDER BY e.name LIMIT $limit",
            {"k": k, "tail": " " + k, "limit": limit},
        )
        out += [r["id"] for r in rows if r["id"] not in out]
    return out[:limit]


def section_steps(graph: GraphStore, titles: list[str], *, limit: int = 12) -> list[Fact]:
    """Steps listed under sections titled one of ``titles`` (exactly, case-
    insensitive), directly or one sub-heading down — e.g. the numbered list
    under "<role> > What are the responsibilities?" or "Steps for <role>".
    Facts are section CONTAINS step, ``properties.text`` the step text, in
    document and line order."""
    if not titles:
        return []
    low = [t.casefold() for t in titles]
    cols = (f"s.id AS s, s.name AS sn, st.id AS o, st.name AS obn, st.text AS text, r.ord AS ord, {_PROV}")
    rows = graph.query(
        "MATCH (s:Entity)-[r:CONTAINS]->(st:Entity) WHERE s.type = 'section' AND lower(s.name) IN $t AND st.type = 'step' "
        f"RETURN {cols} ORDER BY r.doc, r.line LIMIT $limit",
        {"t": low, "limit": limit},
    )
    rows += graph.query(
        "MATCH (p:Entity)-[:CONTAINS]->(s:Entity)-[r:CONTAINS]->(st:Entity) WHERE p.type = 'section' "
        "AND lower(p.name) IN $t AND s.type = 'section' AND st.type = 'step' "
        f"RETURN {cols} ORDER BY r.doc, r.line LIMIT $limit",
        {"t": low, "limit": limit},
    )
    rows.sort(key=lambda r: (r["doc"], int(r["line"] or 0)))
    return [_fact(r, "CONTAINS", {"text": r["text"], "order": r["ord"]}) for r in rows[:limit]]


def source_chunks(graph: GraphStore, refs: list[tuple[str, int]], *, limit: int = 3):
    """The chunks that hold the given ``(doc, line)`` source positions (for
    each, the chunk of that doc starting at or before the line), in order of
    first use, at most ``limit``. Returns :class:`~threadgraph.knowledge.vectors.Hit`
    with ``score`` 1.0 (exact provenance, not a similarity)."""
    from .vectors import Hit

    docs = sorted({d for d, _ in refs if d})
    if not docs:
        return []
    rows = graph.query(
        "MATCH (c:Chunk) WHERE c.doc IN $docs RETURN c.id AS id, c.doc AS doc, c.section AS section, "
        "c.text AS text, c.line AS line ORDER BY c.doc, c.line",
        {"docs": docs},
    )
    by_doc: dict[str, list[dict]] = {}
    for r in rows:
        by_doc.setdefault(r["doc"], []).append(r)
    out, seen = [], set()
    for doc, line in refs:
        best = None
        for r in by_doc.get(doc, []):
            if int(r["line"] or 0) <= line:
                best = r
            else:
                break
        if best is not None and best["id"] not in seen:
            seen.add(best["id"])
            out.append(Hit(best["id"], best["doc"], best["section"], best["text"], int(best["line"] or 0), 1.0, []))
            if len(out) >= limit:
                break
    return out


def responsible_for(graph: GraphStore, *, limit: int = 200) -> list[Fact]:
    """All ``RELATED responsible_for`` triples (role -> artifact/concept), for
    matching a "who is responsible for X" question against their objects."""
    rows = graph.query(
        "MATCH (a:Entity)-[r:RELATED]->(b:Entity) WHERE r.predicate = 'responsible_for' "
        f"RETURN a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, r.predicate AS pred, {_PROV} "
        "ORDER BY r.confidence DESC, r.doc, r.line LIMIT $limit",
        {"limit": limit},
    )
    return [_fact(r, "RELATED", {"predicate": r["pred"]}) for r in rows]


def delegations(graph: GraphStore, role_id: str) -> list[Fact]:
    """``RELATED delegates_stand_in`` triples whose object is ``role_id``: who
    appoints somebody when that role is missing."""
    rows = graph.query(
        "MATCH (a:Entity)-[r:RELATED]->(b:Entity) WHERE r.predicate = 'delegates_stand_in' AND b.id = $id "
        f"RETURN a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, r.predicate AS pred, {_PROV} ORDER BY r.doc, r.line",
        {"id": role_id},
    )
    return [_fact(r, "RELATED", {"predicate": r["pred"]}) for r in rows]


def doc_chunks(graph: GraphStore, doc: str, *, limit: int = 200):
    """Every chunk of document ``doc`` in source order (at most ``limit``), as
    :class:`~threadgraph.knowledge.vectors.Hit` with ``score`` 1.0: the whole
    document, for answers that need all of a list or a procedure."""
    from .vectors import Hit

    rows = graph.query(
        "MATCH (c:Chunk) WHERE c.doc = $doc RETURN c.id AS id, c.doc AS doc, c.section AS section, "
        "c.text AS text, c.line AS line ORDER BY c.line LIMIT $limit",
        {"doc": doc, "limit": limit},
    )
    return [Hit(r["id"], r["doc"], r["section"], r["text"], int(r["line"] or 0), 1.0, []) for r in rows]


def headed_chunks(graph: GraphStore, label: str, *, limit: int = 8):
    """The chunks with a line that ``label`` (an item's label: an identifier such as a level or a
    priority) heads: a line starting with it followed by a separator (a table row "<label> | …",
    a list item "- <label>: …", a line of its own), or whose last section heading starts with it as
    a whole word. Case-insensitive; in document and line order, at most ``limit``, as
    :class:`~threadgraph.knowledge.vectors.Hit` with ``score`` 1.0. ``[]`` for an empty label."""
    import re

    from .vectors import Hit

    label = (label or "").strip()
    if not label:
        return []
    low = label.casefold()
    rows = graph.query(
        "MATCH (c:Chunk) WHERE lower(c.text) CONTAINS $low OR lower(c.section) CONTAINS $low "
        "RETURN c.id AS id, c.doc AS doc, c.section AS section, c.text AS text, c.line AS line "
        "ORDER BY c.doc, c.line LIMIT $scan",
        {"low": low, "scan": HEADED_SCAN},
    )
    head = re.compile(rf"^\s*[-*]?\s*\**{re.escape(label)}\**(?![\w-])\s*(?:[|:\-–—(]|$)", re.I | re.M)
    word = re.compile(rf"^{re.escape(label)}(?![\w-])", re.I)
    out = []
    for r in rows:
        last = (r["section"] or "").split(" > ")[-1].strip()
        if head.search(r["text"] or "") or word.match(last):
            out.append(Hit(r["id"], r["doc"], r["section"], r["text"], int(r["line"] or 0), 1.0, []))
            if len(out) >= limit:
                break
    return out


#: Chunks naming a label that :func:`headed_chunks` reads at most (bounded work for a common label).
HEADED_SCAN = 400


def titled_chunks(graph: GraphStore, name: str, *, limit: int = 2):
    """The chunks of a section whose heading contains ``name`` (case-insensitive; a dish described
    in a section of a document: "<words>: <name> (<kind>)"), its sub-sections included (a bold label
    over a list, "**<label>**：", heads a sub-section), in document and line order, at most
    ``limit``, as :class:`~threadgraph.knowledge.vectors.Hit` with ``score`` 1.0. ``[]`` for a
    name shorter than 2 characters."""
    low = (name or "").strip().casefold()
    if len(low) < 2:
        return []
    out = []
    for hit in _heading_hits(graph, low, HEADED_SCAN):
        heads = [h.casefold() for h in (hit.section or "").split(" > ")]
        if any(low in h for h in heads):
            out.append(hit)
            if len(out) >= limit:
                break
    return out


def chunks_with_heading_word(graph: GraphStore, stem: str, *, limit: int = HEADED_SCAN):
    """The chunks whose heading path (``section``) contains ``stem`` (case-insensitive), in
    document and line order, at most ``limit``, as :class:`~threadgraph.knowledge.vectors.Hit`
    with ``score`` 1.0. ``[]`` for a stem shorter than 3 characters."""
    low = (stem or "").strip().casefold()
    if len(low) < 3:
        return []
    return _heading_hits(graph, low, limit)


def _heading_hits(graph: GraphStore, low: str, scan: int):
    """The chunks whose ``section`` contains the case-folded ``low``, in document and line order, at
    most ``scan``, as :class:`~threadgraph.knowledge.vectors.Hit` with ``score`` 1.0 (one
    parameterized Cypher query)."""
    from .vectors import Hit

    rows = graph.query(
        "MATCH (c:Chunk) WHERE lower(c.section) CONTAINS $low "
        "RETURN c.id AS id, c.doc AS doc, c.section AS section, c.text AS text, c.line AS line "
        "ORDER BY c.doc, c.line LIMIT $scan",
        {"low": low, "scan": scan},
    )
    return [Hit(r["id"], r["doc"], r["section"], r["text"], int(r["line"] or 0), 1.0, []) for r in rows]


def recipes_using(graph: GraphStore, item_ids: list[str], recipe_ids: list[str] | None = None) -> dict[str, list[tuple[str, str]]]:
    """Which recipes CONTAIN any of ``item_ids`` (ingredients or tools),
    among ``recipe_ids`` when given: recipe id → ``[(item id, item name)]``
    in source order. ``{}`` when ``item_ids`` (or a given ``recipe_ids``) is empty."""
    if not item_ids or (recipe_ids is not None and not recipe_ids):
        return {}
    rows = graph.query(
        "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE a.type = 'recipe' AND b.id IN $items "
        "AND ($anyrecipe OR a.id IN $recipes) RETURN a.id AS r, b.id AS i, b.name AS n ORDER BY a.id, r.ord",
        {"items": item_ids, "recipes": recipe_ids or [], "anyrecipe": recipe_ids is None},
    )
    out: dict[str, list[tuple[str, str]]] = {}
    for r in rows:
        pairs = out.setdefault(r["r"], [])
        if (r["i"], r["n"]) not in pairs:
            pairs.append((r["i"], r["n"]))
    return out


def mentioning_chunks(graph: GraphStore, entity_ids: list[str], *, limit: int = 400) -> list[dict]:
    """Chunks that MENTION any of ``entity_ids``: ``{"doc", "line", "text"}``
    rows by document and line (at most ``limit``)."""
    if not entity_ids:
        return []
    return graph.query(
        "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity) WHERE e.id IN $ids "
        "RETURN DISTINCT c.doc AS doc, c.line AS line, c.text AS text ORDER BY doc, line LIMIT $limit",
        {"ids": entity_ids, "limit": limit},
    )


def recipes_of_docs(graph: GraphStore, docs: list[str]) -> list[dict]:
    """Recipes defined in any of ``docs``: ``{"id", "name", "doc"}`` rows."""
    if not docs:
        return []
    return graph.query(
        "MATCH (a:Entity) WHERE a.type = 'recipe' AND a.doc IN $docs RETURN a.id AS id, a.name AS name, a.doc AS doc",
        {"docs": docs},
    )


def pantry_recipes(graph: GraphStore, pantry_ids: list[str], have_ids: list[str], *, limit: int = 400) -> list[dict]:
    """Recipes one can make from a pantry: those that CONTAIN at least one of
    ``pantry_ids`` and whose *required* ingredients outside ``have_ids`` (the
    pantry, its variants and the staples) number at most one.

    Returns ``{"id", "name", "doc", "used", "miss", "miss_name"}`` rows,
    ``used`` the number of pantry items the recipe uses, ``miss``/``miss_name``
    the missing ingredient (``None`` when nothing is missing); recipes missing
    nothing first, then by pantry items used (most first) and name."""
    if not pantry_ids:
        return []
    rows = graph.query(
        "MATCH (a:Entity)-[:CONTAINS]->(p:Entity) WHERE a.type = 'recipe' AND p.id IN $pantry "
        "WITH a, count(DISTINCT p.id) AS used "
        "WHERE COUNT { MATCH (a)-[r:CONTAINS]->(b:Entity) WHERE b.type = 'ingredient' AND r.required "
        "AND NOT b.id IN $have } <= 1 "
        "RETURN a.id AS id, a.name AS name, a.doc AS doc, used LIMIT $limit",
        {"pantry": pantry_ids, "have": have_ids, "limit": limit},
    )
    missing = {}
    if rows:  # the one missing ingredient of those that miss one (an OPTIONAL MATCH above costs more)
        for r in graph.query(
            "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE a.id IN $ids AND b.type = 'ingredient' AND r.required "
            "AND NOT b.id IN $have RETURN a.id AS id, b.id AS miss, b.name AS miss_name",
            {"ids": [r["id"] for r in rows], "have": have_ids},
        ):
            missing.setdefault(r["id"], (r["miss"], r["miss_name"]))
    for r in rows:
        r["miss"], r["miss_name"] = missing.get(r["id"], (None, None))
    rows.sort(key=lambda r: (r["miss"] is not None, -int(r["used"] or 0), r["name"]))
    return rows


def missing_required(graph: GraphStore, recipe_ids: list[str], have_ids: list[str]) -> dict[str, dict]:
    """For each of ``recipe_ids``: its name and the *required* ingredients it CONTAINS outside
    ``have_ids``, in source order: recipe id → ``{"name": str, "miss": [(id, name)]}``
    (``{}`` for no recipe ids)."""
    if not recipe_ids:
        return {}
    out: dict[str, dict] = {}
    for r in graph.query("MATCH (a:Entity) WHERE a.id IN $ids AND a.type = 'recipe' RETURN a.id AS id, a.name AS name",
                         {"ids": recipe_ids}):
        out[r["id"]] = {"name": r["name"], "miss": []}
    for r in graph.query(
        "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE a.id IN $ids AND b.type = 'ingredient' AND r.required "
        "AND NOT b.id IN $have RETURN a.id AS id, b.id AS miss, b.name AS miss_name ORDER BY a.id, r.ord",
        {"ids": recipe_ids, "have": have_ids},
    ):
        row = out.get(r["id"])
        if row is not None and (r["miss"], r["miss_name"]) not in row["miss"]:
            row["miss"].append((r["miss"], r["miss_name"]))
    return out


def substitutes_from(graph: GraphStore, item_ids: list[str], have_ids: list[str]) -> list[Fact]:
    """Recorded stand-ins for any of ``item_ids`` that are among ``have_ids``
    (a directed ``X -> Y`` edge, or a symmetric one read either way), best
    first: general ones and higher confidence first."""
    if not item_ids or not have_ids:
        return []
    rows = graph.query(
        f"MATCH (a:Entity)-[r:SUBSTITUTES]->(b:Entity) WHERE a.id IN $ids AND b.id IN $have RETURN {_SUB_COLS}",
        {"ids": item_ids, "have": have_ids},
    )
    rows += graph.query(
        f"MATCH (b:Entity)-[r:SUBSTITUTES]->(a:Entity) WHERE a.id IN $ids AND b.id IN $have AND r.symmetric "
        f"RETURN {_SUB_COLS}",
        {"ids": item_ids, "have": have_ids},
    )
    facts = [_sub_fact(r) for r in rows]
    facts.sort(key=lambda f: (bool(f.properties.get("context")), -f.confidence, f.object, f.id))
    return facts


def contains_among(graph: GraphStore, recipe_ids: list[str], item_ids: list[str]) -> list[Fact]:
    """The CONTAINS edges from any of ``recipe_ids`` to any of ``item_ids``
    (one query), by recipe and source order."""
    if not recipe_ids or not item_ids:
        return []
    rows = graph.query(
        "MATCH (a:Entity)-[r:CONTAINS]->(b:Entity) WHERE a.id IN $rs AND b.id IN $ids "
        f"RETURN a.id AS s, a.name AS sn, b.id AS o, b.name AS obn, b.type AS otype, r.required AS req, "
        f"r.amount AS amount, {_PROV} ORDER BY a.id, r.ord",
        {"rs": recipe_ids, "ids": item_ids},
    )
    return [_fact(r, "CONTAINS", {"required": r["req"], "amount": r["amount"]}, r["otype"]) for r in rows]
