"""Group commit: the writes of one tenant that queue in this process commit together.

A tenant's writes take its history lock, so they run one at a time whatever the concurrency.
Waiting for that lock inside Neo4j is dear on a small machine: every waiting transaction holds
a connection and a worker thread, Neo4j's lock waiters poll, and each write pays its own BEGIN,
lock statement and commit (a log flush). So a process queues its writes of a tenant itself and
one leader commits the queue: one transaction, the lock taken once, each member's work run in
turn on the locked head (its own events, revisions in queue order, its own result), one commit
for all. No member's caller hears of its result before that commit.

A member that fails on its own account (a refusal, a conflict, a constraint) is taken out and
run alone, so that its answer is its own, and the others commit without it. A failure of the
database (unreachable, refused after the driver's retries, timed out) fails every member of the
batch: none of them was acknowledged, and each caller may retry (with an idempotency key, safely).

When another process holds the lock too (the lock statement waited), the leader leaves the lock
free for a moment between its batches, so that the other processes' leaders take their turn.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import deque
from collections.abc import Callable, Coroutine
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from opentelemetry.trace import Link, Span

from graphmem.core import tracing
from graphmem.history.chain import Head, flush_events, lock_head
from graphmem.store import Store, TenantStore, Tx, about_the_database

T = TypeVar("T")
Unit = Callable[[Tx, Head], Coroutine[Any, Any, T]]  # one write's work on the locked head

MAX_BATCH = 32  # members of one transaction: bounds its size and every member's wait
CONTENDED = 0.005  # seconds: a lock statement slower than this waited for another process
TAKE_TURNS = 0.005  # seconds the lock is left free between batches when another process waits


@dataclass(eq=False)
class Member(Generic[T]):
    """One queued write: its work, its label, and where its caller waits."""

    unit: Unit[T]
    label: str
    future: asyncio.Future[T]
    context: contextvars.Context  # the caller's (progress reporting and its trace ride on it)
    link: Link | None  # the caller's span, for the batch's span to point at


class Committer:
    """The queue of one tenant's writes in this process, and whether a leader drains it."""

    def __init__(self) -> None:
        self.queue: deque[Member[Any]] = deque()
        self.busy = False  # a leader runs, or a one-statement write holds the turn
        self.contended = False  # the last lock statement waited for another process
        self._leader: asyncio.Task[None] | None = None

    async def submit(self, db: TenantStore, label: str, unit: Unit[T]) -> T:
        loop = asyncio.get_running_loop()
        member = Member(
            unit, label, loop.create_future(), contextvars.copy_context(), tracing.current_link()
        )
        self.queue.append(member)
        if not self.busy:
            self._start(db)
        return await member.future  # a cancelled caller cancels it; the leader skips it

    def claim(self) -> bool:
        """The turn for a one-statement write, when nothing is queued or committing."""
        if self.busy:
            return False
        self.busy = True
        return True

    def release(self, db: TenantStore) -> None:
        """The turn a one-statement write held, back (to the queue if it grew meanwhile)."""
        self.busy = False
        if self.queue:
            self._start(db)

    def _start(self, db: TenantStore) -> None:
        self.busy = True
        self._leader = asyncio.get_running_loop().create_task(self._lead(db))

    async def _lead(self, db: TenantStore) -> None:
        batch: list[Member[Any]] = []
        try:
            while self.queue:
                if self.contended:
                    await asyncio.sleep(TAKE_TURNS)
                batch = self._take()
                if batch:
                    await self._commit(db, batch)
        finally:
            self.busy = False
            self._leader = None
            # only when the leader itself was cancelled (shutdown): nobody waits forever
            for member in [*batch, *self.queue]:
                member.future.cancel()
            self.queue.clear()

    def _take(self) -> list[Member[Any]]:
        batch: list[Member[Any]] = []
        while self.queue and len(batch) < MAX_BATCH:
            member = self.queue.popleft()
            if not member.future.done():  # its caller gave up before it began
                batch.append(member)
        return batch

    async def _commit(self, db: TenantStore, batch: list[Member[Any]]) -> None:
        failed: list[Member[Any]] = []
        heads: list[Head] = []

        async def unit(tx: Tx) -> list[Any]:
            failed.clear()
            began = time.perf_counter()
            with tracing.span("lock wait") as span:
                head = await lock_head(tx)
                self.contended = time.perf_counter() - began > CONTENDED
                tracing.note(span, "graphmem.lock.contended", self.contended)
            results = [await _run(member, tx, head, failed, len(batch)) for member in batch]
            await flush_events(tx, head)  # every member's events in one statement
            heads[:] = [head]
            return results

        label = batch[0].label if len(batch) == 1 else "group commit"
        try:
            with _batch_span(batch):
                results = await db.write_transaction(label, unit)
        except Exception as error:
            if failed:  # one member's own failure: it runs alone, the others again
                alone = failed[0]
                self.queue.extendleft(reversed([m for m in batch if m is not alone]))
                await self._commit(db, [alone])
                return
            for member in batch:
                _settle(member, error=error)
            return
        seen_heads(db.store)[db.tenant] = heads[0]
        for member, result in zip(batch, results, strict=True):
            _settle(member, result=result)


def _batch_span(batch: list[Member[Any]]) -> AbstractContextManager[Span | None]:
    """The batch's span: a child of its first member's calling span (the leader runs in no
    caller's trace of its own), linked to every member's. Off, nothing is built."""
    if not tracing.enabled():
        return tracing.OFF
    links = [member.link for member in batch if member.link is not None]
    attributes = {"graphmem.batch.writes": len(batch)}
    parent = tracing.context_of(batch[0].link)
    return tracing.span("write batch", attributes, parent=parent, links=links)


async def _run(member: Member[T], tx: Tx, head: Head, failed: list[Member[Any]], size: int) -> T:
    """A member's work, in its caller's context; a failure of its own is noted."""
    task = asyncio.get_running_loop().create_task(member.unit(tx, head), context=member.context)
    try:
        return await task
    except Exception as error:
        if size > 1 and not about_the_database(error):
            failed.append(member)
        raise


def _settle(member: Member[Any], *, result: Any = None, error: Exception | None = None) -> None:
    if member.future.done():  # cancelled by its caller: the write stands, nobody hears
        return
    if error is not None:
        member.future.set_exception(error)
    else:
        member.future.set_result(result)


# One committer per store and tenant; and the chain head each store's last write of a tenant
# left (what a one-statement write expects).
_COMMITTERS: WeakKeyDictionary[Store, dict[str, Committer]] = WeakKeyDictionary()
_HEADS: WeakKeyDictionary[Store, dict[str, Head]] = WeakKeyDictionary()


def committer_of(db: TenantStore) -> Committer:
    return _COMMITTERS.setdefault(db.store, {}).setdefault(db.tenant, Committer())


def seen_heads(store: Store) -> dict[str, Head]:
    return _HEADS.setdefault(store, {})
