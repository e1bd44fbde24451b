"""The query catalog and the Neo4j lock file ship inside the wheel and load from it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(out),
            str(PROJECT),
        ],
        check=True,
        timeout=300,
    )
    return next(out.glob("graphmem-*.whl"))


def test_wheel_carries_every_cypher_file_and_the_lock(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in (PROJECT / "cypher").rglob("*.cypher"):
        assert f"graphmem/_cypher/{path.relative_to(PROJECT / 'cypher').as_posix()}" in names
    assert "graphmem/localdb/neo4j.lock.json" in names


def test_installed_wheel_loads_its_own_catalog(wheel: Path, tmp_path: Path) -> None:
    zipfile.ZipFile(wheel).extractall(tmp_path)
    probe = (
        "from graphmem.store.catalog import default_catalog as c; "
        "print(c().root); print(len(c().names()))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    root, count = result.stdout.split()
    assert Path(root) == tmp_path / "graphmem" / "_cypher"
    assert int(count) == len(list((PROJECT / "cypher").rglob("*.cypher")))
