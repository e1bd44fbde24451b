"""What stops the event loop, as spans when traces are on (graphmem/core/stalls.py): a slow
garbage collection and a loop held by a blocking call each leave a root span of their own,
and with traces off nothing is installed."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from graphmem.core import stalls
from tests.core.kept_spans import Kept

pytestmark = pytest.mark.pure


def test_a_slow_collection_is_a_span_of_its_own(kept: Kept) -> None:
    watcher = stalls.watch_collections()
    try:
        cycles = []
        for _ in range(200_000):  # garbage a full collection takes more than a millisecond on
            node: list[object] = []
            node.append(node)
            cycles.append(node)
        del cycles
        gc.collect()
        assert watcher is not None and watcher.slow  # kept: sent from the loop's next look
        watcher.send()
    finally:
        stalls.unwatch(watcher)
    [collected] = [s for s in kept.spans if s.name == "python gc"][-1:]
    assert collected.attributes is not None
    assert collected.attributes["graphmem.gc.generation"] == 2
    assert int(str(collected.attributes["graphmem.gc.collected"])) >= 100_000
    assert collected.parent is None  # it belongs to no call
    assert watcher not in gc.callbacks


async def test_a_held_loop_is_a_stall_span(kept: Kept) -> None:
    looking = asyncio.create_task(stalls.watch_loop())
    await asyncio.sleep(stalls.TICK * 2)
    time.sleep(0.1)  # a callback that holds the loop
    await asyncio.sleep(stalls.TICK * 3)
    looking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await looking
    [stall] = [s for s in kept.spans if s.name == "event loop stall"]
    assert stall.end_time is not None and stall.start_time is not None
    assert stall.end_time - stall.start_time >= 0.08e9


def test_with_traces_off_nothing_is_installed() -> None:
    before = list(gc.callbacks)
    assert stalls.watch_collections() is None
    assert gc.callbacks == before
