"""Tool-call metrics and one log line per call.

``CallObserver`` is the outermost FastMCP middleware: every tool call, refused or not (scope,
readiness, arguments, domain errors), is timed there with one clock and counted by tool and
outcome (``ok`` or graphmem's error code). ``/metrics`` serves the counts in the Prometheus
text format (0.0.4) on the HTTP server, behind its credentials with the ``admin`` scope: the
numbers add up every tenant's calls, so one tenant's token must not read them (see
docs/operations.md). The per-call log line names the tenant by digest only and never carries
arguments or results.

Everything here runs on the event loop's thread, so the counters need no lock.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
import re
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any, cast

import mcp.types as mt
from fastmcp import FastMCP
from fastmcp.exceptions import NotFoundError, ToolError
from fastmcp.server.dependencies import fastmcp_request_ctx, get_http_headers
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from opentelemetry.trace import Span, SpanKind
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from graphmem import __version__
from graphmem.core import tracing
from graphmem.store.stats import tenant_digest

log = logging.getLogger("graphmem.calls")

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
METRICS_PATH = "/metrics"
METRICS_SCOPE = "admin"
# Seconds: a bolt round trip is ~1 ms, a deep walk or a batch a few seconds, 30 s the query
# timeout.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
UNKNOWN_TOOL = "_unknown"  # a name no tool has: one label value, whatever the client sent
INTERNAL = "internal"  # a bug (masked for the client) or an error without graphmem's payload
_CODE = re.compile(r"[a-z][a-z_]{0,39}")


class Histogram:
    """Counts per bucket (not cumulative: the exposition sums them) and the values' sum."""

    def __init__(self, bounds: tuple[float, ...] = BUCKETS) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)  # the last one: above every bound (+Inf)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1  # le: value <= bound
        self.sum += value

    def cumulative(self) -> list[tuple[str, int]]:
        total = 0
        buckets: list[tuple[str, int]] = []
        for bound, count in zip((*map(_number, self.bounds), "+Inf"), self.counts, strict=True):
            total += count
            buckets.append((bound, total))
        return buckets


class ToolMetrics:
    """Calls per tool and outcome, errors per tool and code, latency per tool."""

    def __init__(self) -> None:
        self.calls: dict[tuple[str, str], int] = {}  # (tool, "ok" | "error")
        self.errors: dict[tuple[str, str], int] = {}  # (tool, code)
        self.durations: dict[str, Histogram] = {}

    def record(self, tool: str, code: str | None, seconds: float) -> None:
        """One finished call: ``code`` None when it succeeded."""
        key = (tool, "ok" if code is None else "error")
        self.calls[key] = self.calls.get(key, 0) + 1
        if code is not None:
            self.errors[tool, code] = self.errors.get((tool, code), 0) + 1
        histogram = self.durations.get(tool)
        if histogram is None:
            histogram = self.durations[tool] = Histogram()
        histogram.observe(seconds)

    def exposition(self) -> str:
        """The Prometheus text format, version 0.0.4."""
        calls = [({"tool": t, "outcome": o}, n) for (t, o), n in sorted(self.calls.items())]
        errors = [({"tool": t, "code": c}, n) for (t, c), n in sorted(self.errors.items())]
        duration = "graphmem_tool_call_duration_seconds"
        lines = [
            *_family("graphmem_build_info", "gauge", "The graphmem version serving."),
            _sample("graphmem_build_info", {"version": __version__}, 1),
            *_family("graphmem_tool_calls_total", "counter", "Tool calls by tool and outcome."),
            *(_sample("graphmem_tool_calls_total", labels, n) for labels, n in calls),
            *_family("graphmem_tool_errors_total", "counter", "Failed calls by tool and code."),
            *(_sample("graphmem_tool_errors_total", labels, n) for labels, n in errors),
            *_family(duration, "histogram", "Tool call latency, as the server saw it."),
        ]
        for tool, histogram in sorted(self.durations.items()):
            lines += _histogram_samples(duration, tool, histogram)
        return "\n".join(lines) + "\n"


def _family(name: str, kind: str, text: str) -> list[str]:
    return [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]


def _histogram_samples(name: str, tool: str, histogram: Histogram) -> list[str]:
    buckets = histogram.cumulative()
    lines = [_sample(f"{name}_bucket", {"tool": tool, "le": le}, n) for le, n in buckets]
    lines.append(_sample(f"{name}_sum", {"tool": tool}, histogram.sum))
    lines.append(_sample(f"{name}_count", {"tool": tool}, buckets[-1][1]))
    return lines


def _sample(name: str, labels: dict[str, str], value: float) -> str:
    pairs = ",".join(f'{key}="{_escape(text)}"' for key, text in labels.items())
    return f"{name}{{{pairs}}} {_number(value)}"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _number(value: float) -> str:
    return repr(value) if isinstance(value, float) else str(value)


# --- the middleware -----------------------------------------------------------------------
def error_code(error: BaseException) -> str:
    """graphmem's code for a failed call: the ``error`` of the JSON payload every expected
    failure carries (boundary.py); anything else is ``internal``."""
    if isinstance(error, ToolError):
        try:
            payload = json.loads(str(error))
        except ValueError:
            return INTERNAL  # FastMCP's masked text for an unexpected error
        code = (
            cast("dict[str, object]", payload).get("error") if isinstance(payload, dict) else None
        )
        return code if isinstance(code, str) and _CODE.fullmatch(code) else INTERNAL
    if isinstance(error, NotFoundError):
        return "not_found"  # an unknown tool
    if isinstance(error, asyncio.CancelledError):
        return "cancelled"
    return INTERNAL


class CallObserver(Middleware):
    """Times and counts every tool call, and logs one line per call (see the module text)."""

    def __init__(
        self, metrics: ToolMetrics, tools: Iterable[str], tenant: Callable[[], str]
    ) -> None:
        self._metrics = metrics
        self._tools = frozenset(tools)  # label values stay bounded by the catalogue
        self._tenant = tenant

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        began = time.perf_counter()
        name = context.message.name
        with self._span(context.message) as span:
            try:
                result = await call_next(context)
            except BaseException as error:
                code = error_code(error)
                tracing.note(span, "graphmem.outcome", code)
                self._observe(name, code, began)
                raise
            tracing.note(span, "graphmem.outcome", "ok")
        self._observe(name, None, began)
        return result

    def _span(self, call: mt.CallToolRequestParams) -> AbstractContextManager[Span | None]:
        """The call's span, continuing the caller's trace (its ``_meta``, else its HTTP
        headers): the tool's name, the tenant's digest; its outcome is added at the end."""
        if not tracing.enabled():
            return tracing.OFF
        tool = call.name if call.name in self._tools else UNKNOWN_TOOL
        attributes = {
            "mcp.method.name": "tools/call",
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": tool,
            "graphmem.tenant": tenant_digest(self._tenant()),
        }
        parent = tracing.caller_context(_request_meta(), get_http_headers())
        return tracing.span(f"tools/call {tool}", attributes, kind=SpanKind.SERVER, parent=parent)

    def _observe(self, name: str, code: str | None, began: float) -> None:
        seconds = time.perf_counter() - began
        tool = name if name in self._tools else UNKNOWN_TOOL
        self._metrics.record(tool, code, seconds)
        level = logging.WARNING if code == INTERNAL else logging.INFO
        if log.isEnabledFor(level):
            line = {
                "event": "tool_call",
                "tool": tool,
                "tenant": tenant_digest(self._tenant()),
                "duration_ms": round(seconds * 1000, 3),
                "outcome": code or "ok",
            }
            log.log(level, json.dumps(line, separators=(",", ":")))


def _request_meta() -> Mapping[str, object] | None:
    """The call's whole ``_meta`` (the message the middleware sees keeps only its name and
    arguments): where FastMCP's own trace extraction reads it."""
    request = fastmcp_request_ctx.get()
    return request.meta if request is not None else None


# --- the route ----------------------------------------------------------------------------
def register_metrics_route(server: FastMCP, metrics: ToolMetrics, credentials: bool) -> None:
    """GET /metrics on the HTTP server (stdio serves no routes). With credentials configured,
    only a principal with the ``admin`` scope reads it; without, the server binds to loopback
    only (serve.serve refuses anything else), as /mcp itself."""

    async def serve_metrics(request: Request) -> Response:
        refused = _refusal(request) if credentials else None
        return refused or Response(metrics.exposition(), media_type=CONTENT_TYPE)

    server.custom_route(METRICS_PATH, methods=["GET"])(serve_metrics)


def _refusal(request: Request) -> Response | None:
    """401 without a token the server accepts, 403 without the scope; None: allowed. Reads
    what the server's authentication middleware found (none there: refused)."""
    user: Any = request.scope.get("user")
    if user is None or not getattr(user, "is_authenticated", False):
        return JSONResponse(
            {"error": "unauthenticated", "message": "a bearer token is required"},
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )
    scopes = getattr(request.scope.get("auth"), "scopes", ())
    if METRICS_SCOPE not in scopes:
        message = f"{METRICS_PATH} needs the '{METRICS_SCOPE}' scope"
        return JSONResponse({"error": "permission_denied", "message": message}, status_code=403)
    return None
