"""The catch-up at start: memories and turns written while embeddings were off get their vectors
in the background, so switching the model on (the default since e5-small) needs no command.

Why: a database used without a model records no vector space, so the first server with one
records its model and serves at once; without a catch-up, everything written before would stay
invisible to the vector channel until an operator ran ``graphmem embeddings backfill``. A
database whose vectors are another model's is still refused at start (``vector_space.py``):
re-embedding everything is the operator's decision, not a start's.

The work goes tenant by tenant in small batches (``CATCH_UP_BATCH``: a search waiting for the
model waits for at most one of them), through the backfill's statements (each vector carries
its model, so a stop loses nothing: the next start goes on). A search of a tenant still waiting
says how many of its items are not searchable by meaning yet (``not_embedded_yet``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from weakref import WeakKeyDictionary

from graphmem.embeddings.embedder import Embedder
from graphmem.retrieval.backfill import backfill_tenant, items_to_embed
from graphmem.store import Store

log = logging.getLogger("graphmem")

CATCH_UP_BATCH = 32  # items per forward pass: ~0.1 s of the model a search may wait behind

_waiting: WeakKeyDictionary[Store, dict[str, int]] = WeakKeyDictionary()


def start_catch_up(
    store: Store, embedder: Embedder, tenants: list[str] | None = None
) -> asyncio.Task[None]:
    """Embed in the background what ``store``'s tenants (every one, unless named) wrote
    without ``embedder``'s model; the task ends with the store (what it did not reach, the
    next start does)."""
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


async def _catch_up(store: Store, embedder: Embedder, tenants: list[str] | None) -> None:
    waiting = _waiting.setdefault(store, {})
    for tenant in tenants if tenants is not None else await store.tenants():
        left = sum((await items_to_embed(store, tenant, embedder)).values())
        if left:
            waiting[tenant] = left
    if not waiting:
        return
    total = sum(waiting.values())
    log.warning(
        "embedding %d memories and turns of %d tenants written without %s, in the background",
        total,
        len(waiting),
        embedder.model_id,
    )
    for tenant in list(waiting):

        def advance(done: int, tenant: str = tenant) -> None:
            waiting[tenant] = max(waiting[tenant] - done, 0)

        await backfill_tenant(store, tenant, embedder, advance, batch=CATCH_UP_BATCH)
        waiting.pop(tenant, None)  # items written meanwhile went through the indexer
    log.warning("the %d older memories and turns are searchable by meaning", total)


def _logged(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:  # the next start goes on
        log.warning("the vector catch-up stopped (%s)", type(task.exception()).__name__)
