"""Group commit: the writes of one tenant that queue in this process commit together.

A tenant's writes take its history lock, so they run one at a time whatever the concurrency.
Waiting for that lock inside Neo4j is dear on a small machine: every waiting transaction holds
a connection and a worker thread, Neo4j's lock waiters poll, and each write pays its own BEGIN,
lock statement and commit (a log flush). So a process queues its writes of a tenant itself and
one leader commits the queue: one transaction, the lock taken once, each member's work run in
turn on the locked head (its own events, revisions in queue order, its own result), one commit
for all. No member's caller hears of its result before that commit.

A member that refuses on its own account (a conflict, a missing id) before anything it did
reached the graph (its events are not written yet) is answered with its refusal once the batch
commits, and the batch goes on without it. Any other failure ends the transaction; each caller
still gets its own answer, and revisions still follow the queue: the members before the one to
blame commit again without it, then it runs alone (unless its error is its answer already),
then the rest take their place at the queue's front. To blame is the member that failed on its
own account (after a write, or in its statement: a constraint, a database error), or, on a
timeout, the slowest. Nobody to blame (the events' statement, the batch's last, failed): the
batch runs once more carefully, each member's events written after it, which names the member
the database refuses (the rest after it stay careful); still nobody (the commit failed): every
member hears that failure. Each failure costs its batch one rerun of the members before it,
not one of all the rest: the work stays linear. The transaction's timeout grows with the batch
(``budget``, under two timeouts), and graphmem stops a member's work at it (Neo4j notices
Python work only at the next statement); a batch begins no further member once it has held the
lock half a timeout (``CLOSE_AFTER``: the rest go back to the queue's front), so uniformly slow
writes commit in smaller batches instead of timing out. A member stopped at the budget is
answered `timed_out` if it began the batch or ran a timeout itself, else run alone. A member
whose batch timed out waiting for the lock (another process held it) goes back to the queue
once. A failure of the database itself (unreachable, refused after the driver's retries, a
second timeout in the lock wait) fails every member: none of them was acknowledged, and each
caller may retry (with an idempotency key, safely). A member whose caller gave up is dropped
from every rerun.

Each member has its own transaction time, after its predecessor's (``Write.now``), so a
timeline orders a batch's writes as they committed.

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
from datetime import timedelta
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from opentelemetry.trace import Link, Span

from graphmem.core import tracing
from graphmem.core.clock import utc_now
from graphmem.core.errors import TimedOut
from graphmem.history.chain import Head, flush_events, lock_head
from graphmem.store import Store, TenantStore, Tx, about_the_database, timed_out

T = TypeVar("T")
Unit = Callable[[Tx, Head], Coroutine[Any, Any, T]]  # one write's work on the locked head

MAX_BATCH = 32  # members of one transaction: bounds its size and every member's wait
CLOSE_AFTER = 0.5  # share of the query timeout after which a batch takes no further member
LOCK_WAITS = 1  # times a member goes back to the queue when its batch timed out in the lock
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
    lock_waits: int = 0  # batches of it that timed out waiting for another process's lock


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
                    self.queue.extendleft(reversed(await self._commit(db, batch)))
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

    async def _commit(
        self, db: TenantStore, batch: list[Member[Any]], *, careful: bool = False
    ) -> list[Member[Any]]:
        """Commit ``batch`` in one transaction, or as much of it as its failure leaves, in queue
        order; returns the members left for the next batch (none were run to completion).
        ``careful``: each member's events are written after it, so one the database refuses
        fails its own member."""
        batch = [member for member in batch if not member.future.done()]  # caller gave up
        if not batch:
            return []
        attempt, base = Attempt(careful), db.store.query_timeout
        seconds = budget(base, len(batch))
        heads: list[Head] = []

        async def unit(tx: Tx) -> list[Any]:
            attempt.begin()  # the driver may run it again (a transient error)
            began = time.perf_counter()
            head = await self._lock(tx)
            held = time.perf_counter()  # a wait for another process's lock is not holding it
            results: list[Any] = []
            for member in batch:
                now = time.perf_counter()
                if results and (
                    now - held > base * CLOSE_AFTER or now - began > seconds - base * CLOSE_AFTER
                ):
                    break  # closed early: members begin in the lock's first half timeout
                if results:
                    _own_time(head)
                deadline = began + seconds  # the batch's budget, kept by graphmem too
                spare = len(batch) > 1
                results.append(await attempt.run(member, tx, head, spare=spare, until=deadline))
            await flush_events(tx, head)  # every member's events in one statement
            heads[:] = [head]
            return results

        label = batch[0].label if len(batch) == 1 else "group commit"
        try:
            with _batch_span(batch):
                results = await db.write_transaction(label, unit, budget=seconds)
        except Exception as error:
            return await self._recover(db, batch, attempt, error)
        seen_heads(db.store)[db.tenant] = heads[0]
        for member, result in zip(batch, results, strict=False):
            if isinstance(result, Refused):
                _settle(member, error=result.error)
            else:
                _settle(member, result=result)
        return batch[len(results) :]  # those a batch closed early did not take

    async def _lock(self, tx: Tx) -> Head:
        began = time.perf_counter()
        with tracing.span("lock wait") as span:
            head = await lock_head(tx)
            self.contended = time.perf_counter() - began > CONTENDED
            tracing.note(span, "graphmem.lock.contended", self.contended)
        return head

    async def _recover(
        self, db: TenantStore, batch: list[Member[Any]], attempt: Attempt, error: Exception
    ) -> list[Member[Any]]:
        """After ``batch`` failed: the members before the one to blame commit (they ran well),
        then it, alone, for its own answer; the rest go back to the queue. Nobody to blame, all
        having run (the events' statement or the commit failed): once more carefully, then
        halves, in order. A failure of the database, or in the lock, is every member's
        answer."""
        if attempt.lock_timed_out(error):  # none of them ran: another process held the lock
            again = [member for member in batch if member.lock_waits < LOCK_WAITS]
            for member in again:
                member.lock_waits += 1
            _fail_all([member for member in batch if member not in again], error)
            return again
        blamed = attempt.blame(error, db.store.query_timeout) if len(batch) > 1 else None
        if blamed is None:
            if len(batch) == 1 or not attempt.ran_all or about_the_database(error):
                return _fail_all(batch, error)
            if not attempt.careful:
                return await self._commit(db, batch, careful=True)
            _fail_all(batch[: attempt.taken], error)  # careful, still nobody: the commit failed
            return batch[attempt.taken :]  # those a batch closed early did not run
        at, final = blamed
        left = await self._commit(db, batch[:at]) if at else []
        if left:  # the ones before it did not all commit: it waits behind them
            return left + batch[at:]
        if final:
            _settle(batch[at], error=error)
        elif alone := await self._commit(db, batch[at : at + 1]):
            return alone + batch[at + 1 :]  # it went back to the queue (a lock wait): in order
        rest = batch[at + 1 :]
        if attempt.careful and rest:  # they all ran once already: not once more per culprit
            return await self._commit(db, rest, careful=True)
        return rest


def _fail_all(batch: list[Member[Any]], error: Exception) -> list[Member[Any]]:
    for member in batch:
        _settle(member, error=error)
    return []


def budget(base: float, members: int) -> float:
    """A batch's transaction timeout: a lone write's (the lock wait and one slow member), and as
    much again shared by a full batch's other members."""
    return base * (1 + (members - 1) / MAX_BATCH)


def _own_time(head: Head) -> None:
    """The next member's transaction time: now, and after the member's before it, so that a
    batch's writes keep their queue order in time (timelines would tie-break on random ids)."""
    head.now = max(utc_now(), head.now + timedelta(microseconds=1))


class Attempt:
    """One run of a batch's transaction: each member's seconds, and who raised what."""

    def __init__(self, careful: bool) -> None:
        self.careful = careful
        self.seconds: list[float] = []  # of the members run, in order (the last until it raised)
        self.raised: tuple[int, Exception] | None = None
        self.taken = 0  # members begun (a batch closed early takes fewer than it holds)
        self.overran: int | None = None  # the member graphmem stopped at the budget

    def begin(self) -> None:
        self.seconds, self.raised, self.taken, self.overran = [], None, 0, None

    @property
    def ran_all(self) -> bool:
        """Every member taken ran to its end (the events' statement or the commit failed)."""
        return self.taken > 0 and len(self.seconds) == self.taken and self.raised is None

    def lock_timed_out(self, error: Exception) -> bool:
        """The transaction timed out before any member began: in the wait for the lock."""
        return self.taken == 0 and timed_out(error)

    async def run(
        self, member: Member[T], tx: Tx, head: Head, *, spare: bool, until: float
    ) -> T | Refused:
        """A member's work, in its caller's context. Its own error, when nothing it did reached
        the graph (a refusal after reads), is its answer once the batch commits; with ``spare``
        the batch goes on without it (its events undone), else the error fails the batch. Work
        still running at ``until`` (the batch's budget) is stopped there: Neo4j would notice
        only at its next statement or check, holding the tenant's lock meanwhile."""
        loop = asyncio.get_running_loop()
        began, changes, mark = time.perf_counter(), tx.changes, _mark(head)  # before it runs
        self.taken += 1
        task = loop.create_task(member.unit(tx, head), context=member.context)
        try:
            try:
                result = await asyncio.wait_for(task, max(until - began, 0.0))
            except TimeoutError:
                self.overran = len(self.seconds)
                raise TimedOut("a write outlived its batch's time") from None
            if self.careful:
                await flush_events(tx, head)
            return result
        except Exception as error:
            if spare and not (tx.failed or tx.changes > changes or about_the_database(error)):
                _undo(head, mark)
                return Refused(error)
            self.raised = (len(self.seconds), error)
            raise
        finally:
            self.seconds.append(time.perf_counter() - began)

    def blame(self, error: Exception, base: float) -> tuple[int, bool] | None:
        """The member that failed the batch, and whether its error is its answer already; None
        when no member is to blame. A member's own error (a refusal, a conflict, a constraint)
        is its answer when it ran first, on the committed head. A timeout is the slowest
        member's, its answer when that one alone outlasted a lone write's timeout (or the
        batch's budget, where graphmem stopped it)."""
        if self.overran is not None:  # its answer if it began the batch or had a timeout
            at = self.overran
            return at, at == 0 or self.seconds[at] >= base
        if self.raised is not None and not about_the_database(self.raised[1]):
            at = self.raised[0]
            return at, at == 0
        if timed_out(error) and self.seconds:  # not in the lock wait
            slowest = max(range(len(self.seconds)), key=self.seconds.__getitem__)
            return slowest, self.seconds[slowest] >= base
        return None


@dataclass(frozen=True)
class Refused:
    """A member's own error that left the graph as it was: its answer when the batch commits."""

    error: Exception


Mark = tuple[int, str, str | None, int]  # a head's revision, hash, time and pending events


def _mark(head: Head) -> Mark:
    return head.revision, head.last_hash, head.last_at, len(head.pending)


def _undo(head: Head, mark: Mark) -> None:
    """The head as it was before a member that refused: its events are not written."""
    head.revision, head.last_hash, head.last_at, pending = mark
    del head.pending[pending:]


def _batch_span(batch: list[Member[Any]]) -> AbstractContextManager[Span | None]:
    """The batch's span: a child of its first member's calling span (the leader runs in no
    caller's trace of its own), linked to every member's. Off, nothing is built."""
    if not tracing.enabled():
        return tracing.OFF
    links = [member.link for member in batch if member.link is not None]
    attributes = {"graphmem.batch.writes": len(batch)}
    parent = tracing.context_of(batch[0].link)
    return tracing.span("write batch", attributes, parent=parent, links=links)


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
