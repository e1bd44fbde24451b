"""The catch-up at start: memories and turns written while embeddings were off get their vectors
in the background, so switching the model on (the default since e5-small) needs no command.

Why: a database used without a model records no vector space, so the first server with one
records its model and serves at once; without a catch-up, everything written before would stay
invisible to the vector channel until an operator ran ``graphmem embeddings backfill``. Only
items with no vector at all are embedded: another model's vectors are the backfill command's
to replace (a start never undoes a model change; ``vector_space.py`` refuses a mismatch).

Gently: ``CATCH_UP_PACE`` embeds 16 items per forward pass (a search's query waits behind one
pass at most, as behind the indexer's) and rests as long as a batch took, so it takes at most
half of one model thread and leaves Neo4j idle half the time. One process at a time: the claim
on the database's vector space (``Store.claim_vector_catch_up``, renewed at every batch) keeps
the stdio servers of many agents from doing the same work. A stop or a failure loses nothing
(each vector carries its model): the next start goes on, and a failed tenant is left for it.
A search of a tenant still waiting says how many of its items are not searchable by meaning
yet (``not_embedded_yet``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from weakref import WeakKeyDictionary

from graphmem.embeddings.embedder import Embedder
from graphmem.retrieval.backfill import Pace, backfill_tenant, items_to_embed
from graphmem.retrieval.indexing import EMBED_CHUNK
from graphmem.store import Store

log = logging.getLogger("graphmem")

CLAIM_HOLD = 120.0  # seconds a claim lasts unless renewed
RENEW_EVERY = 30.0  # seconds between renewals (a batch and its rest take well under one)

_waiting: WeakKeyDictionary[Store, dict[str, int]] = WeakKeyDictionary()


def start_catch_up(
    store: Store, embedder: Embedder, tenants: list[str] | None = None
) -> asyncio.Task[None]:
    """Embed in the background what ``store``'s tenants (every one, unless named) wrote
    with no model; the task ends with the store (what it did not reach, the next start does)."""
    task = asyncio.get_running_loop().create_task(_catch_up(store, embedder, tenants))
    task.add_done_callback(_logged)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task

    store.on_close(stop)
    return task


def not_embedded_yet(store: Store, tenant: str) -> int:
    """How many of ``tenant``'s older items the catch-up has still to embed (0 when none)."""
    return _waiting.get(store, {}).get(tenant, 0)


class _ClaimLost(Exception):
    """Another process holds the catch-up now (this one's claim lapsed): it goes on."""


class _Claim:
    """This process's claim on the catch-up, renewed between batches."""

    def __init__(self, store: Store) -> None:
        self.store, self.owner, self.renewed = store, uuid.uuid4().hex, 0.0

    async def renew(self) -> bool:
        self.renewed = time.monotonic()
        return await self.store.claim_vector_catch_up(self.owner, CLAIM_HOLD)

    async def keep(self) -> None:
        if time.monotonic() - self.renewed >= RENEW_EVERY and not await self.renew():
            raise _ClaimLost


async def _catch_up(store: Store, embedder: Embedder, tenants: list[str] | None) -> None:
    claim = _Claim(store)
    if not await claim.renew():
        log.info("another process is embedding what was written without the model")
        return
    pace = Pace(batch=EMBED_CHUNK, replace=False, rest_share=1.0, between=claim.keep)
    try:
        for tenant in tenants if tenants is not None else await store.tenants():
            await _catch_up_tenant(store, embedder, tenant, pace)
    except _ClaimLost:
        log.info("the vector catch-up went on in another process")
    finally:
        with contextlib.suppress(Exception):  # a claim not released lapses after CLAIM_HOLD
            await store.release_vector_catch_up(claim.owner)


async def _catch_up_tenant(store: Store, embedder: Embedder, tenant: str, pace: Pace) -> None:
    """Embed ``tenant``'s items with no vector (a failure leaves them to the next start)."""
    waiting = _waiting.setdefault(store, {})
    left = sum((await items_to_embed(store, tenant, embedder, replace=False)).values())
    if not left:
        return
    waiting[tenant] = left
    log.warning("embedding %d older memories and turns of a tenant in the background", left)

    def advance(done: int) -> None:
        waiting[tenant] = max(waiting.get(tenant, 0) - done, 0)

    try:
        await backfill_tenant(store, tenant, embedder, advance, pace)
    except (asyncio.CancelledError, _ClaimLost):
        raise
    except Exception as error:  # this tenant is left to the next start; the others go on
        log.warning("the vector catch-up of a tenant stopped (%s)", type(error).__name__)
    finally:
        waiting.pop(tenant, None)  # said no longer: done, or left to the next start


def _logged(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:  # the next start goes on
        log.warning("the vector catch-up stopped (%s)", type(task.exception()).__name__)
