"""Moving in: reading another memory server's database into graphmem (mcp-neo4j-memory)."""
