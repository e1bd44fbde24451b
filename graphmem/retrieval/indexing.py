"""Write-behind search fields: a save commits, its memory's search fields follow in batches;
an archive_turns call commits, its turns' vectors follow the same way.

Why: a Neo4j full-text (and vector) index refreshes its Lucene reader inside the commit of
every transaction that touches it, about 6 ms here, more than a save's own work. save_memory
therefore commits the memory with the label ``Unindexed`` and no ``lexical`` or ``embedding``;
this process's ``Indexer`` then sets both for many memories in one statement (one refresh per
batch), computing the embeddings of a batch in one forward pass.

What a reader sees:
- in this process, every search settles its tenant first (``settle``): a save is searchable
  as soon as it returns (read your writes);
- in another process, within ``FLUSH_AT_MOST`` plus one batch.

When a batch goes: once saves pause for ``FLUSH_DELAY``, once its oldest memory has waited
``FLUSH_AT_MOST`` however busy the saves are, or, with a model, once ``MODEL_BATCH`` memories
wait for it (so a search after a burst of saves waits for one short forward pass). A batch
takes what is queued when it starts; saves that arrive while it is written wait for the next.
So a stream of saves shares one batch per ``FLUSH_AT_MOST``: every batch is a transaction
whose commit competes with the saves' own for Neo4j and for this process (back-to-back saves
in one process: p50 5.8-6.8 ms with a batch per ``FLUSH_DELAY`` and every save that came
during a batch written straight after it, 2.9-3.3 ms now).

Nothing is lost: the label stays until the fields are set, so a memory left behind by a crash,
a failed batch or another process that stopped is found by a settle of its tenant in any
process (``list_unindexed_memories``: the first in a process, then at most every
``SWEEP_EVERY``) and indexed then. A batch that fails is retried at the next settle or submit.

Archived turns carry their full-text tokens from their write; only their vectors follow (a
forward pass per turn must never hold an acknowledgement), labelled ``Unembedded`` until set,
found by the same settle and sweep (``retrieval/list_unembedded_turns``). A turn's vector reads
the turn before it in its session (``turn_embedding_text``), read at the flush.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from graphmem.embeddings.embedder import Embedder
from graphmem.history.write_path import bookkeeping
from graphmem.retrieval.lexical import lexical_text
from graphmem.retrieval.rows import (
    MemoryEmbeddingText,
    MemorySearchFields,
    TurnText,
    UnembeddedTurnRow,
    UnindexedMemoryRow,
)
from graphmem.retrieval.turn_texts import turn_embedding_text
from graphmem.retrieval.vectors import embed_texts
from graphmem.store import Store, shaped

log = logging.getLogger("graphmem")

FLUSH_DELAY = 0.05  # seconds of no saves after which the waiting memories are written
FLUSH_AT_MOST = 0.5  # seconds the oldest waiting memory waits, however busy the saves
MODEL_BATCH = 16  # memories waiting for a model: a batch goes at this many (a search that
# settles its tenant waits for their forward pass: ~50 ms at 300 texts/s, not half a second's)
BATCH = 256  # memories or turns per statement
# Texts per forward pass (the model's own batch): the model's lock is let go between chunks,
# so a search's own query (one text) waits for at most one chunk, never a whole batch.
EMBED_CHUNK = 16
TURN_WAIT = 0.2  # seconds a search waits for its tenant's turn vectors (then says how many wait)
SWEEP_BATCH = 500  # unindexed memories read per sweep query
SWEEP_EVERY = 60.0  # seconds between two looks for a tenant's leftovers in one process


@dataclass(frozen=True)
class Pending:
    """A committed memory whose search fields, or turn whose vector, is not set yet."""

    item_id: str  # a memory's or a turn's id
    lexical: str
    embedding_text: str

    @classmethod
    def turn(cls, turn_id: str) -> Pending:
        """An archived turn waiting for its vector (what it encodes is read at the flush)."""
        return cls(turn_id, "", "")

    @classmethod
    def of(cls, tenant: str, memory: MemorySearchFields) -> Pending:
        """A memory's search fields, from its stored (or about to be stored) fields."""
        return cls(memory["id"], memory_lexical(tenant, memory), memory_embedding_text(memory))


def memory_lexical(tenant: str, memory: MemorySearchFields) -> str:
    """Indexed form of a memory: the title counts twice, then type, topic, tags and content."""
    title = memory["title"]
    parts = [title, title, memory["type"], memory.get("topic_key") or ""]
    return lexical_text(tenant, [*parts, *(memory.get("tags") or []), memory["content"]])


def memory_embedding_text(memory: MemoryEmbeddingText) -> str:
    return f"{memory['type']}: {memory['title']}\n{memory['content']}"


Key = tuple[str, Embedder | None, str]  # tenant, model, kind (MEMORIES or TURNS)
MEMORIES = "memories"  # search fields (full-text tokens and vector) of saved memories
TURNS = "turns"  # vectors of archived turns (their full-text tokens are written with them)


class Indexer:
    """The write-behind queue of one store: memories' search fields and turns' vectors,
    submitted per tenant, flushed in batches."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._pending: dict[Key, dict[str, Pending]] = {}
        self._swept: dict[str, float] = {}  # tenant -> when its leftovers were looked for
        # one flush at a time per tenant and kind: a settle waits for its own tenant's only
        self._locks: dict[tuple[str, str], asyncio.Lock] = defaultdict(asyncio.Lock)
        self._behind: dict[str, asyncio.Task[None]] = {}  # tenant -> its turn vectors' flush
        self._in_flight: dict[tuple[str, str], set[str]] = defaultdict(set)  # being written
        self._timer: asyncio.Task[None] | None = None
        self._last_submit = 0.0  # monotonic time of the latest submit
        self._oldest: float | None = None  # when the oldest memory still waiting was submitted
        self._full = asyncio.Event()  # set when MODEL_BATCH memories wait for one model

    def submit(self, tenant: str, item: Pending, embedder: Embedder | None) -> None:
        """Queue one committed memory; it is flushed within ``FLUSH_AT_MOST`` (or sooner)."""
        self._queue((tenant, embedder, MEMORIES), [item])

    def submit_turns(self, tenant: str, turn_ids: list[str], embedder: Embedder) -> None:
        """Queue committed turns for their vectors (what they encode is read at the flush:
        the turn before each may be in the same call or an earlier one)."""
        self._queue((tenant, embedder, TURNS), [Pending.turn(i) for i in turn_ids])

    def _queue(self, key: Key, items: list[Pending]) -> None:
        if not items:  # a sweep that found nothing: no empty queue, no flush to start
            return
        queue = self._pending.setdefault(key, {})
        queue.update((item.item_id, item) for item in items)
        if key[2] == TURNS:  # embedded at once, behind the call: one flush per tenant at a time
            self._turns_behind(key[0])
            return
        if key[1] is not None and len(queue) >= MODEL_BATCH:
            self._full.set()
        self._last_submit = time.monotonic()
        if self._oldest is None:
            self._oldest = self._last_submit
        if self._timer is None or self._timer.done():
            self._timer = asyncio.get_running_loop().create_task(self._flush_later())

    async def settle(self, tenant: str, embedder: Embedder | None, vectors: bool = True) -> int:
        """Set the search fields of every memory of ``tenant`` still waiting (this process's
        queue, and at most every ``SWEEP_EVERY`` those any process left behind), and the
        vectors of its waiting turns for up to ``TURN_WAIT`` (their full-text tokens are
        there already; a large archive call's vectors go on in the background). How many of
        its turns still wait for a vector (``vectors`` False: a search that reads none waits
        for none)."""
        swept = self._swept.get(tenant)
        if swept is None or time.monotonic() - swept >= SWEEP_EVERY:
            await self._sweep(tenant, embedder)
        await self._settle_kind(tenant, MEMORIES)
        if not vectors or not self.waiting_turns(tenant):
            return 0  # nothing of its turns in this process: no flush to start or wait for
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._turns_behind(tenant)), TURN_WAIT)
        return self.waiting_turns(tenant)

    def _turns_behind(self, tenant: str) -> asyncio.Task[None]:
        """The flush of ``tenant``'s turn vectors, a task of its own (one per tenant at a
        time): whoever stops waiting for it, it goes on; what is queued meanwhile goes in the
        next, started when it ends. A failure is logged and its turns stay for a settle."""
        running = self._behind.get(tenant)
        if running is not None and not running.done():
            return running
        task = asyncio.ensure_future(self._flush_kind(tenant, TURNS))
        self._behind[tenant] = task
        task.add_done_callback(lambda done: self._turns_done(tenant, done))
        return task

    def _turns_done(self, tenant: str, task: asyncio.Task[None]) -> None:
        if self._behind.get(tenant) is task:
            del self._behind[tenant]
        if task.cancelled():
            return
        if task.exception() is not None:
            log.warning("turn vectors not written yet (%s)", type(task.exception()).__name__)
        elif self._keys(tenant, TURNS):  # queued while it ran
            self._turns_behind(tenant)

    def waiting_turns(self, tenant: str) -> int:
        """``tenant``'s turns queued or being embedded in this process."""
        waiting = {i for key in self._keys(tenant, TURNS) for i in self._pending[key]}
        return len(waiting | self._in_flight[(tenant, TURNS)])

    async def _settle_kind(self, tenant: str, kind: str) -> None:
        if self._keys(tenant, kind) or self._locks[(tenant, kind)].locked():
            await self._flush_kind(tenant, kind)  # its own tenant's queue, not others'

    def sweep_soon(self, tenant: str) -> None:
        """Look for ``tenant``'s leftovers at its next settle (an erasure left turns waiting
        for their vectors), not only after ``SWEEP_EVERY``."""
        self._swept.pop(tenant, None)

    async def flush(self, tenant: str | None = None) -> None:
        """Write what is queued (``tenant``'s only, when given), memories first."""
        tenants = [tenant] if tenant is not None else list({key[0] for key in self._pending})
        for each in tenants:
            for kind in (MEMORIES, TURNS):
                await self._flush_kind(each, kind)

    async def _flush_kind(self, tenant: str, kind: str) -> None:
        """Write what is queued of one tenant and kind when its lock is had, a batch per
        statement. A flush in flight holds the lock, so this one also waits for what it has
        taken; what arrives while this one writes is left to the next."""
        async with self._locks[(tenant, kind)]:
            keys = self._keys(tenant, kind)
            taken = {key: self._pending.pop(key) for key in keys}
            if not any(key[2] == MEMORIES for key in self._pending):
                self._oldest = None  # what arrives from now on starts the next wait
            self._in_flight[(tenant, kind)] = {i for items in taken.values() for i in items}
            try:
                await self._write_taken(keys, taken)
            finally:
                self._in_flight[(tenant, kind)] = set()

    async def _write_taken(self, keys: list[Key], taken: dict[Key, dict[str, Pending]]) -> None:
        for key, items in taken.items():
            try:
                await self._write(key, list(items.values()))
            except BaseException:
                for left in (key, *keys[keys.index(key) + 1 :]):
                    self._requeue(left, taken[left])
                raise

    def _keys(self, tenant: str, kind: str) -> list[Key]:
        return [key for key in self._pending if key[0] == tenant and key[2] == kind]

    async def close(self) -> None:
        """Flush before the store closes; what cannot be written is left to a sweep."""
        if self._timer is not None:
            self._timer.cancel()
        # turn flushes a search stopped waiting for: their failures are logged already
        await asyncio.gather(*self._behind.values(), return_exceptions=True)
        try:
            await self.flush()
        except Exception:  # the label keeps them findable: the next process indexes them
            log.warning("search fields of %d memories left to the next start", self.waiting)

    @property
    def waiting(self) -> int:
        return sum(len(items) for items in self._pending.values())

    async def _flush_later(self) -> None:
        """The timer: a batch when it is due, again while saves keep arriving."""
        while self._oldest is not None:
            due = min(self._last_submit + FLUSH_DELAY, self._oldest + FLUSH_AT_MOST)
            wait = due - time.monotonic()
            if wait > 0 and not self._model_batch_full():
                self._full.clear()
                with contextlib.suppress(TimeoutError):  # woken early by a full model batch
                    await asyncio.wait_for(self._full.wait(), wait)
                continue  # saves may have come meanwhile: the batch may be due later
            try:
                for tenant in {key[0] for key in self._pending if key[2] == MEMORIES}:
                    await self._flush_kind(tenant, MEMORIES)
            except Exception as error:  # kept queued: the next submit or settle tries again
                log.warning("search fields not written yet (%s)", error.__class__.__name__)
                return

    def _model_batch_full(self) -> bool:
        return any(
            key[1] is not None and key[2] == MEMORIES and len(items) >= MODEL_BATCH
            for key, items in self._pending.items()
        )

    def _requeue(self, key: Key, items: dict[str, Pending]) -> None:
        queued = self._pending.setdefault(key, {})
        self._pending[key] = {**items, **queued}
        if self._oldest is None and key[2] == MEMORIES:  # the timer is the memories'
            self._oldest = time.monotonic()

    async def _write(self, key: Key, items: list[Pending]) -> None:
        tenant, embedder, kind = key
        if kind == TURNS:
            assert embedder is not None  # turns are queued only for a model
            await self._write_turn_vectors(tenant, embedder, [item.item_id for item in items])
            return
        items = sorted(items, key=lambda item: item.item_id)  # locks in id order, as the
        for start in range(0, len(items), BATCH):  # subjects pass takes them (subjects/reading)
            batch = items[start : start + BATCH]
            vectors = await _embedded(embedder, [item.embedding_text for item in batch])
            rows = [
                {
                    "id": item.item_id,
                    "lexical": item.lexical,
                    "embedding": vectors[index] if vectors else None,
                }
                for index, item in enumerate(batch)
            ]
            db = self._store.of(tenant)
            model = embedder.model_id if embedder else None
            await bookkeeping(db, "retrieval/set_memory_search_fields", memories=rows, model=model)

    async def _write_turn_vectors(self, tenant: str, embedder: Embedder, ids: list[str]) -> None:
        ids = sorted(ids)  # locks in id order, as the subjects pass takes them (subjects/reading)
        for start in range(0, len(ids), BATCH):
            read = await self._store.read(
                "retrieval/read_turn_vector_texts", tenant, ids=ids[start : start + BATCH]
            )
            rows = shaped(TurnText, read)  # an erased turn reads nothing: it gets no vector
            texts = [turn_embedding_text(r["ts"], r["content"], r["previous"]) for r in rows]
            vectors = await _embedded(embedder, texts) or []
            turns = [
                {"id": r["id"], "embedding": v, "previous": r["previous_id"]}
                for r, v in zip(rows, vectors, strict=True)
            ]
            if turns:
                await bookkeeping(
                    self._store.of(tenant),
                    "retrieval/set_turn_vectors",
                    items=turns,
                    model=embedder.model_id,
                )

    async def _sweep(self, tenant: str, embedder: Embedder | None) -> None:
        await self._sweep_kind(tenant, embedder, MEMORIES)
        more = embedder is not None and await self._sweep_kind(tenant, embedder, TURNS)
        if not more:  # a full page of waiting turns: the next settle looks for more
            self._swept[tenant] = time.monotonic()

    async def _sweep_kind(self, tenant: str, embedder: Embedder | None, kind: str) -> bool:
        """Queue what ``tenant`` left waiting; True when turns may be left past one page."""
        listing = "retrieval/list_unindexed_memories" if kind == MEMORIES else LIST_UNEMBEDDED
        while True:
            rows = await self._store.read(listing, tenant, limit=SWEEP_BATCH)
            flying = self._in_flight[(tenant, kind)]  # being written already: not twice
            items = (
                [Pending.of(tenant, row["memory"]) for row in shaped(UnindexedMemoryRow, rows)]
                if kind == MEMORIES
                else [Pending.turn(row["id"]) for row in shaped(UnembeddedTurnRow, rows)]
            )
            items = [item for item in items if item.item_id not in flying]
            self._queue((tenant, embedder, kind), items)
            if kind == TURNS:  # written behind, as an archive call's
                return len(rows) == SWEEP_BATCH
            if rows:
                await self._flush_kind(tenant, MEMORIES)
            if len(rows) < SWEEP_BATCH:
                return False


LIST_UNEMBEDDED = "retrieval/list_unembedded_turns"


async def _embedded(embedder: Embedder | None, texts: list[str]) -> list[list[float]] | None:
    """The texts' vectors, ``EMBED_CHUNK`` per forward pass (None without a model)."""
    if embedder is None or not texts:
        return None
    vectors: list[list[float]] = []
    for start in range(0, len(texts), EMBED_CHUNK):
        vectors += await embed_texts(embedder, texts[start : start + EMBED_CHUNK]) or []
    return vectors


_INDEXERS: WeakKeyDictionary[Store, Indexer] = WeakKeyDictionary()


def indexer_of(store: Store) -> Indexer:
    """The store's one indexer (made at first use; flushed when the store closes)."""
    indexer = _INDEXERS.get(store)
    if indexer is None:
        indexer = _INDEXERS[store] = Indexer(store)
        store.on_close(indexer.close)
    return indexer
