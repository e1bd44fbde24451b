"""What stops the server's event loop, as spans of their own when traces are on: a slow call's
time is found in its own spans, and these say when the whole process stood still.

- ``python gc``: a garbage collection of ``MIN_GC`` or more (gen 0's are shorter and many), its
  generation and what it collected;
- ``event loop stall``: the loop woke ``MIN_STALL`` or more after it meant to (a callback that
  held it, a thread that held the interpreter), from when it meant to wake to when it did.

Both are roots of traces of their own (they belong to no call). Off, nothing is installed.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import deque

from opentelemetry.context import Context

from graphmem.core import tracing

MIN_GC = 1_000_000  # nanoseconds
MIN_STALL = 0.02  # seconds
TICK = 0.01  # seconds between two looks at the loop
KEPT = 1024  # slow collections kept between two looks (the oldest dropped first)


class Collections:
    """A ``gc.callbacks`` entry: each collection timed, the slow ones kept for ``watch_loop`` to
    send (a collection may run in any thread, the exporter's too: no span is made here)."""

    def __init__(self) -> None:
        self.began = (0, 0)  # wall clock and monotonic nanoseconds
        self.slow: deque[tuple[int, int, int, int]] = deque(maxlen=KEPT)

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.began = (time.time_ns(), time.perf_counter_ns())
            return
        wall, began = self.began
        took = time.perf_counter_ns() - began
        if began and took >= MIN_GC:
            counts = info.get("generation", -1), info.get("collected", 0)
            self.slow.append((wall, wall + took, *counts))

    def send(self) -> None:
        while self.slow:
            start, end, generation, collected = self.slow.popleft()
            attributes = {"graphmem.gc.generation": generation, "graphmem.gc.collected": collected}
            tracing.interval("python gc", start, end, attributes, Context())


def watch_collections() -> Collections | None:
    """Time Python's collections from now on (traces on); the callback, to ``unwatch``."""
    if not tracing.enabled():
        return None
    watcher = Collections()
    gc.callbacks.append(watcher)
    return watcher


def unwatch(watcher: Collections | None) -> None:
    if watcher is not None and watcher in gc.callbacks:
        gc.callbacks.remove(watcher)


async def watch_loop(collections: Collections | None = None) -> None:
    """Until cancelled: look at the loop every ``TICK``; a late wake is a stall span, and the
    slow collections kept since the last look are sent."""
    while True:
        meant = time.perf_counter_ns() + int(TICK * 1e9)
        await asyncio.sleep(TICK)
        late = time.perf_counter_ns() - meant
        if late >= MIN_STALL * 1e9:
            woke = time.time_ns()
            tracing.interval("event loop stall", woke - late, woke, {}, Context())
        if collections is not None:
            collections.send()
