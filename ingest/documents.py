"""Generic and procedure (SOP) documents: ``document`` → ``section``
(heading hierarchy) → ``step`` (numbered list items) ``CONTAINS`` edges with
an ``order``. Role facts (step mentions, stand-ins, responsibilities) are
added by :class:`~.roles.RoleBook`."""

from __future__ import annotations

from ..knowledge.records import Entity, Provenance, Triple, entity_id
from .blocks import DocResult, children, section_of
from .document import ParsedDocument
from .roles import RoleBook


class DocumentExtractor:
    """Extract a generic/SOP document: ``document`` → ``section`` (heading
    hierarchy) → ``step`` (numbered list items) ``CONTAINS`` edges with an
    ``order``; role links are added by :class:`RoleBook`.

    Section ids are ``entity_id("section", f"{doc}#{heading path}")``, step ids
    ``entity_id("step", f"{doc}#{line}")`` so they are unique per document."""

    def __init__(self, roles: RoleBook | None = None) -> None:
        self.roles = roles

    def extract(self, doc: ParsedDocument) -> DocResult:
        """Run the structure rules (and role rules if a :class:`RoleBook` is
        set) on ``doc``."""
        rel = doc.rel
        did = entity_id("document", rel)
        res = DocResult(did)
        res.entities.append(Entity(did, doc.title, "document", [], doc.language, rel))
        blocks = doc.blocks
        kids = children(blocks)
        sec_ids: dict[tuple[str, ...], str] = {(): did}
        counters: dict[str, int] = {}

        def parent_of(path: tuple[str, ...]) -> str:
            while path and path not in sec_ids:
                path = path[:-1]
            return sec_ids.get(path, did)

        def nxt(pid: str) -> int:
            counters[pid] = counters.get(pid, 0) + 1
            return counters[pid]

        for i, b in enumerate(blocks):
            if b.kind == "heading" and b.path:
                sid = entity_id("section", f"{rel}#{section_of(b.path)}")
                if sid in sec_ids.values():
                    continue
                pid = parent_of(b.path[:-1])
                sec_ids[b.path] = sid
                res.entities.append(Entity(sid, b.text, "section", [], doc.language, rel))
                res.triples.append(Triple(pid, "CONTAINS", sid, {"required": True, "amount": "", "order": nxt(pid)},
                                          Provenance(rel, section_of(b.path), b.line, "doc.heading", 1.0)))
            elif b.kind == "item" and b.ordered:
                stid = entity_id("step", f"{rel}#{b.line}")
                text = b.text
                for k in kids.get(i, []):
                    if blocks[k].kind in ("item", "paragraph") and not blocks[k].ordered:
                        text += "\n- " + blocks[k].text
                pid = parent_of(b.path)
                if b.parent >= 0 and blocks[b.parent].ordered:
                    pid = entity_id("step", f"{rel}#{blocks[b.parent].line}")
                name = text.split("\n", 1)[0]
                name = name if len(name) <= 80 else name[:77] + "..."
                res.entities.append(Entity(stid, name, "step", [], doc.language, rel, text))
                res.triples.append(Triple(pid, "CONTAINS", stid, {"required": True, "amount": "", "order": b.order},
                                          Provenance(rel, section_of(b.path), b.line, "doc.numbered_item", 0.9)))
        if self.roles is not None:
            self.roles.link(doc, res)
        return res
