"""The TypedDicts the impact area reads rows through (``shaped``) name exactly the columns their
statement returns, and the keys of the maps those columns hold: ``shaped`` declares, it does
not check, so this test does. (No impact statement returns a node whole.)

list_impact_edges UNIONs its reads inside a CALL: the parser reads the statement's last
RETURN outside any subquery, the one that projects every edge, so it is checked whole."""

from __future__ import annotations

import pytest

from graphmem.impact.rows import EdgeItem, EdgesRow, EndpointsRow, LinkedRow
from tests.row_shapes import column_test, map_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "impact/find_impact_endpoints": EndpointsRow,
    "impact/link_impact": LinkedRow,
    "impact/list_impact_edges": EdgesRow,
}

# A column that holds a map (or a list of maps): the TypedDict of its keys.
MAPS: dict[tuple[str, str], type] = {("impact/list_impact_edges", "edges"): EdgeItem}


test_a_shape_names_its_statements_columns = column_test(SHAPES)


test_a_map_shape_names_the_keys_its_column_holds = map_test(MAPS)
