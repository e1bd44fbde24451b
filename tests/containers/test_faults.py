"""Faults of the container path, each one clear line naming the step, nothing left running:
Docker asked for but absent, a Neo4j port taken, a jar whose hash does not match, a Debian
mirror that refuses. The ones that need an engine or root run from docker/container-tests.sh
(GRAPHMEM_CONTAINER_TESTS=1)."""

from __future__ import annotations

import contextlib
import http.server
import os
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.localdb.lockfile import load_lock
from tests import neo4j_endpoint
from tests.neo4j_endpoint import BackendUnavailable, find_endpoint

ROOT = Path(__file__).resolve().parents[2]
NEO4J_IMAGE = f"graphmem/neo4j:{load_lock().neo4j_version}"
with_engine = pytest.mark.skipif(
    os.environ.get("GRAPHMEM_CONTAINER_TESTS") != "1",
    reason="needs the engine and images of docker/container-tests.sh (GRAPHMEM_CONTAINER_TESTS=1)",
)


def _closed_port() -> int:
    return neo4j_endpoint.free_port()  # nothing listens on it once the probe is closed


def test_docker_asked_for_without_an_engine_fails_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GRAPHMEM_TEST_NEO4J", "docker")
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-engine.sock")
    with pytest.raises(BackendUnavailable) as refused, find_endpoint(tmp_path):
        pass
    assert str(refused.value) == "GRAPHMEM_TEST_NEO4J=docker but no Docker engine answers"


def test_an_unknown_backend_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GRAPHMEM_TEST_NEO4J", "podman")
    with (
        pytest.raises(BackendUnavailable, match="use docker, local or unset"),
        find_endpoint(tmp_path),
    ):
        pass


def _containers_of(image: str) -> str:
    listed = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"ancestor={image}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return listed.stdout.strip()


@with_engine
def test_a_taken_port_fails_the_container_in_one_line_and_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = _containers_of(NEO4J_IMAGE)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setattr(neo4j_endpoint, "free_port", lambda: port)
        with (
            pytest.raises(BackendUnavailable) as failed,
            neo4j_endpoint._from_testcontainers(NEO4J_IMAGE),
        ):
            pass
    message = str(failed.value)
    assert "\n" not in message and message.startswith("the container exited")
    assert _containers_of(NEO4J_IMAGE) == before


def _build(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(ROOT / "docker" / "build-images.sh")],
        env={**os.environ, "TMPDIR": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


@contextlib.contextmanager
def _answering(body: bytes) -> Iterator[str]:
    """A repository on loopback that answers every jar with ``body`` (as a proxy's page does)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()


@with_engine
@pytest.mark.timeout(900)  # builds the images: up to 600 s
def test_a_jar_whose_hash_does_not_match_names_the_step(tmp_path: Path) -> None:
    first = load_lock().artifacts[0]  # a local Maven copy of other bytes: not trusted, fetched
    m2 = tmp_path / "m2"
    folder = m2 / first.group.replace(".", "/") / first.artifact / first.version
    folder.mkdir(parents=True)
    (folder / first.file_name).write_bytes(b"not the pinned jar")
    with _answering(b"<html>not the pinned jar</html>") as repository:
        built = _build(
            tmp_path,
            M2_REPO=str(m2),
            GRAPHMEM_CACHE_DIR=str(tmp_path / "cache"),
            GRAPHMEM_MAVEN_REPOSITORY=repository,
        )
    assert built.returncode != 0
    failure = built.stderr.strip().splitlines()
    assert len(failure) == 1, built.stderr
    assert failure[0].startswith("build-images: step 'neo4j jars (pinned, SHA-256 checked)' failed")
    assert "does not match its pinned SHA-256" in failure[0]


@with_engine
@pytest.mark.timeout(900)  # builds the images: up to 600 s
def test_a_debian_mirror_that_refuses_names_the_step(tmp_path: Path) -> None:
    images = subprocess.run(
        ["docker", "image", "ls", "-q", "graphmem/debian"], capture_output=True, text=True
    ).stdout
    built = _build(
        tmp_path,
        GRAPHMEM_REBUILD_BASE="1",
        GRAPHMEM_DEBIAN_MIRROR=f"http://127.0.0.1:{_closed_port()}/debian",
    )
    assert built.returncode != 0
    failure = built.stderr.strip().splitlines()
    assert len(failure) == 1, built.stderr
    assert failure[0].startswith("build-images: step 'debian base image")
    after = subprocess.run(
        ["docker", "image", "ls", "-q", "graphmem/debian"], capture_output=True, text=True
    ).stdout
    assert after == images  # the existing base is kept


def test_the_offline_compose_override_runs_the_locked_neo4j_version() -> None:
    offline = (ROOT / "docker" / "compose.offline.yml").read_text()
    assert f"graphmem/neo4j:{load_lock().neo4j_version}}}" in offline
