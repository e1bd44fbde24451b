"""The append-only, hash-chained history every write appends to, in its own transaction.

A tenant's events carry a gap-free ``revision`` (the tenant's concurrency token) and the hash
of the event before them, so an edited or deleted event breaks the chain.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graphmem.ids import new_id
from graphmem.models.common import canonical_json
from graphmem.store import Store, Tx

GENESIS_HASH = "0" * 64


@dataclass(frozen=True)
class Head:
    """The locked chain head of one tenant within one write transaction."""

    revision: int
    last_hash: str
    now: datetime  # the transaction time of this write, taken after the lock


@dataclass(frozen=True)
class Audit:
    session_id: str | None = None
    actor: str | None = None
    client: str | None = None


async def lock_head(tx: Tx) -> Head:
    """Serialise the tenant's writes; call first in every write transaction."""
    rows = await tx.run("history/lock_head", genesis_hash=GENESIS_HASH)
    return Head(rows[0]["revision"], rows[0]["last_hash"], datetime.now(UTC))


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


async def append_event(
    tx: Tx, head: Head, op: str, subject_ids: list[str], payload: dict[str, Any], audit: Audit
) -> int:
    """Append the event of this write; returns the revision it committed."""
    revision = head.revision + 1
    at = head.now.isoformat()
    payload_json = canonical_json(payload)
    digest = event_hash(tx.tenant, revision, op, at, payload_json, head.last_hash)
    await tx.run(
        "history/append_event",
        id=new_id(),
        revision=revision,
        op=op,
        at=at,
        subject_ids=subject_ids,
        payload_json=payload_json,
        session_id=audit.session_id,
        actor=audit.actor,
        client=audit.client,
        prev_hash=head.last_hash,
        hash=digest,
    )
    return revision


async def list_events(
    store: Store, tenant: str, after_revision: int = 0, limit: int = 100
) -> list[dict[str, Any]]:
    """The tenant's events after ``after_revision``, oldest first (replay reads these)."""
    return await store.read(
        "history/list_events", tenant, after_revision=after_revision, limit=limit
    )


def chain_breaks(tenant: str, events: list[dict[str, Any]], prev_hash: str) -> list[int]:
    """Revisions whose stored hash or link does not match a recomputation."""
    broken = []
    for event in events:
        expected = event_hash(
            tenant,
            event["revision"],
            event["op"],
            event["at_text"],
            event["payload_json"],
            prev_hash,
        )
        if event["prev_hash"] != prev_hash or event["hash"] != expected:
            broken.append(event["revision"])
        prev_hash = event["hash"]
    return broken
