"""Assemble a Neo4j installation (a ``lib/`` folder of jars) from the lock file.

Every jar is pinned by its coordinates and SHA-256, so nothing needs resolving: each is fetched
by its address in the Maven repository (eight at a time over HTTPS that trusts the system's
store: graphmem/core/tls.py), or linked from the local Maven cache (``~/.m2/repository`` or
``M2_REPO``) when a copy of the pinned digest is there, and checked before it is linked into
``<cache>/neo4j-<version>-<digest>/lib``. A ``.complete`` marker makes later starts instant.
(jgo, which resolved each jar's POM and metadata first, took 22-26 s for what the plain
downloads do in a few: the first call of a newcomer waits for it.)

Nothing half-done is trusted: each process assembles in a staging folder of its own (removed
when it fails; one a killed process left is removed an hour later), a download is written to
a temporary name and renamed once its digest matches, and the install appears by one rename.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import shutil
import ssl
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO

from graphmem.core.errors import ArtifactDownloadFailed
from graphmem.core.tls import https_context, is_certificate_failure, untrusted_advice
from graphmem.localdb.lockfile import LockedArtifact, LockFile, sha256_of

DOWNLOAD_WORKERS = 8
DOWNLOAD_TIMEOUT = 60.0  # seconds without a byte before a download fails
ABANDONED_AFTER = 3600.0  # seconds after which another process's staging folder is a killed one's
CHUNK = 1 << 20
REDIRECTS = (301, 302, 303, 307, 308)


def install_dir(cache_dir: Path, lock: LockFile) -> Path:
    return cache_dir / f"neo4j-{lock.neo4j_version}-{lock.digest}"


def is_assembled(home: Path) -> bool:
    return (home / ".complete").exists()


def assemble(
    lock: LockFile,
    cache_dir: Path,
    repository: str,
    progress: Callable[[str], None] = lambda _: None,
    ca_file: Path | None = None,
) -> Path:
    """Return the Neo4j home for ``lock``, downloading and verifying jars when needed (over
    HTTPS that trusts the system's store and ``ca_file``: graphmem/core/tls.py)."""
    home = install_dir(cache_dir, lock)
    if is_assembled(home):
        return home
    staging = home.with_name(f"{home.name}.partial-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        _remove_abandoned(home)
        (staging / "lib").mkdir(parents=True)
    except OSError as error:
        raise ArtifactDownloadFailed(
            f"the cache folder {cache_dir} cannot be written "
            f"({error.strerror or type(error).__name__}): set GRAPHMEM_CACHE_DIR to a folder "
            "this user can write"
        ) from error
    try:
        _fetch_all(lock, Source(repository, https_context(ca_file)), staging / "lib", progress)
        (staging / ".complete").write_text(lock.digest + "\n")
        with contextlib.suppress(OSError):  # another process finished first: its install stands
            staging.rename(home)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if not is_assembled(home):
        raise ArtifactDownloadFailed(f"the Neo4j install in {home} could not be completed")
    progress(f"Neo4j assembled in {home}")
    return home


class Source:
    """Where the jars come from: a Maven repository, reached over one kept-alive connection
    per download thread (a new TLS connection per small jar cost most of the time). Through a
    proxy (``https_proxy`` and the like) or a redirect, urllib's own way instead."""

    def __init__(self, repository: str, context: ssl.SSLContext) -> None:
        self.repository = repository.rstrip("/")
        self._url = urllib.parse.urlsplit(self.repository)
        self._context = context
        self._local = threading.local()
        host = self._url.hostname or ""
        proxy = urllib.request.getproxies().get(self._url.scheme)
        self._proxied = bool(proxy) and not urllib.request.proxy_bypass(host)

    def get(self, artifact: LockedArtifact, out: BinaryIO) -> None:
        """Write the artifact's bytes to ``out`` (one retry on a connection the server closed)."""
        group = artifact.group.replace(".", "/")
        path = f"{self._url.path}/{group}/{artifact.artifact}/{artifact.version}/"
        path += artifact.file_name
        if self._proxied:
            self._get_by_urllib(f"{self.repository}{path[len(self._url.path) :]}", out)
            return
        for attempt in (1, 2):
            connection = self._connection()
            try:
                connection.request("GET", path)
                answer = connection.getresponse()
            except (OSError, http.client.HTTPException):
                self._local.connection = None
                connection.close()
                if attempt == 2:
                    raise
                continue
            if answer.status in REDIRECTS:  # a mirror that sends elsewhere: followed by urllib
                answer.read()
                self._get_by_urllib(f"{self.repository}{path[len(self._url.path) :]}", out)
                return
            if answer.status != 200:
                answer.read()
                raise OSError(f"HTTP {answer.status}")
            while chunk := answer.read(CHUNK):
                out.write(chunk)
            return

    def _get_by_urllib(self, url: str, out: BinaryIO) -> None:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT, context=self._context) as answer:  # noqa: S310 - a pinned jar's address
            while chunk := answer.read(CHUNK):
                out.write(chunk)

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            host, port = self._url.hostname or "", self._url.port
            connection = (
                http.client.HTTPSConnection(
                    host, port, timeout=DOWNLOAD_TIMEOUT, context=self._context
                )
                if self._url.scheme == "https"
                else http.client.HTTPConnection(host, port, timeout=DOWNLOAD_TIMEOUT)
            )
            self._local.connection = connection
        return connection


def _fetch_all(lock: LockFile, source: Source, lib: Path, progress: Callable[[str], None]) -> None:
    progress(
        f"downloading Neo4j {lock.neo4j_version}: {len(lock.artifacts)} jars, "
        f"{lock.total_size / 1e6:.0f} MB from {source.repository}"
    )
    downloaded = _Progress(lock, progress)

    def fetch(artifact: LockedArtifact) -> None:
        _fetch_one(artifact, source, lib / artifact.file_name)
        downloaded.add(artifact.size)

    largest_first = sorted(lock.artifacts, key=lambda artifact: -artifact.size)  # no long tail
    with ThreadPoolExecutor(max_workers=DOWNLOAD_WORKERS) as pool:
        list(pool.map(fetch, largest_first))


def _fetch_one(artifact: LockedArtifact, source: Source, target: Path) -> None:
    """``target``: the local Maven cache's copy when it has the pinned digest, else a download
    of it, checked before it takes the name."""
    cached = _maven_cache() / artifact.group.replace(".", "/") / artifact.artifact
    cached = cached / artifact.version / artifact.file_name
    if cached.is_file() and sha256_of(cached) == artifact.sha256:
        _link(cached, target)
        return
    partial = target.with_name(target.name + ".part")
    _download(source, artifact, partial)
    if sha256_of(partial) != artifact.sha256:
        partial.unlink(missing_ok=True)
        raise ArtifactDownloadFailed(
            f"{artifact.file_name} from {source.repository} does not match its pinned SHA-256 "
            "(a proxy that answers with a page instead of the jar does this); nothing was "
            "kept: run the command again, or point GRAPHMEM_MAVEN_REPOSITORY at a mirror"
        )
    partial.rename(target)


def _download(source: Source, artifact: LockedArtifact, target: Path) -> None:
    try:
        with target.open("wb") as out:
            source.get(artifact, out)
    except (OSError, http.client.HTTPException) as error:
        what = f"could not download {artifact.coordinate} from {source.repository}"
        if is_certificate_failure(error):
            raise ArtifactDownloadFailed(untrusted_advice(what)) from error
        raise ArtifactDownloadFailed(
            f"{what} ({error}). Check the network, or point GRAPHMEM_MAVEN_REPOSITORY at a "
            "reachable mirror."
        ) from error


def _maven_cache() -> Path:
    return Path(os.environ.get("M2_REPO") or Path.home() / ".m2" / "repository")


def _remove_abandoned(home: Path) -> None:
    """Staging folders a killed assembly left (an hour old: a younger one may be running)."""
    now = time.time()
    for staging in home.parent.glob(f"{home.name}.partial*"):
        with contextlib.suppress(OSError):
            if now - staging.stat().st_mtime > ABANDONED_AFTER:
                shutil.rmtree(staging, ignore_errors=True)


class _Progress:
    """Megabytes downloaded, said at every tenth of the whole (the jars come eight at a time)."""

    def __init__(self, lock: LockFile, say: Callable[[str], None]) -> None:
        self._lock, self._say = threading.Lock(), say
        self._total, self._done, self._said = lock.total_size, 0, 0
        self._version = lock.neo4j_version

    def add(self, size: int) -> None:
        with self._lock:
            self._done += size
            tenth = self._done * 10 // max(self._total, 1)
            if tenth <= self._said:
                return
            self._said = tenth
            line = f"downloading Neo4j {self._version}: {self._done / 1e6:.0f} of "
            self._say(line + f"{self._total / 1e6:.0f} MB")


def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system: copy instead
        shutil.copy2(source, target)
