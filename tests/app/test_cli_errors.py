"""Every expected failure of the command line is one clear message, never a traceback."""

from __future__ import annotations

import socket
import stat
from pathlib import Path

import pytest

from graphmem.localdb.assemble import install_dir, is_assembled
from graphmem.localdb.lockfile import load_lock
from tests.app.helpers import assert_one_clear_line, clean_env, run_cli
from tests.neo4j_endpoint import Endpoint, free_port


def _local_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    defaults = {
        "GRAPHMEM_DATA_DIR": str(tmp_path / "data"),
        "GRAPHMEM_LOCAL_BOLT_PORT": str(free_port()),
        "GRAPHMEM_LOCAL_HTTP_PORT": str(free_port()),
    }
    return clean_env(**{**defaults, **extra})


def _fake_java(tmp_path: Path, version: str, server_exit: int = 0) -> Path:
    """A stand-in `java` that reports ``version`` and exits with ``server_exit`` as a server."""
    home = tmp_path / f"java-{version}"
    (home / "bin").mkdir(parents=True)
    script = home / "bin" / "java"
    script.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "-version" ]; then echo \'openjdk version "{version}"\' >&2; exit 0; fi\n'
        'case "$*" in *set-initial-password*) exit 0;; esac\n'
        f"echo 'fake server failing' ; exit {server_exit}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return home


def test_status_of_a_server_that_never_ran(tmp_path: Path) -> None:
    result = run_cli("neo4j", "status", env=_local_env(tmp_path))
    assert result.returncode == 3
    assert "not running" in result.stdout
    assert str(tmp_path / "data") in result.stdout


def test_stop_when_nothing_runs(tmp_path: Path) -> None:
    result = run_cli("neo4j", "stop", env=_local_env(tmp_path))
    assert result.returncode == 0
    assert "not running" in result.stdout


def test_missing_java(tmp_path: Path) -> None:
    env = _local_env(tmp_path, GRAPHMEM_JAVA_HOME=str(tmp_path / "no-java-here"))
    assert_one_clear_line(
        run_cli("neo4j", "start", env=env), "needs Java 17 or 21", "GRAPHMEM_JAVA_HOME"
    )


def test_unsuitable_java(tmp_path: Path) -> None:
    env = _local_env(tmp_path, GRAPHMEM_JAVA_HOME=str(_fake_java(tmp_path, "11.0.2")))
    assert_one_clear_line(run_cli("neo4j", "start", env=env), "needs Java 17 or 21", "(Java 11)")


def test_taken_port(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        env = _local_env(tmp_path, GRAPHMEM_LOCAL_HTTP_PORT=str(port))
        assert_one_clear_line(
            run_cli("neo4j", "start", env=env), f"port {port} (http)", "GRAPHMEM_LOCAL_HTTP_PORT"
        )


def test_unreachable_maven_repository(tmp_path: Path) -> None:
    env = _local_env(
        tmp_path,
        GRAPHMEM_CACHE_DIR=str(tmp_path / "cache"),
        GRAPHMEM_MAVEN_REPOSITORY=f"http://127.0.0.1:{free_port()}/maven2",
        M2_REPO=str(tmp_path / "m2"),  # an empty Maven cache: everything must be downloaded
    )
    result = run_cli("neo4j", "start", env=env)
    assert_one_clear_line(result, "could not download", "GRAPHMEM_MAVEN_REPOSITORY")
    assert not any((tmp_path / "cache").glob("neo4j-*/.complete"))


@pytest.mark.managed
def test_neo4j_that_does_not_come_up(tmp_path: Path, neo4j_endpoint: Endpoint) -> None:
    cache = Path(neo4j_endpoint.local_settings.cache_dir) if neo4j_endpoint.local_settings else None
    if cache is None or not is_assembled(install_dir(cache, load_lock())):
        pytest.skip("needs the assembled Neo4j jars of the managed local server")
    env = _local_env(
        tmp_path,
        GRAPHMEM_CACHE_DIR=str(cache),
        GRAPHMEM_JAVA_HOME=str(_fake_java(tmp_path, "17.0.9", server_exit=2)),
    )
    assert_one_clear_line(
        run_cli("neo4j", "start", env=env), "Neo4j stopped during start", "the database failed"
    )


def test_serve_refuses_a_public_bind_without_credentials(tmp_path: Path) -> None:
    env = clean_env(NEO4J_URI="bolt://127.0.0.1:1")
    result = run_cli("serve", "--transport", "http", "--host", "0.0.0.0", env=env)  # noqa: S104
    assert_one_clear_line(result, "refusing to serve HTTP on 0.0.0.0 without credentials")


def test_invalid_setting(tmp_path: Path) -> None:
    env = clean_env(GRAPHMEM_TOOLSET="everything")
    assert_one_clear_line(run_cli("serve", env=env), "invalid setting toolset")
