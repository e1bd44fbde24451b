"""One ``graphmem serve --transport http`` for the interop tests: a tokens file, a read,write
bearer token for a tenant of its own (purged afterwards). The tests need the database, so
tests/conftest.py marks them ``integration``; the modules mark themselves ``e2e``."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from graphmem.app.tokens import issue_token
from graphmem.store import Store
from tests.app.helpers import clean_env, serving_http
from tests.interop.serving import Graphmem
from tests.neo4j_endpoint import Endpoint


@pytest.fixture(scope="package")
async def graphmem(
    neo4j_endpoint: Endpoint, store: Store, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Graphmem]:
    tokens_file = tmp_path_factory.mktemp("interop") / "tokens.json"
    tenant = f"interop-{uuid.uuid4().hex[:10]}"
    token, _ = issue_token(tokens_file, tenant, ["read", "write"], "interop")
    env = clean_env(**neo4j_endpoint.env(), GRAPHMEM_TOKENS_FILE=str(tokens_file))
    try:
        with serving_http(env) as server:
            yield Graphmem(server.url, token, tenant)
    finally:
        await store.purge_tenant(tenant)
