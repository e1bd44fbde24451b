"""Facts: observed values under (project, key) with claimed provenance and validity."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import AwareDatetime, Field, JsonValue, model_validator

from graphmem.models.common import AuditText, BoundedJson, Name, OutputModel, StrictModel

SCHEMA_VERSION = 1
SourceClass = Literal["agent_claimed", "tool_observed", "human_confirmed", "production_verified"]
SOURCE_CLASSES: tuple[SourceClass, ...] = (
    "agent_claimed",
    "tool_observed",
    "human_confirmed",
    "production_verified",
)
FactStatus = Literal["active", "superseded", "expired", "invalidated"]
VerificationStatus = Literal["unverified", "contradicted", "expired", "verified"]
StateStatus = Literal["current", "no_current", "not_found", "ambiguous", "unresolved_conflict"]


def normalise_source(label: str | None) -> tuple[SourceClass, str | None]:
    """An unknown provenance label downgrades to agent_claimed; the raw label is kept."""
    if label is None:
        return "agent_claimed", None
    for known in SOURCE_CLASSES:
        if label == known:
            return known, None
    return "agent_claimed", label


class RecordFactRequest(StrictModel):
    project: Name
    key: Name
    value: BoundedJson = None
    source_class: str | None = Field(default=None, max_length=100)
    source: str | None = Field(default=None, max_length=100)
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    observed_at: AwareDatetime | None = None
    valid_from: AwareDatetime | None = None
    valid_to: AwareDatetime | None = None
    session_id: AuditText | None = None
    actor: AuditText | None = None
    client: AuditText | None = None

    @model_validator(mode="after")
    def _window(self) -> RecordFactRequest:
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            raise ValueError("valid_to must be later than valid_from")
        return self

    @property
    def provenance(self) -> tuple[SourceClass, str | None]:
        return normalise_source(self.source_class if self.source_class is not None else self.source)


class Temporal(OutputModel):
    valid_from: datetime | None = Field(description="Start of the valid-time window.")
    valid_to: datetime | None = Field(description="End of the valid-time window, if any.")
    recorded_at: datetime = Field(description="Transaction time: when graphmem stored it.")
    invalidated_at: datetime | None = Field(default=None, description="When it was invalidated.")


class Fact(OutputModel):
    id: str
    kind: Literal["fact"] = "fact"
    project: str | None
    key: str
    value: JsonValue = Field(description="The observed value, exactly as recorded.")
    status: FactStatus
    source_class: SourceClass = Field(description="Claimed origin; a claim, never proof.")
    source: SourceClass = Field(description="Legacy alias of source_class.")
    source_raw: str | None = Field(description="The original label when it was downgraded.")
    confidence: float
    verification_status: VerificationStatus
    observed_at: datetime | None
    temporal: Temporal
    session_id: str | None
    actor: str | None
    client: str | None
    created_at: datetime
    updated_at: datetime
    schema_version: int


class RecordFactResult(Fact):
    superseded_id: str | None = Field(description="The fact this one replaced as active.")
    revision: int = Field(description="The tenant's history revision this call committed.")


class HistoryEntry(OutputModel):
    id: str
    status: FactStatus
    value: JsonValue
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    superseded_by: str | None


class WhyEdge(OutputModel):
    type: Literal["supersedes", "contradicts", "evidenced_by"]
    from_id: str
    to_id: str


class CurrentState(OutputModel):
    state_key: str
    status: StateStatus
    project: str | None = Field(description="Project of the answer (null unless resolved).")
    answer: Fact | None
    history: list[HistoryEntry]
    why: list[WhyEdge]
    candidates: list[str] = Field(
        default_factory=list, description="Projects holding an active fact, when ambiguous."
    )


class CurrentStateRequest(StrictModel):
    state_key: Name
    project: Name | None = None
    history_limit: int = Field(default=20, ge=0, le=200)
