"""Rows and fields typed: pyright checks graphmem/ strictly (.ci/run), and this test keeps the
holes strict mode lets through from coming back.

- No open map of ``Any`` (``dict[str, Any]``, ``Mapping[str, Any]``): a statement's row is read
  through the TypedDict of its RETURN columns (graphmem/store/rows.py, ``shaped``), a record
  through its model; what is truly open (a statement's parameters, an event's JSON payload)
  says so with ``object`` values, which must be narrowed before use.
- Every ``pyright: ignore`` names its rule and says why on the same line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

PACKAGE = Path(__file__).resolve().parents[1] / "graphmem"
OPEN_MAP = re.compile(r"\b(?:dict|Dict|Mapping|MutableMapping)\[\s*str\s*,\s*Any\s*\]")
IGNORE = re.compile(r"#\s*pyright:\s*ignore(\[[A-Za-z, ]+\])?(.*)$")


def lines() -> list[tuple[str, int, str]]:
    found: list[tuple[str, int, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE.parent))
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            found.append((where, number, line))
    return found


def test_no_open_map_of_any() -> None:
    wrong = [f"{where}:{number}" for where, number, line in lines() if OPEN_MAP.search(line)]
    assert wrong == [], "type the row (a TypedDict), the record (a model), or say object"


def test_every_ignore_names_its_rule_and_says_why() -> None:
    wrong: list[str] = []
    for where, number, line in lines():
        match = IGNORE.search(line)
        if match is None:
            continue
        rule, rest = match.group(1), match.group(2)
        reason = rest.strip().lstrip(":#-— ").strip()
        if not rule or len(reason) < 8:
            wrong.append(f"{where}:{number}")
    assert wrong == []
