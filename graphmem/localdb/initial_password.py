"""The managed Neo4j's first password, written where Neo4j's own ``neo4j-admin dbms
set-initial-password`` writes it: ``data/dbms/auth.ini``, read once, when the system database
is created at the first start.

graphmem writes the file itself: the admin command is a JVM start of its own (3.7 s on two
cores, a tenth of a fresh start) for one line of text. The line is Neo4j 5's
(FileUserRepository, UserSerialization, SystemGraphCredential):

    neo4j:SHA-256,<hash>,<salt>,1024:

a fresh 32-byte salt, and the hash Apache Shiro's SimpleHash makes (SHA-256 of salt‖password,
then of that digest, 1024 digests in all), both in hex; the empty last field means no flags
(no password change required). tests/localdb/test_initial_password.py holds it against the
admin command's own output, and every managed start signs in with it.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

from graphmem.core.errors import ConfigurationError

USER = "neo4j"
ALGORITHM = "SHA-256"
ITERATIONS = 1024
SALT_BYTES = 32
MINIMUM_LENGTH = 8  # Neo4j's dbms.security.auth_minimum_password_length, which the admin checks


def credential_hash(password: str, salt: bytes, iterations: int = ITERATIONS) -> str:
    digest = hashlib.sha256(salt + password.encode()).digest()
    for _ in range(iterations - 1):
        digest = hashlib.sha256(digest).digest()
    return digest.hex()


def auth_line(password: str, salt: bytes) -> str:
    credential = f"{ALGORITHM},{credential_hash(password, salt)},{salt.hex()},{ITERATIONS}"
    return f"{USER}:{credential}:\n"


def write_initial_password(data_dir: Path, password: str) -> None:
    """``<data_dir>/dbms/auth.ini`` (mode 600), replacing one left by an earlier attempt; on
    disk, file and folder, when this returns (the start then marks it written: a crash that
    lost it after would leave Neo4j to create its users without it)."""
    if len(password) < MINIMUM_LENGTH:
        raise ConfigurationError(
            f"NEO4J_PASSWORD is too short for Neo4j: at least {MINIMUM_LENGTH} characters"
        )
    folder = data_dir / "dbms"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "auth.ini"
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(auth_line(password, secrets.token_bytes(SALT_BYTES)))
        handle.flush()
        os.fsync(handle.fileno())
    sync_folder(folder)


def sync_folder(folder: Path) -> None:
    """The folder's entries on disk (a new or renamed file's name survives a crash)."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
