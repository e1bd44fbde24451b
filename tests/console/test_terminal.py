"""Progress bars of long commands: drawn on a terminal, silent in a pipe and in CI."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

SCRIPT = (
    "from graphmem.console.terminal import progress_bar\n"
    "with progress_bar('exporting', 3) as bar:\n"
    "    bar.advance(3)\n"
)


def _stderr_on_a_terminal(**env: str) -> str:
    primary, secondary = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k != "CI"} | {"TERM": "xterm", **env}
    subprocess.run(
        [sys.executable, "-c", SCRIPT], stderr=secondary, env=environment, check=True, timeout=60
    )
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the terminal closed: all was read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    return b"".join(chunks).decode(errors="replace")


def test_a_terminal_sees_the_bar() -> None:
    assert "exporting" in _stderr_on_a_terminal()


def test_ci_and_pipes_see_nothing() -> None:
    assert _stderr_on_a_terminal(CI="true") == ""
    piped = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=60
    )
    assert piped.stderr == ""
