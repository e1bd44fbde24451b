"""The pinned set of jars that make up the managed Neo4j, and how to regenerate it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:  # jgo is imported by generate_lock only
    from jgo.maven import Artifact

LOCK_PATH = Path(__file__).with_name("neo4j.lock.json")

# What Neo4j's own distribution assembler puts on the classpath, plus the Browser.
NEO4J_VERSION = "5.26.30"
BROWSER_VERSION = "5.24.0"
ROOT_COORDINATES = (
    f"org.neo4j:neo4j:{NEO4J_VERSION}",
    f"org.neo4j.app:neo4j-server:{NEO4J_VERSION}",
    f"org.neo4j.client:neo4j-browser:{BROWSER_VERSION}",
)
ENTRY_CLASS = "org.neo4j.server.CommunityEntryPoint"
ADMIN_CLASS = "org.neo4j.server.startup.Neo4jAdminCommand"


class LockedArtifact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    group: str
    artifact: str
    version: str
    classifier: str = ""
    packaging: str = "jar"
    sha256: str
    size: int

    @property
    def file_name(self) -> str:
        suffix = f"-{self.classifier}" if self.classifier else ""
        return f"{self.artifact}-{self.version}{suffix}.{self.packaging}"

    @property
    def coordinate(self) -> str:
        return f"{self.group}:{self.artifact}:{self.version}"


class LockFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    neo4j_version: str
    browser_version: str
    entry_class: str
    admin_class: str
    roots: list[str]
    artifacts: list[LockedArtifact]

    @property
    def total_size(self) -> int:
        return sum(a.size for a in self.artifacts)

    @property
    def digest(self) -> str:
        """Identifies an assembled installation: it changes whenever the pinned set changes."""
        text = json.dumps([a.model_dump() for a in self.artifacts], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def load_lock(path: Path = LOCK_PATH) -> LockFile:
    return LockFile.model_validate_json(path.read_text())


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def generate_lock(repository: str, progress: Callable[[str], None] = lambda _: None) -> LockFile:
    """Resolve the roots with jgo, download every jar once, and pin each by its SHA-256."""
    import jgo  # imported here: only maintainers regenerate the lock

    joined = "+".join(ROOT_COORDINATES)
    progress(f"resolving {joined}")
    artifacts = jgo.resolve(joined, repositories={"graphmem": repository})

    def pin(artifact: Artifact) -> LockedArtifact:
        path = artifact.resolve()
        return LockedArtifact(
            group=artifact.groupId,
            artifact=artifact.artifactId,
            version=artifact.version,
            classifier=artifact.classifier or "",
            packaging=artifact.packaging or "jar",
            sha256=sha256_of(path),
            size=path.stat().st_size,
        )

    with ThreadPoolExecutor(max_workers=8) as pool:
        pinned = sorted(pool.map(pin, artifacts), key=lambda a: (a.group, a.artifact))
    return LockFile(
        neo4j_version=NEO4J_VERSION,
        browser_version=BROWSER_VERSION,
        entry_class=ENTRY_CLASS,
        admin_class=ADMIN_CLASS,
        roots=list(ROOT_COORDINATES),
        artifacts=pinned,
    )


def write_lock(lock: LockFile, path: Path = LOCK_PATH) -> None:
    path.write_text(lock.model_dump_json(indent=1) + "\n")
