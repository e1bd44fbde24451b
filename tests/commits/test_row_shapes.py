"""The TypedDicts the commits area reads rows through (``shaped``) name exactly the columns
their statement returns, and the keys of the maps those columns hold: ``shaped`` declares, it
does not check, so this test does.

Not checked: CommitNode, a node returned whole (``RETURN c AS commit``), whose properties are
no column of the statement."""

from __future__ import annotations

import pytest

from graphmem.commits.rows import CommitRow, CreatedCommitRow, SessionCommitRow, SessionLinkRow
from tests.row_shapes import column_test, map_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "commits/find_commit": CommitRow,
    "commits/find_commits_by_sha": CommitRow,
    "commits/link_commit_session": CommitRow,
    "commits/create_commit": CreatedCommitRow,
    "commits/list_session_commits": SessionCommitRow,
}

# A column that holds a map (or a list of maps): the TypedDict of its keys.
MAPS: dict[tuple[str, str], type] = {
    ("commits/find_commit", "sessions"): SessionLinkRow,
    ("commits/find_commits_by_sha", "sessions"): SessionLinkRow,
    ("commits/link_commit_session", "sessions"): SessionLinkRow,
    ("commits/list_session_commits", "link"): SessionLinkRow,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)


test_a_map_shape_names_the_keys_its_column_holds = map_test(MAPS)
