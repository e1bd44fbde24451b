"""MCP tools over facts. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.core.errors import ConfigurationError
from graphmem.erasure.policy import retention_policy
from graphmem.facts import govern, models, service, state
from graphmem.facts import maintain as maintain_pass
from graphmem.facts.attestation import configured_verifiers
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Record an observed fact", Effect.CHANGES, core=True)
async def record_fact(
    services: Services, request: models.RecordFactRequest
) -> models.RecordFactResult:
    """Record an observed fact under a project and key.

    For values that can change; save_memory for durable notes, govern_fact to supersede,
    contradict or invalidate. One fact per key stays active; the previous one becomes
    history. One transaction, one history revision. Answers with id, key, status,
    superseded_id, revision, idempotent_replay and review_signals; detail=full adds the
    whole record.
    """
    return await service.record_fact(services.db(), request)


@SPECS.tool("Resolve a fact key to its current state", Effect.READS, core=True)
async def current_state(
    services: Services, request: models.CurrentStateRequest
) -> models.CurrentState:
    """Resolve a fact key to what is true, with its history and why.

    Use it before acting on a fact; search for free-text recall. Read-only. status:
    current, no_current (superseded, invalidated or lapsed), not_found, ambiguous
    (several owners: see candidates) or unresolved_conflict (open contradiction). A
    lapsed fact is never current, even before maintain runs. Returns answer, history
    (newest first), why (SUPERSEDES, CONTRADICTS links) and memory (memories whose
    topic_key is the key; they give the status when no fact has it).
    """
    return await state.current_state(services.db(), request)


@SPECS.tool("Supersede, contradict, invalidate or revalidate a fact", Effect.CHANGES)
async def govern_fact(
    services: Services, request: models.GovernFactRequest
) -> models.GovernFactResult:
    """Supersede, contradict, invalidate or revalidate a fact.

    For judgements; record_fact supersedes by itself. Nothing is removed. One
    transaction, one history revision. Answers with fact_id, action, target_fact_id,
    changed, revision, review_signals and status; detail=full adds the whole record.
    """
    return await govern.govern_fact(services.db(), request)


@SPECS.tool("Expire facts, mark stale decisions, evaluate reopen rules", Effect.ADDS_ONCE)
async def maintain(services: Services, request: models.MaintainRequest) -> models.MaintainResult:
    """Expire facts past valid_to or expires_at, mark decisions past review_after
    stale, and evaluate every live decision's reopen rules (syncing review signals).

    Reads already treat lapsed facts as not current; run it (e.g. on a schedule) to make
    expiry, staleness and signals durable in history; review_decisions lists what is due.
    Works in batches (each its own transaction and revision, when it changed something)
    for about a second, then answers with a continuation: call again with it until it is
    null. Safe to repeat.
    """
    settings = services.settings
    return await maintain_pass.maintain(
        services.db(), request, retention_policy(settings), settings.memory_backup_dir
    )


@SPECS.tool(
    "Mark a fact verified from a signed attestation",
    Effect.ADDS,
    available=lambda services: services.settings.verifier_keys_file is not None,
)
async def verify_fact(
    services: Services, request: models.VerifyFactRequest
) -> models.VerifyFactResult:
    """Mark a fact verified from an Ed25519 attestation by a configured verifier: the
    only route to verified. One transaction, one history revision; a refusal changes
    nothing. Answers with
    id, verification_status and revision; detail=full adds the whole record.
    """
    trusted = configured_verifiers(services.settings)
    if trusted is None:  # registered only when configured
        raise ConfigurationError("no verifier keys are configured")
    return await service.verify_fact(services.db(), request.fact_id, request.attestation, trusted)
