"""LangChain's MCP client (langchain-mcp-adapters' ``MultiServerMCPClient``, transport
"streamable_http", a bearer header) loads graphmem's tools as LangChain ``BaseTool``s and calls
record_fact, then current_state as an agent's tool node does (a tool call answered by a
``ToolMessage``). It runs in a virtual environment of its own (langchain_env.py): the
adapters pin mcp<2. A wrong or missing token is refused with HTTP 401."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.app.helpers import clean_env
from tests.interop.langchain_env import EnvironmentUnavailable, langchain_python
from tests.interop.serving import CORE_TOOLS, Graphmem, a_fact

pytestmark = pytest.mark.e2e
CLIENT = Path(__file__).with_name("langchain_client.py")


@pytest.fixture(scope="module")
def python() -> Path:
    """The environment's python. Without PyPI it cannot be made: that skips, but in CI
    (where PyPI is reachable) it fails."""
    try:
        return langchain_python()
    except EnvironmentUnavailable as why:
        if os.environ.get("CI"):
            pytest.fail(f"the LangChain environment: {why}")
        pytest.skip(f"the LangChain environment cannot be made here: {why}")


def _run_client(python: Path, graphmem: Graphmem, key: str, value: Any) -> dict[str, Any]:
    done = subprocess.run(
        [str(python), "-I", str(CLIENT), graphmem.url, key, json.dumps(value)],
        env=clean_env(INTEROP_TOKEN=graphmem.token),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout)


def _text(content: Any) -> dict[str, Any]:
    """graphmem's JSON in a tool's content: one text block."""
    assert isinstance(content, list) and len(content) == 1, content
    assert content[0]["type"] == "text", content
    return json.loads(content[0]["text"])


@pytest.mark.timeout(900)  # the first run makes the environment (pip, about 15 s to minutes)
def test_langchain_tools_write_a_fact_and_read_it_back(python: Path, graphmem: Graphmem) -> None:
    key, value = a_fact("langchain")
    seen = _run_client(python, graphmem, key, value)
    assert set(seen["tools"]) == CORE_TOOLS and seen["base_tools"] is True, seen["tools"]
    assert {"project", "key", "value"} <= set(seen["record_fact_args"])
    assert all(200 <= status < 300 for status in seen["statuses"]), seen["statuses"]
    written = _text(seen["record_fact"])
    assert written["key"] == key and written["status"] == "active", written
    message = seen["current_state"]
    assert message["status"] == "success" and message["tool_call_id"] == "call-1", message
    state = message["artifact"]["structured_content"]
    assert _text(message["content"]) == state
    assert state["status"] == "current", state
    assert state["answer"]["id"] == written["id"] and state["answer"]["value"] == value
    for refusal in ("wrong token", "no token"):
        refused = seen[refusal]
        assert refused["refused"] is True and set(refused["statuses"]) == {401}, refused
        assert any("401 Unauthorized" in error for error in refused["errors"]), refused
