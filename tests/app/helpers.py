"""Run the real ``graphmem`` command line as a subprocess."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.neo4j_endpoint import free_port

GRAPHMEM = [sys.executable, "-m", "graphmem"]
# An MCP initialize request, for tests that speak JSON-RPC without a client.
INITIALIZE_MESSAGE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "graphmem-tests", "version": "1"},
    },
}
INITIALIZE = json.dumps(INITIALIZE_MESSAGE).encode()


def clean_env(**overrides: str) -> dict[str, str]:
    """The test process environment without graphmem, Neo4j or OpenTelemetry settings, plus
    ``overrides``: a subprocess gets its settings explicitly. tests/conftest.py has already
    cleared them for the test but for those that steer the run (GRAPHMEM_TEST_NEO4J...), which
    this drops too."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GRAPHMEM_", "NEO4J_", "OTEL_"))
    }
    env.update(overrides)
    return env


def run_cli(
    *args: str, env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GRAPHMEM, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=Path(__file__).parent,
    )


def assert_one_clear_line(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Failed with exit code 1 and one 'graphmem: ...' message, never a traceback."""
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    messages = [line for line in result.stderr.splitlines() if line.startswith("graphmem: ")]
    assert len(messages) == 1, result.stderr
    for fragment in fragments:
        assert fragment in messages[0], (fragment, messages[0])


def wait_for_port(
    port: int, process: subprocess.Popen[Any], timeout: float = 120, name: str = "graphmem serve"
) -> None:
    """Until ``process`` listens on ``port``; fails early if it exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{name} exited early (code {process.returncode})")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"{name} did not listen on port {port} within {timeout:.0f} s")


@contextmanager
def listening_process(
    command: list[str],
    env: dict[str, str],
    port: int,
    stderr: Any,
    stdout: Any = subprocess.DEVNULL,
    timeout: float = 120,
    name: str = "graphmem serve",
) -> Iterator[subprocess.Popen[str]]:
    """``command`` started and listening on ``port`` (see wait_for_port); terminated (killed
    after 30 s) afterwards."""
    process = subprocess.Popen(command, env=env, stdout=stdout, stderr=stderr, text=True)
    try:
        wait_for_port(port, process, timeout, name)
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()


@contextmanager
def serving_http(env: dict[str, str], stderr: Any = None) -> Iterator[HttpServer]:
    """`graphmem serve --transport http` on a free port, stopped (or killed) afterwards. Its
    stderr goes to ``stderr``, by default a temporary file: never an unread pipe, which fills
    with the server's per-call log lines and then blocks it."""
    with contextlib.ExitStack() as files:
        sink = stderr if stderr is not None else files.enter_context(tempfile.TemporaryFile())
        with _serving(env, free_port(), sink) as server:
            yield server


@contextmanager
def _serving(env: dict[str, str], port: int, stderr: Any) -> Iterator[HttpServer]:
    command = [*GRAPHMEM, "serve", "--transport", "http", "--port", str(port)]
    with listening_process(command, env, port, stderr) as process:
        yield HttpServer(f"http://127.0.0.1:{port}/mcp", process)


@dataclass(frozen=True)
class HttpServer:
    url: str
    process: subprocess.Popen[str]

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].split("/")[0])


# --- MCP over HTTP without a client library ---------------------------------------------
PLAIN = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def by_server(self) -> bool:
        return self.headers.get("server") == "uvicorn"  # the door names no server

    def message(self) -> Any:
        text = self.body.decode()
        if self.headers.get("content-type") == "text/event-stream":
            text = next(line for line in text.splitlines() if line.startswith("data: "))[6:]
        return json.loads(text)


def post(port: int, message: dict[str, Any], **headers: str) -> Answer:
    """One MCP message POSTed to /mcp on a fresh connection (``mcp_session_id=...`` sends the
    ``mcp-session-id`` header); the answer, whole."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        sent = {**PLAIN, **{k.replace("_", "-"): v for k, v in headers.items()}}
        connection.request("POST", "/mcp", json.dumps(message), sent)
        response = connection.getresponse()
        return Answer(response.status, dict(response.getheaders()), response.read())
    finally:
        connection.close()
