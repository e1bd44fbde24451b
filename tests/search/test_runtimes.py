"""The ONNX runtimes of all-MiniLM-L6-v2: the same vectors (fp32) or close ones under a model
id of their own (int8), the graph built once per cache, and a clear refusal without them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import load_embedder
from graphmem.embeddings.minilm import MiniLM
from tests.support import cosine

REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "minilm_reference.json").read_text())

pytest.importorskip("onnxruntime", reason="the 'embeddings' extra is not installed")
from graphmem.embeddings.onnx_minilm import OnnxMiniLM  # noqa: E402


@pytest.fixture(scope="module")
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


def test_onnx_gives_the_numpy_vectors(minilm: MiniLM, model_cache: Path) -> None:
    onnx = OnnxMiniLM(minilm.folder, model_cache, int8=False)
    assert onnx.model_id == minilm.model_id  # interchangeable: one vector space
    vectors = onnx.embed(REFERENCE["texts"])
    for got, want in zip(vectors, REFERENCE["vectors"], strict=True):
        assert cosine(got, want) > 0.99999


def test_int8_is_close_but_its_own_model(minilm: MiniLM, model_cache: Path) -> None:
    int8 = OnnxMiniLM(minilm.folder, model_cache, int8=True)
    assert int8.model_id == f"{minilm.model_id}+int8"
    vectors = int8.embed(REFERENCE["texts"])
    for got, want in zip(vectors, REFERENCE["vectors"], strict=True):
        assert 0.95 < cosine(got, want) < 1.0 + 1e-6
    assert vectors == int8.embed(REFERENCE["texts"])  # deterministic


def test_the_graph_is_built_once_per_cache(minilm: MiniLM, tmp_path: Path) -> None:
    OnnxMiniLM(minilm.folder, tmp_path, int8=True)
    [built] = (tmp_path / "models").iterdir()
    assert built.name.endswith("-int8.onnx")
    stamp = built.stat().st_mtime_ns
    OnnxMiniLM(minilm.folder, tmp_path, int8=True)
    assert [path.stat().st_mtime_ns for path in (tmp_path / "models").iterdir()] == [stamp]


def test_the_setting_picks_the_runtime(minilm: MiniLM, tmp_path: Path) -> None:
    settings = Settings(embeddings="minilm", cache_dir=tmp_path)
    assert settings.embedding_runtime == "onnx-int8"  # the default: the fastest
    loaded = load_embedder(settings)
    assert isinstance(loaded, OnnxMiniLM) and loaded.model_id.endswith("+int8")
    numpy = load_embedder(settings.model_copy(update={"embedding_runtime": "numpy"}))
    assert type(numpy) is MiniLM


def test_a_missing_onnxruntime_names_the_setting_and_the_install() -> None:
    script = (
        "import sys; sys.modules['onnxruntime'] = None\n"
        "from graphmem.core.settings import Settings\n"
        "from graphmem.embeddings.embedder import EmbeddingsUnavailable, load_embedder\n"
        "try:\n"
        "    load_embedder(Settings(embeddings='minilm'))\n"
        "except EmbeddingsUnavailable as e:\n"
        "    print(e.message)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "onnxruntime" in run.stdout and "GRAPHMEM_EMBEDDING_RUNTIME=numpy" in run.stdout
    assert "pip install 'graphmem[embeddings]'" in run.stdout
