"""Helpers for tests that start a managed Neo4j of their own: the jars already assembled in
the user's cache (~/.cache/graphmem), reused through a link from a temporary cache folder so
a test's class archive and partial dumps stay in that folder, and a scan for the Neo4j
processes a data folder's configuration started."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import pytest

from graphmem.core.settings import Settings
from graphmem.localdb.assemble import install_dir, is_assembled
from graphmem.localdb.lockfile import load_lock


def linked_cache(folder: Path) -> Path:
    """A cache folder whose Neo4j install is a link to the assembled one (skip without it)."""
    lock = load_lock()
    home = install_dir(Settings().cache_dir.expanduser(), lock)
    if not is_assembled(home):
        pytest.skip(f"needs the Neo4j jars assembled in {home.parent} (run graphmem neo4j start)")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / home.name).symlink_to(home, target_is_directory=True)
    return folder


def neo4j_processes(data_dir: Path) -> list[int]:
    """Pids of the JVMs running with ``data_dir``'s configuration."""
    marker = f"--config-dir={data_dir.resolve() / 'conf'}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker in (entry / "cmdline").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:  # ended meanwhile, or not ours to read
            continue
    return found


def kill_all(pids: list[int]) -> None:
    """A test's own leftovers (found by neo4j_processes on its temporary folder)."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
