"""Erasure: forgetting on demand, everywhere the graph holds it, with an audit that verifies.

A selector (ids, a project, a raw session, a topic, or everything an actor or agent session
wrote) reaches its nodes and everything that copies or derives from them (selection.py). A
dry run lists it with a fingerprint; a real run needs ``confirm_destructive``, a reason and
that fingerprint: when the selection changed since the dry run, nothing is erased (conflict).

A real run erases in batches of ``BATCH`` nodes, each one write of the one write path (a
concurrent writer of the tenant waits one batch at most). Each batch appends an ``erase``
event first (who, why, the selector's kind, counts: never content), erases the payloads of the
events naming its nodes under that event's seal (history/erasure.py), turns its nodes into
tombstones (cypher/erasure/tombstone_nodes.cypher) and drops their idempotency records. A
batch commits whole or not at all: an interrupted erasure leaves whole batches done and the
rest as it was, and its dry run run again lists the rest. At most ``MAX_PER_CALL`` nodes go
per call; ``remaining`` says how many are left for the next: the selector is planned again at
the end, so what was written to it while the batches ran counts too.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from graphmem.core.errors import Conflict
from graphmem.core.ids import new_id
from graphmem.erasure.backups import BackupRemoval
from graphmem.erasure.batch import erase_batch, lock_names
from graphmem.erasure.models import MAX_IDS, EraseRequest, EraseResult, ErasureSample
from graphmem.erasure.selection import Plan, SelectedRow, counts_by_kind, expanded, plan
from graphmem.history.erasure import forget_authors
from graphmem.history.write_path import Write, write_batches
from graphmem.retrieval.indexing import indexer_of
from graphmem.store import TenantStore, shaped
from graphmem.store.continuations import Position
from graphmem.subjects.reading import reader_of

log = logging.getLogger("graphmem")
BATCH = 1_000
MAX_PER_CALL = 100_000
SAMPLE = 5


class DescribedRow(TypedDict):
    """erasure/describe_nodes: the start of what a selected node holds."""

    ref: str
    preview: str


class SharedSessionRow(TypedDict):
    """erasure/list_shared_sessions: a session another writer's turn keeps."""

    ref: str


async def erase(
    db: TenantStore, request: EraseRequest, backup_dir: Path | None = None
) -> EraseResult:
    # the names what was written before this call holds are selected with it (a pass behind
    # the dry run would change the selection and refuse its confirmation)
    try:
        await reader_of(db.store).settle(db.tenant)
    except Exception:  # best effort: a source never read holds no mention to take along
        log.warning("erase: the subjects pass before it failed", exc_info=True)
    selected = await plan(db, request)
    if request.dry_run:
        return await _dry_run(db, selected)
    if not selected.nodes and not selected.written_events and not selected.authored_events:
        return _answer(selected, dry_run=False)  # erased already, or nothing: a no-op
    if request.expected_fingerprint != selected.fingerprint:
        raise Conflict(
            "the selection changed since the dry run (new or changed data): run the dry run "
            "again and confirm with its fingerprint"
        )
    erasure, backups = _Erasure(request, selected, new_id()), BackupRemoval(db.tenant, backup_dir)
    try:
        batches = await write_batches(
            db,
            "erase",
            {"at": 0},
            erasure.batch,
            budget=math.inf,
            committed=lambda batch: backups.start(batch.memory_ids),
        )
    finally:  # what committed has no backup left, even when a later batch failed
        await backups.finish()
    # turns whose vectors read an erased turn wait for new ones: this process's next search
    # of the tenant embeds them (another's within its sweep interval)
    indexer_of(db.store).sweep_soon(db.tenant)
    # what is left (past the bound, or written while the batches ran: the selector is planned
    # again, never assumed done), and its fingerprint for the next confirmation
    left = await plan(db, request)
    erased = [node for batch in batches for node in batch.nodes]
    return EraseResult(
        dry_run=False,
        fingerprint=left.fingerprint,
        counts=counts_by_kind(erased),
        total=len(erased),
        event_payloads=sum(batch.events for batch in batches),
        ids=[node["id"] for node in erased[:MAX_IDS]],
        remaining=len(left.nodes),
        erasure_id=erasure.erasure_id,
        revisions=[batch.revision for batch in batches],
    )


async def _dry_run(db: TenantStore, selected: Plan) -> EraseResult:
    shown = selected.nodes[:SAMPLE]
    rows = await db.read("erasure/describe_nodes", refs=[node["ref"] for node in shown])
    previews = {row["ref"]: row["preview"] for row in shaped(DescribedRow, rows)}
    sample = [
        ErasureSample(kind=node["kind"], id=node["id"], preview=previews.get(node["ref"], ""))
        for node in shown
    ]
    return _answer(selected, dry_run=True, sample=sample)


def _answer(
    selected: Plan, *, dry_run: bool, sample: list[ErasureSample] | None = None
) -> EraseResult:
    return EraseResult(
        dry_run=dry_run,
        fingerprint=selected.fingerprint,
        counts=selected.counts(),
        total=len(selected.nodes),
        event_payloads=selected.event_payloads,
        ids=selected.ids[:MAX_IDS],
        sample=sample or [],
        remaining=max(0, len(selected.nodes) - MAX_PER_CALL) if dry_run else 0,
    )


@dataclass(frozen=True)
class _Batch:
    revision: int
    events: int
    following: Position | None
    nodes: list[SelectedRow]

    @property
    def memory_ids(self) -> list[str]:
        return [node["id"] for node in self.nodes if node["kind"] == "Memory"]


@dataclass
class _Erasure:
    """A confirmed erasure's batches: the nodes (at most MAX_PER_CALL), then the payloads of
    the events an actor or session wrote, and at the end who wrote them; the last two only in
    the call that reaches the end of the selection (the next dry run finds the rest by them)."""

    request: EraseRequest
    selected: Plan
    erasure_id: str
    nodes: list[SelectedRow] = field(default_factory=list[SelectedRow])
    written: list[int] = field(default_factory=list[int])
    authored: list[int] = field(default_factory=list[int])

    def __post_init__(self) -> None:
        self.nodes = self.selected.nodes[:MAX_PER_CALL]
        if len(self.selected.nodes) <= MAX_PER_CALL:
            self.written = self.selected.written_events
            self.authored = self.selected.authored_events

    async def batch(self, current: Write, position: Position, done: list[_Batch]) -> _Batch:
        at = position["at"]  # this call's own position (never a client's continuation)
        if not isinstance(at, int):
            raise TypeError("an erasure's position is the offset of its next batch")
        taken = self.nodes[at : at + BATCH]
        written = self.written[max(0, at - len(self.nodes)) :][: BATCH - len(taken)]
        planned = await self._still_theirs(current, taken)
        await lock_names(current)
        # what derives from them now (written since the plan) goes with them
        nodes = await expanded(current.run, planned) if planned else []
        record = {"reason": self.request.reason, **self.request.selector_record()}
        erased = await erase_batch(
            current, self.erasure_id, nodes, {**record, "batch": len(done) + 1}, written
        )
        end = at + len(taken) + len(written)
        more = end < len(self.nodes) + len(self.written)
        if not more:
            await forget_authors(current, self.authored)
        following: Position | None = {"at": end} if more else None
        return _Batch(erased.revision, erased.events, following, nodes)

    async def _still_theirs(self, current: Write, taken: list[SelectedRow]) -> list[SelectedRow]:
        """An erasure of what an actor wrote keeps, under the lock, a raw session another
        writer appended a turn to since the plan (expanding it would take that turn)."""
        if not self.request.by_authorship:
            return taken
        sessions = [node["ref"] for node in taken if node["kind"] == "Session"]
        if not sessions:
            return taken
        rows = await current.run(
            "erasure/list_shared_sessions", refs=sessions, selected=self.selected.ids
        )
        shared = {row["ref"] for row in shaped(SharedSessionRow, rows)}
        return [node for node in taken if node["ref"] not in shared]
