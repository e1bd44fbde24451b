"""Session fixtures shared by the tests that need a real Neo4j: the endpoint, a store, a
per-test tenant (wiped afterwards), a configured verifier and an in-memory MCP client.
Tests of pure logic use none of them, and are marked ``pure`` (``pytest -m pure``, no Neo4j).
Every test runs without the shell's graphmem and Neo4j variables (``clean_environment``)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.keys import load_or_create
from graphmem.core.settings import Settings
from graphmem.facts.attestation import generate_keypair, load_private_key
from graphmem.store import QueryCatalog, Store
from tests.neo4j_endpoint import BackendUnavailable, Endpoint, find_endpoint
from tests.support import TEST_CATALOG, Harness, Verifier, WholeRecordClient

_backend: list[str] = []  # which Neo4j the session used, for the summary line
SETTINGS_PREFIXES = ("GRAPHMEM_", "NEO4J_")
# Variables that steer the test run, not graphmem: the per-test clearing keeps them.
RUN_VARIABLES = (
    "GRAPHMEM_TEST_",
    "GRAPHMEM_CONTAINER_TESTS",
    "GRAPHMEM_UPDATE_GOLDEN",
    "GRAPHMEM_SCREENSHOT",
)
# What the shell said when the run began: the endpoint discovery reads it, whenever it runs.
SHELL_SETTINGS = {k: v for k, v in os.environ.items() if k.startswith(SETTINGS_PREFIXES)}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs the database is an integration test (``-m integration`` selects them),
    except those of the managed local Neo4j itself (marked ``managed``), which a container
    backend would skip. A test marked ``pure`` must not need it: ``-m pure`` starts none."""
    for item in items:
        needs_database = "neo4j_endpoint" in getattr(item, "fixturenames", ())
        if needs_database and item.get_closest_marker("pure") is not None:
            raise pytest.UsageError(f"{item.nodeid} is marked pure but needs the database")
        if needs_database and item.get_closest_marker("managed") is None:
            item.add_marker(pytest.mark.integration)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _backend:
        terminalreporter.write_line(f"graphmem tests: Neo4j backend: {_backend[0]}")
    surface = sys.modules.get("tests.app.surface")  # when the budget tests ran
    measured: dict[str, int] = getattr(surface, "MEASURED", {})
    if measured:
        budgets: dict[str, int] = getattr(surface, "BUDGETS", {})
        said = ", ".join(f"{k} {v:,} of {budgets.get(k, 0):,}" for k, v in measured.items())
        terminalreporter.write_line(f"graphmem tests: model-visible tool tokens: {said}")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees graphmem's defaults, not the developer's GRAPHMEM_* and NEO4J_* (a
    test that wants a setting sets it; a subprocess gets an explicit env)."""
    for name in list(os.environ):
        if name.startswith(SETTINGS_PREFIXES) and not name.startswith(RUN_VARIABLES):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def neo4j_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    scratch = tmp_path_factory.mktemp("graphmem-db")
    with ExitStack() as stack:
        try:
            endpoint = stack.enter_context(find_endpoint(scratch, SHELL_SETTINGS))
        except BackendUnavailable as why:  # the asked-for backend cannot be had: one line
            pytest.exit(f"graphmem tests: {why}", returncode=3)
        _backend.append(endpoint.origin)
        yield endpoint


@pytest.fixture(scope="session")
async def store(
    neo4j_endpoint: Endpoint, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Store]:
    opened = await Store.connect(
        neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password, connect_timeout=60
    )
    opened.chain_key = load_or_create(tmp_path_factory.mktemp("history") / "history.key")
    await opened.apply_schema()
    yield opened
    await opened.close()


@pytest.fixture(scope="session")
async def fixture_store(neo4j_endpoint: Endpoint) -> AsyncIterator[Store]:
    """A second store over tests/cypher: test-only statements (fixtures no tool writes, drift
    no tool produces, inspections)."""
    opened = await Store.connect(
        neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password, connect_timeout=60
    )
    opened.catalog = QueryCatalog(TEST_CATALOG)
    yield opened
    await opened.close()


@pytest.fixture(scope="session")
async def harness(store: Store) -> Harness:
    return Harness(asyncio.get_running_loop(), store)


@pytest.fixture(scope="session")
async def raw_driver(neo4j_endpoint: Endpoint) -> AsyncIterator[neo4j.AsyncDriver]:
    """The database as an attacker with its credentials sees it: no graphmem in between."""
    driver = neo4j.AsyncGraphDatabase.driver(
        neo4j_endpoint.uri, auth=(neo4j_endpoint.user, neo4j_endpoint.password)
    )
    yield driver
    await driver.close()


@pytest.fixture
async def tenant(store: Store) -> AsyncIterator[str]:
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    await store.purge_tenant(name)


@pytest.fixture(scope="session")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Verifier:
    """A configured verifier: its private key signs, its public key is trusted."""
    pem, public = generate_keypair()
    folder = tmp_path_factory.mktemp("verifier")
    (folder / "key.pem").write_bytes(pem)
    keys_file = folder / "trusted.json"
    keys_file.write_text(json.dumps({"qa-bot": public}))
    return Verifier("qa-bot", load_private_key(folder / "key.pem"), keys_file)


@pytest.fixture
def settings(neo4j_endpoint: Endpoint, tenant: str, verifier: Verifier) -> Settings:
    return Settings().model_copy(
        update={
            "neo4j_uri": neo4j_endpoint.uri,  # what the server says of its database
            "tenant": tenant,
            "toolset": "full",
            "verifier_keys_file": verifier.keys_file,
            "erase_without_credentials": True,  # the erasure tests call erase without a token
            # no forward pass per write where the test is not about search: the default model
            # (e5-small) is on in the tests that ask for it (tests/search)
            "embeddings": "none",
        }
    )


@pytest.fixture
async def client(store: Store, settings: Settings) -> AsyncIterator[Client[Any]]:
    async with WholeRecordClient(create_server(store, settings)) as connected:
        yield connected


@pytest.fixture
async def semantic(store: Store, settings: Settings) -> AsyncIterator[Client[Any]]:
    """A client of a server with the all-MiniLM-L6-v2 model (tests mark themselves with
    tests/search/test_search.py's needs_model)."""
    configured = settings.model_copy(update={"embeddings": "minilm"})
    async with WholeRecordClient(create_server(store, configured)) as connected:
        yield connected


@pytest.fixture
async def other_client(store: Store, settings: Settings) -> AsyncIterator[Client[Any]]:
    """A client of another tenant on the same database (wiped afterwards)."""
    tenant = f"test-{uuid.uuid4().hex[:12]}"
    other = settings.model_copy(update={"tenant": tenant})
    async with WholeRecordClient(create_server(store, other)) as connected:
        yield connected
    await store.purge_tenant(tenant)
