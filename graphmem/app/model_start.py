"""The embedding model at a server's start: fetched once when missing, beside the database's
start, and decided on when the store opens.

Why this order: on a machine that never ran graphmem, the first call waits for the managed
Neo4j's 155 MB of jars, its first JVM start and the schema. The model's 25 MB jar fetched at
the same time only slows the jars, and waited for before the handshake it held every client
up: so the fetch waits for the jars (it downloads while the JVM starts), nothing waits for it
before the handshake, and the store's opening waits for it at most ``MODEL_WAIT`` more. What
the opening finds is what the process serves with (``StoreGate.retrieval``): a model that came
later serves from the next start, turns archived meanwhile labelled for it.
"""

from __future__ import annotations

import asyncio
import threading
import time

from graphmem.console.terminal import say
from graphmem.core.settings import Settings
from graphmem.toolkit.retrieval import Retrieval, load_retrieval

# What a client is told then (the model is not broken: doctor would say it is fine by now).
STILL_DOWNLOADING = (
    "the embedding model was still downloading when this server started: vector search from "
    "its next start"
)
MODEL_WAIT = 5.0  # seconds the store's opening waits for a model still downloading
JARS_WAIT = 300.0  # seconds the fetch waits for the managed Neo4j's jars before it goes anyway
JARS_POLL = 0.25


def start_model_fetch(settings: Settings) -> threading.Thread | None:
    """The model's fetch, begun in a daemon thread (None when embeddings are off)."""
    if settings.embeddings == "none":
        return None
    fetching = threading.Thread(
        target=lambda: _fetch_after_jars(settings), name="graphmem-model-fetch", daemon=True
    )
    fetching.start()
    return fetching


def _fetch_after_jars(settings: Settings) -> None:
    from graphmem.embeddings.model_fetch import fetch_default_model  # numpy, ONNX Runtime

    _wait_for_jars(settings)
    line = fetch_default_model(settings)
    if line is not None:
        say(line)


def _wait_for_jars(settings: Settings) -> None:
    """Until the managed Neo4j's jars are assembled (no wait with NEO4J_URI, or once they are)."""
    if not settings.uses_local_database:
        return
    from graphmem.localdb.assemble import install_dir, is_assembled
    from graphmem.localdb.lockfile import load_lock

    home = install_dir(settings.cache_dir.expanduser(), load_lock())
    deadline = time.monotonic() + JARS_WAIT
    while not is_assembled(home) and time.monotonic() < deadline:
        time.sleep(JARS_POLL)


async def retrieval_at_open(settings: Settings, fetching: threading.Thread | None) -> Retrieval:
    """The retrieval parts the server serves with, decided when its store opens."""
    if fetching is not None and fetching.is_alive():
        await asyncio.to_thread(fetching.join, MODEL_WAIT)
        if fetching.is_alive():
            say("the embedding model is still downloading: vector search from the next start")
            return Retrieval(vectors_off=STILL_DOWNLOADING)
    return await asyncio.to_thread(load_retrieval, settings)  # an ONNX session: off the loop
