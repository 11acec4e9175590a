"""Dependencies point inward: adapters -> bot -> knowledge; ingest -> knowledge.
Nothing in bot/ or knowledge/ imports a platform SDK (checked on the source)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLATFORM_SDKS = ("slack_bolt", "slack_sdk", "telegram", "aiohttp")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            names.append("." * node.level + mod)
    return names


def _check(package: str, forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for py in sorted((ROOT / package).glob("*.py")):
        for name in _imports(py):
            plain = name.lstrip(".")
            if any(plain == f or plain.startswith(f + ".") for f in PLATFORM_SDKS):
                bad.append(f"{py.name}: {name}")
            if any(f in name.split(".") for f in forbidden):
                bad.append(f"{py.name}: {name}")
    return bad


def test_knowledge_imports_no_sdk_and_nothing_outward():
    assert _check("knowledge", ("bot", "adapters", "ingest")) == []


def test_bot_imports_no_sdk_and_no_adapters_or_ingest():
    assert _check("bot", ("adapters", "ingest")) == []


def test_ingest_imports_no_bot_or_adapters():
    assert _check("ingest", ("bot", "adapters")) == []
