"""The TypedDict argument completion reads rows through (``shaped``) names exactly the column
its statements return: ``shaped`` declares, it does not check, so this test does."""

from __future__ import annotations

import pytest

from graphmem.app.rows import ValueRow
from tests.row_shapes import fields, returned

pytestmark = pytest.mark.pure

COMPLETIONS = ["store/list_project_names", "facts/list_state_keys", "memories/list_topic_keys"]


@pytest.mark.parametrize("name", COMPLETIONS)
def test_a_completion_returns_one_value_column(name: str) -> None:
    assert sorted(returned(name)) == fields(ValueRow)
