"""The TypedDicts of the history's erasure statements name exactly the columns they return
(the head's, the chain's and the events' are held to theirs in tests/store/test_row_shapes.py)."""

from __future__ import annotations

import pytest

from graphmem.history.erasure import ErasedRow, EventToErase
from graphmem.store.catalog import default_catalog
from tests.row_shapes import fields, returned_columns

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "history/list_events_naming": EventToErase,
    "history/list_events_by_revision": EventToErase,
    "history/erase_event_payloads": ErasedRow,
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_shape_names_its_statements_columns(name: str) -> None:
    columns = returned_columns(default_catalog()[name].text)
    assert sorted(columns) == fields(SHAPES[name])
