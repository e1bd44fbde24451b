"""Assemble a Neo4j installation (a ``lib/`` folder of jars) from the lock file with jgo.

jgo downloads each pinned jar into the local Maven cache (``~/.m2/repository`` or ``M2_REPO``,
shared with Maven); every jar is checked against its SHA-256 before it is linked into
``<cache>/neo4j-<version>-<digest>/lib``. A ``.complete`` marker makes later starts instant.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from graphmem.core.errors import ArtifactDownloadFailed
from graphmem.core.tls import is_certificate_failure, trust_system_store, untrusted_advice
from graphmem.localdb.lockfile import LockedArtifact, LockFile, sha256_of

DOWNLOAD_WORKERS = 8


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
    trust_system_store(ca_file)
    from jgo.maven import MavenContext  # heavy import, only on the first start

    context = MavenContext(remote_repos={"graphmem": repository}, timeout=60)
    staging = home.with_name(home.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "lib").mkdir(parents=True)
    progress(
        f"downloading Neo4j {lock.neo4j_version}: {len(lock.artifacts)} jars, "
        f"{lock.total_size / 1e6:.0f} MB from {repository}"
    )

    def fetch(artifact: LockedArtifact) -> None:
        source = _download(context, artifact, repository)
        _link(source, staging / "lib" / artifact.file_name)

    with ThreadPoolExecutor(max_workers=DOWNLOAD_WORKERS) as pool:
        list(pool.map(fetch, lock.artifacts))
    (staging / ".complete").write_text(lock.digest + "\n")
    shutil.rmtree(home, ignore_errors=True)
    staging.rename(home)
    progress(f"Neo4j assembled in {home}")
    return home


def _download(context: object, artifact: LockedArtifact, repository: str) -> Path:
    project = context.project(artifact.group, artifact.artifact)  # pyright: ignore[reportAttributeAccessIssue]  # jgo's context is untyped
    jar = project.at_version(artifact.version).artifact(artifact.classifier, artifact.packaging)
    try:
        path = Path(jar.resolve())
    except Exception as error:  # jgo raises plain RuntimeError / urllib errors
        if is_certificate_failure(error):
            raise ArtifactDownloadFailed(
                untrusted_advice(f"could not download {artifact.coordinate} from {repository}")
            ) from error
        raise ArtifactDownloadFailed(
            f"could not download {artifact.coordinate} from {repository} ({error}). "
            "Check the network, or point GRAPHMEM_MAVEN_REPOSITORY at a reachable mirror."
        ) from error
    if sha256_of(path) != artifact.sha256:
        path.unlink(missing_ok=True)  # a corrupt cache entry must not survive
        raise ArtifactDownloadFailed(
            f"{artifact.file_name} from {repository} does not match its pinned SHA-256; "
            "the corrupt copy was removed, run the command again."
        )
    return path


def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system: copy instead
        shutil.copy2(source, target)
