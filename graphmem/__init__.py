"""graphmem: a governed, temporal knowledge graph on Neo4j, served to AI agents over MCP."""

__version__ = "0.1.0"
