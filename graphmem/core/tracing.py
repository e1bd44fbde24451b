"""Traces: spans around tool calls, Cypher statements, write batches and lock waits, and of what
stops the server (garbage collections, event-loop stalls: core/stalls.py).

Off until the app calls ``enable`` (when the standard ``OTEL_*`` variables ask for traces and
the ``otel`` extra is installed, app/tracing_setup.py). Off, every helper hands back one shared
do-nothing context: no span object, no context switch, nothing measurable (bench.speed).

What a span may carry is decided here and nowhere else: names from the catalogue (a tool's,
a statement's), counts, outcome codes and the tenant's keyed digest. Never an argument, a
query parameter, a tenant's name, or an exception's text (only its type).

The tenant (``graphmem.tenant``) is HMAC-SHA256 under the key ``enable`` is given (derived
from the history key, app/tracing_setup.py): the logs' digest is a plain hash, which anyone
holding a list of likely tenant names can reverse; this one only the deployment can compute.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Generator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext

from opentelemetry.context import Context
from opentelemetry.trace import (
    Link,
    NonRecordingSpan,
    Span,
    SpanKind,
    Status,
    StatusCode,
    Tracer,
    TracerProvider,
    get_current_span,
    set_span_in_context,
)
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
from opentelemetry.util.types import AttributeValue

Attributes = Mapping[str, AttributeValue]

TRACER_NAME = "graphmem"
DB_SYSTEM = "neo4j"
TENANT = "graphmem.tenant"  # the attribute naming the tenant, keyed by span()

OFF: AbstractContextManager[None] = nullcontext()  # what every helper hands back when off
_W3C = TraceContextTextMapPropagator()
_tracer: Tracer | None = None
_tenant_key = b""


def enable(provider: TracerProvider, version: str, tenant_key: bytes) -> None:
    """Spans from now on go to ``provider``, naming tenants under ``tenant_key``."""
    global _tracer, _tenant_key
    _tenant_key = tenant_key
    _tracer = provider.get_tracer(TRACER_NAME, version)


def disable() -> None:
    global _tracer, _tenant_key
    _tracer, _tenant_key = None, b""


def keyed_digest(key: bytes, value: str) -> str:
    """HMAC-SHA256 of ``value`` under ``key``, 64 bits in hex: plenty to tell tenants apart."""
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()[:16]


def enabled() -> bool:
    return _tracer is not None


def span(
    name: str,
    attributes: Attributes | None = None,
    *,
    kind: SpanKind = SpanKind.INTERNAL,
    parent: Context | None = None,
    links: Sequence[Link] | None = None,
) -> AbstractContextManager[Span | None]:
    """A span around the block (None inside when tracing is off). A failure marks it as an
    error named by the exception's type only: its text may hold internal detail."""
    if _tracer is None:
        return OFF
    return _recorded(_tracer, name, _keyed(attributes), kind, parent, links)


def interval(
    name: str, start: int, end: int, attributes: Attributes, parent: Context | None = None
) -> None:
    """A span of what already happened, from ``start`` to ``end`` (Unix nanoseconds): a pause
    measured after the fact (core/stalls.py). Nothing when tracing is off."""
    if _tracer is None:
        return
    keyed = _keyed(attributes)
    done = _tracer.start_span(name, context=parent, attributes=keyed, start_time=start)
    done.end(end_time=end)


def _keyed(attributes: Attributes | None) -> Attributes | None:
    """The tenant under its keyed digest, whatever names it here (metrics.py hands the logs'
    digest); with no key (never, once enabled), not at all."""
    if attributes is None or TENANT not in attributes:
        return attributes
    rest = {key: value for key, value in attributes.items() if key != TENANT}
    if not _tenant_key:
        return rest
    return {**rest, TENANT: keyed_digest(_tenant_key, str(attributes[TENANT]))}


@contextmanager
def _recorded(
    tracer: Tracer,
    name: str,
    attributes: Attributes | None,
    kind: SpanKind,
    parent: Context | None,
    links: Sequence[Link] | None,
) -> Generator[Span]:
    with tracer.start_as_current_span(
        name,
        context=parent,
        kind=kind,
        attributes=attributes,
        links=links,
        record_exception=False,
        set_status_on_exception=False,
    ) as current:
        try:
            yield current
        except BaseException as error:
            current.set_attribute("error.type", type(error).__qualname__)
            current.set_status(Status(StatusCode.ERROR))
            raise


def statement(name: str, attempt: int = 1) -> AbstractContextManager[Span | None]:
    """A span around one Cypher statement of the catalogue (``rows`` sets its row count)."""
    if _tracer is None:
        return OFF
    attributes: dict[str, AttributeValue] = {
        "db.system.name": DB_SYSTEM,
        "db.query.summary": name,
        "graphmem.statement": name,
        "graphmem.retries": attempt - 1,
    }
    return _recorded(_tracer, name, attributes, SpanKind.CLIENT, None, None)


def rows(current: Span | None, count: int) -> None:
    if current is not None:
        current.set_attribute("db.response.returned_rows", count)


def note(current: Span | None, key: str, value: AttributeValue) -> None:
    if current is not None:
        current.set_attribute(key, value)


def caller_context(*carriers: Mapping[str, object] | None) -> Context | None:
    """The caller's trace, from the first carrier holding a valid W3C ``traceparent`` (a
    request's ``_meta``, then its HTTP headers). A malformed one is ignored: no parent."""
    if _tracer is None:
        return None
    for carrier in carriers:
        if not carrier or "traceparent" not in carrier:
            continue
        fields = {k: str(carrier[k]) for k in ("traceparent", "tracestate") if k in carrier}
        context = _W3C.extract(fields)
        if _has_span(context):
            return context
    return None


def _has_span(context: Context) -> bool:
    return get_current_span(context).get_span_context().is_valid


def context_of(link: Link | None) -> Context:
    """A context whose parent is the linked span (an empty one without a link): for work
    done on behalf of a caller in a task of its own."""
    if link is None:
        return Context()
    return set_span_in_context(NonRecordingSpan(link.context), Context())


def current_link() -> Link | None:
    """A link to the span active now (to point at a caller's span from shared work)."""
    if _tracer is None:
        return None
    context = get_current_span().get_span_context()
    return Link(context) if context.is_valid else None
