"""Dependencies point inward: adapters -> bot -> knowledge; ingest -> knowledge.
Nothing in bot/ or knowledge/ imports a platform SDK (checked on the source)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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
    for py in sorted((ROOT / package).rglob("*.py")):
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


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _internal_arrows(package: str) -> dict[str, set[str]]:
    """module -> modules of the same tree it imports (relative imports resolved)."""
    arrows: dict[str, set[str]] = {}
    for py in sorted((ROOT / package).rglob("*.py")):
        mod = _module(py)
        pkg = mod if py.name == "__init__.py" else mod.rsplit(".", 1)[0]
        out = arrows.setdefault(mod, set())
        for node in ast.walk(ast.parse(py.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
                names = [f"{target}.{a.name}" for a in node.names]
                for cand in [target, *names]:
                    if (ROOT / Path(*cand.split("."))).with_suffix(".py").exists() or \
                            (ROOT / Path(*cand.split(".")) / "__init__.py").exists():
                        if cand != mod:
                            out.add(cand)
    return arrows


def test_ingest_and_knowledge_use_relative_imports_only():
    bad = [f"{py.relative_to(ROOT)}: {name}" for package in ("ingest", "knowledge")
           for py in sorted((ROOT / package).rglob("*.py")) for name in _imports(py)
           if name.split(".")[0] == "threadgraph"]
    assert bad == []


@pytest.mark.parametrize("package", ["ingest", "knowledge"])
def test_no_import_cycle(package):
    arrows = _internal_arrows(package)
    assert sum(len(v) for v in arrows.values()) > 5  # the arrows are seen
    seen: dict[str, int] = {}
    cycle: list[str] = []

    def visit(m: str, stack: list[str]) -> None:
        if cycle:
            return
        seen[m] = 1
        for n in sorted(arrows.get(m, ())):
            if seen.get(n) == 1 and not n.startswith(m + ".") and not m.startswith(n + "."):
                # a package's __init__ importing its own modules is not a cycle
                cycle.extend(stack[stack.index(n):] + [n] if n in stack else [m, n])
                return
            if n not in seen:
                visit(n, stack + [n])
        seen[m] = 2

    for m in sorted(arrows):
        if m not in seen:
            visit(m, [m])
    assert cycle == []
