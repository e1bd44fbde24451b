"""The official MCP TypeScript SDK as a client of `graphmem serve`, over streamable HTTP and
stdio: connect (server/discover or initialize), list the tools (core and full), call a write
and a read, hear progress from a long tool, read a resource, get a prompt and a completion.

Two npm packages, pinned in typescript_client/package-lock.json: the SDK's v2 line,
@modelcontextprotocol/client, which speaks 2026-07-28 (``versionNegotiation`` mode "auto")
and the 2025 initialize handshake (mode "legacy"); and @modelcontextprotocol/sdk, the v1 line
most hosts still ship, which speaks 2025-11-25 at most. typescript_client/client.mjs runs one
session and prints what it saw as one JSON object; the assertions are here."""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from graphmem.app.catalogue import tools_for
from graphmem.app.server import LIST_CACHE_SECONDS
from tests.app.helpers import GRAPHMEM, clean_env, serving_http
from tests.neo4j_endpoint import Endpoint

CLIENT_DIR = Path(__file__).with_name("typescript_client")
# (SDK line, negotiation mode) -> the protocol revision the session must settle on.
SESSIONS = {
    ("v2", "auto"): "2026-07-28",
    ("v2", "legacy"): "2025-11-25",
    ("v1", "legacy"): "2025-11-25",
}
NEEDS_NODE = pytest.mark.skipif(
    shutil.which("npm") is None or shutil.which("node") is None,
    reason="needs Node.js (node and npm) to run the TypeScript SDK",
)


def _lock_digest() -> str:
    files = (CLIENT_DIR / "package.json", CLIENT_DIR / "package-lock.json")
    return hashlib.sha256(b"".join(path.read_bytes() for path in files)).hexdigest()


@pytest.fixture(scope="module")
def typescript_client() -> Path:
    """client.mjs with its npm packages installed (`npm ci`), unless node_modules already
    holds this very lock file's install. A file lock keeps two test runs from installing into
    the folder at once."""
    stamp = CLIENT_DIR / "node_modules" / ".graphmem-lock-digest"
    with (CLIENT_DIR / ".npm-ci.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.exists() or stamp.read_text() != _lock_digest():
            run = subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund"],
                cwd=CLIENT_DIR,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert run.returncode == 0, f"npm ci failed:\n{run.stderr[-3000:]}"
            stamp.write_text(_lock_digest())
    return CLIENT_DIR / "client.mjs"


async def _node(script: Path, config: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    """One client.mjs session; its JSON, or a failure carrying the client's error."""
    run = await asyncio.to_thread(
        subprocess.run,
        ["node", str(script), json.dumps(config)],
        env=env,
        cwd=CLIENT_DIR,
        capture_output=True,
        text=True,
        timeout=180,
    )
    lines = run.stdout.strip().splitlines()
    assert lines, f"client.mjs printed nothing (exit {run.returncode}):\n{run.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(lines[-1])
    assert "error" not in result, f"{result['error']}\n{run.stderr[-3000:]}"
    assert run.returncode == 0, run.stderr[-3000:]
    return result


async def _session(
    script: Path, config: dict[str, Any], transport: str, env: dict[str, str], log: Path
) -> dict[str, Any]:
    if transport == "http":
        with serving_http(env) as server:
            return await _node(script, {**config, "url": server.url}, env)
    command = [*GRAPHMEM, "serve"]
    return await _node(script, {**config, "command": command, "stderr": str(log)}, env)


def _assert_connected(result: dict[str, Any], sdk: str, mode: str) -> None:
    revision = SESSIONS[sdk, mode]
    assert result["protocolVersion"] == revision
    assert result["serverName"] == "graphmem"
    if revision == "2026-07-28":  # stateless: discover (on stdio, in the SDK's probe child)
        assert result["era"] == "modern"
        assert "initialize" not in result["sent"], result["sent"]
        assert "2026-07-28" in result["discover"]["supportedVersions"]
        assert {"tools", "prompts", "resources"} <= result["discover"]["capabilities"].keys()
        hint = {"ttlMs": LIST_CACHE_SECONDS * 1000, "cacheScope": "public"}
        assert result["toolsCache"] == hint  # the SDK keeps SEP-2549's hints on the list
    else:
        assert result["sent"][:2] == ["initialize", "notifications/initialized"]
        assert result["era"] == ("legacy" if sdk == "v2" else None)  # v1 has no eras
        assert result["toolsCache"] == {"ttlMs": None, "cacheScope": None}


def _assert_session_of_work(result: dict[str, Any]) -> None:
    assert not result["written"]["isError"], result["written"]
    assert result["read"] == {"isError": False, "value": 7}  # the write is seen
    maintained = result["maintain"]
    assert not maintained["isError"] and maintained["progress"], maintained
    last = maintained["progress"][-1]
    assert 0 < last["progress"] <= last["total"], maintained["progress"]
    assert json.loads(result["resource"])["facts"], result["resource"]
    assert "tune the db" in result["prompt"]
    assert "p" in result["completion"]


@NEEDS_NODE
@pytest.mark.parametrize("transport", ["http", "stdio"])
@pytest.mark.parametrize(("sdk", "mode"), list(SESSIONS))
async def test_the_official_typescript_client(
    typescript_client: Path,
    neo4j_endpoint: Endpoint,
    tenant: str,
    tmp_path: Path,
    transport: str,
    sdk: str,
    mode: str,
) -> None:
    env = clean_env(**neo4j_endpoint.env(), GRAPHMEM_TENANT=tenant, GRAPHMEM_TOOLSET="full")
    config = {"sdk": sdk, "mode": mode}
    result = await _session(typescript_client, config, transport, env, tmp_path / "stderr")
    _assert_connected(result, sdk, mode)
    # no verifier keys; erase is not offered without credentials by default
    full = {spec.name for spec in tools_for("full")} - {"verify_fact", "erase"}
    assert set(result["tools"]) == full
    _assert_session_of_work(result)


@NEEDS_NODE
@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_the_core_toolset(
    typescript_client: Path, neo4j_endpoint: Endpoint, tenant: str, tmp_path: Path, transport: str
) -> None:
    env = clean_env(**neo4j_endpoint.env(), GRAPHMEM_TENANT=tenant, GRAPHMEM_TOOLSET="core")
    config = {"sdk": "v2", "mode": "auto", "listOnly": True}
    result = await _session(typescript_client, config, transport, env, tmp_path / "stderr")
    core = {spec.name for spec in tools_for("core")}
    assert set(result["tools"]) == core
    assert {"record_fact", "current_state"} <= core < {spec.name for spec in tools_for("full")}
