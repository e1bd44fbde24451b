"""The one write path: every tenant write runs through ``write``.

``write`` owns what every write must do, so no domain module repeats it:
- one managed transaction (all-or-nothing, retried on transient errors), shared with the
  tenant's other writes queued in this process (group commit, history/group_commit.py);
- the tenant's history lock, taken first, which serialises the tenant's writes and gives the
  write its transaction time (``Write.now``);
- the history events: the domain describes each change (``Write.event``); the path chains
  them, numbers them (revisions are gap-free per tenant) and stamps the audit fields;
- idempotency: with an ``Idempotency``, a retry with the same key and fingerprint returns the
  first write's result (rebuilt by ``replay``) and writes nothing; the same key with other
  arguments is a conflict.

``write_at_head`` is the same write in one statement, for a change known before it is made
(a new memory; a fact superseding the one this process recorded on its key last): the lock,
the change and its event go in one round trip, against the head this process saw last. The
statement checks that head (and its history key, as ``lock_head`` does) under the lock, and
whatever else its change assumes; when one does not hold, nothing is written and the caller
runs ``write`` instead. The remembered head is a guess that saves a round trip, never an
answer: no data is read from it.

``bookkeeping`` (one statement) and ``derived_write`` (one transaction of several: the subjects a
memory names) are the exceptions: what is derived, not told (usage counters, the search fields
and subjects written behind a save), with no tenant lock and no event. A test
(tests/history/test_write_path.py) fails when code outside this module takes the lock,
appends an event, opens a write transaction or runs an unlocked write.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from graphmem.core.clock import utc_now_iso
from graphmem.core.errors import Conflict
from graphmem.core.ids import new_id
from graphmem.core.models import canonical_json
from graphmem.core.progress import step
from graphmem.history.chain import Audit, Change, Head, append_event, event_params, flush_events
from graphmem.history.group_commit import committer_of, seen_heads
from graphmem.history.rows import IdempotencyRow
from graphmem.store import Params, Row, TenantStore, Tx, shaped
from graphmem.store.continuations import Position

T = TypeVar("T")


class Write:
    """One tenant write in progress: its transaction, with the tenant's lock held."""

    def __init__(self, tx: Tx, head: Head, audit: Audit, label: str) -> None:
        self.tx = tx
        self.label = label  # the tool or step that writes: its events' op
        self._head = head
        self._audit = audit
        self._last_revision: int | None = None

    @property
    def tenant(self) -> str:
        return self.tx.tenant

    @property
    def now(self) -> datetime:
        """The write's transaction time, taken after the lock, the same for each of its
        statements (each write of a group commit has its own, later than the one's before)."""
        return self._head.now

    @property
    def now_iso(self) -> str:
        return self._head.now.isoformat()

    @property
    def audit(self) -> Audit:
        """Who writes, as the caller said; every event of this write records it."""
        return self._audit

    @property
    def next_revision(self) -> int:
        """The revision this write's next event will commit as (for nodes that record it)."""
        return self._head.revision + 1

    async def run(self, name: str, **params: object) -> list[Row]:
        """Run a statement of this write. Every statement may read the write's transaction
        time as ``$now`` and its audit fields as ``$session_id``, ``$actor`` and ``$client``,
        unless the caller passes other values."""
        audit = self._audit
        defaults: Params = {
            "now": self.now_iso,
            "session_id": audit.session_id,
            "actor": audit.actor,
            "client": audit.client,
        }
        return await self.tx.run(name, **{**defaults, **params})

    @property
    def last_revision(self) -> int | None:
        """The revision of this write's last event; None before its first."""
        return self._last_revision

    async def event(self, change: Change, audit: Audit | None = None) -> int:
        """Record one change in the tenant's history; returns the revision it commits as."""
        revision = append_event(self.tx, self._head, change, audit or self._audit)
        self._last_revision = revision
        return revision

    async def record(
        self, kind: str, aggregate_id: str, subject_ids: list[str], payload: dict[str, object]
    ) -> int:
        """Record one change of this write (its op is the write's label); returns the revision
        it commits as."""
        return await self.event(Change(self.label, kind, aggregate_id, subject_ids, payload))

    async def flush_events(self) -> None:
        """Write the transaction's events so far, this write's and those of the writes before
        it in a group commit, so a statement after this sees them (an erasure erases them)."""
        await flush_events(self.tx, self._head)

    async def events(self, changes: list[Change]) -> int | None:
        """Record several changes in order; the revision of the last one, None for none."""
        revision = None
        for change in changes:
            revision = await self.event(change)
        return revision


@dataclass(frozen=True)
class IdempotencyRecord:
    """What a keyed write left for its retries: the entity it made and its revision."""

    entity_id: str
    revision: int
    details: dict[str, object] = field(default_factory=dict[str, object])  # open JSON


class KeyedRequest(Protocol):
    idempotency_key: str | None

    def fingerprint(self) -> Mapping[str, object]: ...


@dataclass(frozen=True)
class Idempotency(Generic[T]):
    """A keyed write: the write's label, ``owner`` and ``key`` name it, ``fingerprint`` is
    what a retry must repeat; ``remember`` says what to keep of a result, ``replay`` rebuilds
    the result from it."""

    owner: str
    key: str
    fingerprint: str
    remember: Callable[[T], IdempotencyRecord]
    replay: Callable[[Write, IdempotencyRecord], Awaitable[T]]

    @classmethod
    def of(
        cls,
        owner: str,
        request: KeyedRequest,
        remember: Callable[[T], IdempotencyRecord],
        replay: Callable[[Write, IdempotencyRecord], Awaitable[T]],
    ) -> Idempotency[T] | None:
        """The keyed write of a request's idempotency_key; None for a request without one."""
        if request.idempotency_key is None:
            return None
        fingerprint = canonical_json(request.fingerprint())
        return cls(owner, request.idempotency_key, fingerprint, remember, replay)


async def write(
    db: TenantStore,
    label: str,
    work: Callable[[Write], Awaitable[T]],
    *,
    audit: Audit | None = None,
    idempotency: Idempotency[T] | None = None,
) -> T:
    """Run ``work`` as a write of the tenant: queued in this process behind the tenant's other
    writes and committed with them (graphmem/history/group_commit.py), on the locked head. It
    may run more than once (a transient error, a batch member that failed), so it must not act
    outside the transaction. It returns after the commit."""

    async def unit(tx: Tx, head: Head) -> T:
        current = Write(tx, head, audit or Audit(), label)
        if idempotency is not None:
            earlier = await _find(current, idempotency)
            if earlier is not None:
                return await idempotency.replay(current, earlier)
        result = await work(current)
        if idempotency is not None:
            await _remember(current, idempotency, idempotency.remember(result))
        return result

    return await committer_of(db).submit(db, label, unit)


async def write_at_head(
    db: TenantStore,
    label: str,
    name: str,
    change: Change,
    *,
    audit: Audit,
    params: Callable[[datetime], Params],
) -> Row | None:
    """Statement ``name`` as a whole write: it claims the head this process saw last, makes
    ``change`` and appends its event (with ``params(now)`` for the write's transaction time,
    the parameters of ``event_params``, ``$now``, ``$lock_token`` and ``$expected_hash``). Its
    row; None when writes of the tenant are queued here, when there was no head to expect or
    the statement wrote nothing (another writer had moved the head, or what the statement
    checks had changed): then the caller runs ``write``."""
    committer = committer_of(db)
    if not committer.claim():  # others queue: the write joins their group commit
        return None
    try:
        seen = seen_heads(db.store).pop(db.tenant, None)  # one write per expected head
        if seen is None:
            return None
        head = Head.at(seen.revision, seen.last_hash, seen.last_at)
        now = head.now
        event = event_params(db.tenant, db.store.chain_key, head, change, audit)
        own = params(now)
        # a parameter named as one of the event's must mean the same (the audit's session_id)
        if clash := sorted(k for k in own.keys() & event.keys() if own[k] != event[k]):
            raise ValueError(f"{name}: parameters named as the event's, other values: {clash}")
        statement: Params = {
            **own,
            **event,
            "now": event["at"],
            "lock_token": new_id(),
            "expected_hash": seen.last_hash,
        }
        rows = await db.write_statement(label, name, **statement)
        if not rows:  # refused for now, the head had moved or a check failed: the managed
            return None  # write decides
        seen_heads(db.store)[db.tenant] = head
        return rows[0]
    finally:
        committer.release(db)


class Batch(Protocol):
    """One batch of a long write: ``following`` is where the next starts (None: done)."""

    @property
    def following(self) -> Position | None: ...


B = TypeVar("B", bound=Batch)

# Neo4j does not queue lock waiters: they poll (about every millisecond), so a caller that asks
# for the lock again at once wins it back before them. Between batches the lock is left free
# this long, so every writer already waiting takes it first (a waiter's take is under 1 ms).
HAND_OVER = 0.02  # seconds


async def hand_over() -> None:
    """Between two writes of one long call: let the writers already waiting go first."""
    await asyncio.sleep(HAND_OVER)


async def write_batches(
    db: TenantStore,
    label: str,
    position: Position,
    run: Callable[[Write, Position, list[B]], Awaitable[B]],
    *,
    budget: float,
    committed: Callable[[B], None] | None = None,
) -> list[B]:
    """A long write as batches, each its own ``write`` (``run`` gets the position and the
    batches before it), until the work is done or ``budget`` seconds have passed; at least
    one. A concurrent writer of the tenant waits for one batch at most. ``committed`` hears
    of each batch once it has committed (work outside the database that must follow it)."""
    began = time.monotonic()
    batches: list[B] = []
    following: Position | None = position
    while following is not None and (not batches or time.monotonic() - began < budget):
        if batches:
            await hand_over()
        batch = await write(db, label, _batch_work(run, following, batches))
        batches.append(batch)
        if committed is not None:
            committed(batch)
        following = batch.following
        # a pass's length is unknown, so each batch counts one more of one more
        await step(len(batches), len(batches) + (following is not None), f"{label} batch")
    return batches


def _batch_work(
    run: Callable[[Write, Position, list[B]], Awaitable[B]], position: Position, done: list[B]
) -> Callable[[Write], Awaitable[B]]:
    return lambda current: run(current, position, list(done))


async def derived_write(db: TenantStore, label: str, work: Callable[[Tx], Awaitable[T]]) -> T:
    """A write of what is derived from knowledge already recorded (the subjects a memory names):
    one transaction of several statements, no tenant lock and no event (it records no new
    knowledge; erasure reaches it through what it derives from). ``work`` may run more than
    once and must serialise itself where it needs to (the subjects pass locks its ledger)."""
    return await db.store.write_transaction(label, db.tenant, work)


async def bookkeeping(db: TenantStore, name: str, **params: object) -> list[Row]:
    """A write that is not knowledge and records no history (usage counters): one statement,
    no tenant lock, no event, so readers who trigger it never queue behind writers. The
    statement must take its node locks in a deterministic order."""
    return await db.write(name, **{"now": utc_now_iso(), **params})


def _scope(current: Write, keyed: Idempotency[Any]) -> str:
    return f"{current.label}:{keyed.owner}"  # e.g. record_fact:project:alpha


async def _find(current: Write, keyed: Idempotency[Any]) -> IdempotencyRecord | None:
    rows = await current.run(
        "history/find_idempotency_record", scope=_scope(current, keyed), key=keyed.key
    )
    if not rows:
        return None
    row = shaped(IdempotencyRow, rows)[0]
    # records before digests kept the request itself
    if row["fingerprint"] not in (_fingerprint_digest(current, keyed), keyed.fingerprint):
        raise Conflict(
            "idempotency_key was already used for a different write; use a new key for a "
            "new write, or repeat the original arguments to recover its result"
        )
    # what the write's ``remember`` kept: open JSON, its shape the writing tool's
    details: dict[str, object] = json.loads(row["details_json"]) if row["details_json"] else {}
    if row["superseded_id"] is not None:  # records written before the one write path
        details.setdefault("superseded_id", row["superseded_id"])
    return IdempotencyRecord(row["entity_id"], row["revision"], details)


async def _remember(current: Write, keyed: Idempotency[Any], record: IdempotencyRecord) -> None:
    await current.run(
        "history/create_idempotency_record",
        scope=_scope(current, keyed),
        key=keyed.key,
        fingerprint=_fingerprint_digest(current, keyed),
        entity_id=record.entity_id,
        revision=record.revision,
        details_json=json.dumps(record.details, sort_keys=True),
        now=current.now_iso,
    )


def _fingerprint_digest(current: Write, keyed: Idempotency[Any]) -> str:
    """What a record keeps of the request a retry must repeat: a digest (under the history
    key when there is one), never the request, whose text an erasure could not reach."""
    key = current.tx.chain_key
    material = keyed.fingerprint.encode()
    return key.mac(material) if key else hashlib.sha256(material).hexdigest()
