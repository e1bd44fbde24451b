"""Find a real Neo4j for the tests, in this order:

1. ``NEO4J_URI`` (with ``NEO4J_USER`` / ``NEO4J_PASSWORD``) when set;
2. a testcontainers ``neo4j:5.26-community`` when a Docker engine answers;
3. graphmem's managed local Neo4j in a temporary data folder on free ports.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from graphmem.app.settings import Settings

IMAGE = "neo4j:5.26-community"
TEST_PASSWORD = "graphmem-test-password"


@dataclass(frozen=True)
class Endpoint:
    uri: str
    user: str
    password: str
    origin: str  # "env", "testcontainers" or "local"
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


@contextmanager
def _from_testcontainers() -> Iterator[Endpoint]:
    from testcontainers.neo4j import Neo4jContainer

    with Neo4jContainer(IMAGE, password=TEST_PASSWORD) as container:
        yield Endpoint(container.get_connection_url(), "neo4j", TEST_PASSWORD, "testcontainers")


def local_test_settings(data_dir: Path) -> Settings:
    """Settings of a managed local Neo4j for tests: a temporary folder, free ports."""
    return Settings().model_copy(
        update={
            "data_dir": data_dir,
            "local_bolt_port": free_port(),
            "local_http_port": free_port(),
            "local_heap": "768m",
            "local_pagecache": "256m",
            "neo4j_password": None,
            "neo4j_uri": None,
        }
    )


@contextmanager
def _from_local(data_dir: Path) -> Iterator[Endpoint]:
    from graphmem.localdb import LocalNeo4j
    from graphmem.store import ping_sync

    settings = local_test_settings(data_dir)
    local = LocalNeo4j(settings, progress=lambda line: print(line, file=sys.stderr))
    status, _ = local.start(ready_check=ping_sync)
    try:
        yield Endpoint(status.bolt_uri, local.user, local.password(), "local", settings)
    finally:
        local.stop()


@contextmanager
def find_endpoint(scratch: Path) -> Iterator[Endpoint]:
    if uri := os.environ.get("NEO4J_URI"):
        yield Endpoint(
            uri, os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD", ""), "env"
        )
    elif docker_engine_answers():
        with _from_testcontainers() as endpoint:
            yield endpoint
    else:
        with _from_local(scratch / "neo4j") as endpoint:
            yield endpoint
