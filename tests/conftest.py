"""Session fixtures shared by integration and end-to-end tests. Unit tests use none of them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from graphmem.store import Store
from tests.neo4j_endpoint import Endpoint, find_endpoint


@pytest.fixture(scope="session")
def neo4j_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    with find_endpoint(tmp_path_factory.mktemp("graphmem-db")) as endpoint:
        yield endpoint


@pytest.fixture(scope="session")
async def store(neo4j_endpoint: Endpoint) -> AsyncIterator[Store]:
    opened = await Store.connect(
        neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password, connect_timeout=60
    )
    await opened.apply_schema()
    yield opened
    await opened.close()
