"""Erased memories' Markdown backups (memories/backup.py writes one file per version, named by
its id, under a folder per tenant, project and topic): removed after the batch that erased
them commits, with the folders they leave empty (their names are a project's and a topic's)."""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

from graphmem.core.text import tenant_prefix

log = logging.getLogger("graphmem")


def remove_backups(tenant: str, root: Path | None, memory_ids: list[str]) -> None:
    if root is None or not memory_ids:
        return
    folder = root / tenant_prefix(tenant).rstrip("_")
    for memory_id in memory_ids:
        for path in folder.glob(f"*/*/*-{memory_id}.md"):
            try:
                path.unlink()
            except OSError as error:  # reported, not fatal: the graph is erased
                log.warning("erased memory backup %s not removed: %s", path.name, error.strerror)
                continue
            for parent in (path.parent, path.parent.parent):
                with contextlib.suppress(OSError):  # not empty: another version's
                    parent.rmdir()
