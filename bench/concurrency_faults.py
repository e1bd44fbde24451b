"""bench.concurrency --faults: one member of a batch slow or failing, at the most sessions.

The loads run against a second graphmem server on the same database and tenant, started as
``python -m bench.concurrency_faults serve ...``: graphmem with faults planted for marked calls
(here only, never in the product), and a transaction timeout of FAULTY_TIMEOUT seconds, so a
slow member outlives its batch's timeout in seconds rather than minutes. Each load is
record_fact, as bench.concurrency's, with:

- refused: one call in EVERY (staggered over the sessions, so about one a batch) records its
  event twice, so the database refuses the batch's events statement, its last (a uniqueness
  violation at the batch's end: a conflict);
- conflicting: one call in EVERY reuses the idempotency key of its session's call before it
  with other arguments (a conflict, the member's own; nothing planted);
- slow: one call of the load (session 0's 6th) holds its transaction SLOW seconds, past its
  batch's timeout (Neo4j ends an idle transaction at its next check, every 2 s).

Each load is judged: every faulty call failed with an error of its own, every other call
succeeded with a revision no other call got.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastmcp.client.client import CallToolResult

from bench.concurrency_load import Call, Workload, record_fact
from graphmem.core.ids import new_id
from graphmem.history import write_path
from graphmem.history.chain import Audit, Change, Head
from graphmem.history.write_path import Write
from graphmem.store import Tx
from tests.app.helpers import HttpServer, free_port, listening_process

EVERY = 32  # one faulty call in this many
FAULTY_TIMEOUT = 1.0  # seconds: the faulty server's transaction timeout (a lone write's)
SLOW = 4.5  # seconds a slow call holds its transaction: past a full batch's budget and a check
REFUSE, HOLD = "FAULT:refuse", "FAULT:slow"  # what a faulty call's value carries
SLOW_CALL = 5  # the index (in its session's load) of the one slow call, session 0's


def refused(session: int, n: int, text: str) -> Call:
    tool, arguments = record_fact(session, n, text)
    if (session + n) % EVERY == 0:
        arguments["value"] = f"{REFUSE} {text}"
    return tool, arguments


def conflicting(session: int, n: int, text: str) -> Call:
    tool, arguments = record_fact(session, n, text)
    if (session + n + 1) % EVERY == 0:  # keyed, for the next call to reuse
        arguments["idempotency_key"] = arguments["key"]
    elif (session + n) % EVERY == 0 and n % 1_000_000:  # not its session's first call
        arguments["idempotency_key"] = f"agent{session}.turn{n - 1}"
    return tool, arguments


def slow(session: int, n: int, text: str) -> Call:
    tool, arguments = record_fact(session, n, text)
    if session == 0 and n % 1_000_000 == SLOW_CALL:
        arguments["value"] = f"{HOLD} {text}"
    return tool, arguments


FAULTS: dict[str, Workload] = {
    f"record_fact, 1/{EVERY} refused at the batch's end": refused,
    f"record_fact, 1/{EVERY} conflicting": conflicting,
    f"record_fact, one held {SLOW:.1f} s": slow,
}


def faulty(arguments: dict[str, Any]) -> bool:
    value = str(arguments.get("value", ""))
    reused = arguments.get("idempotency_key", arguments["key"]) != arguments["key"]
    return value.startswith((REFUSE, HOLD)) or reused


@dataclass
class Verdict:
    """A load's answers: the faulty calls' and the others', and the revisions the others got."""

    faulty: list[str] = field(default_factory=list[str])  # each faulty call's outcome
    others_failed: list[str] = field(default_factory=list[str])
    revisions: list[int] = field(default_factory=list[int])

    def judge(self, arguments: dict[str, Any], result: CallToolResult | None) -> None:
        text = "transport failed" if result is None else _first_line(result)
        if faulty(arguments):
            self.faulty.append(text if result is None or result.is_error else "succeeded")
        elif result is None or result.is_error:
            self.others_failed.append(text)
        else:
            self.revisions.append((result.structured_content or {}).get("revision", -1))

    def lines(self) -> list[str]:
        failed = [outcome for outcome in self.faulty if outcome != "succeeded"]
        kinds = sorted({outcome[:90] for outcome in failed})
        own = len(set(self.revisions)) == len(self.revisions) and -1 not in self.revisions
        return [
            f"faulty calls: {len(self.faulty)}, failed {len(failed)} ({'; '.join(kinds)})",
            f"other calls: {len(self.revisions)} succeeded, {len(self.others_failed)} failed"
            f"; each its own revision: {'yes' if own else 'NO'}",
            *(f"  other failed: {why[:120]}" for why in self.others_failed[:3]),
        ]


def _first_line(result: CallToolResult) -> str:
    text = getattr(result.content[0], "text", "") if result.content else ""
    return text.splitlines()[0] if text else ""


@contextlib.contextmanager
def faulty_server(env: dict[str, str], logs: Path) -> Iterator[HttpServer]:
    """This module's graphmem server (its faults planted) on a free port."""
    port = free_port()
    command = [sys.executable, "-m", "bench.concurrency_faults", "serve"]
    command += ["--transport", "http", "--port", str(port)]
    settings = {**env, "GRAPHMEM_QUERY_TIMEOUT": str(FAULTY_TIMEOUT)}
    log = logs / "graphmem-faulty.log"
    with log.open("w") as sink, listening_process(command, settings, port, sink) as process:
        yield HttpServer(f"http://127.0.0.1:{port}/mcp", process)


def plant() -> None:
    """The faults, in this process's graphmem: a write's event decides by the fact's value."""
    recorded, appended = Write.event, write_path.append_event

    async def event(self: Write, change: Change, audit: Audit | None = None) -> int:
        if HOLD in str(change.payload.get("value_json", "")):
            await asyncio.sleep(SLOW)  # inside the transaction, the tenant's lock held
        return await recorded(self, change, audit)

    def append_event(tx: Tx, head: Head, change: Change, audit: Audit) -> int:
        revision = appended(tx, head, change, audit)
        if REFUSE in str(change.payload.get("value_json", "")):  # its revision twice
            head.pending.append({**head.pending[-1], "event_id": new_id()})
        return revision

    Write.event = event
    write_path.append_event = append_event


if __name__ == "__main__":
    plant()
    from graphmem.app.cli import main

    raise SystemExit(main())
