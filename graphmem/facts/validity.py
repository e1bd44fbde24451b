"""A fact's validity in time: the one boundary rule, shared by writes, reads and the models.

A fact's *boundary* is the earlier of valid_to and expires_at; at the boundary instant it has
lapsed. maintain turns lapsed active facts into 'expired'; reads do not wait for it.
"""

from __future__ import annotations

from datetime import datetime


def boundary(valid_to: datetime | None, expires_at: datetime | None) -> datetime | None:
    """The instant the fact lapses: the earlier of the two (valid_to on a tie); None: never."""
    present = [t for t in (valid_to, expires_at) if t is not None]
    return min(present) if present else None


def lapsed(valid_to: datetime | None, expires_at: datetime | None, at: datetime) -> bool:
    until = boundary(valid_to, expires_at)
    return until is not None and until <= at
