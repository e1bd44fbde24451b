"""Pydantic AI's own MCP client: ``pydantic_ai.mcp.MCPToolset`` (2.x's one MCP client, on the
FastMCP client; 1.x's ``MCPServerStreamableHTTP`` is gone) with a bearer header, as a toolset of
an ``Agent`` whose model is a local function (``FunctionModel``: no LLM, no network). The model
sees graphmem's tools as Pydantic AI tool definitions, calls record_fact then current_state, and
answers with what current_state returned. A wrong or missing token is refused (401)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import MCPError
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.tools import ToolDefinition

from tests.interop.serving import CORE_TOOLS, REFUSED_HEADERS, Graphmem, HttpLog, a_fact

pytestmark = pytest.mark.e2e


class Script:
    """The model: calls ``calls`` in turn, then answers with the last tool's return as JSON.
    Keeps the tool definitions it was offered and every tool return it saw."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = list(calls)
        self.offered: dict[str, ToolDefinition] = {}
        self.returns: list[Any] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.offered = {tool.name: tool for tool in info.function_tools}
        self.returns = [
            part.content
            for message in messages
            for part in message.parts
            if isinstance(part, ToolReturnPart)
        ]
        if self.calls:
            name, arguments = self.calls.pop(0)
            return ModelResponse(parts=[ToolCallPart(name, arguments)])
        return ModelResponse(parts=[TextPart(json.dumps(self.returns[-1]))])


async def test_an_agent_writes_a_fact_and_reads_it_back(graphmem: Graphmem) -> None:
    key, value = a_fact("pydantic-ai")
    script = Script(
        [
            ("record_fact", {"project": "interop", "key": key, "value": value}),
            ("current_state", {"project": "interop", "state_key": key}),
        ]
    )
    toolset = MCPToolset(graphmem.url, id="graphmem", headers=graphmem.headers)
    agent = Agent(FunctionModel(script), toolsets=[toolset])
    result = await agent.run("remember")
    assert set(script.offered) == CORE_TOOLS
    schema = script.offered["record_fact"].parameters_json_schema
    assert {"project", "key", "value"} <= set(schema["properties"]) and "key" in schema["required"]
    written, state = script.returns
    assert isinstance(written, dict) and isinstance(state, dict), script.returns
    assert written["key"] == key and written["status"] == "active", written
    assert state["status"] == "current", state
    assert state["answer"]["id"] == written["id"] and state["answer"]["value"] == value
    assert json.loads(result.output) == state


@pytest.mark.parametrize(
    "refused_headers", list(REFUSED_HEADERS.values()), ids=list(REFUSED_HEADERS)
)
async def test_a_wrong_or_missing_token_is_refused(
    graphmem: Graphmem, refused_headers: dict[str, str]
) -> None:
    log = HttpLog()
    script = Script([("current_state", {"project": "interop", "state_key": "anything"})])
    async with log.client(refused_headers) as http_client:
        toolset = MCPToolset(graphmem.url, id="graphmem", http_client=http_client)
        agent = Agent(FunctionModel(script), toolsets=[toolset])
        with pytest.raises(MCPError, match="Server returned an error response"):
            await agent.run("read")
    assert script.offered == {}  # the model never ran: no tool was listed, none called
    log.assert_refused(refused_headers)
