"""The TypedDicts the memories area reads rows through (``shaped``) name exactly the columns
their statement returns: ``shaped`` declares, it does not check, so this test does.

Not checked: MemoryNode, a node returned whole (``RETURN m AS memory``; find_topic_head's
``active``, get_topic_versions' ``versions``), whose properties are no column of the
statement. archive/get_raw_turns, which get_observations also reads, is tests/archive's."""

from __future__ import annotations

import pytest

from graphmem.memories.rows import MemoryRow, TopicHeadRow, TopicVersionsRow
from tests.row_shapes import column_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "memories/create_memory": MemoryRow,
    "memories/create_memory_at_head": MemoryRow,
    "memories/get_memories": MemoryRow,
    "memories/record_memory_access": MemoryRow,
    "memories/set_memory_status": MemoryRow,
    "memories/supersede_memory": MemoryRow,
    "memories/find_topic_head": TopicHeadRow,
    "memories/get_topic_versions": TopicVersionsRow,  # facts' current_state reads it
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)
