"""The database an operator command or the server talks to: NEO4J_URI if set, else the managed
local Neo4j, started on demand."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field

from graphmem.console.terminal import say
from graphmem.core.errors import ConfigurationError
from graphmem.core.keys import load_or_create
from graphmem.core.settings import Settings
from graphmem.localdb.server import LocalNeo4j
from graphmem.store import Store, ping_sync

Stage = Callable[[str], None]


class _CalledOff(Exception):
    """The early start's serve refused: no JVM is launched for it."""


@dataclass
class _EarlyStart:
    """A start begun before the server's imports, which a serve that refuses calls off."""

    settings: Settings
    future: Future[tuple[str, str, str]] = field(default_factory=Future[tuple[str, str, str]])
    lock: threading.Lock = field(default_factory=threading.Lock)
    called_off: bool = False
    launched: bool = False  # this start spawned the JVM (it found none running)

    def before_spawn(self) -> None:
        with self.lock:
            if self.called_off:
                raise _CalledOff
            self.launched = True


_early: _EarlyStart | None = None
_listeners: list[Stage] = []  # who hears the early start's stage


def start_early(settings: Settings) -> None:
    """Begin the managed Neo4j's start now, in a daemon thread, so its JVM starts while the
    server still imports and assembles (about 2 s of one core); ``resolve_connection`` then
    joins it. Nothing with NEO4J_URI set, nor for a serve that will refuse what it can check
    here (the rest: ``call_off_early_start``)."""
    global _early
    if not settings.uses_local_database or _early is not None or _refused(settings):
        return
    early = _EarlyStart(settings)

    def run() -> None:
        try:
            early.future.set_result(_start_local(settings, _tell_listeners, early.before_spawn))
        except BaseException as error:  # handed to the caller of resolve_connection
            early.future.set_exception(error)

    _early = early
    threading.Thread(target=run, name="graphmem-early-start", daemon=True).start()


def _refused(settings: Settings) -> bool:
    """serve's own checks below the web stack (the caller made ``serve_refusal``'s): a history
    key serve would refuse. serve makes them again and says why."""
    try:
        load_or_create(settings.history_key_path)
    except ConfigurationError:
        return True
    return False


def call_off_early_start() -> None:
    """serve refused after ``start_early`` began: a JVM not launched yet never is, one it
    launched is stopped (the refused serve leaves no Neo4j behind)."""
    early = _early
    if early is None:
        return
    with early.lock:
        early.called_off = True
        launched = early.launched
    if not launched:
        return
    say("stopping the managed Neo4j this serve started")
    local = LocalNeo4j(early.settings)
    while not early.future.done() and not local.status().running:
        time.sleep(0.05)  # launched: its pid is in state.json within moments
    local.stop(keep_class_archive=False)  # mid-start, it dumps only part of its classes


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
        return _early.future.result()
    finally:
        _listeners.remove(stage)


def _start_local(
    settings: Settings, stage: Stage, before_spawn: Callable[[], None] = lambda: None
) -> tuple[str, str, str]:
    def progress(line: str) -> None:
        say(line)
        if line.startswith("downloading"):  # the client hears no address (the log does)
            stage(line.partition(" from ")[0] + " (the first start only)")
        elif line.startswith("Neo4j assembled"):
            stage("starting the managed Neo4j")

    local = LocalNeo4j(settings, progress=progress)
    status, started = local.start(ready_check=ping_sync, before_spawn=before_spawn)
    say(("started " if started else "using running ") + f"local Neo4j at {status.bolt_uri}")
    return status.bolt_uri, local.user, local.password()


async def connect_store(settings: Settings) -> Store:
    """The store of an operator command (export, import, embeddings backfill), its schema
    applied: a fresh database gets graphmem's constraints first."""
    uri, user, password = resolve_connection(settings)
    store = await Store.connect(uri, user, password, settings.neo4j_database)
    await store.apply_schema()
    return store
