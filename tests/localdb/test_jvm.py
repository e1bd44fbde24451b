"""Class-data sharing for the managed Neo4j's JVM (pure: a runtime's layout in a folder)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from graphmem.localdb.jvm import (
    DYNAMIC_MAGIC,
    archive_path,
    class_path,
    class_sharing,
    keep_archive,
    refused_archive,
)

pytestmark = pytest.mark.pure
CLASSES = DYNAMIC_MAGIC.to_bytes(4, sys.byteorder) + b"classes"  # what a JVM's dump begins with


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
    first.dumping.write_bytes(CLASSES)  # what the JVM writes at its clean exit
    keep_archive(first.dumping)
    archive = archive_path(java, "5.26.30", cache, [])
    assert archive.read_bytes() == CLASSES and not first.dumping.exists()
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


def test_a_file_that_is_no_archive_is_dropped_and_dumped_anew(tmp_path: Path) -> None:
    """JDK 17 maps such a file silently as nothing, its base archive too, start after start."""
    java, cache = runtime(tmp_path / "jdk"), tmp_path / "cache"
    archive = archive_path(java, "5.26.30", cache, [])
    archive.parent.mkdir(parents=True)
    archive.write_bytes(b"torn")
    sharing = class_sharing(java, "5.26.30", cache, tmp_path / "neo4j")
    assert not archive.exists()
    assert sharing.dumping is not None and sharing.mapped is None


def test_a_cache_that_cannot_hold_an_archive_costs_the_speed_up_only(tmp_path: Path) -> None:
    java, cache = runtime(tmp_path / "jdk"), tmp_path / "cache"
    cache.mkdir()
    (cache / "cds").write_text("not a folder")  # what any OSError there stands for
    assert class_sharing(java, "5.26.30", cache, tmp_path / "neo4j").flags == ()
    partial = tmp_path / "out" / "neo4j-5.26.30-abc.jsa.1234.partial"
    partial.parent.mkdir()
    partial.write_bytes(CLASSES)
    (partial.parent / "neo4j-5.26.30-abc.jsa").mkdir()  # the archive's name taken: refused
    (partial.parent / "neo4j-5.26.30-abc.jsa" / "x").write_text("")
    keep_archive(partial)  # no error: the stop goes on, a later start dumps again
    assert not partial.exists()


def test_the_jvms_word_on_a_refused_archive_is_read_from_this_start_on(tmp_path: Path) -> None:
    console = tmp_path / "console.log"
    console.write_text("Unable to use shared archive.\n")  # an earlier start's
    offset = console.stat().st_size
    assert not refused_archive(console, offset)
    with console.open("a") as log:
        log.write("Error occurred during initialization of VM\nUnable to use shared archive.\n")
    assert refused_archive(console, offset)
    assert not refused_archive(tmp_path / "absent.log", 0)
