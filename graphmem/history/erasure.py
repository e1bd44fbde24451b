"""Erasing event payloads inside an erasure's write, so the chain still verifies.

An erased event keeps its place in the chain (revision, op, time, links, hash, who wrote it
and, when it was sealed, its payload's digest); its payload and the payload's salt go. Each
is marked with the revision of the erasure's own event (appended in the same write) and sealed
with the history key over that place, so a payload removed any other way, or an erased event
edited afterwards, is tampering to verification. Why this shape: docs/erasure.md.
"""

from __future__ import annotations

from typing import TypedDict

from graphmem.history.chain import erasure_seal
from graphmem.history.write_path import Write
from graphmem.store import shaped


class EventToErase(TypedDict):
    """history/list_events_naming and list_events_by_revision: an event to erase, with the
    fields its erasure's seal covers."""

    revision: int
    op: str
    at_text: str
    prev_hash: str
    hash: str


class ErasedRow(TypedDict):
    """history/erase_event_payloads: how many payloads it erased."""

    erased: int


async def erase_payloads_naming(current: Write, ids: list[str], erased_by: int) -> int:
    """Erase the payload of every event naming one of ``ids``; how many were erased."""
    rows = await current.run("history/list_events_naming", ids=ids)
    return await _erase(current, shaped(EventToErase, rows), erased_by)


async def erase_payloads_at(current: Write, revisions: list[int], erased_by: int) -> int:
    """Erase the payloads of the events at ``revisions``; how many were erased."""
    rows = await current.run("history/list_events_by_revision", revisions=revisions)
    return await _erase(current, shaped(EventToErase, rows), erased_by)


async def _erase(current: Write, events: list[EventToErase], erased_by: int) -> int:
    if not events:
        return 0
    key = current.tx.chain_key
    sealed = [
        {"revision": e["revision"], "seal": erasure_seal(current.tenant, e, erased_by, key)}
        for e in events
        if e["revision"] < erased_by
    ]
    rows = await current.run(
        "history/erase_event_payloads",
        events=sealed,
        erased_by=erased_by,
        seal_key_id=key.key_id if key else None,
    )
    return shaped(ErasedRow, rows)[0]["erased"] if rows else 0


async def forget_authors(current: Write, revisions: list[int]) -> None:
    """The events at ``revisions`` no longer say who wrote them (actor, session, client)."""
    if revisions:
        await current.run("history/forget_event_authors", revisions=revisions)
