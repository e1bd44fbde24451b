"""MCP tools of the search area. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.app.toolspec import ToolSpec

SPECS: list[ToolSpec] = []
