"""A declarative catalogue entry per tool, so registration and tests can iterate over all."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from mcp_types import ToolAnnotations

from graphmem.tools.context import Services

Toolset = Literal["core", "full"]
ToolFunction = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    toolset: Toolset  # "core" tools are also in "full"
    writes: bool
    idempotent: bool
    destructive: bool
    make: Callable[[Services], ToolFunction]
    available: Callable[[Services], bool] = lambda _: True  # e.g. only when configured

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
