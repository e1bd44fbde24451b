"""A number of days, for every project and per project: the grammar of a setting such as
GRAPHMEM_RETENTION_RAW (``30``, ``30,alpha=7`` or ``alpha=7``: the others unbounded)."""

from __future__ import annotations

from pydantic import Field

from graphmem.core.models import StrictModel

MAX_DAYS = 36_500


class DaysByProject(StrictModel):
    days: int | None = Field(default=None, ge=1, le=MAX_DAYS)  # every project not named
    projects: dict[str, int] = Field(default_factory=dict[str, int])

    @classmethod
    def parse(cls, text: str | None) -> DaysByProject | None:
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
