"""Auth overhead: a tool call over HTTP with a bearer token vs the same call without one.

    python -m bench.auth

Two `graphmem serve --transport http` processes on one Neo4j (NEO4J_URI, else a managed local
one): one with a tokens file, one on loopback without credentials. current_state is called
alternately on both (one MCP session each) so machine noise hits both alike.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from fastmcp import Client

from graphmem.app.tokens import issue_token
from tests.app.helpers import clean_env, serving_http
from tests.neo4j_endpoint import find_endpoint

SAMPLES = 300


async def not_found_timing(
    url: str, token: str, foreign_id: str
) -> tuple[list[float], list[float]]:
    """govern_fact on another tenant's fact id vs on an id that never existed."""
    foreign: list[float] = []
    missing: list[float] = []
    async with Client(url, auth=token) as client:
        for index in range(SAMPLES):
            for fact_id, sink in ((foreign_id, foreign), (f"never-{index:06d}", missing)):
                began = time.perf_counter()
                await client.call_tool(
                    "govern_fact",
                    {"fact_id": fact_id, "action": "invalidate"},
                    raise_on_error=False,
                )
                sink.append((time.perf_counter() - began) * 1000)
    return foreign, missing


async def measure(open_url: str, auth_url: str, token: str) -> tuple[list[float], list[float]]:
    plain: list[float] = []
    authed: list[float] = []
    async with Client(open_url) as open_client, Client(auth_url, auth=token) as auth_client:
        for client in (open_client, auth_client):  # warm-up
            for _ in range(20):
                await client.call_tool("current_state", {"state_key": "k"})
        for _ in range(SAMPLES):
            for client, sink in ((open_client, plain), (auth_client, authed)):
                began = time.perf_counter()
                await client.call_tool("current_state", {"state_key": "k"})
                sink.append((time.perf_counter() - began) * 1000)
    return plain, authed


async def foreign_and_missing(
    url: str, token: str, other_token: str
) -> tuple[list[float], list[float]]:
    async with Client(url, auth=other_token) as other:
        written = await other.call_tool("record_fact", {"project": "p", "key": "k", "value": 1})
    assert written.structured_content is not None
    return await not_found_timing(url, token, written.structured_content["id"])


def p(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1]


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        tenant = f"bench-auth-{uuid.uuid4().hex[:8]}"
        tokens = Path(scratch) / "tokens.json"
        token, _ = issue_token(tokens, tenant, ["read", "write"])
        other_token, _ = issue_token(tokens, tenant + "-other", ["read", "write"])
        base = clean_env(**endpoint.env(), GRAPHMEM_TENANT=tenant)
        with (
            serving_http(base) as open_server,
            serving_http({**base, "GRAPHMEM_TOKENS_FILE": str(tokens)}) as auth_server,
        ):
            plain, authed = asyncio.run(measure(open_server.url, auth_server.url, token))
            foreign, missing = asyncio.run(foreign_and_missing(auth_server.url, token, other_token))
        for name, values in (("no credentials", plain), ("bearer token", authed)):
            print(f"{name}: p50 {p(values, 50):.2f} ms, p95 {p(values, 95):.2f} ms (n={SAMPLES})")
        print(
            f"auth overhead: p50 ratio {p(authed, 50) / p(plain, 50):.3f}, "
            f"p95 ratio {p(authed, 95) / p(plain, 95):.3f}"
        )
        print(
            f"not_found for another tenant's fact id: p50 {p(foreign, 50):.2f} ms; for an id "
            f"that never existed: p50 {p(missing, 50):.2f} ms; ratio "
            f"{p(foreign, 50) / p(missing, 50):.3f}"
        )


if __name__ == "__main__":
    main()
