"""Connection, transactions and value conversion over the Neo4j driver.

Every call names a catalog query and a tenant; the tenant is always passed as ``$tenant`` so
each statement can (and must) scope itself by it. Each transaction is tagged with the query
name in its metadata, so ``SHOW TRANSACTIONS`` and the query log say which file ran.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import neo4j
import neo4j.exceptions as neo4j_errors
from neo4j import AsyncManagedTransaction, Query, RoutingControl
from neo4j.graph import Node, Relationship
from neo4j.time import Date, DateTime, Duration, Time
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    retry_if_exception_type,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
    wait_random,
)

from graphmem.core.errors import Conflict, StoreAuthFailed, StoreUnavailable, TimedOut
from graphmem.core.keys import ChainKey
from graphmem.store import continuations
from graphmem.store.catalog import QueryCatalog, default_catalog

Row = dict[str, Any]
T = TypeVar("T")

BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
_UNREACHABLE = (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired, OSError)


# Codes of a transaction the server ended for running past its timeout (a lock wait included).
_TIMED_OUT = ("TimedOut", "LockClientStopped", "Transaction.Terminated")
BULK_TIMEOUT = 600.0  # seconds: one import batch (or the closing pass over a large tenant)

_PLAIN = frozenset({str, int, float, bool, type(None)})


def _native(value: Any) -> Any:
    """Driver values to plain Python: temporal types to datetime/date, nodes to dicts."""
    kind = type(value)
    if kind in _PLAIN:  # most values; exact type checks are far cheaper than isinstance
        return value
    if kind is list:
        return [_native(item) for item in value]
    if kind is dict:
        return {key: _native(item) for key, item in value.items()}
    if isinstance(value, DateTime | Date | Time):
        return value.to_native()
    if isinstance(value, Duration):
        return value.iso_format()
    if isinstance(value, Node | Relationship):
        return {key: _native(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_native(item) for item in value]
    if isinstance(value, dict):
        return {key: _native(item) for key, item in value.items()}
    return value


def _row(record: neo4j.Record) -> Row:
    return {key: _native(value) for key, value in record.items()}


SCHEMA_ATTEMPTS = 4


def _schema_race(error: BaseException) -> bool:
    """A schema statement refused because another server applied the same one at that moment.

    Neo4j checks IF [NOT] EXISTS before it takes the schema lock, so two servers creating (or
    dropping) the same rule at once collide: the loser gets EquivalentSchemaRuleAlreadyExists
    (or a failed drop). Run again, the statement finds the other's committed result and does
    nothing; a real conflict fails on every attempt and is raised."""
    return isinstance(error, neo4j_errors.ClientError) and (error.code or "").startswith(
        "Neo.ClientError.Schema."
    )


def _require_tenant(tenant: str) -> None:
    if not isinstance(tenant, str) or not tenant:
        raise ValueError("every store call needs a tenant")  # a programming error, not input


@contextlib.contextmanager
def _translated(uri: str, user: str) -> Iterator[None]:
    """Driver exceptions that mean 'the database is unusable' become graphmem errors."""
    try:
        yield
    except neo4j_errors.AuthError as error:
        raise StoreAuthFailed(
            f"Neo4j at {uri} refused the credentials of user {user!r}. "
            "Check NEO4J_USER and NEO4J_PASSWORD."
        ) from error
    except neo4j_errors.ConstraintError as error:
        raise Conflict(
            "the write collided with a concurrent one on a unique key; retry it"
        ) from error
    except neo4j_errors.TransientError as error:  # still refused after the driver's retries
        raise TimedOut(f"Neo4j kept refusing the transaction: {error.code}") from error
    except neo4j_errors.ClientError as error:
        if not any(mark in (error.code or "") for mark in _TIMED_OUT):
            raise
        raise TimedOut(f"the transaction outlived its timeout: {error.code}") from error
    except _UNREACHABLE as error:
        raise StoreUnavailable(
            f"cannot reach Neo4j at {uri} ({error.__class__.__name__}). Check NEO4J_URI and "
            "that the server runs (`graphmem neo4j status` for the managed local one)."
        ) from error


class Tx:
    """One managed transaction; runs catalog queries with the tenant bound."""

    def __init__(
        self,
        tx: AsyncManagedTransaction,
        catalog: QueryCatalog,
        tenant: str,
        chain_key: ChainKey | None = None,
    ) -> None:
        self._tx = tx
        self._catalog = catalog
        self.tenant = tenant
        self.chain_key = chain_key  # what the history chain is keyed with (None: plain hashes)

    async def run(self, name: str, **params: Any) -> list[Row]:
        query = self._catalog[name]
        result = await self._tx.run(query.text, {**params, "tenant": self.tenant})
        return [_row(record) async for record in result]


def pipelined_begin(session: neo4j.AsyncSession) -> contextlib.AbstractContextManager[Any]:
    """The session's BEGIN sent with its first statement instead of alone: one round trip
    less per write transaction. The driver does this for ``execute_query`` only, through a
    private switch (neo4j is pinned, and without the switch every write would fail)."""
    return session._pipelined_begin


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

    def _session(self, **config: Any) -> neo4j.AsyncSession:
        return self._driver.session(
            database=self.database, bookmark_manager=self.bookmarks, **config
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
            driver = neo4j.AsyncGraphDatabase.driver(
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
        with _translated(self.uri, self.user):
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
    async def read(self, name: str, tenant: str, **params: Any) -> list[Row]:
        """One read statement as an auto-commit transaction: a single round trip.

        (A managed transaction would add BEGIN and COMMIT round trips; a read that fails
        on a transient error is simply reported, the caller may repeat it.)
        """
        _require_tenant(tenant)
        named = self.catalog[name]
        query = Query(named.text, metadata={"graphmem_query": name}, timeout=self.query_timeout)
        with _translated(self.uri, self.user):
            async with self._session(default_access_mode=neo4j.READ_ACCESS) as session:
                result = await session.run(query, {**params, "tenant": tenant})
                return [_row(record) async for record in result]

    async def write(self, name: str, tenant: str, **params: Any) -> list[Row]:
        """One write statement in a managed (retried) transaction."""
        _require_tenant(tenant)
        named = self.catalog[name]
        query = Query(named.text, metadata={"graphmem_query": name}, timeout=self.query_timeout)
        with _translated(self.uri, self.user):
            result = await self._driver.execute_query(
                query,
                {**params, "tenant": tenant},
                routing_=RoutingControl.WRITE,
                database_=self.database,
                bookmark_manager_=self.bookmarks,
            )
        return [_row(record) for record in result.records]

    async def stream(self, name: str, tenant: str, **params: Any) -> AsyncIterator[Row]:
        """One read statement's rows as they arrive (bounded memory, no timeout): for
        exports."""
        _require_tenant(tenant)
        named = self.catalog[name]
        query = Query(named.text, metadata={"graphmem_query": name})
        with _translated(self.uri, self.user):
            async with self._session(default_access_mode=neo4j.READ_ACCESS) as session:
                result = await session.run(query, {**params, "tenant": tenant})
                async for record in result:
                    yield _row(record)

    async def bulk_write(self, name: str, tenant: str, **params: Any) -> list[Row]:
        """One bulk statement into a tenant nothing else writes (graphmem import, which
        refuses a tenant holding data): no lock, no event, a generous timeout."""
        _require_tenant(tenant)
        named = self.catalog[name]
        query = Query(named.text, metadata={"graphmem_query": name}, timeout=BULK_TIMEOUT)
        with _translated(self.uri, self.user):
            async with self._session() as session:
                result = await session.run(query, {**params, "tenant": tenant})
                return [_row(record) async for record in result]

    async def write_transaction(
        self, label: str, tenant: str, work: Callable[[Tx], Awaitable[T]]
    ) -> T:
        """Run ``work`` as one write transaction (all-or-nothing, retried on transient errors).

        ``work`` may run more than once, so it must not have side effects outside ``tx``.
        """
        _require_tenant(tenant)

        @neo4j.unit_of_work(metadata={"graphmem_tool": label}, timeout=self.query_timeout)
        async def unit(tx: AsyncManagedTransaction) -> T:
            return await work(Tx(tx, self.catalog, tenant, self.chain_key))

        with _translated(self.uri, self.user):
            async with self._session() as session:
                with pipelined_begin(session):
                    return await session.execute_write(unit)

    async def write_statement(
        self, label: str, tenant: str, name: str, **params: Any
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
        with _translated(self.uri, self.user):
            async with self._session() as session:
                try:
                    result = await session.run(query, {**params, "tenant": tenant})
                    return [_row(record) async for record in result]
                except neo4j_errors.TransientError:
                    return None

    # --- schema and maintenance -----------------------------------------------------------
    async def apply_schema(self) -> list[str]:
        """Apply ``cypher/schema`` in file-name order; every statement is idempotent, also
        while other servers apply the same schema (several starting at once)."""
        applied = []
        for query in self.catalog.under("schema"):
            async for attempt in AsyncRetrying(
                retry=retry_if_exception(_schema_race),
                stop=stop_after_attempt(SCHEMA_ATTEMPTS),
                wait=wait_random(0.05, 0.3),
                reraise=True,
            ):
                with attempt, _translated(self.uri, self.user):
                    await self._driver.execute_query(
                        Query(query.text, metadata={"graphmem_query": query.name}),
                        database_=self.database,
                        bookmark_manager_=self.bookmarks,
                    )
            applied.append(query.name)
        await self._await_indexes()
        return applied

    async def schema_state(self) -> list[Row]:
        """Indexes and constraints with their state (online, populating, failed)."""
        return await self.read("store/list_schema", tenant="-")

    async def vector_space(self) -> Row | None:
        """The embedding model (``model``, ``dimensions``) whose vectors the database holds;
        None before any server has embedded."""
        rows = await self.read("store/get_vector_space", tenant="-")
        return rows[0] if rows else None

    async def record_vector_space(self, model: str, dimensions: int) -> None:
        await self.write("store/set_vector_space", tenant="-", model=model, dimensions=dimensions)

    async def tenants(self) -> list[str]:
        """Every tenant that has written (for commands over the whole database)."""
        return [row["tenant"] for row in await self.read("store/list_tenants", tenant="-")]

    async def _await_indexes(self) -> None:
        with _translated(self.uri, self.user):
            await self._driver.execute_query(
                self.catalog["store/await_indexes"].text,
                database_=self.database,
                bookmark_manager_=self.bookmarks,
            )

    async def purge_tenant(self, tenant: str) -> None:
        """Delete every node of ``tenant`` (tests; an explicit, confirmed purge later)."""
        _require_tenant(tenant)
        query = self.catalog["store/delete_tenant_data"]
        with _translated(self.uri, self.user):
            async with self._session() as session:
                # CALL ... IN TRANSACTIONS needs an auto-commit transaction.
                result = await session.run(query.text, {"tenant": tenant})
                await result.consume()

    async def explain(self, name: str) -> list[str]:
        """Plan a catalog query without running it; returns its operators, root first."""
        text = "EXPLAIN " + self.catalog[name].text
        async with self._session() as session:
            result = await session.run(text)  # type: ignore[arg-type]  # EXPLAIN of catalog text
            summary = await result.consume()
        operators: list[str] = []
        pending = [summary.plan] if summary.plan else []
        while pending:
            step = pending.pop()
            operators.append(str(step.get("operatorType", "")).split("@")[0])
            pending.extend(step.get("children", []))
        return operators


@dataclass(frozen=True)
class TenantStore:
    """The store bound to one tenant, which is how the domain sees it: a service cannot run a
    statement for any other tenant, nor forget to pass one."""

    store: Store
    tenant: str

    async def read(self, name: str, **params: Any) -> list[Row]:
        return await self.store.read(name, self.tenant, **params)

    async def write(self, name: str, **params: Any) -> list[Row]:
        return await self.store.write(name, self.tenant, **params)

    async def write_transaction(self, label: str, work: Callable[[Tx], Awaitable[T]]) -> T:
        return await self.store.write_transaction(label, self.tenant, work)

    async def write_statement(self, label: str, name: str, **params: Any) -> list[Row] | None:
        return await self.store.write_statement(label, self.tenant, name, **params)

    def continuation(self, tool: str, position: dict[str, Any] | None) -> str | None:
        """A token for where a batched call stopped (None when it finished)."""
        if position is None:
            return None
        return continuations.issue(self.store.chain_key, tool, self.tenant, position)

    def resume(self, tool: str, token: str | None) -> dict[str, Any] | None:
        """The position a client's token names (None without one); a token this tenant's
        call was not given is ``invalid_argument``."""
        if token is None:
            return None
        return continuations.resume(self.store.chain_key, tool, self.tenant, token)


def ping_sync(uri: str, user: str, password: str) -> None:
    """One blocking connectivity check, for the local-server launcher (no event loop there)."""

    async def ping() -> None:
        store = await Store.connect(uri, user, password, connect_timeout=2.0)
        await store.close()

    asyncio.run(ping())
