"""Counts of the caller's tenant, for the `graphmem://stats` resource."""

from __future__ import annotations

from pydantic import Field

from graphmem.core.models import OutputModel
from graphmem.store import Store


class FactCount(OutputModel):
    owner: str
    status: str
    count: int


class TenantStats(OutputModel):
    revision: int = Field(description="The tenant's latest history revision.")
    fact_keys: int
    facts: list[FactCount] = Field(description="Facts per owner and status.")


async def tenant_stats(store: Store, tenant: str) -> TenantStats:
    row = (await store.read("store/count_tenant_graph", tenant))[0]
    counts = [FactCount(owner=f["owner"], status=f["status"], count=f["n"]) for f in row["facts"]]
    return TenantStats(
        revision=row["revision"],
        fact_keys=row["fact_keys"],
        facts=sorted(counts, key=lambda c: (c.owner, c.status)),
    )
