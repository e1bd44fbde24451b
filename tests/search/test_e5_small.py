"""e5-small-v2 (int8, from Maven Central via `graphmem embeddings fetch`): its properties.

There is no torch here to compute reference vectors with; what is checked is what search
relies on: unit vectors of the declared width, the same text giving the same vector alone
and in a batch, queries and passages embedded apart (e5's prefixes), and questions nearest
the passages that answer them.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import Embedder, EmbeddingsUnavailable, load_embedder
from tests.support import cosine


def test_the_model_id_names_the_model_its_weights_and_int8(e5_small: Embedder) -> None:
    assert (e5_small.name, e5_small.dimensions) == ("e5-small-v2", 384)
    assert re.fullmatch(r"e5-small-v2@sha256:[0-9a-f]{16}\+int8", e5_small.model_id)


def test_vectors_are_unit_length_and_deterministic(e5_small: Embedder) -> None:
    texts = ["", "a", "Caroline went to a support group yesterday.", "word " * 600]
    vectors = e5_small.embed(texts)
    assert [len(v) for v in vectors] == [384] * 4
    assert all(math.isclose(math.sqrt(cosine(v, v)), 1.0, abs_tol=1e-5) for v in vectors)
    assert e5_small.embed(texts) == vectors
    assert e5_small.embed([]) == []


def test_a_text_embeds_nearly_the_same_alone_and_in_a_batch(e5_small: Embedder) -> None:
    # int8 with dynamic quantisation: activations are scaled per batch, so a text's vector
    # moves a little with its batch-mates (measured: cosine >= 0.995), never its neighbours.
    batch = ["short", "a somewhat longer sentence about painting", "x " * 40] * 7
    (alone,) = e5_small.embed([batch[1]])
    together = e5_small.embed(batch)
    assert cosine(together[19], alone) >= 0.99
    assert together[1] == together[19]  # the same text in one batch: the same vector


def test_queries_and_passages_are_embedded_apart(e5_small: Embedder) -> None:
    (as_query,) = e5_small.embed_queries(["what did Melanie paint"])
    (as_passage,) = e5_small.embed(["what did Melanie paint"])
    assert as_query != as_passage
    assert cosine(as_query, as_passage) > 0.8


def test_a_question_is_nearest_the_passage_that_answers_it(e5_small: Embedder) -> None:
    passages = e5_small.embed(
        [
            'Melanie said, "I painted a sunrise over the lake last weekend."',
            'Caroline said, "The adoption agency called me back today."',
            'Melanie said, "Work has been so busy this quarter."',
        ]
    )
    questions = e5_small.embed_queries(
        ["What did Melanie paint?", "Which agency did Caroline contact?"]
    )
    for question, answer in zip(questions, (0, 1), strict=True):
        scores = [cosine(question, p) for p in passages]
        assert scores.index(max(scores)) == answer


def test_a_model_folder_without_the_files_says_how_to_fetch_them(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime", reason="the 'embeddings' extra is not installed")
    with pytest.raises(EmbeddingsUnavailable) as raised:
        load_embedder(Settings(embeddings="e5-small", embedding_model_dir=tmp_path))
    message = str(raised.value)
    assert "e5-small-v2-q.onnx" in message and "graphmem embeddings fetch" in message


def test_a_corrupt_model_file_is_a_configuration_error(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime", reason="the 'embeddings' extra is not installed")
    (tmp_path / "e5-small-v2-q.onnx").write_bytes(b"not a model")
    (tmp_path / "e5-small-v2-q-tokenizer.json").write_text("{}")
    with pytest.raises(EmbeddingsUnavailable, match="not the pinned file"):
        load_embedder(Settings(embeddings="e5-small", embedding_model_dir=tmp_path))
