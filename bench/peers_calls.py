"""bench.peers' calls: every turn written and every question asked by each side in a rotating
order, timed one call at a time, inside a scratch tenant with every server up.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from fastmcp import Client
from fastmcp.client.client import CallToolResult
from mcp.shared.exceptions import MCPError

from bench.harness import say, scratch_tenant
from bench.jvm_threads import Watch
from bench.peers_servers import Peer, graphmem_server, peer_floor, peer_server, write_floor
from bench.peers_sides import (
    Call,
    Corpus,
    Question,
    Side,
    Turn,
    echo_side,
    graphmem_side,
    text_of,
    write_floor_side,
)
from bench.speed import echo_server
from graphmem.store import Store
from tests.app.helpers import clean_env
from tests.neo4j_endpoint import Endpoint

EVENT_LIMIT = 1024 * 1024  # the MCP client's largest server-sent event (bytes)


# --- the calls ---------------------------------------------------------------------------------
async def timed(side: Side, call: Call) -> tuple[float, CallToolResult]:
    began = time.perf_counter()
    result = await side.client.call_tool(*call, raise_on_error=False)
    return time.perf_counter() - began, result


async def write(side: Side, turn: Turn) -> None:
    seconds, result = await timed(side, side.write(turn))
    answer = side.read(result)
    if answer is None:
        raise RuntimeError(f"{side.label} could not write {turn.name}: {text_of(result)[:300]}")
    side.tally.writes.append(seconds)
    side.tally.quarantined += bool(answer.get("quarantined"))


async def ask(side: Side, question: Question) -> None:
    began = time.perf_counter()
    try:
        result = await side.client.call_tool(*side.search(question), raise_on_error=False)
    except MCPError as error:  # the client refused the answer
        result = error
    side.tally.searches.append(time.perf_counter() - began)
    side.tally.sizes.append(answer_size(result))
    answer = None if isinstance(result, MCPError) else side.read(result)
    if answer is None:
        side.tally.errors.append(f"{question.text!r}: {failure(result)}")
    side.tally.score(question, side.names(answer) if answer is not None else [])


def answer_size(result: CallToolResult | MCPError) -> int:
    """Characters of the answer's text; one refused for its size counts at the client's limit."""
    if isinstance(result, MCPError):
        return EVENT_LIMIT if "byte limit" in str(result) else 0
    return len(text_of(result))


def failure(result: CallToolResult | MCPError) -> str:
    return str(result) if isinstance(result, MCPError) else text_of(result)[:200]


def in_turn(sides: list[Side], i: int) -> list[Side]:
    """The sides rotated by ``i``: who goes first changes from one call to the next."""
    return sides[i % len(sides) :] + sides[: i % len(sides)]


async def warm_up(sides: list[Side]) -> None:
    """A few untimed searches per side (empty stores), so no figure pays for a cold start."""
    question = Question("conv-0", "locomo-warmup", "What did they talk about?", ("D1:1",))
    for side in sides:
        for _ in range(5):
            await side.client.call_tool(*side.search(question), raise_on_error=False)


async def ingest(sides: list[Side], corpus: Corpus, watch: Watch) -> None:
    """Every turn written by each side, floors included, in a rotating order; the JVMs' CPU
    read at each quarter of the turns."""
    began = time.perf_counter()
    marks = {len(corpus.turns) * q // 4 for q in range(4)}
    for i, turn in enumerate(corpus.turns):
        if i in marks:
            watch.mark()
        for side in in_turn(sides, i):
            await write(side, turn)
    watch.mark()
    say(f"wrote {len(corpus.turns)} turns per side in {time.perf_counter() - began:.0f} s")


async def interrogate(sides: list[Side], corpus: Corpus) -> None:
    began = time.perf_counter()
    for i, question in enumerate(corpus.questions):
        for side in in_turn(sides, i):
            await ask(side, question)
    say(f"asked {len(corpus.questions)} questions per side in {time.perf_counter() - began:.0f} s")


async def tool_list(side: Side) -> str:
    tools = await side.client.list_tools()
    listed = json.dumps([tool.model_dump(mode="json", exclude_none=True) for tool in tools])
    return f"{side.label} {len(tools)} tools ({len(listed):,} characters)"


async def compare(
    corpus: Corpus,
    urls: list[str],
    peers: list[Peer],
    floor_urls: list[str],
    write_floor_urls: list[str],
    watch: Watch,
) -> tuple[list[Side], list[Side], list[Side]]:
    """The sides, their transport floors and their write floors (one of each per side,
    graphmem's first), with their tallies."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(url)) for url in urls]
        builders = [graphmem_side, *(peer.side for peer in peers)]
        sides = [build(client, corpus) for build, client in zip(builders, clients, strict=True)]
        floors = [
            echo_side(f"floor of {side.label}", await stack.enter_async_context(Client(url)))
            for side, url in zip(sides, floor_urls, strict=True)
        ]
        write_floors = [
            write_floor_side(
                f"write floor on {side.label}'s Neo4j", await stack.enter_async_context(Client(url))
            )
            for side, url in zip(sides, write_floor_urls, strict=True)
        ]
        say("tools listed: " + "; ".join([await tool_list(side) for side in sides]))
        await warm_up([*sides, *floors, *write_floors])
        await ingest([*sides, *floors, *write_floors], corpus, watch)
        await interrogate(sides, corpus)
    return sides, floors, write_floors


async def in_scratch_tenant(
    corpus: Corpus,
    ours: Endpoint,
    theirs: list[tuple[Peer, Path, Endpoint]],
    scratch: Path,
    watch: Watch,
) -> tuple[list[Side], list[Side], list[Side]]:
    """All servers up, the comparison run, all servers stopped and graphmem's tenant purged."""
    store = await Store.connect(ours.uri, ours.user, ours.password)
    try:
        await store.apply_schema()
        async with scratch_tenant(store, "peers") as tenant:
            with contextlib.ExitStack() as servers:
                urls = [servers.enter_context(graphmem_server(ours, tenant, scratch / "gm.log"))]
                own_floor = echo_server("bare", clean_env(), scratch / "gm-floor.log")
                floors = [servers.enter_context(own_floor)]
                write_floors = [servers.enter_context(write_floor(ours, tenant, scratch, "gm"))]
                for peer, venv, db in theirs:
                    log = scratch / f"{peer.name}.log"
                    urls.append(servers.enter_context(peer_server(peer, venv, db, log)))
                    floor_log = scratch / f"{peer.name}-floor.log"
                    floors.append(servers.enter_context(peer_floor(venv, floor_log)))
                    floor = write_floor(db, tenant, scratch, peer.name)
                    write_floors.append(servers.enter_context(floor))
                peers = [peer for peer, _, _ in theirs]
                return await compare(corpus, urls, peers, floors, write_floors, watch)
    finally:
        await store.close()
