"""The managed Neo4j's generated password: ``<data_dir>/auth.secret`` (mode 600), unless
NEO4J_PASSWORD is set.

Written whole or not at all: a temporary file, fsynced, linked into place, the folder fsynced
(a first start killed while it writes leaves no empty file, and the password is on disk before
auth.ini holds its hash). An unusable file (empty or shorter than Neo4j accepts: what an
interrupted first start of an earlier graphmem, or a crash before its data reached the disk,
could leave) is replaced only while no database was ever created: nothing holds the old
password then. Once a database was created with it, only the old password opens it, and a
new one would lock the user out: the start stops with one line saying what to do instead.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import string
from pathlib import Path

from graphmem.core.errors import ConfigurationError
from graphmem.localdb.initial_password import MINIMUM_LENGTH, sync_folder

SECRET_NAME = "auth.secret"  # noqa: S105  (a file name, no secret)
_ALPHABET = string.ascii_letters + string.digits


def random_password(length: int = 32) -> str:
    """Letters and digits only: neo4j-admin reads an argument starting with '-' (which
    token_urlsafe produces one time in 64) as an option and refuses the password."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(length))


def stored_password(data_dir: Path) -> str:
    """auth.secret's password, made if there is none (the first file published wins)."""
    path = data_dir / SECRET_NAME
    if not path.exists():
        _publish(path, random_password())
    password = path.read_text().strip()
    if len(password) < MINIMUM_LENGTH:
        raise ConfigurationError(_unusable(path, data_dir))
    return password


def drop_unusable(data_dir: Path) -> bool:
    """Before a start uses the password (under its lock): an unusable auth.secret of a folder
    that never had a database is removed, True (the next ``stored_password`` makes a new one);
    one a database was created with is refused."""
    path = data_dir / SECRET_NAME
    try:
        password = path.read_text().strip()
    except FileNotFoundError:
        return False
    if len(password) >= MINIMUM_LENGTH:
        return False
    if database_created(data_dir):
        raise ConfigurationError(_unusable(path, data_dir))
    path.unlink()
    return True


def database_created(data_dir: Path) -> bool:
    """Neo4j has created its databases here (the system one holds the password since)."""
    return (data_dir / "data" / "databases").exists()


def _unusable(path: Path, data_dir: Path) -> str:
    if not database_created(data_dir):
        return f"{path} holds no usable password; the next start replaces it"
    return (
        f"{path} holds no usable password, but the database in {data_dir / 'data'} was "
        "created with the one it held: write that password into the file or set "
        "NEO4J_PASSWORD to it (lost: see 'A lost password' in docs/operations.md)"
    )


def _publish(path: Path, password: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(password)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another process published first
            try:
                os.link(partial, path)
            except FileExistsError:
                raise
            except OSError:  # no hard links here (some FUSE, SMB, vboxsf folders)
                _write_exclusive(path, password)
        sync_folder(path.parent)  # the name on disk too
    finally:
        partial.unlink(missing_ok=True)


def _write_exclusive(path: Path, password: str) -> None:
    """The secret written in place, created only if absent (FileExistsError: another process
    published first). Interrupted, it may leave the file short: a start treats that as above."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(password)
        handle.flush()
        os.fsync(handle.fileno())
