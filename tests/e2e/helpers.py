"""Run the real ``graphmem`` command line as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GRAPHMEM = [sys.executable, "-m", "graphmem"]


def clean_env(**overrides: str) -> dict[str, str]:
    """The test process environment without graphmem/Neo4j settings, plus ``overrides``."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GRAPHMEM_", "NEO4J_"))
    }
    env.update(overrides)
    return env


def run_cli(
    *args: str, env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GRAPHMEM, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=Path(__file__).parent,
    )


def assert_one_clear_line(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Failed with exit code 1 and one 'graphmem: ...' message, never a traceback."""
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    messages = [line for line in result.stderr.splitlines() if line.startswith("graphmem: ")]
    assert len(messages) == 1, result.stderr
    for fragment in fragments:
        assert fragment in messages[0], (fragment, messages[0])
