"""Retention, applied by maintain: what is past the configured retention
(erasure/policy.py) goes through the same erasure batch as the erase tool, with the
same events (reason "retention"): up to RETENTION_ROOTS past it and what derives from them,
at most RETENTION_BATCH nodes a batch, what derives first (the roots stay for the next)."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.core.ids import new_id
from graphmem.erasure.batch import erase_batch, lock_names
from graphmem.erasure.policy import RetentionPolicy, cutoffs
from graphmem.erasure.selection import SelectedRow, counts_by_kind, expanded
from graphmem.history.write_path import Write
from graphmem.store import shaped

RETENTION_ROOTS = 200
RETENTION_BATCH = 1_000


@dataclass(frozen=True)
class RetentionBatch:
    erased: dict[str, int]  # nodes by kind
    revision: int | None  # the erasure's event; None when nothing was past retention
    more: bool  # the batch was full: call again
    memory_ids: list[str]  # their Markdown backups go once it commits


async def erase_past_retention(current: Write, policy: RetentionPolicy) -> RetentionBatch:
    now = current.now
    rows = await current.run(
        "erasure/list_past_retention",
        raw=cutoffs(policy.raw, now) if policy.raw else None,
        retired=cutoffs(policy.retired, now) if policy.retired else None,
        limit=RETENTION_ROOTS,
    )
    roots = shaped(SelectedRow, rows)
    if not roots:
        return RetentionBatch({}, None, more=False, memory_ids=[])
    await lock_names(current)
    reached = await expanded(current.run, roots)
    nodes = reached[:RETENTION_BATCH]
    record = {"reason": "retention", "selector": "retention"}
    erased = await erase_batch(current, new_id(), nodes, record)
    more = len(roots) == RETENTION_ROOTS or len(reached) > RETENTION_BATCH
    memories = [node["id"] for node in nodes if node["kind"] == "Memory"]
    return RetentionBatch(counts_by_kind(nodes), erased.revision, more, memories)
