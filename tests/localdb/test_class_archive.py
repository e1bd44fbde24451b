"""The class archive's cache is best effort (jvm.py): a read-only cache folder, a file that is
no archive, an archive the JVM refuses, each costs the speed-up only, never the start."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.localdb import LocalNeo4j
from graphmem.localdb.assemble import install_dir
from graphmem.localdb.java import find_java
from graphmem.localdb.jvm import DYNAMIC_MAGIC, archive_path, neo4j_jars
from graphmem.localdb.lockfile import load_lock
from graphmem.store import ping_sync
from tests.app.helpers import clean_env
from tests.localdb.support import kill_all, linked_cache, neo4j_processes
from tests.neo4j_endpoint import free_port, local_test_settings

pytestmark = pytest.mark.managed

READ_ONLY = """
mount --bind "$CACHE" "$CACHE" && mount -o remount,ro,bind "$CACHE" || exit 9
touch "$CACHE/probe" 2>/dev/null && { echo "the cache is still writable"; exit 9; }
"""


def test_a_read_only_cache_folder_starts_without_an_archive(tmp_path: Path) -> None:
    cache, data = linked_cache(tmp_path / "cache"), tmp_path / "data"
    graphmem = f"{sys.executable} -m graphmem"
    script = f"{graphmem} neo4j start && {graphmem} neo4j status; status=$?; "
    script += f"{graphmem} neo4j stop; exit $status"
    if os.geteuid() == 0:  # root writes through permission bits: a read-only mount instead
        if shutil.which("unshare") is None:
            pytest.skip("a read-only cache for root needs unshare (a private mount namespace)")
        command = ["unshare", "--mount", "sh", "-c", READ_ONLY + script]
    else:
        cache.chmod(0o555)
        command = ["sh", "-c", script]
    env = clean_env(
        CACHE=str(cache),
        GRAPHMEM_DATA_DIR=str(data),
        GRAPHMEM_CACHE_DIR=str(cache),
        GRAPHMEM_LOCAL_BOLT_PORT=str(free_port()),
        GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
        GRAPHMEM_LOCAL_HEAP="512m",
        GRAPHMEM_LOCAL_PAGECACHE="64m",
    )
    try:
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    finally:
        cache.chmod(0o755)
        kill_all(neo4j_processes(data))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "running" in result.stdout
    assert not (cache / "cds").exists()


def _archive(cache: Path) -> Path:
    home = install_dir(cache, load_lock())
    java = find_java(None).executable
    return archive_path(java, load_lock().neo4j_version, cache, neo4j_jars(home))


@pytest.mark.parametrize("case", ["no archive at all", "refused under -Xshare:on"])
def test_a_corrupt_archive_is_dropped_and_the_start_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    cache, data = linked_cache(tmp_path / "cache"), tmp_path / "data"
    archive = _archive(cache)
    archive.parent.mkdir(parents=True)
    if case == "no archive at all":  # JDK 17 would map it silently as nothing, start after start
        archive.write_bytes(secrets.token_bytes(4096))
    else:  # an archive's first bytes, then garbage: a JVM told to share must refuse it
        archive.write_bytes(DYNAMIC_MAGIC.to_bytes(4, sys.byteorder) + secrets.token_bytes(4096))
        monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Xshare:on")
    settings = local_test_settings(data).model_copy(
        update={"cache_dir": cache, "local_heap": "512m", "local_pagecache": "64m"}
    )
    local = LocalNeo4j(settings)
    try:
        status, started = local.start(ready_check=ping_sync)
        assert started and status.running
        assert not archive.exists()
        dump = json.loads((data / "state.json").read_text())["cds_dump"]
        if case == "no archive at all":
            assert dump is not None  # its clean stop writes a real one
        else:
            assert dump is None  # started once more, without the archive's flags
    finally:
        local.stop(timeout=0)  # killed: its dump is of no use
