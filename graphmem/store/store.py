"""Connection, transactions and value conversion over the Neo4j driver.

Every call names a catalog query and a tenant; the tenant is always passed as ``$tenant`` so
each statement can (and must) scope itself by it. Each transaction is tagged with the query
name in its metadata, so ``SHOW TRANSACTIONS`` and the query log say which file ran.

Rows across the seam: the store cannot know what a statement returns, so ``read``, ``write``,
``Tx.run`` and the rest return ``list[Row]`` (rows.py: column name to plain value). Whoever
knows the statement gives its rows their type, once, beside the code that runs it:
- the lower floors (store, history) declare a TypedDict per statement family (rows.py of each:
  the history head and its checkpoint, chain events, idempotency records; the store's schema,
  vector space and counts; continuations.py its token) and read rows through ``shaped``;
  the store's own methods return those types (``schema_state``, ``vector_space``);
- areas map rows to their pydantic models in their rows.py (``core.models.from_node``), which
  check every value as they build the model.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import LiteralString, TypeVar, cast

import neo4j
import neo4j.exceptions as neo4j_errors
from neo4j import AsyncManagedTransaction, Query
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    retry_if_exception_type,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
    wait_random,
)

from graphmem.core import tracing
from graphmem.core.errors import StoreUnavailable
from graphmem.core.keys import ChainKey
from graphmem.store.catalog import QueryCatalog, default_catalog
from graphmem.store.driver_errors import schema_race, translated
from graphmem.store.rows import (
    IndexRow,
    PlanStep,
    Row,
    SchemaStampRow,
    TenantRow,
    VectorSpaceRow,
    row_of,
    shaped,
)
from graphmem.store.tenant_store import TenantStore
from graphmem.store.tx import FIRST_RETRY, Tx, pipelined_begin, run_each

T = TypeVar("T")

BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
BULK_TIMEOUT = 600.0  # seconds: one import batch (or the closing pass over a large tenant)

SCHEMA_ATTEMPTS = 4
PURGE_ATTEMPTS = 5


def _require_tenant(tenant: object) -> None:  # callers may be untyped (a CLI, a test)
    if not isinstance(tenant, str) or not tenant:
        raise ValueError("every store call needs a tenant")  # a programming error, not input


class Store:
    def __init__(
        self,
        driver: neo4j.AsyncDriver,
        *,
        uri: str,
        user: str,
        database: str,
        catalog: QueryCatalog | None = None,
        query_timeout: float = 30.0,
        owns_driver: bool = True,
    ) -> None:
        self._driver = driver
        self.uri = uri
        self.user = user
        self.database = database
        self.catalog = catalog or default_catalog()
        self.query_timeout = query_timeout
        self._owns_driver = owns_driver
        self.chain_key: ChainKey | None = None  # set by whoever opens the store for writers
        # One bookmark manager for every session and execute_query of this store: a read
        # after a write sees it, also on a routed (neo4j://) cluster.
        self.bookmarks = neo4j.AsyncGraphDatabase.bookmark_manager()
        self._closers: list[Callable[[], Awaitable[None]]] = []

    def _session(self, access: str = neo4j.WRITE_ACCESS) -> neo4j.AsyncSession:
        return self._driver.session(  # pyright: ignore[reportUnknownMemberType]  # neo4j hides its typed signature from pyright
            database=self.database,
            bookmark_manager=self.bookmarks,
            default_access_mode=access,
            initial_retry_delay=FIRST_RETRY,
        )

    @classmethod
    async def connect(
        cls,
        uri: str,
        user: str,
        password: str,
        database: str = "neo4j",
        *,
        connect_timeout: float = 30.0,
        query_timeout: float = 30.0,
    ) -> Store:
        """Open a driver and wait (with backoff) until the database answers a query."""
        scheme = uri.split("://", 1)[0].lower() if "://" in uri else ""
        if scheme not in BOLT_SCHEMES:
            raise StoreUnavailable(
                f"NEO4J_URI {uri!r} is not a valid Neo4j URI: use one of "
                + ", ".join(f"{s}://" for s in BOLT_SCHEMES)
            )
        try:
            driver = neo4j.AsyncGraphDatabase.driver(  # pyright: ignore[reportUnknownMemberType]  # neo4j hides its typed signature from pyright
                uri,
                auth=(user, password),
                connection_acquisition_timeout=connect_timeout,
                max_transaction_retry_time=query_timeout,
                # "property does not exist yet" hints are noise on a young database
                notifications_min_severity="OFF",
            )
        except (ValueError, neo4j_errors.ConfigurationError) as error:
            raise StoreUnavailable(
                f"NEO4J_URI {uri!r} is not a valid Neo4j URI: {error}"
            ) from error
        store = cls(driver, uri=uri, user=user, database=database, query_timeout=query_timeout)
        try:
            await store._wait_until_answering(connect_timeout)
        except BaseException:
            await driver.close()
            raise
        return store

    async def _wait_until_answering(self, within: float) -> None:
        retrying = AsyncRetrying(
            retry=retry_if_exception_type(StoreUnavailable),
            stop=stop_after_delay(within),
            wait=wait_exponential(multiplier=0.2, max=2.0),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                await self.ping()

    async def ping(self) -> None:
        """One round trip, without the driver's own retries (callers decide how to wait)."""
        with translated(self.uri, self.user):
            async with self._session() as session:
                result = await session.run(self.catalog["store/ping"].text)
                await result.consume()

    def of(self, tenant: str) -> TenantStore:
        """This store seen by one tenant: every statement it runs is scoped to ``tenant``."""
        _require_tenant(tenant)
        return TenantStore(self, tenant)

    def on_close(self, closer: Callable[[], Awaitable[None]]) -> None:
        """Run ``closer`` when the store closes, before its driver does (write-behind work)."""
        self._closers.append(closer)

    async def close(self) -> None:
        for closer in self._closers:
            await closer()
        self._closers.clear()
        if self._owns_driver:
            await self._driver.close()

    # --- running queries ------------------------------------------------------------------
    async def read(self, name: str, tenant: str, **params: object) -> list[Row]:
        """One read statement as an auto-commit transaction: a single round trip.

        (A managed transaction would add BEGIN and COMMIT round trips; a read that fails
        on a transient error is simply reported, the caller may repeat it.)
        """
        _require_tenant(tenant)
        named = self.catalog[name]
        query = Query(named.text, metadata={"graphmem_query": name}, timeout=self.query_timeout)
        with translated(self.uri, self.user), tracing.statement(name) as span:
            async with self._session(neo4j.READ_ACCESS) as session:
                result = await session.run(query, {**params, "tenant": tenant})
                rows = [row_of(record) async for record in result]
        tracing.rows(span, len(rows))
        return rows

    async def write(self, name: str, tenant: str, **params: object) -> list[Row]:
        """One write statement in a managed (retried) transaction."""

        async def statement(tx: Tx) -> list[Row]:
            return await tx.run(name, **params)

        return await self.write_transaction(name, tenant, statement)

    async def stream(self, name: str, tenant: str, **params: object) -> AsyncIterator[Row]:
        """One read statement's rows as they arrive (bounded memory, no timeout): for
        exports."""
        _require_tenant(tenant)
        named = self.catalog[name]
        query = Query(named.text, metadata={"graphmem_query": name})
        with translated(self.uri, self.user):
            async with self._session(neo4j.READ_ACCESS) as session:
                result = await session.run(query, {**params, "tenant": tenant})
                async for record in result:
                    yield row_of(record)

    async def bulk_write(self, name: str, tenant: str, **params: object) -> list[Row]:
        """One bulk statement into a tenant nothing else writes (graphmem import, which
        refuses a tenant holding data): no lock, no event, a generous timeout."""
        _require_tenant(tenant)
        named = self.catalog[name]
        query = Query(named.text, metadata={"graphmem_query": name}, timeout=BULK_TIMEOUT)
        with translated(self.uri, self.user), tracing.statement(name) as span:
            async with self._session() as session:
                result = await session.run(query, {**params, "tenant": tenant})
                rows = [row_of(record) async for record in result]
        tracing.rows(span, len(rows))
        return rows

    async def write_transaction(
        self,
        label: str,
        tenant: str,
        work: Callable[[Tx], Awaitable[T]],
        *,
        budget: float | None = None,
    ) -> T:
        """Run ``work`` as one write transaction (all-or-nothing, retried on transient errors)
        that the server ends after ``budget`` seconds (default ``query_timeout``; a group
        commit's grows with its members).

        ``work`` may run more than once, so it must not have side effects outside ``tx``.
        """
        _require_tenant(tenant)

        attempts = 0
        seconds = self.query_timeout if budget is None else budget

        @neo4j.unit_of_work(metadata={"graphmem_tool": label}, timeout=seconds)
        async def unit(tx: AsyncManagedTransaction) -> T:
            nonlocal attempts
            attempts += 1
            return await work(Tx(tx, self.catalog, tenant, self.chain_key, attempts))

        with translated(self.uri, self.user):
            async with self._session() as session:
                with pipelined_begin(session):
                    return await session.execute_write(unit)

    async def write_statement(
        self, label: str, tenant: str, name: str, **params: object
    ) -> list[Row] | None:
        """One write statement as an auto-commit transaction: a single round trip (RUN and
        PULL; the commit ends it), where a managed transaction takes two. Not retried: None
        when Neo4j refused it for now (a deadlock, a lock timeout), for the write path's
        one-statement writes, which then run as a managed (retried) write."""
        _require_tenant(tenant)
        named = self.catalog[name]
        query = Query(
            named.text,
            metadata={"graphmem_query": name, "graphmem_tool": label},
            timeout=self.query_timeout,
        )
        with translated(self.uri, self.user), tracing.statement(name) as span:
            async with self._session() as session:
                try:
                    result = await session.run(query, {**params, "tenant": tenant})
                    rows = [row_of(record) async for record in result]
                except neo4j_errors.TransientError:
                    tracing.note(span, "graphmem.refused_for_now", True)
                    return None
        tracing.rows(span, len(rows))
        return rows

    # --- schema and maintenance -----------------------------------------------------------
    async def apply_schema(self) -> list[str]:
        """Apply ``cypher/schema`` in file-name order, unless the database's stamp says this
        very catalogue was applied in full already and every index and constraint it leaves is
        there (a restart: nothing to do; one dropped since: applied again). All at once in
        one transaction (a fresh database: one commit); when another server applies the same
        schema at that moment, statement by statement, each idempotent and retried. The stamp
        is set only after the last one, its indexes online."""
        digest = self.catalog.digest("schema")
        if await self._schema_stamp() == digest and await self._schema_present():
            return []
        queries = self.catalog.under("schema")
        try:
            await self.write_transaction("schema", "-", lambda tx: run_each(tx, queries))
        except neo4j_errors.ClientError as error:
            if not schema_race(error):
                raise
            for query in queries:
                await self._apply_schema_statement(query.name, query.text)
        await self._await_indexes()
        await self.write("store/set_schema_stamp", tenant="-", digest=digest)
        return [query.name for query in queries]

    async def _apply_schema_statement(self, name: str, text: LiteralString) -> None:
        async for attempt in AsyncRetrying(
            retry=retry_if_exception(schema_race),
            stop=stop_after_attempt(SCHEMA_ATTEMPTS),
            wait=wait_random(0.05, 0.3),
            reraise=True,
        ):
            with attempt, translated(self.uri, self.user):
                await self._driver.execute_query(
                    Query(text, metadata={"graphmem_query": name}),
                    database_=self.database,
                    bookmark_manager_=self.bookmarks,
                )

    async def _schema_present(self) -> bool:
        # every constraint is a uniqueness constraint: its backing index carries its name
        present = {row["name"] for row in await self.schema_state()}
        return self.catalog.created_names("schema") <= present

    async def _schema_stamp(self) -> str | None:
        rows = shaped(SchemaStampRow, await self.read("store/get_schema_stamp", tenant="-"))
        return rows[0]["digest"] if rows else None

    async def schema_state(self) -> list[IndexRow]:
        """Indexes and constraints with their state (online, populating, failed)."""
        return shaped(IndexRow, await self.read("store/list_schema", tenant="-"))

    async def vector_space(self) -> VectorSpaceRow | None:
        """The embedding model (``model``, ``dimensions``) whose vectors the database holds;
        None before any server has embedded."""
        rows = shaped(VectorSpaceRow, await self.read("store/get_vector_space", tenant="-"))
        return rows[0] if rows else None

    async def record_vector_space(self, model: str, dimensions: int) -> None:
        await self.write("store/set_vector_space", tenant="-", model=model, dimensions=dimensions)

    async def claim_vector_catch_up(self, owner: str, hold: float) -> bool:
        """True when ``owner`` holds the database's catch-up for ``hold`` seconds from now
        (claimed, renewed, or taken over from a holder whose claim lapsed)."""
        now = time.time()
        rows = await self.write(
            "store/claim_vector_catch_up", tenant="-", owner=owner, now=now, until=now + hold
        )
        return bool(rows and rows[0]["claimed"])

    async def release_vector_catch_up(self, owner: str) -> None:
        await self.write("store/release_vector_catch_up", tenant="-", owner=owner)

    async def tenants(self) -> list[str]:
        """Every tenant that has written (for commands over the whole database)."""
        rows = shaped(TenantRow, await self.read("store/list_tenants", tenant="-"))
        return [row["tenant"] for row in rows]

    async def _await_indexes(self) -> None:
        with translated(self.uri, self.user):
            await self._driver.execute_query(
                self.catalog["store/await_indexes"].text,
                database_=self.database,
                bookmark_manager_=self.bookmarks,
            )

    async def purge_tenant(self, tenant: str) -> None:
        """Delete every node of ``tenant`` (tests; an explicit, confirmed purge later)."""
        _require_tenant(tenant)
        query = self.catalog["store/delete_tenant_data"]
        again = AsyncRetrying(  # a deadlock with the tenant's last writes: deleted stays deleted
            retry=retry_if_exception_type(neo4j_errors.TransientError),
            stop=stop_after_attempt(PURGE_ATTEMPTS),
            wait=wait_exponential(multiplier=0.2),
            reraise=True,
        )
        with translated(self.uri, self.user):
            async for attempt in again:
                with attempt:
                    async with self._session() as session:
                        # CALL ... IN TRANSACTIONS needs an auto-commit transaction.
                        result = await session.run(query.text, {"tenant": tenant})
                        await result.consume()

    async def explain(self, name: str) -> list[str]:
        """Plan a catalog query without running it; returns its operators, root first."""
        text = "EXPLAIN " + self.catalog[name].text
        async with self._session() as session:
            result = await session.run(text)
            summary = await result.consume()
        operators: list[str] = []
        plan = cast("PlanStep | None", summary.plan)  # pyright: ignore[reportUnknownMemberType]  # an untyped dict in the driver
        pending = [plan] if plan else []
        while pending:
            step = pending.pop()
            operators.append(step.get("operatorType", "").split("@")[0])
            pending.extend(step.get("children", []))
        return operators
