"""Dependencies point inward: adapters -> bot -> knowledge; ingest -> knowledge.
Nothing in bot/ or knowledge/ imports a platform SDK (checked on the source).
Inside the package, modules import each other relatively (so a tool reading
the tree sees every arrow), and bot/, adapters/ and knowledge/ have no import
cycle."""

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
    for py in sorted((ROOT / package).rglob("*.py")):
        for name in _imports(py):
            plain = name.lstrip(".")
            if any(plain == f or plain.startswith(f + ".") for f in PLATFORM_SDKS):
                bad.append(f"{py.relative_to(ROOT)}: {name}")
            if any(f in name.split(".") for f in forbidden):
                bad.append(f"{py.relative_to(ROOT)}: {name}")
    return bad


def test_knowledge_imports_no_sdk_and_nothing_outward():
    assert _check("knowledge", ("bot", "adapters", "ingest")) == []


def test_bot_imports_no_sdk_and_no_adapters_or_ingest():
    assert _check("bot", ("adapters", "ingest")) == []


def test_ingest_imports_no_bot_or_adapters():
    assert _check("ingest", ("bot", "adapters")) == []


# -- one import style, no cycles -----------------------------------------------------------
RELATIVE_ONLY = ("bot", "adapters", "knowledge", "ingest", "cli.py", "settings.py", "evaluation.py")


def _files(*parts: str) -> list[Path]:
    out = []
    for p in parts:
        path = ROOT / p
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def test_package_modules_import_each_other_relatively():
    bad = [f"{py.relative_to(ROOT)}: {name}" for py in _files(*RELATIVE_ONLY)
           for name in _imports(py) if name == "threadgraph" or name.startswith("threadgraph.")]
    assert bad == []


def _module(py: Path) -> str:
    rel = py.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _graph(*folders: str) -> dict[str, set[str]]:
    """Module -> modules it imports (relative imports resolved; ``from . import x`` counts x)."""
    mods = {_module(py): py for py in _files(*folders)}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for mod, py in mods.items():
        pkg = mod.split(".") if py.name == "__init__.py" else mod.split(".")[:-1]
        for node in ast.walk(ast.parse(py.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = pkg[: len(pkg) - node.level + 1] + (node.module.split(".") if node.module else [])
            target = ".".join(base)
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                if sub in mods:
                    edges[mod].add(sub)
                elif target in mods:
                    edges[mod].add(target)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_in_bot_adapters_knowledge_ingest():
    edges = _graph("bot", "adapters", "knowledge", "ingest")
    assert "ingest.readers.markdown" in edges["ingest.readers"]  # the reader registry's arrows are visible
    assert "bot.intents.substitute" in edges["bot.intents"]  # the registry's arrows are visible
    assert "bot.intents" in edges["bot.core"]
    assert _cycles(edges) == []
