"""Per-test tenant (wiped afterwards) and an in-memory MCP client on a real Neo4j."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastmcp import Client

from graphmem.server import create_server
from graphmem.settings import Settings
from graphmem.store import Store
from graphmem.verification import generate_keypair, load_private_key


@pytest.fixture
async def tenant(store: Store) -> AsyncIterator[str]:
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    await store.purge_tenant(name)


@dataclass(frozen=True)
class Verifier:
    identity: str
    private_key: Ed25519PrivateKey
    keys_file: Path


@pytest.fixture(scope="session")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Verifier:
    """A configured verifier: its private key signs, its public key is trusted."""
    pem, public = generate_keypair()
    folder = tmp_path_factory.mktemp("verifier")
    (folder / "key.pem").write_bytes(pem)
    keys_file = folder / "trusted.json"
    keys_file.write_text(json.dumps({"qa-bot": public}))
    return Verifier("qa-bot", load_private_key(folder / "key.pem"), keys_file)


@pytest.fixture
def settings(tenant: str, verifier: Verifier) -> Settings:
    return Settings().model_copy(
        update={"tenant": tenant, "toolset": "full", "verifier_keys_file": verifier.keys_file}
    )


@pytest.fixture
async def client(store: Store, settings: Settings) -> AsyncIterator[Client[Any]]:
    async with Client(create_server(store, settings)) as connected:
        yield connected


async def call(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its structured result."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def call_error(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must fail with a graphmem error; return the parsed payload."""
    result = await client.call_tool(tool, arguments, raise_on_error=False)
    assert result.is_error, result.structured_content
    return json.loads(result.content[0].text)  # type: ignore[union-attr]
