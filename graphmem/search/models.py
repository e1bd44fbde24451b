"""search: hybrid retrieval over curated memories, with the raw archive as fallback."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import Name, OutputModel, StrictModel
from graphmem.memories.models.memories import MemoryStatus, MemoryType, NextStep, Tag
from graphmem.search.channels.names import ChannelName


def _channel_named(value: object) -> object:
    """A client names a channel with a string; strict mode takes only the enum's members."""
    if isinstance(value, str):
        try:
            return ChannelName(value)
        except ValueError:
            names = ", ".join(name.value for name in ChannelName)
            raise ValueError(f"one of {names}") from None
    return value


ChannelArgument = Annotated[ChannelName, BeforeValidator(_channel_named)]
TaskIntent = Literal[
    "resume_work",
    "explain_decision",
    "debug_failure",
    "apply_preference",
    "review_change",
    "explore_history",
]
Role = Literal["coder", "reviewer", "planner", "researcher"]
Risk = Literal["low", "medium", "high"]
Classification = Literal["current", "superseded", "stale", "quarantined"]

MAX_QUERY_CHARS = 1_000
MAX_LIMIT = 100
MAX_OFFSET = 10_000
MAX_TOKEN_BUDGET = 100_000
SearchText = Annotated[str, Field(max_length=MAX_QUERY_CHARS)]


class SearchRequest(StrictModel):
    query: SearchText | None = Field(default=None, description="Omit to list.")
    project: Name | None = Field(default=None, description="Filter.")
    type: MemoryType | None = Field(default=None, description="Filter.")
    branch: Name | None = Field(default=None, description="Filter.")
    tags: list[Tag] = Field(default_factory=list, max_length=10, description="Any of these.")
    include_stale: bool = Field(default=False, description="Also stale.")
    include_quarantined: bool = Field(default=False, description="Also quarantined, flagged.")
    limit: int = Field(default=20, ge=1, le=MAX_LIMIT, description="Page size.")
    offset: int = Field(default=0, ge=0, le=MAX_OFFSET, description="Results to skip.")
    task_intent: TaskIntent | None = Field(default=None, description="Plan intent.")
    role: Role | None = Field(default=None, description="Plan role.")
    risk: Risk | None = Field(default=None, description="Plan risk.")
    token_budget: int | None = Field(
        default=None, ge=1, le=MAX_TOKEN_BUDGET, description="Plan token budget."
    )
    include_superseded: bool | None = Field(default=None, description="Plan: superseded.")
    explain: bool = Field(default=False, description="Per-hit channel ranks.")
    multi_hop: bool = Field(default=False, description="Second hop.")
    channels: list[ChannelArgument] | None = Field(
        default=None, min_length=1, max_length=len(ChannelName), description="Default: not subject."
    )
    raw_fallback: bool = Field(default=True, description="Allow raw_hits.")

    @property
    def has_query(self) -> bool:
        return self.query is not None and bool(self.query.strip())

    @property
    def routed(self) -> bool:
        plan_fields = (self.task_intent, self.role, self.risk, self.token_budget)
        return any(v is not None for v in plan_fields) or self.include_superseded is not None

    @model_validator(mode="after")
    def _combinations(self) -> SearchRequest:
        if self.explain and self.multi_hop:
            raise InvalidArgument("multi_hop", "cannot be combined with explain")
        for flag in ("explain", "multi_hop"):
            if getattr(self, flag) and not self.has_query:
                raise InvalidArgument("query", f"a non-blank query is required with {flag}")
        if self.routed and not self.has_query:
            raise InvalidArgument("query", "a retrieval plan needs a non-blank query")
        if self.routed and self.project is None:
            raise InvalidArgument("project", "a retrieval plan needs an explicit project")
        return self


class LinkedFact(OutputModel):
    id: str
    key: str
    value_json: str = Field(description="The fact's current value, as canonical JSON.")
    status: str
    recorded_at: str


class ChannelShare(OutputModel):
    channel: str
    rank: int = Field(description="Rank of the hit in that channel, from 1.")
    contribution: float = Field(description="weight / (5 + rank), summed into the score.")


class HitExplanation(OutputModel):
    channels: list[ChannelShare]
    boost: float = Field(description="Type boost of the retrieval plan (1 when none).")
    score: float


class MemoryHit(OutputModel):
    id: str
    type: MemoryType
    title: str
    topic_key: str | None
    topic_version: int
    preview: str = Field(description="The first 300 characters of the content.")
    project: str
    branch: str | None
    tags: list[str]
    status: MemoryStatus
    classification: Classification
    version: int
    updated_at: str
    score: float = Field(description="Fused score (higher is better); 0 when listing.")
    linked_fact: LinkedFact | None = Field(
        description="The current fact of the state key this memory's topic names, if any."
    )
    explain: HitExplanation | None = None


class RawSearchHit(OutputModel):
    turn_id: str
    session_id: str
    session_ref: str
    project: str
    role: str
    ts: str
    seq: int
    preview: str
    score: float
    explain: HitExplanation | None = None


class Pagination(OutputModel):
    limit: int
    offset: int
    has_more: bool
    next_offset: int | None


class MultiHop(OutputModel):
    hops: int
    entities_discovered: list[str]


class RetrievalPlan(OutputModel):
    schema_version: int = 1
    policy_version: str
    plan_hash: str = Field(description="sha256 of the plan's canonical JSON.")
    intent: TaskIntent
    role: Role
    risk: Risk
    token_budget: int
    include_superseded: bool
    channel_weights: dict[str, float]
    type_boosts: dict[str, float]
    raw_fallback: bool
    reason_codes: list[str]


class SearchResult(OutputModel):
    source: Literal["memory"] = "memory"
    query: str | None
    results: list[MemoryHit]
    count: int
    pagination: Pagination
    next_step: NextStep | None
    channels_used: list[str] = Field(description="Channels that ranked this search.")
    raw_hits: list[RawSearchHit] = Field(
        default_factory=list[RawSearchHit],
        description="Raw-archive turns, when fewer than 3 curated memories matched.",
    )
    raw_hits_note: str | None = None
    raw_hits_error: str | None = Field(
        default=None, description="Why the raw-archive fallback failed (curated results stand)."
    )
    multi_hop: MultiHop | None = None
    retrieval_plan: RetrievalPlan | None = None
    truncated_by_budget: bool = False
    notices: list[str] = Field(
        default_factory=list,
        description=(
            "One line each on what ranked this search below its configuration: the vector "
            "channel off (its model unavailable), a second stage dropped (over its time "
            "budget, or failed)."
        ),
    )
