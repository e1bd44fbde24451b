"""What the history's process-level tests share: the session's history key in a file for the
servers they start, an MCP session over plain HTTP, and waiting for a condition."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from graphmem.store import Store
from tests.app.helpers import INITIALIZE_MESSAGE, post


def key_file_of(store: Store, folder: Path) -> Path:
    """The store's history key in a file (0600), for servers that must chain with it."""
    assert store.chain_key is not None
    key_file = folder / "history.key"
    key_file.write_text(store.chain_key.secret.hex())
    key_file.chmod(0o600)
    return key_file


def plain_session(port: int, **headers: str) -> dict[str, str]:
    """An initialized MCP session over plain HTTP (no client library: it would be the
    bottleneck of a load); the headers its calls carry."""
    session = post(port, INITIALIZE_MESSAGE, **headers).headers["mcp-session-id"]
    sent = {**headers, "mcp_protocol_version": "2025-06-18", "mcp_session_id": session}
    post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **sent)
    return sent


def wait_until(condition: Callable[[], bool], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


async def until_answering(store: Store) -> None:
    """After its Neo4j was killed and started again: the store's pooled connections died with
    the server, so the first calls fail and drop them, then it answers."""
    deadline = time.monotonic() + 60
    while True:
        try:
            await store.ping()
            return
        except Exception:
            assert time.monotonic() < deadline, "the session store did not reconnect"
            await asyncio.sleep(0.2)
