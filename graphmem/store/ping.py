"""A blocking connectivity check, for the local-server launcher (no event loop there)."""

from __future__ import annotations

import asyncio

from graphmem.store.store import Store


def ping_sync(uri: str, user: str, password: str) -> None:
    """Connect once and close: raises what ``Store.connect`` raises."""

    async def ping() -> None:
        store = await Store.connect(uri, user, password, connect_timeout=2.0)
        await store.close()

    asyncio.run(ping())
