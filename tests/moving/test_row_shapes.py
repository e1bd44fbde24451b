"""The TypedDicts the moving area reads rows through (``shaped``) name exactly the columns
their statement returns: ``shaped`` declares, it does not check, so this test does."""

from __future__ import annotations

import pytest

from graphmem.moving.rows import ImportedTopicRow, PeerCountRow, PeerEntityRow, PeerRelationRow
from tests.row_shapes import column_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "moving/list_peer_entities": PeerEntityRow,
    "moving/list_peer_relations": PeerRelationRow,
    "moving/count_peer_graph": PeerCountRow,
    "moving/list_imported_topics": ImportedTopicRow,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)
