"""The managed local Neo4j: lifecycle, idempotent start, status."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from graphmem.browser.guide import SLIDES
from graphmem.browser.served import browser_settings
from graphmem.browser.style import grass
from graphmem.core.errors import PortInUse
from graphmem.localdb import LocalNeo4j
from graphmem.store import Store, ping_sync
from tests.neo4j_endpoint import Endpoint, local_test_settings

pytestmark = pytest.mark.managed  # tests of the managed local Neo4j itself


def _local_or_skip(endpoint: Endpoint) -> LocalNeo4j:
    if endpoint.local_settings is None:
        pytest.skip("the tests run against a Neo4j that graphmem does not manage")
    return LocalNeo4j(endpoint.local_settings)


def test_a_second_start_does_not_start_a_second_server(neo4j_endpoint: Endpoint) -> None:
    local = _local_or_skip(neo4j_endpoint)
    before = local.status()
    status, started = local.start(ready_check=ping_sync)
    assert not started
    assert status.pid == before.pid
    assert status.running and status.bolt_uri == neo4j_endpoint.uri


def test_status_says_where_it_runs_its_version_and_data(neo4j_endpoint: Endpoint) -> None:
    local = _local_or_skip(neo4j_endpoint)
    text = local.status().describe()
    assert "Neo4j 5.26.30 Community: running" in text
    assert neo4j_endpoint.uri in text
    assert str(local.data_dir) in text
    assert "/browser/" in text


def test_the_browser_is_served(neo4j_endpoint: Endpoint) -> None:
    import urllib.request

    local = _local_or_skip(neo4j_endpoint)
    with urllib.request.urlopen(local.status().browser_url, timeout=10) as response:  # noqa: S310
        assert b"Neo4j Browser" in response.read()


def test_the_browser_serves_graphmem_style_and_guide_and_loads_them_on_connect(
    neo4j_endpoint: Endpoint,
) -> None:
    import urllib.request

    local = _local_or_skip(neo4j_endpoint)
    base = local.status().browser_url
    with urllib.request.urlopen(base + "graphmem/style.grass", timeout=10) as response:  # noqa: S310
        assert response.read().decode() == grass()
    with urllib.request.urlopen(base + "graphmem/guide.html", timeout=10) as response:  # noqa: S310
        assert response.read().decode().count("<slide>") == len(SLIDES)
    with urllib.request.urlopen(base, timeout=10) as response:  # noqa: S310
        assert b"Neo4j Browser" in response.read()  # the Browser itself still served
    settings = _settings(neo4j_endpoint, *browser_settings(0))
    port = local.settings.local_http_port
    assert settings == browser_settings(port)
    assert (
        f"style http://127.0.0.1:{port}/browser/graphmem/style.grass"
        in settings["browser.post_connect_cmd"]
    )
    assert settings["client.allow_telemetry"] == "false"


def _settings(endpoint: Endpoint, *names: str) -> dict[str, str]:
    from neo4j import GraphDatabase

    with GraphDatabase.driver(endpoint.uri, auth=(endpoint.user, endpoint.password)) as driver:
        records, _, _ = driver.execute_query(
            "SHOW SETTINGS YIELD name, value WHERE name IN $names RETURN name, value",
            names=list(names),
        )
    return {record["name"]: record["value"] for record in records}


def test_password_is_generated_once_and_private(neo4j_endpoint: Endpoint) -> None:
    local = _local_or_skip(neo4j_endpoint)
    secret = local.data_dir / "auth.secret"
    assert secret.stat().st_mode & 0o077 == 0
    assert local.password() == neo4j_endpoint.password


def test_a_taken_port_is_refused_clearly(neo4j_endpoint: Endpoint, tmp_path: Path) -> None:
    _local_or_skip(neo4j_endpoint)
    settings = local_test_settings(tmp_path)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", settings.local_bolt_port))
        squatter.listen()
        with pytest.raises(PortInUse, match=f"port {settings.local_bolt_port} .bolt. is already"):
            LocalNeo4j(settings).start(ready_check=ping_sync)
    assert not (tmp_path / "state.json").exists()


async def test_stop_then_start_keeps_the_data(neo4j_endpoint: Endpoint, tmp_path: Path) -> None:
    _local_or_skip(neo4j_endpoint)
    local = LocalNeo4j(local_test_settings(tmp_path))
    assert not local.status().running
    try:
        status, started = await asyncio.to_thread(local.start, ping_sync)
        assert started and status.running
        store = await Store.connect(status.bolt_uri, local.user, local.password())
        await store.apply_schema()
        await store.write("history/create_head", "lifecycle", genesis_hash="0" * 64)
        await store.close()

        assert local.stop()
        assert not local.status().running
        assert not local.stop()  # stopping twice is harmless

        status, started = await asyncio.to_thread(local.start, ping_sync)
        assert started
        store = await Store.connect(status.bolt_uri, local.user, local.password())
        rows = await store.write("history/lock_head", "lifecycle", lock_token="t")
        assert rows[0]["last_hash"] == "0" * 64  # the head written before the restart
        await store.close()
    finally:
        local.stop()
