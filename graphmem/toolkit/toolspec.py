"""One declaration per tool: a catalogue entry names a handler, and the MCP tool is derived.

A handler is ``async def name(services, request: SomeRequest) -> SomeResult`` (or
``(services) -> SomeResult`` for a tool without arguments). Its docstring is the tool's
description; its request model declares every argument once: type, bounds, default and
description. ``flat_tool`` turns that model into the flat keyword arguments MCP clients send
(the same JSON schema the model's fields describe, unknown arguments refused by the server),
and builds the request from them, so the model's own validators always run.
"""

import functools
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Annotated, Any, Literal, TypeVar, get_type_hints

import pydantic_core
from fastmcp.server.dependencies import get_context
from fastmcp.tools import Tool, ToolResult
from mcp_types import TextContent, ToolAnnotations
from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from graphmem.core.answers import DETAIL_ARGUMENT, CompactAnswer, Detail, answer_model
from graphmem.core.progress import Reporter, reporting_to
from graphmem.toolkit import schemas
from graphmem.toolkit.boundary import map_domain_errors
from graphmem.toolkit.services import Services, current_services

Toolset = Literal["core", "full"]
ToolFunction = Callable[..., Awaitable[Any]]
Handler = Callable[..., Awaitable[Any]]
H = TypeVar("H", bound=Handler)


class Effect(Enum):
    """What a tool does to the graph: (writes, idempotent, destructive), MCP's hints."""

    READS = (False, True, False)
    READS_AND_COUNTS = (False, False, False)  # a read that records the access
    ADDS = (True, False, False)
    ADDS_ONCE = (True, True, False)  # a repeat with the same input adds nothing
    CHANGES = (True, False, True)  # supersedes or changes what exists
    SETS = (True, True, True)  # changes what exists; a repeat changes nothing


@dataclass(frozen=True)
class ToolSpec:
    handler: Handler  # its name is the tool's name, its docstring the description
    title: str
    effect: Effect
    toolset: Toolset = "full"  # "core" tools are also in "full"
    available: Callable[[Services], bool] = lambda _: True  # e.g. only when configured
    admin: bool = False  # needs the admin scope (erasure), beyond write

    @property
    def writes(self) -> bool:
        return self.effect.value[0]

    @property
    def idempotent(self) -> bool:
        return self.effect.value[1]

    @property
    def destructive(self) -> bool:
        return self.effect.value[2]

    @property
    def answer(self) -> CompactAnswer | None:
        """A write's default answer: the compact_answer its result model declares."""
        return getattr(get_type_hints(self.handler)["return"], "compact_answer", None)

    @property
    def name(self) -> str:
        return self.handler.__name__

    def mcp_tool(self) -> Tool:
        """The MCP tool, derived once per process (schemas are costly) and shared by every
        server; each registration takes a copy."""
        return _derived_tool(self)

    def annotations(self) -> ToolAnnotations:
        return ToolAnnotations(
            title=self.title,
            read_only_hint=not self.writes,
            destructive_hint=self.destructive if self.writes else False,
            idempotent_hint=self.idempotent,
            open_world_hint=False,
        )

    def in_toolset(self, toolset: Toolset) -> bool:
        return toolset == "full" or self.toolset == "core"


class ToolList(list[ToolSpec]):
    """An area's tools in the order they are declared: ``@SPECS.tool(title, effect)`` on a
    handler declares it (the handler stays a plain function)."""

    def tool(
        self,
        title: str,
        effect: Effect,
        *,
        core: bool = False,
        available: Callable[[Services], bool] | None = None,
        admin: bool = False,
    ) -> Callable[[H], H]:
        def declare(handler: H) -> H:
            toolset: Toolset = "core" if core else "full"
            spec = ToolSpec(handler, title, effect, toolset, admin=admin)
            self.append(spec if available is None else replace(spec, available=available))
            return handler

        return declare


def request_model(handler: Handler) -> type[BaseModel] | None:
    """The handler's request model: the type of its second parameter, if it has one."""
    names = list(inspect.signature(handler).parameters)
    if len(names) < 2:
        return None
    model = get_type_hints(handler)[names[1]]
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(f"{handler.__name__}: the request must be a pydantic model")
    return model


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


@functools.cache
def _derived_tool(spec: ToolSpec) -> Tool:
    tool = Tool.from_function(
        map_domain_errors(flat_tool(spec.handler, spec.answer)),
        name=spec.name,
        title=spec.title,
        annotations=spec.annotations(),
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
