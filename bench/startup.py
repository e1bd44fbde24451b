"""First contact on a fresh machine: `graphmem serve` (stdio) to the first tool call answered
with a result, on a fresh data folder (the Neo4j jars cached, no stores yet) and on an
existing one (stores there, Neo4j stopped), with each start phase's time.

    python -m bench.startup [--runs 5] [--source DIR]

Each run takes a new folder: a fresh start, then `graphmem neo4j stop` and an existing-folder
start. The agent calls `current_state` right after the handshake with a progress token and
the default wait (GRAPHMEM_START_WAIT), as an agent host would. Printed per case: the median
and spread of spawn-to-handshake, spawn-to-first-answer, the progress notifications heard,
and of every phase graphmem recorded in the folder's last-start.json (localdb/start_report.py).
`--source DIR` runs another checkout (PYTHONPATH ahead of the editable install), for a
before/after comparison on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

import mcp
from mcp.client.stdio import stdio_client

from bench.first_contact import folder_env as first_contact_env
from graphmem.localdb.start_report import StartReport
from tests.app.helpers import GRAPHMEM, run_cli

CASES = ("fresh", "existing")


def folder_env(data: Path, source: str | None) -> dict[str, str]:
    """bench.first_contact's environment, with the default wait (an agent host sets none)."""
    env = first_contact_env(data, source)
    env.pop("GRAPHMEM_START_WAIT")
    return env


async def first_contact(env: dict[str, str], log: TextIO) -> dict[str, float]:
    source = env.get("PYTHONPATH")
    """Spawn, handshake, one current_state: the times from the spawn, and what it heard."""
    heard: list[str] = []

    async def progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append(message or "")

    parameters = mcp.StdioServerParameters(
        command=sys.executable, args=[*GRAPHMEM[1:], "serve"], env=env, cwd=source
    )
    began = time.perf_counter()
    async with mcp.Client(stdio_client(parameters, errlog=log)) as client:
        handshake = time.perf_counter() - began
        result = await client.call_tool(
            "current_state", {"state_key": "k"}, progress_callback=progress
        )
        answered = time.perf_counter() - began
    if result.is_error:
        raise RuntimeError(f"the first call failed: {result.content}")
    return {"handshake": handshake, "first answer": answered, "progress heard": len(heard)}


def phases(data: Path) -> dict[str, float]:
    """The start's phases as graphmem recorded them (none from a checkout that does not)."""
    report = StartReport.load(data)
    if report is None:
        return {}
    return {phase.name: phase.seconds for phase in [*report.phases, *report.neo4j]}


async def one_run(source: str | None, log: TextIO) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "data"
        env = folder_env(data, source)
        measured: dict[str, dict[str, float]] = {}
        try:
            for case in CASES:
                if case == "existing":
                    run_cli("neo4j", "stop", env=env)
                contact = await first_contact(env, log)
                measured[case] = {**contact, **phases(data)}
        finally:
            run_cli("neo4j", "stop", env=env)
    return measured


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):7.2f} ({min(values):.2f}-{max(values):.2f})"


def show(case: str, runs: list[dict[str, dict[str, float]]]) -> None:
    rows: dict[str, list[float]] = {}
    for run in runs:
        for name, value in run[case].items():
            rows.setdefault(name, []).append(value)
    print(f"\n{case} folder, {len(runs)} runs: median (min-max), seconds")
    for name, values in rows.items():
        print(f"  {name:<18}{spread(values)}")


async def main(runs: int, source: str | None, log: TextIO) -> None:
    print(f"graphmem serve (stdio) to the first answer; cores: {os.cpu_count()}")
    measured: list[dict[str, Any]] = []
    for index in range(runs):
        measured.append(await one_run(source, log))
        summary = ", ".join(f"{c} {measured[-1][c]['first answer']:.1f} s" for c in CASES)
        print(f"run {index + 1}: {summary}", flush=True)
    for case in CASES:
        show(case, measured)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--source", help="another checkout to measure instead")
    parser.add_argument("--log", help="keep the servers' stderr in this file")
    arguments = parser.parse_args()
    source = str(Path(arguments.source).resolve()) if arguments.source else None
    with open(arguments.log or os.devnull, "w") as server_log:
        asyncio.run(main(arguments.runs, source, server_log))
