"""The calls of bench.concurrency and the load that runs them: N sessions, each calling as fast
as it can for a fixed time, one call at a time per session (as an agent does)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import statistics
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from fastmcp import Client
from fastmcp.client.client import CallToolResult

from bench.cpu import Spent

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


def search(session: int, n: int, text: str) -> Call:
    """A search for what a turn says (its first words), as an agent looks before it writes."""
    del session, n
    query = " ".join(text.split()[:6]) or "memory"
    return "search", {"project": PROJECT, "query": query, "limit": 10}


def current_state(session: int, n: int, text: str) -> Call:
    """The state of a key the session recorded two calls before (mixed: n - 3 is its fact)."""
    del text
    return "current_state", {"project": PROJECT, "state_key": f"agent{session}.turn{n - 3}"}


MIXED: list[Workload] = [save_memory, record_fact, search, archive_turns, current_state]
READS = frozenset({"search", "current_state"})


def mixed(session: int, n: int, text: str) -> Call:
    """An agent's session as the issue names it: it saves, records a fact, searches, archives
    a turn and reads the state it recorded, in turn; each session starts at its own step (N
    agents in step would search all at once, then all archive: not how a team's agents call)."""
    return MIXED[(n + session) % len(MIXED)](session, n + session, text)


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
    behind: float = 0.0  # seconds the servers worked on after the load (bench/cpu.py)
    reads: list[float] = field(default_factory=list[float])  # of a mixed load's reads
    writes: list[float] = field(default_factory=list[float])  # and of its writes

    @property
    def calls(self) -> int:
        return len(self.seconds)

    @property
    def rate(self) -> float:
        return self.calls / self.wall if self.wall else 0.0

    @property
    def settled_rate(self) -> float:
        """Calls a second counting the time the server worked on after the last answer."""
        return self.calls / (self.wall + self.behind) if self.wall else 0.0

    def quantile_ms(self, percent: int, seconds: list[float] | None = None) -> float:
        seconds = self.seconds if seconds is None else seconds
        if len(seconds) < 2:
            return 1000 * seconds[0] if seconds else float("nan")
        return statistics.quantiles(seconds, n=100, method="inclusive")[percent - 1] * 1000

    def took(self, tool: str, seconds: float) -> None:
        self.seconds.append(seconds)
        (self.reads if tool in READS else self.writes).append(seconds)

    def fail(self, why: str) -> None:
        self.errors[why] = self.errors.get(why, 0) + 1


def settle_client_heap() -> None:
    """Before a load: what the client holds so far (its modules, schemas, the sessions) frozen
    out of the collector's reach, as the server does its own (graphmem/app/serve.py). N
    sessions in one process hold far more than one agent's: a full collection walking all of
    it paused every session at once (0.3-0.5 s, in graphmem's slowest calls and the peer's
    alike), a pause of the instrument, not of the server measured."""
    gc.collect()
    gc.freeze()


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
    settle_client_heap()
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
                tally.took(tool, time.perf_counter() - began)

    began = time.perf_counter()
    await asyncio.gather(*(session(i, client) for i, client in enumerate(clients)))
    tally.wall = time.perf_counter() - began
    return tally


def split(tally: Tally) -> str:
    reads, writes = tally.reads, tally.writes
    return (
        f"reads (search, current_state) {len(reads)}: p50 {tally.quantile_ms(50, reads):.1f}"
        f" p99 {tally.quantile_ms(99, reads):.1f} ms; writes {len(writes)}: p50"
        f" {tally.quantile_ms(50, writes):.1f} p99 {tally.quantile_ms(99, writes):.1f} ms"
    )


@contextlib.asynccontextmanager
async def sessions(urls: list[str], n: int) -> AsyncIterator[list[Client[Any]]]:
    """N open client sessions, spread over ``urls``, each having listed the tools as an agent
    does when it attaches (the MCP client lists them on a session's first call otherwise, to
    validate answers: N lists at once charged to the first calls of the load measured)."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(urls[i % len(urls)])) for i in range(n)]
        for client in clients:
            await client.list_tools()
        yield clients


def row(side: str, tool: str, n: int, tally: Tally, spent: Spent) -> str:
    calls = tally.calls
    errors = sum(tally.errors.values())
    cpu = "/".join(f"{spent.per(name, calls):.1f}" for name in ("client", "server", "neo4j"))
    return (
        f"{side:<17} {tool:<16} N={n:<4} {tally.rate:7.1f}/s  p50 {tally.quantile_ms(50):7.1f}"
        f"  p95 {tally.quantile_ms(95):7.1f}  p99 {tally.quantile_ms(99):7.1f} ms"
        f"  errors {errors:<3} CPU ms/call client/server/neo4j {cpu}"
        f"  worked on {tally.behind:.1f} s: {tally.settled_rate:.1f}/s"
    )
