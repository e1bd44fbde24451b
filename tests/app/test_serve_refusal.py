"""A `graphmem serve` that refuses its configuration leaves no managed Neo4j behind: the early
start (begun before the server's imports) never starts one for a serve that will not serve,
and one it already launched is stopped before serve exits."""

from __future__ import annotations

import secrets
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.app.helpers import GRAPHMEM, clean_env
from tests.localdb.support import kill_all, linked_cache, neo4j_processes
from tests.neo4j_endpoint import free_port

pytestmark = [pytest.mark.managed, pytest.mark.e2e]


def _history_key_open_to_others(folder: Path) -> dict[str, str]:
    key = folder / "history.key"
    key.write_text(secrets.token_hex(32) + "\n")
    key.chmod(0o644)
    return {"GRAPHMEM_HISTORY_KEY_FILE": str(key)}


CASES = {
    # (serve's arguments, extra settings, what the refusal says)
    "http-without-credentials": (
        ["--transport", "http", "--host", "0.0.0.0"],  # noqa: S104  (the refused bind)
        lambda _: {},
        "refusing to serve HTTP on 0.0.0.0 without credentials",
    ),
    "invalid-setting": ([], lambda _: {"GRAPHMEM_PORT": "not-a-port"}, "invalid setting port"),
    "history-key-open-to-others": ([], _history_key_open_to_others, "open to others"),
    "missing-verifier-keys": (
        [],
        lambda folder: {"GRAPHMEM_VERIFIER_KEYS_FILE": str(folder / "absent.json")},
        "GRAPHMEM_VERIFIER_KEYS_FILE",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_refused_serve_leaves_no_neo4j_running(tmp_path: Path, case: str) -> None:
    arguments, extra, refusal = CASES[case]
    data, bolt = tmp_path / "data", free_port()
    env = clean_env(
        GRAPHMEM_DATA_DIR=str(data),  # a folder never started
        GRAPHMEM_CACHE_DIR=str(linked_cache(tmp_path / "cache")),
        GRAPHMEM_LOCAL_BOLT_PORT=str(bolt),
        GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
        GRAPHMEM_LOCAL_HEAP="512m",
        GRAPHMEM_LOCAL_PAGECACHE="64m",
        **extra(tmp_path),
    )
    try:
        result = subprocess.run(
            [*GRAPHMEM, "serve", *arguments],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert result.returncode == 1, result.stderr
        assert refusal in result.stderr, result.stderr
        time.sleep(0.5)  # a JVM launched just before the exit shows in /proc by now
        assert neo4j_processes(data) == [], result.stderr
        assert not (data / "state.json").exists(), result.stderr
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", bolt)) != 0, "something listens on bolt"
    finally:
        kill_all(neo4j_processes(data))
