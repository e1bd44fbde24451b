"""A bare FastMCP server with one echo tool over streamable HTTP: the transport floor.

    python bench/bare_echo.py --port 8101 [--http h11]

It imports nothing but FastMCP, so any environment holding FastMCP 2.x or later runs it:
bench.speed serves it from graphmem's, bench.peers also from each peer's (each server stack's
own floor, through the same client).
"""

from __future__ import annotations

import argparse
import asyncio
import warnings
from collections.abc import Callable
from typing import Any


def echo(text: str) -> str:
    """Return the text."""
    return text


async def serve_bare(port: int, http: str = "auto", *more: Callable[..., Any]) -> None:
    """The echo tool (and ``more`` tools) on FastMCP's streamable HTTP, on loopback."""
    from fastmcp import FastMCP

    server = FastMCP(name="echo")
    for tool in (echo, *more):
        server.tool(tool)
    await server.run_http_async(
        show_banner=False,
        host="127.0.0.1",
        port=port,
        path="/mcp",
        log_level="warning",
        uvicorn_config={"access_log": False, "http": http},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--http", choices=("auto", "h11", "httptools"), default="auto")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", category=DeprecationWarning)  # an older stack's notices
    asyncio.run(serve_bare(args.port, args.http))


if __name__ == "__main__":
    main()
