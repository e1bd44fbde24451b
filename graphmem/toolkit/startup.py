"""First contact without a stall: the server answers the handshake and tools/list at once,
while its database is prepared in the background (for the managed Neo4j: download, start,
schema). A call that needs the database waits for it up to GRAPHMEM_START_WAIT seconds, with
progress notifications when the client asked for them, then gets a retryable ``starting``
error saying what is happening. A database that cannot come up is reported by every call with
a code and a plain reason; the operator's detail goes to the server log. (The transport's
side, the middleware that makes calls wait: graphmem/app/readiness.py.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from graphmem.core.errors import (
    ArtifactDownloadFailed,
    DatabaseStartFailed,
    GraphmemError,
    JavaNotFound,
    PortInUse,
    StoreAuthFailed,
    StoreError,
    VectorSpaceMismatch,
)
from graphmem.store import Store
from graphmem.toolkit.retrieval import Retrieval

log = logging.getLogger("graphmem")

PROGRESS_EVERY = 1.0  # seconds between progress notifications while a call waits

# What a client is told when the database cannot come up: plain reasons, no addresses or paths.
_REASONS: tuple[tuple[type[GraphmemError], str], ...] = (
    (JavaNotFound, "no Java 17 or 21 was found on the server"),
    (PortInUse, "a port it needs is taken by another program"),
    (ArtifactDownloadFailed, "Neo4j could not be downloaded"),
    (DatabaseStartFailed, "Neo4j stopped or did not answer during its start"),
    (StoreAuthFailed, "the server cannot sign in to it"),
    (VectorSpaceMismatch, "its vectors were made by another embedding model than the server's"),
    (StoreError, "it does not answer"),
)


class Starting(GraphmemError):
    """The database is still being prepared; the same call will succeed later."""

    code = "starting"
    retryable = True

    def __init__(self, stage: str, waited: float) -> None:
        super().__init__(f"graphmem is still starting ({stage}) after {waited:.0f} s")
        self.stage = stage

    def client_payload(self) -> dict[str, object]:
        return {
            "error": self.code,
            "message": f"graphmem is still preparing its database ({self.stage}). "
            "Retry in a few seconds.",
            "retryable": True,
        }


class DatabaseNotStarted(StoreError):
    """The database could not come up; every call says so until the operator fixes it."""

    retryable = False

    def __init__(self, cause: BaseException) -> None:
        # For the operator's log: a driver error's repr is empty ("ClientError()"), its text
        # carries Neo4j's code and message.
        detail = (
            cause.message
            if isinstance(cause, GraphmemError)
            else f"{type(cause).__name__}: {cause}"
        )
        super().__init__(f"the database could not be started: {detail}")
        self.reason = next(
            (text for kind, text in _REASONS if isinstance(cause, kind)), "an unexpected error"
        )

    def client_payload(self) -> dict[str, object]:
        return {
            "error": self.code,
            "message": f"graphmem's database could not be started: {self.reason}. The "
            "operator will find the cause in the server log (graphmem doctor).",
            "retryable": False,
        }


Opener = Callable[["StoreGate"], Awaitable[Store]]


class StoreGate:
    """The store a server's tools use: given open, or opened in the background by ``open``."""

    def __init__(self, store: Store | None = None) -> None:
        self._store = store
        self._failure: DatabaseNotStarted | None = None
        self._ready = asyncio.Event()
        self._began = time.monotonic()
        self.stage = "starting"
        # the retrieval parts the opener decided on (serve: the model the start found); None:
        # the configured ones (app/server.py)
        self.retrieval: Retrieval | None = None
        if store is not None:
            self._ready.set()

    @property
    def store(self) -> Store:
        if self._store is None:  # only reachable outside a gated call
            raise Starting(self.stage, time.monotonic() - self._began)
        return self._store

    async def open(self, opener: Opener) -> None:
        """Open the store with ``opener`` (which reports its stage); never raises: a failure
        is kept and reported by every call."""
        try:
            self._store = await opener(self)
            log.info("database ready after %.1f s", time.monotonic() - self._began)
        except Exception as error:  # whatever stops the start is reported, not raised
            self._failure = DatabaseNotStarted(error)
            log.error("%s", self._failure.message)
        finally:
            self._ready.set()

    async def close(self) -> None:
        if self._store is not None:
            await self._store.close()

    async def wait(
        self, bound: float, progress: Callable[[float, str], Awaitable[None]] | None = None
    ) -> Store:
        """The open store, after waiting up to ``bound`` seconds for it."""
        began = time.monotonic()
        while not self._ready.is_set():
            waited = time.monotonic() - began
            if waited >= bound:
                raise Starting(self.stage, time.monotonic() - self._began)
            if progress is not None:
                await progress(waited, self.stage)
            step = min(PROGRESS_EVERY, bound - waited)
            try:
                await asyncio.wait_for(self._ready.wait(), timeout=step)
            except TimeoutError:
                continue
        if self._failure is not None:
            raise self._failure
        return self.store
