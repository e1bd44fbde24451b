"""Where a start's time went, phase by phase: said in the start-up log and kept in
``<data_dir>/last-start.json`` for ``graphmem doctor``, so a slow start can be explained.

graphmem times its own phases (Java, jars, configuration, the first password, the wait for
Bolt; then the server's connection, schema and embeddings model). Inside the Neo4j process
the phases come from its console log, whose lines carry their own timestamps:

- ``jvm``: from the spawn to Neo4j's first log line (the JVM starts, loads its classes);
- ``dbms``: to the version banner (configuration, the DBMS and its components);
- ``stores``: to "Bolt enabled" (the system and neo4j databases created or recovered);
- ``http``: to "Started." (the web server and the Browser), while Bolt already answers.
"""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel

REPORT_FILE = "last-start.json"
# (phase, the console line that ends it)
NEO4J_MARKERS = (
    ("jvm", "Logging config in use"),
    ("dbms", "======== Neo4j"),
    ("stores", "Bolt enabled"),
    ("http", "Started."),
)


class Phase(BaseModel):
    name: str
    seconds: float


class StartReport(BaseModel):
    """One start's phases, in order; ``fresh``: the data folder had no stores yet. A
    server's report also holds the managed Neo4j's phases, which ran alongside its own from
    ``neo4j_began`` (seconds after the server's process began)."""

    started_at: float
    fresh: bool = False
    phases: list[Phase] = []
    neo4j: list[Phase] = []
    neo4j_began: float | None = None

    def add(self, name: str, seconds: float) -> None:
        self.phases.append(Phase(name=name, seconds=round(seconds, 3)))

    @property
    def total(self) -> float:
        return sum(phase.seconds for phase in self.phases)

    def line(self) -> str:
        text = f"{'fresh' if self.fresh else 'existing'} folder: {_listed(self.phases)}"
        if self.neo4j:
            text += f"; Neo4j from {self.neo4j_began or 0.0:.1f} s: {_listed(self.neo4j)}"
        return text

    def save(self, data_dir: Path) -> None:
        (data_dir / REPORT_FILE).write_text(self.model_dump_json(indent=1))

    @staticmethod
    def load(data_dir: Path) -> StartReport | None:
        try:
            return StartReport.model_validate_json((data_dir / REPORT_FILE).read_text())
        except (OSError, ValueError):
            return None


def _listed(phases: list[Phase]) -> str:
    return ", ".join(f"{phase.name} {phase.seconds:.1f} s" for phase in phases)


class Stopwatch:
    """Laps into a report: each ``lap`` records the time since the previous one."""

    def __init__(self, report: StartReport) -> None:
        self.report = report
        self._last = time.monotonic()

    def lap(self, name: str) -> None:
        now = time.monotonic()
        self.report.add(name, now - self._last)
        self._last = now


def add_neo4j_phases(
    report: StartReport, console: Path, offset: int, spawned_at: float, ready_at: float
) -> None:
    """The Neo4j process's phases (from what it wrote to ``console`` past ``offset``) up to
    the moment Bolt answered (``ready_at``), and that last stretch as ``bolt``."""
    try:
        with console.open("rb") as handle:
            handle.seek(offset)
            text = handle.read().decode(errors="replace")
    except OSError:
        text = ""
    phases = neo4j_phases(text, spawned_at, ready_at)
    report.phases += phases
    report.add("bolt", ready_at - spawned_at - sum(phase.seconds for phase in phases))


def neo4j_phases(console: str, spawned_at: float, until: float) -> list[Phase]:
    """Each phase until its marker line (epoch seconds in the line itself), from
    ``spawned_at``; a marker missing or past ``until`` ends the list."""
    phases: list[Phase] = []
    previous = spawned_at
    stamped = [(stamp, line) for line in console.splitlines() if (stamp := _stamp(line))]
    for name, marker in NEO4J_MARKERS:
        at = next((s for s, line in stamped if marker in line and s >= spawned_at), None)
        if at is None or at > until:
            break
        phases.append(Phase(name=name, seconds=round(at - previous, 3)))
        previous = at
    return phases


def _stamp(line: str) -> float | None:
    """A console line's own time: ``2026-12-06 19:32:00.401+0000 INFO ...``."""
    try:
        return datetime.strptime(line[:28], "%Y-%m-%d %H:%M:%S.%f%z").timestamp()
    except ValueError:
        return None
