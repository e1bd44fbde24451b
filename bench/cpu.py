"""CPU seconds of processes around a load, from /proc through psutil.

A ``Meter`` reads each watched process (and its children: a server started through a wrapper
counts whole) before and after a load; ``spent`` is the CPU seconds each used in between, and
``share`` the fraction of one core over the wall time. On two cores a write's cost is CPU, so
the benches divide a load's CPU by its writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import psutil


def cpu_seconds(pid: int, children: bool = True) -> float:
    """User plus system seconds of ``pid`` and (unless told not to) its live children; 0 when
    it is gone. The bench's own process is read alone: the servers it started are its
    children."""
    try:
        process = psutil.Process(pid)
        total = sum(process.cpu_times()[:2])
        for child in process.children(recursive=True) if children else []:
            with contextlib.suppress(psutil.Error):
                total += sum(child.cpu_times()[:2])
        return total
    except psutil.Error:
        return 0.0


@dataclass
class Spent:
    """What each watched process used over ``wall`` seconds."""

    wall: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict[str, float])

    def share(self, name: str) -> float:
        """Percent of one core."""
        return 100 * self.cpu.get(name, 0.0) / self.wall if self.wall else 0.0

    def per(self, name: str, count: int) -> float:
        """Milliseconds of CPU per unit of work."""
        return 1000 * self.cpu.get(name, 0.0) / count if count else float("nan")


@dataclass(frozen=True)
class Meter:
    """Named processes to watch: a name maps to one or more pids (summed)."""

    pids: dict[str, tuple[int, ...]]

    def read(self) -> dict[str, float]:
        me = os.getpid()
        return {
            name: sum(cpu_seconds(pid, children=pid != me) for pid in pids)
            for name, pids in self.pids.items()
        }

    @contextlib.contextmanager
    def around(self) -> Iterator[Spent]:
        """The CPU each process spends inside the block (filled in when it ends)."""
        spent = Spent()
        before, began = self.read(), time.perf_counter()
        try:
            yield spent
        finally:
            after = self.read()
            spent.wall = time.perf_counter() - began
            spent.cpu = {name: after[name] - before[name] for name in after}


async def until_quiet(
    meter: Meter,
    names: tuple[str, ...],
    *,
    below: float = 0.1,
    window: float = 1.2,
    most: float = 30.0,
) -> float:
    """Wait until the ``names`` processes together use less than ``below`` of one core over
    ``window`` seconds (or ``most`` seconds have passed); the seconds they worked before that
    quiet window. After a load, a server's work behind its answers (search fields, the subjects
    pass, which starts a second after a write) is still running: the next load must not start
    inside it (its first calls would wait it out), and a load's rate counts it."""
    began = time.perf_counter()
    while time.perf_counter() - began < most:
        before = meter.read()
        await asyncio.sleep(window)
        after = meter.read()
        if sum(after[name] - before[name] for name in names) < below * window:
            return max(time.perf_counter() - began - window, 0.0)
    return time.perf_counter() - began
