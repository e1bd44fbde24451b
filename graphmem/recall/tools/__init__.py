"""MCP tools of recall, bundles and timelines."""
