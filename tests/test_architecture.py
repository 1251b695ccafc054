"""The house plan holds: the package's import graph has no circles, and no module imports a higher layer.

Read from the source with `ast` (every import, also inside functions and under TYPE_CHECKING), so the check needs no
tool beyond the standard library: `python -m pytest tests/test_architecture.py`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "episodic_memory"

# Lowest first. A module may import its own layer's modules and any lower layer's, never a higher one.
LAYERS: list[tuple[str, ...]] = [
    ("config", "util", "scopes", "faults", "lang", "heuristics"),
    ("models", "llm"),
    ("store",),
    ("capture",),
    ("retrieve",),
    ("clients",),
    ("consolidate", "judgments", "brief"),
    ("memory", "aio", "portable", "portable_schema", "vault"),
    ("inject", "default", "session_buffer", "pipeline", "ingest", "episodic_judgment", "integrations", "migrate"),
    ("server",),
    ("commands", "cli", "__main__", "__init__"),
]


def _unit(module: str) -> str:
    """The layer unit of a module: its first component under the package (`store.sqlite` -> `store`)."""
    return module.split(".")[0]


def _layer_of(unit: str) -> int:
    for i, names in enumerate(LAYERS):
        if unit in names:
            return i
    raise AssertionError(f"{unit!r} is in no layer of tests/test_architecture.py: add it where it belongs")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1] or ["__init__"]
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Package-internal modules that `path` imports (resolved to module names relative to the package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = _module_name(path).split(".")
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("episodic_memory."):
                    found.add(alias.name.removeprefix("episodic_memory."))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.startswith("episodic_memory"):
                    base = node.module.removeprefix("episodic_memory").lstrip(".")
                else:
                    continue
            else:
                anchor = me if is_pkg else me[:-1]
                if me == ["__init__"]:
                    anchor = []
                up = node.level - 1
                anchor = anchor[: len(anchor) - up] if up else anchor
                base = ".".join([*anchor, *(node.module.split(".") if node.module else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}" if base else alias.name
                found.add(candidate if _exists(candidate) else base)
    return {m for m in found if m}


def _exists(module: str) -> bool:
    p = PACKAGE.joinpath(*module.split("."))
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        graph[name] = {m for m in _imports(path) if m != name and _exists(m)}
    return graph


def test_no_import_circles() -> None:
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    assert not circles, f"import circles: {circles}"


def test_no_upward_imports() -> None:
    upward = []
    for module, imported in _graph().items():
        mine = _layer_of(_unit(module))
        for other in imported:
            if other.split(".")[0] == "__init__" or other == "":
                continue
            if _layer_of(_unit(other)) > mine:
                upward.append(f"{module} -> {other}")
    assert not upward, "imports that reach a higher layer:\n" + "\n".join(sorted(upward))


@pytest.mark.parametrize("module", sorted(_graph()))
def test_every_module_has_a_layer(module: str) -> None:
    _layer_of(_unit(module))
