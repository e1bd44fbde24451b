"""The store seam: the only package that imports the ``neo4j`` driver.

Everything above it speaks tenants, named queries and plain Python values.
"""

from graphmem.store.catalog import NamedQuery, QueryCatalog, default_catalog
from graphmem.store.store import Store, TenantStore, Tx, ping_sync

__all__ = [
    "NamedQuery",
    "QueryCatalog",
    "Store",
    "TenantStore",
    "Tx",
    "default_catalog",
    "ping_sync",
]
