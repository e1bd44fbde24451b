"""Group commit (graphmem/history/group_commit.py): writes of one tenant queued in a process
commit together, each with its own events, revision and answer."""

from __future__ import annotations

import asyncio

from graphmem.core.clock import parse_iso
from graphmem.core.errors import Conflict, NotFound
from graphmem.facts.models import RecordFactRequest, RecordFactResult
from graphmem.facts.service import record_fact
from graphmem.history.chain import Change
from graphmem.history.rows import EventNode, EventRow
from graphmem.history.verification import verify_chain
from graphmem.history.write_path import Write, write
from graphmem.store import Store, shaped


def _change(n: int) -> Change:
    return Change("test_write", "test", f"subject-{n}", [f"subject-{n}"], {"n": n})


async def _events(store: Store, tenant: str) -> list[EventNode]:
    rows = await store.read(
        "history/list_events", tenant, aggregate_id=None, aggregate_kind=None, since=None, limit=200
    )
    return [row["event"] for row in reversed(shaped(EventRow, rows))]


async def test_queued_writes_commit_together_each_with_its_own_revision(
    store: Store, tenant: str
) -> None:
    async def work(n: int) -> int:
        async def unit(w: Write) -> int:
            return await w.event(_change(n))

        return await write(store.of(tenant), "test", unit)

    revisions = await asyncio.gather(*(work(n) for n in range(20)))
    assert revisions == list(range(1, 21))  # queue order is revision order
    events = await _events(store, tenant)
    assert [event["revision"] for event in events] == list(range(1, 21))
    # one transaction for the queue, each write its own time, in queue order
    times = [parse_iso(event["at_text"]) for event in events]
    assert times == sorted(set(times))
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.verified and verdict.complete


async def test_a_failing_member_gets_its_own_error_and_the_others_commit(
    store: Store, tenant: str
) -> None:
    ran: list[int] = []

    async def work(n: int) -> int:
        async def unit(w: Write) -> int:
            ran.append(n)
            revision = await w.event(_change(n))
            if n == 3:
                raise NotFound("member", str(n))
            if n == 6:
                raise Conflict(f"member {n} conflicts")
            return revision

        return await write(store.of(tenant), "test", unit)

    answers = await asyncio.gather(*(work(n) for n in range(10)), return_exceptions=True)
    assert isinstance(answers[3], NotFound) and "3" in answers[3].message
    assert isinstance(answers[6], Conflict) and "member 6" in answers[6].message
    committed = [answer for answer in answers if isinstance(answer, int)]
    assert sorted(committed) == list(range(1, 9))  # gap-free: the failures left nothing
    events = await _events(store, tenant)
    assert sorted(event["aggregate_id"] for event in events) == sorted(
        f"subject-{n}" for n in range(10) if n not in (3, 6)
    )
    # nothing either did reached the graph (their events were not yet written): each ran once
    # and the batch went on without it
    assert ran.count(3) == ran.count(6) == 1
    assert (await verify_chain(store.of(tenant), full=True)).verified


async def test_idempotent_replays_in_one_batch_return_the_first_result(
    store: Store, tenant: str
) -> None:
    db = store.of(tenant)
    request = RecordFactRequest(project="p", key="k", value=1, idempotency_key="same-call")
    other = RecordFactRequest(project="p", key="k2", value=2)
    results = await asyncio.gather(
        record_fact(db, request), record_fact(db, other), record_fact(db, request)
    )
    first, _, again = results
    assert not first.idempotent_replay and again.idempotent_replay
    assert (again.id, again.revision) == (first.id, first.revision)
    assert [event["op"] for event in await _events(store, tenant)] == ["record_fact"] * 2
    conflicting = request.model_copy(update={"value": 3})
    answers = await asyncio.gather(
        record_fact(db, conflicting), record_fact(db, other), return_exceptions=True
    )
    assert isinstance(answers[0], Conflict) and not isinstance(answers[1], BaseException)


async def test_a_batch_spanning_the_chain_checkpoint_verifies(store: Store, tenant: str) -> None:
    db = store.of(tenant)
    await asyncio.gather(*(record_fact(db, _fact(n)) for n in range(5)))
    assert (await verify_chain(db, full=True)).verified  # the checkpoint moves to the head
    results = await asyncio.gather(*(record_fact(db, _fact(n)) for n in range(5, 40)))
    assert sorted(result.revision for result in results) == list(range(6, 41))
    ordinary = await verify_chain(db)  # from the checkpoint, across the batches
    assert ordinary.verified and ordinary.complete and ordinary.head_revision == 40
    assert (await verify_chain(db, full=True)).checked_events == 40


def _fact(n: int) -> RecordFactRequest:
    return RecordFactRequest(project="p", key=f"k{n % 7}", value=n)


async def test_a_cancelled_caller_does_not_stop_the_others(store: Store, tenant: str) -> None:
    db = store.of(tenant)
    calls = [asyncio.ensure_future(record_fact(db, _fact(n))) for n in range(6)]
    await asyncio.sleep(0)  # all queued
    calls[2].cancel()
    answers = await asyncio.gather(*calls, return_exceptions=True)
    assert isinstance(answers[2], asyncio.CancelledError)
    revisions = sorted(a.revision for a in answers if isinstance(a, RecordFactResult))
    assert revisions == list(range(1, len(revisions) + 1)) and len(revisions) >= 5
    assert (await verify_chain(db, full=True)).verified
