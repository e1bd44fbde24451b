"""MCP tools of the self-repair audit: run it, list its issues. Thin: validate, call the
domain, let the boundary map errors."""

from graphmem.knowledge import audit
from graphmem.knowledge.models import audit as models
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Audit and repair the knowledge graph", Effect.SETS)
async def audit_memory(
    services: Services, request: models.AuditMemoryRequest
) -> models.AuditMemoryResult:
    """Run the self-repair audit over facts, claims, context packs and quarantined content,
    and repair the drift it finds.

    Use it periodically or after bulk changes; list_memory_issues then shows what stays
    open. Repairs: provenance backfilled, one CURRENT fact per key (extras superseded),
    contradiction counts refreshed, pack summaries rebuilt, packs re-linked or retired.
    Contradictions and quarantined content are only reported (govern_fact, govern_memory
    settle them). Issues persist per type and subject, re-open and resolve; a second run
    finds nothing new. Each scan reads at most 1,000 subjects and continues next run from
    its stored cursor; each is its own transaction. Answers the issues found, counts,
    repairs and per-scan checks.
    """
    return await audit.audit_memory(services.db(), request)


@SPECS.tool("List memory audit issues", Effect.READS)
async def list_memory_issues(
    services: Services, request: models.ListMemoryIssuesRequest
) -> models.ListMemoryIssuesResult:
    """List the issues audit_memory recorded, most recently detected first.

    Read-only. Each has its type, severity, subject, details, detection times and, when
    resolved, how (repaired or not_redetected); last_audit_at says when the audit ran.
    """
    return await audit.list_memory_issues(services.db(), request)
