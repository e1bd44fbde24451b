"""The TypedDicts the store and history floors read rows through (``shaped``) name exactly the
columns their statement returns: ``shaped`` declares, it does not check, so this test does."""

from __future__ import annotations

import re

import pytest

from graphmem.history.rows import (
    ChainEvent,
    ChainPage,
    EventRow,
    HeadRow,
    IdempotencyRow,
    LockedHead,
)
from graphmem.store.catalog import default_catalog
from graphmem.store.rows import (
    IndexRow,
    LabelCountRow,
    SchemaStampRow,
    TenantGraphRow,
    TenantRow,
    VectorSpaceRow,
)
from tests.row_shapes import column_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "history/lock_head": LockedHead,
    "history/get_head": HeadRow,
    "history/list_chain": ChainPage,
    "history/list_events": EventRow,
    "history/list_subject_events": EventRow,
    "history/find_idempotency_record": IdempotencyRow,
    "store/list_schema": IndexRow,
    "store/get_vector_space": VectorSpaceRow,
    "store/get_schema_stamp": SchemaStampRow,
    "store/list_tenants": TenantRow,
    "store/count_tenant_graph": TenantGraphRow,
    "store/count_tenant_labels": LabelCountRow,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)


def test_a_chain_event_names_the_fields_of_the_chain_page() -> None:
    text = default_catalog()["history/list_chain"].text
    fields = re.findall(r"(\w+):", text.split("collect({", 1)[1].split("})", 1)[0])
    assert sorted(fields) == sorted(ChainEvent.__annotations__)
