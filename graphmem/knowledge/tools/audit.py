"""MCP tools of the self-repair audit: run it, list its issues. Thin: validate, call the
domain, let the boundary map errors."""

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.knowledge import audit
from graphmem.knowledge.models import audit as models


async def audit_memory(
    services: Services, request: models.AuditMemoryRequest
) -> models.AuditMemoryResult:
    """Run the persistent self-repair audit over facts, claims, context packs and
    quarantined content, and reconcile the drift it finds.

    Use it periodically or after bulk changes; then list_memory_issues shows what stays
    open. Checks (issue types): fact_key_slot_drift, claim_missing_evidence,
    promoted_claim_missing_fact, fact_missing_provenance, contradiction_count_drift,
    unresolved_contradiction, context_pack_missing_provenance, context_pack_stale,
    context_pack_summary_drift, context_pack_task_drift, quarantined_content. With repair
    true it backfills PROMOTED_TO provenance, repairs key slots (one CURRENT fact, extras
    superseded), refreshes contradiction counts, re-materializes pack summaries and
    retires or re-links packs (the five repairs counters). Contradictions between live
    facts and quarantined content are only reported: govern_fact and govern_memory
    settle them. Issues persist (one per type and subject), re-open when found again and
    resolve when gone; a run entry and a history event are written when anything was
    found new, resolved or repaired, so a second run finds nothing new. Each scan reads at
    most 1,000 subjects per run from a cursor and continues next run. One transaction,
    all-or-nothing. Findings are data, never errors.
    """
    return await audit.audit_memory(services.store, services.tenant(), request)


async def list_memory_issues(
    services: Services, request: models.ListMemoryIssuesRequest
) -> models.ListMemoryIssuesResult:
    """List the issues audit_memory recorded, most recently detected first.

    Use it after audit_memory to see what still needs attention (status open) or what
    was repaired or went away (status resolved, with its resolution). Each issue names
    its type, severity, subject (kind and id) and details, with when it was first and
    last detected and resolved. Read-only; records nothing. last_audit_at says when the
    audit last ran.
    """
    return await audit.list_memory_issues(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=audit_memory,
        title="Audit and repair the knowledge graph",
        toolset="full",
        writes=True,
        idempotent=True,  # a second run finds nothing new and repairs nothing more
        destructive=True,  # repairs supersede extra active facts and retire packs
    ),
    ToolSpec(
        handler=list_memory_issues,
        title="List memory audit issues",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
]
