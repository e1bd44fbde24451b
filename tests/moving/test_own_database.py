"""A peer address that reaches graphmem's own database (by any name: localhost, 127.0.0.1, a
DNS alias) is refused by what the database holds, not by the address. Real Neo4j."""

from __future__ import annotations

import pytest

from graphmem.core.errors import ConfigurationError
from graphmem.moving.service import ImportOptions, import_peer
from graphmem.store import Store


async def test_graphmems_own_database_is_never_read_as_a_peer(store: Store, tenant: str) -> None:
    await store.apply_schema()  # the schema stamp: what marks a graphmem database
    options = ImportOptions("p", dry_run=True, peer_uri="bolt://localhost:1")
    with pytest.raises(ConfigurationError, match="graphmem database"):
        await import_peer(store, store.of(tenant), options)
