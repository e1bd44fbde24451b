"""What long CLI commands tell the operator: one-line messages and progress bars (drawn on a
terminal, silent in pipes and CI).

with progress_bar("exporting", total=count) as bar:
    bar.advance(len(batch))
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from contextlib import contextmanager
from typing import Protocol


def say(message: str) -> None:
    """One line for the operator, on stderr (stdout carries the commands' output)."""
    print(message, file=sys.stderr, flush=True)


class Bar(Protocol):
    def advance(self, amount: int = 1) -> None: ...


class _Silent:
    def advance(self, amount: int = 1) -> None:
        pass


def interactive() -> bool:
    """stderr is a terminal a person watches (not a pipe, a file, CI or a dumb terminal)."""
    return sys.stderr.isatty() and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


@contextmanager
def progress_bar(description: str, total: int | None) -> Generator[Bar]:
    """A bar on stderr for ``total`` units (None: unknown, a spinner with a count)."""
    if not interactive():
        yield _Silent()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn()]
    columns += [MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task(description, total=total)

        class _Drawn:
            def advance(self, amount: int = 1) -> None:
                progress.advance(task, amount)

        yield _Drawn()
