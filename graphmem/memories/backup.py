"""save_memory's Markdown backup: one file per saved version under GRAPHMEM_MEMORY_BACKUP_DIR,
written after the commit (graphmem/memories/service.py gives the rules). Files only, no
database."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from graphmem.core.text import tenant_prefix
from graphmem.memories.models.memories import BackupResult, MemoryRecord

log = logging.getLogger("graphmem")
_UNSAFE = re.compile(r"[^a-z0-9._-]+")


def _slug(text: str, limit: int = 60) -> str:
    return _UNSAFE.sub("-", text.lower()).strip("-.")[:limit] or "untitled"


def backup_path(root: Path, tenant: str, memory: MemoryRecord) -> Path:
    """Where a version's backup goes: one folder per tenant digest, project and topic."""
    topic = _slug(memory.topic_key or memory.id)
    name = f"v{memory.topic_version}-{memory.id}.md"
    return root / tenant_prefix(tenant).rstrip("_") / _slug(memory.project) / topic / name


def render_markdown(memory: MemoryRecord) -> str:
    header = {
        "id": memory.id,
        "project": memory.project,
        "type": memory.type,
        "topic_key": memory.topic_key,
        "topic_version": memory.topic_version,
        "status": memory.status,
        "branch": memory.branch,
        "tags": memory.tags,
        "files": memory.files,
        "created_at": memory.created_at.isoformat(),
    }
    lines = ["---", *(f"{key}: {_yaml(value)}" for key, value in header.items()), "---", ""]
    return "\n".join([*lines, f"# {memory.title}", "", memory.content, ""])


def _yaml(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)  # JSON scalars and lists are valid YAML


def write_backup(root: Path | None, tenant: str, memory: MemoryRecord) -> BackupResult:
    if root is None:
        return BackupResult(status="disabled")
    path = backup_path(root, tenant, memory)
    name = path.relative_to(root).as_posix()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(render_markdown(memory), encoding="utf-8")
        temporary.replace(path)  # atomic: a reader never sees half a file
    except OSError as error:
        log.warning("save_memory backup %s: %s", path, error)
        return BackupResult(
            status="failed", file=name, error="the backup file could not be written"
        )
    return BackupResult(status="saved", file=name)
