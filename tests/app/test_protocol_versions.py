"""Protocol versions and request shapes the specification settles, over streamable HTTP with
raw JSON-RPC (no client library to smooth them over):

- a legacy ``initialize`` naming a version the server does not speak is answered with the
  newest handshake version it does (the client then decides), never an error;
- a 2026-07-28 request naming an unknown revision gets -32022 with the supported list;
- ``inputResponses``/``requestState`` of the wrong shape are -32602 (the SDK's types let a
  null through; graphmem's guard does not), and the right shape still runs.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from graphmem.app.protocol_guard import malformed
from tests.app.helpers import INITIALIZE_MESSAGE, Answer, HttpServer, clean_env, post, serving_http
from tests.neo4j_endpoint import Endpoint

MODERN = "2026-07-28"
HANDSHAKE_NEWEST = "2025-11-25"


@pytest.fixture(scope="module")
def server(neo4j_endpoint: Endpoint) -> Iterator[HttpServer]:
    env = clean_env(**neo4j_endpoint.env(), GRAPHMEM_TENANT=f"pv-{uuid.uuid4().hex[:10]}")
    with serving_http(env) as served:
        yield served


def envelope(version: str) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "graphmem-tests", "version": "1"},
    }


def modern(
    server: HttpServer, method: str, params: dict[str, Any], version: str = MODERN
) -> Answer:
    """One stateless 2026-07-28 request: its envelope in ``_meta`` and its routing headers."""
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": method,
        "params": {**params, "_meta": envelope(version)},
    }
    headers = {"mcp_protocol_version": version, "mcp_method": method}
    if method == "tools/call":
        headers["mcp_name"] = params["name"]
    return post(server.port, message, **headers)


def test_an_unknown_handshake_version_is_answered_with_one_the_server_speaks(
    server: HttpServer,
) -> None:
    message = {**INITIALIZE_MESSAGE}
    message["params"] = {**message["params"], "protocolVersion": "1999-01-01"}
    answer = post(server.port, message)
    assert answer.status == 200
    assert answer.message()["result"]["protocolVersion"] == HANDSHAKE_NEWEST


@pytest.mark.parametrize("method", ["server/discover", "tools/list"])
def test_an_unknown_revision_is_refused_with_the_supported_ones(
    server: HttpServer, method: str
) -> None:
    answer = modern(server, method, {}, version="2099-01-01")
    assert answer.status == 400
    error = answer.message()["error"]
    assert error["code"] == -32022
    assert MODERN in error["data"]["supported"]


def test_the_newest_revision_is_discovered(server: HttpServer) -> None:
    answer = modern(server, "server/discover", {})
    assert answer.status == 200
    assert MODERN in answer.message()["result"]["supportedVersions"]


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"inputResponses": None}, True),  # the guard's: the SDK's types let null through
        ({"requestState": 5}, True),
        ({"inputResponses": []}, False),  # the SDK's own validation
    ],
)
def test_a_malformed_round_trip_field_is_a_protocol_error(
    server: HttpServer, extra: dict[str, Any], named: bool
) -> None:
    params = {"name": "current_state", "arguments": {"state_key": "k", "project": "p"}}
    answer = modern(server, "tools/call", {**params, **extra})
    assert answer.status == 400
    error = answer.message()["error"]
    assert error["code"] == -32602
    assert (next(iter(extra)) in error["message"]) is named


def test_well_shaped_round_trip_fields_still_run_the_tool(server: HttpServer) -> None:
    params = {"name": "current_state", "arguments": {"state_key": "k", "project": "p"}}
    answer = modern(server, "tools/call", {**params, "inputResponses": {}})
    assert answer.status == 200
    assert answer.message()["result"]["isError"] is False


@pytest.mark.pure
@pytest.mark.parametrize(
    ("params", "problem"),
    [
        (None, None),
        ({}, None),
        ({"inputResponses": {}, "requestState": "s"}, None),
        ({"inputResponses": None}, "inputResponses"),
        ({"requestState": None}, "requestState"),
    ],
)
def test_the_guard_names_the_field(params: dict[str, Any] | None, problem: str | None) -> None:
    found = malformed(params)
    assert (found is None) if problem is None else (found is not None and problem in found)
