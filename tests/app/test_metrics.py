"""Tool-call metrics at /metrics and one log line per call (graphmem/app/metrics.py): a real
HTTP server with tokens, calls that succeed and calls refused for several reasons, then the
numbers and the log as an operator reads them."""

from __future__ import annotations

import http.client
import json
import logging
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.metrics import BUCKETS, CallObserver, ToolMetrics, error_code
from graphmem.app.server import create_server
from graphmem.app.tokens import issue_token
from graphmem.core.settings import Settings
from graphmem.store import Store
from graphmem.store.stats import tenant_digest
from tests.app.helpers import HttpServer, clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

_SECRET = "metrics-secret-value"


@dataclass(frozen=True)
class Served:
    server: HttpServer
    stderr: Path
    tenant: str
    writer: str
    reader: str
    admin: str


@pytest.fixture(scope="module")
def served(neo4j_endpoint: Endpoint, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("metrics")
    tokens_file = folder / "tokens.json"
    tenant = f"metrics-{uuid.uuid4().hex[:8]}"
    writer, _ = issue_token(tokens_file, tenant, ["read", "write"], "writer")
    reader, _ = issue_token(tokens_file, tenant, ["read"], "reader")
    admin, _ = issue_token(tokens_file, f"ops-{tenant}", ["admin"], "prometheus")
    env = clean_env(
        **neo4j_endpoint.env(), GRAPHMEM_TOKENS_FILE=str(tokens_file), GRAPHMEM_TOOLSET="full"
    )
    stderr = folder / "stderr"
    with stderr.open("w") as log, serving_http(env, stderr=log) as server:
        yield Served(server, stderr, tenant, writer, reader, admin)


def _get_metrics(port: int, token: str | None) -> tuple[int, str, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        connection.request("GET", "/metrics", headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("content-type") or "", response.read().decode()
    finally:
        connection.close()


def _samples(text: str) -> dict[str, float]:
    """`name{labels} value` lines, keyed by everything before the value."""
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.rpartition(" ")
            found[key] = float(value)
    return found


async def _calls(served: Served) -> None:
    """2 record_fact + 1 current_state that succeed; refusals: a scope, an argument, an
    unknown id, an unknown tool."""
    async with Client(served.server.url, auth=served.writer) as client:
        for value in (1, 2):
            await client.call_tool("record_fact", {"project": "p", "key": "k", "value": value})
        await client.call_tool("current_state", {"state_key": "k", "project": "p"})
        bad = await client.call_tool("current_state", {"project": 7}, raise_on_error=False)
        assert bad.is_error
        unknown = "01a22918-0000-7000-8000-000000000000"
        gone = await client.call_tool(
            "govern_fact", {"fact_id": unknown, "action": "invalidate"}, raise_on_error=False
        )
        assert json.loads(gone.content[0].text)["error"] == "not_found"  # type: ignore[union-attr]
        with pytest.raises(Exception, match="no_such_tool"):
            await client.call_tool("no_such_tool", {})
    async with Client(served.server.url, auth=served.reader) as client:
        arguments = {"project": "p", "key": "k", "value": _SECRET}
        refused = await client.call_tool("record_fact", arguments, raise_on_error=False)
        assert json.loads(refused.content[0].text)["error"] == "permission_denied"  # type: ignore[union-attr]


async def test_metrics_count_calls_errors_and_latency(served: Served) -> None:
    before = _samples(_get_metrics(served.server.port, served.admin)[2])
    await _calls(served)
    status, media_type, text = _get_metrics(served.server.port, served.admin)
    assert status == 200 and media_type.startswith("text/plain; version=0.0.4")
    after = _samples(text)

    def added(sample: str) -> float:  # what the calls above added (other tests call too)
        return after[sample] - before.get(sample, 0)

    calls, errors = "graphmem_tool_calls_total", "graphmem_tool_errors_total"
    assert added(f'{calls}{{tool="record_fact",outcome="ok"}}') == 2
    assert added(f'{calls}{{tool="record_fact",outcome="error"}}') == 1
    assert added(f'{calls}{{tool="current_state",outcome="ok"}}') == 1
    assert added(f'{errors}{{tool="record_fact",code="permission_denied"}}') == 1
    assert added(f'{errors}{{tool="current_state",code="invalid_argument"}}') == 1
    assert added(f'{errors}{{tool="govern_fact",code="not_found"}}') == 1
    assert added(f'{errors}{{tool="_unknown",code="not_found"}}') == 1
    duration = "graphmem_tool_call_duration_seconds"
    buckets = [after[f'{duration}_bucket{{tool="record_fact",le="{b}"}}'] for b in BUCKETS]
    assert buckets == sorted(buckets)  # cumulative
    assert added(f'{duration}_bucket{{tool="record_fact",le="+Inf"}}') == 3
    assert added(f'{duration}_count{{tool="record_fact"}}') == 3
    assert 0 < added(f'{duration}_sum{{tool="record_fact"}}') < 3 * BUCKETS[-1]
    assert after['graphmem_build_info{version="0.1.0"}'] == 1
    assert served.tenant not in text and _SECRET not in text


def test_metrics_need_the_admin_scope(served: Served) -> None:
    status, _, text = _get_metrics(served.server.port, None)
    assert status == 401 and "graphmem_" not in text
    assert _get_metrics(served.server.port, "gm_not-a-token")[0] == 401
    status, _, text = _get_metrics(served.server.port, served.reader)
    assert status == 403 and json.loads(text)["error"] == "permission_denied"
    assert _get_metrics(served.server.port, served.writer)[0] == 403


async def test_one_log_line_per_call_names_the_tenant_by_digest(served: Served) -> None:
    await _calls(served)
    log = served.stderr.read_text()
    lines = [json.loads(line.split(":", 2)[2]) for line in log.splitlines() if "tool_call" in line]
    mine = [line for line in lines if line["tenant"] == tenant_digest(served.tenant)]
    assert len(mine) >= 8  # the calls above (ids: at least once, whatever ran before)
    assert {line["outcome"] for line in mine} >= {
        "ok",
        "invalid_argument",
        "not_found",
        "permission_denied",
    }
    for line in mine:
        assert set(line) == {"event", "tool", "tenant", "duration_ms", "outcome"}
        assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    for secret in (served.tenant, served.writer, served.reader, served.admin, _SECRET):
        assert secret not in log


# --- in process ------------------------------------------------------------------------------
async def test_calls_without_credentials_log_the_default_tenant(
    store: Store, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="graphmem.calls")
    async with Client(create_server(store, settings)) as client:
        await client.call_tool("current_state", {"state_key": "k"})
    [record] = [r for r in caplog.records if r.name == "graphmem.calls"]
    line = json.loads(record.getMessage())
    assert (line["tool"], line["outcome"]) == ("current_state", "ok")
    assert line["tenant"] == tenant_digest(settings.tenant)


async def test_without_credentials_metrics_are_served_as_mcp_is(
    store: Store, settings: Settings
) -> None:
    """No tokens configured: the server binds to loopback only (serve.serve), /mcp asks for no
    credentials there, and neither does /metrics."""
    status, body = await _asgi_get(create_server(store, settings).http_app(), "/metrics")
    assert status == 200 and "# TYPE graphmem_tool_calls_total counter" in body


async def _asgi_get(app: Any, path: str) -> tuple[int, str]:
    """One GET through the ASGI app, in process (no lifespan: a plain route needs none)."""
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1:8000")],
        "http_version": "1.1",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
        "root_path": "",
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], body.decode()


def test_error_codes_come_from_the_payload() -> None:
    from fastmcp.exceptions import NotFoundError, ToolError

    assert error_code(ToolError('{"error": "conflict", "message": "m"}')) == "conflict"
    assert error_code(ToolError("Error calling tool 'x'")) == "internal"  # masked bug
    assert error_code(ToolError('{"error": "Not A Code"}')) == "internal"
    assert error_code(NotFoundError("Unknown tool")) == "not_found"
    assert error_code(RuntimeError("boom")) == "internal"


def test_the_exposition_format() -> None:
    metrics = ToolMetrics()
    metrics.record("t", None, 0.003)
    metrics.record("t", "timed_out", 99.0)
    text = metrics.exposition()
    assert 'graphmem_tool_call_duration_seconds_bucket{tool="t",le="0.0025"} 0' in text
    assert 'graphmem_tool_call_duration_seconds_bucket{tool="t",le="0.005"} 1' in text
    assert 'graphmem_tool_call_duration_seconds_bucket{tool="t",le="30.0"} 1' in text
    assert 'graphmem_tool_call_duration_seconds_bucket{tool="t",le="+Inf"} 2' in text
    assert 'graphmem_tool_errors_total{tool="t",code="timed_out"} 1' in text
    assert text.endswith("\n")
    families = re.findall(r"^# TYPE (\S+) (\S+)$", text, re.MULTILINE)
    assert families == [
        ("graphmem_build_info", "gauge"),
        ("graphmem_tool_calls_total", "counter"),
        ("graphmem_tool_errors_total", "counter"),
        ("graphmem_tool_call_duration_seconds", "histogram"),
    ]


def test_unknown_tool_names_share_one_label() -> None:
    metrics = ToolMetrics()
    observer = CallObserver(metrics, ["record_fact"], lambda: "t")
    observer._observe("x" * 500, "not_found", 0.0)
    observer._observe("other", "not_found", 0.0)
    assert metrics.errors == {("_unknown", "not_found"): 2}
