"""One declaration per tool: a catalogue entry names a handler; the MCP tool is derived from
it by the app (graphmem/app/tools.py), so declaring a tool loads no transport.

A handler is ``async def name(services, request: SomeRequest) -> SomeResult`` (or
``(services) -> SomeResult`` for a tool without arguments). Its docstring is the tool's
description; its request model declares every argument once: type, bounds, default and
description.
"""

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Literal, TypeVar, get_type_hints

from pydantic import BaseModel

from graphmem.toolkit.answers import CompactAnswer
from graphmem.toolkit.services import Services

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
        declared: object = getattr(get_type_hints(self.handler)["return"], "compact_answer", None)
        return declared if isinstance(declared, CompactAnswer) else None

    @property
    def name(self) -> str:
        return self.handler.__name__

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
