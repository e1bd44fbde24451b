"""Removing erased memories' Markdown backups: exactly the ids named (an id is data, never a
pattern), with the folders left empty, off the event loop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from graphmem.core.text import tenant_prefix
from graphmem.erasure import backups
from graphmem.erasure.backups import BackupRemoval, backup_memory_id

pytestmark = pytest.mark.pure
TENANT = "acme"


def _backup(root: Path, project: str, topic: str, version: int, memory_id: str) -> Path:
    path = root / tenant_prefix(TENANT).rstrip("_") / project / topic / f"v{version}-{memory_id}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {memory_id}\n")
    return path


def _remove(root: Path, ids: list[str]) -> int:
    async def run() -> int:
        removal = BackupRemoval(TENANT, root)
        removal.start(ids)
        return await removal.finish()

    return asyncio.run(run())


def test_an_id_that_looks_like_a_pattern_matches_only_itself(tmp_path: Path) -> None:
    kept = [_backup(tmp_path, "p", "t", 1, "abc"), _backup(tmp_path, "p", "u", 2, "def")]
    assert _remove(tmp_path, ["*"]) == 0
    assert _remove(tmp_path, ["?bc", "[a-z]*", "**"]) == 0
    assert all(path.exists() for path in kept)


def test_exactly_the_named_ids_go_with_the_folders_they_empty(tmp_path: Path) -> None:
    alone = _backup(tmp_path, "p", "t", 1, "b")
    suffix_alike = _backup(tmp_path, "p", "t", 2, "a-b")  # id "a-b" ends like "-b.md"
    other_topic = _backup(tmp_path, "q", "v", 1, "c")
    assert _remove(tmp_path, ["b", "c"]) == 2
    assert not alone.exists() and not other_topic.exists()
    assert suffix_alike.exists()
    assert not other_topic.parent.exists() and not other_topic.parent.parent.exists()
    assert alone.parent.exists()  # still holds a-b's backup


def test_the_file_system_work_runs_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _backup(tmp_path, "p", "t", 1, "x")
    threads: list[int] = []
    original = backups.remove_backups

    def recording(folder: Path, ids: frozenset[str]) -> int:
        threads.append(threading.get_ident())
        return original(folder, ids)

    monkeypatch.setattr(backups, "remove_backups", recording)
    assert _remove(tmp_path, ["x"]) == 1
    assert threads and threads[0] != threading.get_ident()


def test_names_that_are_not_backups_carry_no_id() -> None:
    assert backup_memory_id("v3-abc.md") == "abc"
    assert backup_memory_id("v3-a-b.md") == "a-b"
    assert backup_memory_id("notes.md") is None
    assert backup_memory_id("v3-abc.tmp") is None
    assert backup_memory_id("v3-.md") is None
