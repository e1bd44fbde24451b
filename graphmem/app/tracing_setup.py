"""Traces on or off, from the standard OpenTelemetry variables (docs/operations.md#traces).

On when an OTLP endpoint is named (``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) or ``OTEL_TRACES_EXPORTER=otlp``; off by default, and
whenever ``OTEL_SDK_DISABLED=true`` or ``OTEL_TRACES_EXPORTER=none``. Spans go out over
OTLP/HTTP (protobuf) in batches; the SDK reads the other variables itself (service name,
resource attributes, headers, timeouts, batch sizes). It needs the ``otel`` extra.

The sampler is graphmem's own (``OTEL_TRACES_SAMPLER``, read here): it decides every call. A
caller's trace is continued (its trace id, its span as the call's parent) but its sampled flag
decides nothing, so a caller can neither keep its calls out of the traces nor push them in;
a ``parentbased_`` prefix is accepted and means the same. With ``traceidratio`` the draw for a
caller's trace is graphmem's, not the caller's trace id (which the caller chooses). Spans
within a call follow the call's decision.

Tenants are named in spans by an HMAC under a key derived from the history key (HMAC of a
fixed label: the history key itself never leaves keys.py), so digests stay the same across
restarts and every process sharing the history key, and nobody without it can compute them.

FastMCP's own spans stay off: they would name the token's subject and the session, and
graphmem's tool span (app/metrics.py) carries what a trace may hold.
"""

from __future__ import annotations

import importlib
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from opentelemetry.context import Context
from opentelemetry.trace import Link, SpanKind, get_current_span
from opentelemetry.util.types import Attributes

from graphmem import __version__
from graphmem.core import tracing
from graphmem.core.errors import ConfigurationError
from graphmem.core.keys import ChainKey, load, load_or_create
from graphmem.core.settings import Settings

if TYPE_CHECKING:  # the SDK is the otel extra's: imported once traces are asked for
    from opentelemetry.sdk.trace.sampling import Sampler, SamplingResult
    from opentelemetry.trace.span import TraceState

log = logging.getLogger("graphmem.tracing")

ENDPOINTS = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
PROTOCOLS = ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL")
SUPPORTED_PROTOCOL = "http/protobuf"
SAMPLERS = ("always_on", "always_off", "traceidratio")
TRACE_KEY_LABEL = b"graphmem trace tenant digest"


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
        importlib.import_module("opentelemetry.exporter.otlp.proto.http.trace_exporter")
        importlib.import_module("opentelemetry.sdk.trace")
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
    sampler = sampler_choice(env)
    provider = TracerProvider(
        resource=Resource.create(attributes), sampler=caller_blind_sampler(*sampler)
    )
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    tracing.enable(provider, __version__, _tenant_key())
    log.info("traces %s, sampler %s %g", asked.describe, *sampler)
    return provider


def trace_digest_key(history_key: ChainKey) -> bytes:
    """The key of the tenant digests in spans: derived from the history key by HMAC of a fixed
    label, so it is stable without being the history key (or revealing it)."""
    return bytes.fromhex(history_key.mac(TRACE_KEY_LABEL))


def trace_tenant(tenant: str) -> str:
    """How spans name ``tenant`` under the history key the environment names, for finding its
    calls (docs/operations.md#traces): the keyed digest of its logs' digest (metrics.py)."""
    from graphmem.store.stats import tenant_digest  # the store's stack: not for doctor

    key = trace_digest_key(load(Settings().history_key_path))
    return tracing.keyed_digest(key, tenant_digest(tenant))


def _tenant_key() -> bytes:
    """From the history key `graphmem serve` has just loaded or created; failing that (it
    refuses to start then), a key of this process: digests that match only within it."""
    try:
        return trace_digest_key(load_or_create(Settings().history_key_path))
    except (ConfigurationError, ValueError) as error:
        log.warning("trace tenant digests keyed for this process only: %s", error)
        return secrets.token_bytes(32)


def sampler_choice(env: Mapping[str, str]) -> tuple[str, float]:
    """graphmem's own sampler, named by ``OTEL_TRACES_SAMPLER`` (a ``parentbased_`` prefix
    dropped: no parent decides), and its ratio; an unknown one is always_on, as the SDK's
    default, with a warning."""
    name = env.get("OTEL_TRACES_SAMPLER", "").strip().lower().removeprefix("parentbased_")
    if name and name not in SAMPLERS:
        log.warning("OTEL_TRACES_SAMPLER=%s is not one of %s: always_on", name, SAMPLERS)
    if name not in SAMPLERS:
        return "always_on", 1.0
    if name != "traceidratio":
        return name, 1.0
    try:
        ratio = float(env.get("OTEL_TRACES_SAMPLER_ARG", "1.0"))
    except ValueError:
        ratio = -1.0
    if not 0.0 <= ratio <= 1.0:
        log.warning("OTEL_TRACES_SAMPLER_ARG is not a ratio from 0 to 1: 1.0")
        return name, 1.0
    return name, ratio


def caller_blind_sampler(name: str, ratio: float) -> Sampler:
    """``name`` decides a call (a root, or a caller's span as parent: its sampled flag is not
    read); a span within a call follows the call's decision (ParentBased's local defaults)."""
    from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ALWAYS_ON, ParentBased

    if name == "traceidratio":
        own = _drawn_ratio(ratio)
    else:
        own = ALWAYS_OFF if name == "always_off" else ALWAYS_ON
    return ParentBased(own, remote_parent_sampled=own, remote_parent_not_sampled=own)


def _drawn_ratio(ratio: float) -> Sampler:
    """The ratio sampler deciding on an id graphmem draws: its own would decide on the trace
    id, which a caller continuing its trace chooses (low bits of zero: always kept)."""
    from opentelemetry.sdk.trace.sampling import Sampler, SamplingResult, TraceIdRatioBased

    by_trace_id = TraceIdRatioBased(ratio)

    class DrawnRatio(Sampler):
        def should_sample(
            self,
            parent_context: Context | None,
            trace_id: int,
            name: str,
            kind: SpanKind | None = None,
            attributes: Attributes = None,
            links: Sequence[Link] | None = None,
            trace_state: TraceState | None = None,
        ) -> SamplingResult:
            drawn = secrets.randbits(128)
            decided = by_trace_id.should_sample(None, drawn, name, kind, attributes, links)
            caller = get_current_span(parent_context).get_span_context()
            state = caller.trace_state if caller.is_valid else None
            attributes = cast("Attributes", decided.attributes)  # pyright: ignore[reportUnknownMemberType]  # the SDK leaves its mapping's type unknown
            return SamplingResult(decided.decision, attributes, state)

        def get_description(self) -> str:
            return f"DrawnRatio{{{ratio}}}"

    return DrawnRatio()


def stop_tracing(provider: Any) -> None:
    """Send what is still buffered, then stop."""
    tracing.disable()
    if provider is not None:
        provider.shutdown()
