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
    Name,
    OutputModel,
    StrictModel,
)
from graphmem.decisions.models import ReviewOutcome, ReviewSignal
from graphmem.facts.verification import Attestation
from graphmem.memories.models.memories import MemoryTopicState

SCHEMA_VERSION = 1
Project = Annotated[
    Name | None,
    Field(description="Owning project. Required unless origin_id is set."),
]
Origin = Annotated[
    Name | None,
    Field(description="Capture-origin id; with no project the record belongs to it alone."),
]
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


def owner_of(project: str | None, origin_id: str | None) -> str:
    """The namespace a fact key lives in: its project, else its capture origin alone."""
    return f"project:{project}" if project is not None else f"origin:{origin_id}"


class RecordFactRequest(AuditedRequest):
    project: Project = None
    origin_id: Origin = None
    key: Name = Field(
        description="Fact name, unique among the owner's active facts; the key "
        "current_state and reopen rules refer to."
    )
    value: BoundedJson = Field(
        default=None,
        description="Any JSON value (big integers, nested objects, unicode, null), "
        "stored losslessly; at most 64 KiB and 32 levels deep.",
    )
    source_class: str | None = Field(
        default=None,
        max_length=100,
        description="Claimed origin: agent_claimed (default), "
        "tool_observed, human_confirmed or production_verified. A claim, never "
        "proof. Other labels are stored as agent_claimed, the label in source_raw.",
    )
    source: str | None = Field(
        default=None, max_length=100, description="Legacy alias of source_class."
    )
    confidence: float = Field(
        default=0.5, ge=0.0, le=1.0, description="Caller's confidence 0-1 (default 0.5)."
    )
    observed_at: AwareDatetime | None = Field(
        default=None, description="When it was observed; default now."
    )
    valid_from: AwareDatetime | None = Field(
        default=None, description="Start of valid time; default observed_at."
    )
    valid_to: AwareDatetime | None = Field(
        default=None, description="End of valid time, after valid_from."
    )
    expires_at: AwareDatetime | None = Field(
        default=None,
        description="Instant after which maintain expires it. With valid_to, the "
        "earlier wins (see validity_policy in the result).",
    )
    verification_status: Literal["unverified", "contradicted"] = Field(
        default="unverified",
        description="Only 'contradicted' may be claimed (it lowers trust). "
        "'verified' comes only from verify_fact; 'expired' only from maintain.",
    )
    idempotency_key: Name | None = Field(
        default=None,
        description="Retry identity within the owner: a retry with the same key and "
        "arguments returns the first result and writes nothing; reusing it for "
        "different arguments is refused. Never an entity id.",
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
    candidates = [(t, name) for t, name in ((valid_to, "valid_to"), (expires_at, "expires_at"))]
    present = [(t, name) for t, name in candidates if t is not None]
    if not present:
        return ValidityPolicy(
            valid_to=valid_to, expires_at=expires_at, effective_until=None, boundary="none"
        )
    until, boundary = min(present, key=lambda pair: pair[0])
    return ValidityPolicy(
        valid_to=valid_to,
        expires_at=expires_at,
        effective_until=until,
        boundary=boundary,  # type: ignore[arg-type]
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
    superseded_id: str | None = Field(description="The fact this one replaced as active.")
    revision: int = Field(description="The tenant's history revision this write committed.")
    idempotent_replay: bool = Field(
        description="True when idempotency_key matched an earlier write: nothing was written."
    )
    review_signals: list[ReviewSignal] = Field(
        default_factory=list, description="Review signals this change raised."
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
    history: list[HistoryEntry]
    why: list[WhyEdge]
    candidates: list[str] = Field(
        default_factory=list, description="Owners holding an active fact, when ambiguous."
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
    state_key: Name = Field(description="The fact key to resolve.")
    project: Name | None = Field(
        default=None,
        description="Project to look in. Without project or origin_id, a key "
        "active under several owners is reported as ambiguous.",
    )
    origin_id: Name | None = Field(default=None, description="Origin to look in.")
    as_of: AwareDatetime | None = Field(
        default=None,
        description="Valid time: what was true at this instant (the fact whose "
        "window holds it, newest valid_from first), superseded facts included.",
    )
    known_at: AwareDatetime | None = Field(
        default=None,
        description="Transaction time: answer as graphmem knew it then, with the "
        "facts, statuses and links it had recorded by that instant.",
    )
    history_limit: int = Field(
        default=20, ge=0, le=200, description="Former facts to include, newest first."
    )


class GovernFactRequest(StrictModel):
    fact_id: Name = Field(description="The fact to govern.")
    action: GovernAction = Field(
        description="supersede: fact_id is replaced by target_fact_id (its validity "
        "ends at effective_at). contradict: link the two as contradicting (both "
        "show it). invalidate: end its validity at effective_at. revalidate: clear "
        "its validity end and successor links and make it its key's current fact."
    )
    # The seed's rule for govern_fact: an empty string behaves as absent.
    target_fact_id: BlankableName = Field(
        default=None,
        description="Required for supersede and contradict; must "
        "differ from fact_id. Empty means absent.",
    )
    effective_at: BlankableInstant = Field(
        default=None,
        description="When the change takes effect in valid time; default now. Empty means absent.",
    )
    rationale: Annotated[str | None, Field(max_length=2000), BlankAsNone] = Field(
        default=None, description="Why; kept on the link and in the history."
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
    fact_id: str
    action: GovernAction
    target_fact_id: str | None
    effective_at: datetime
    changed: bool
    revision: int
    fact: Fact = Field(description="The governed fact after the change.")
    review_signals: list[ReviewSignal] = Field(default_factory=list)


class MaintainResult(OutputModel):
    expired_facts: int = Field(description="Active facts past their boundary, now expired.")
    expired_fact_ids: list[str] = Field(description="Their ids (at most 100 listed).")
    stale_decisions: int = Field(description="Active decisions past review_after, now stale.")
    stale_decision_ids: list[str] = Field(description="Their ids (at most 100 listed).")
    review: ReviewOutcome = Field(
        description="The evaluation of every live decision's reopen rules, with diagnostics."
    )
    revision: int | None = Field(description="Revision committed, or null if nothing changed.")
    ran_at: datetime


class VerifyFactRequest(StrictModel):
    fact_id: Name = Field(description="The fact the attestation is for.")
    attestation: Attestation = Field(
        description="Signed attestation (see `graphmem verifier attest`): "
        "schema_version, fact_id, fact_digest, verifier_identity, "
        "evidence_reference, verification_method, verified_at, signature."
    )


class VerifyFactResult(OutputModel):
    fact: Fact = Field(description="The fact, now verified, with its attestation.")
    revision: int
