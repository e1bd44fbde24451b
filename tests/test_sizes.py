"""Rooms of a livable size: no module of graphmem/ or bench/ over 400 lines, no function
over 60.

Kept by a test, not by hand: a module that grows past its size is split along its seams, a
function that grows past its length gives a step a name of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
CHECKED = ("graphmem", "bench")


def python_files() -> list[Path]:
    return sorted(path for folder in CHECKED for path in (ROOT / folder).rglob("*.py"))


def long_functions(tree: ast.AST) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every function longer than MAX_FUNCTION_LINES, its
    decorators and docstring included."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - first + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.name, first, length))
    return found


def test_no_module_is_over_400_lines() -> None:
    over = [
        f"{path.relative_to(ROOT)}: {lines} lines"
        for path in python_files()
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    ]
    assert over == []


def test_no_function_is_over_60_lines() -> None:
    over = [
        f"{path.relative_to(ROOT)}:{line} {name}: {length} lines"
        for path in python_files()
        for name, line, length in long_functions(ast.parse(path.read_text()))
    ]
    assert over == []


def test_the_check_sees_a_long_function() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    assert long_functions(ast.parse(f"def f():\n{body}\n")) == [("f", 1, 61)]
