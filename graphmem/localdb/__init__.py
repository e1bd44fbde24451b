"""A managed local Neo4j Community server for machines without Docker.

Neo4j, its HTTP server and Neo4j Browser come from Maven Central (no Maven, no Docker), pinned
by ``neo4j.lock.json`` with a SHA-256 per jar and fetched by their addresses (``assemble.py``,
``jar_source.py``; ``jgo`` only re-pins the lock: ``graphmem neo4j lock``), assembled into a
cache folder, and run on loopback with Java 17 or 21.
"""

from graphmem.localdb.server import LocalNeo4j, LocalStatus

__all__ = ["LocalNeo4j", "LocalStatus"]
