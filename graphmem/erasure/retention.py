"""Retention, applied by maintain: what is past the configured retention
(graphmem/core/retention.py) goes through the same erasure batch as the erase tool, with the
same events (reason "retention"), RETENTION_BATCH roots and what derives from them per batch."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.core.ids import new_id
from graphmem.core.retention import RetentionPolicy
from graphmem.erasure.batch import erase_batch
from graphmem.erasure.selection import SelectedRow, counts_by_kind, expanded
from graphmem.history.write_path import Write
from graphmem.store import shaped

RETENTION_BATCH = 1_000


@dataclass(frozen=True)
class RetentionBatch:
    erased: dict[str, int]  # nodes by kind
    revision: int | None  # the erasure's event; None when nothing was past retention
    more: bool  # the batch was full: call again


async def erase_past_retention(current: Write, policy: RetentionPolicy) -> RetentionBatch:
    now = current.now
    rows = await current.run(
        "erasure/list_past_retention",
        raw=policy.raw.cutoffs(now) if policy.raw else None,
        retired=policy.retired.cutoffs(now) if policy.retired else None,
        limit=RETENTION_BATCH,
    )
    roots = shaped(SelectedRow, rows)
    if not roots:
        return RetentionBatch({}, None, more=False)
    nodes = await expanded(current.run, roots)
    record = {"reason": "retention", "selector": "retention"}
    erased = await erase_batch(current, new_id(), nodes, record)
    return RetentionBatch(counts_by_kind(nodes), erased.revision, len(roots) == RETENTION_BATCH)
