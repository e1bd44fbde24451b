"""Reopen rules: value projections, operand validation and rule identity (pure logic)."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.core.errors import InvalidArgument
from graphmem.decisions.reopen_rules import Rule, canon, parse_instant, value_projection

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("value", "kind", "fields"),
    [
        (5, "number", {"value_number": 5.0}),
        (True, "bool", {}),
        (None, "null", {}),
        ("250 ms", "quantity", {"value_base": 250.0, "value_dim": "time"}),
        ("1.5h", "quantity", {"value_base": 5_400_000.0, "value_dim": "time"}),
        ("12 %", "quantity", {"value_base": 12.0, "value_dim": "percent"}),
        ("250 m", "string", {"value_text": "250 m"}),  # metres/minutes ambiguity: no unit
        ("2026-03-01", "instant", {"value_instant": "2026-03-01T00:00:00+00:00"}),
        ("2026-03-01T10:00:00Z", "instant", {"value_instant": "2026-03-01T10:00:00+00:00"}),
        ("2026-03-01T10:00:00", "string", {}),  # no offset: not an instant
        ("tomorrow", "string", {"value_text": "tomorrow"}),
        ([1, 2.0], "list", {"value_items": ["1", "2"]}),
        ({"b": 1, "a": 2}, "object", {"value_keys": ["a", "b"]}),
    ],
)
def test_value_projection(value: Any, kind: str, fields: dict[str, Any]) -> None:
    projection = value_projection(value)
    assert projection["value_kind"] == kind
    assert projection | fields == projection


def test_numbers_compare_by_value() -> None:
    assert canon(1.0) == canon(1) == "1"
    assert canon({"x": [2.0]}) == canon({"x": [2]})
    assert canon(1.5) == "1.5"


def test_prose_and_impossible_dates_are_not_instants() -> None:
    assert parse_instant("next tuesday") is None
    assert parse_instant("2026-02-30") is None
    assert parse_instant(20260101) is None


def test_rule_identity_is_content_not_position() -> None:
    rule = Rule("latency", "greater_than", 300, "ms")
    assert rule.rule_id("alt-1") == Rule("latency", "greater_than", 300.0, "ms").rule_id("alt-1")
    assert rule.rule_id("alt-1") != rule.rule_id("alt-2")
    assert rule.rule_id("alt-1") != Rule("latency", "greater_than", 300, "s").rule_id("alt-1")


def test_operands_are_converted_to_base_units() -> None:
    projection = Rule("latency", "between", [1, 2], "s").projection()
    assert projection["operand_numbers"] == [1000.0, 2000.0]
    assert projection["unit_dim"] == "time"
    dates = Rule("release", "gte", "2026-01-01", None).projection()
    assert dates["operand_kind"] == "instant" and dates["operand_numbers"] is None


@pytest.mark.parametrize(
    ("rule", "field"),
    [
        (Rule("k", "between", [1], None), "r.value"),
        (Rule("k", "between", [2, 1], None), "r.value"),
        (Rule("k", "gte", True, None), "r.value"),
        (Rule("k", "gte", "2026-01-01", "d"), "r.unit"),
        (Rule("k", "not_in", "abc", None), "r.value"),
    ],
)
def test_invalid_operands_name_their_field(rule: Rule, field: str) -> None:
    with pytest.raises(InvalidArgument) as raised:
        rule.validate("r")
    assert raised.value.field == field
