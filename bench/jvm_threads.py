"""What a managed local Neo4j's JVM spends its CPU on, by kind of thread (Linux /proc only).

bench.peers prints it per quarter of the writes: on two cores, a cold JVM's JIT compiler
threads compete with every call, and the Bolt workers' time is what the statements cost.
HotSpot starts and stops compiler threads as its queue grows and shrinks; the CPU of a thread
that ended between two readings is known only as part of the process's total, so it is shown
apart ("ended").
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

PROC = Path("/proc")
KINDS = (("JIT", ("C1 CompilerThre", "C2 CompilerThre")), ("Bolt", ("neo4j.BoltWorke",)))


def jvm_of(data_dir: Path) -> int | None:
    """The pid of the Neo4j server JVM whose configuration lives in ``data_dir`` (the
    launcher's JVMs are not it: the server's is the one with a heap setting); None where
    there is no such process or no /proc."""
    needle = f"{data_dir}/conf".encode()
    for entry in PROC.glob("[0-9]*"):
        try:
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if needle in command and b"-Xmx" in command:
            return int(entry.name)
    return None


def kind_of(thread_name: str) -> str:
    for kind, prefixes in KINDS:
        if thread_name.startswith(prefixes):
            return kind
    return "other"


def _cpu_seconds(stat: str) -> float:
    """User plus system time from a /proc stat line (fields after the command name)."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Reading:
    """A JVM's CPU seconds so far: the whole process (ended threads included) and per live
    thread, with the thread's kind."""

    total: float
    threads: dict[str, tuple[str, float]] = field(default_factory=dict)


def read_cpu(pid: int) -> Reading:
    threads: dict[str, tuple[str, float]] = {}
    for task in (PROC / str(pid) / "task").glob("*"):
        try:
            name = (task / "comm").read_text().strip()
            threads[task.name] = (kind_of(name), _cpu_seconds((task / "stat").read_text()))
        except OSError:
            continue  # the thread ended
    try:
        total = _cpu_seconds((PROC / str(pid) / "stat").read_text())
    except OSError:
        total = sum(seconds for _, seconds in threads.values())
    return Reading(total, threads)


def spent(before: Reading, after: Reading) -> str:
    """'JIT 12.1 s, Bolt 7.5 s, other 1.0 s, ended 0.2 s' between two readings."""
    by_kind = {kind: 0.0 for kind, _ in KINDS} | {"other": 0.0}
    for tid, (kind, seconds) in after.threads.items():
        by_kind[kind] += seconds - before.threads.get(tid, (kind, 0.0))[1]
    ended = max(0.0, after.total - before.total - sum(by_kind.values()))
    return ", ".join(f"{kind} {seconds:.1f} s" for kind, seconds in by_kind.items()) + (
        f", ended {ended:.1f} s"
    )


class Watch:
    """Readings of some JVMs' CPU, taken at marks (JVMs not found are left out)."""

    def __init__(self, jvms: dict[str, int | None]) -> None:
        self.jvms = {label: pid for label, pid in jvms.items() if pid is not None}
        self.readings: list[dict[str, Reading]] = []

    def mark(self) -> None:
        self.readings.append({label: read_cpu(pid) for label, pid in self.jvms.items()})

    def lines(self) -> list[str]:
        """Per JVM, what it spent between consecutive marks."""
        return [
            f"  {label}'s Neo4j: "
            + " / ".join(spent(a[label], b[label]) for a, b in pairwise(self.readings))
            for label in self.jvms
        ]


def cpu_by_thread_name(pid: int) -> dict[str, float]:
    """CPU seconds per thread name (pool numbers dropped: ``neo4j.BoltWorker-12`` counts as
    ``neo4j.BoltWorker``), live threads only."""
    totals: dict[str, float] = {}
    for task in (PROC / str(pid) / "task").glob("*"):
        try:
            name = (task / "comm").read_text().strip().rstrip("0123456789-#").strip()
            seconds = _cpu_seconds((task / "stat").read_text())
        except OSError:
            continue  # the thread ended
        totals[name] = totals.get(name, 0.0) + seconds
    return totals


def busiest(before: dict[str, float], after: dict[str, float], wall: float, top: int) -> str:
    """The ``top`` thread names by CPU between two readings, as percent of one core."""
    used = {name: seconds - before.get(name, 0.0) for name, seconds in after.items()}
    ranked = sorted(used.items(), key=lambda item: -item[1])[:top]
    return ", ".join(f"{name} {100 * seconds / wall:.1f}%" for name, seconds in ranked)
