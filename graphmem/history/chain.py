"""The append-only, hash-chained history every write appends to, in its own transaction.

A tenant's events carry a gap-free ``revision`` (the tenant's concurrency token) and the hash
of the event before them, so an edited or deleted event breaks the chain. An event's hash
covers a salted digest of its payload kept beside it (a sealed event), so erasure can remove
the payload and its salt and the chain still verifies, while nobody (not even the key's holder)
can confirm a guess of what was erased; see docs/erasure.md. Events written before sealing
hash their payload itself.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypedDict

from graphmem.core.clock import parse_iso, utc_now
from graphmem.core.errors import HistoryKeyMismatch
from graphmem.core.ids import new_id
from graphmem.core.keys import SCHEME, ChainKey
from graphmem.core.models import canonical_json
from graphmem.history.models import EventRecord, ReplayRequest
from graphmem.history.rows import EventRow, LockedHead, event_from_node
from graphmem.store import TenantStore, Tx, shaped

GENESIS_HASH = "0" * 64
ERASE_OP = "erase"  # an erasure's own event: it holds no content and is never erased
log = logging.getLogger("graphmem")


class EventParams(TypedDict):
    """One event of history/append_events' ``$events`` (and the event parameters of a
    one-statement write: write_path.write_at_head): what ``event_params`` makes of a change."""

    event_id: str
    revision: int
    op: str
    at: str  # the transaction time as ISO text: what the hash covers
    aggregate_kind: str
    aggregate_id: str
    subject_ids: list[str]
    payload_json: str
    payload_salt: str
    payload_digest: str
    session_id: str | None
    actor: str | None
    client: str | None
    prev_hash: str
    hash: str
    hash_scheme: str | None  # keyed events
    key_id: str | None


@dataclass
class Head:
    """The locked chain head of one tenant within one write transaction. ``append_event``
    advances it, so a transaction may append several events and they chain; they are written
    together by ``flush_events`` before the commit."""

    revision: int
    last_hash: str
    now: datetime  # the transaction time of this write, taken after the lock
    last_at: str | None = None  # the time of the tenant's last event, as the head stores it
    pending: list[EventParams] = field(default_factory=list[EventParams])

    @classmethod
    def at(cls, revision: int, last_hash: str, last_at: str | None) -> Head:
        """The head as stored, with this write's transaction time."""
        return cls(revision, last_hash, _transaction_time(last_at), last_at)


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
    row = shaped(LockedHead, rows)[0]
    _refuse_another_key(tx, row["key_id"])  # before the write does any work
    return Head.at(row["revision"], row["last_hash"], row["last_at"])


def _refuse_another_key(tx: Tx, chain_key_id: str | None) -> None:
    """A chain keyed with one key is never continued with another (or none): no single key
    could verify it."""
    key = tx.chain_key
    if chain_key_id is not None and (key is None or key.key_id != chain_key_id):
        raise HistoryKeyMismatch(
            f"tenant {tx.tenant}'s history is keyed with key id {chain_key_id}, this server's "
            f"is {key.key_id if key else 'none'}: restore the history key file it was written "
            "with (GRAPHMEM_HISTORY_KEY_FILE)"
        )


def _transaction_time(last_at: object) -> datetime:
    """Now, but never before the tenant's last event: a clock stepped back (or another
    process's slower clock) must not make recorded times go backwards within a tenant. A last
    time that is not one (only a database writer could put it there) is logged and ignored."""
    now = utc_now()
    if last_at is None:
        return now
    try:
        floor = parse_iso(str(last_at)) + timedelta(microseconds=1)
    except (ValueError, OverflowError):
        log.warning("the history head's last time %r is not an instant; ignored", last_at)
        return now
    return max(now, floor)


def event_hash(
    tenant: str,
    revision: int,
    op: str,
    at: str,
    payload: str,
    prev: str,
    key: ChainKey | None = None,
    *,
    sealed: bool = False,
) -> str:
    """The event's chain hash: HMAC-SHA256 under the history key, or plain SHA-256 for events
    written before the history was keyed. ``payload`` is the payload's digest for a sealed
    event, the payload JSON itself for one written before sealing."""
    material = canonical_json(
        {
            "tenant": tenant,
            "revision": revision,
            "op": op,
            "at": at,
            "payload_digest" if sealed else "payload": payload,
            "prev_hash": prev,
        }
    )
    return _digest(material, key)


def payload_digest(salt: str, payload_json: str) -> str:
    """The sealed event's commitment to its payload: salted, so once the salt is erased with
    the payload no guess of the payload can be checked against it."""
    return hashlib.sha256(f"{salt}\0{payload_json}".encode()).hexdigest()


def erasure_seal(
    tenant: str, event: Mapping[str, object], erased_by: int, key: ChainKey | None
) -> str:
    """The mark that the erasure at revision ``erased_by`` removed this event's payload: it
    covers the event's place in the chain (revision, op, time, links), so nobody without the
    key can erase a payload, or edit an erased event, and pass it off as an erasure. ``event``
    is the event as stored or exported: its revision, op, at_text, prev_hash and hash."""
    material = canonical_json(
        {
            "erased": event["revision"],
            "tenant": tenant,
            "op": event["op"],
            "at": event["at_text"],
            "prev_hash": event["prev_hash"],
            "hash": event["hash"],
            "erased_by": erased_by,
        }
    )
    return _digest(material, key)


def _digest(material: str, key: ChainKey | None) -> str:
    return key.mac(material.encode()) if key else hashlib.sha256(material.encode()).hexdigest()


@dataclass(frozen=True)
class Change:
    """What one write did, as its history event records it."""

    op: str  # the tool or maintenance step that wrote
    aggregate_kind: str  # fact, decision, chunk, ...
    aggregate_id: str
    subject_ids: list[str]
    payload: dict[str, object]  # open JSON: its shape is the writing tool's


def append_event(tx: Tx, head: Head, change: Change, audit: Audit) -> int:
    """Append the event of this write to the transaction's (``flush_events`` writes them all
    in one statement before the commit: nothing in a write reads its own events); returns the
    revision it commits as."""
    head.pending.append(event_params(tx.tenant, tx.chain_key, head, change, audit))
    return head.revision


async def flush_events(tx: Tx, head: Head) -> None:
    """Write the transaction's events and move the stored head to the last; last in a write."""
    if head.pending:
        await tx.run("history/append_events", events=head.pending)
        head.pending = []


def event_params(
    tenant: str, key: ChainKey | None, head: Head, change: Change, audit: Audit
) -> EventParams:
    """The parameters of the event that records ``change`` after ``head`` (which it advances):
    one event of ``history/append_events``, and those of a one-statement write's event."""
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
    salt = secrets.token_hex(16)
    sealed = payload_digest(salt, payload_json)
    digest = event_hash(tenant, revision, change.op, at, sealed, head.last_hash, key, sealed=True)
    params: EventParams = {
        "event_id": new_id(),
        "revision": revision,
        "op": change.op,
        "at": at,
        "aggregate_kind": change.aggregate_kind,
        "aggregate_id": change.aggregate_id,
        "subject_ids": change.subject_ids,
        "payload_json": payload_json,
        "payload_salt": salt,
        "payload_digest": sealed,
        "session_id": audit.session_id,
        "actor": audit.actor,
        "client": audit.client,
        "prev_hash": head.last_hash,
        "hash": digest,
        "hash_scheme": SCHEME if key else None,
        "key_id": key.key_id if key else None,
    }
    head.revision, head.last_hash, head.last_at = revision, digest, at
    return params


async def list_events(db: TenantStore, request: ReplayRequest) -> list[EventRecord]:
    """Events newest first (no chain verdict)."""
    subject = request.aggregate_id
    rows = await db.read(
        "history/list_events" if subject is None else "history/list_subject_events",
        **({} if subject is None else {"aggregate_id": subject}),
        aggregate_kind=request.aggregate_kind,
        since=request.since_ts.isoformat() if request.since_ts else None,
        limit=request.limit,
    )
    return [event_from_node(row["event"]) for row in shaped(EventRow, rows)]
