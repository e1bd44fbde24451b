"""The run history: one ``Run`` node per pipeline call (status success, skipped or blocked, a
reason and counters), written in the call's own transaction."""

from __future__ import annotations

import json
from collections.abc import Mapping

from graphmem.core.ids import new_id
from graphmem.history.write_path import Write
from graphmem.knowledge.models.chunks import RunStatus


async def record_run(
    w: Write,
    tool: str,
    subject_kind: str,
    subject_id: str | None,
    status: RunStatus,
    reason: str | None = None,
    counters: Mapping[str, object] | None = None,
) -> str:
    """One run-history entry (a `Run` node) for a pipeline call, in the call's transaction.
    ``counters``: what the call counted, any JSON object (its shape is the tool's)."""
    run_id = new_id()
    await w.run(
        "knowledge/create_run",
        id=run_id,
        tool=tool,
        subject_kind=subject_kind,
        subject_id=subject_id,
        status=status,
        reason=reason,
        counters_json=json.dumps(counters or {}, sort_keys=True),
    )
    return run_id
