"""The TypedDicts the commits area reads rows through (``shaped``) name exactly the columns
their statement returns, and the keys of the maps those columns hold: ``shaped`` declares, it
does not check, so this test does.

Not checked: CommitNode, a node returned whole (``RETURN c AS commit``), whose properties are
no column of the statement."""

from __future__ import annotations

import pytest

from graphmem.commits.rows import CommitRow, CreatedCommitRow, SessionCommitRow, SessionLinkRow
from tests.row_shapes import fields, keys_of_map, returned

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


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_shape_names_its_statements_columns(name: str) -> None:
    assert sorted(returned(name)) == fields(SHAPES[name])


@pytest.mark.parametrize(("name", "column"), sorted(MAPS))
def test_a_map_shape_names_the_keys_its_column_holds(name: str, column: str) -> None:
    assert sorted(keys_of_map(returned(name)[column])) == fields(MAPS[(name, column)])
