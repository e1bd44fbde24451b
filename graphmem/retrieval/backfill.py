"""``graphmem embeddings backfill``: vectors of the configured model for every memory and turn
that has none (written while embeddings were off) or another model's (after a model change).

Tenant by tenant, a batch at a time in id order, each batch embedded in one forward pass and
written in one statement (``bookkeeping``: vectors are derived, not told, so no history event).
An interrupted run loses nothing: each vector carries its model, so the next run goes on where
this one stopped. Once every tenant is done, the database records the model
(``graphmem/retrieval/vector_space.py``) and a server configured with it starts again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic

from graphmem.embeddings.embedder import Embedder
from graphmem.history.write_path import bookkeeping
from graphmem.retrieval.indexing import memory_embedding_text
from graphmem.retrieval.rows import (
    EmbeddedRow,
    Item,
    ItemRow,
    ItemsToEmbedRow,
    MemoryToEmbed,
    TurnText,
)
from graphmem.retrieval.turn_texts import turn_embedding_text
from graphmem.retrieval.vectors import embed_texts
from graphmem.store import Store, shaped

BATCH = 256  # items embedded in one forward pass and written in one statement


@dataclass(frozen=True)
class Pace:
    """How a backfill goes: the command's, all at once; the start's catch-up, gently."""

    batch: int = BATCH  # items per read, forward pass and statement
    replace: bool = True  # also re-embed another model's vectors (never a start's decision)
    rest_share: float = 0.0  # after a batch, rest this share of the time it took
    between: Callable[[], Awaitable[None]] | None = None  # after each rest (may raise to stop)

    async def rest(self, took: float) -> None:
        if self.rest_share > 0:
            await asyncio.sleep(took * self.rest_share)
        if self.between is not None:
            await self.between()


@dataclass(frozen=True)
class _Kind(Generic[Item]):
    """One kind of item that carries a vector: how to list, describe and update it (the
    listing's rows are ``shape``; ``previous`` is the id of the turn its text read, if any)."""

    name: str
    listing: str
    update: str
    shape: type[ItemRow[Item]]
    text: Callable[[Item], str]
    previous: Callable[[Item], str | None]

    async def backfill(
        self,
        store: Store,
        tenant: str,
        embedder: Embedder,
        advance: Callable[[int], None],
        pace: Pace,
    ) -> int:
        return await _backfill_kind(store, tenant, embedder, self, advance, pace)


KINDS = (
    _Kind(
        "memories",
        "retrieval/list_memories_to_embed",
        "retrieval/set_memory_embeddings",
        ItemRow[MemoryToEmbed],
        memory_embedding_text,
        lambda _: None,
    ),
    _Kind(
        "turns",
        "retrieval/list_turns_to_embed",
        "retrieval/set_turn_vectors",
        ItemRow[TurnText],
        lambda turn: turn_embedding_text(turn["ts"], turn["content"], turn["previous"]),
        lambda turn: turn["previous_id"],
    ),
)


async def items_to_embed(
    store: Store, tenant: str, embedder: Embedder, replace: bool = True
) -> dict[str, int]:
    """How many memories and turns of ``tenant`` lack a vector of ``embedder``'s model (with
    ``replace`` False: lack any vector)."""
    [row] = shaped(
        ItemsToEmbedRow,
        await store.read(
            "retrieval/count_items_to_embed", tenant, model=embedder.model_id, replace=replace
        ),
    )
    return {"memories": row["memories"], "turns": row["turns"]}


async def backfill_tenant(
    store: Store,
    tenant: str,
    embedder: Embedder,
    advance: Callable[[int], None],
    pace: Pace | None = None,
) -> dict[str, int]:
    """Embed what ``tenant`` lacks, a batch at a time; ``advance`` hears each batch's size.
    The counts written (an item erased meanwhile gets none). ``pace`` (default: the
    command's) sets the batch, whether another model's vectors are replaced, and a rest after
    each batch."""
    done: dict[str, int] = {}
    for kind in KINDS:
        done[kind.name] = await kind.backfill(store, tenant, embedder, advance, pace or Pace())
    return done


async def _backfill_kind(
    store: Store,
    tenant: str,
    embedder: Embedder,
    kind: _Kind[Item],
    advance: Callable[[int], None],
    pace: Pace,
) -> int:
    done, after = 0, ""
    while True:
        began = time.monotonic()
        listed = await store.read(
            kind.listing,
            tenant,
            model=embedder.model_id,
            after=after,
            limit=pace.batch,
            replace=pace.replace,
        )
        rows = shaped(kind.shape, listed)
        if not rows:
            return done
        items = [row["item"] for row in rows]
        vectors = await embed_texts(embedder, [kind.text(item) for item in items]) or []
        vectored = [
            {"id": item["id"], "embedding": v, "previous": kind.previous(item)}
            for item, v in zip(items, vectors, strict=True)
        ]
        written = await bookkeeping(
            store.of(tenant), kind.update, items=vectored, model=embedder.model_id
        )
        # an erased item gets no vector
        done += shaped(EmbeddedRow, written)[0]["embedded"] if written else 0
        after = items[-1]["id"]
        advance(len(items))  # looked at: the progress through the listing
        await pace.rest(time.monotonic() - began)
