"""One managed transaction of the write path, and the driver switch that pipelines its BEGIN."""

from __future__ import annotations

import contextlib
from typing import Any

import neo4j
from neo4j import AsyncManagedTransaction

from graphmem.core import tracing
from graphmem.core.keys import ChainKey
from graphmem.store.catalog import NamedQuery, QueryCatalog
from graphmem.store.rows import Row, row_of

# A managed transaction that failed for now (a deadlock's victim, a transient error) runs
# again this soon, then twice as late each time (13 tries in ``max_transaction_retry_time``'s
# 30 s, where the driver's first wait of a second gave 6-7). With the driver's second, every
# write queued behind a deadlock's victim (a group commit's whole batch) waited it out: the
# write tail's largest part under load. The deadlock's other side may hold its locks for a
# batch's length; the retries double past it. The driver's option for it is undocumented
# (neo4j is pinned, as for ``pipelined_begin``).
FIRST_RETRY = 0.01  # seconds


class Tx:
    """One managed transaction; runs catalog queries with the tenant bound."""

    def __init__(
        self,
        tx: AsyncManagedTransaction,
        catalog: QueryCatalog,
        tenant: str,
        chain_key: ChainKey | None = None,
        attempt: int = 1,
    ) -> None:
        self._tx = tx
        self._catalog = catalog
        self.tenant = tenant
        self.chain_key = chain_key  # what the history chain is keyed with (None: plain hashes)
        self.attempt = attempt  # 1, then 2, ... when the driver retries the transaction
        # what a group commit asks of a member that refused: did it change the graph?
        self.changes = 0  # statements so far that changed the graph
        self.failed = False  # a statement failed: the transaction can only roll back

    async def run(self, name: str, **params: object) -> list[Row]:
        query = self._catalog[name]
        with tracing.statement(name, self.attempt) as span:
            try:
                result = await self._tx.run(query.text, {**params, "tenant": self.tenant})
                rows = [row_of(record) async for record in result]
                summary = await result.consume()  # arrived with the last record
            except BaseException:
                self.failed = True
                raise
            self.changes += summary.counters.contains_updates
            tracing.rows(span, len(rows))
        return rows


def pipelined_begin(session: neo4j.AsyncSession) -> contextlib.AbstractContextManager[Any]:
    """The session's BEGIN sent with its first statement instead of alone: one round trip
    less per write transaction. The driver does this for ``execute_query`` only, through a
    private switch (neo4j is pinned, and without the switch every write would fail)."""
    return session._pipelined_begin  # pyright: ignore[reportPrivateUsage]  # the driver's own BEGIN switch


async def run_each(tx: Tx, queries: list[NamedQuery]) -> None:
    """Each of ``queries`` in turn, in one transaction (the schema applied at once)."""
    for query in queries:
        await tx.run(query.name)
