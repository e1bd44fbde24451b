"""Progress of a long call, reported by the domain in steps ("2 of 4: embedded 120 turns").
Where it goes is the app layer's choice (MCP progress notifications, when the client asked for
them, see toolkit/toolspec.py); with no reporter set a step costs nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from contextlib import contextmanager
from contextvars import ContextVar

Reporter = Callable[[float, float, str], Awaitable[None]]

_reporter: ContextVar[Reporter | None] = ContextVar("graphmem_progress", default=None)


@contextmanager
def reporting_to(reporter: Reporter | None) -> Generator[None]:
    """Steps reported inside the block go to ``reporter``."""
    token = _reporter.set(reporter)
    try:
        yield
    finally:
        _reporter.reset(token)


async def step(done: int, total: int, message: str) -> None:
    """Step ``done`` of ``total`` is finished."""
    reporter = _reporter.get()
    if reporter is not None:
        await reporter(float(done), float(total), message)
