"""The project's import graph, and the circles in it.

Run as a script (``python tests/import_graph.py``) it prints every import circle among the
kit's own modules, and every import that crosses the layers the wrong way (``LAYERS``: what
each package may import of the others, as the design draws it), and exits 1 when there is
either; ``make test`` runs it, and ``tests/test_import_graph.py`` asserts the same.

Every import counts, at module level or inside a function (an import moved into a function
to dodge a circle is still a circle), except those under ``if TYPE_CHECKING:``, which never
run. ``from package import name`` is an edge to ``package.name`` when that is a module of
ours, else to ``package``. A string that names one of our modules by its dotted path (as
``importlib.import_module`` takes it) is an edge too, so a registry that imports by name
cannot hide a circle.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "vision", "firmware_bridge", "display", "tablekit")
#: What each package may import from the kit's other packages (a module, or a whole package
#: when it ends in ``.*``). The engine is pure; the shell (tablekit) may use everything.
LAYERS: dict[str, tuple[str, ...]] = {
    "engine": (),
    "vision": ("engine.cards", "engine.errors", "engine.tiles"),
    "firmware_bridge": ("engine.errors",),
    "display": ("engine.cards", "engine.errors", "engine.tiles", "engine.notation"),
    "tablekit": ("engine.*", "vision.*", "firmware_bridge.*", "display.*"),
}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the kit's packages, by dotted name."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the kit's modules it imports."""
    files = module_files(root)
    edges: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value \
                    and node.value in files and node.value != name:
                edges[name].add(node.value)
        for node in _imports(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                source = _resolve(name, is_package, node)
                for alias in node.names:
                    child = f"{source}.{alias.name}"
                    targets.append(child if child in files else source)
            for target in targets:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return sorted(found)


def layer_breaches(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) for every import of another package that ``LAYERS`` does not allow."""
    found = []
    for name, targets in sorted(edges.items()):
        package = name.split(".")[0]
        allowed = LAYERS[package]
        for target in sorted(targets):
            if target.split(".")[0] == package:
                continue
            if not any(target == rule or (rule.endswith(".*") and
                       (target == rule[:-2] or target.startswith(rule[:-1]))) for rule in allowed):
                found.append((name, target))
    return found


def main() -> int:
    edges = graph()
    found = circles(edges)
    for group in found:
        print("import circle: " + " <-> ".join(group))
    breaches = layer_breaches(edges)
    for importer, imported in breaches:
        print(f"layer breach: {importer} imports {imported}")
    if not found and not breaches:
        print(f"no import circles and no layer breaches among {len(edges)} modules")
    return 1 if found or breaches else 0


if __name__ == "__main__":
    sys.exit(main())
