"""A managed local Neo4j Community server for machines without Docker.

Neo4j, its HTTP server and Neo4j Browser are resolved from Maven Central with ``jgo`` (a
pure-Python Maven resolver: no Maven, no Docker), pinned by ``neo4j.lock.json`` with a SHA-256
per jar, assembled into a cache folder, and run on loopback with Java 17 or 21.
"""

from graphmem.localdb.server import LocalNeo4j, LocalStatus

__all__ = ["LocalNeo4j", "LocalStatus"]
