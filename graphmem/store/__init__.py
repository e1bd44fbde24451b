"""The store seam: the only package that imports the ``neo4j`` driver.

Everything above it speaks tenants, named queries and plain Python values (``Row``).
"""

from graphmem.store.catalog import NamedQuery, QueryCatalog, default_catalog
from graphmem.store.driver_errors import about_the_database, timed_out
from graphmem.store.ping import ping_sync
from graphmem.store.rows import Params, Row, shaped
from graphmem.store.store import Store, TenantStore
from graphmem.store.tx import Tx

__all__ = [
    "NamedQuery",
    "Params",
    "QueryCatalog",
    "Row",
    "Store",
    "TenantStore",
    "Tx",
    "about_the_database",
    "default_catalog",
    "ping_sync",
    "shaped",
    "timed_out",
]
