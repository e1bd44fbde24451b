"""``graphmem import --from mcp-neo4j-memory`` against the real peer: mcp-neo4j-memory 0.4.5,
installed from PyPI into its cached environment and served on a managed Neo4j of its own
(bench.peers' machinery), filled through its own MCP tools; graphmem's side is the tests'
Neo4j. Marked ``managed``: it starts a managed local Neo4j (the peer's) whatever the backend,
so CI runs it with the main command.

The dry run (the command itself, --json) writes nothing and counts right; the import makes the
subjects, aliases and memories, ``about`` answers with them, a second import adds nothing, and
what cannot map is reported with its reason."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from bench.peers_servers import PEERS, peer_server
from graphmem.memories.models.memories import MAX_CONTENT_CHARS
from graphmem.moving.service import ImportOptions, import_peer
from graphmem.store import Store
from graphmem.subjects.models import AboutRequest
from graphmem.subjects.service import about
from tests.app.helpers import clean_env, run_cli
from tests.neo4j_endpoint import Endpoint, managed_local

pytestmark = [pytest.mark.managed, pytest.mark.timeout(600)]

LONG = "L" * 250  # the peer takes it; graphmem's names stop at 200 characters
BIG = "b" * (MAX_CONTENT_CHARS + 1)
PROJECT = "moved-in"


@pytest.fixture(scope="module")
def peer_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Endpoint, str]]:
    """The peer on its own managed Neo4j, filled through its MCP tools: (its Neo4j, its URL)."""
    peer = PEERS["mcp-neo4j-memory"]
    venv = peer.venv()  # installed from PyPI once, then reused from graphmem's cache folder
    scratch = tmp_path_factory.mktemp("peer")
    with (
        managed_local(scratch / "neo4j") as db,
        peer_server(peer, venv, db, scratch / "peer.log") as url,
    ):
        yield db, url


async def fill(url: str) -> None:
    async with Client(url) as client:
        entities = [
            {"name": "Alice Chen", "type": "person", "observations": ["Works on graph search"]},
            {"name": "Neo4j Inc", "type": "company", "observations": ["Based in Malmö", BIG]},
            {"name": "Malmö", "type": "location", "observations": []},
            {"name": LONG, "type": "concept", "observations": ["far too long a name"]},
        ]
        await client.call_tool("create_entities", {"entities": entities})
        additions = [{"entityName": "Alice Chen", "observations": ["Speaks fluent German"]}]
        await client.call_tool("add_observations", {"observations": additions})
        relations = [
            {"source": "Alice Chen", "target": "Neo4j Inc", "relationType": "WORKS_AT"},
            {"source": "Neo4j Inc", "target": "Malmö", "relationType": "LOCATED_IN"},
            {"source": LONG, "target": "Alice Chen", "relationType": "KNOWS"},
        ]
        await client.call_tool("create_relations", {"relations": relations})


@pytest.fixture
async def peer(peer_db: tuple[Endpoint, str]) -> AsyncIterator[Store]:
    db, url = peer_db
    await fill(url)  # MERGE: filling it again changes nothing
    opened = await Store.connect(db.uri, db.user, db.password)
    yield opened
    await opened.close()


async def tenant_nodes(endpoint: Endpoint, tenant: str) -> int:
    async with neo4j.AsyncGraphDatabase.driver(
        endpoint.uri, auth=(endpoint.user, endpoint.password)
    ) as driver:
        records, _, _ = await driver.execute_query(
            "MATCH (n {tenant: $tenant}) RETURN count(n) AS n", tenant=tenant
        )
        return records[0]["n"]


def counts(report: dict[str, Any], item: str) -> tuple[int, int, int, int]:
    c = report[item]
    return c["found"], c["maps"], c["already"], c["refused"]


async def test_the_dry_run_reports_and_writes_nothing(
    peer: Store, peer_db: tuple[Endpoint, str], neo4j_endpoint: Endpoint, tenant: str
) -> None:
    db, _ = peer_db
    env = clean_env(**neo4j_endpoint.env(), GRAPHMEM_TENANT=tenant, PEER_NEO4J_PASSWORD=db.password)
    command = ["import", "--from", "mcp-neo4j-memory", "--peer-uri", db.uri]
    result = run_cli(*command, "--project", PROJECT, "--dry-run", "--json", env=env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["dry_run"] and report["tenant"] == tenant
    assert (report["peer_entities"], report["peer_relations"]) == (4, 3)
    assert counts(report, "entities") == (4, 3, 0, 1)
    assert counts(report, "observations") == (5, 3, 0, 2)
    assert counts(report, "relations") == (3, 2, 0, 1)
    assert report["kinds"] == {"person": 1, "organisation": 1, "kept as written": 2}
    assert await tenant_nodes(neo4j_endpoint, tenant) == 0  # nothing, not even a history

    human = run_cli(*command, "--project", PROJECT, "--dry-run", env=env)
    assert human.returncode == 0, human.stderr
    assert "dry run: nothing written" in human.stdout
    assert "a name over 200 characters" in human.stdout

    del env["PEER_NEO4J_PASSWORD"]
    refused = run_cli(*command, "--project", PROJECT, "--dry-run", env=env)
    assert refused.returncode == 1 and "PEER_NEO4J_PASSWORD" in refused.stderr


async def test_the_import_makes_subjects_and_memories_once(
    peer: Store, peer_db: tuple[Endpoint, str], store: Store, tenant: str, neo4j_endpoint: Endpoint
) -> None:
    db, _ = peer_db
    options = ImportOptions(PROJECT, dry_run=False, peer_uri=db.uri, page=2)  # several pages
    first = await import_peer(peer, store.of(tenant), options)
    assert (first.entities.written, first.observations.written, first.relations.written) == (
        3,
        3,
        2,
    )
    assert first.observations.refused == 2 and first.relations.refused == 1
    assert first.names_read
    assert first.refusals == {
        "a name over 200 characters": 1,
        "its entity has a name over 200 characters": 1,
        f"an observation over {MAX_CONTENT_CHARS:,} chars": 1,
        "an end with a name over 200 characters": 1,
    }
    assert {example.item for example in first.examples} == {"entity", "observation", "relation"}

    alice = (await about(store.of(tenant), AboutRequest(name="alice chen", limit=50))).subjects
    assert [subject.name for subject in alice] == ["Alice Chen"]
    titles = sorted(memory.title for memory in alice[0].memories)
    assert titles == [
        "Alice Chen",
        "Alice Chen works at Neo4j Inc",
        "Alice Chen: Speaks fluent German",
        "Alice Chen: Works on graph search",
    ]
    assert "Alice Chen" in alice[0].aliases
    malmo = (await about(store.of(tenant), AboutRequest(name="Malmö"))).subjects
    assert sorted(m.title for m in malmo[0].memories) == [  # the text names it too
        "Malmö",
        "Neo4j Inc located in Malmö",
        "Neo4j Inc: Based in Malmö",
    ]

    written = await tenant_nodes(neo4j_endpoint, tenant)
    look = await import_peer(peer, store.of(tenant), replace(options, dry_run=True))
    assert (look.entities.maps, look.observations.maps, look.relations.maps) == (0, 0, 0)
    again = await import_peer(peer, store.of(tenant), options)
    assert await tenant_nodes(neo4j_endpoint, tenant) == written
    assert again.entities.written == again.observations.written == again.relations.written == 0
    assert (again.entities.already, again.observations.already, again.relations.already) == (
        3,
        3,
        2,
    )
    assert again.refusals == first.refusals


async def test_the_command_imports_and_a_second_run_writes_nothing(
    peer: Store,
    peer_db: tuple[Endpoint, str],
    neo4j_endpoint: Endpoint,
    store: Store,
    tenant: str,
    tmp_path: Path,
) -> None:
    db, _ = peer_db
    env = clean_env(
        **neo4j_endpoint.env(),
        GRAPHMEM_TENANT=tenant,
        GRAPHMEM_HISTORY_KEY_FILE=str(tmp_path / "history.key"),
        PEER_NEO4J_PASSWORD=db.password,
    )
    command = ["import", "--from", "mcp-neo4j-memory", "--peer-uri", db.uri, "--project", PROJECT]
    first = run_cli(*command, "--json", env=env)
    assert first.returncode == 0, first.stderr
    written = json.loads(first.stdout)
    assert [written[item]["written"] for item in ("entities", "observations", "relations")] == [
        3,
        3,
        2,
    ]
    neo4j_inc = (await about(store.of(tenant), AboutRequest(name="Neo4j Inc"))).subjects
    assert "Neo4j Inc: Based in Malmö" in [memory.title for memory in neo4j_inc[0].memories]

    second = run_cli(*command, env=env)
    assert second.returncode == 0, second.stderr
    assert "observations  5 found, 0 written, 3 imported before, 2 cannot map" in second.stdout
