"""Session fixtures shared by the tests that need a real Neo4j: the endpoint, a store, a
per-test tenant (wiped afterwards), a configured verifier and an in-memory MCP client.
Tests of pure logic use none of them."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.attestation import generate_keypair, load_private_key
from graphmem.core.keys import load_or_create
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.neo4j_endpoint import BackendUnavailable, Endpoint, find_endpoint
from tests.support import Verifier, WholeRecordClient

_backend: list[str] = []  # which Neo4j the session used, for the summary line


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs the database is an integration test (``-m integration`` selects them),
    except those of the managed local Neo4j itself (marked ``managed``), which a container
    backend would skip."""
    for item in items:
        needs_database = "neo4j_endpoint" in getattr(item, "fixturenames", ())
        if needs_database and item.get_closest_marker("managed") is None:
            item.add_marker(pytest.mark.integration)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _backend:
        terminalreporter.write_line(f"graphmem tests: Neo4j backend: {_backend[0]}")


@pytest.fixture(scope="session")
def neo4j_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    with ExitStack() as stack:
        try:
            endpoint = stack.enter_context(find_endpoint(tmp_path_factory.mktemp("graphmem-db")))
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


@pytest.fixture
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
def settings(tenant: str, verifier: Verifier) -> Settings:
    return Settings().model_copy(
        update={"tenant": tenant, "toolset": "full", "verifier_keys_file": verifier.keys_file}
    )


@pytest.fixture
async def client(store: Store, settings: Settings) -> AsyncIterator[Client[Any]]:
    async with WholeRecordClient(create_server(store, settings)) as connected:
        yield connected


@pytest.fixture
async def other_client(store: Store, settings: Settings) -> AsyncIterator[Client[Any]]:
    """A client of another tenant on the same database (wiped afterwards)."""
    tenant = f"test-{uuid.uuid4().hex[:12]}"
    other = settings.model_copy(update={"tenant": tenant})
    async with WholeRecordClient(create_server(store, other)) as connected:
        yield connected
    await store.purge_tenant(tenant)
