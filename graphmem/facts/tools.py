"""MCP tools over facts. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.app.answers import compact
from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.core.errors import ConfigurationError
from graphmem.facts import models, service, state


async def record_fact(
    services: Services, request: models.RecordFactRequest
) -> models.RecordFactResult:
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
    return await service.record_fact(services.store, services.tenant(), request)


async def current_state(
    services: Services, request: models.CurrentStateRequest
) -> models.CurrentState:
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
    return await state.current_state(services.store, services.tenant(), request)


async def govern_fact(
    services: Services, request: models.GovernFactRequest
) -> models.GovernFactResult:
    """Apply truth maintenance to a fact: supersede, contradict, invalidate or revalidate.

    Use it when knowledge changes and the change is a judgement rather than a new
    observation (for a new observation of the same key, call record_fact, which
    supersedes by itself). Nothing is ever removed: statuses change, links are added
    or stamped cleared, and one history revision records it, all-or-nothing. Errors:
    not_found for an unknown fact or target; invalid_argument for a missing or
    self target or an effective_at before the fact's valid_from; conflict when the
    fact is not in a state the action applies to.
    """
    return await service.govern_fact(services.store, services.tenant(), request)


async def maintain(services: Services) -> models.MaintainResult:
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
    return await service.maintain(services.store, services.tenant())


async def verify_fact(
    services: Services, request: models.VerifyFactRequest
) -> models.VerifyFactResult:
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
    return await service.verify_fact(
        services.store, services.tenant(), request.fact_id, request.attestation, trusted
    )


SPECS = [
    ToolSpec(
        handler=record_fact,
        title="Record an observed fact",
        toolset="core",
        writes=True,
        idempotent=False,
        destructive=True,
        answer=compact(
            "id",
            "key",
            "status",
            "superseded_id",
            "revision",
            "idempotent_replay",
            "review_signals",
        ),
    ),
    ToolSpec(
        handler=current_state,
        title="Resolve a fact key to its current state",
        toolset="core",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
    ToolSpec(
        handler=govern_fact,
        title="Supersede, contradict, invalidate or revalidate a fact",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=True,
        answer=compact(
            "fact_id",
            "action",
            "target_fact_id",
            "changed",
            "revision",
            "review_signals",
            status="fact.status",
        ),
    ),
    ToolSpec(
        handler=maintain,
        title="Expire facts, mark stale decisions, evaluate reopen rules",
        toolset="full",
        writes=True,
        idempotent=True,
        destructive=False,
    ),
    ToolSpec(
        handler=verify_fact,
        title="Mark a fact verified from a signed attestation",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=False,
        available=lambda services: services.trusted_verifiers is not None,
        answer=compact("revision", id="fact.id", verification_status="fact.verification_status"),
    ),
]
