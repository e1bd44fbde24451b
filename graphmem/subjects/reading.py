"""The subjects pass: the sources written since the last pass (label ``Unread``: memories,
raw turns, chunks and claims) are read for the subjects they name, resolved against the
tenant's subjects, and recorded.

Write-behind, as the search fields are (graphmem/retrieval/indexing.py): a save or an
archive_turns call commits without resolving anything (its write costs one label more); this
process's ``SubjectReader`` runs a pass for the tenant soon after (``soon``), and a read that
needs the subjects runs one first (``settle``). A new chunk or claim (add_context_chunk,
extract_candidate_claims) is labelled the same way and read by the tenant's next pass. A pass
is one transaction of the one write path's ``derived_write``: it locks the tenant's ledger
node (so two passes, in any process, resolve one after the other and never make one subject
twice), reads up to ``BATCH`` unread sources, finds the candidates of their mentions by key
(an index seek each), resolves them in order (graphmem/subjects/ledger.py) and writes what it
found. A source left unread by a crash or a failed pass is found by the next pass of its
tenant. A source whose text changed (a chunk an answer was appended to) is Unread again: the
pass replaces its mentions with those of its text as it now stands (drop_stale_mentions).

The names a writer gave (``about``) are mentions of their own (their kind is unknown); names
found in the text where none was given (graphmem/subjects/extract.py) are resolved after them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypedDict, TypeVar
from weakref import WeakKeyDictionary

from graphmem.core.clock import utc_now_iso
from graphmem.core.ids import new_id
from graphmem.history.write_path import derived_write
from graphmem.store import Store, TenantStore, Tx, shaped
from graphmem.subjects.extract import MAX_TEXT_CHARS, mentions_in
from graphmem.subjects.key_walk import name_fact_keys
from graphmem.subjects.ledger import Known, Ledger, in_order
from graphmem.subjects.names import lookup_keys, name_of
from graphmem.subjects.resolve import Mention

log = logging.getLogger("graphmem")

BATCH = 256  # sources read per pass
BACKLOG = 2_000  # sources of each kind written before subjects, looked at per pass
PER_KEY = 64  # subjects a partial key (a first or last word, initials) finds at most
SOON = 1.0  # seconds after a write before its tenant's pass (a burst shares one)
HAND_OVER = 0.05  # seconds between two passes of a backlog
SLICE = 16  # sources read or resolved between two turns of the event loop
# A chunk's body holds the knowledge pipeline's own words, which name nothing: its markers
# (graphmem/knowledge/heuristics.py MARKERS) and the stamp an appended answer opens with
# (graphmem/knowledge/answers.py). Spelled here: subjects stand below knowledge.
PIPELINE_WORDS = re.compile(
    r"(?<![A-Za-z0-9_])(FREEZE_CONTEXT|NO_ENRICH|WAIT_HUMAN|ENRICH_OK)(?![A-Za-z0-9_])"
    r"|\[human answer [^\]\n]{0,64}\]",
    re.IGNORECASE,
)


class UnreadRow(TypedDict):
    """subjects/list_unread_sources."""

    kind: Literal["memory", "turn", "chunk", "claim"]
    id: str
    source: str
    text: str | None
    about: list[str]
    stamp: str  # the text read: a memory's version, a chunk's source hash ('' otherwise)


class LedgerRow(TypedDict):
    """subjects/lock_subject_ledger."""

    tenant: str
    sources_walked: bool  # label_unread_backlog has nothing left to walk
    keys_named: bool  # name_fact_keys has nothing left to walk


class StaleRow(TypedDict):
    """subjects/lock_read_sources: the mentions the sources held before the pass."""

    stale: list[str]


class UnreadFlag(TypedDict):
    """subjects/has_unread_sources."""

    unread: bool


class CandidateRow(TypedDict):
    """subjects/find_subject_candidates."""

    id: str
    kind: str | None
    root: str
    aliases: list[AliasItem]
    sources: list[str]


class AliasItem(TypedDict):
    id: str
    written: str


@dataclass(frozen=True)
class PassResult:
    read: int  # sources
    mentions: int
    subjects: int  # made by this pass
    questions: int


async def read_subjects(db: TenantStore, limit: int = BATCH) -> PassResult:
    """One pass over the tenant's unread sources (at most ``limit``)."""

    async def work(tx: Tx) -> PassResult:
        now = utc_now_iso()
        [ledger_row] = shaped(LedgerRow, await tx.run("subjects/lock_subject_ledger", now=now))
        if not ledger_row["sources_walked"]:  # once per tenant, in steps
            await tx.run("subjects/label_unread_backlog", limit=BACKLOG)
        if not ledger_row["keys_named"]:  # the keys written before their subject was stored
            await name_fact_keys(tx)
        unread = shaped(
            UnreadRow,
            await tx.run("subjects/list_unread_sources", limit=limit, max_chars=MAX_TEXT_CHARS),
        )
        if not unread:
            return PassResult(0, 0, 0, 0)
        # reading the texts and resolving their names is pure CPU, done on the event loop a
        # slice at a time: every other call's answer goes out between two slices (a worker
        # thread would hand the interpreter back and forth with the loop, slowing each I/O)
        found = await in_slices(unread, _mentions_of)
        ledger = _ledger(await _candidates(tx, found))
        resolved = await in_slices(found, lambda pair: _resolve_source(ledger, *pair))
        written = sorted(
            (mention for _, mentions in resolved for mention in mentions),
            key=lambda mention: str(mention["source_id"]),
        )  # the sources' locks are taken in id order, as the search fields' batches take
        # them (graphmem/retrieval/indexing.py), so the two never wait for each other in a circle
        changes = _changes(ledger, written)
        read = sorted(({"id": row["id"], "stamp": row["stamp"]} for row in unread), key=_by_id)
        ids = [item["id"] for item in read]
        locked = await tx.run("subjects/lock_read_sources", ids=ids)
        stale = shaped(StaleRow, locked)[0]["stale"]  # the mentions held before this pass
        await _record(tx, now, changes)
        if stale:  # a source read again: its mentions follow its text (rare: run only then)
            await tx.run("subjects/drop_stale_mentions", ids=ids, stale=stale)
        await tx.run("subjects/close_read_sources", read=read)
        made = sum(1 for subject in ledger.known.values() if subject.new)
        return PassResult(len(unread), len(ledger.mentions), made, len(ledger.questions))

    return await derived_write(db, "subjects", work)


# A statement per kind of record, run only with something to record: one with an empty list
# would be another plan for Neo4j to make (a plan is cached per parameter types).
RECORDS = (
    ("subjects/create_subjects", "subjects"),
    ("subjects/create_aliases", "aliases"),
    ("subjects/create_mentions", "mentions"),
    ("subjects/create_subject_questions", "questions"),
)


async def _record(tx: Tx, now: str, changes: dict[str, list[dict[str, object]]]) -> None:
    for statement, kind in RECORDS:
        if changes[kind]:
            await tx.run(statement, now=now, **{kind: changes[kind]})


def _by_id(item: dict[str, str]) -> str:
    return item["id"]


def _mentions_of(row: UnreadRow) -> list[tuple[Mention, bool]]:
    """A source's mentions, each with whether it is weak: the names given, then those found."""
    given = [(Mention(name_of(name), None, row["source"]), False) for name in row["about"]]
    text = row["text"]
    if text and row["kind"] == "chunk":
        text = PIPELINE_WORDS.sub(" ", text)
    found = mentions_in(text) if text else []
    return given + [(Mention(name_of(f.text), f.kind, row["source"]), f.weak) for f in found]


Found = list[tuple[UnreadRow, list[tuple[Mention, bool]]]]  # each source with its mentions
A = TypeVar("A")
B = TypeVar("B")


async def in_slices(items: list[A], work: Callable[[A], B]) -> list[tuple[A, B]]:
    """``work`` on each item, ``SLICE`` items between two turns of the event loop."""
    done: list[tuple[A, B]] = []
    for first in range(0, len(items), SLICE):
        if first:
            await asyncio.sleep(0)
        done.extend((item, work(item)) for item in items[first : first + SLICE])
    return done


async def _candidates(tx: Tx, found: Found) -> list[CandidateRow]:
    probes: dict[str, set[str]] = {}  # each key once, with the sources that probe it
    for _, mentions in found:
        for mention, _ in mentions:
            for key in lookup_keys(mention.name):
                probes.setdefault(key, set()).add(mention.source)
    return shaped(
        CandidateRow,
        await tx.run(
            "subjects/find_subject_candidates",
            probes=[{"key": key, "sources": sorted(probes[key])} for key in sorted(probes)],
            per_key=PER_KEY,
        ),
    )


def _ledger(rows: list[CandidateRow]) -> Ledger:
    known = [
        Known(
            row["id"],
            row["kind"],
            [name_of(a["written"]) for a in row["aliases"]],
            set(row["sources"]),
            alias_ids={name_of(a["written"]).normal: a["id"] for a in row["aliases"]},
            root=row["root"],
        )
        for row in sorted(rows, key=lambda row: row["id"])  # ids grow with time: oldest first
    ]
    return Ledger.of(known, new_id)


def _resolve_source(
    ledger: Ledger, row: UnreadRow, mentions: list[tuple[Mention, bool]]
) -> list[dict[str, object]]:
    """Resolve one source's mentions; the mention records to write, from this source."""
    first = len(ledger.mentions)
    names = [mention.name for mention, _ in mentions]
    for i in in_order(names):
        mention, weak = mentions[i]
        if mention.name.words:
            ledger.resolve(mention, weak=weak)
    return [
        {
            "id": new_id(),
            "subject_id": m.subject_id,
            "alias_id": m.alias_id,
            "source": m.source,
            "source_kind": row["kind"],
            "source_id": row["id"],
            "written": m.written,
            "evidence": m.evidence,
        }
        for m in ledger.mentions[first:]
    ]


def _changes(
    ledger: Ledger, mentions: list[dict[str, object]]
) -> dict[str, list[dict[str, object]]]:
    """What the pass records, per kind (RECORDS)."""
    return {
        "subjects": [
            {"id": s.id, "kind": s.kind, "name": s.aliases[0].written if s.aliases else ""}
            for s in ledger.known.values()
            if s.new
        ],
        "aliases": [
            {
                "subject_id": a.subject_id,
                "id": a.alias_id,
                "written": a.name.written,
                "normal": a.name.normal,
                "kind": ledger.known[a.subject_id].kind,
                "keys": [{"id": new_id(), "key": key} for key in lookup_keys(a.name)],
            }
            for a in ledger.aliases
        ],
        "mentions": mentions,
        "questions": [
            {
                "id": new_id(),
                "subject_id": q.subject_id,
                "candidate_id": q.candidate.subject_id,
                "evidence": q.candidate.evidence,
                "confidence": q.candidate.confidence,
            }
            for q in ledger.questions
        ],
    }


class SubjectReader:
    """This process's passes: at most one running per tenant, one more asked for behind it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

    def soon(self, tenant: str) -> None:
        """A write left unread sources: read them shortly (after a burst of writes, once)."""
        if tenant in self._running:
            self._again.add(tenant)
            return
        self._running[tenant] = asyncio.get_running_loop().create_task(self._later(tenant))

    async def settle(self, tenant: str, budget: int = 8) -> int:
        """Read the tenant's unread sources now (at most ``budget`` passes): what a read of
        subjects runs first, so a write is found by the next read. Sources still unread."""
        running = self._running.get(tenant)
        if running is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(running)
        db = self.store.of(tenant)
        if not shaped(UnreadFlag, await db.read("subjects/has_unread_sources"))[0]["unread"]:
            return 0  # nothing to read: no write, no lock
        for _ in range(budget):
            if (await read_subjects(db)).read < BATCH:
                return 0
        return BATCH  # more than a read waits for: the background passes go on

    async def _later(self, tenant: str) -> None:
        try:
            while True:
                await asyncio.sleep(SOON)
                self._again.discard(tenant)
                db = self.store.of(tenant)
                await _read_backlog(db)
                if tenant not in self._again:
                    return
        except Exception:  # the next write's pass, or a settle, finds what is left
            log.warning("subjects: a pass failed; its sources stay unread", exc_info=True)
        finally:
            self._running.pop(tenant, None)

    async def close(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _read_backlog(db: TenantStore) -> None:
    """Passes until one reads less than a batch, a pause between two so that a merge or an
    erasure waiting for the ledger takes it."""
    while True:
        if (await read_subjects(db)).read < BATCH:
            return
        await asyncio.sleep(HAND_OVER)


_READERS: WeakKeyDictionary[Store, SubjectReader] = WeakKeyDictionary()


def read_soon(db: TenantStore, reading: bool) -> None:
    """After a write that left sources unread (``reading``: GRAPHMEM_SUBJECTS), a pass soon."""
    if reading:
        reader_of(db.store).soon(db.tenant)


def reader_of(store: Store) -> SubjectReader:
    reader = _READERS.get(store)
    if reader is None:
        reader = _READERS[store] = SubjectReader(store)
        store.on_close(reader.close)
    return reader
