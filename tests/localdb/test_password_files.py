"""The managed Neo4j's password files survive an interrupted first start: auth.secret is
written whole or not at all; an empty one is replaced while no database was ever created, and
refused with what to do once one was (a new password would lock the user out of it); auth.ini
is on disk (file and folder) before the start marks it written."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest

from graphmem.core.errors import ConfigurationError
from graphmem.localdb import LocalNeo4j
from graphmem.store import ping_sync
from tests.localdb.support import linked_cache
from tests.neo4j_endpoint import local_test_settings


def _local(data_dir: Path) -> LocalNeo4j:
    return LocalNeo4j(local_test_settings(data_dir))


def _killed(*_: object) -> None:
    raise KeyboardInterrupt  # the process killed at this point


@pytest.mark.pure
@pytest.mark.parametrize("where", ["choosing the password", "writing it"])
def test_an_interrupted_write_leaves_no_empty_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    local = _local(tmp_path)
    with monkeypatch.context() as patch:
        if where == "choosing the password":
            patch.setattr(secrets, "choice", _killed)
        else:
            patch.setattr(os, "fsync", _killed)
        with pytest.raises(KeyboardInterrupt):
            local.password()
    assert sorted(path.name for path in tmp_path.iterdir()) == []  # no secret, no leftover
    password = local.password()
    assert len(password) == 32 and (tmp_path / "auth.secret").read_text().strip() == password
    assert (tmp_path / "auth.secret").stat().st_mode & 0o777 == 0o600


@pytest.mark.pure
def test_an_empty_secret_of_a_created_database_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "data" / "databases").mkdir(parents=True)  # a database exists
    (tmp_path / "auth.secret").write_text("")
    local = _local(tmp_path)
    with pytest.raises(ConfigurationError) as refused:
        local.start(ready_check=ping_sync)
    message = refused.value.message
    assert str(tmp_path / "auth.secret") in message and "NEO4J_PASSWORD" in message
    assert "\n" not in message
    assert (tmp_path / "auth.secret").read_text() == ""  # nothing replaced


@pytest.mark.pure
def test_auth_ini_is_on_disk_before_the_start_marks_it_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "data" / ".graphmem-password-set"
    synced: list[tuple[str, bool]] = []  # (what was fsynced, whether the marker was there)
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append((os.readlink(f"/proc/self/fd/{fd}"), marker.exists()))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    _local(tmp_path)._set_initial_password()
    assert marker.exists()
    dbms = tmp_path / "data" / "dbms"
    assert (str(dbms / "auth.ini"), False) in synced
    assert (str(dbms), False) in synced


@pytest.mark.managed
def test_an_empty_secret_left_by_an_interrupted_first_start_is_replaced(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "auth.secret").write_text("")  # killed between creating the file and writing it
    settings = local_test_settings(data).model_copy(
        update={"cache_dir": linked_cache(tmp_path / "cache"), "local_start_timeout": 120.0}
    )
    local = LocalNeo4j(settings)
    try:
        status, started = local.start(ready_check=ping_sync)  # signs in with auth.secret's
        assert started and status.running
        assert len((data / "auth.secret").read_text().strip()) == 32
    finally:
        local.stop()


@pytest.mark.pure
def test_a_folder_without_hard_links_still_gets_its_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_hard_links(*_: object) -> None:
        raise PermissionError(1, "Operation not permitted")  # some FUSE, SMB, vboxsf folders

    monkeypatch.setattr(os, "link", no_hard_links)
    password = _local(tmp_path).password()
    assert (tmp_path / "auth.secret").read_text().strip() == password and len(password) == 32
    assert (tmp_path / "auth.secret").stat().st_mode & 0o777 == 0o600
    assert sorted(path.name for path in tmp_path.iterdir()) == ["auth.secret"]  # no partial
    assert _local(tmp_path).password() == password  # the file published first stays
