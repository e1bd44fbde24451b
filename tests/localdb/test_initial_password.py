"""The managed Neo4j's first password, written by graphmem in Neo4j's own auth.ini format:
checked against a line Neo4j's admin command wrote, and (managed) against the admin command
run now. Every managed start then signs in with it (tests/conftest.py's server)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from graphmem.core.errors import ConfigurationError
from graphmem.localdb.assemble import install_dir, is_assembled
from graphmem.localdb.initial_password import auth_line, credential_hash, write_initial_password
from graphmem.localdb.java import find_java
from graphmem.localdb.lockfile import load_lock
from tests.neo4j_endpoint import Endpoint

# Written by `neo4j-admin dbms set-initial-password pw-test-123456` (Neo4j 5.26.30).
ADMIN_LINE = (
    "neo4j:SHA-256,493fe202d7e9f5ae040e9ad8fba7c2b1187c43f2a292baba8cd8db69d6566762,"
    "ccc96aff4279eb50a27f312c795d05b471488aecf585a701c00a898ae1c105da,1024:\n"
)


def salt_of(line: str) -> bytes:
    return bytes.fromhex(line.split(",")[2])


@pytest.mark.pure
def test_the_line_is_the_one_neo4j_admin_wrote() -> None:
    assert auth_line("pw-test-123456", salt_of(ADMIN_LINE)) == ADMIN_LINE
    assert credential_hash("pw-test-123457", salt_of(ADMIN_LINE)) not in ADMIN_LINE


@pytest.mark.pure
def test_the_file_is_private_and_a_short_password_is_refused(tmp_path: Path) -> None:
    write_initial_password(tmp_path, "a-long-enough-password")
    path = tmp_path / "dbms" / "auth.ini"
    assert path.stat().st_mode & 0o777 == 0o600
    first = path.read_text()
    write_initial_password(tmp_path, "a-long-enough-password")  # a retried first start
    assert path.read_text() != first  # a fresh salt
    with pytest.raises(ConfigurationError, match="NEO4J_PASSWORD is too short"):
        write_initial_password(tmp_path, "short")


@pytest.mark.managed
def test_it_matches_what_the_admin_command_writes_now(
    tmp_path: Path, neo4j_endpoint: Endpoint
) -> None:
    settings = neo4j_endpoint.local_settings
    lock = load_lock()
    home = install_dir(Path(settings.cache_dir), lock) if settings else None
    if home is None or not is_assembled(home):
        pytest.skip("needs the assembled Neo4j jars of the managed local server")
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "neo4j.conf").write_text(f"server.directories.data={tmp_path}/data\n")
    command = [str(find_java(None).executable), "-cp", f"{home}/lib/*", lock.admin_class]
    subprocess.run(
        [*command, "dbms", "set-initial-password", "another-password-42"],
        env={**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(tmp_path / "conf")},
        check=True,
        capture_output=True,
        timeout=120,
    )
    written = (tmp_path / "data" / "dbms" / "auth.ini").read_text()
    assert auth_line("another-password-42", salt_of(written)) == written
