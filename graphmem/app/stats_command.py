"""`graphmem stats [--tenant T] [--json]`: one tenant's numbers (those `graphmem://stats`
answers its caller) plus the database-wide index states, which only the operator sees.

One tenant, GRAPHMEM_TENANT unless named, like `graphmem history`: every statement graphmem
runs is scoped to one tenant, and a tenant's numbers are its own business.
"""

from __future__ import annotations

from pydantic import Field

from graphmem.core.models import OutputModel
from graphmem.store import Store
from graphmem.store.stats import TenantStats, tenant_digest, tenant_stats


class IndexState(OutputModel):
    name: str
    type: str
    state: str = Field(description="ONLINE, POPULATING or FAILED.")


class StatsReport(OutputModel):
    tenant: str
    tenant_digest: str = Field(description="How logs name the tenant.")
    stats: TenantStats
    indexes: list[IndexState] = Field(description="Database-wide: every tenant shares them.")


async def stats_report(store: Store, tenant: str) -> StatsReport:
    indexes = [
        IndexState(name=row["name"], type=row["type"], state=row["state"])
        for row in await store.schema_state()
    ]
    return StatsReport(
        tenant=tenant,
        tenant_digest=tenant_digest(tenant),
        stats=await tenant_stats(store, tenant),
        indexes=indexes,
    )


async def run_stats(connection: tuple[str, str, str], database: str, tenant: str) -> StatsReport:
    uri, user, password = connection
    store = await Store.connect(uri, user, password, database)
    try:
        return await stats_report(store, tenant)
    finally:
        await store.close()


def render(report: StatsReport) -> str:
    """The report as an operator reads it: labels with nodes, projects, unhealthy indexes."""
    stats, head = report.stats, report.stats.head
    when = head.last_at.isoformat() if head.last_at else "never"
    lines = [
        f"tenant {report.tenant} (in logs: {report.tenant_digest})",
        f"history: revision {head.revision}, head {head.hash or '-'}, last write {when}",
        f"nodes: {sum(stats.labels.values())}",
        *_columns({label: n for label, n in stats.labels.items() if n}),
        f"projects: {len(stats.projects)}",
    ]
    for project, counts in stats.projects.items():
        lines.append(f"  {project}: " + ", ".join(f"{label} {n}" for label, n in counts.items()))
    lines.append(_index_summary(report.indexes))
    lines += [f"  {i.name} ({i.type}) {i.state}" for i in report.indexes if i.state != "ONLINE"]
    return "\n".join(lines)


def _columns(counts: dict[str, int]) -> list[str]:
    width = max((len(label) for label in counts), default=0)
    return [f"  {label:<{width}}  {n:>9,}" for label, n in counts.items()]


def _index_summary(indexes: list[IndexState]) -> str:
    states: dict[str, int] = {}
    for index in indexes:
        states[index.state] = states.get(index.state, 0) + 1
    summary = ", ".join(f"{n} {state}" for state, n in sorted(states.items()))
    return f"indexes (database-wide): {summary or 'none'}"
