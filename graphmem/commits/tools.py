"""MCP tools of the commits area. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.app.toolspec import ToolSpec

SPECS: list[ToolSpec] = []
