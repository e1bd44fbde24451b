"""Class-data sharing for the managed Neo4j's JVM (pure: a runtime's layout in a folder)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from graphmem.localdb.jvm import archive_path, class_path, class_sharing, keep_archive

pytestmark = pytest.mark.pure


def runtime(folder: Path, base_archive: bool = True) -> Path:
    (folder / "bin").mkdir(parents=True)
    (folder / "lib" / "server").mkdir(parents=True)
    (folder / "lib" / "server" / "libjvm.so").write_bytes(b"jvm")
    if base_archive:
        (folder / "lib" / "server" / "classes.jsa").write_bytes(b"base")
    java = folder / "bin" / "java"
    java.write_bytes(b"java")
    return java


def test_the_first_start_dumps_and_a_clean_stop_keeps_it(tmp_path: Path) -> None:
    java, cache = runtime(tmp_path / "jdk"), tmp_path / "cache"
    first = class_sharing(java, "5.26.30", cache, tmp_path / "neo4j")
    assert first.dumping is not None
    assert first.flags == (f"-XX:ArchiveClassesAtExit={first.dumping}",)
    first.dumping.write_bytes(b"classes")  # what the JVM writes at its clean exit
    keep_archive(first.dumping)
    archive = archive_path(java, "5.26.30", cache, [])
    assert archive.read_bytes() == b"classes" and not first.dumping.exists()
    again = class_sharing(java, "5.26.30", cache, tmp_path / "neo4j")  # no jars: the key's []
    assert again.flags == (f"-XX:SharedArchiveFile={archive}",)


def test_another_runtime_or_version_gets_an_archive_of_its_own(tmp_path: Path) -> None:
    java = runtime(tmp_path / "jdk")
    cache = tmp_path / "cache"
    named = archive_path(java, "5.26.30", cache, [])
    assert archive_path(java, "5.26.31", cache, []) != named
    assert archive_path(java, "5.26.30", cache, [Path("another.jar")]) != named
    (tmp_path / "jdk" / "lib" / "server" / "libjvm.so").write_bytes(b"an upgraded jvm")
    assert archive_path(java, "5.26.30", cache, []) != named


def test_a_runtime_without_a_base_archive_starts_without(tmp_path: Path) -> None:
    java = runtime(tmp_path / "jdk", base_archive=False)
    assert class_sharing(java, "5.26.30", tmp_path / "cache", tmp_path / "neo4j").flags == ()


def test_an_empty_or_stale_partial_is_dropped(tmp_path: Path) -> None:
    java, cache = runtime(tmp_path / "jdk"), tmp_path / "cache"
    first = class_sharing(java, "5.26.30", cache, tmp_path / "neo4j")
    assert first.dumping is not None
    first.dumping.write_bytes(b"")  # a JVM that wrote nothing
    keep_archive(first.dumping)
    assert not first.dumping.exists() and not archive_path(java, "5.26.30", cache, []).exists()
    stale = archive_path(java, "5.26.30", cache, []).with_suffix(".jsa.dead.partial")
    stale.write_bytes(b"half")
    old = time.time() - 7200
    os.utime(stale, (old, old))
    class_sharing(java, "5.26.30", cache, tmp_path / "neo4j")
    assert not stale.exists()


def test_the_browser_jar_is_the_copy_with_graphmems_files_and_comes_last(tmp_path: Path) -> None:
    lib, conf = tmp_path / "neo4j" / "lib", tmp_path / "conf"
    lib.mkdir(parents=True)
    conf.mkdir()
    for name in ("neo4j-kernel-5.jar", "neo4j-browser-5.jar", "a-first.jar"):
        (lib / name).write_bytes(b"")
    (conf / "graphmem-browser.jar").write_bytes(b"")
    assert [jar.name for jar in class_path(tmp_path / "neo4j", conf)] == [
        "a-first.jar",
        "neo4j-kernel-5.jar",
        "graphmem-browser.jar",
    ]
