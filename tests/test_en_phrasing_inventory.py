"""English phrasing inventory: each way of writing "Y can replace X" / "X is optional" from
tests/fixtures/phrasing/en-inventory.yaml is put in a minimal recipe and read by the real extractor."""
from pathlib import Path

import pytest
import yaml

from tests.conftest import mini_corpus, sub_pairs, contains_required

INVENTORY = yaml.safe_load((Path(__file__).parent / "fixtures/phrasing/en-inventory.yaml").read_text("utf-8"))


def _norm(s: str) -> str:
    return s.lower().replace("_", " ").replace("-", " ").strip()


def _same(name: str, key: str) -> bool:
    """Whether KB key ``key`` names inventory ingredient ``name`` (keys are singular: "walnut")."""
    return key in name or name in key


def _is_list_line(text: str) -> bool:
    """Ingredient-list lines carry no sentence full stop (e.g. "Walnuts (optional)")."""
    return not text.rstrip().endswith((".", "?", "!"))


def recipe_doc(entry: dict) -> str:
    """A minimal recipe: title, an ingredient list naming X, steps, and the entry's line."""
    x, text = entry["x"], entry["text"]
    lines = ["- 2 cups flour", "- 1 egg"]
    note = ""
    if _is_list_line(text):
        lines.append(f"- {text}")
    else:
        lines.append(f"- 1 cup {x}")
        note = f"\n\n## Notes\n\n{text}\n"
    return ("# Simple test cake\n\n## Ingredients\n\n" + "\n".join(lines)
            + "\n\n## Directions\n\n1. Mix everything.\n2. Bake for 30 minutes." + note + "\n")


def read_right(tmp_path: Path, entry: dict) -> bool:
    """Whether the extractor reads ``entry`` as its inventory says."""
    ex = mini_corpus(tmp_path, {"simple-test-cake.md": recipe_doc(entry)})
    if entry["kind"] == "substitute":
        pairs = {(_norm(a), _norm(b)) for a, b in sub_pairs(ex)}
        return any(_same(entry["y"], a) and _same(entry["x"], b) for a, b in pairs) or \
            any(_same(entry["y"], b) and _same(entry["x"], a) for a, b in pairs)
    req = {_norm(k): v for k, v in contains_required(ex, "Simple test cake").items()}
    return any(_same(entry["x"], k) and v is False for k, v in req.items())


ENTRIES = INVENTORY["substitutes"] + INVENTORY["optional"]


@pytest.mark.parametrize("entry", [e for e in ENTRIES if not e.get("missed")], ids=lambda e: e["text"][:40])
def test_entry_read_right(tmp_path, entry):
    assert read_right(tmp_path, entry), entry["text"]
