"""Short human citations under an answer: at most three, each the place a
quoted line comes from (else one per document): the document's title (with its section), the line, and a link when the
document has an address.

A document's address is its own ``url`` (front matter, recorded by ingest in
the KB manifest's ``doc_urls``: doc path → URL) or, failing that, the
``THREADGRAPH_SOURCE_URLS`` setting: a JSON map from a corpus folder to the
base URL it is published under, e.g.
``{"corpora/cookbook": "https://github.com/owner/cookbook/blob/main"}``.
The folder may be given from any root (``corpora/cookbook`` and
``cookbook`` both match the cited doc ``cookbook/dishes/x.md``); the doc's
path below the folder is appended to the base, or fills ``{path}`` (and
``{line}``) when the base is a template. Titles come from the KB's document
and recipe names; a file-stem title (``severity_levels``) reads as words.
"""

from __future__ import annotations

import re
import threading
from typing import Iterable
from urllib.parse import quote

from .answer import Citation, Fact, Passage

#: Citations shown under an answer at most.
MAX_SOURCES = 3
#: Longest title shown (characters).
TITLE_CHARS = 60
#: Separator between the title and the section in a citation title.
SECTION_SEP = " › "

_titles_lock = threading.Lock()
_titles: dict[str, dict[str, str]] = {}


def doc_titles(kb) -> dict[str, str]:
    """Doc path → title, from the KB's document and recipe names (the
    document's own title wins over a recipe it defines); cached per KB build."""
    key = str(getattr(kb, "build", id(kb)))
    got = _titles.get(key)
    if got is not None:
        return got
    out: dict[str, str] = {}
    for n in getattr(kb, "names", []):
        if n.doc and n.surface == n.name and n.type in ("document", "recipe"):
            if n.type == "document" or n.doc not in out:
                out[n.doc] = n.name
    with _titles_lock:
        if len(_titles) > 8:
            _titles.clear()
        _titles[key] = out
    return out


def human_title(raw: str) -> str:
    """A file-stem-like title as words: ``severity_levels`` → ``Severity levels``,
    ``index`` → ``Index``; any other title unchanged (trimmed to :data:`TITLE_CHARS`)."""
    s = raw.strip()
    if s and " " not in s and re.fullmatch(r"[A-Za-z0-9_\-.]+", s) and (re.search(r"[_-]", s) or s.islower()):
        s = re.sub(r"[_-]+", " ", s).strip()
        s = s[:1].upper() + s[1:]
    return _trim(s)


def _trim(s: str, limit: int = TITLE_CHARS) -> str:
    s = " ".join(s.split())
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


def _stem(doc: str) -> str:
    name = doc.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def citation_title(doc: str, section: str, titles: dict[str, str]) -> str:
    """``Title › last heading`` (the heading only when it is not the title itself)."""
    title = human_title(titles.get(doc) or _stem(doc))
    last = section.split(" > ")[-1].strip() if section else ""
    if last and last.casefold() != title.casefold():
        return _trim(f"{title}{SECTION_SEP}{last}")
    return title


def _below(folder: str, doc: str) -> str | None:
    """The part of ``doc`` below ``folder`` (matched from any of its trailing
    path segments), or ``None`` when ``doc`` is not in it."""
    parts = [p for p in folder.replace("\\", "/").split("/") if p and p != "."]
    for i in range(len(parts)):
        prefix = "/".join(parts[i:])
        if doc == prefix:
            return ""
        if doc.startswith(prefix + "/"):
            return doc[len(prefix) + 1:]
    return None


def source_url(doc: str, line: int, urls: dict[str, str], doc_urls: dict[str, str] | None = None) -> str | None:
    """The address of ``doc`` (see the module docstring): its own URL, else the
    longest matching folder of ``urls``; ``None`` when neither gives one."""
    own = (doc_urls or {}).get(doc)
    if own:
        return own
    best: tuple[int, str, str] | None = None
    for folder, base in (urls or {}).items():
        rest = _below(folder, doc)
        if rest is not None and base and (best is None or len(folder) > best[0]):
            best = (len(folder), base, rest)
    if best is None:
        return None
    _, base, rest = best
    path = quote(rest)
    if "{path}" in base or "{line}" in base:
        return base.replace("{path}", path).replace("{line}", str(line or 1))
    return base.rstrip("/") + ("/" + path if path else "")


def refs_of(facts: Iterable[Fact], passages: Iterable[Passage]) -> list[tuple[str, str, int]]:
    """``(doc, section, line)`` of every fact, then every passage, in order."""
    return [(f.source.doc, f.source.section, f.source.line) for f in facts] + \
        [(p.doc, p.section, p.line) for p in passages]


#: A passage line (or sentence) counts as quoted when at least this many characters of it
#: (after its list marker) appear in the answer; CJK text needs fewer.
QUOTE_CHARS = 16
QUOTE_CHARS_CJK = 6
#: A longer line or sentence also counts as quoted when its first this many characters are
#: (an answer may shorten a quoted sentence).
QUOTE_PREFIX = 40
_MARKER = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)、]|[（(]?\d{1,3}[)）])\s+")
_SENT_END = re.compile(r"(?<=[.!?。！？；;])\s+|(?<=[。！？；])")
_CJK = re.compile(r"[\u3400-\u9fff]")


def _norm(s: str) -> str:
    return " ".join(s.replace("*", " ").replace("`", " ").split()).casefold()


def quoted_line(passage: Passage, answer: str) -> int | None:
    """The source line of the first line of ``passage`` whose words the ``answer`` text
    quotes (a whole line, or one sentence of it, of at least :data:`QUOTE_CHARS` characters
    after its list marker, or its first :data:`QUOTE_PREFIX` characters), or ``None`` when it quotes none. Line ``k`` (0-based) of a
    passage's text is source line ``passage.line + k`` (see ingest/chunks.py)."""
    ans = _norm(answer)
    if not ans:
        return None
    for k, raw in enumerate(passage.text.split("\n")):
        body = _norm(_MARKER.sub("", raw))
        for piece in [body] + [_norm(x) for x in _SENT_END.split(body)]:
            need = QUOTE_CHARS_CJK if _CJK.search(piece) else QUOTE_CHARS
            if len(piece) >= need and (piece in ans or (len(piece) >= QUOTE_PREFIX and piece[:QUOTE_PREFIX] in ans)):
                return (passage.line or 1) + k if passage.line else 0
    return None


def citations(kb, settings, facts: Iterable[Fact], passages: Iterable[Passage], limit: int = MAX_SOURCES,
              answer: str = "") -> list[Citation]:
    """At most ``limit`` citations of the evidence, facts first, in the order the answer
    uses them; one per document (its first cited place).

    With the ``answer`` text, when it quotes lines of some passages (:func:`quoted_line`),
    only those passages are cited, each at the line it quotes, and a second quoted section
    of an already cited document is cited too: a citation always holds what the answer
    shows. When the answer quotes no passage, every passage may be cited (first place per
    document)."""
    titles = doc_titles(kb) if kb is not None else {}
    manifest = getattr(kb, "manifest", None) or {}
    doc_urls = manifest.get("doc_urls") if isinstance(manifest, dict) else None
    urls = getattr(settings, "source_urls", None) or {}
    passages = list(passages)
    facts = list(facts)
    quoted = [(p, quoted_line(p, answer)) for p in passages] if answer else []
    quoted = [(p, ln) for p, ln in quoted if ln is not None]
    refs: list[tuple[str, str, int, bool]] = [(f.source.doc, f.source.section, f.source.line, False) for f in facts]
    if quoted:
        refs += [(p.doc, p.section, ln, True) for p, ln in quoted]
    else:
        refs += [(p.doc, p.section, p.line, False) for p in passages]
    out: list[Citation] = []
    seen: set[str] = set()
    seen_places: set[tuple[str, str]] = set()
    for doc, section, line, by_quote in refs:
        if not doc or (doc, section) in seen_places or (doc in seen and not by_quote):
            continue
        seen.add(doc)
        seen_places.add((doc, section))
        out.append(Citation(title=citation_title(doc, section, titles), doc=doc, section=section, line=line,
                            url=source_url(doc, line, urls, doc_urls)))
        if len(out) >= limit:
            break
    return out


def cited_docs(facts: Iterable[Fact], passages: Iterable[Passage]) -> int:
    """How many distinct documents the evidence comes from."""
    return len({d for d, _, _ in refs_of(facts, passages) if d})
