"""An echo tool over streamable HTTP, bare or in graphmem's server: bench.speed, bench.peers.

    python -m bench.echo_server bare --port 8101       # FastMCP's defaults, nothing else
    python -m bench.echo_server bare --port 8101 --http h11 --loop asyncio
    python -m bench.echo_server graphmem --port 8102   # graphmem's server and HTTP stack
    python -m bench.echo_server write --port 8103      # a bare server's least durable write

``--http`` and ``--loop`` choose uvicorn's HTTP parser and the event loop of a bare server
(default: what uvicorn and the product pick, httptools and uvloop where installed).

``graphmem`` builds the real server (``create_server``: auth, scopes, readiness, argument
errors, metrics, strict validation, masked errors) on the store the environment names
(NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD), adds the echo tool to it and serves it through the
product's own HTTP path (``serve.serve_http``: body limit, host and origin checks). The echo
tool touches no database, so the difference between the two is graphmem's own layers.

``write`` is the bare server with one more tool, ``write(name, text)``: one auto-commit
statement creating a node on no index (bench/cypher/peers/create_bench_turn), through graphmem's
store (its driver, session and single round trip, as save_memory's), in GRAPHMEM_TENANT. It is
the floor of any write that commits before it answers: no governance, history or index.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Coroutine
from typing import Any

from bench.bare_echo import echo, serve_bare
from bench.harness import BENCH_CATALOG
from graphmem.app import serve
from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from graphmem.store.catalog import QueryCatalog


async def serve_graphmem(port: int) -> None:
    settings = Settings().model_copy(update={"port": port, "host": "127.0.0.1"})
    store = await Store.connect(
        os.environ["NEO4J_URI"], os.environ["NEO4J_USER"], os.environ["NEO4J_PASSWORD"]
    )
    try:
        await store.apply_schema()
        server = create_server(store, settings)
        server.tool(echo)
        await serve.serve_http(server, settings)
    finally:
        await store.close()


async def serve_write(port: int) -> None:
    """The bare echo server plus one durable write per call (the write floor)."""
    store = await Store.connect(
        os.environ["NEO4J_URI"], os.environ["NEO4J_USER"], os.environ["NEO4J_PASSWORD"]
    )
    store.catalog = QueryCatalog(BENCH_CATALOG)
    db = store.of(os.environ["GRAPHMEM_TENANT"])

    async def write(name: str, text: str) -> str:
        """Store the text as one node; answer its name."""
        rows = await db.write_statement("write", "peers/create_bench_turn", turn=name, text=text)
        if not rows:  # a deadlock or lock timeout (none expected: nothing else writes here)
            raise RuntimeError("Neo4j refused the write for now")
        return str(rows[0]["name"])

    try:
        await serve_bare(port, "auto", write)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("kind", choices=("bare", "graphmem", "write"))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--http", choices=("auto", "h11", "httptools"), default="auto")
    parser.add_argument("--loop", choices=("auto", "asyncio", "uvloop"), default="auto")
    args = parser.parse_args()
    if args.kind == "bare":
        serving = serve_bare(args.port, args.http)
        run(serving, args.loop)
    elif args.kind == "write":
        serve.run_event_loop(serve_write(args.port))
    else:
        serve.run_event_loop(serve_graphmem(args.port))


def run(serving: Coroutine[Any, Any, None], loop: str) -> None:
    if loop == "asyncio":
        asyncio.run(serving)
    else:
        serve.run_event_loop(serving)  # uvloop where installed, as the product runs


if __name__ == "__main__":
    main()
