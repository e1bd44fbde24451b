"""A managed data folder whose default ports are taken (Neo4j Desktop, a container) starts on
free loopback ports, says so, and keeps them; explicit ports that are taken still refuse."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.core.errors import PortInUse
from graphmem.core.settings import Settings
from graphmem.localdb import LocalNeo4j
from graphmem.localdb.ports import EXPLICIT, PORTS_FILE, Ports, kept_ports, ports_for_start
from graphmem.store import ping_sync
from tests.neo4j_endpoint import Endpoint, local_test_settings

DEFAULTS = (7687, 7474)


@contextlib.contextmanager
def taken(*ports: int) -> Iterator[None]:
    """The ports held by this process (one another program holds already stays taken)."""
    with contextlib.ExitStack() as stack:
        for port in ports:
            squatter = stack.enter_context(socket.socket())
            with contextlib.suppress(OSError):  # taken already: all the better
                squatter.bind(("127.0.0.1", port))
                squatter.listen()
        yield


def without_ports(settings: Settings) -> Settings:
    """``settings`` with the ports left to their defaults (not set explicitly)."""
    given = {k: getattr(settings, k) for k in settings.model_fields_set if k not in EXPLICIT}
    return Settings(**given)


@pytest.mark.pure
def test_taken_defaults_give_free_ports_kept_for_the_folder(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    said: list[str] = []
    with taken(*DEFAULTS):
        chosen = ports_for_start(settings, tmp_path, said.append)
        assert {chosen.bolt, chosen.http}.isdisjoint(DEFAULTS) and chosen.bolt != chosen.http
        assert chosen.chosen and (tmp_path / PORTS_FILE).is_file()
        [line] = said
        assert line.startswith("port 7687 (bolt), 7474 (http) in use by another program: ")
        assert f"bolt {chosen.bolt}, http {chosen.http}: chosen because" in line
        assert kept_ports(settings, tmp_path) == chosen  # status and doctor see them
        assert ports_for_start(settings, tmp_path, said.append) == chosen  # kept, said once
    assert len(said) == 1
    status = LocalNeo4j(settings).status().describe()
    assert f"ports:    bolt {chosen.bolt}, http {chosen.http}: chosen because" in status


@pytest.mark.pure
def test_explicit_ports_that_are_taken_still_refuse(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        settings = Settings(data_dir=tmp_path, local_bolt_port=port)
        with pytest.raises(PortInUse, match="GRAPHMEM_LOCAL_BOLT_PORT"):
            ports_for_start(settings, tmp_path, lambda _: None)
    assert not (tmp_path / PORTS_FILE).exists()


@pytest.mark.managed
async def test_a_fresh_folder_beside_another_neo4j_starts_on_free_ports(
    neo4j_endpoint: Endpoint, tmp_path: Path
) -> None:
    if neo4j_endpoint.local_settings is None:
        pytest.skip("the tests run against a Neo4j that graphmem does not manage")
    local = LocalNeo4j(without_ports(local_test_settings(tmp_path)), progress=print)
    try:
        with taken(*DEFAULTS):
            status, started = await asyncio.to_thread(local.start, ping_sync)
        assert started and status.running
        assert status.bolt_uri == f"bolt://127.0.0.1:{local.ports.bolt}"
        assert local.ports.bolt not in DEFAULTS and status.ports_note
    finally:
        local.stop()


@pytest.mark.pure
@pytest.mark.parametrize(
    "kept", ['{"bolt": 70000, "http": 1}', '{"bolt": 0, "http": 9}', '{"bolt": 9, "http": 9}', "{"]
)
def test_a_hand_edited_ports_file_is_not_trusted(tmp_path: Path, kept: str) -> None:
    (tmp_path / PORTS_FILE).write_text(kept)
    assert kept_ports(Settings(data_dir=tmp_path), tmp_path) == Ports(*DEFAULTS)


@pytest.mark.pure
def test_only_the_port_set_explicitly_refuses(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        http = squatter.getsockname()[1]
        settings = Settings(data_dir=tmp_path, local_http_port=http)
        with taken(DEFAULTS[0]), pytest.raises(PortInUse, match="GRAPHMEM_LOCAL_HTTP_PORT"):
            ports_for_start(settings, tmp_path, lambda _: None)
    settings = Settings(data_dir=tmp_path, local_http_port=free_port_now())
    with taken(DEFAULTS[0]):  # the bolt default is taken, the explicit HTTP port is free
        chosen = ports_for_start(settings, tmp_path, lambda _: None)
    assert chosen.bolt != DEFAULTS[0] and chosen.http == settings.local_http_port
    assert kept_ports(settings, tmp_path) == chosen


def free_port_now() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.pure
def test_a_folder_that_cannot_keep_the_ports_still_starts(tmp_path: Path) -> None:
    in_the_way = tmp_path / "not-a-folder"
    in_the_way.write_text("")  # a file where the folder would be (root ignores modes)
    said: list[str] = []
    with taken(*DEFAULTS):
        chosen = ports_for_start(Settings(data_dir=in_the_way), in_the_way, said.append)
    assert chosen.chosen and said[-1].startswith("the chosen ports could not be kept (")
