"""Retention: how long the raw archive and retired material (superseded, stale, rejected,
deleted or expired memories and facts) are kept before maintain erases them, through the one
erasure path (graphmem/erasure/). Set per process with GRAPHMEM_RETENTION_RAW and
GRAPHMEM_RETENTION_RETIRED: a number of days for every project, optionally followed by
per-project days (``30,alpha=7,beta=365``), or only projects (``alpha=7``: the others are
kept). Unset: kept forever."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import Field

from graphmem.core.models import StrictModel

MAX_DAYS = 36_500


class Retention(StrictModel):
    days: int | None = Field(default=None, ge=1, le=MAX_DAYS)
    projects: dict[str, int] = Field(default_factory=dict[str, int])

    @classmethod
    def parse(cls, text: str | None) -> Retention | None:
        """``30`` or ``30,alpha=7`` or ``alpha=7``; a ValueError names what is wrong."""
        if text is None or not text.strip():
            return None
        days: int | None = None
        projects: dict[str, int] = {}
        for part in (item.strip() for item in text.split(",")):
            name, equals, count = part.rpartition("=")
            if not count.isdigit() or not 1 <= int(count) <= MAX_DAYS or (equals and not name):
                raise ValueError(f"{part!r} is not DAYS or PROJECT=DAYS (1 to {MAX_DAYS} days)")
            if equals:
                projects[name.strip()] = int(count)
            else:
                days = int(count)
        return cls(days=days, projects=projects)

    def cutoffs(self, now: datetime) -> dict[str, Any]:
        """The statement parameters: the default cutoff and one per named project (ISO)."""
        return {
            "default": (now - timedelta(days=self.days)).isoformat() if self.days else None,
            "projects": {
                p: (now - timedelta(days=d)).isoformat() for p, d in self.projects.items()
            },
        }


class RetentionPolicy(StrictModel):
    raw: Retention | None = None  # raw-archive sessions, from their last turn
    retired: Retention | None = None  # memories and facts, from when they were retired

    @property
    def active(self) -> bool:
        return self.raw is not None or self.retired is not None
