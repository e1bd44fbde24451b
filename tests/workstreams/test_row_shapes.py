"""The TypedDict the workstreams area reads rows through (``shaped``) names exactly the columns
its statements return: ``shaped`` declares, it does not check, so this test does.

Not checked: WorkstreamNode, a node returned whole (``RETURN w AS workstream``), whose
properties are no column of the statement."""

from __future__ import annotations

import pytest

from graphmem.workstreams.rows import WorkstreamRow
from tests.row_shapes import column_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "workstreams/create_workstream": WorkstreamRow,
    "workstreams/find_workstream": WorkstreamRow,
    "workstreams/list_workstreams": WorkstreamRow,
    "workstreams/update_workstream_fields": WorkstreamRow,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)
