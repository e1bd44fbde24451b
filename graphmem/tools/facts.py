"""MCP tools over facts. Thin: validate, call the domain, let the boundary map errors."""

from typing import Annotated, Literal

from pydantic import AwareDatetime, Field

from graphmem import facts, verification
from graphmem.errors import ConfigurationError
from graphmem.memory import state
from graphmem.models.common import AuditText, BoundedJson, Name
from graphmem.models.facts import (
    CurrentState,
    CurrentStateRequest,
    GovernFactRequest,
    GovernFactResult,
    MaintainResult,
    RecordFactRequest,
    RecordFactResult,
    VerifyFactResult,
)
from graphmem.tools.context import Services
from graphmem.tools.spec import ToolFunction, ToolSpec

Project = Annotated[
    Name | None,
    Field(description="Owning project. Required unless origin_id is set."),
]
Origin = Annotated[
    Name | None,
    Field(description="Capture-origin id; with no project the record belongs to it alone."),
]
Instant = Annotated[AwareDatetime | None, Field(description="ISO 8601 instant with an offset.")]
Audit = Annotated[AuditText | None, Field(description="Recorded for audit; grants nothing.")]


def _blank_to_none(value: str | None) -> str | None:
    """The seed's rule for govern_fact: an empty string behaves as absent."""
    return None if value == "" else value


def make_record_fact(services: Services) -> ToolFunction:
    async def record_fact(
        key: Annotated[
            Name,
            Field(
                description="Fact name, unique among the owner's active facts; the key "
                "current_state and reopen rules refer to."
            ),
        ],
        project: Project = None,
        origin_id: Origin = None,
        value: Annotated[
            BoundedJson,
            Field(
                description="Any JSON value (big integers, nested objects, unicode, null), "
                "stored losslessly; at most 64 KiB and 32 levels deep."
            ),
        ] = None,
        source_class: Annotated[
            str | None,
            Field(
                max_length=100,
                description="Claimed origin: agent_claimed (default), "
                "tool_observed, human_confirmed or production_verified. A claim, never "
                "proof. Other labels are stored as agent_claimed, the label in source_raw.",
            ),
        ] = None,
        source: Annotated[
            str | None, Field(max_length=100, description="Legacy alias of source_class.")
        ] = None,
        confidence: Annotated[
            float, Field(ge=0.0, le=1.0, description="Caller's confidence 0-1 (default 0.5).")
        ] = 0.5,
        observed_at: Annotated[
            AwareDatetime | None, Field(description="When it was observed; default now.")
        ] = None,
        valid_from: Annotated[
            AwareDatetime | None,
            Field(description="Start of valid time; default observed_at."),
        ] = None,
        valid_to: Annotated[
            AwareDatetime | None, Field(description="End of valid time, after valid_from.")
        ] = None,
        expires_at: Annotated[
            AwareDatetime | None,
            Field(
                description="Instant after which maintain expires it. With valid_to, the "
                "earlier wins (see validity_policy in the result)."
            ),
        ] = None,
        verification_status: Annotated[
            Literal["unverified", "contradicted"],
            Field(
                description="Only 'contradicted' may be claimed (it lowers trust). "
                "'verified' comes only from verify_fact; 'expired' only from maintain."
            ),
        ] = "unverified",
        idempotency_key: Annotated[
            Name | None,
            Field(
                description="Retry identity within the owner: a retry with the same key and "
                "arguments returns the first result and writes nothing; reusing it for "
                "different arguments is refused. Never an entity id."
            ),
        ] = None,
        session_id: Audit = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> RecordFactResult:
        """Record one observed fact under a project (or capture origin) and key.

        Use it for observations that can change and that other things depend on (a
        latency, a version, who owns a module); use save_memory for durable notes that are
        not observations, and govern_fact to supersede, contradict or invalidate a fact
        explicitly. The key's previous active fact is kept as history (status superseded,
        linked by SUPERSEDES); exactly one fact per key stays active, also under concurrent
        writers. One transaction, one history revision. Provenance and confidence are
        recorded as claims; nothing here can make a fact verified. Returns the stored fact,
        the id it superseded, the revision and any review signals raised.
        """
        request = RecordFactRequest(
            project=project,
            origin_id=origin_id,
            key=key,
            value=value,
            source_class=source_class,
            source=source,
            confidence=confidence,
            observed_at=observed_at,
            valid_from=valid_from,
            valid_to=valid_to,
            expires_at=expires_at,
            verification_status=verification_status,
            idempotency_key=idempotency_key,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await facts.record_fact(services.store, services.tenant(), request)

    return record_fact


def make_current_state(services: Services) -> ToolFunction:
    async def current_state(
        state_key: Annotated[Name, Field(description="The fact key to resolve.")],
        project: Annotated[
            Name | None,
            Field(
                description="Project to look in. Without project or origin_id, a key "
                "active under several owners is reported as ambiguous."
            ),
        ] = None,
        origin_id: Annotated[Name | None, Field(description="Origin to look in.")] = None,
        as_of: Annotated[
            AwareDatetime | None,
            Field(
                description="Valid time: what was true at this instant (the fact whose "
                "window holds it, newest valid_from first), superseded facts included."
            ),
        ] = None,
        known_at: Annotated[
            AwareDatetime | None,
            Field(
                description="Transaction time: answer as graphmem knew it then, with the "
                "facts, statuses and links it had recorded by that instant."
            ),
        ] = None,
        history_limit: Annotated[
            int, Field(ge=0, le=200, description="Former facts to include, newest first.")
        ] = 20,
    ) -> CurrentState:
        """Resolve a fact key to what is true: the answer, its history, and why.

        Use it before acting on something a fact describes; use search for free-text recall
        across memories. Read-only. status: current (answer is the active fact), no_current
        (the key exists but nothing holds: superseded, invalidated or lapsed), not_found,
        ambiguous (several owners hold it; see candidates) or unresolved_conflict (the
        answer has an open contradiction with another active fact). A fact whose valid_to
        or expires_at has passed is never current, even before maintain runs. history lists
        former facts newest first; why lists the SUPERSEDES and CONTRADICTS links.
        memory: the curated memories whose topic_key is this key (active version, history);
        quarantined versions are never current. When no fact has the key, status comes from
        the memories.
        """
        request = CurrentStateRequest(
            state_key=state_key,
            project=project,
            origin_id=origin_id,
            as_of=as_of,
            known_at=known_at,
            history_limit=history_limit,
        )
        return await state.current_state(services.store, services.tenant(), request)

    return current_state


def make_govern_fact(services: Services) -> ToolFunction:
    async def govern_fact(
        fact_id: Annotated[Name, Field(description="The fact to govern.")],
        action: Annotated[
            Literal["supersede", "contradict", "invalidate", "revalidate"],
            Field(
                description="supersede: fact_id is replaced by target_fact_id (its validity "
                "ends at effective_at). contradict: link the two as contradicting (both "
                "show it). invalidate: end its validity at effective_at. revalidate: clear "
                "its validity end and successor links and make it its key's current fact."
            ),
        ],
        target_fact_id: Annotated[
            str | None,
            Field(
                max_length=200,
                description="Required for supersede and contradict; must "
                "differ from fact_id. Empty means absent.",
            ),
        ] = None,
        effective_at: Annotated[
            AwareDatetime | Literal[""] | None,
            Field(
                description="When the change takes effect in valid time; default now. "
                "Empty means absent."
            ),
        ] = None,
        rationale: Annotated[
            str | None,
            Field(max_length=2000, description="Why; kept on the link and in the history."),
        ] = None,
        session_id: Audit = None,
        actor: Audit = None,
    ) -> GovernFactResult:
        """Apply truth maintenance to a fact: supersede, contradict, invalidate or revalidate.

        Use it when knowledge changes and the change is a judgement rather than a new
        observation (for a new observation of the same key, call record_fact, which
        supersedes by itself). Nothing is ever removed: statuses change, links are added
        or stamped cleared, and one history revision records it, all-or-nothing. Errors:
        not_found for an unknown fact or target; invalid_argument for a missing or
        self target or an effective_at before the fact's valid_from; conflict when the
        fact is not in a state the action applies to.
        """
        request = GovernFactRequest(
            fact_id=fact_id,
            action=action,
            target_fact_id=_blank_to_none(target_fact_id),
            effective_at=None if effective_at == "" else effective_at,
            rationale=_blank_to_none(rationale),
            session_id=session_id,
            actor=actor,
        )
        return await facts.govern_fact(services.store, services.tenant(), request)

    return govern_fact


def make_maintain(services: Services) -> ToolFunction:
    async def maintain() -> MaintainResult:
        """Run housekeeping: expire active facts whose boundary (the earlier of valid_to and
        expires_at) has passed, mark active decisions past review_after as stale, then
        evaluate every live decision's reopen rules (opening or clearing review signals).

        Reads already treat lapsed facts as not current, so call it to make expiry and
        staleness durable and visible in history, e.g. on a schedule; use review_decisions
        for the list of decisions due. Safe to repeat: a second run finds nothing new. One
        transaction; one history revision when something changed, none otherwise; at most
        1,000 facts and 1,000 decisions per call (call again while a count is 1,000).
        Unknown verdicts are reported in review.diagnostics with their reason.
        """
        return await facts.maintain(services.store, services.tenant())

    return maintain


def make_verify_fact(services: Services) -> ToolFunction:
    async def verify_fact(
        fact_id: Annotated[Name, Field(description="The fact the attestation is for.")],
        attestation: Annotated[
            verification.Attestation,
            Field(
                description="Signed attestation (see `graphmem verifier attest`): "
                "schema_version, fact_id, fact_digest, verifier_identity, "
                "evidence_reference, verification_method, verified_at, signature."
            ),
        ],
    ) -> VerifyFactResult:
        """Mark a fact verified from an Ed25519 attestation by a configured verifier.

        The only way a fact becomes verified: the attestation must name this fact, carry
        the digest of its current claim fields (any later change makes it stale), come
        from a verifier whose public key is configured, and carry a valid signature.
        Refusals come back as verification_refused with a reason (fact_mismatch,
        stale_digest, unknown_verifier, bad_signature) and change nothing; an unknown fact is
        not_found. One history revision on success.
        """
        trusted = services.trusted_verifiers
        if trusted is None:  # registered only when configured
            raise ConfigurationError("no verifier keys are configured")
        return await facts.verify_fact(
            services.store, services.tenant(), fact_id, attestation, trusted
        )

    return verify_fact


SPECS = [
    ToolSpec(
        name="record_fact",
        title="Record an observed fact",
        toolset="core",
        writes=True,
        idempotent=False,
        destructive=True,
        make=make_record_fact,
    ),
    ToolSpec(
        name="current_state",
        title="Resolve a fact key to its current state",
        toolset="core",
        writes=False,
        idempotent=True,
        destructive=False,
        make=make_current_state,
    ),
    ToolSpec(
        name="govern_fact",
        title="Supersede, contradict, invalidate or revalidate a fact",
        toolset="core",
        writes=True,
        idempotent=False,
        destructive=True,
        make=make_govern_fact,
    ),
    ToolSpec(
        name="maintain",
        title="Expire facts, mark stale decisions, evaluate reopen rules",
        toolset="full",
        writes=True,
        idempotent=True,
        destructive=False,
        make=make_maintain,
    ),
    ToolSpec(
        name="verify_fact",
        title="Mark a fact verified from a signed attestation",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=False,
        make=make_verify_fact,
        available=lambda services: services.trusted_verifiers is not None,
    ),
]
