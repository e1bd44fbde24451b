"""The server's event loop and HTTP parser: the fast ones the project depends on."""

from __future__ import annotations

import asyncio

import pytest
import uvicorn.config

from graphmem.app.serve import run_event_loop

pytestmark = pytest.mark.pure


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_serve_runs_on_uvloop() -> None:
    assert run_event_loop(_loop_module()).startswith("uvloop")


def test_uvicorn_picks_httptools_for_the_http_transport() -> None:
    config = uvicorn.config.Config(app=None)  # type: ignore[arg-type]
    config.load()
    assert config.http_protocol_class.__module__.endswith("httptools_impl")
