"""Backup and restore of the managed local Neo4j (`graphmem neo4j backup|restore`): a server
holding data is backed up, changed, restored, and holds what the backup held; a running
server and a database holding data are refused without --force; a damaged or truncated
backup leaves the database as it was. One managed server for the module (starts are slow)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.core.keys import load_or_create
from graphmem.history.rows import HeadRow
from graphmem.localdb import LocalNeo4j
from graphmem.localdb.backup import (
    MANIFEST,
    BackupFailed,
    BackupManifest,
    BackupRefused,
    backup,
    restore,
)
from graphmem.store import Store, ping_sync, shaped
from tests.app.helpers import assert_one_clear_line, clean_env, run_cli
from tests.neo4j_endpoint import Endpoint, local_test_settings

pytestmark = pytest.mark.managed  # starts and stops a managed Neo4j of its own

BEFORE = "1" * 64  # a history head written before the backup
AFTER = "2" * 64  # and one written after it, which the restore must undo


def _head(local: LocalNeo4j, tenant: str, genesis: str | None = None) -> str | None:
    """The tenant's history head hash (None without one); writes one first if given."""

    async def run() -> str | None:
        status = local.status()
        store = await Store.connect(status.bolt_uri, local.user, local.password())
        try:
            if genesis is not None:
                await store.write("history/create_head", tenant, genesis_hash=genesis)
            return shaped(HeadRow, await store.read("history/get_head", tenant))[0]["last_hash"]
        finally:
            await store.close()

    return asyncio.run(run())


@pytest.fixture(scope="module")
def source(
    neo4j_endpoint: Endpoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LocalNeo4j]:
    """A managed Neo4j of its own (in a temporary folder, on free ports) holding data."""
    if neo4j_endpoint.local_settings is None:
        pytest.skip("the tests run against a Neo4j that graphmem does not manage")
    local = LocalNeo4j(local_test_settings(tmp_path_factory.mktemp("backup-source")))
    try:
        local.start(ready_check=ping_sync)
        assert _head(local, "before", BEFORE) == BEFORE
        yield local
    finally:
        local.stop()


def _env(local: LocalNeo4j) -> dict[str, str]:
    s = local.settings
    return clean_env(
        GRAPHMEM_DATA_DIR=str(s.data_dir),
        GRAPHMEM_LOCAL_BOLT_PORT=str(s.local_bolt_port),
        GRAPHMEM_LOCAL_HTTP_PORT=str(s.local_http_port),
    )


def test_a_running_server_is_refused(source: LocalNeo4j, tmp_path: Path) -> None:
    assert source.status().running
    with pytest.raises(BackupRefused, match=r"running .* stop it with `graphmem neo4j stop`"):
        backup(source, tmp_path / "b", force=False, ready_check=ping_sync)
    assert not (tmp_path / "b").exists()
    assert_one_clear_line(
        run_cli("neo4j", "backup", "--to", str(tmp_path / "b"), env=_env(source)),
        "is running",
        "--force",
    )
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "neo4j.dump").write_bytes(b"not a dump")
    with pytest.raises(BackupRefused, match="is running"):
        restore(source, tmp_path / "fake", force=False, ready_check=ping_sync)
    assert source.status().running  # nothing was stopped


def test_backup_then_restore_brings_back_the_data(source: LocalNeo4j, tmp_path: Path) -> None:
    key = load_or_create(source.settings.history_key_path)
    folder = tmp_path / "backup"

    # --force: the running server is stopped for the dump and started again
    report = backup(source, folder, force=True, ready_check=ping_sync)
    assert report.restarted and source.status().running
    manifest = BackupManifest.model_validate_json((folder / MANIFEST).read_text())
    assert manifest.history_key_id == key.key_id and manifest.size > 0
    for path in (folder, folder / "neo4j.dump", folder / MANIFEST):
        assert path.stat().st_mode & 0o077 == 0, path  # every tenant's data: owner only
    assert _head(source, "after", AFTER) == AFTER  # written after the backup

    source.stop()
    with pytest.raises(BackupRefused, match=r"already holds database 'neo4j'.*--force"):
        restore(source, folder, force=False, ready_check=ping_sync)
    restored = restore(source, folder, force=True, ready_check=ping_sync)
    assert restored.notes == []  # the same history key: nothing to do about it

    # a truncated dump fails half-way through the load: the database is put back
    (tmp_path / "cut").mkdir()
    whole = (folder / "neo4j.dump").read_bytes()
    (tmp_path / "cut" / "neo4j.dump").write_bytes(whole[: len(whole) // 2])
    with pytest.raises(BackupFailed, match="load failed"):
        restore(source, tmp_path / "cut", force=True, ready_check=ping_sync)
    assert not (source.data_dir / "before-restore").exists()

    source.start(ready_check=ping_sync)
    assert _head(source, "before") == BEFORE  # what the backup held
    assert _head(source, "after") is None  # written after the backup: gone


def test_a_damaged_backup_is_refused_before_anything_changes(tmp_path: Path) -> None:
    local = LocalNeo4j(local_test_settings(tmp_path / "data"))
    folder = tmp_path / "backup"
    folder.mkdir()
    (folder / "neo4j.dump").write_bytes(b"truncated")
    manifest = BackupManifest(
        neo4j_version="5.26.30",
        database="neo4j",
        created_at="2026-01-01T00:00:00Z",  # type: ignore[arg-type]
        size=1000,
        sha256="0" * 64,
        history_key_id=None,
    )
    (folder / MANIFEST).write_text(manifest.model_dump_json())
    with pytest.raises(BackupFailed, match=r"does not match its backup\.json"):
        restore(local, folder, force=True, ready_check=ping_sync)
    assert not local.data_dir.exists()
    with pytest.raises(BackupRefused, match="holds no database"):
        backup(local, tmp_path / "out", force=False, ready_check=ping_sync)


def test_backup_and_restore_need_their_folder(tmp_path: Path) -> None:
    env = clean_env(GRAPHMEM_DATA_DIR=str(tmp_path / "data"))
    assert_one_clear_line(run_cli("neo4j", "backup", env=env), "needs --to FOLDER")
    assert_one_clear_line(
        run_cli("neo4j", "restore", "--from", str(tmp_path / "none"), env=env), "no backup at"
    )
