"""The one validity boundary: the earlier of valid_to and expires_at, as writes, reads and the
validity_policy of every fact see it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.facts.models import validity_policy
from graphmem.facts.validity import boundary, lapsed

pytestmark = pytest.mark.pure

T = datetime(2026, 1, 1, tzinfo=UTC)
LATER = T + timedelta(days=1)


@pytest.mark.parametrize(
    ("valid_to", "expires_at", "until", "which"),
    [
        (None, None, None, "none"),
        (T, None, T, "valid_to"),
        (None, T, T, "expires_at"),
        (LATER, T, T, "expires_at"),
        (T, LATER, T, "valid_to"),
        (T, T, T, "valid_to"),  # a tie names valid_to
    ],
)
def test_the_earlier_end_is_the_boundary(
    valid_to: datetime | None, expires_at: datetime | None, until: datetime | None, which: str
) -> None:
    assert boundary(valid_to, expires_at) == until
    policy = validity_policy(valid_to, expires_at)
    assert (policy.effective_until, policy.boundary) == (until, which)


def test_a_fact_has_lapsed_at_its_boundary_instant() -> None:
    assert not lapsed(LATER, T, T - timedelta(microseconds=1))
    assert lapsed(LATER, T, T)
    assert not lapsed(None, None, LATER)
