"""MCP tools of the memories area."""
