"""Traces on or off, from the standard OpenTelemetry variables (docs/operations.md#traces).

On when an OTLP endpoint is named (``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) or ``OTEL_TRACES_EXPORTER=otlp``; off by default, and
whenever ``OTEL_SDK_DISABLED=true`` or ``OTEL_TRACES_EXPORTER=none``. Spans go out over
OTLP/HTTP (protobuf) in batches; the SDK reads the other variables itself (service name,
resource attributes, sampler, headers, timeouts, batch sizes). It needs the ``otel`` extra.

FastMCP's own spans stay off: they would name the token's subject and the session, and
graphmem's tool span (app/metrics.py) carries what a trace may hold.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphmem import __version__
from graphmem.core import tracing

log = logging.getLogger("graphmem.tracing")

ENDPOINTS = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
PROTOCOLS = ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")
SUPPORTED_PROTOCOL = "http/protobuf"


@dataclass(frozen=True)
class TracingPlan:
    """What the environment asks for: ``on``, and a sentence for doctor and the log."""

    on: bool
    problem: str | None  # asked for but cannot be done as asked
    describe: str


def plan(env: Mapping[str, str]) -> TracingPlan:
    """Read the variables; import nothing."""
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return TracingPlan(False, None, "off (OTEL_SDK_DISABLED=true)")
    exporter = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    endpoint = next((env[name] for name in ENDPOINTS if env.get(name)), None)
    if exporter == "none" or (not exporter and endpoint is None):
        return TracingPlan(False, None, "off (no OTLP endpoint in OTEL_* variables)")
    if exporter not in ("", "otlp"):
        problem = f"OTEL_TRACES_EXPORTER={exporter}: only otlp is supported; traces stay off"
        return TracingPlan(False, problem, "off")
    protocol = next((env[name] for name in PROTOCOLS if env.get(name)), SUPPORTED_PROTOCOL)
    if protocol != SUPPORTED_PROTOCOL:
        problem = f"OTLP protocol {protocol}: only {SUPPORTED_PROTOCOL} is supported"
        return TracingPlan(False, problem, "off")
    target = endpoint or "http://localhost:4318 (the OTLP default)"
    return TracingPlan(True, None, f"on: OTLP/HTTP to {target}")


def missing_sdk() -> str | None:
    """Why the SDK cannot be loaded (the extra is not installed); None when it can."""
    try:
        import opentelemetry.exporter.otlp.proto.http.trace_exporter
        import opentelemetry.sdk.trace  # noqa: F401
    except ImportError:
        return "traces need the otel extra: pip install 'graphmem[otel]'"
    return None


def start_tracing(env: Mapping[str, str]) -> Any:
    """Turn traces on when asked; the provider to ``stop_tracing`` at exit (None: off). A
    problem is logged, never fatal: the memory serves without traces rather than not at all."""
    import fastmcp  # here: doctor reads the plan above without importing the server

    fastmcp.settings.telemetry_mode = "off"
    asked = plan(env)
    problem = asked.problem or (missing_sdk() if asked.on else None)
    if problem is not None:
        log.warning("traces off: %s", problem)
        return None
    if not asked.on:
        return None
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import SERVICE_NAME, SERVICE_VERSION, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    attributes = {SERVICE_VERSION: __version__}
    named = env.get("OTEL_SERVICE_NAME") or "service.name=" in env.get(
        "OTEL_RESOURCE_ATTRIBUTES", ""
    )
    if not named:  # Resource.create reads the variables; what it is given wins over them
        attributes[SERVICE_NAME] = "graphmem"
    provider = TracerProvider(resource=Resource.create(attributes))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    tracing.enable(provider, __version__)
    log.info("traces %s", asked.describe)
    return provider


def stop_tracing(provider: Any) -> None:
    """Send what is still buffered, then stop."""
    tracing.disable()
    if provider is not None:
        provider.shutdown()
