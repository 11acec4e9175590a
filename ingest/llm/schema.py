"""The extraction prompt, the relations and the pydantic output models.

:data:`SYSTEM_PROMPT` and :data:`USER_PROMPT` are what a section is asked
with; :class:`SectionFacts` (a list of :class:`ExtractedFact`) is the output
model, lenient about shape and spelling (:func:`normalize_relation`)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

PROMPT_VERSION = "llm-extract-3"
"""Bump when the prompt or the output model changes meaning: it is part of the cache key."""
RELATIONS = ("substitutes", "contains", "stand_in", "fallback", "responsible_for")
CONFIDENCE_CAP = 0.8
"""Highest confidence an LLM fact gets (rule facts are 0.7–1.0)."""
DEFAULT_CONFIDENCE = 0.6
"""Confidence of a fact stated without one (pipe lines, a missing field)."""

# --------------------------------------------------------------------------- prompt

SYSTEM_PROMPT = """\
You extract facts from ONE section of a document (a recipe, a how-to, a runbook, a handbook, \
notes) for a knowledge graph. Report only what the section itself states; never add outside \
knowledge.

Relations (subject -> object):
- substitutes: the subject (an ingredient or a tool) can be replaced by the object. condition: \
when it applies, as written ("if you have none", "没有时"); amount: a ratio or amount \
stated for the replacement ("1:1", "half the amount", "等重").
- contains: the subject (the recipe or dish; use the document title) uses the object (an \
ingredient or a tool). required: false when the text marks it optional, to taste, a garnish or \
可选; amount: as written ("150g", "2 cups").
- stand_in: the object (a role or a person) can act for the subject (a role). condition: when \
("if the team lead is away").
- fallback: the object (a system, tool or channel) is used instead of the subject (a system, \
tool or channel). condition: when ("if the primary server is down").
- responsible_for: the subject (a role) is responsible for the object (a task or an artifact).

Rules:
- The subject must be written in the section (or be the document title): copy its name exactly.
- Names are short noun phrases in the text's language, without amounts or notes.
- confidence: 0 to 1, how explicitly the text states the fact.
- If the section states none of these relations, return {"facts": []}.
Answer with JSON: {"facts": [{"subject": "...", "relation": "substitutes", "object": "...", \
"condition": "", "amount": "", "required": null, "confidence": 0.9}]}. If you cannot write JSON, \
write one fact per line as: subject | relation | object
"""

USER_PROMPT = """\
Document: {title}
Section: {section}
Text:
{text}
"""

# --------------------------------------------------------------------------- output model

_ALIASES: dict[str, tuple[str, bool]] = {}
"""Normalized relation spelling -> (relation, reversed). ``reversed`` means the
spelling reads object-first ("A | stands in for | B": A acts for B)."""
for _rel, _rev, _names in (
    ("substitutes", False, "substitutes substitute substitution substituted_by can_be_substituted_by replaced_by "
                           "can_be_replaced_by can_be_replaced_with replaceable_by replace_with swap swap_with "
                           "swapped_with alternative alternatives alternative_is subbed_with sub "
                           "替代 代替 替换 可替代 可用 可以用"),
    ("substitutes", True, "substitute_for substitutes_for replaces instead_of in_place_of alternative_to "
                          "alternative_for replacement_for can_replace"),
    ("contains", False, "contains contain uses use has has_ingredient ingredient ingredients includes include "
                        "requires needs made_with 包含 含有 使用 需要 用料 原料"),
    ("stand_in", False, "stand_in standin stand_ins stand_in_is deputy deputized_by backup backed_up_by covered_by "
                        "delegate delegates_to handover hand_over hands_over_to acting replaced_by_role "
                        "代理 代替人 顶替"),
    ("stand_in", True, "stands_in_for stand_in_for can_stand_in_for acts_for acts_as deputy_for deputy_of "
                       "backup_for backup_of covers_for covers"),
    ("fallback", False, "fallback fall_back fallback_to falls_back_to fails_over_to failover failover_to "
                        "backup_system alternate_channel 备用 降级"),
    ("fallback", True, "fallback_for fallback_of is_fallback_for"),
    ("responsible_for", False, "responsible_for responsible responsibility owns owner_of in_charge_of handles "
                               "is_responsible_for duty duties 负责"),
):
    for _n in _names.split():
        _ALIASES[_n] = (_rel, _rev)


def normalize_relation(text: str) -> tuple[str, bool] | None:
    """``(relation, reversed)`` for a relation as a model may spell it
    (``"SUBSTITUTES"``, ``"can be replaced by"``, ``"stands in for"``,
    ``"代替"``…), ``None`` when it is none of :data:`RELATIONS`. ``reversed``
    is True for spellings that read object-first (swap subject and object)."""
    s = re.sub(r"[\s\-/]+", "_", str(text or "").strip().strip("`*\"'[]()<>:").lower()).strip("_")
    if s in _ALIASES:
        return _ALIASES[s]
    for prefix in ("is_", "are_", "can_be_", "can_", "may_be_", "may_"):
        if s.startswith(prefix) and s[len(prefix):] in _ALIASES:
            return _ALIASES[s[len(prefix):]]
    return None


_KEYS = {
    "subject": ("subject", "subj", "s", "head", "source", "from", "x", "item", "original"),
    "object": ("object", "obj", "o", "tail", "target", "to", "y", "substitute", "replacement", "value"),
    "relation": ("relation", "rel", "predicate", "relationship", "type", "r", "edge"),
}
_LIST_KEYS = ("facts", "triples", "relations", "relationships", "edges", "items", "results", "data")
_CONF_WORDS = {"very high": 0.95, "high": 0.9, "medium": 0.6, "moderate": 0.6, "low": 0.3, "very low": 0.1}


def _pick(d: dict, names: tuple[str, ...]) -> Any:
    low = {str(k).lower(): v for k, v in d.items()}
    for n in names:
        if n in low and low[n] not in (None, ""):
            return low[n]
    return None


def _clean_item(item: Any) -> dict | None:
    """One output item as ``ExtractedFact`` fields, relation normalized and a
    reversed spelling swapped; ``None`` when it is not a usable fact."""
    if not isinstance(item, dict):
        return None
    subj, obj, rel = (_pick(item, _KEYS[k]) for k in ("subject", "object", "relation"))
    if not isinstance(subj, str) or not isinstance(obj, str) or rel is None:
        return None
    norm = normalize_relation(str(rel))
    if norm is None:
        return None
    relation, rev = norm
    out = {k: v for k, v in item.items() if k in ("condition", "amount", "required", "confidence")}
    out.update(subject=obj if rev else subj, object=subj if rev else obj, relation=relation)
    return out


def _confidence(v: Any) -> float:
    if v is None or isinstance(v, bool):
        return DEFAULT_CONFIDENCE
    if isinstance(v, str):
        s = v.strip().lower()
        if s in _CONF_WORDS:
            return _CONF_WORDS[s]
        try:
            v = float(s.rstrip("%")) / (100 if s.endswith("%") else 1)
        except ValueError:
            return DEFAULT_CONFIDENCE
    try:
        f = float(v)
    except (TypeError, ValueError):
        return DEFAULT_CONFIDENCE
    if f != f:  # NaN
        return DEFAULT_CONFIDENCE
    if 1 < f <= 100:
        f /= 100
    return min(max(f, 0.0), 1.0)


class ExtractedFact(BaseModel):
    """One relation a section states: ``subject`` and ``object`` as written,
    ``relation`` one of :data:`RELATIONS`, ``condition`` and ``amount`` as
    written (``""`` when none), ``required`` (for ``contains``; ``None`` when
    not said) and ``confidence`` in [0, 1] (words, percentages and numbers
    are accepted; anything else becomes :data:`DEFAULT_CONFIDENCE`)."""

    model_config = ConfigDict(json_schema_extra={"description": "One relation the section states."})

    subject: str = Field(description="The thing the fact is about, copied exactly from the section.")
    relation: Literal["substitutes", "contains", "stand_in", "fallback", "responsible_for"]
    object: str = Field(description="The replacement, ingredient, stand-in, fallback or duty.")
    condition: str = Field("", description="When it applies, as written; empty if not stated.")
    amount: str = Field("", description="Amount or ratio, as written; empty if not stated.")
    required: bool | None = Field(None, description="contains only: false when optional.")
    confidence: float = Field(DEFAULT_CONFIDENCE, description="0 to 1: how explicitly the text states it.")

    @field_validator("subject", "object", "condition", "amount", mode="before")
    @classmethod
    def _text(cls, v: Any) -> str:
        if v is None:
            return ""
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = str(v)
        return re.sub(r"\s+", " ", v).strip() if isinstance(v, str) else v

    @field_validator("required", mode="before")
    @classmethod
    def _required(cls, v: Any) -> Any:
        if isinstance(v, str):
            s = v.strip().lower()
            if s in ("true", "yes", "required", "必需", "必须", "是"):
                return True
            if s in ("false", "no", "optional", "可选", "否"):
                return False
            return None
        return v

    @field_validator("confidence", mode="before")
    @classmethod
    def _conf(cls, v: Any) -> float:
        return _confidence(v)


class SectionFacts(BaseModel):
    """The facts of one section (``facts``, possibly empty).

    Validation is lenient about shape: a bare list of facts, the list under
    ``triples``/``relations``/… instead of ``facts``, other key spellings
    (``predicate``, ``head``/``tail``…) and relation spellings
    (:func:`normalize_relation`) are accepted; items that are not usable facts
    are left out. A value with no recognizable list of facts is invalid."""

    model_config = ConfigDict(json_schema_extra={"description": "The relations one section states."})

    facts: list[ExtractedFact] = Field(description="Every relation the section states; empty if none.")

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, data: Any) -> Any:
        if isinstance(data, list):
            items = data
        elif isinstance(data, dict):
            items = _pick(data, _LIST_KEYS)
            if items is None and _clean_item(data) is not None:
                items = [data]  # one fact on its own
            if items is None:
                key = next((k for k in data if str(k).lower() in _LIST_KEYS), None)
                items = [] if key is not None and data[key] in ([], None, "") else None
            if not isinstance(items, list):
                raise ValueError('expected {"facts": [{"subject", "relation", "object", ...}]}')
        else:
            raise ValueError('expected {"facts": [{"subject", "relation", "object", ...}]}')
        return {"facts": [c for c in (_clean_item(i) for i in items) if c is not None]}
