"""The server's side of a start's phases (localdb/start_report.py has the managed Neo4j's):
its imports, the database, the connection, the schema and the vector check; one log line,
and with the managed Neo4j the whole start in ``last-start.json`` for ``graphmem doctor``."""

from __future__ import annotations

import os
import time
from pathlib import Path

from graphmem.console.terminal import say
from graphmem.core.settings import Settings
from graphmem.localdb.start_report import StartReport, Stopwatch


def process_age() -> float | None:
    """Seconds since this process began (Linux /proc; None elsewhere): what the imports and
    the server's assembly took before the first phase is timed."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        began_ticks = int(fields[19])  # field 22, counted after the command's closing ")"
        boot = next(
            int(line.split()[1])
            for line in Path("/proc/stat").read_text().splitlines()
            if line.startswith("btime")
        )
    except (OSError, ValueError, IndexError, StopIteration):
        return None
    return time.time() - (boot + began_ticks / os.sysconf("SC_CLK_TCK"))


def server_stopwatch() -> Stopwatch:
    """Started now; its first phase is the process's life so far (imports, assembly)."""
    age = process_age()
    report = StartReport(started_at=time.time() - (age or 0.0))
    if age is not None:
        report.add("imports", age)
    return Stopwatch(report)


def record_server_start(settings: Settings, server: StartReport) -> None:
    """Log the phases; with a managed Neo4j started for this server, its phases too (they
    ran alongside the server's own), and the whole start into the data folder."""
    data_dir = settings.data_dir.expanduser()
    local = StartReport.load(data_dir) if settings.uses_local_database else None
    if local is not None and local.neo4j == [] and local.started_at >= server.started_at:
        server.fresh = local.fresh
        server.neo4j = local.phases
        server.neo4j_began = round(local.started_at - server.started_at, 3)
        server.save(data_dir)
    say(f"ready {server.total:.1f} s after the process began: {server.line()}")
