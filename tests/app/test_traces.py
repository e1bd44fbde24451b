"""Traces end to end: `graphmem serve --transport http` with the standard OTEL_* variables
exports over OTLP/HTTP to a receiver this test runs on loopback; the spans are decoded from
the protobuf that arrived and their tree asserted. The caller's W3C trace context continues
through graphmem from a request's ``_meta`` and from its HTTP header; a malformed one is
ignored; a caller's sampled flag decides nothing (``-00`` is traced all the same). No span
carries the tenant's name or an argument's value; the tenant's digest is keyed (HMAC under a
key derived from the history key), not the logs' plain hash."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from graphmem.app.tracing_setup import trace_digest_key, trace_tenant
from graphmem.core import tracing
from graphmem.core.keys import load
from graphmem.store.stats import tenant_digest
from tests.app.helpers import clean_env, serving_http
from tests.app.otlp_receiver import Received, otlp_receiver
from tests.neo4j_endpoint import Endpoint

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
HEADER_TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
UNSAMPLED_TRACE_ID = "5c3d1e9a7b2f4e6d8a0b1c2d3e4f5a6b"
SECRET_VALUE = "zebra-violet-4711"  # an argument value no span may carry


def attributes(span: Span) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for attribute in span.attributes:
        value = attribute.value
        out[attribute.key] = getattr(value, value.WhichOneof("value") or "string_value")
    return out


def tool_span(spans: list[Span], tool: str, trace_id: str | None = None) -> Span:
    found = [
        s
        for s in spans
        if attributes(s).get("gen_ai.tool.name") == tool
        and (trace_id is None or s.trace_id.hex() == trace_id)
    ]
    assert len(found) == 1, [s.name for s in spans]
    return found[0]


def descendants(spans: list[Span], root: Span) -> list[Span]:
    """Spans under ``root``, by parent links within its trace."""
    by_parent: dict[bytes, list[Span]] = {}
    for span in spans:
        if span.trace_id == root.trace_id:
            by_parent.setdefault(span.parent_span_id, []).append(span)
    found, frontier = [], [root.span_id]
    while frontier:
        children = by_parent.get(frontier.pop(), [])
        found += children
        frontier += [child.span_id for child in children]
    return found


def render(spans: list[Span], root: Span, depth: int = 0) -> list[str]:
    """The tree as indented lines (printed with -s: the note shows one)."""
    shown = {k: v for k, v in attributes(root).items() if k.startswith(("graphmem.", "db.resp"))}
    lines = [f"{'  ' * depth}{root.name} {shown}"]
    for child in sorted(
        (s for s in spans if s.parent_span_id == root.span_id and s.trace_id == root.trace_id),
        key=lambda s: s.start_time_unix_nano,
    ):
        lines += render(spans, child, depth + 1)
    return lines


async def calls(url: str, tenant: str) -> None:
    caller = f"00-{TRACE_ID}-{CALLER_SPAN}-01"
    async with Client(url) as client:
        fact = {"project": "p", "key": "trace.check", "value": SECRET_VALUE}
        await client.call_tool("record_fact", fact, meta={"traceparent": caller})
        await client.call_tool(
            "current_state",
            {"project": "p", "state_key": "trace.check"},
            meta={"traceparent": "00-not-a-trace-01"},
        )
        unsampled = f"00-{UNSAMPLED_TRACE_ID}-{CALLER_SPAN}-00"  # the caller does not sample
        search = {"project": "p", "query": "unsampled"}
        await client.call_tool("search", search, meta={"traceparent": unsampled})
    header = {"traceparent": f"00-{HEADER_TRACE_ID}-b7ad6b7169203331-01"}
    async with Client(StreamableHttpTransport(url, headers=header)) as client:
        await client.call_tool("search", {"project": "p", "query": "trace"})


def wait_for(received: Received, count: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if sum(1 for s in received.spans if s.name.startswith("tools/call")) >= count:
            return
        time.sleep(0.1)
    pytest.fail(f"the receiver got {[s.name for s in received.spans]}")


@pytest.mark.timeout(180)
async def test_a_callers_trace_continues_through_graphmem_to_the_receiver(
    neo4j_endpoint: Endpoint, tmp_path: Path
) -> None:
    tenant = f"traced-{uuid.uuid4().hex[:10]}"
    key_file = tmp_path / "history.key"
    with otlp_receiver() as (endpoint, received):
        env = clean_env(
            **neo4j_endpoint.env(),
            GRAPHMEM_TENANT=tenant,
            GRAPHMEM_HISTORY_KEY_FILE=str(key_file),
            OTEL_EXPORTER_OTLP_ENDPOINT=endpoint,
            OTEL_BSP_SCHEDULE_DELAY="50",  # ms: export at once, the test waits for it
        )
        with serving_http(env) as server:
            await calls(server.url, tenant)
            wait_for(received, 4)
    spans = received.spans
    print("\n".join(render(spans, tool_span(spans, "record_fact"))))
    assert received.services == {"graphmem"}
    keyed = tracing.keyed_digest(trace_digest_key(load(key_file)), tenant_digest(tenant))
    with pytest.MonkeyPatch.context() as env:  # what the docs tell an operator to run
        env.setenv("GRAPHMEM_HISTORY_KEY_FILE", str(key_file))
        assert trace_tenant(tenant) == keyed != tenant_digest(tenant)
    assert_the_meta_parent_holds(spans, keyed)
    assert_an_unsampled_caller_is_traced(spans)
    assert_the_header_parent_holds(spans)
    assert_a_malformed_parent_is_ignored(spans)
    assert_nothing_private(spans, tenant)


def assert_the_meta_parent_holds(spans: list[Span], keyed_tenant: str) -> None:
    tool = tool_span(spans, "record_fact", TRACE_ID)
    assert tool.parent_span_id.hex() == CALLER_SPAN
    assert tool.kind == Span.SPAN_KIND_SERVER
    assert attributes(tool)["graphmem.tenant"] == keyed_tenant
    assert attributes(tool)["graphmem.outcome"] == "ok"
    below = descendants(spans, tool)
    statements = [s for s in below if "graphmem.statement" in attributes(s)]
    assert any(attributes(s)["graphmem.statement"] == "history/lock_head" for s in statements)
    assert all(s.kind == Span.SPAN_KIND_CLIENT for s in statements)
    assert all("db.response.returned_rows" in attributes(s) for s in statements)
    assert all(attributes(s)["graphmem.retries"] == 0 for s in statements)
    batches = [s for s in below if s.name == "write batch"]
    assert len(batches) == 1 and attributes(batches[0])["graphmem.batch.writes"] >= 1
    assert [link.span_id for link in batches[0].links] == [tool.span_id]
    locks = [s for s in descendants(spans, batches[0]) if s.name == "lock wait"]
    assert len(locks) == 1 and attributes(locks[0])["graphmem.lock.contended"] in (True, False)


def assert_an_unsampled_caller_is_traced(spans: list[Span]) -> None:
    tool = tool_span(spans, "search", UNSAMPLED_TRACE_ID)
    assert tool.parent_span_id.hex() == CALLER_SPAN
    assert any("graphmem.statement" in attributes(s) for s in descendants(spans, tool))


def assert_the_header_parent_holds(spans: list[Span]) -> None:
    tool = tool_span(spans, "search", HEADER_TRACE_ID)
    assert tool.parent_span_id.hex() == "b7ad6b7169203331"
    assert any("graphmem.statement" in attributes(s) for s in descendants(spans, tool))


def assert_a_malformed_parent_is_ignored(spans: list[Span]) -> None:
    tool = tool_span(spans, "current_state")
    assert tool.parent_span_id == b""  # a root of its own
    assert tool.trace_id.hex() not in (TRACE_ID, HEADER_TRACE_ID)
    assert attributes(tool)["graphmem.outcome"] == "ok"


def assert_nothing_private(spans: list[Span], tenant: str) -> None:
    for span in spans:
        for key, value in attributes(span).items():
            text = str(value)
            assert tenant not in text and SECRET_VALUE not in text, (span.name, key)
            assert "trace.check" not in text, (span.name, key)
