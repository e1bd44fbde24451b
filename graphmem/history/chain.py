"""The append-only, hash-chained history every write appends to, in its own transaction.

A tenant's events carry a gap-free ``revision`` (the tenant's concurrency token) and the hash
of the event before them, so an edited or deleted event breaks the chain.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.core.clock import utc_now
from graphmem.core.ids import new_id
from graphmem.core.models import canonical_json, pick
from graphmem.history.models import ChainVerdict, EventRecord, ReplayRequest, ReplayResult
from graphmem.history.rows import event_from_node
from graphmem.store import Store, Tx

GENESIS_HASH = "0" * 64


@dataclass
class Head:
    """The locked chain head of one tenant within one write transaction. ``append_event``
    advances it, so a transaction may append several events and they chain."""

    revision: int
    last_hash: str
    now: datetime  # the transaction time of this write, taken after the lock


@dataclass(frozen=True)
class Audit:
    """Who wrote, as the caller says (recorded for audit; grants nothing)."""

    session_id: str | None = None
    actor: str | None = None
    client: str | None = None

    @classmethod
    def of(cls, request: object) -> Audit:
        """The audit fields a request carries (each optional on the request model)."""
        return cls(
            getattr(request, "session_id", None),
            getattr(request, "actor", None),
            getattr(request, "client", None),
        )


async def lock_head(tx: Tx) -> Head:
    """Serialise the tenant's writes; call first in every write transaction."""
    rows = await tx.run("history/lock_head", lock_token=new_id())
    if not rows:  # the tenant's first write
        await tx.run("history/create_head", genesis_hash=GENESIS_HASH)
        rows = await tx.run("history/lock_head", lock_token=new_id())
    return Head(rows[0]["revision"], rows[0]["last_hash"], utc_now())


def event_hash(tenant: str, revision: int, op: str, at: str, payload: str, prev: str) -> str:
    material = canonical_json(
        {
            "tenant": tenant,
            "revision": revision,
            "op": op,
            "at": at,
            "payload": payload,
            "prev_hash": prev,
        }
    )
    return hashlib.sha256(material.encode()).hexdigest()


@dataclass(frozen=True)
class Change:
    """What one write did, as its history event records it."""

    op: str  # the tool or maintenance step that wrote
    aggregate_kind: str  # fact, decision, chunk, ...
    aggregate_id: str
    subject_ids: list[str]
    payload: dict[str, Any]


async def append_event(tx: Tx, head: Head, change: Change, audit: Audit) -> int:
    """Append the event of this write; returns the revision it committed."""
    revision = head.revision + 1
    at = head.now.isoformat()
    payload_json = canonical_json(
        {
            "aggregate_kind": change.aggregate_kind,
            "aggregate_id": change.aggregate_id,
            "subject_ids": change.subject_ids,
            "payload": change.payload,
        }
    )
    digest = event_hash(tx.tenant, revision, change.op, at, payload_json, head.last_hash)
    await tx.run(
        "history/append_event",
        id=new_id(),
        revision=revision,
        op=change.op,
        at=at,
        **pick(change, "aggregate_kind aggregate_id subject_ids"),
        payload_json=payload_json,
        **pick(audit, "session_id actor client"),
        prev_hash=head.last_hash,
        hash=digest,
    )
    head.revision, head.last_hash = revision, digest
    return revision


MAX_CHAIN_CHECK = 1_000_000  # events verified per replay; beyond it the verdict says so


async def list_events(store: Store, tenant: str, request: ReplayRequest) -> list[EventRecord]:
    """Events newest first (no chain verdict)."""
    rows = await store.read(
        "history/list_events",
        tenant,
        aggregate_id=request.aggregate_id,
        aggregate_kind=request.aggregate_kind,
        since=request.since_ts.isoformat() if request.since_ts else None,
        limit=request.limit,
    )
    return [event_from_node(row["event"]) for row in rows]


async def replay(store: Store, tenant: str, request: ReplayRequest) -> ReplayResult:
    """Events newest first, plus a verdict on the tenant's whole hash chain."""
    events = await list_events(store, tenant, request)
    return ReplayResult(count=len(events), events=events, chain=await verify_chain(store, tenant))


TOP_MISSING = "events up to the head are missing"
IN_FLIGHT_REREADS = 5
IN_FLIGHT_PAUSE_SECONDS = 0.05


async def verify_chain(store: Store, tenant: str, limit: int = MAX_CHAIN_CHECK) -> ChainVerdict:
    """Recompute every event's hash in revision order and check the links and the head: the
    head and the events up to it, read by one statement.

    Neo4j reads committed data without a snapshot, so a write committing while that statement
    runs can show its new head before its event is visible. A chain whose only fault is events
    missing at the top is therefore read again, briefly, before it is reported: a write in
    flight lands within milliseconds, events really removed stay missing."""
    for _ in range(IN_FLIGHT_REREADS):
        [row] = await store.read("history/list_chain", tenant, limit=limit)
        verdict = _verdict(tenant, row, limit)
        if verdict.reason != TOP_MISSING:
            return verdict
        await asyncio.sleep(IN_FLIGHT_PAUSE_SECONDS)
    [row] = await store.read("history/list_chain", tenant, limit=limit)
    return _verdict(tenant, row, limit)


def _verdict(tenant: str, row: dict[str, Any], limit: int) -> ChainVerdict:
    head_revision, events = row["head_revision"], row["events"]
    complete = len(events) == head_revision

    def verdict(ok: bool, revision: int | None = None, reason: str | None = None) -> ChainVerdict:
        return ChainVerdict(
            verified=ok,
            complete=complete,
            checked_events=len(events),
            head_revision=head_revision,
            first_break_revision=revision,
            reason=reason,
        )

    prev_hash = GENESIS_HASH
    for expected_revision, event in enumerate(events, start=1):
        if event["revision"] != expected_revision:
            return verdict(False, expected_revision, f"revision {expected_revision} is missing")
        recomputed = event_hash(
            tenant,
            event["revision"],
            event["op"],
            event["at_text"],
            event["payload_json"],
            prev_hash,
        )
        if event["prev_hash"] != prev_hash:
            return verdict(False, event["revision"], "does not link to the event before it")
        if event["hash"] != recomputed:
            return verdict(False, event["revision"], "its content does not match its hash")
        prev_hash = event["hash"]
    if not complete:
        if len(events) < limit:  # fewer events than the head counts, and not for the bound
            return verdict(False, len(events) + 1, TOP_MISSING)
        return verdict(
            True,
            reason=f"only the first {len(events)} of {head_revision} events were checked "
            "(this call's bound); no break among them",
        )
    if head_revision and row["last_hash"] != prev_hash:
        return verdict(False, head_revision, "the head does not match the last event")
    return verdict(True)
