"""The TypedDicts of the history's erasure statements name exactly the columns they return
(the head's, the chain's and the events' are held to theirs in tests/store/test_row_shapes.py)."""

from __future__ import annotations

import pytest

from graphmem.history.erasure import ErasedRow, EventToErase
from tests.row_shapes import column_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "history/list_events_naming": EventToErase,
    "history/list_events_by_revision": EventToErase,
    "history/erase_event_payloads": ErasedRow,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)
