"""LangChain's MCP client against a running graphmem, run by the virtual environment that
tests/interop/langchain_env.py makes (langchain-mcp-adapters pins mcp<2; the project has mcp 2).

``python -I langchain_client.py URL KEY VALUE`` (VALUE as JSON), the bearer token in
INTEROP_TOKEN: loads graphmem's
tools as LangChain ``BaseTool``s (``MultiServerMCPClient.get_tools``, transport
"streamable_http", an Authorization header), calls record_fact with plain arguments and
current_state with a tool call (as an agent's tool node does, answered by a ``ToolMessage``),
then tries a wrong and a missing token. Prints one JSON object for the test to judge."""

# pyright: basic
# pyright: reportMissingImports=false, reportMissingModuleSource=false

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

import httpx
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langchain_mcp_adapters.client import MultiServerMCPClient


def _client(url: str, headers: dict[str, str], statuses: list[int]) -> MultiServerMCPClient:
    async def heard(response: httpx.Response) -> None:
        statuses.append(response.status_code)

    def http_client(headers=None, timeout=None, auth=None) -> httpx.AsyncClient:
        hooks = {"response": [heard]}
        return httpx.AsyncClient(headers=headers, timeout=timeout, auth=auth, event_hooks=hooks)

    connection = {
        "transport": "streamable_http",
        "url": url,
        "headers": headers,
        "httpx_client_factory": http_client,
    }
    return MultiServerMCPClient({"graphmem": connection})


def _leaves(error: BaseException) -> list[BaseException]:
    """An error's leaves: the clients raise task groups around the cause."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


async def _refused(url: str, headers: dict[str, str]) -> dict[str, Any]:
    statuses: list[int] = []
    try:
        tools = await _client(url, headers, statuses).get_tools()
    except Exception as error:  # reported: the test judges it
        leaves = [f"{type(leaf).__name__}: {leaf}" for leaf in _leaves(error)]
        return {"refused": True, "errors": leaves, "statuses": statuses}
    return {"refused": False, "tools": [tool.name for tool in tools], "statuses": statuses}


async def main(url: str, key: str, value: Any) -> dict[str, Any]:
    statuses: list[int] = []
    headers = {"Authorization": f"Bearer {os.environ['INTEROP_TOKEN']}"}
    tools = {tool.name: tool for tool in await _client(url, headers, statuses).get_tools()}
    record, read = tools["record_fact"], tools["current_state"]
    written = await record.ainvoke({"project": "interop", "key": key, "value": value})
    call = {"project": "interop", "state_key": key}
    message = await read.ainvoke(
        {"type": "tool_call", "id": "call-1", "name": "current_state", "args": call}
    )
    assert isinstance(message, ToolMessage), type(message)
    return {
        "tools": sorted(tools),
        "base_tools": all(isinstance(tool, BaseTool) for tool in tools.values()),
        "record_fact_args": sorted(record.args),
        "record_fact": written,
        "current_state": {
            "content": message.content,
            "artifact": message.artifact,
            "status": message.status,
            "tool_call_id": message.tool_call_id,
        },
        "statuses": sorted(set(statuses)),
        "wrong token": await _refused(url, {"Authorization": "Bearer gm_" + "0" * 43}),
        "no token": await _refused(url, {}),
    }


if __name__ == "__main__":
    print(
        json.dumps(
            asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))), default=repr
        )
    )
