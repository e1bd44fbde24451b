"""Facts: observed values under an owner (project or origin) and key, with claimed provenance,
a bi-temporal validity window, supersession that keeps history, and governance."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, Field, JsonValue, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import (
    Audit,
    AuditedRequest,
    BlankableInstant,
    BlankableName,
    BlankAsNone,
    BoundedJson,
    Continuation,
    Name,
    OutputModel,
    StrictModel,
    owner_of,
)
from graphmem.decisions.models import ReviewOutcome, ReviewSignal
from graphmem.facts.attestation import Attestation
from graphmem.facts.validity import boundary
from graphmem.memories.models.memories import MemoryTopicState
from graphmem.toolkit.answers import compact

SCHEMA_VERSION = 1
Project = Annotated[Name | None, Field(description="Owning project (or origin_id).")]
Origin = Annotated[Name | None, Field(description="Capture origin; owner if no project.")]
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
GovernAction = Literal["supersede", "contradict", "invalidate", "revalidate"]
Boundary = Literal["valid_to", "expires_at", "none"]


def normalise_source(label: str | None) -> tuple[SourceClass, str | None]:
    """Trim, lowercase, '-' to '_'; an unknown label downgrades to agent_claimed.

    The raw label is kept whenever it differs from the class it was read as.
    """
    if label is None:
        return "agent_claimed", None
    folded = label.strip().lower().replace("-", "_")
    for known in SOURCE_CLASSES:
        if known == folded:
            return known, None if label == known else label
    return "agent_claimed", label


class RecordFactRequest(AuditedRequest):
    project: Project = None
    origin_id: Origin = None
    key: Name = Field(description="Fact key.")
    value: BoundedJson = Field(
        default=None, description="Any JSON; at most 64 KiB, 32 levels deep."
    )
    source_class: str | None = Field(
        default=None,
        max_length=100,
        description="agent_claimed, tool_observed, human_confirmed or production_verified.",
    )
    source: str | None = Field(
        default=None, max_length=100, description="Legacy alias of source_class."
    )
    confidence: float = Field(default=0.5, ge=0.0, le=1.0, description="Caller's confidence.")
    observed_at: AwareDatetime | None = Field(default=None, description="Default now.")
    valid_from: AwareDatetime | None = Field(default=None, description="Default observed_at.")
    valid_to: AwareDatetime | None = Field(default=None, description="Valid-time end.")
    expires_at: AwareDatetime | None = Field(
        default=None, description="Earlier of this and valid_to wins."
    )
    verification_status: Literal["unverified", "contradicted"] = Field(
        default="unverified", description="Claim contradicted to lower trust."
    )
    idempotency_key: Name | None = Field(
        default=None, description="A retry with it returns the first result."
    )

    @model_validator(mode="after")
    def _consistent(self) -> RecordFactRequest:
        # InvalidArgument (not ValueError) passes through pydantic and names its field.
        if self.project is None and self.origin_id is None:
            raise InvalidArgument("project", "required unless origin_id is set")
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            raise InvalidArgument("valid_to", "must be later than valid_from")
        return self

    @property
    def owner(self) -> str:
        return owner_of(self.project, self.origin_id)

    @property
    def provenance(self) -> tuple[SourceClass, str | None]:
        label = self.source_class if self.source_class is not None else self.source
        return normalise_source(label)


class Temporal(OutputModel):
    valid_from: datetime = Field(description="Start of the valid-time window.")
    valid_to: datetime | None = Field(description="End of the valid-time window, if any.")
    recorded_at: datetime = Field(description="Transaction time: when graphmem stored it.")
    invalidated_at: datetime | None = Field(
        default=None, description="Transaction time of its invalidation, if invalidated."
    )


class ValidityPolicy(OutputModel):
    valid_to: datetime | None
    expires_at: datetime | None
    effective_until: datetime | None = Field(
        description="The earlier of valid_to and expires_at: the fact lapses at this instant."
    )
    boundary: Boundary = Field(description="Which input set effective_until.")


def validity_policy(valid_to: datetime | None, expires_at: datetime | None) -> ValidityPolicy:
    until = boundary(valid_to, expires_at)
    which: Boundary = "none" if until is None else "valid_to" if until == valid_to else "expires_at"
    return ValidityPolicy(
        valid_to=valid_to, expires_at=expires_at, effective_until=until, boundary=which
    )


class Verification(OutputModel):
    verifier_identity: str
    evidence_reference: str
    verification_method: str
    verified_at: datetime
    fact_digest: str


class Fact(OutputModel):
    id: str
    kind: Literal["fact"] = "fact"
    project: str | None
    origin_id: str | None
    key: str
    value: JsonValue = Field(description="The observed value, exactly as recorded.")
    status: FactStatus
    source_class: SourceClass = Field(description="Claimed origin; a claim, never proof.")
    source: SourceClass = Field(description="Legacy alias of source_class.")
    source_raw: str | None = Field(description="The original label when it differed.")
    confidence: float
    verification_status: VerificationStatus
    verification: Verification | None = Field(
        default=None, description="The checked attestation, only when verified."
    )
    observed_at: datetime
    expires_at: datetime | None
    temporal: Temporal
    validity_policy: ValidityPolicy
    contradiction_count: int = Field(description="Open contradictions with other facts.")
    session_id: str | None
    actor: str | None
    client: str | None
    created_at: datetime
    updated_at: datetime
    schema_version: int


class RecordFactResult(Fact):
    compact_answer = compact(
        "id", "key", "status", "superseded_id", "revision", "idempotent_replay", "review_signals"
    )
    superseded_id: str | None = Field(description="The fact this one replaced as active.")
    revision: int = Field(description="The tenant's history revision this write committed.")
    idempotent_replay: bool = Field(
        description="True when idempotency_key matched an earlier write: nothing was written."
    )
    review_signals: list[ReviewSignal] = Field(
        default_factory=list[ReviewSignal], description="Review signals this change raised."
    )


class HistoryEntry(OutputModel):
    id: str
    status: FactStatus
    value: JsonValue
    valid_from: datetime
    valid_to: datetime | None
    expires_at: datetime | None
    recorded_at: datetime
    superseded_by: str | None


class WhyEdge(OutputModel):
    type: Literal["supersedes", "contradicts", "evidenced_by"]
    from_id: str
    to_id: str
    at: datetime | None = None
    rationale: str | None = None


class CurrentState(OutputModel):
    state_key: str
    status: StateStatus
    project: str | None = Field(description="Project of the resolved key (null if none).")
    origin_id: str | None = Field(default=None, description="Origin of an origin-owned key.")
    answer: Fact | None
    current_erased: bool = Field(
        default=False,
        description="The key's current fact was erased (graphmem erase): no answer stands in.",
    )
    history: list[HistoryEntry]
    why: list[WhyEdge]
    candidates: list[str] = Field(
        default_factory=list, description="Owners holding an active fact, when ambiguous."
    )
    aliases: list[str] = Field(
        default_factory=list,
        description="Other keys read as this one: they name the same subject (another "
        "spelling, or a merged name) under the same attribute.",
    )
    as_of: datetime | None = Field(default=None, description="Valid time the answer is for.")
    known_at: datetime | None = Field(
        default=None, description="Transaction time the answer reflects (null: now)."
    )
    memory: MemoryTopicState | None = Field(
        default=None,
        description="The memories side: the topic whose topic_key is this state key (its "
        "active version and history). When no fact has the key, status comes from here.",
    )


class CurrentStateRequest(StrictModel):
    state_key: Name = Field(description="Fact key to resolve.")
    project: Name | None = Field(default=None, description="Project; default every owner.")
    origin_id: Name | None = Field(default=None, description="Origin to look in.")
    as_of: AwareDatetime | None = Field(default=None, description="Valid time: what was true then.")
    known_at: AwareDatetime | None = Field(
        default=None, description="Transaction time: as graphmem knew it then."
    )
    history_limit: int = Field(default=20, ge=0, le=200, description="Former facts listed.")


class GovernFactRequest(StrictModel):
    fact_id: Name = Field(description="Fact id.")
    action: GovernAction = Field(
        description="supersede: target replaces it; contradict: link both; invalidate: "
        "end validity; revalidate: current again."
    )
    # The seed's rule for govern_fact: an empty string behaves as absent.
    target_fact_id: BlankableName = Field(default=None, description="For supersede and contradict.")
    effective_at: BlankableInstant = Field(default=None, description="Valid time; default now.")
    rationale: Annotated[str | None, Field(max_length=2000), BlankAsNone] = Field(
        default=None, description="Why."
    )
    session_id: Audit = None
    actor: Audit = None

    @model_validator(mode="after")
    def _target(self) -> GovernFactRequest:
        needs_target = self.action in ("supersede", "contradict")
        if needs_target and self.target_fact_id is None:
            raise InvalidArgument("target_fact_id", f"required for {self.action}")
        if not needs_target and self.target_fact_id is not None:
            raise InvalidArgument("target_fact_id", f"not used by {self.action}")
        if self.target_fact_id is not None and self.target_fact_id == self.fact_id:
            raise InvalidArgument("target_fact_id", "must differ from fact_id")
        return self


class GovernFactResult(OutputModel):
    compact_answer = compact(
        "fact_id",
        "action",
        "target_fact_id",
        "changed",
        "revision",
        "review_signals",
        status="fact.status",
    )
    fact_id: str
    action: GovernAction
    target_fact_id: str | None
    effective_at: datetime
    changed: bool
    revision: int
    fact: Fact = Field(description="The governed fact after the change.")
    review_signals: list[ReviewSignal] = Field(default_factory=list[ReviewSignal])


class MaintainRequest(StrictModel):
    continuation: Continuation | None = None


class MaintainResult(OutputModel):
    expired_facts: int = Field(description="Active facts past their boundary, now expired.")
    expired_fact_ids: list[str] = Field(description="Their ids (at most 100 listed).")
    stale_decisions: int = Field(description="Active decisions past review_after, now stale.")
    stale_decision_ids: list[str] = Field(description="Their ids (at most 100 listed).")
    review: ReviewOutcome = Field(
        description="The evaluation of the live decisions this call reached, with diagnostics "
        "(signals_opened lists at most 100)."
    )
    batches: int = Field(description="Batches run, each its own transaction.")
    revision: int | None = Field(description="Last revision committed, or null if none.")
    continuation: str | None = Field(
        description="Work remains: call again with it. Null when this pass is complete."
    )
    erased_past_retention: dict[str, int] = Field(
        default_factory=dict[str, int],
        description="Nodes by kind erased past the configured retention (GRAPHMEM_RETENTION_*).",
    )
    ran_at: datetime = Field(
        description="Transaction time of the last expiry batch: what had lapsed by then is "
        "expired (a call that resumed past expiry: its first batch's time)."
    )


class VerifyFactRequest(StrictModel):
    fact_id: Name = Field(description="Fact to verify.")
    attestation: Attestation = Field(description="From graphmem verifier attest.")


class VerifyFactResult(OutputModel):
    compact_answer = compact(
        "revision", id="fact.id", verification_status="fact.verification_status"
    )
    fact: Fact = Field(description="The fact, now verified, with its attestation.")
    revision: int
