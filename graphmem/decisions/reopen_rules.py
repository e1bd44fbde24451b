"""Reopen rules: how a rule's operand and a fact's value are made comparable.

Verdicts are computed in Cypher (cypher/decisions/evaluate_reopen_rules.cypher) over typed
projections written once, in Python, when a fact or a rule is stored:

- a fact's value gets ``value_kind`` and the projections its kind allows (a number, a quantity
  in base units, an ISO-8601 instant, the text, the items of a list, the keys of an object);
- a rule gets its operator, its operand in the same projections, and its unit's dimension and
  factor to base units.

Rules of the comparison (the evaluation query implements them):
- Ordered operators (greater_than, less_than, gte, lte, between — inclusive at both ends)
  compare instants when the operand is an instant (both sides must be ISO-8601 dates or
  instants with an offset; no prose dates), else numbers. A bare number in a fact is read in
  the rule's unit; a fact quantity ("250 ms", "12%") must have the rule's dimension (time or
  percent), and a quantity against a rule without a unit is incomparable.
- equals / not_equals compare JSON values (numbers by value: 1 equals 1.0); a unit has no
  effect on them, nor on contains, in and not_in.
- contains: a list value contains the operand as an element; a string value contains the
  operand's text (a non-string operand is read as its JSON text); an object value contains
  the operand as a key.
- in / not_in: the fact's value is (not) one of the operand list's elements.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeGuard

from pydantic import JsonValue

from graphmem.core.clock import parse_iso, start_of_day
from graphmem.core.errors import InvalidArgument
from graphmem.core.models import canonical_json
from graphmem.store import Params

Operator = Literal[
    "equals",
    "not_equals",
    "contains",
    "greater_than",
    "less_than",
    "gte",
    "lte",
    "between",
    "in",
    "not_in",
]
Unit = Literal["ms", "s", "min", "h", "d", "%"]
ORDERED: frozenset[str] = frozenset({"greater_than", "less_than", "gte", "lte", "between"})
LISTED: frozenset[str] = frozenset({"in", "not_in"})

# Unit -> (dimension, factor to the dimension's base unit: ms for time, % for percent).
UNITS: dict[str, tuple[str, float]] = {
    "ms": ("time", 1.0),
    "s": ("time", 1_000.0),
    "min": ("time", 60_000.0),
    "h": ("time", 3_600_000.0),
    "d": ("time", 86_400_000.0),
    "%": ("percent", 1.0),
}
_QUANTITY = re.compile(r"^\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*(ms|s|min|h|d|%)\s*$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$")


def _is_list(value: object) -> TypeGuard[list[object]]:
    return isinstance(value, list)


def _is_object(value: object) -> TypeGuard[dict[str, object]]:
    """A JSON object: its keys are strings."""
    return isinstance(value, dict)


def normal_json(value: object) -> object:
    """JSON with integral floats written as integers, so 1.0 and 1 compare equal."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if _is_list(value):
        return [normal_json(item) for item in value]
    if _is_object(value):
        return {key: normal_json(item) for key, item in value.items()}
    return value


def canon(value: object) -> str:
    return canonical_json(normal_json(value))


def parse_instant(value: object) -> datetime | None:
    """An ISO-8601 date (midnight UTC) or instant with an offset; anything else is None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        if _DATE.match(text):
            return start_of_day(text)
        if _INSTANT.match(text):
            return parse_iso(text)
    except ValueError:
        return None
    return None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def value_projection(value: object) -> Params:
    """The typed projections of a fact's value the evaluation query compares (parameters of
    facts/record_fact)."""
    projection: Params = {
        "value_kind": "null",
        "value_canon": canon(value),
        "value_number": None,
        "value_base": None,
        "value_dim": None,
        "value_instant": None,
        "value_text": None,
        "value_items": None,
        "value_keys": None,
    }
    if isinstance(value, bool):
        projection["value_kind"] = "bool"
    elif (number := _number(value)) is not None:
        projection.update(value_kind="number", value_number=number)
    elif isinstance(value, str):
        projection.update(value_kind="string", value_text=value)
        if (instant := parse_instant(value)) is not None:
            projection.update(value_kind="instant", value_instant=instant.isoformat())
        elif quantity := _QUANTITY.match(value):
            dimension, factor = UNITS[quantity.group(2)]
            base = float(quantity.group(1)) * factor
            projection.update(value_kind="quantity", value_base=base, value_dim=dimension)
    elif _is_list(value):
        projection.update(value_kind="list", value_items=[canon(item) for item in value])
    elif _is_object(value):
        projection.update(value_kind="object", value_keys=sorted(value))
    return projection


@dataclass(frozen=True)
class Rule:
    """One reopen rule, validated (writes are strict) and projected for evaluation."""

    key: str
    operator: Operator
    value: JsonValue
    unit: Unit | None

    def rule_id(self, alternative_id: str) -> str:
        """Identity: the alternative that carries the rule plus the rule's canonical content,
        so the same rules in another order keep their ids (and their review signals)."""
        content = canon([alternative_id, self.key, self.operator, self.value, self.unit])
        return "rule_" + hashlib.sha256(content.encode()).hexdigest()[:20]

    def operands(self) -> list[object]:
        """An ordered operator's operands: between's [low, high], else the value alone."""
        if self.operator == "between" and _is_list(self.value):
            return self.value
        return [self.value]

    def validate(self, field: str) -> None:
        if self.operator in ORDERED:
            if self.operator == "between" and not (_is_list(self.value) and len(self.value) == 2):
                raise InvalidArgument(f"{field}.value", "between needs a list [low, high]")
            operands = self.operands()
            kinds = {_ordered_kind(operand) for operand in operands}
            if None in kinds or len(kinds) != 1:
                raise InvalidArgument(
                    f"{field}.value",
                    f"{self.operator} needs a number (its unit in 'unit') or an ISO-8601 "
                    "date or instant with an offset"
                    + (", both bounds of one kind" if self.operator == "between" else ""),
                )
            if kinds == {"instant"} and self.unit is not None:
                raise InvalidArgument(f"{field}.unit", "a date comparison takes no unit")
            if self.operator == "between" and _ordered_value(operands[0]) > _ordered_value(
                operands[1]
            ):
                raise InvalidArgument(f"{field}.value", "between needs low <= high")
        if self.operator in LISTED and not _is_list(self.value):
            raise InvalidArgument(f"{field}.value", f"{self.operator} needs a list")

    def projection(self) -> Params:
        """The REOPEN_WHEN relationship's properties (decisions/link_reopen_rules)."""
        dimension, factor = UNITS[self.unit] if self.unit else (None, None)
        numbers: list[float] | None = None
        instants: list[str] | None = None
        kind = None
        if self.operator in ORDERED:
            operands = self.operands()
            kind = _ordered_kind(operands[0])
            if kind == "number":
                numbers = [_finite(op) * (factor or 1.0) for op in operands]
            else:
                instants = [_instant(op).isoformat() for op in operands]
        text = self.value if isinstance(self.value, str) else canon(self.value)
        return {
            "key": self.key,
            "operator": self.operator,
            "operand_json": canonical_json(self.value),
            "operand_canon": canon(self.value),
            "operand_text": text,
            "operand_kind": kind,
            "operand_numbers": numbers,
            "operand_instants": instants,
            "operand_items": (
                [canon(v) for v in self.value]
                if self.operator in LISTED and _is_list(self.value)
                else None
            ),
            "unit": self.unit,
            "unit_dim": dimension,
            "unit_factor": factor,
        }


def _ordered_kind(operand: object) -> str | None:
    if _number(operand) is not None:
        return "number"
    if parse_instant(operand) is not None:
        return "instant"
    return None


def _instant(operand: object) -> datetime:
    instant = parse_instant(operand)
    assert instant is not None
    return instant


def _finite(operand: object) -> float:
    """A number operand (validate let only finite numbers through as numbers)."""
    number = _number(operand)
    assert number is not None
    return number


def _ordered_value(operand: object) -> float:
    number = _number(operand)
    return number if number is not None else _instant(operand).timestamp()
