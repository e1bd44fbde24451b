"""Traces' pure logic: when the OTEL_* variables turn them on, what a caller's trace context
may be, and that off costs no span. (The end-to-end tree: tests/app/test_traces.py.)"""

from __future__ import annotations

import pytest

from graphmem.app.tracing_setup import plan, sampler_choice
from graphmem.core import tracing
from tests.core.kept_spans import Kept

pytestmark = pytest.mark.pure

VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


@pytest.mark.parametrize(
    ("env", "on"),
    [
        ({}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, True),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, True),
        ({"OTEL_TRACES_EXPORTER": "otlp"}, True),
        ({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, False),
        ({"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}, False),
    ],
)
def test_traces_are_on_only_when_the_variables_ask(env: dict[str, str], on: bool) -> None:
    asked = plan(env)
    assert asked.on is on and asked.problem is None


@pytest.mark.parametrize(
    "env",
    [
        {"OTEL_TRACES_EXPORTER": "zipkin"},
        {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
    ],
)
def test_what_cannot_be_done_as_asked_is_named_and_stays_off(env: dict[str, str]) -> None:
    asked = plan(env)
    assert not asked.on and asked.problem is not None


def test_off_every_helper_is_one_shared_do_nothing_context() -> None:
    assert not tracing.enabled()
    assert tracing.span("a") is tracing.statement("b") is tracing.span("c")
    with tracing.statement("facts/record_fact") as span:
        assert span is None
    assert tracing.caller_context({"traceparent": VALID}) is None


@pytest.mark.parametrize(
    "malformed",
    [
        "00-not-a-trace-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  # an all-zero trace id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  # a forbidden version
        "",
        "x" * 10_000,
    ],
)
def test_a_malformed_traceparent_is_ignored(kept: Kept, malformed: str) -> None:
    assert tracing.caller_context({"traceparent": malformed}) is None
    # the next carrier (the HTTP headers after _meta) still counts
    parent = tracing.caller_context({"traceparent": malformed}, {"traceparent": VALID})
    assert parent is not None


def test_a_failure_names_its_type_and_never_its_text(kept: Kept) -> None:
    with pytest.raises(ValueError), tracing.statement("facts/record_fact", attempt=2):
        raise ValueError("secret detail from the database")
    (span,) = kept.spans
    assert span.attributes is not None
    assert span.attributes["error.type"] == "ValueError"
    assert span.attributes["graphmem.retries"] == 1
    assert span.status.description is None and span.events == ()


@pytest.mark.parametrize(
    ("env", "choice"),
    [
        ({}, ("always_on", 1.0)),
        ({"OTEL_TRACES_SAMPLER": "parentbased_always_on"}, ("always_on", 1.0)),
        ({"OTEL_TRACES_SAMPLER": "parentbased_always_off"}, ("always_off", 1.0)),
        (
            {"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.1"},
            ("traceidratio", 0.1),
        ),
        (
            {"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"},
            ("traceidratio", 1.0),
        ),
        (
            {"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "x"},
            ("traceidratio", 1.0),
        ),
        ({"OTEL_TRACES_SAMPLER": "jaeger_remote"}, ("always_on", 1.0)),
    ],
)
def test_graphmems_sampler_is_named_without_a_parent(
    env: dict[str, str], choice: tuple[str, float]
) -> None:
    """A parentbased_ name means the same as the bare one: no caller's flag decides."""
    assert sampler_choice(env) == choice


def test_the_tenant_is_keyed_in_a_span_and_only_there(kept: Kept) -> None:
    with tracing.span("tools/call x", {"graphmem.tenant": "t0123456789ab", "n": 1}):
        pass
    (span,) = kept.spans
    assert span.attributes is not None
    assert span.attributes["graphmem.tenant"] == tracing.keyed_digest(b"k" * 32, "t0123456789ab")
    assert span.attributes["graphmem.tenant"] != "t0123456789ab" and span.attributes["n"] == 1
