"""Group commit when a member fails the batch (graphmem/history/group_commit.py): a slow
member, one the database refuses at the batch's end, one that fails only in its batch. Each
caller gets its own answer, the others commit, revisions and times follow the queue, and the
work stays linear in the batch."""

from __future__ import annotations

import asyncio
import itertools
import shutil
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from typing import Any

import pytest

from graphmem.core.clock import parse_iso
from graphmem.core.errors import Conflict, NotFound, TimedOut
from graphmem.history.chain import Change
from graphmem.history.rows import EventRow
from graphmem.history.verification import verify_chain
from graphmem.history.write_path import Write, write
from graphmem.store import QueryCatalog, Store, TenantStore, shaped
from graphmem.store.catalog import catalog_root
from tests.neo4j_endpoint import Endpoint
from tests.support import TEST_CATALOG

TIMEOUT = 1.5  # seconds: a lone write's transaction timeout on the strict store
Unit = Callable[[Write], Awaitable[Any]]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> QueryCatalog:
    """graphmem's statements and the test-only ones a failing member runs."""
    root = tmp_path_factory.mktemp("catalog") / "cypher"
    shutil.copytree(catalog_root(), root)
    shutil.copytree(TEST_CATALOG / "group_commit", root / "group_commit")
    return QueryCatalog(root)


@pytest.fixture
async def strict(
    store: Store, neo4j_endpoint: Endpoint, catalog: QueryCatalog
) -> AsyncIterator[Store]:
    """The session's database with a short transaction timeout and the test statements."""
    endpoint = neo4j_endpoint
    opened = await Store.connect(
        endpoint.uri, endpoint.user, endpoint.password, query_timeout=TIMEOUT
    )
    opened.chain_key, opened.catalog = store.chain_key, catalog
    yield opened
    await opened.close()


def _change(n: int, aggregate_id: str | None = None) -> Change:
    subject = aggregate_id or f"subject-{n}"
    return Change("test_write", "test", subject, [f"subject-{n}"], {"n": n})


def _plain(n: int, ran: Counter[int] | None = None) -> Unit:
    async def unit(w: Write) -> int:
        if ran is not None:
            ran[n] += 1
        return await w.event(_change(n))

    return unit


async def _batch(db: TenantStore, units: list[Unit]) -> list[Any]:
    """The units queued at once (one batch: the leader starts after all are queued)."""
    calls = (write(db, "test", unit) for unit in units)
    return await asyncio.gather(*calls, return_exceptions=True)


async def _subjects(store: Store, tenant: str) -> list[str]:
    """The committed events' aggregate ids, in revision order."""
    rows = await store.read(
        "history/list_events", tenant, aggregate_id=None, aggregate_kind=None, since=None, limit=200
    )
    return [row["event"]["aggregate_id"] for row in reversed(shaped(EventRow, rows))]


@pytest.mark.parametrize("how", ["sleeps holding it", "runs a slow statement"])
async def test_a_slow_member_times_out_alone_and_the_others_commit(
    strict: Store, tenant: str, how: str
) -> None:
    async def slow(w: Write) -> int:
        revision = await w.event(_change(2))
        if how == "sleeps holding it":
            await asyncio.sleep(TIMEOUT + 3)  # past the timeout and Neo4j's 2 s monitor
        else:
            await w.run("group_commit/count_slowly")
        return revision

    db = strict.of(tenant)
    answers = await _batch(db, [slow if n == 2 else _plain(n) for n in range(6)])
    assert isinstance(answers[2], TimedOut)
    assert answers[:2] + answers[3:] == [1, 2, 3, 4, 5]  # queue order is revision order
    assert await _subjects(strict, tenant) == [f"subject-{n}" for n in (0, 1, 3, 4, 5)]
    assert (await verify_chain(db, full=True)).verified


@pytest.mark.parametrize("how", ["too large to index", "its revision taken"])
async def test_a_member_the_database_refuses_at_the_batch_end_fails_alone(
    strict: Store, tenant: str, how: str
) -> None:
    """Its error comes from the batch's last statement (the events of all members), not from
    its own: Neo4j checks a uniqueness constraint at the statement, so the events' statement
    is where one member's event fails the batch."""

    async def refused(w: Write) -> int:
        if how == "too large to index":  # event_by_aggregate cannot hold it
            return await w.event(_change(2, aggregate_id="x" * 40_000))
        await w.run("group_commit/create_event_at", revision=w.next_revision)
        return await w.event(_change(2))

    db = strict.of(tenant)
    answers = await _batch(db, [refused if n == 2 else _plain(n) for n in range(6)])
    assert isinstance(answers[2], Exception)
    if how == "its revision taken":
        assert isinstance(answers[2], Conflict)
    assert answers[:2] + answers[3:] == [1, 2, 3, 4, 5]
    assert await _subjects(strict, tenant) == [f"subject-{n}" for n in (0, 1, 3, 4, 5)]
    assert (await verify_chain(db, full=True)).verified


async def test_a_member_failing_only_in_its_batch_keeps_its_place(
    strict: Store, tenant: str
) -> None:
    """Its failure (after a write: the batch cannot go on without it) reruns it alone, after
    the members queued before it commit: it does not overtake them."""
    tries = 0

    async def flaky(w: Write) -> int:
        nonlocal tries
        tries += 1
        revision = await w.event(_change(3))
        await w.run("group_commit/create_mark", n=3)
        if tries == 1:
            raise Conflict("the batch's state, this once")
        return revision

    units = [flaky if n == 3 else _plain(n) for n in range(6)]
    assert await _batch(strict.of(tenant), units) == [1, 2, 3, 4, 5, 6]
    assert await _subjects(strict, tenant) == [f"subject-{n}" for n in range(6)]


async def test_members_of_a_batch_have_increasing_times_in_queue_order(
    store: Store, tenant: str
) -> None:
    def stamped(n: int) -> Unit:
        async def unit(w: Write) -> datetime:
            await w.event(_change(n))
            return w.now

        return unit

    times = await _batch(store.of(tenant), [stamped(n) for n in range(12)])
    assert all(earlier < later for earlier, later in itertools.pairwise(times))
    rows = await store.read(
        "history/list_events", tenant, aggregate_id=None, aggregate_kind=None, since=None, limit=20
    )
    events = [row["event"] for row in reversed(shaped(EventRow, rows))]
    assert [parse_iso(event["at_text"]) for event in events] == times


# how every third member fails, and how often a member may run: not once more for every
# failure queued before it
FAILURES = {
    "refusing": 1,  # before it writes: the batch goes on without it
    "failing after a write": 2,  # the members before it again, it alone
    "refused at the batch's end": 3,  # and once more, carefully, to find it
}


@pytest.mark.parametrize("how", FAILURES)
async def test_failing_members_cost_work_linear_in_the_batch(
    strict: Store, tenant: str, how: str
) -> None:
    ran: Counter[int] = Counter()
    failing = set(range(2, 30, 3))

    def member(n: int) -> Unit:
        async def unit(w: Write) -> int:
            ran[n] += 1
            if how == "refused at the batch's end" and n in failing:
                return await w.event(_change(n, aggregate_id="x" * 40_000))
            revision = await w.event(_change(n))
            if n in failing:
                if how == "failing after a write":
                    await w.run("group_commit/create_mark", n=n)
                raise NotFound("member", str(n))
            return revision

        return unit

    answers = await _batch(strict.of(tenant), [member(n) for n in range(30)])
    assert all(isinstance(answers[n], Exception) for n in failing)
    assert [answers[n] for n in range(30) if n not in failing] == list(range(1, 21))
    assert max(ran.values()) == FAILURES[how]
    assert sum(ran.values()) <= FAILURES[how] * 30
    assert await _subjects(strict, tenant) == [f"subject-{n}" for n in range(30) if n % 3 != 2]


async def test_uniformly_slow_members_commit_in_batches_closed_early(
    strict: Store, tenant: str
) -> None:
    """Each member well under a lone write's timeout, all of them together far over it: the
    batch takes no further member after half a timeout, so none times out and none reruns."""
    ran: Counter[int] = Counter()

    def slow(n: int) -> Unit:
        async def unit(w: Write) -> int:
            ran[n] += 1
            await asyncio.sleep(TIMEOUT / 4)  # the transaction open all along
            return await w.event(_change(n))

        return unit

    answers = await _batch(strict.of(tenant), [slow(n) for n in range(12)])
    assert answers == list(range(1, 13))
    assert set(ran.values()) == {1}
    assert await _subjects(strict, tenant) == [f"subject-{n}" for n in range(12)]


async def test_a_caller_that_gave_up_is_not_run_again(strict: Store, tenant: str) -> None:
    ran: Counter[int] = Counter()
    db = strict.of(tenant)

    async def failing(w: Write) -> int:
        ran[0] += 1
        await w.event(_change(0))
        await w.run("group_commit/create_mark", n=0)
        raise NotFound("member", "0")

    def member(n: int) -> Unit:
        async def unit(w: Write) -> int:
            ran[n] += 1
            if n == 2:
                waiting[0].cancel()  # member 1 gives up while the batch runs: no rerun
            return await w.event(_change(n))

        return unit

    waiting = [asyncio.ensure_future(write(db, "test", u)) for u in (member(1), member(2))]
    later = asyncio.ensure_future(write(db, "test", failing))
    answers = await asyncio.gather(*waiting, later, return_exceptions=True)
    assert isinstance(answers[2], NotFound)
    assert ran[1] == 1, ran  # run in the first attempt only, not in the rerun before the culprit


async def test_work_past_the_budget_is_stopped_by_graphmem(strict: Store, tenant: str) -> None:
    """Python work inside the transaction (Neo4j sees nothing until the next statement) is
    stopped at the batch's budget, so the tenant's lock is not held until it wakes."""
    stopped: list[bool] = []

    async def sleeper(w: Write) -> int:
        revision = await w.event(_change(1))
        try:
            await asyncio.sleep(TIMEOUT * 20)
        except asyncio.CancelledError:
            stopped.append(True)
            raise
        return revision

    answers = await _batch(strict.of(tenant), [_plain(0), sleeper, _plain(2)])
    assert isinstance(answers[1], TimedOut) and stopped == [True]
    assert (answers[0], answers[2]) == (1, 2)


async def test_a_write_that_fits_alone_is_not_timed_out_behind_a_slow_one(
    strict: Store, tenant: str
) -> None:
    """The batch's budget runs out on the second member only because the first was slow: the
    second runs alone then, and commits."""

    def sleeping(n: int, share: float) -> Unit:
        async def unit(w: Write) -> int:
            await asyncio.sleep(TIMEOUT * share)
            return await w.event(_change(n))

        return unit

    answers = await _batch(strict.of(tenant), [sleeping(0, 0.45), sleeping(1, 0.65)])
    assert answers == [1, 2], answers
