"""Reader candidates under review: the facts the bot's reader found in
passages at question time (``<data_dir>/candidates.jsonl``, written by the
bot) exported as ``candidates.csv`` beside ``nodes.csv``/``edges.csv``, and
the rows a reviewer marks ``accepted`` made graph facts at the next ingest.

Each row carries the edge it would become, in the shape the rule
extractors give it:

* ``substitute`` / ``standin`` → ``SUBSTITUTES`` X → Y (``context`` the
  recipe asked about, else ``""``; ``condition`` ``""``; ``symmetric`` false),
  as :mod:`.recipes`, :mod:`.roles` and :mod:`.documents` write substitutions,
  role stand-ins and system fallbacks;
* ``optional`` → ``CONTAINS`` recipe → X with ``required = false``.

At ``ingest --graph-csv DIR`` a row whose ``status`` is ``accepted`` becomes
an edge with ``extractor="reader-reviewed"`` and the row's ``confidence``;
its names are linked to the build's nodes by :func:`~..knowledge.text.name_key`
(name or alias). A row naming no node is reported (file:line) and skipped.
``accepted`` and ``rejected`` decisions are remembered in the build manifest
(``candidate_review``), so they hold in later builds and are not exported as
pending again. The bot is never imported: ``candidates.jsonl`` is read as data.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from ..knowledge.records import Extraction, Provenance, Triple, stable_id
from ..knowledge.text import name_key
from .review import ReviewError

CANDIDATES = "candidates.csv"
LOG = "candidates.jsonl"
EXTRACTOR = "reader-reviewed"
FIELDS = [
    "id", "status", "relation", "subject_name", "object_name", "context", "properties",
    "kind", "sentence", "doc", "line", "extractor", "confidence",
]
STATUSES = ("pending", "accepted", "rejected")
_STRUCTURE = ("document", "section", "step")


def edge_of(kind: str, x: str, y: str, context: str) -> tuple[str, str, str, dict] | None:
    """``(relation, subject name, object name, properties)`` the cue kind
    ``kind`` of a reading becomes; ``None`` for a kind with no edge (an
    optional item read without a recipe to hold it)."""
    if kind in ("substitute", "standin") and x and y:
        return "SUBSTITUTES", x, y, {"condition": "", "symmetric": False}
    if kind == "optional" and x and context:
        return "CONTAINS", context, x, {"required": False, "amount": ""}
    return None


def candidate_id(relation: str, subject: str, obj: str, context: str, doc: str, line: int) -> str:
    """Stable id of a candidate row (``c-`` + 16 hex): the same reading logged
    twice, or under another spelling of the same names, is one row."""
    return stable_id(relation, name_key(subject), name_key(obj), name_key(context), doc, int(line or 0), prefix="c-")


def logged_candidates(data_dir: Path) -> list[dict]:
    """The rows of ``<data_dir>/candidates.jsonl`` as candidate CSV rows,
    de-duplicated by :func:`candidate_id`, in log order. Unreadable lines are
    skipped (the log is append-only and written by the bot)."""
    path = Path(data_dir) / LOG
    if not path.exists():
        return []
    out: dict[str, dict] = {}
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            r = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(r, dict) or r.get("status", "pending") != "pending":
            continue
        context = str(r.get("context") or "")
        edge = edge_of(str(r.get("kind") or ""), str(r.get("x") or ""), str(r.get("y") or ""), context)
        if edge is None:
            continue
        rel, s, o, props = edge
        try:
            line, conf = int(r.get("line") or 0), float(r.get("confidence") or 0.6)
        except (TypeError, ValueError):
            continue
        doc = str(r.get("doc") or "")
        cid = candidate_id(rel, s, o, context if rel == "SUBSTITUTES" else "", doc, line)
        out.setdefault(cid, {
            "id": cid, "status": "pending", "relation": rel, "subject_name": s, "object_name": o,
            "context": context, "properties": json.dumps(props, ensure_ascii=False, sort_keys=True),
            "kind": r.get("kind"), "sentence": r.get("sentence", ""), "doc": doc, "line": line,
            "extractor": r.get("extractor") or "reader", "confidence": conf,
        })
    return list(out.values())


def export_candidates(data_dir: Path, out_dir: Path, decided: set[str] = frozenset()) -> int:
    """Write ``out_dir/candidates.csv``: the logged candidates not yet
    ``decided`` (ids accepted or rejected in an earlier review), each with
    ``status = pending``. Returns the rows written."""
    rows = [r for r in logged_candidates(data_dir) if r["id"] not in decided]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out_dir / CANDIDATES, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, FIELDS)
        w.writeheader()
        w.writerows(rows)
    return len(rows)


def read_candidates(review_dir: Path) -> list[dict]:
    """The decided rows (``accepted``/``rejected``) of ``review_dir/candidates.csv``
    (none when the file is absent), each with ``source`` = ``"file:line"``.
    Raises :class:`ReviewError` (file and line) for a missing column, an
    unknown status or relation, a bad confidence, line or properties."""
    path = Path(review_dir) / CANDIDATES
    if not path.exists():
        return []
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            need = ["id", "status", "relation", "subject_name", "object_name", "confidence"]
            missing = [c for c in need if c not in (reader.fieldnames or [])]
            if missing:
                raise ReviewError(f"{path}:1: missing column(s) {', '.join(missing)}")
            rows = list(reader)
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ReviewError(f"{path}: not a readable CSV file ({exc})") from None
    out = []
    for i, r in enumerate(rows, start=2):
        where = f"{path}:{i}"
        status = (r.get("status") or "").strip().lower()
        if status not in STATUSES:
            raise ReviewError(f"{where}: status {r.get('status')!r} is not one of {', '.join(STATUSES)}")
        if status == "pending":
            continue
        rel = (r.get("relation") or "").strip().upper()
        if rel not in ("SUBSTITUTES", "CONTAINS", "RELATED"):
            raise ReviewError(f"{where}: relation {r.get('relation')!r} is not SUBSTITUTES, CONTAINS or RELATED")
        try:
            conf = float(r.get("confidence") or "")
        except ValueError:
            raise ReviewError(f"{where}: confidence {r.get('confidence')!r} is not a number") from None
        if not 0 < conf <= 1:
            raise ReviewError(f"{where}: confidence {conf} is not in (0, 1]")
        try:
            line = int(r.get("line") or 0)
        except ValueError:
            raise ReviewError(f"{where}: line {r.get('line')!r} is not a number") from None
        try:
            props = json.loads(r.get("properties") or "{}")
        except ValueError:
            props = None
        if not isinstance(props, dict):
            raise ReviewError(f"{where}: properties {r.get('properties')!r} is not a JSON object")
        if not (r.get("subject_name") or "").strip() or not (r.get("object_name") or "").strip():
            raise ReviewError(f"{where}: subject_name and object_name must not be empty")
        out.append({"id": (r.get("id") or "").strip(), "status": status, "relation": rel,
                    "subject_name": r["subject_name"].strip(), "object_name": r["object_name"].strip(),
                    "context": (r.get("context") or "").strip(), "properties": props,
                    "doc": (r.get("doc") or "").strip(), "line": line, "confidence": conf, "source": where})
    return out


def _index(extraction: Extraction) -> dict[str, list[str]]:
    idx: dict[str, list[str]] = {}
    for e in sorted(extraction.entities.values(), key=lambda e: e.id):
        if e.type in _STRUCTURE:
            continue
        for n in dict.fromkeys([e.name, *e.aliases]):
            ids = idx.setdefault(name_key(n), [])
            if e.id not in ids:
                ids.append(e.id)
    return idx


def _pick(ids: list[str], prefer: tuple[str, ...]) -> str:
    for p in prefer:
        for i in ids:
            if i.startswith(p + ":"):
                return i
    return ids[0] if ids else ""


def apply_candidates(extraction: Extraction, rows: list[dict], remembered: list[dict] | None = None
                     ) -> tuple[dict[str, int], list[dict], list[str]]:
    """Make the accepted candidates ``rows`` (from :func:`read_candidates`,
    read before extraction so a bad file fails fast) and the ``remembered``
    decisions of earlier reviews (which a row of the folder overrides) graph
    edges of ``extraction`` in place. Returns ``(counts, decisions,
    problems)``: counts ``candidates_accepted`` (edges added or marked),
    ``candidates_rejected``, ``candidates_unlinked``; ``decisions`` to
    remember in the manifest; ``problems`` one message per row skipped
    (``file:line: …``)."""
    decided: dict[str, dict] = {d["id"]: d for d in (remembered or []) if isinstance(d, dict) and d.get("id")}
    for r in rows:
        decided[r["id"] or stable_id(r["source"], prefix="c-")] = r
    stats = {"candidates_accepted": 0, "candidates_rejected": 0, "candidates_unlinked": 0}
    problems: list[str] = []
    if not decided:
        return stats, [], problems
    idx = _index(extraction)
    have = {t.id for t in extraction.triples}
    contains = {(t.subject, t.object): t for t in extraction.triples if t.relation == "CONTAINS"}
    order: dict[str, int] = {}
    for t in extraction.triples:
        if t.relation == "CONTAINS":
            order[t.subject] = max(order.get(t.subject, 0), int(t.properties.get("order") or 0))
    for d in decided.values():
        if d["status"] == "rejected":
            stats["candidates_rejected"] += 1
            continue
        rel = d["relation"]
        subj_prefer = ("recipe",) if rel == "CONTAINS" else ("ingredient", "tool", "role", "artifact", "concept")
        sids = idx.get(name_key(d["subject_name"]), [])
        oids = idx.get(name_key(d["object_name"]), [])
        missing = [f"{side} {name!r}" for side, name, ids in
                   (("subject", d["subject_name"], sids), ("object", d["object_name"], oids)) if not ids]
        if missing:
            stats["candidates_unlinked"] += 1
            problems.append(f"{d.get('source', '')}: {' and '.join(missing)} names no node of the graph; "
                            "row skipped (add the name to the documents or the alias table)")
            continue
        sid = _pick(sids, subj_prefer)
        same = sid.split(":", 1)[0]
        oid = _pick(oids, (same, "ingredient", "tool", "role", "artifact", "concept"))
        if sid == oid:
            problems.append(f"{d.get('source', '')}: subject and object are the same node {sid!r}; row skipped")
            stats["candidates_unlinked"] += 1
            continue
        props = dict(d.get("properties") or {})
        prov = Provenance(d.get("doc", ""), "", int(d.get("line") or 0), EXTRACTOR, float(d["confidence"]))
        if rel == "CONTAINS":
            t = contains.get((sid, oid))
            if t is not None:  # the recipe already lists it: the reviewed sentence says it is optional
                t.properties["required"] = bool(props.get("required", False))
                stats["candidates_accepted"] += 1
                continue
            order[sid] = order.get(sid, 0) + 1
            props = {"required": bool(props.get("required", False)), "amount": str(props.get("amount", "")),
                     "order": order[sid]}
        elif rel == "SUBSTITUTES":
            ctx = idx.get(name_key(d.get("context", "")), []) if d.get("context") else []
            props = {"context": _pick([c for c in ctx if c.startswith("recipe:")], ("recipe",)),
                     "condition": str(props.get("condition", "")), "symmetric": bool(props.get("symmetric", False))}
        else:
            props = {"predicate": str(props.get("predicate", "")), **{k: v for k, v in props.items() if k != "predicate"}}
        t = Triple(sid, rel, oid, props, prov)
        if t.id not in have:
            have.add(t.id)
            extraction.triples.append(t)
        stats["candidates_accepted"] += 1
    keep = [{k: v for k, v in d.items()} for d in decided.values()]
    return stats, sorted(keep, key=lambda d: d["id"]), problems
