"""The Neo4j graphmem runs (its managed one, and the tests' container as docker-compose's) plans
a statement again at most every 5 minutes, not Neo4j's 10 s: on a growing graph every statement
was planned again each 10 s, inside the write batch that ran it (docs/operations.md)."""

from __future__ import annotations

import pytest

from graphmem.localdb.server import REPLAN_AT_MOST_EVERY
from graphmem.store import Store
from tests.neo4j_endpoint import Endpoint


async def test_the_database_plans_again_at_most_every_five_minutes(
    neo4j_endpoint: Endpoint, fixture_store: Store
) -> None:
    if neo4j_endpoint.origin == "env":
        pytest.skip("an operator's own Neo4j keeps its own settings")
    rows = await fixture_store.read("store/get_replan_interval", tenant="-")
    assert [row["value"] for row in rows] == [REPLAN_AT_MOST_EVERY]  # Neo4j's own: 10s
