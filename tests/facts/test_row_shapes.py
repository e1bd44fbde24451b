"""The TypedDicts the facts area reads rows through (``shaped``) name exactly the columns, and
the keys of the maps, their statements return: ``shaped`` declares, it does not check."""

from __future__ import annotations

import pytest

from graphmem.facts.rows import (
    ContradictionsRow,
    CurrentSlotRow,
    DisplacedRow,
    ExpiredRow,
    FactByIdRow,
    FactEdge,
    FactRow,
    FactThen,
    FormerFact,
    RecordedAtHeadRow,
    RecordedFactRow,
    StatesSlotRow,
)
from graphmem.store.catalog import default_catalog
from tests.row_shapes import column_test, fields, map_keys

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "facts/get_facts": FactByIdRow,
    "facts/mark_fact_verified": FactRow,
    "facts/record_fact": RecordedFactRow,
    "facts/record_fact_at_head": RecordedAtHeadRow,
    "facts/expire_facts": ExpiredRow,
    "facts/count_contradictions_between": ContradictionsRow,
    "facts/make_current": DisplacedRow,
    "facts/get_current_state": CurrentSlotRow,
    "facts/get_state_at": StatesSlotRow,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)


def test_the_maps_of_current_state_have_the_keys_of_their_shapes() -> None:
    now = default_catalog()["facts/get_current_state"].text
    then = default_catalog()["facts/get_state_at"].text
    every_edge = fields(FactEdge)
    assert map_keys(now, "| {", 0) == every_edge  # answer_edges
    assert map_keys(now, "RETURN old {") == fields(FormerFact)
    # a former fact's link to its successor: no other_live
    assert map_keys(now, "| {", 1) == [key for key in every_edge if key != "other_live"]
    assert map_keys(then, "ELSE {") == every_edge
    assert map_keys(then, "collect({") == fields(FactThen)
