"""MCP tools of the knowledge pipeline."""
