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
from typing import Any

from opentelemetry.context import Context

from graphmem.core import tracing

MIN_GC = 1_000_000  # nanoseconds
MIN_STALL = 0.02  # seconds
TICK = 0.01  # seconds between two looks at the loop


class Collections:
    """A ``gc.callbacks`` entry: each collection timed, the slow ones sent as spans."""

    def __init__(self) -> None:
        self.began = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.began = time.time_ns()
            return
        ended = time.time_ns()
        if not self.began or ended - self.began < MIN_GC:
            return
        attributes = {
            "graphmem.gc.generation": int(info.get("generation", -1)),
            "graphmem.gc.collected": int(info.get("collected", 0)),
        }
        tracing.interval("python gc", self.began, ended, attributes, Context())


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


async def watch_loop() -> None:
    """Until cancelled: look at the loop every ``TICK``; a late wake is a stall span."""
    while True:
        meant = time.time_ns() + int(TICK * 1e9)
        await asyncio.sleep(TICK)
        woke = time.time_ns()
        if woke - meant >= MIN_STALL * 1e9:
            tracing.interval("event loop stall", meant, woke, {}, Context())
