"""The TypedDicts export and import read rows through (``shaped``) name exactly the columns
their statement returns: ``shaped`` declares, it does not check, so this test does."""

from __future__ import annotations

import pytest

from graphmem.transfer.rows import (
    CreatedRow,
    ExportedEventRow,
    ExportedNodeRow,
    FoundRow,
    TransferHeadRow,
)
from tests.row_shapes import column_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "transfer/list_tenant_nodes": ExportedNodeRow,
    "transfer/list_project_nodes": ExportedNodeRow,
    "transfer/list_tenant_events": ExportedEventRow,
    "transfer/get_transfer_head": TransferHeadRow,
    "transfer/find_any_tenant_node": FoundRow,
    "transfer/create_imported_nodes": CreatedRow,
    "transfer/create_imported_relationships": CreatedRow,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)
