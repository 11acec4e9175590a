"""Chinese 'Y can replace X' / 'X is optional' phrasings (tests/fixtures/phrasing/zh-inventory.yaml),
each put in a minimal recipe document and read by the real document extractor."""
from pathlib import Path

import pytest
import yaml

from conftest import document_sub_pairs, optional_parts_of

ENTRIES = yaml.safe_load((Path(__file__).parent / "fixtures/phrasing/zh-inventory.yaml")
                         .read_text(encoding="utf-8"))["entries"]
READ = [e for e in ENTRIES if not e.get("missed")]


def _doc(e: dict) -> str:
    """A minimal recipe: title, an ingredient list naming X, one step, then the inventory line."""
    return (f"# 测试菜\n\n## 食材\n\n- {e['x']} 适量\n- 鸡蛋 2个\n\n## 做法\n\n"
            f"1. 全部放入锅中炒熟。\n\n{e['text']}\n")


@pytest.mark.parametrize("e", READ, ids=[e["text"] for e in READ])
def test_inventory_entry_is_read(tmp_path, e):
    if e["kind"] == "substitution":
        assert (e["x"], e["y"]) in document_sub_pairs(tmp_path, "t.md", _doc(e))
    else:
        assert e["x"] in optional_parts_of(tmp_path, "t.md", _doc(e))


def test_inventory_size():
    assert sum(e["kind"] == "substitution" for e in ENTRIES) == 42
    assert sum(e["kind"] == "optional" for e in ENTRIES) == 20
