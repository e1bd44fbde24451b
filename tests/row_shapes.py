"""Reading a statement's RETURN columns from its text, for the tests of every area that hold
each row's TypedDict to its statement (``shaped`` declares a row's shape, it does not check
it): the columns, the expression each returns, and the keys of a map one of them holds."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import get_type_hints

import pytest

from graphmem.store.catalog import default_catalog

_WORD = re.compile(r"\b(RETURN|ORDER\s+BY|SKIP|LIMIT)\b")


def _code(text: str) -> str:
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def _top_level(code: str) -> list[tuple[int, int, str]]:
    """The clause words outside any brackets (subqueries, maps, lists): where they start and
    end, and which word."""
    found: list[tuple[int, int, str]] = []
    depth = 0
    for position, char in enumerate(code):
        depth += char in "([{"
        depth -= char in ")]}"
        if depth == 0 and (match := _WORD.match(code, position)) and _starts_word(code, position):
            found.append((match.start(), match.end(), match.group(1).split()[0]))
    return found


def _starts_word(code: str, position: int) -> bool:
    return position == 0 or not (code[position - 1].isalnum() or code[position - 1] == "_")


def _items(clause: str) -> list[str]:
    """The comma-separated items of a clause, commas inside brackets left alone."""
    items, depth, current = [], 0, ""
    for char in clause:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    return [*items, current]


def returned_columns(text: str) -> list[str]:
    """The columns of the statement's last RETURN outside any subquery (COLLECT, CALL)."""
    return list(_returned(text))


def returned(name: str) -> dict[str, str]:
    """The catalog statement's RETURN columns: each one's name and the expression it returns."""
    return _returned(default_catalog()[name].text)


def _returned(text: str) -> dict[str, str]:
    code = _code(text)
    words = _top_level(code)
    returns = [index for index, (_, _, word) in enumerate(words) if word == "RETURN"]
    assert returns, "the statement returns nothing"
    start = words[returns[-1]][1]
    following = words[returns[-1] + 1 :]
    clause = code[start : following[0][0]] if following else code[start:]
    clause = re.sub(r"^\s*DISTINCT\b", "", clause)
    columns: dict[str, str] = {}
    for item in _items(clause):
        alias = re.search(r"^(.*)\bAS\s+(\w+)\s*$", item.strip(), re.DOTALL)
        name = alias.group(2) if alias else item.strip()
        columns[name] = alias.group(1).strip() if alias else item.strip()
    return columns


def fields(shape: type) -> list[str]:
    """A TypedDict's fields, those of its bases included."""
    return sorted(get_type_hints(shape))


def map_keys(text: str, opening: str, occurrence: int = 0) -> list[str]:
    """The keys of the map that opens where ``opening`` (ending in its brace) occurs the
    ``occurrence``-th time: its ``key:`` entries and ``.property`` projections (those of the
    maps and patterns inside it left out)."""
    code = _code(text)
    start = [match.end() for match in re.finditer(re.escape(opening), code)][occurrence]
    depth, body = 1, ""
    for char in code[start:]:
        depth += char in "([{"
        depth -= char in ")]}"
        if depth == 0:
            break
        body += char if depth == 1 else " "
    keys = [re.match(r"\s*\.?(\w+)", item) for item in body.split(",")]
    return sorted(match.group(1) for match in keys if match)


def keys_of_map(expression: str) -> list[str]:
    """The keys of the first map in a returned ``expression``: a projection (``m {.id, at:
    ...}``) or a literal (``{id: ..., key: ...}``), in their order."""
    start = end = expression.index("{")
    depth = 0
    for end in range(start, len(expression)):
        depth += expression[end] in "([{"
        depth -= expression[end] in ")]}"
        if depth == 0:
            break
    items = [item.strip() for item in _items(expression[start + 1 : end])]
    return [item[1:] if item.startswith(".") else item.split(":")[0].strip() for item in items]


# --- the tests every area's test_row_shapes.py declares with its own tables ---------------------
def column_test(shapes: dict[str, type]) -> Callable[[str], None]:
    """Each statement's RETURN columns are its TypedDict's fields."""

    @pytest.mark.parametrize("name", sorted(shapes))
    def test_a_shape_names_its_statements_columns(name: str) -> None:
        assert sorted(returned(name)) == fields(shapes[name])

    return test_a_shape_names_its_statements_columns


def map_test(maps: dict[tuple[str, str], type]) -> Callable[[str, str], None]:
    """A column that holds a map written in the column itself: its keys are the shape's."""

    @pytest.mark.parametrize(("name", "column"), sorted(maps))
    def test_a_map_shape_names_the_keys_its_column_holds(name: str, column: str) -> None:
        assert sorted(keys_of_map(returned(name)[column])) == fields(maps[(name, column)])

    return test_a_map_shape_names_the_keys_its_column_holds


def opening_test(openings: dict[tuple[str, str, int], type]) -> Callable[[str, str, int], None]:
    """A map built elsewhere in the statement (where its text opens, which occurrence)."""

    @pytest.mark.parametrize(("name", "opening", "occurrence"), sorted(openings))
    def test_a_map_shape_names_the_keys_of_the_map_returned(
        name: str, opening: str, occurrence: int
    ) -> None:
        text = default_catalog()[name].text
        assert map_keys(text, opening, occurrence) == fields(openings[(name, opening, occurrence)])

    return test_a_map_shape_names_the_keys_of_the_map_returned
