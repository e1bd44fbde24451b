"""One ONNX Runtime session setup for every local model (part of the `embeddings` extra)."""

# The model runtimes (ONNX Runtime, onnx, safetensors, tokenizers, threadpoolctl) ship no or
# partial type information: their members are unknown to a strict check, in this module only.
# pyright: reportMissingTypeStubs=false, reportUnknownMemberType=false
# pyright: reportUnknownVariableType=false, reportUnknownArgumentType=false

from __future__ import annotations

import os
from pathlib import Path

import onnxruntime as ort

THREADS = 2  # intra-op threads; spinning off, so an idle pool leaves the cores to Neo4j


def cpu_session(model: Path) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = min(THREADS, os.cpu_count() or 1)
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
