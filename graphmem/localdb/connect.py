"""The database an operator command or the server talks to: NEO4J_URI if set, else the managed
local Neo4j, started on demand."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future

from graphmem.core.settings import Settings
from graphmem.core.terminal import say
from graphmem.localdb.server import LocalNeo4j
from graphmem.store import Store, ping_sync

Stage = Callable[[str], None]

_early: Future[tuple[str, str, str]] | None = None  # a start begun before the server's imports
_listeners: list[Stage] = []  # who hears the early start's stage


def start_early(settings: Settings) -> None:
    """Begin the managed Neo4j's start now, in a daemon thread, so its JVM starts while the
    server still imports and assembles (about 2 s of one core); ``resolve_connection`` then
    joins it. Nothing with NEO4J_URI set."""
    global _early
    if not settings.uses_local_database or _early is not None:
        return
    early: Future[tuple[str, str, str]] = Future()

    def run() -> None:
        try:
            early.set_result(_start_local(settings, _tell_listeners))
        except BaseException as error:  # handed to the caller of resolve_connection
            early.set_exception(error)

    _early = early
    threading.Thread(target=run, name="graphmem-early-start", daemon=True).start()


def _tell_listeners(text: str) -> None:
    for listener in list(_listeners):
        listener(text)


def resolve_connection(settings: Settings, stage: Stage = lambda _: None) -> tuple[str, str, str]:
    """(uri, user, password): NEO4J_URI if set, else the managed local Neo4j, started (or the
    start ``start_early`` began, joined); ``stage`` hears what the start is doing."""
    if settings.neo4j_uri:
        password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
        return settings.neo4j_uri, settings.neo4j_user, password
    stage("starting the managed Neo4j")
    if _early is None:
        return _start_local(settings, stage)
    _listeners.append(stage)
    try:
        return _early.result()
    finally:
        _listeners.remove(stage)


def _start_local(settings: Settings, stage: Stage) -> tuple[str, str, str]:
    def progress(line: str) -> None:
        say(line)
        if line.startswith("downloading"):
            stage("downloading Neo4j, first start only")

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
