"""The calls of bench.concurrency and the load that runs them: N sessions, each calling as fast
as it can for a fixed time, one call at a time per session (as an agent does)."""

from __future__ import annotations

import asyncio
import itertools
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from fastmcp import Client
from fastmcp.client.client import CallToolResult

PROJECT = "concurrency"
Call = tuple[str, dict[str, Any]]
# (session index, call index in the session, a LoCoMo turn's text) -> the call
Workload = Callable[[int, int, str], Call]
# a call's arguments and its answer (None: the transport failed), for a load that checks them
Judge = Callable[[dict[str, Any], CallToolResult | None], None]
START = datetime(2026, 1, 1, tzinfo=UTC)


def save_memory(session: int, n: int, text: str) -> Call:
    return "save_memory", {"project": PROJECT, "title": f"s{session} turn {n}", "content": text}


def record_fact(session: int, n: int, text: str) -> Call:
    key = f"agent{session}.turn{n}"
    return "record_fact", {"project": PROJECT, "key": key, "value": text}


def record_decision(session: int, n: int, text: str) -> Call:
    title = f"s{session} decision {n}"
    return "record_decision", {"project": PROJECT, "title": title, "choice": text[:500]}


def archive_turns(session: int, n: int, text: str) -> Call:
    turn = {"role": "user", "content": text, "ts": (START + timedelta(seconds=n)).isoformat()}
    return "archive_turns", {
        "project": PROJECT,
        "session_ref": f"agent-{session}",
        "host": "bench",
        "source_root": "bench",
        "turns": [turn],
    }


def mixed(session: int, n: int, text: str) -> Call:
    """An agent's session: four writes of each kind, then a read of what it knows."""
    steps: list[Workload] = [save_memory, record_fact, record_decision, archive_turns]
    if n % 5 == 4:
        return "current_state", {"project": PROJECT, "state_key": f"agent{session}.turn{n - 3}"}
    return steps[n % 5](session, n, text)


def create_entities(session: int, n: int, text: str) -> Call:
    """mcp-neo4j-memory's write of a turn (as bench.peers writes one)."""
    entity = {"name": f"s{session} turn {n}", "type": "dialog_turn", "observations": [text]}
    return "create_entities", {"entities": [entity]}


OURS: dict[str, Workload] = {
    "save_memory": save_memory,
    "record_fact": record_fact,
    "record_decision": record_decision,
    "archive_turns": archive_turns,
    "mixed session": mixed,
}


@dataclass
class Tally:
    """One load's calls: each call's seconds, and the failures by first line."""

    seconds: list[float] = field(default_factory=list[float])
    errors: dict[str, int] = field(default_factory=dict[str, int])
    wall: float = 0.0

    @property
    def calls(self) -> int:
        return len(self.seconds)

    @property
    def rate(self) -> float:
        return self.calls / self.wall if self.wall else 0.0

    def quantile_ms(self, percent: int) -> float:
        if len(self.seconds) < 2:
            return 1000 * self.seconds[0] if self.seconds else float("nan")
        return statistics.quantiles(self.seconds, n=100, method="inclusive")[percent - 1] * 1000

    def fail(self, why: str) -> None:
        self.errors[why] = self.errors.get(why, 0) + 1


async def run_load(
    clients: list[Client[Any]],
    workload: Workload,
    texts: list[str],
    seconds: float,
    first: int,
    judge: Judge | None = None,
) -> Tally:
    """Every client calls ``workload`` back to back for ``seconds``; call numbers start at
    ``first`` (distinct keys and titles across loads). Failed calls count apart; ``judge``
    hears of every answer."""
    tally = Tally()
    deadline = time.perf_counter() + seconds
    turns = itertools.count()

    async def session(index: int, client: Client[Any]) -> None:
        n = first
        while time.perf_counter() < deadline:
            tool, arguments = workload(index, n, texts[next(turns) % len(texts)])
            n += 1
            began = time.perf_counter()
            try:
                result = await client.call_tool(tool, arguments, raise_on_error=False)
            except Exception as error:  # a transport failure is a failed call, counted
                tally.fail(f"{tool}: {type(error).__name__}")
                result = None
            if judge is not None:
                judge(arguments, result)
            if result is None:
                continue
            if result.is_error:
                text = getattr(result.content[0], "text", "") if result.content else ""
                tally.fail(f"{tool}: {text[:120]}")
            else:
                tally.seconds.append(time.perf_counter() - began)

    began = time.perf_counter()
    await asyncio.gather(*(session(i, client) for i, client in enumerate(clients)))
    tally.wall = time.perf_counter() - began
    return tally
