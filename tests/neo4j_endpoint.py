"""Find a real Neo4j for the tests. ``GRAPHMEM_TEST_NEO4J`` picks the backend:

- unset (auto): ``NEO4J_URI`` when set; else a container when a Docker engine answers, falling
  back (with one line saying why) to the managed local Neo4j when the image cannot be had or
  started; else the managed local Neo4j;
- ``docker``: the container, or a one-line failure;
- ``local``: graphmem's managed local Neo4j in a temporary data folder on free ports.

The container runs ``GRAPHMEM_TEST_NEO4J_IMAGE`` (default ``neo4j:5.26-community``; CI uses the
offline ``graphmem/neo4j`` image from docker/build-images.sh) on the host network, listening on
127.0.0.1 at free ports: no bridge, nothing published.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AbstractContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from graphmem.core.settings import Settings

IMAGE = "neo4j:5.26-community"
TEST_PASSWORD = "graphmem-test-password"
CONTAINER_START_TIMEOUT = 120.0


class BackendUnavailable(Exception):
    """The asked-for backend cannot be had; the message is one line naming the step."""


@dataclass(frozen=True)
class Endpoint:
    uri: str
    user: str
    password: str
    origin: str  # "env", "testcontainers (image)" or "local", for the summary line
    local_settings: Settings | None = None  # how the managed local server was configured

    def env(self) -> dict[str, str]:
        return {"NEO4J_URI": self.uri, "NEO4J_USER": self.user, "NEO4J_PASSWORD": self.password}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def docker_engine_answers() -> bool:
    try:
        import docker

        docker.from_env(timeout=3).ping()
        return True
    except Exception:  # no client library, no socket, no engine: all mean "no Docker"
        return False


def _container_env(bolt: int, http: int) -> dict[str, str]:
    from graphmem.localdb.server import REPLAN_AT_MOST_EVERY

    return {
        "NEO4J_AUTH": f"neo4j/{TEST_PASSWORD}",
        "NEO4J_server_default__listen__address": "127.0.0.1",
        "NEO4J_server_bolt_listen__address": f"127.0.0.1:{bolt}",
        "NEO4J_server_bolt_advertised__address": f"127.0.0.1:{bolt}",
        "NEO4J_server_http_listen__address": f"127.0.0.1:{http}",
        "NEO4J_server_http_advertised__address": f"127.0.0.1:{http}",
        "NEO4J_server_memory_heap_max__size": "768m",
        "NEO4J_server_memory_pagecache_size": "256m",
        "NEO4J_dbms_usage__report_enabled": "false",
        "NEO4J_dbms_cypher_min__replan__interval": REPLAN_AT_MOST_EVERY,  # as graphmem's own
    }


def _wait_for_bolt(container: Any, uri: str) -> None:
    from graphmem.core.errors import GraphmemError
    from graphmem.store import ping_sync

    deadline = time.monotonic() + CONTAINER_START_TIMEOUT
    while time.monotonic() < deadline:
        container.reload()
        if container.status == "exited":
            tail = container.logs(tail=3).decode(errors="replace").strip().splitlines()
            raise BackendUnavailable(f"the container exited: {tail[-1] if tail else 'no log'}")
        try:
            ping_sync(uri, "neo4j", TEST_PASSWORD)
            return
        except GraphmemError:
            time.sleep(0.5)
    raise BackendUnavailable(f"Neo4j did not answer within {CONTAINER_START_TIMEOUT:.0f} s")


@contextmanager
def _from_testcontainers(image: str) -> Iterator[Endpoint]:
    from testcontainers.core.config import testcontainers_config
    from testcontainers.core.container import DockerContainer

    testcontainers_config.ryuk_disabled = True  # Ryuk's image cannot be pulled here; we stop it
    bolt, http = free_port(), free_port()
    container = DockerContainer(
        image,
        env=_container_env(bolt, http),
        network_mode="host",
        labels={"graphmem.test": "neo4j"},  # docker/container-tests.sh removes leftovers
    )
    try:
        container.start()
    except Exception as error:  # image missing, pull refused, engine error: one line
        container.stop()
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise BackendUnavailable(f"cannot start {image}: {first}") from None
    uri = f"bolt://127.0.0.1:{bolt}"
    try:
        _wait_for_bolt(container.get_wrapped_container(), uri)
        yield Endpoint(uri, "neo4j", TEST_PASSWORD, f"testcontainers ({image})")
    finally:
        container.stop()


def local_test_settings(data_dir: Path) -> Settings:
    """Settings of a managed local Neo4j for tests: a temporary folder, free ports."""
    return Settings().model_copy(
        update={
            "data_dir": data_dir,
            "local_bolt_port": free_port(),
            "local_http_port": free_port(),
            "local_heap": "768m",
            "local_pagecache": "256m",
            "local_checkpoint_interval": "10s",  # an erasure's log leaves within seconds
            "neo4j_password": None,
            "neo4j_uri": None,
        }
    )


@contextmanager
def managed_local(data_dir: Path) -> Iterator[Endpoint]:
    """A managed local Neo4j in ``data_dir`` on free ports, with the tests' settings."""
    from graphmem.localdb import LocalNeo4j
    from graphmem.store import ping_sync

    settings = local_test_settings(data_dir)
    local = LocalNeo4j(settings, progress=lambda line: print(line, file=sys.stderr))
    status, _ = local.start(ready_check=ping_sync)
    try:
        yield Endpoint(status.bolt_uri, local.user, local.password(), "local", settings)
    finally:
        local.stop()


T = TypeVar("T")


@asynccontextmanager
async def in_worker_thread(context: AbstractContextManager[T]) -> AsyncIterator[T]:
    """A blocking context (a Neo4j started here, stopped after) entered and left in a worker
    thread, for async code: the managed Neo4j's readiness check runs an event loop of its own,
    and the caller's loop keeps running while Neo4j starts and stops."""
    value = await asyncio.to_thread(context.__enter__)
    try:
        yield value
    finally:
        await asyncio.to_thread(context.__exit__, None, None, None)


def _say(line: str) -> None:
    print(f"graphmem tests: {line}", file=sys.stderr, flush=True)


@contextmanager
def find_endpoint(scratch: Path, environ: Mapping[str, str] = os.environ) -> Iterator[Endpoint]:
    """The Neo4j that ``environ`` asks for (tests/conftest.py passes the variables it captured
    before each test's environment is cleared)."""
    backend = environ.get("GRAPHMEM_TEST_NEO4J", "").strip().lower()
    image = environ.get("GRAPHMEM_TEST_NEO4J_IMAGE", IMAGE)
    if backend not in ("", "docker", "local"):
        raise BackendUnavailable(f"GRAPHMEM_TEST_NEO4J={backend!r}: use docker, local or unset")
    uri = environ.get("NEO4J_URI")
    if uri and not backend:
        user, password = environ.get("NEO4J_USER", "neo4j"), environ.get("NEO4J_PASSWORD", "")
        yield Endpoint(uri, user, password, "env")
        return
    if backend == "docker" or (not backend and docker_engine_answers()):
        if backend == "docker" and not docker_engine_answers():
            raise BackendUnavailable("GRAPHMEM_TEST_NEO4J=docker but no Docker engine answers")
        try:
            with _from_testcontainers(image) as endpoint:
                yield endpoint
            return
        except BackendUnavailable as why:
            if backend == "docker":
                raise
            fallback = f"{why}; fell back to the managed local Neo4j"
            _say(fallback)
            with managed_local(scratch / "neo4j") as endpoint:
                yield replace(endpoint, origin=f"local ({fallback})")
            return
    with managed_local(scratch / "neo4j") as endpoint:
        yield endpoint
