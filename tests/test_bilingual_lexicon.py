"""The bilingual lexicon (knowledge/lexicon/bilingual.yaml): every group names its thing in both
languages, no name is claimed by two groups of one section, and the sections have their sizes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

PATH = Path(__file__).resolve().parents[1] / "knowledge" / "lexicon" / "bilingual.yaml"

#: Minimum group counts: the intended sizes minus 10 %.
SIZES = {"ingredients": 270, "dishes": 72, "tools": 36, "roles": 27}

CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
LATIN = re.compile("[A-Za-z]")


@pytest.fixture(scope="module")
def data():
    return yaml.safe_load(PATH.read_text(encoding="utf-8"))


def test_sections_exist_with_their_sizes(data):
    assert isinstance(data, dict)
    for section, least in SIZES.items():
        assert isinstance(data.get(section), list), section
        assert len(data[section]) >= least, (section, len(data[section]))


@pytest.mark.parametrize("section", sorted(SIZES))
def test_every_group_is_bilingual_text(data, section):
    for group in data[section]:
        assert isinstance(group, list) and len(group) >= 2, group
        # YAML turns bare yes/no/on/off into booleans: every name must stay a non-empty string
        assert all(isinstance(n, str) and n.strip() == n and n for n in group), group
        assert CJK.search(group[0]), f"Chinese name first: {group}"
        assert any(CJK.search(n) for n in group), f"no Chinese name: {group}"
        assert any(LATIN.search(n) and not CJK.search(n) for n in group), f"no English name: {group}"


@pytest.mark.parametrize("section", sorted(SIZES))
def test_no_name_in_two_groups(data, section):
    seen: dict[str, int] = {}
    clashes = []
    for i, group in enumerate(data[section]):
        for name in {n.casefold() for n in group}:
            if name in seen:
                clashes.append((name, data[section][seen[name]][0], group[0]))
            else:
                seen[name] = i
    assert not clashes, clashes
