"""The Neo4j install assembled from the lock file: each pinned jar fetched by its address (or
linked from the local Maven cache), checked by digest; a proxy's page instead of a jar, a
killed assembly's leftovers and a failed one leave nothing trusted. A loopback repository."""

from __future__ import annotations

import hashlib
import http.server
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.core.errors import ArtifactDownloadFailed
from graphmem.localdb.assemble import assemble, install_dir, is_assembled
from graphmem.localdb.lockfile import LockedArtifact, LockFile

pytestmark = pytest.mark.pure

JAR = b"PK\x03\x04 a jar's bytes"
PATH = "/org/example/thing/1.0/thing-1.0.jar"


def lock_of(content: bytes) -> LockFile:
    artifact = LockedArtifact(
        group="org.example",
        artifact="thing",
        version="1.0",
        sha256=hashlib.sha256(content).hexdigest(),
        size=len(content),
    )
    return LockFile(
        neo4j_version="0",
        browser_version="0",
        entry_class="x",
        admin_class="x",
        roots=[],
        artifacts=[artifact],
    )


@pytest.fixture
def served() -> Iterator[tuple[str, dict[str, bytes]]]:
    """A repository on loopback answering what ``files`` holds (404 otherwise)."""
    files: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = files.get(self.path)
            self.send_response(200 if body is not None else 404)
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", files
    finally:
        server.shutdown()


@pytest.fixture(autouse=True)
def empty_maven_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("M2_REPO", str(tmp_path / "m2"))
    return tmp_path / "m2"


def test_a_pinned_jar_is_fetched_and_checked(
    served: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, files = served
    files[PATH] = JAR
    said: list[str] = []
    home = assemble(lock_of(JAR), tmp_path / "cache", url, said.append)
    assert is_assembled(home) and (home / "lib" / "thing-1.0.jar").read_bytes() == JAR
    assert said[-1].startswith("Neo4j assembled in ")
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [home.name]  # no staging left


def test_a_page_instead_of_the_jar_is_refused_and_nothing_kept(
    served: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, files = served
    files[PATH] = b"<html>Please sign in to the proxy</html>"
    with pytest.raises(ArtifactDownloadFailed) as refused:
        assemble(lock_of(JAR), tmp_path / "cache", url)
    assert "a proxy that answers with a page instead of the jar" in refused.value.message
    assert "GRAPHMEM_MAVEN_REPOSITORY" in refused.value.message
    assert list((tmp_path / "cache").iterdir()) == []  # no install, no staging


def test_a_missing_jar_names_the_coordinate_and_the_setting(
    served: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, _ = served
    with pytest.raises(ArtifactDownloadFailed) as refused:
        assemble(lock_of(JAR), tmp_path / "cache", url)
    assert refused.value.message.startswith(f"could not download org.example:thing:1.0 from {url}")
    assert "GRAPHMEM_MAVEN_REPOSITORY" in refused.value.message


def test_the_local_maven_cache_serves_a_jar_of_the_pinned_digest(
    served: tuple[str, dict[str, bytes]], tmp_path: Path, empty_maven_cache: Path
) -> None:
    url, _ = served  # the repository has nothing: the cache must serve
    cached = empty_maven_cache / PATH.lstrip("/")
    cached.parent.mkdir(parents=True)
    cached.write_bytes(JAR)
    home = assemble(lock_of(JAR), tmp_path / "cache", url)
    assert (home / "lib" / "thing-1.0.jar").read_bytes() == JAR


def test_a_killed_assemblys_leftovers_are_removed_once_old(
    served: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, files = served
    files[PATH] = JAR
    home = install_dir(tmp_path / "cache", lock_of(JAR))
    old, young = (home.with_name(f"{home.name}.partial-{n}") for n in ("1-old", "2-young"))
    for folder in (old, young):
        (folder / "lib").mkdir(parents=True)
        (folder / "lib" / "thing-1.0.jar.part").write_bytes(JAR[:3])  # a cut download
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    assert is_assembled(assemble(lock_of(JAR), tmp_path / "cache", url))
    assert not old.exists() and young.exists()  # a young one may be another process's


def test_a_cache_folder_that_cannot_be_written_names_the_setting(
    served: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, files = served
    files[PATH] = JAR
    in_the_way = tmp_path / "not-a-folder"
    in_the_way.write_text("")  # a file where the cache folder would go (root ignores modes)
    with pytest.raises(ArtifactDownloadFailed) as refused:
        assemble(lock_of(JAR), in_the_way / "cache", url)
    assert refused.value.message.startswith(
        f"the cache folder {in_the_way / 'cache'} cannot be written"
    )
    assert refused.value.message.endswith("set GRAPHMEM_CACHE_DIR to a folder this user can write")
