"""Assemble a Neo4j installation (a ``lib/`` folder of jars) from the lock file.

Each pinned jar comes from the cache's store of verified jars (``<cache>/jars/<sha256>.jar``),
else from the local Maven cache (``~/.m2/repository`` or ``M2_REPO``, copied) or the Maven
repository (``jar_source.py``), and takes its name in the store only once its SHA-256 matches
the lock's; the install (``<cache>/neo4j-<version>-<digest>/lib``) links them, and a
``.complete`` marker makes later starts instant.

Nothing half-done is trusted, and nothing whole is fetched twice: a download is written under
a name of its own and renamed once its digest matches (a jar cut short or of other bytes, a
proxy's page: refused); a start that failed or was killed keeps the jars it verified, so the
next goes on from there. Each process assembles in a staging folder of its own, renamed into
place; one whose process is gone is removed by the next.
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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from graphmem.core.errors import ArtifactDownloadFailed
from graphmem.core.tls import https_context, is_certificate_failure, untrusted_advice
from graphmem.localdb.jar_source import Source
from graphmem.localdb.lockfile import LockedArtifact, LockFile, sha256_of
from graphmem.localdb.processes import pid_alive

DOWNLOAD_WORKERS = 8
ATTEMPTS = 3  # downloads of one jar before the start fails (a flaky link)
ABANDONED_AFTER = 3600.0  # seconds after which a leftover partial file is a killed start's
CACHE_ADVICE = "set GRAPHMEM_CACHE_DIR to a folder this user can write"


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
    source = Source(repository, _context(ca_file))
    staging = home.with_name(f"{home.name}.partial-{os.getpid()}-{secrets.token_hex(4)}")
    store = cache_dir / "jars"
    try:
        _remove_abandoned(home, store)
        (staging / "lib").mkdir(parents=True)
        store.mkdir(exist_ok=True)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ArtifactDownloadFailed(
            f"the cache folder {cache_dir} cannot be written ({reason}): {CACHE_ADVICE}"
        ) from error
    try:
        _fetch_all(lock, source, store, staging / "lib", progress)
        (staging / ".complete").write_text(lock.digest + "\n")
        _put_in_place(staging, home)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    progress(f"Neo4j assembled in {home}")
    return home


def _context(ca_file: Path | None) -> ssl.SSLContext:
    try:
        return https_context(ca_file)
    except (OSError, ValueError) as error:  # missing, unreadable, or no certificate in it
        raise ArtifactDownloadFailed(
            f"GRAPHMEM_CA_FILE ({ca_file}) cannot be read as a PEM file of certificates"
        ) from error


def _put_in_place(staging: Path, home: Path) -> None:
    """``staging`` becomes ``home``; another process that finished first keeps its install,
    and an install left without its marker (an interrupted delete) is replaced."""
    for _ in (1, 2):
        try:
            staging.rename(home)
            return
        except OSError:
            if is_assembled(home):
                return
            shutil.rmtree(home, ignore_errors=True)  # incomplete: never trusted, never running
    raise ArtifactDownloadFailed(f"the Neo4j install in {home} could not be put in place")


def _fetch_all(
    lock: LockFile, source: Source, store: Path, lib: Path, progress: Callable[[str], None]
) -> None:
    progress(
        f"downloading Neo4j {lock.neo4j_version}: {len(lock.artifacts)} jars, "
        f"{lock.total_size / 1e6:.0f} MB from {source.shown}"
    )
    downloaded = _Progress(lock, progress)

    def fetch(artifact: LockedArtifact) -> None:
        _link(_verified(artifact, source, store), lib / artifact.file_name)
        downloaded.add(artifact.size)

    largest_first = sorted(lock.artifacts, key=lambda artifact: -artifact.size)  # no long tail
    with ThreadPoolExecutor(max_workers=DOWNLOAD_WORKERS) as pool:
        futures = [pool.submit(fetch, artifact) for artifact in largest_first]
        try:
            for future in as_completed(futures):
                future.result()
        except BaseException:
            for future in futures:  # the start fails now: what has not begun never does
                future.cancel()
            raise


def _verified(artifact: LockedArtifact, source: Source, store: Path) -> Path:
    """The store's copy of ``artifact``: there already, or obtained and checked now."""
    kept = store / f"{artifact.sha256}.jar"
    if kept.is_file() and sha256_of(kept) == artifact.sha256:
        return kept
    local = _maven_cache() / artifact.group.replace(".", "/") / artifact.artifact
    local = local / artifact.version / artifact.file_name
    if local.is_file() and _obtained(kept, lambda part: shutil.copyfile(local, part), artifact):
        return kept
    for attempt in range(1, ATTEMPTS + 1):
        if _obtained(kept, lambda part: _download(source, artifact, part), artifact):
            return kept
        if attempt == ATTEMPTS:
            raise ArtifactDownloadFailed(
                f"{artifact.file_name} from {source.shown} does not match its pinned SHA-256 "
                "(a proxy that answers with a page instead of the jar does this); nothing was "
                "kept: run the command again, or point GRAPHMEM_MAVEN_REPOSITORY at a mirror"
            )
    raise AssertionError("unreachable")


def _obtained(kept: Path, write: Callable[[Path], object], artifact: LockedArtifact) -> bool:
    """``write`` a candidate under a name of its own; True once it took ``kept``'s name (its
    digest matched), False when it did not (removed)."""
    part = kept.with_name(f"{kept.name}.{secrets.token_hex(4)}.part")
    try:
        write(part)
        if sha256_of(part) != artifact.sha256:
            return False
        os.replace(part, kept)
        return True
    finally:
        part.unlink(missing_ok=True)


def _download(source: Source, artifact: LockedArtifact, target: Path) -> None:
    """One download of ``artifact`` into ``target``, again up to ATTEMPTS times when the
    network fails mid-way."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            with target.open("wb") as out:
                source.get(artifact, out)
            return
        except (OSError, http.client.HTTPException) as error:
            what = f"could not download {artifact.coordinate} from {source.shown}"
            if is_certificate_failure(error):
                raise ArtifactDownloadFailed(untrusted_advice(what)) from error
            if attempt == ATTEMPTS or str(error).startswith("HTTP 4"):
                raise ArtifactDownloadFailed(
                    f"{what} ({error}). Check the network, or point GRAPHMEM_MAVEN_REPOSITORY "
                    "at a reachable mirror."
                ) from error


def _maven_cache() -> Path:
    return Path(os.environ.get("M2_REPO") or Path.home() / ".m2" / "repository")


def _remove_abandoned(home: Path, store: Path) -> None:
    """What killed starts left: staging folders whose process is gone, partial downloads an
    hour old (a younger one may be another start's)."""
    for staging in home.parent.glob(f"{home.name}.partial*"):
        pid = staging.name.split("-")[-2] if staging.name.count("-") >= 2 else ""
        if not (pid.isdigit() and pid_alive(int(pid))):
            shutil.rmtree(staging, ignore_errors=True)
    now = time.time()
    for part in store.glob("*.part"):
        with contextlib.suppress(OSError):
            if now - part.stat().st_mtime > ABANDONED_AFTER:
                part.unlink()


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
