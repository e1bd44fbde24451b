"""bench.tail's reading of one load: each call taken apart by the spans its server sent
(bench/span_sink.py), the JVM's stop-the-world pauses and the client's event-loop lag, then
the calls of the tail set beside those of the median.

A call's parts, in milliseconds, end to end (they add up to what the client measured):
``in`` (the client's send to the server's tool span: HTTP, uvicorn, the server's event loop,
FastMCP's dispatch), ``before`` (the tool span's start to its batch's: validation, reads, the
wait for the turn), ``batch`` (the transaction its write committed in, the lock wait in it
``lock``), ``after`` (the batch's end to the tool span's: the answer built), ``out`` (the tool
span's end to the client's receipt). Beside them: ``size`` (writes in the batch), ``trips``
(statements the batch ran), ``retried`` (1 when the driver ran the batch again: a transient
error), ``waited`` (batches that committed while the call waited for its
own), ``stw`` (Neo4j's stop-the-world pauses inside the call), ``sgc`` and ``stall`` (the
server's garbage collections and event-loop stalls inside it: its ``python gc`` and ``event
loop stall`` spans), ``lag`` (the client's worst event-loop lag inside it), ``cgc`` (the
client's own garbage collections inside it), ``derived`` (statements of write-behind work,
the subjects pass or the search fields, running inside it).
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

PARTS = ("in", "before", "batch", "lock", "after", "out")
BESIDE = ("size", "trips", "retried", "waited", "stw", "sgc", "stall", "lag", "cgc", "derived")
BUCKETS_MS = (5, 10, 20, 50, 100, 200, 500, 1000, 2000)
DERIVED = ("subjects/", "retrieval/")  # statements of write-behind work


@dataclass
class Call:
    """One call as the client saw it: Unix nanoseconds, and the span id it sent as parent."""

    tool: str
    trace: str
    parent: str
    start: int
    end: int
    parts: dict[str, float] = field(default_factory=dict[str, float])
    statements: dict[str, float] = field(default_factory=dict[str, float])  # ms by name

    @property
    def ms(self) -> float:
        return (self.end - self.start) / 1e6


@dataclass
class Client:
    """The client process's own pauses: event-loop lag samples (when, milliseconds) and its
    garbage collections (Unix nanoseconds)."""

    lags: list[tuple[int, float]] = field(default_factory=list[tuple[int, float]])
    collections: list[tuple[int, int]] = field(default_factory=list[tuple[int, int]])


@dataclass(frozen=True)
class Pause:
    start: int
    end: int
    cause: str


SAFEPOINT = re.compile(r'^\[([^\]]+)\].*Safepoint "([^"]+)".*Total: (\d+) ns')


def pauses_in(lines: list[str]) -> list[Pause]:
    """The JVM's safepoints (every stop-the-world pause: GC, deoptimisation, the rest) from its
    unified log (``what=safepoint``, decorated with the wall time at the pause's end)."""
    found = []
    for line in lines:
        match = SAFEPOINT.match(line)
        if match:
            when = datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S.%f%z")
            end = int(when.timestamp() * 1e9)
            found.append(Pause(end - int(match.group(3)), end, match.group(2)))
    return found


def overlap(a0: int, a1: int, b0: int, b1: int) -> int:
    return max(0, min(a1, b1) - max(a0, b0))


class Spans:
    """The spans of a run, indexed the ways a call is looked up."""

    def __init__(self, spans: list[dict[str, Any]]) -> None:
        self.by_parent: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.batch_of: dict[str, dict[str, Any]] = {}  # a tool span's id -> its write batch
        self.batches: list[dict[str, Any]] = []
        self.derived: list[dict[str, Any]] = []
        self.named: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for span in spans:
            self.named[span["name"]].append(span)
            self.by_parent[span["parent"]].append(span)
            if span["name"] == "write batch":
                self.batches.append(span)
                for link in span["links"]:
                    self.batch_of[link] = span
            elif span["name"].startswith(DERIVED):  # a task of a call's, in its trace
                self.derived.append(span)
        self.batches.sort(key=lambda s: s["end"])

    def tool_span(self, call: Call) -> dict[str, Any] | None:
        return next(
            (s for s in self.by_parent[call.parent] if s["name"].startswith("tools/call")), None
        )

    def statements(self, batch: dict[str, Any]) -> list[dict[str, Any]]:
        """Statements run inside the batch: its own and its members' (theirs hang below each
        member's tool span, in the batch's time)."""
        own = [s for s in self.by_parent[batch["span"]] if "/" in s["name"]]
        members = [
            s
            for link in batch["links"]
            for s in self.by_parent[link]
            if "/" in s["name"] and batch["start"] <= s["start"] <= batch["end"]
        ]
        return own + members

    def waited(self, begin: int, until: int) -> int:
        return sum(1 for b in self.batches if begin < b["end"] <= until)


def inside(call: Call, spans: list[dict[str, Any]]) -> float:
    """Milliseconds of ``spans`` inside the call."""
    return sum(overlap(call.start, call.end, s["start"], s["end"]) for s in spans) / 1e6


def dissect(call: Call, spans: Spans, pauses: list[Pause], client: Client) -> bool:
    """Fill ``call.parts``; False when its server spans are missing (not sampled, dropped)."""
    tool = spans.tool_span(call)
    if tool is None:
        return False
    batch = spans.batch_of.get(tool["span"])
    p = call.parts
    p["in"] = (tool["start"] - call.start) / 1e6
    p["out"] = (call.end - tool["end"]) / 1e6
    if batch is None:  # a write alone: the tool span is its whole work
        p["before"], p["batch"], p["after"], p["lock"] = (
            (tool["end"] - tool["start"]) / 1e6,
            0,
            0,
            0,
        )
        p["size"], p["trips"], p["waited"], p["retried"] = 0, 0, 0, 0
    else:
        p["before"] = (batch["start"] - tool["start"]) / 1e6
        p["batch"] = (batch["end"] - batch["start"]) / 1e6
        p["after"] = (tool["end"] - batch["end"]) / 1e6
        locks = [s for s in spans.by_parent[batch["span"]] if s["name"] == "lock wait"]
        p["lock"] = sum(s["end"] - s["start"] for s in locks) / 1e6
        p["size"] = float(batch["attributes"].get("graphmem.batch.writes", 0))
        statements = spans.statements(batch)
        for statement in statements:
            took = (statement["end"] - statement["start"]) / 1e6
            call.statements[statement["name"]] = call.statements.get(statement["name"], 0) + took
        p["trips"] = float(len(statements))
        p["retried"] = float(any(s["attributes"].get("graphmem.retries", 0) for s in statements))
        p["waited"] = float(spans.waited(tool["start"], batch["start"]))
    p["stw"] = sum(overlap(call.start, call.end, x.start, x.end) for x in pauses) / 1e6
    p["sgc"] = inside(call, spans.named["python gc"])
    p["stall"] = inside(call, spans.named["event loop stall"])
    p["lag"] = max((lag for at, lag in client.lags if call.start <= at <= call.end), default=0.0)
    p["cgc"] = sum(overlap(call.start, call.end, a, b) for a, b in client.collections) / 1e6
    p["derived"] = inside(call, spans.derived)
    return True


def histogram(calls: list[Call]) -> str:
    counts = [0] * (len(BUCKETS_MS) + 1)
    for call in calls:
        counts[sum(1 for edge in BUCKETS_MS if call.ms >= edge)] += 1
    edges = ["<5", *(f"{a}-{b}" for a, b in itertools.pairwise(BUCKETS_MS))]
    edges.append(f">={BUCKETS_MS[-1]}")
    return "  ".join(f"{edge} ms: {count}" for edge, count in zip(edges, counts, strict=True))


def cohorts(calls: list[Call]) -> tuple[list[Call], list[Call]]:
    """The median's calls (p40 to p60) and the tail's (the slowest 1%, at least five)."""
    ranked = sorted(calls, key=lambda c: c.ms)
    n = len(ranked)
    return ranked[int(n * 0.4) : max(int(n * 0.6), int(n * 0.4) + 1)], ranked[-max(5, n // 100) :]


def mean(calls: list[Call], part: str) -> float:
    return statistics.fmean(c.parts.get(part, 0.0) for c in calls) if calls else 0.0


def report(label: str, calls: list[Call]) -> list[str]:
    """The load's histogram and quantiles, each part's mean in the median and in the tail, and
    the parts that grow most from one to the other (the tail's top causes)."""
    if len(calls) < 10:
        return [f"{label}: {len(calls)} calls dissected, too few to read"]
    ms = sorted(c.ms for c in calls)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    lines = [
        f"{label}: {len(calls)} calls, p50 {q[49]:.1f} p90 {q[89]:.1f} p99 {q[98]:.1f} "
        f"max {ms[-1]:.1f} ms",
        f"  histogram  {histogram(calls)}",
    ]
    middle, tail = cohorts(calls)
    for part in (*PARTS, *BESIDE):
        lines.append(f"  {part:<8} median {mean(middle, part):8.1f}   tail {mean(tail, part):8.1f}")
    growth = sorted(PARTS, key=lambda p: mean(tail, p) - mean(middle, p), reverse=True)
    extra = sum(c.ms for c in tail) / len(tail) - sum(c.ms for c in middle) / len(middle)
    causes = ", ".join(f"{p} +{mean(tail, p) - mean(middle, p):.1f}" for p in growth[:3])
    lines.append(f"  the tail's extra {extra:.1f} ms: {causes}")
    lines.append(f"  statements of the median's batches (ms a call): {slowest(middle)}")
    lines.append(f"  statements of the tail's batches (ms a call): {slowest(tail)}")
    return lines


def slowest(calls: list[Call], shown: int = 5) -> str:
    total: dict[str, float] = defaultdict(float)
    for call in calls:
        for name, ms in call.statements.items():
            total[name] += ms / len(calls)
    ranked = sorted(total.items(), key=lambda item: -item[1])[:shown]
    return ", ".join(f"{name} {ms:.1f}" for name, ms in ranked)
