"""The database an operator command or the server talks to: NEO4J_URI if set, else the managed
local Neo4j, started on demand."""

from __future__ import annotations

from collections.abc import Callable

from graphmem.core.settings import Settings
from graphmem.core.terminal import say
from graphmem.localdb.server import LocalNeo4j
from graphmem.store import Store, ping_sync


def resolve_connection(
    settings: Settings, stage: Callable[[str], None] = lambda _: None
) -> tuple[str, str, str]:
    """(uri, user, password): NEO4J_URI if set, else the managed local Neo4j, started;
    ``stage`` hears what the start is doing."""
    if settings.neo4j_uri:
        password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
        return settings.neo4j_uri, settings.neo4j_user, password

    def progress(line: str) -> None:
        say(line)
        if line.startswith("downloading"):
            stage("downloading Neo4j, first start only")

    stage("starting the managed Neo4j")
    local = LocalNeo4j(settings, progress=progress)
    status, started = local.start(ready_check=ping_sync)
    say(("started " if started else "using running ") + f"local Neo4j at {status.bolt_uri}")
    return status.bolt_uri, local.user, local.password()


async def connect_store(settings: Settings) -> Store:
    """The store of an operator command (export, import, embeddings backfill), its schema
    applied: a fresh database gets graphmem's constraints first."""
    uri, user, password = resolve_connection(settings)
    store = await Store.connect(uri, user, password, settings.neo4j_database)
    await store.apply_schema()
    return store
