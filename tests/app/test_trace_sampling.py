"""Who decides that a call is traced, and how a trace names the tenant, through the provider
``start_tracing`` builds from the environment (its spans exported to a loopback receiver and
kept in memory too).

graphmem's own sampler (``OTEL_TRACES_SAMPLER``) decides every call: a caller's W3C trace is
continued (its trace id, its span as parent) but its sampled flag decides nothing, so a caller
can neither hide its calls (``-00``) nor force them into the traces (``-01``), nor pick a trace
id the ratio sampler would keep. The tenant attribute is an HMAC-SHA256 under a key derived
from the history key: stable across restarts, unknown to whoever reads the traces."""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.trace import SpanKind

from graphmem.app.tracing_setup import start_tracing, stop_tracing
from graphmem.core import tracing
from graphmem.core.keys import load
from tests.app.otlp_receiver import otlp_receiver
from tests.core.kept_spans import Kept

pytestmark = pytest.mark.pure

CALLER_SPAN = "00f067aa0ba902b7"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "history.key"
    monkeypatch.setenv("GRAPHMEM_HISTORY_KEY_FILE", str(path))
    for name in list(os.environ):
        if name.startswith("OTEL_"):
            monkeypatch.delenv(name)
    return path


@contextmanager
def traced(monkeypatch: pytest.MonkeyPatch, **variables: str) -> Iterator[Kept]:
    """Traces on as ``graphmem serve`` turns them on, with ``variables`` set."""
    kept = Kept()
    with otlp_receiver() as (endpoint, _):
        for name, value in {"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, **variables}.items():
            monkeypatch.setenv(name, value)
        provider = start_tracing(os.environ)
        assert provider is not None
        provider.add_span_processor(SimpleSpanProcessor(kept))
        try:
            yield kept
        finally:
            stop_tracing(provider)


def call(traceparent: str, tenant: str = "t0123456789ab") -> None:
    """What metrics.CallObserver does around a tool call, with a statement inside."""
    parent = tracing.caller_context({"traceparent": traceparent})
    attributes = {"gen_ai.tool.name": "record_fact", "graphmem.tenant": tenant}
    tool = tracing.span("tools/call record_fact", attributes, kind=SpanKind.SERVER, parent=parent)
    with tool, tracing.statement("facts/record_fact"):
        pass


def test_a_caller_that_asks_not_to_be_sampled_is_traced(
    key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with traced(monkeypatch) as kept:
        call(f"00-{TRACE_ID}-{CALLER_SPAN}-00")
        tool, statement = sorted(kept.spans, key=lambda s: s.name != "tools/call record_fact")
        assert tool.context is not None and statement.context is not None
        assert f"{tool.context.trace_id:032x}" == TRACE_ID  # the caller's trace, continued
        assert tool.parent is not None and f"{tool.parent.span_id:016x}" == CALLER_SPAN
        assert statement.parent is not None
        assert statement.parent.span_id == tool.context.span_id


@pytest.mark.parametrize("configured", ["parentbased_always_off", "always_off"])
def test_a_caller_that_asks_to_be_sampled_cannot_force_it(
    key_file: Path, monkeypatch: pytest.MonkeyPatch, configured: str
) -> None:
    with traced(monkeypatch, OTEL_TRACES_SAMPLER=configured) as kept:
        call(f"00-{TRACE_ID}-{CALLER_SPAN}-01")
        call(f"00-{TRACE_ID}-{CALLER_SPAN}-00")
        assert kept.spans == []


def test_a_ratio_is_graphmems_draw_not_the_callers_trace_id(
    key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ratio sampler keeps a trace whose id's low 64 bits fall under the ratio: a caller
    sending ids that end in zeros would have every call kept. graphmem draws for it."""
    variables = {"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.5"}
    with traced(monkeypatch, **variables) as kept:
        for n in range(200):
            call(f"00-{n + 1:016x}{0:016x}-{CALLER_SPAN}-01")
        tools = [s for s in kept.spans if s.kind == SpanKind.SERVER]
        assert 40 < len(tools) < 160, len(tools)
        # a call is whole or absent: its statement follows its tool span's decision
        assert len(kept.spans) == 2 * len(tools)


def tenant_attribute(kept: Kept) -> Any:
    (tool,) = [s for s in kept.spans if s.kind == SpanKind.SERVER]
    assert tool.attributes is not None
    return tool.attributes["graphmem.tenant"]


def test_the_tenant_is_named_by_a_keyed_digest(
    key_file: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    digests = []
    for _ in range(2):  # two starts with one history key: one digest
        with traced(monkeypatch) as kept:
            call(f"00-{TRACE_ID}-{CALLER_SPAN}-01", tenant="t0123456789ab")
            digests.append(tenant_attribute(kept))
    secret = load(key_file).secret
    label = hmac.new(secret, b"graphmem trace tenant digest", hashlib.sha256).digest()
    expected = hmac.new(label, b"t0123456789ab", hashlib.sha256).hexdigest()[:16]
    assert digests == [expected, expected]
    assert secret.hex() not in str(digests) and "t0123456789ab" not in str(digests)
    monkeypatch.setenv("GRAPHMEM_HISTORY_KEY_FILE", str(tmp_path / "another.key"))
    with traced(monkeypatch) as kept:  # another deployment's key: another digest
        call(f"00-{TRACE_ID}-{CALLER_SPAN}-01", tenant="t0123456789ab")
        assert tenant_attribute(kept) != expected
