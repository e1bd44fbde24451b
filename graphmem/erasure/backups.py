"""Erased memories' Markdown backups (memories/backup.py writes one file per version, named
``v<version>-<id>.md``, under a folder per tenant, project and topic): removed after the batch
that erased them commits, with the folders they leave empty (their names are a project's and a
topic's).

One walk of the tenant's folder per batch, in a worker thread: a file goes when the id its
name carries is exactly one the batch erased (an id is data, never a pattern), and the event
loop never waits on the file system. The removals a call started are awaited before it
answers, so what it reports erased has no backup left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from pathlib import Path

from graphmem.core.text import tenant_prefix

log = logging.getLogger("graphmem")


class BackupRemoval:
    """The backup removals of one erasing call: started as its batches commit."""

    def __init__(self, tenant: str, root: Path | None) -> None:
        self._folder = None if root is None else root / tenant_prefix(tenant).rstrip("_")
        self._started: list[asyncio.Future[int]] = []

    def start(self, memory_ids: list[str]) -> None:
        """Remove the backups of ``memory_ids`` in a worker thread (the batch committed)."""
        if self._folder is None or not memory_ids:
            return
        loop = asyncio.get_running_loop()
        self._started.append(
            loop.run_in_executor(None, remove_backups, self._folder, frozenset(memory_ids))
        )

    async def finish(self) -> int:
        """Wait for every removal started; the files removed."""
        removed = await asyncio.gather(*self._started)
        self._started.clear()
        return sum(removed)


def remove_backups(folder: Path, memory_ids: frozenset[str]) -> int:
    """Remove the backups under one tenant's ``folder`` of exactly ``memory_ids``; the count."""
    removed = 0
    for project in _folders(folder):
        for topic in _folders(project):
            removed += _remove_in(topic, memory_ids)
            with contextlib.suppress(OSError):  # not empty: another version's
                os.rmdir(topic)
        with contextlib.suppress(OSError):
            os.rmdir(project)
    return removed


def backup_memory_id(name: str) -> str | None:
    """The memory id a backup's file name carries (``v3-<id>.md``), or None."""
    stem, dot_md = name[:-3], name[-3:]
    version, dash, memory_id = stem.partition("-")
    if dot_md != ".md" or not dash or not version.startswith("v") or not memory_id:
        return None
    return memory_id


def _remove_in(topic: str, memory_ids: frozenset[str]) -> int:
    removed = 0
    for entry in _entries(topic):
        if entry.is_file(follow_symlinks=False) and backup_memory_id(entry.name) in memory_ids:
            try:
                os.unlink(entry.path)
                removed += 1
            except OSError as error:  # reported, not fatal: the graph is erased
                log.warning("erased memory backup %s not removed: %s", entry.name, error.strerror)
    return removed


def _folders(path: Path | str) -> list[str]:
    return [entry.path for entry in _entries(path) if entry.is_dir(follow_symlinks=False)]


def _entries(path: Path | str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as entries:
            return list(entries)
    except OSError:  # no backups yet, or the folder went meanwhile
        return []
