"""Retention: how long the raw archive and retired material (superseded, stale, rejected,
deleted or expired memories and facts) are kept before maintain erases them, through the one
erasure path (erasure/retention.py). Set per process with GRAPHMEM_RETENTION_RAW and
GRAPHMEM_RETENTION_RETIRED: a number of days for every project, optionally followed by
per-project days (``30,alpha=7,beta=365``), or only projects (``alpha=7``: the others are
kept). Unset: kept forever."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypedDict

from graphmem.core.days import DaysByProject
from graphmem.core.models import StrictModel
from graphmem.core.settings import Settings


class Cutoffs(TypedDict):
    """erasure/list_past_retention's parameter: the default cutoff and one per project (ISO)."""

    default: str | None
    projects: dict[str, str]


class RetentionPolicy(StrictModel):
    raw: DaysByProject | None = None  # raw-archive sessions, from their last turn
    retired: DaysByProject | None = None  # memories and facts, from when they were retired

    @property
    def active(self) -> bool:
        return self.raw is not None or self.retired is not None


def retention_policy(settings: Settings) -> RetentionPolicy:
    """The process's retention (its settings were checked at start: they parse)."""
    return RetentionPolicy(
        raw=DaysByProject.parse(settings.retention_raw),
        retired=DaysByProject.parse(settings.retention_retired),
    )


def cutoffs(kept: DaysByProject, now: datetime) -> Cutoffs:
    """What is older than these instants is past retention."""
    return {
        "default": (now - timedelta(days=kept.days)).isoformat() if kept.days else None,
        "projects": {p: (now - timedelta(days=d)).isoformat() for p, d in kept.projects.items()},
    }
