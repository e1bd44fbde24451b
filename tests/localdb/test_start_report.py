"""A start's phases from Neo4j's console lines and graphmem's own laps (pure)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from graphmem.localdb.start_report import StartReport, add_neo4j_phases, neo4j_phases

pytestmark = pytest.mark.pure

EARLIER_START = """\
2026-12-06 19:00:00.000+0000 INFO  Logging config in use: Embedded default config
2026-12-06 19:00:05.000+0000 INFO  Started.
"""
THIS_START = """\
2026-12-06 19:32:00.400+0000 INFO  Logging config in use: Embedded default config
2026-12-06 19:32:00.430+0000 INFO  Starting...
2026-12-06 19:32:04.000+0000 INFO  ======== Neo4j 5.26.30 ========
2026-12-06 19:32:08.900+0000 INFO  Bolt enabled on localhost:7797.
    a continuation line without a time
2026-12-06 19:32:11.900+0000 INFO  Started.
"""


def at(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S.%f%z").timestamp()


def test_each_phase_ends_at_its_marker_of_this_start() -> None:
    spawned = at("2026-12-06 19:31:59.900+0000")
    phases = neo4j_phases(EARLIER_START + THIS_START, spawned, until=spawned + 60)
    assert [(p.name, p.seconds) for p in phases] == [
        ("jvm", 0.5),
        ("dbms", 3.6),
        ("stores", 4.9),
        ("http", 3.0),
    ]


def test_phases_after_bolt_answered_are_not_counted(tmp_path: Path) -> None:
    console = tmp_path / "console.log"
    console.write_text(EARLIER_START + THIS_START)
    spawned = at("2026-12-06 19:31:59.900+0000")
    report = StartReport(started_at=spawned)
    ready = at("2026-12-06 19:32:09.100+0000")  # Bolt answered before the web server was up
    add_neo4j_phases(report, console, len(EARLIER_START), spawned, ready)
    assert [p.name for p in report.phases] == ["jvm", "dbms", "stores", "bolt"]
    assert report.total == pytest.approx(ready - spawned, abs=0.01)


def test_the_report_round_trips_and_names_its_phases(tmp_path: Path) -> None:
    report = StartReport(started_at=1.0, fresh=True)
    report.add("imports", 2.04)
    report.add("schema", 0.1)
    report.neo4j = neo4j_phases(THIS_START, at("2026-12-06 19:32:00.000+0000"), 1e12)[:1]
    report.neo4j_began = 0.3
    report.save(tmp_path)
    loaded = StartReport.load(tmp_path)
    assert loaded is not None and loaded == report
    assert loaded.line() == "fresh folder: imports 2.0 s, schema 0.1 s; Neo4j from 0.3 s: jvm 0.4 s"
    assert StartReport.load(tmp_path / "nowhere") is None
