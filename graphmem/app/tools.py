"""The MCP tools of the declared ones (graphmem/toolkit/toolspec.py): the transport's side of a
tool, kept out of the areas so declaring a tool loads no MCP framework.

``flat_tool`` turns a handler's request model into the flat keyword arguments MCP clients send
(the same JSON schema the model's fields describe, unknown arguments refused by the server),
and builds the request from them, so the model's own validators always run; its answer is
serialised once. A server's services are found by the server handling the call
(``attach``/``current_services``), and the caller's tenant from its access token.
"""

import functools
import inspect
from typing import Annotated, Any, get_type_hints
from weakref import WeakKeyDictionary

import pydantic_core
from fastmcp import FastMCP
from fastmcp.server.dependencies import get_access_token, get_context, get_server
from fastmcp.tools import Tool, ToolResult
from mcp_types import TextContent, ToolAnnotations
from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from graphmem.app import schemas
from graphmem.app.boundary import map_domain_errors
from graphmem.core.progress import Reporter, reporting_to
from graphmem.toolkit.answers import DETAIL_ARGUMENT, CompactAnswer, Detail, answer_model
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Handler, ToolFunction, ToolSpec, request_model

# A server's services, found by the server that handles the call: tool functions are derived
# once per handler and shared by every server in the process (``mcp_tool``).
_SERVICES: WeakKeyDictionary[FastMCP, Services] = WeakKeyDictionary()


def attach(server: FastMCP, services: Services) -> None:
    _SERVICES[server] = services


def current_services() -> Services:
    """The services of the server handling the current call."""
    return _SERVICES[get_server()]


def credentials_tenant() -> str | None:
    """The tenant the caller's access token names (HTTP with credentials), else None."""
    token = get_access_token()
    if token is None:
        return None
    claimed = token.claims.get("tenant")
    return claimed if isinstance(claimed, str) and claimed else None


def _argument(name: str, field: FieldInfo) -> inspect.Parameter:
    """One model field as one keyword argument, with the field's type, bounds and text."""
    text = Field(
        description=field.description,
        examples=field.examples,
        json_schema_extra=field.json_schema_extra,
    )
    annotation = Annotated[(field.annotation, *field.metadata, text)]
    if field.is_required():
        default: Any = inspect.Parameter.empty
    elif field.default_factory is not None:
        default = field.get_default(call_default_factory=True)
    else:
        default = field.default
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def mcp_tool(spec: ToolSpec) -> Tool:
    """The MCP tool of a declared one, derived once per process (schemas are costly) and
    shared by every server; each registration takes a copy."""
    return _derived_tool(spec)


def annotations(spec: ToolSpec) -> ToolAnnotations:
    """MCP's hints of what a tool does, from its declared effect."""
    return ToolAnnotations(
        title=spec.title,
        read_only_hint=not spec.writes,
        destructive_hint=spec.destructive if spec.writes else False,
        idempotent_hint=spec.idempotent,
        open_world_hint=False,
    )


@functools.cache
def _derived_tool(spec: ToolSpec) -> Tool:
    tool = Tool.from_function(
        map_domain_errors(flat_tool(spec.handler, spec.answer)),
        name=spec.name,
        title=spec.title,
        annotations=annotations(spec),
    )
    output = tool.output_schema
    return tool.model_copy(
        update={
            "parameters": schemas.input_schema(tool.parameters),
            "output_schema": None if output is None else schemas.output_schema(output),
        }
    )


def _client_progress() -> Reporter | None:
    """The calling client's progress notifications (sent only if it gave a progress token)."""
    try:
        context = get_context()
    except RuntimeError:  # called outside a request (direct calls in tests)
        return None
    return context.report_progress


def serialized(result: BaseModel) -> ToolResult:
    """The answer as MCP carries it, serialised once: its JSON data as structured content and
    that data's JSON text as text content (FastMCP's conversion would serialise the model
    three times: to text, to data, and the data to text again). A result that names one of
    its fields as ``text_field`` (timeline_report's Markdown) has that field as its text."""
    data = result.model_dump(mode="json")
    text_field: str | None = getattr(result, "text_field", None)
    text = data[text_field] if text_field else pydantic_core.to_json(data).decode()
    return ToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def flat_tool(handler: Handler, answer: CompactAnswer | None = None) -> ToolFunction:
    """The MCP tool function of a handler: flat arguments in, the handler's result out (or
    its compact ``answer``, with a ``detail`` argument); the services are those of the server
    handling the call."""
    model = request_model(handler)
    result = get_type_hints(handler)["return"]
    parameters = [] if model is None else [_argument(n, f) for n, f in model.model_fields.items()]

    async def tool(detail: Detail = "compact", **arguments: Any) -> ToolResult:
        with reporting_to(_client_progress()):
            if model is None:
                whole = await handler(current_services())
            else:
                whole = await handler(current_services(), model(**arguments))
        return serialized(whole if answer is None else answer.of(whole, detail))

    if answer is not None:
        result = answer_model(result, answer)
        parameters.append(
            inspect.Parameter(
                "detail",
                inspect.Parameter.KEYWORD_ONLY,
                default="compact",
                annotation=DETAIL_ARGUMENT,
            )
        )
    tool.__signature__ = inspect.Signature(parameters, return_annotation=result)
    tool.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": result}
    tool.__name__ = tool.__qualname__ = handler.__name__
    tool.__doc__ = handler.__doc__
    tool.__module__ = handler.__module__
    return tool
