"""``graphmem serve``: the MCP server over stdio or streamable HTTP, its store opened in the
background (the server answers the handshake at once; calls wait for the store)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
import threading
from collections.abc import Callable, Coroutine, Generator
from typing import Any, TypeVar

from fastmcp import FastMCP
from starlette.middleware import Middleware as StarletteMiddleware

from graphmem.app.http_limits import BodySizeLimit
from graphmem.app.model_start import retrieval_at_open, start_model_fetch
from graphmem.app.server import create_server
from graphmem.app.start_phases import record_server_start, server_stopwatch
from graphmem.app.tracing_setup import start_tracing, stop_tracing
from graphmem.console.terminal import say
from graphmem.core import stalls
from graphmem.core.errors import ConfigurationError, StoreUnavailable, VectorSpaceMismatch
from graphmem.core.keys import ChainKey, load_or_create
from graphmem.core.settings import Settings
from graphmem.localdb.connect import call_off_early_start, resolve_connection
from graphmem.localdb.start_report import Stopwatch
from graphmem.retrieval.catch_up import start_catch_up
from graphmem.retrieval.vector_space import check_vector_space
from graphmem.store import Store
from graphmem.toolkit.retrieval import Retrieval
from graphmem.toolkit.startup import StoreGate

T = TypeVar("T")
RECONNECT_EVERY = 5.0  # seconds between attempts while the database does not answer at start


def serve(settings: Settings, transport: str) -> int:
    with _refusal_calls_off_the_early_start():
        refusal = settings.serve_refusal(transport)
        if refusal is not None:
            raise ConfigurationError(refusal)
        watch = server_stopwatch()  # its first phase: the imports so far
        chain_key = load_or_create(settings.history_key_path)  # a key others can read: refused
        tracer_provider = start_tracing(os.environ)
        fetching = start_model_fetch(settings)  # after the managed Neo4j's jars (model_start.py)
    # SIGINT, or SIGTERM on stdio, ends the run; the store is closed on the way out.
    try:
        with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
            run_event_loop(_serve_async(settings, transport, (chain_key, fetching), watch))
    finally:
        stop_tracing(tracer_provider)
    say("graphmem stopped")
    return 0


@contextlib.contextmanager
def _refusal_calls_off_the_early_start() -> Generator[None]:
    """A serve that refuses its configuration leaves no managed Neo4j behind: the early start
    (cli.py, before the imports these checks need) is called off, or what it started stopped."""
    try:
        yield
    except BaseException:  # any refusal or failure before serving: nothing left behind
        call_off_early_start()
        raise


def run_event_loop(main: Coroutine[Any, Any, T]) -> T:
    """The server's event loop: uvloop where it is installed (a dependency on Linux and
    macOS: a faster loop under the HTTP transport), else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


async def open_store(
    settings: Settings,
    gate: StoreGate,
    chain_key: ChainKey,
    watch: Stopwatch | None = None,
    fetching: threading.Thread | None = None,
) -> Store:
    """The store, opened in the background while the server already answers; its phases
    timed on ``watch`` (start_phases.py). The retrieval parts the calls use are decided here
    too (``gate.retrieval``: the first start's model is fetched meanwhile, model_start.py)."""

    def stage(text: str) -> None:
        gate.stage = text

    watch = watch or server_stopwatch()
    uri, user, password = await _in_daemon_thread(lambda: resolve_connection(settings, stage))
    watch.lap("database")
    stage("connecting to the database")
    while True:  # a database that does not answer yet may later: calls meanwhile say `starting`
        try:
            store = await Store.connect(
                uri,
                user,
                password,
                settings.neo4j_database,
                connect_timeout=settings.connect_timeout,
                query_timeout=settings.query_timeout,
            )
            break
        except StoreUnavailable as error:
            say(f"{error.message}; trying again in {RECONNECT_EVERY:.0f} s")
            stage("waiting for the database to answer")
            await asyncio.sleep(RECONNECT_EVERY)
    store.chain_key = chain_key
    watch.lap("connect")
    try:
        stage("applying the schema")
        applied = await store.apply_schema()
    except BaseException:
        await store.close()
        raise
    say(f"schema applied ({len(applied)} statements); toolset {settings.toolset}")
    watch.lap("schema")
    gate.retrieval = await retrieval_at_open(settings, fetching)
    await _open_vector_space(gate.retrieval, store)
    if settings.embeddings != "none":
        watch.lap("embedding model")
    record_server_start(settings, watch.report)
    return store


async def _open_vector_space(retrieval: Retrieval, store: Store) -> None:
    """With a model, the database's vectors must be its; what was written without one gets
    vectors in the background (retrieval/catch_up.py)."""
    embedder = retrieval.embedder
    if embedder is None:
        return
    try:
        await check_vector_space(store, embedder)
    except VectorSpaceMismatch as error:
        say(f"graphmem: refusing to serve: {error.message}")
        await store.close()
        raise
    start_catch_up(store, embedder)


def _in_daemon_thread(fn: Callable[[], T]) -> asyncio.Future[T]:
    """``fn`` in a daemon thread: a server stopped during a managed Neo4j start exits at once
    (asyncio.to_thread's worker would hold the exit until the start ends)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:  # on the loop's thread
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # pyright: ignore[reportArgumentType]  # without an error, fn returned a T

    def run() -> None:
        try:
            result = fn()
            outcome: tuple[T | None, BaseException | None] = (result, None)
        except BaseException as error:  # handed to the awaiting task, which reports it
            outcome = (None, error)
        with contextlib.suppress(RuntimeError):  # the server stopped meanwhile: nobody waits
            loop.call_soon_threadsafe(settle, *outcome)

    threading.Thread(target=run, name="graphmem-database-start", daemon=True).start()
    return future


async def _serve_async(
    settings: Settings,
    transport: str,
    opened_with: tuple[ChainKey, threading.Thread | None],
    watch: Stopwatch,
) -> None:
    if transport == "stdio":
        _cancel_on_sigterm()
    gate = StoreGate()
    chain_key, fetching = opened_with

    async def opened(g: StoreGate) -> Store:
        store = await open_store(settings, g, chain_key, watch, fetching)
        settle_the_heap()  # before the gate opens: calls waiting at it are frozen too (once)
        return store

    opening = asyncio.create_task(gate.open(opened))
    collections = stalls.watch_collections()  # traces on: what stops the loop, as spans
    looking = asyncio.create_task(stalls.watch_loop(collections)) if collections else None
    try:
        with _refusal_calls_off_the_early_start():
            server = create_server(gate, settings)
        watch.lap("server")  # before the opening task's first lap: it runs from the next await
        if transport == "http":
            # uvicorn catches SIGINT/SIGTERM, shuts down gracefully, then re-raises the signal
            # into the handler it found: make that a no-op so the store closes below.
            for signum in (signal.SIGINT, signal.SIGTERM):
                signal.signal(signum, _ignore)
            await serve_http(server, settings)
        else:
            await server.run_stdio_async(show_banner=False)
    finally:
        stalls.unwatch(collections)
        for task in (opening, looking):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):  # the store closes
                    await task
        await gate.close()


def settle_the_heap() -> None:
    """What the server is built of (modules, tool schemas, models, the driver) lives as long as
    it does: frozen out of the collector's reach, so a full collection under load walks only
    what calls made, not the whole server again (a pause every call in flight waits out). Run
    once the store is open, before the first call passes the gate (the few waiting at it then
    are frozen with it, once: a bounded cost for every later collection's shorter walk)."""
    gc.collect()
    gc.freeze()


def _ignore(*_: object) -> None:
    """A signal handler that does nothing."""


async def serve_http(server: FastMCP, settings: Settings) -> None:
    middleware = [StarletteMiddleware(BodySizeLimit, max_bytes=settings.max_request_bytes)]
    say(f"serving MCP at http://{settings.host}:{settings.port}/mcp")
    await server.run_http_async(
        show_banner=False,
        host=settings.host,
        port=settings.port,
        path="/mcp",
        log_level=settings.log_level.lower(),
        host_origin_protection=True,  # DNS-rebinding guard, also on loopback
        allowed_hosts=settings.allowed_hosts,
        allowed_origins=settings.allowed_origins,
        middleware=middleware,
        uvicorn_config={"access_log": False},  # request lines never reach the logs
    )


def _cancel_on_sigterm() -> None:
    task = asyncio.current_task()
    if task is not None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
