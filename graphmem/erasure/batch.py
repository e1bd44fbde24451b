"""One batch of an erasure, inside a write of the one write path: the erasure's event first
(who, why, the selector's kind, counts: never content), then the payloads of the events naming
the batch's nodes (and any chosen by revision) erased under that event's seal
(history/erasure.py), the nodes made tombstones (cypher/erasure/tombstone_nodes.cypher),
their idempotency records dropped, the counters live nodes keep of them refreshed and the
vector of a turn said after an erased one taken (it read the erased turn: it is embedded again,
without it). The erasure tool and maintain's retention share it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from graphmem.erasure.selection import SelectedRow, counts_by_kind
from graphmem.history.chain import ERASE_OP, Change
from graphmem.history.erasure import erase_payloads_at, erase_payloads_naming
from graphmem.history.write_path import Write
from graphmem.store import shaped


class TombstonedRow(TypedDict):
    """erasure/tombstone_nodes: the nodes it made tombstones."""

    refs: list[str]


@dataclass(frozen=True)
class Erased:
    revision: int  # the erasure's event
    events: int  # payloads erased


async def lock_names(current: Write) -> None:
    """Before a batch selects what derives from its nodes: the tenant's subjects ledger, so no
    subjects pass (graphmem/subjects/reading.py) records a name of a node this batch erases
    after the selection saw it (one waits for the other)."""
    await current.run("subjects/lock_subject_ledger", now=current.now.isoformat())


async def erase_batch(
    current: Write,
    erasure_id: str,
    nodes: list[SelectedRow],
    record: Mapping[str, object],
    written: list[int] | None = None,
) -> Erased:
    """Erase ``nodes`` and the events at ``written``; ``record`` goes into the event."""
    await current.flush_events()  # a group commit's earlier writes: their events are erased too
    payload = {
        "erasure_id": erasure_id,
        **record,
        "erased": counts_by_kind(nodes),
        "written_events": len(written or []),
    }
    ids = [node["id"] for node in nodes]
    # op "erase" whatever the write (maintain's retention too): never itself erased
    revision = await current.event(Change(ERASE_OP, "erasure", erasure_id, ids, payload))
    events = await erase_payloads_at(current, written, revision) if written else 0
    if nodes:
        events += await erase_payloads_naming(current, ids, revision)
        rows = await current.run(
            "erasure/tombstone_nodes",
            nodes=[dict(node) for node in nodes],
            erasure_id=erasure_id,
            revision=revision,
        )
        refs = shaped(TombstonedRow, rows)[0]["refs"]
        await current.run("erasure/delete_idempotency_records", ids=ids)
        await current.run("erasure/refresh_derived_counters", refs=refs)
        await current.run("erasure/refresh_subject_names", refs=refs)
        # the turn after an erased one encoded it in its vector: it is embedded again
        await current.run("erasure/unembed_next_turns", refs=refs)
    return Erased(revision, events)
