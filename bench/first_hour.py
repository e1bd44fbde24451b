"""A newcomer's first call: `graphmem serve` spawned over stdio by the MCP Python SDK, the way an
agent host does, on a machine that never ran graphmem (an empty HOME: no Neo4j jars in the
Maven cache, no embedding model, no data folder), then ``current_state``.

    python -m bench.first_hour [--runs 1] [--keep-jars]

Prints, per run, when the first call answered with a result (or the retryable ``starting``
error, and when a retry first succeeded), the stages the progress notifications named with
their times, the server's own log lines with their times, and the start's phases
(``last-start.json``: java, jars, config, the JVM until Bolt answers, the schema).
``--keep-jars`` keeps one Maven cache across runs (the jars downloaded once): the start
without the download.

The server gets only what the SDK passes a stdio server (HOME, PATH and a few more): like a
client's config with no `env` block. Traffic: Maven Central (the jars, the model), loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import mcp
from mcp.client.stdio import stdio_client

from tests.app.helpers import GRAPHMEM
from tests.neo4j_endpoint import free_port

CALL = ("current_state", {"state_key": "first"})


@contextmanager
def timed_log(began: float, lines: list[tuple[float, str]]) -> Iterator[TextIO]:
    """A file the server writes its stderr to; each line kept with its time since ``began``."""
    read_end, write_end = os.pipe()
    writer = os.fdopen(write_end, "w")

    def pump() -> None:
        with os.fdopen(read_end) as reader:
            for line in reader:
                lines.append((time.perf_counter() - began, line.rstrip()))

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    try:
        yield writer
    finally:
        writer.close()
        thread.join(timeout=5)


async def first_call(home: Path, lines: list[tuple[float, str]]) -> dict[str, object]:
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    env["GRAPHMEM_LOCAL_BOLT_PORT"], env["GRAPHMEM_LOCAL_HTTP_PORT"] = (
        str(free_port()),
        str(free_port()),
    )  # beside this machine's other Neo4js; a fresh folder on taken defaults would choose too
    began = time.perf_counter()
    stages: list[tuple[float, str]] = []

    async def heard(progress: float, total: float | None, message: str | None) -> None:
        if message and (not stages or stages[-1][1] != message):
            stages.append((time.perf_counter() - began, message))

    parameters = mcp.StdioServerParameters(
        command=GRAPHMEM[0], args=[*GRAPHMEM[1:], "serve"], env=env
    )
    result: dict[str, object] = {"stages": stages}
    with timed_log(began, lines) as errlog:
        async with mcp.Client(stdio_client(parameters, errlog=errlog)) as client:
            result["handshake"] = time.perf_counter() - began
            answer = await client.call_tool(*CALL, progress_callback=heard)
            result["first"] = time.perf_counter() - began
            result["first_ok"] = not answer.is_error
            while answer.is_error:
                answer = await client.call_tool(*CALL, progress_callback=heard)
            result["served"] = time.perf_counter() - began
    return result


def phases(home: Path) -> str:
    """The start's phases as the data folder recorded them (localdb/start_report.py)."""
    for report in home.rglob("last-start.json"):
        data = json.loads(report.read_text())
        fresh = "fresh" if data.get("fresh") else "existing"
        listed = ", ".join(f"{p['name']} {p['seconds']:.1f} s" for p in data.get("phases", []))
        return f"{fresh} folder: {listed}"
    return "(no last-start.json)"


def stop_neo4j(home: Path) -> None:
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    subprocess.run([*GRAPHMEM, "neo4j", "stop"], env=env, capture_output=True, timeout=120)


async def one_run(home: Path, m2: Path | None) -> None:
    if m2 is not None:
        (home / ".m2").symlink_to(m2, target_is_directory=True)
    lines: list[tuple[float, str]] = []
    try:
        result = await first_call(home, lines)
    finally:
        stop_neo4j(home)
    verdict = "a result" if result["first_ok"] else "`starting`"
    print(
        f"handshake {result['handshake']:.1f} s; first call {result['first']:.1f} s ({verdict});"
        f" served {result['served']:.1f} s"
    )
    for at, stage in result["stages"]:  # type: ignore[union-attr]
        print(f"  {at:6.1f} s  progress: {stage}")
    for at, line in lines:
        print(f"  {at:6.1f} s  log: {line}")
    print(f"  start phases: {phases(home)}")


async def main(runs: int, keep_jars: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="graphmem-m2-") as shared_m2:
        for run in range(runs):
            with tempfile.TemporaryDirectory(prefix="graphmem-home-") as home:
                print(f"run {run + 1}: HOME {home}" + (" (jars kept)" if keep_jars and run else ""))
                await one_run(Path(home), Path(shared_m2) if keep_jars else None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep-jars", action="store_true")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.runs, arguments.keep_jars))
