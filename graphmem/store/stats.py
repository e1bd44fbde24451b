"""A tenant in numbers, for the `graphmem://stats` resource and `graphmem stats`: its nodes per
label and per project, facts per owner and status, and its history head."""

from __future__ import annotations

import asyncio
import functools
from datetime import datetime

from pydantic import Field

from graphmem.core.models import OutputModel
from graphmem.core.text import tenant_prefix
from graphmem.store import Store
from graphmem.store.graph_model import GRAPH_MODEL
from graphmem.store.rows import LabelCountRow, TenantGraphRow, shaped

LABELS = tuple(node.label for node in GRAPH_MODEL.nodes)


@functools.lru_cache(maxsize=1024)
def tenant_digest(tenant: str) -> str:
    """The tenant as logs name it, never by name (nor by token): the digest that also names
    its memory backup folder. `graphmem stats` prints it next to the name."""
    return tenant_prefix(tenant).rstrip("_")


class FactCount(OutputModel):
    owner: str
    status: str
    count: int


class HistoryHead(OutputModel):
    revision: int = Field(description="The latest revision; 0 before the first write.")
    hash: str | None = Field(description="The latest event's hash (the chain's head).")
    last_at: datetime | None = Field(description="When the latest write committed.")


class TenantStats(OutputModel):
    revision: int = Field(description="The tenant's latest history revision.")
    fact_keys: int
    facts: list[FactCount] = Field(description="Facts per owner and status.")
    head: HistoryHead
    labels: dict[str, int] = Field(description="Nodes per graph-model label, zeros included.")
    projects: dict[str, dict[str, int]] = Field(
        description="Per project, nodes per label for the labels whose nodes name a project "
        "(zeros left out)."
    )


async def tenant_stats(store: Store, tenant: str) -> TenantStats:
    graph, labelled = await asyncio.gather(
        store.read("store/count_tenant_graph", tenant),
        store.read("store/count_tenant_labels", tenant),
    )
    row = shaped(TenantGraphRow, graph)[0]
    labels = shaped(LabelCountRow, labelled)
    counts = [FactCount(owner=f["owner"], status=f["status"], count=f["n"]) for f in row["facts"]]
    return TenantStats(
        revision=row["revision"],
        fact_keys=row["fact_keys"],
        facts=sorted(counts, key=lambda c: (c.owner, c.status)),
        # the head stores its last time as ISO text: the model parses it
        head=HistoryHead.model_validate(
            {"revision": row["revision"], "hash": row["last_hash"], "last_at": row["last_at"]}
        ),
        labels=_per_label(labels),
        projects=_per_project(labels),
    )


def _per_label(rows: list[LabelCountRow]) -> dict[str, int]:
    totals = dict.fromkeys(LABELS, 0)
    for row in rows:
        totals[row["label"]] += row["count"]
    return totals


def _per_project(rows: list[LabelCountRow]) -> dict[str, dict[str, int]]:
    projects: dict[str, dict[str, int]] = {}
    for row in rows:
        if row["project"] is not None and row["count"]:
            counts = projects.setdefault(row["project"], {})
            counts[row["label"]] = counts.get(row["label"], 0) + row["count"]
    order = {label: position for position, label in enumerate(LABELS)}
    return {
        project: dict(sorted(counts.items(), key=lambda item: order[item[0]]))
        for project, counts in sorted(projects.items())
    }
