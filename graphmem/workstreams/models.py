"""Workstreams: a project's high-level threads of work, with status, next action, blockers and
progress (an integer percentage)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import AuditedRequest, Name, OutputModel, ShortText, StrictModel
from graphmem.toolkit.answers import compact

WorkstreamStatus = Literal["active", "paused", "completed", "abandoned"]
WORKSTREAM_STATUSES: tuple[WorkstreamStatus, ...] = ("active", "paused", "completed", "abandoned")

NextAction = Annotated[str, Field(min_length=1, max_length=2000)]
Progress = Annotated[int, Field(ge=0, le=100)]
MAX_BLOCKERS = 20
MAX_WORKSTREAMS_PAGE = 200


# --- inputs --------------------------------------------------------------------------------------
class CreateWorkstreamRequest(AuditedRequest):
    project: Name = Field(description="Project.")
    title: ShortText = Field(description="What the work is.")
    status: WorkstreamStatus = Field(default="active", description="Initial status.")
    next_action: NextAction | None = Field(default=None, description="Next step.")
    blockers: list[ShortText] = Field(
        default_factory=list, max_length=MAX_BLOCKERS, description="What blocks progress."
    )
    progress: Progress | None = Field(default=None, description="Percent done.")


class ListWorkstreamsRequest(StrictModel):
    project: Name = Field(description="Project.")
    status: WorkstreamStatus | None = Field(default=None, description="Only this status.")
    limit: int = Field(default=20, ge=1, le=MAX_WORKSTREAMS_PAGE, description="Page size.")
    offset: int = Field(default=0, ge=0, le=100_000, description="Page start.")


class UpdateWorkstreamRequest(AuditedRequest):
    id: Name = Field(description="Workstream id.")
    status: WorkstreamStatus | None = Field(default=None, description="New status.")
    next_action: NextAction | None = Field(default=None, description="New next step.")
    blockers: list[ShortText] | None = Field(
        default=None, max_length=MAX_BLOCKERS, description="Replaces the list; [] clears it."
    )
    progress: Progress | None = Field(default=None, description="Percent done.")

    @model_validator(mode="after")
    def _something_to_change(self) -> UpdateWorkstreamRequest:
        if (self.status, self.next_action, self.blockers, self.progress) == (None,) * 4:
            raise InvalidArgument(
                "status", "give at least one of status, next_action, blockers, progress"
            )
        return self

    def changes(self) -> dict[str, object]:
        """The fields the caller set (omitted ones stay unchanged)."""
        fields = ("status", "next_action", "blockers", "progress")
        return {name: getattr(self, name) for name in fields if getattr(self, name) is not None}


# --- outputs -------------------------------------------------------------------------------------
class Workstream(OutputModel):
    id: str
    kind: Literal["workstream"] = "workstream"
    project: str | None = Field(description="Null only for workstreams made outside the tools.")
    title: str
    status: str
    progress: int | None = Field(description="Percent done, 0-100; null when not given.")
    next_action: str | None
    blockers: list[str]
    created_at: datetime | None
    updated_at: datetime | None
    completed_at: datetime | None = Field(
        description="When it last became completed; null while not completed."
    )


class CreateWorkstreamResult(OutputModel):
    compact_answer = compact("revision", id="workstream.id", status="workstream.status")
    workstream: Workstream
    revision: int


class ListWorkstreamsResult(OutputModel):
    project: str
    status: WorkstreamStatus | None
    workstreams: list[Workstream] = Field(description="Newest update first.")
    count: int
    limit: int
    offset: int
    has_more: bool
    next_offset: int | None


class UpdateWorkstreamResult(OutputModel):
    compact_answer = compact("id", "updated", "changed", "revision", status="workstream.status")
    id: str
    updated: bool = Field(
        description="true when a field changed; false when every given value was already set "
        "(nothing written, revision null)."
    )
    changed: list[str] = Field(description="The fields whose value changed.")
    workstream: Workstream
    revision: int | None
