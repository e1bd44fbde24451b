"""The OpenAI Agents SDK's own MCP client: ``agents.mcp.MCPServerStreamableHttp`` with a
bearer header. An Agent turns graphmem's tools into ``FunctionTool``s (``get_all_tools``, which
goes through ``MCPUtil.get_all_function_tools``), and they write a fact and read it back: called
directly (``on_invoke_tool``, as the runner calls them) and in a ``Runner.run`` whose model is a
local script (no LLM, no network, tracing off). A wrong or missing token is refused (401)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import (
    Agent,
    AgentOutputSchemaBase,
    FunctionTool,
    Handoff,
    Model,
    ModelResponse,
    ModelSettings,
    ModelTracing,
    RunConfig,
    RunContextWrapper,
    Runner,
    Tool,
    ToolCallOutputItem,
    TResponseInputItem,
    Usage,
    set_tracing_disabled,
)
from agents.items import TResponseStreamEvent
from agents.mcp import MCPServerStreamableHttp, MCPServerStreamableHttpParams
from agents.tool_context import ToolContext
from mcp import MCPError
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)
from openai.types.responses.response_prompt_param import ResponsePromptParam

from tests.interop.serving import CORE_TOOLS, REFUSED_HEADERS, Graphmem, HttpLog, a_fact

pytestmark = pytest.mark.e2e
set_tracing_disabled(True)  # no trace export to OpenAI: nothing leaves the machine


def _server(
    url: str, headers: dict[str, str], log: HttpLog | None = None
) -> MCPServerStreamableHttp:
    params: MCPServerStreamableHttpParams = {"url": url, "headers": headers, "timeout": 60}
    if log is not None:
        params["httpx_client_factory"] = lambda headers=None, timeout=None, auth=None: log.client(
            headers, timeout=timeout, auth=auth
        )
    return MCPServerStreamableHttp(params, name="graphmem", client_session_timeout_seconds=60)


def _payload(output: Any) -> dict[str, Any]:
    """A tool's output as the SDK hands it to the model: one text block of graphmem's JSON."""
    assert isinstance(output, dict) and output.get("type") == "text", output
    return json.loads(output["text"])


async def _invoke(tool: FunctionTool, **arguments: Any) -> dict[str, Any]:
    text = json.dumps(arguments)
    context = ToolContext(
        context=None, tool_name=tool.name, tool_call_id=f"call-{tool.name}", tool_arguments=text
    )
    return _payload(await tool.on_invoke_tool(context, text))


async def test_function_tools_write_a_fact_and_read_it_back(graphmem: Graphmem) -> None:
    key, value = a_fact("openai-agents")
    async with _server(graphmem.url, graphmem.headers) as server:
        agent = Agent(name="memory", mcp_servers=[server])
        tools = {tool.name: tool for tool in await agent.get_all_tools(RunContextWrapper(None))}
        assert set(tools) == CORE_TOOLS
        record, read = tools["record_fact"], tools["current_state"]
        assert isinstance(record, FunctionTool) and isinstance(read, FunctionTool)
        assert {"project", "key", "value"} <= set(record.params_json_schema["properties"])
        written = await _invoke(record, project="interop", key=key, value=value)
        assert written["key"] == key and written["status"] == "active", written
        state = await _invoke(read, project="interop", state_key=key)
    assert state["status"] == "current", state
    assert state["answer"]["id"] == written["id"] and state["answer"]["value"] == value


class ScriptedModel(Model):
    """A model that is a script: it calls the given tools in turn, then says what the last
    one answered. What it was shown each turn is kept in ``seen``."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = list(calls)
        self.seen: list[list[str]] = []  # the tool names offered, per turn

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> ModelResponse:
        self.seen.append([tool.name for tool in tools])
        turn = len(self.seen)
        if self.calls:
            name, arguments = self.calls.pop(0)
            item: Any = ResponseFunctionToolCall(
                type="function_call",
                id=f"fc_{turn}",
                call_id=f"call_{turn}",
                name=name,
                arguments=json.dumps(arguments),
                status="completed",
            )
        else:
            text = ResponseOutputText(type="output_text", text="done", annotations=[])
            item = ResponseOutputMessage(
                id=f"m{turn}", type="message", role="assistant", status="completed", content=[text]
            )
        return ModelResponse(output=[item], usage=Usage(), response_id=None)

    def stream_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: AgentOutputSchemaBase | None,
        handoffs: list[Handoff],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: ResponsePromptParam | None,
    ) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError("the tests run the agent without streaming")


async def test_an_agent_run_with_a_scripted_model(graphmem: Graphmem) -> None:
    key, value = a_fact("openai-agents-runner")
    model = ScriptedModel(
        [
            ("record_fact", {"project": "interop", "key": key, "value": value}),
            ("current_state", {"project": "interop", "state_key": key}),
        ]
    )
    async with _server(graphmem.url, graphmem.headers) as server:
        agent = Agent(name="memory", model=model, mcp_servers=[server])
        result = await Runner.run(agent, "remember", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "done" and len(model.seen) == 3
    assert set(model.seen[0]) == CORE_TOOLS
    outputs = [_payload(i.output) for i in result.new_items if isinstance(i, ToolCallOutputItem)]
    assert [output.get("key", output.get("state_key")) for output in outputs] == [key, key]
    written, state = outputs
    assert written["status"] == "active" and state["status"] == "current", outputs
    assert state["answer"]["id"] == written["id"] and state["answer"]["value"] == value


@pytest.fixture(params=list(REFUSED_HEADERS))
def refused_headers(request: pytest.FixtureRequest) -> dict[str, str]:
    return REFUSED_HEADERS[request.param]


async def test_a_wrong_or_missing_token_is_refused(
    graphmem: Graphmem, refused_headers: dict[str, str]
) -> None:
    log = HttpLog()
    with pytest.raises(BaseExceptionGroup) as refused:  # the SDK's task groups, around MCPError
        async with _server(graphmem.url, refused_headers, log) as server:
            await server.list_tools()
    # The MCP SDK (v2) turns any HTTP error but 404 into this stand-in: the 401 is in the log.
    assert refused.group_contains(MCPError, match="Server returned an error response")
    log.assert_refused(refused_headers)
