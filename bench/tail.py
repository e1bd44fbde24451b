"""Where a write's slow tail comes from: bench.concurrency's loads with every call taken apart.

    python -m bench.tail --data DIR                       # 8 and 32 sessions, 8 s a load
    python -m bench.tail --sessions 1 8 32 --tools save_memory record_fact "mixed session"
    python -m bench.tail --sessions 32 --calls calls.jsonl  # every call's parts, in order

One managed local Neo4j (the tests' settings, a temporary folder) with its stop-the-world
pauses logged (``jcmd VM.log what=safepoint``: GC, deoptimisation, every safepoint, each with
its wall time), and one graphmem server over streamable HTTP on loopback with traces on,
exported to a sink in a process of its own (bench/span_sink.py; the exporter's queue sized so
no span is dropped). The client is one process with N sessions calling back to back on LoCoMo
turns (as bench.concurrency's loads); each call sends a W3C ``traceparent`` in its ``_meta``,
so its server spans are found by id, and a watcher task measures the client's event-loop lag.
After the loads the server and the sink stop, and each call is read
(bench/tail_anatomy.py): the histogram, p50/p90/p99, and each part's mean in the median's
calls and in the slowest 1%, with the parts that grow most named as the tail's top causes.

Traces cost the server a little (bench.speed --traced): the figures the issue sets are
bench.concurrency's, untraced; this bench says where their tail comes from.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

from fastmcp import Client as McpClient

from bench.concurrency import graphmem_env, graphmem_servers, jvm
from bench.concurrency_load import OURS, Workload, sessions, settle_client_heap
from bench.cpu import Meter, until_quiet
from bench.harness import say, scratch_tenant
from bench.locomo import DATA_ENV, data_files
from bench.peers_sides import chosen, load
from bench.profile import sampling, summary
from bench.tail_anatomy import Call, Client, Spans, dissect, pauses_in, report
from graphmem.store import Store
from tests.app.helpers import listening_process
from tests.neo4j_endpoint import Endpoint, free_port, managed_local

TICK = 0.002  # seconds the lag watcher sleeps between two looks


class Recorder:
    """The calls of every load, and the client's event-loop lag and collections meanwhile."""

    def __init__(self) -> None:
        self.calls: dict[str, list[Call]] = {}
        self.client = Client()
        self.profile: list[str] = []  # py-spy's summary of the server (--profile)
        self._began = 0
        gc.callbacks.append(self._collection)

    def _collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.time_ns()
        elif self._began:
            self.client.collections.append((self._began, time.time_ns()))

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            began = time.perf_counter()
            await asyncio.sleep(TICK)
            late = (time.perf_counter() - began - TICK) * 1000
            self.client.lags.append((time.time_ns(), late))


async def traced_load(
    clients: list[McpClient[Any]], workload: Workload, texts: list[str], seconds: float, first: int
) -> list[Call]:
    """Every client calls back to back for ``seconds``, each call with a trace of its own."""
    settle_client_heap()
    calls: list[Call] = []
    failed: list[str] = []
    deadline = time.perf_counter() + seconds

    async def session(index: int, client: McpClient[Any]) -> None:
        n = first
        while time.perf_counter() < deadline:
            tool, arguments = workload(index, n, texts[n % len(texts)])
            n += 1
            trace, parent = os.urandom(16).hex(), os.urandom(8).hex()
            meta = {"traceparent": f"00-{trace}-{parent}-01"}
            began = time.time_ns()
            result = await client.call_tool(tool, arguments, raise_on_error=False, meta=meta)
            if result.is_error:
                failed.append(tool)  # counted apart: a refused call is no latency figure
            else:
                calls.append(Call(tool, trace, parent, began, time.time_ns()))

    await asyncio.gather(*(session(i, client) for i, client in enumerate(clients)))
    if failed:
        say(f"  {len(failed)} calls failed ({failed[0]}), left out of the figures")
    return calls


async def loads(
    url: str, pids: tuple[int, int], texts: list[str], args: Any, recorder: Recorder
) -> None:
    pid, meter = pids[0], Meter({"server": (pids[0],), "neo4j": (pids[1],)})
    stop = asyncio.Event()
    watcher = asyncio.create_task(recorder.watch(stop))
    first = 1_000_000
    try:
        async with sessions([url], 8) as clients:  # warm-up: the JVM compiles, plans settle
            for tool in args.tools:
                await traced_load(clients, OURS[tool], texts, args.warmup, first)
                await until_quiet(meter, ("server", "neo4j"))
                first += 1_000_000
        for n in args.sessions:
            async with sessions([url], n) as clients:
                for tool in args.tools:
                    profiled = args.profile and n == max(args.sessions) and tool == args.tools[0]
                    out = args.scratch / "server.pyspy"
                    with sampling(pid, out) if profiled else contextlib.nullcontext():
                        calls = await traced_load(clients, OURS[tool], texts, args.seconds, first)
                    behind = await until_quiet(meter, ("server", "neo4j"))
                    recorder.calls[f"{tool}, {n} sessions"] = calls
                    if profiled:
                        recorder.profile = summary(out, top=20)
                    first += 1_000_000
                    rate = len(calls) / args.seconds
                    say(f"{tool}, {n} sessions: {rate:.0f} calls/s, worked on {behind:.1f} s")
    finally:
        stop.set()
        await watcher


def log_pauses(pid: int, path: Path) -> None:
    """The JVM's safepoints from now on, to ``path``, each line with its wall time."""
    command = ["jcmd", str(pid), "VM.log", f"output={path}", "what=safepoint", "decorators=time"]
    subprocess.run(command, check=True, capture_output=True, timeout=60)


async def run(endpoint: Endpoint, scratch: Path, texts: list[str], args: Any) -> None:
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    recorder = Recorder()
    try:
        await store.apply_schema()
        async with scratch_tenant(store, "tail") as tenant:
            port, spans_file = free_port(), scratch / "spans.jsonl"
            sink = [sys.executable, "-m", "bench.span_sink", str(port), str(spans_file)]
            env = {
                **graphmem_env(endpoint, tenant, scratch, args.embeddings, args.subjects),
                "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}",
                "OTEL_BSP_MAX_QUEUE_SIZE": "1000000",  # no span dropped under load
                "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "4096",
            }
            with contextlib.ExitStack() as stack:
                sink_log = stack.enter_context((scratch / "sink.log").open("w"))
                stack.enter_context(
                    listening_process(sink, env, port, sink_log, sink_log, name="span sink")
                )
                with graphmem_servers(env, args.logs or scratch, 1) as (server,):
                    log_pauses(jvm(endpoint), scratch / "safepoints.log")
                    pids = (server.process.pid, jvm(endpoint))
                    await loads(server.url, pids, texts, args, recorder)
            read_back(scratch, recorder, args.calls)
    finally:
        await store.close()


def write_calls(out: TextIO, label: str, calls: list[Call]) -> None:
    """Each call of a load as a JSON line, in start order: its load, tool and trace, its start
    (ms from the load's first), its milliseconds and parts (when the slow ones came)."""
    first = min((call.start for call in calls), default=0)
    for call in sorted(calls, key=lambda call: call.start):
        at = (call.start - first) / 1e6
        row = {"load": label, "tool": call.tool, "at": at, "ms": call.ms, "trace": call.trace}
        out.write(json.dumps({**row, **call.parts}) + "\n")


def read_back(scratch: Path, recorder: Recorder, calls_file: Path | None) -> None:
    lines = (scratch / "spans.jsonl").read_text().splitlines()
    spans = Spans([json.loads(line) for line in lines])
    pauses = pauses_in((scratch / "safepoints.log").read_text().splitlines())
    say(f"{len(lines)} spans, {len(pauses)} safepoints of Neo4j's JVM")
    dissected = {
        label: [c for c in calls if dissect(c, spans, pauses, recorder.client)]
        for label, calls in recorder.calls.items()
    }
    for label, read in dissected.items():
        for line in report(label, read):
            say(line)
        if len(read) < len(recorder.calls[label]):
            say(f"  ({len(recorder.calls[label]) - len(read)} calls without server spans left out)")
    for line in recorder.profile:
        say(f"server profile: {line}")
    if calls_file is not None:  # this run's calls, and their spans beside them
        with calls_file.open("w") as out:
            for label, read in dissected.items():
                write_calls(out, label, read)
        calls_file.with_suffix(".spans.jsonl").write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description="Where the slow calls' time goes.")
    parser.add_argument("--data", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    parser.add_argument("--sessions", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--tools", nargs="+", default=["save_memory", "record_fact"])
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each load")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of warm-up a tool")
    parser.add_argument("--embeddings", default="none", choices=["none", "e5-small", "minilm"])
    parser.add_argument("--subjects", default="on", choices=["on", "off"], help="the pass")
    parser.add_argument("--logs", type=Path, help="keep the server's log in this folder")
    parser.add_argument("--profile", action="store_true", help="py-spy: first tool, most sessions")
    parser.add_argument("--calls", type=Path, help="write every call's parts to this JSONL file")
    args = parser.parse_args()
    unknown = [tool for tool in args.tools if tool not in OURS]
    if unknown:
        parser.error(f"unknown tools {unknown}: choose from {sorted(OURS)}")
    folder = data_files(args.data)[0].parent
    texts = [turn.text for turn in load(chosen(folder, ["conv-26"])).turns]
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = args.scratch = Path(scratch_dir)
        with managed_local(scratch / "neo4j") as endpoint:
            asyncio.run(run(endpoint, scratch, texts, args))


if __name__ == "__main__":
    main()
