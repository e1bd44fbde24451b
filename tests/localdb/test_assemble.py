"""The Neo4j install assembled from the lock file: each pinned jar fetched by its address (or
linked from the local Maven cache), checked by digest; a proxy's page instead of a jar, a
killed assembly's leftovers and a failed one leave nothing trusted. A loopback repository."""

from __future__ import annotations

import base64
import hashlib
import http.server
import os
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graphmem.core.errors import ArtifactDownloadFailed
from graphmem.localdb.assemble import assemble, install_dir, is_assembled
from graphmem.localdb.lockfile import LockedArtifact, LockFile

pytestmark = pytest.mark.pure

JAR = b"PK\x03\x04 a jar's bytes"
PATH = "/org/example/thing/1.0/thing-1.0.jar"
SHA = hashlib.sha256(JAR).hexdigest()


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


@dataclass
class Repository:
    """A repository on loopback answering what ``files`` holds (404 otherwise)."""

    url: str
    files: dict[str, bytes] = field(default_factory=dict)
    moved: dict[str, str] = field(default_factory=dict)  # path -> where it redirects
    seen: list[str] = field(default_factory=list)  # the request lines' targets
    login: str | None = None  # "user:secret" the repository asks for
    busy: int = 0  # answers 429 before serving
    retry_after: str = "0"  # what a 429 says to wait
    signed: dict[str, str | None] = field(default_factory=dict[str, str | None])  # path -> login


@pytest.fixture
def served() -> Iterator[Repository]:
    repository = Repository("")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urllib.parse.urlsplit(self.path).path  # a proxy is asked for the whole URL
            repository.seen.append(self.path)
            repository.signed[path] = self.headers.get("Authorization")
            if repository.login and self.headers.get("Authorization") != "Basic " + (
                base64.b64encode(repository.login.encode()).decode()
            ):
                self.send_response(401)
                self.end_headers()
                return
            if repository.busy:
                repository.busy -= 1
                self.send_response(429)
                self.send_header("Retry-After", repository.retry_after)
                self.end_headers()
                return
            if path in repository.moved:
                self.send_response(302)
                self.send_header("Location", repository.moved[path])
                self.end_headers()
                return
            body = repository.files.get(path)
            self.send_response(200 if body is not None else 404)
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    repository.url = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield repository
    finally:
        server.shutdown()


@pytest.fixture(autouse=True)
def empty_maven_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("M2_REPO", str(tmp_path / "m2"))
    return tmp_path / "m2"


def test_a_pinned_jar_is_fetched_and_checked(served: Repository, tmp_path: Path) -> None:
    url, files = served.url, served.files
    files[PATH] = JAR
    said: list[str] = []
    home = assemble(lock_of(JAR), tmp_path / "cache", url, said.append)
    assert is_assembled(home) and (home / "lib" / "thing-1.0.jar").read_bytes() == JAR
    assert said[-1].startswith("Neo4j assembled in ")
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["jars", home.name]
    assert [p.name for p in (tmp_path / "cache" / "jars").iterdir()] == [f"{SHA}.jar"]


def test_a_page_instead_of_the_jar_is_refused_and_nothing_kept(
    served: Repository, tmp_path: Path
) -> None:
    url, files = served.url, served.files
    files[PATH] = b"<html>Please sign in to the proxy</html>"
    with pytest.raises(ArtifactDownloadFailed) as refused:
        assemble(lock_of(JAR), tmp_path / "cache", url)
    assert "a proxy that answers with a page instead of the jar" in refused.value.message
    assert "GRAPHMEM_MAVEN_REPOSITORY" in refused.value.message
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["jars"]  # no install, staging
    assert list((tmp_path / "cache" / "jars").iterdir()) == []  # nor the page


def test_a_missing_jar_names_the_coordinate_and_the_setting(
    served: Repository, tmp_path: Path
) -> None:
    url = served.url
    with pytest.raises(ArtifactDownloadFailed) as refused:
        assemble(lock_of(JAR), tmp_path / "cache", url)
    assert refused.value.message.startswith(f"could not download org.example:thing:1.0 from {url}")
    assert "GRAPHMEM_MAVEN_REPOSITORY" in refused.value.message


def test_the_local_maven_cache_serves_a_jar_of_the_pinned_digest(
    served: Repository, tmp_path: Path, empty_maven_cache: Path
) -> None:
    url = served.url  # the repository has nothing: the cache must serve
    cached = empty_maven_cache / PATH.lstrip("/")
    cached.parent.mkdir(parents=True)
    cached.write_bytes(JAR)
    home = assemble(lock_of(JAR), tmp_path / "cache", url)
    assert (home / "lib" / "thing-1.0.jar").read_bytes() == JAR


def test_a_killed_starts_leftovers_are_removed_and_its_verified_jars_kept(
    served: Repository, tmp_path: Path
) -> None:
    url, files = served.url, served.files
    files[PATH] = JAR
    home = install_dir(tmp_path / "cache", lock_of(JAR))
    gone, running = (
        home.with_name(f"{home.name}.partial-{pid}-abcd") for pid in (dead_pid(), os.getpid())
    )
    for folder in (gone, running):
        (folder / "lib").mkdir(parents=True)
    store = tmp_path / "cache" / "jars"
    store.mkdir()
    (store / f"{SHA}.jar").write_bytes(JAR)  # verified by the killed start
    cut = store / f"{SHA}.jar.1234.part"
    cut.write_bytes(JAR[:3])  # a download it was cut in
    os.utime(cut, (time.time() - 7200, time.time() - 7200))
    del files[PATH]  # the repository is gone: the kept jar must serve
    assert is_assembled(assemble(lock_of(JAR), tmp_path / "cache", url))
    assert not gone.exists() and not cut.exists()
    assert running.exists()  # a live process's staging folder is its own


def test_an_install_left_without_its_marker_is_replaced(served: Repository, tmp_path: Path) -> None:
    served.files[PATH] = JAR
    home = install_dir(tmp_path / "cache", lock_of(JAR))
    (home / "lib").mkdir(parents=True)  # an interrupted delete left it, no .complete
    assert is_assembled(assemble(lock_of(JAR), tmp_path / "cache", served.url))


def dead_pid() -> int:
    pid = 4_000_000
    while Path(f"/proc/{pid}").exists():
        pid += 1
    return pid


def test_a_cache_folder_that_cannot_be_written_names_the_setting(
    served: Repository, tmp_path: Path
) -> None:
    url, files = served.url, served.files
    files[PATH] = JAR
    in_the_way = tmp_path / "not-a-folder"
    in_the_way.write_text("")  # a file where the cache folder would go (root ignores modes)
    with pytest.raises(ArtifactDownloadFailed) as refused:
        assemble(lock_of(JAR), in_the_way / "cache", url)
    assert refused.value.message.startswith(
        f"the cache folder {in_the_way / 'cache'} cannot be written"
    )
    assert refused.value.message.endswith("set GRAPHMEM_CACHE_DIR to a folder this user can write")


def test_a_mirror_that_redirects_is_followed(served: Repository, tmp_path: Path) -> None:
    url, files = served.url, served.files
    files["/elsewhere/thing-1.0.jar"] = JAR
    served.moved[PATH] = "/elsewhere/thing-1.0.jar"
    home = assemble(lock_of(JAR), tmp_path / "cache", url)
    assert (home / "lib" / "thing-1.0.jar").read_bytes() == JAR


def test_a_proxy_of_the_environment_is_used(
    served: Repository, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy = served.url
    served.files["/maven2" + PATH] = JAR
    monkeypatch.setenv("http_proxy", proxy)
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    repository = "http://maven.example.invalid/maven2"  # a name only the proxy can reach
    home = assemble(lock_of(JAR), tmp_path / "cache", repository)
    assert (home / "lib" / "thing-1.0.jar").read_bytes() == JAR
    assert served.seen == [f"{repository}{PATH}"]  # asked of the proxy, by the whole URL


def test_credentials_in_the_repository_sign_in_and_are_never_shown(
    served: Repository, tmp_path: Path
) -> None:
    served.files[PATH] = JAR
    served.login = "reader:s3cret"
    signed_in = served.url.replace("http://", "http://reader:s3cret@")
    said: list[str] = []
    assert is_assembled(assemble(lock_of(JAR), tmp_path / "cache", signed_in, said.append))
    assert not [line for line in said if "s3cret" in line]
    with pytest.raises(ArtifactDownloadFailed) as refused:  # a wrong password: refused, unshown
        wrong = served.url.replace("http://", "http://reader:wrong@")
        assemble(lock_of(b"other"), tmp_path / "other", wrong)
    assert "wrong" not in refused.value.message and "HTTP 401" in refused.value.message


def test_a_busy_repository_is_asked_again(served: Repository, tmp_path: Path) -> None:
    served.files[PATH] = JAR
    served.busy = 2
    assert is_assembled(assemble(lock_of(JAR), tmp_path / "cache", served.url))


def test_a_busy_repository_that_names_a_date_is_asked_again(
    served: Repository, tmp_path: Path
) -> None:
    served.files[PATH] = JAR
    served.busy, served.retry_after = 1, "Wed, 21 Oct 2015 07:28:00 GMT"
    assert is_assembled(assemble(lock_of(JAR), tmp_path / "cache", served.url))


def test_a_redirect_never_carries_the_login_on(served: Repository, tmp_path: Path) -> None:
    served.files["/elsewhere/thing-1.0.jar"] = JAR
    served.moved[PATH] = "/elsewhere/thing-1.0.jar"
    signed_in = served.url.replace("http://", "http://reader:s3cret@")
    assert is_assembled(assemble(lock_of(JAR), tmp_path / "cache", signed_in))
    assert served.signed[PATH] == "Basic " + base64.b64encode(b"reader:s3cret").decode()
    assert served.signed["/elsewhere/thing-1.0.jar"] is None
