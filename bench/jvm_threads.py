"""What a managed local Neo4j's JVM spends its CPU on, by kind of thread (Linux /proc only).

bench.peers prints it per quarter of the writes: on two cores, a cold JVM's JIT compiler
threads compete with every call, and the Bolt workers' time is what the statements cost.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

PROC = Path("/proc")
KINDS = (("JIT", ("C1 CompilerThre", "C2 CompilerThre")), ("Bolt", ("neo4j.BoltWorke",)))


def jvm_of(data_dir: Path) -> int | None:
    """The pid of the Neo4j server JVM whose configuration lives in ``data_dir`` (the
    launcher's JVMs are not it: the server's is the one with a heap setting)."""
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


def cpu_by_kind(pid: int) -> dict[str, float]:
    """Seconds of CPU (user and system) each kind of thread of ``pid`` has used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    seconds: dict[str, float] = defaultdict(float)
    for task in (PROC / str(pid) / "task").glob("*"):
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended
        seconds[kind_of(name)] += (int(fields[11]) + int(fields[12])) / tick
    return seconds


def spent(before: dict[str, float], after: dict[str, float]) -> str:
    """'JIT 12.1 s, Bolt 7.5 s, other 1.0 s' between two readings."""
    kinds = [kind for kind, _ in KINDS] + ["other"]
    return ", ".join(
        f"{kind} {after.get(kind, 0.0) - before.get(kind, 0.0):.1f} s" for kind in kinds
    )


class Watch:
    """Readings of some JVMs' CPU by kind, taken at marks (JVMs not found are left out)."""

    def __init__(self, jvms: dict[str, int | None]) -> None:
        self.jvms = {label: pid for label, pid in jvms.items() if pid is not None}
        self.readings: list[dict[str, dict[str, float]]] = []

    def mark(self) -> None:
        self.readings.append({label: cpu_by_kind(pid) for label, pid in self.jvms.items()})

    def lines(self) -> list[str]:
        """Per JVM, what it spent between consecutive marks."""
        return [
            f"  {label}'s Neo4j: "
            + " / ".join(
                spent(before[label], after[label])
                for before, after in zip(self.readings, self.readings[1:], strict=False)
            )
            for label in self.jvms
        ]
