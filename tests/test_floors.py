"""The house's shape: every import in graphmem/ points down, never up or across.

A package imports only what it stands on (``STANDS_ON``, and what stands under that) and
itself; the same for the Cypher statements it runs. The shape has no circle, so no two areas
can form one. docs/architecture.md draws it; change both together.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.store.catalog import default_catalog

pytestmark = pytest.mark.pure

PACKAGE = Path(__file__).resolve().parents[1] / "graphmem"
STATEMENT = re.compile(r"[a-z]+/[a-z0-9_]+")  # a catalog name: area/verb_noun

# The house's real shape: what each package stands on. A package may import (and run the
# Cypher of) what it stands on and all that stands under that, nothing else: no import points
# up, and none across to a neighbour it does not stand on. Three parts, joined at the app:
# the kernel; the domain stack of the areas; the operations wing (Neo4j Browser, the managed
# Neo4j, export and import), which stands on the kernel and on history (and what history stands
# on), never on an area.
STANDS_ON: dict[str, tuple[str, ...]] = {
    # the kernel
    "core": (),  # errors, ids, clock, text, days, models, settings, keys, progress, tls, tracing
    "store": ("core",),  # the only user of the driver
    "embeddings": ("core",),  # local embedding models (no database)
    # the domain stack
    "screening": ("core",),  # the poisoning gate every text passes before it is stored
    "toolkit": ("store", "embeddings"),  # declaring a tool: specs, answers, services
    "history": ("toolkit",),  # the hash chain and the one write path
    "retrieval": ("history",),  # lexical text, vectors, the indexer, the catch-up
    "subjects": ("history",),  # what the memory is about: names, mentions, resolution
    "archive": ("retrieval", "screening", "subjects"),  # raw turns
    "workstreams": ("history",),
    "commits": ("history", "screening"),
    "impact": ("history",),
    "decisions": ("subjects",),  # a reopen rule watches its key under every alias
    "erasure": ("retrieval", "subjects"),
    "memories": ("archive",),  # shows raw turns (get_observations source raw)
    "facts": ("decisions", "erasure", "memories"),
    "search": ("memories",),
    "knowledge": ("facts", "impact", "workstreams"),
    "recall": ("facts", "search", "workstreams"),
    "moving": ("memories",),  # moving in: another memory server's database read into memories
    # the operations wing
    "console": ("core",),  # the operator's one-line messages and progress bars
    "browser": ("store",),  # what Neo4j Browser shows
    "localdb": ("browser", "console"),  # the managed Neo4j and the connection of a process
    "transfer": ("localdb", "history"),  # export and import
    # the process, where the two meet
    "app": ("knowledge", "recall", "commits", "transfer", "moving"),
}


def under(package: str) -> set[str]:
    """Everything ``package`` stands on, directly or not."""
    found: set[str] = set()
    pending = list(STANDS_ON[package])
    while pending:
        below = pending.pop()
        if below not in found:
            found.add(below)
            pending.extend(STANDS_ON[below])
    return found


UNDER = {package: under(package) for package in STANDS_ON}
PROCESS = {"console", "browser", "localdb", "transfer", "app"}
# Optional model runtimes load only when configured (numpy / onnxruntime stay uninstalled).
DEFERRED_OK = PROCESS | {"embeddings"}
# The MCP transport and its web stack: the process layer's (app), never an area's.
TRANSPORT = {"fastmcp", "mcp", "mcp_types", "starlette", "uvicorn"}


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def package_of(path: Path) -> str | None:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else None


def graphmem_imports(tree: ast.AST) -> list[tuple[int, str, bool]]:
    """(line, imported package, inside a function) for every import of graphmem.*."""
    found: list[tuple[int, str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            names: list[str] = []
            line = getattr(child, "lineno", 0)
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                names = [child.module]
                if child.module == "graphmem":
                    names = [f"graphmem.{alias.name}" for alias in child.names]
            elif isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "graphmem" and len(parts) > 1:
                    found.append((line, parts[1], in_function))
            visit(child, nested)

    visit(tree, False)
    return found


def test_every_package_has_a_place_and_the_shape_has_no_circle() -> None:
    packages = {package_of(path) for path in modules()} - {None}
    assert packages == set(STANDS_ON), "a new package needs its place in STANDS_ON (and drawing)"
    assert all(package not in UNDER[package] for package in STANDS_ON)


def test_imports_point_down() -> None:
    wrong: list[str] = []
    for path in modules():
        source = package_of(path)
        if source is None:
            continue
        for line, target, in_function in graphmem_imports(ast.parse(path.read_text())):
            where = f"{path.relative_to(PACKAGE.parent)}:{line} imports graphmem.{target}"
            if target not in STANDS_ON:
                continue  # a top-level module (graphmem.__version__)
            if target != source and target not in UNDER[source]:
                direction = "up" if source in UNDER[target] else "across"
                wrong.append(f"{where} ({direction})")
            if in_function and source not in DEFERRED_OK:
                wrong.append(f"{where} inside a function (imports belong at the top)")
    assert wrong == []


def test_areas_load_without_the_process_layer() -> None:
    below = [path for path in modules() if (package_of(path) or "app") not in PROCESS]
    names = [
        ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        for path in below
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "loaded = sorted({m.split('.')[1] for m in sys.modules if m.startswith('graphmem.')})\n"
        f"transport = sorted({{m.split('.')[0] for m in sys.modules}} & {TRANSPORT!r})\n"
        "print(' '.join(loaded))\n"
        "print(' '.join(transport))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    packages, transport = (line.split() for line in result.stdout.splitlines())
    loaded = set(packages)
    assert loaded & PROCESS == set(), f"areas loaded the process layer: {loaded & PROCESS}"
    assert transport == [], f"areas loaded the MCP transport: {transport}"


def test_cypher_statements_are_run_from_their_floor_or_above() -> None:
    """A module runs the statements of its own area or of one below it: ``retrieval`` running
    a statement of ``search`` points up as surely as an import would."""
    statements = set(default_catalog().names())
    areas = {name.split("/")[0] for name in statements}
    wrong: list[str] = []
    for path in modules():
        source = package_of(path)
        if source is None:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            area = node.value.split("/")[0]
            if STATEMENT.fullmatch(node.value) and area in areas and node.value not in statements:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} names no statement")
            if node.value not in statements:
                continue
            if area == source or area == "schema":
                continue
            if area not in UNDER[source]:
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                wrong.append(f"{where} ({source}) runs {node.value}")
    assert wrong == []
