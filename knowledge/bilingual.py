"""Cross-language equivalents from ``knowledge/lexicon/bilingual.yaml``
("peanuts" ↔ 花生, "oven" ↔ 烤箱): the names of the group a name belongs to.

Used as a fallback where a thing named in one language must be found among
KB names in the other (constraints, pantry lists). Keys are
:func:`~threadgraph.knowledge.text.name_key` forms (plurals folded).
"""

from __future__ import annotations

import functools

from .text import lexicon, name_key

#: The sections of the lexicon and the entity types their names are.
SECTIONS = {"ingredients": ("ingredient",), "tools": ("tool",), "dishes": ("recipe",), "roles": ("role",)}


@functools.lru_cache(maxsize=1)
def _groups() -> dict[str, list[tuple[str, list[str]]]]:
    """name_key → [(section, names of its group)]."""
    out: dict[str, list[tuple[str, list[str]]]] = {}
    data = lexicon("bilingual") or {}
    for section in SECTIONS:
        for group in data.get(section) or []:
            names = [str(x) for x in group]
            for n in names:
                out.setdefault(name_key(n), []).append((section, names))
    return out


def equivalents(name: str, types: tuple[str, ...] | None = None) -> list[str]:
    """The other names of ``name``'s group(s) — of sections whose entity
    types meet ``types`` when given — in lexicon order; ``[]`` when the
    lexicon does not list ``name``."""
    out: list[str] = []
    for section, names in _groups().get(name_key(name), []):
        if types and not set(SECTIONS[section]) & set(types):
            continue
        out += [n for n in names if name_key(n) != name_key(name) and n not in out]
    return out


@functools.lru_cache(maxsize=1)
def _question_words() -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """``question_words`` of the lexicon: part ("methods", "foods") → ((Chinese word, other forms), …)."""
    data = (lexicon("bilingual") or {}).get("question_words") or {}
    return {part: tuple((str(g[0]), tuple(str(x).casefold() for x in g[1:])) for g in groups or [] if g)
            for part, groups in data.items()}


def question_forms(text: str) -> dict[str, list[list[str]]]:
    """Like :func:`question_words`, each named method or food as its forms of the lexicon
    (the Chinese word first, then its other Chinese and English forms; of the English forms only
    the inflections of the word the question used, when it used one): what to look for in
    recipe names and sentences of either language."""
    import re

    low = text.casefold()
    groups = {part: {zh: [zh, *forms] for zh, forms in gs} for part, gs in _question_words().items()}
    out: dict[str, list[list[str]]] = {}
    for part, words in question_words(text).items():
        out[part] = []
        for zh in words:
            forms = groups[part][zh]
            said = [f for f in forms if f.isascii() and re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", low)]
            if said:  # an English word of a group of several (bake, grill): only its own inflections
                stems = {f[:4] for f in said}
                forms = [f for f in forms if not f.isascii() or f[:4] in stems]
            out[part].append(forms)
    return out


def question_words(text: str) -> dict[str, list[str]]:
    """The cooking methods and kinds of food ``text`` (a question, either language) names, as
    their Chinese words (``question_words`` of the lexicon): ``{"methods": [...], "foods": [...]}``,
    each in lexicon order, empty lists when it names none. A Chinese word counts when it occurs
    in ``text``; an English form when it occurs as whole words (case ignored)."""
    import re

    low = text.casefold()
    out: dict[str, list[str]] = {"methods": [], "foods": []}
    for part, groups in _question_words().items():
        got = out.setdefault(part, [])
        # Chinese forms longest first, each occurrence consumed: 鸡蛋 is an egg, not a chicken too
        cjk = sorted(((f, zh) for zh, forms in groups for f in (zh, *forms) if not f.isascii()), key=lambda x: -len(x[0]))
        rest = text
        for f, zh in cjk:
            if f in rest:
                rest = rest.replace(f, " ")
                if zh not in got:
                    got.append(zh)
        for zh, forms in groups:
            if zh not in got and any(re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", low) for f in forms if f.isascii()):
                got.append(zh)
    return out
