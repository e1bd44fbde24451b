"""The embedding model at a server's start: its fetch waits for the managed Neo4j's jars (it
must not slow a newcomer's first call), nothing waits for it before the handshake, and the
store's opening decides what the process serves with."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from graphmem.app import model_start
from graphmem.app.model_start import retrieval_at_open
from graphmem.core.settings import Settings

pytestmark = pytest.mark.pure


async def test_a_fetch_still_running_at_the_opening_serves_without_vectors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(model_start, "MODEL_WAIT", 0.05)
    done = threading.Event()
    fetching = threading.Thread(target=done.wait, daemon=True)
    fetching.start()
    try:
        parts = await retrieval_at_open(Settings(embeddings="e5-small"), fetching)
    finally:
        done.set()
    assert parts.embedder is None and parts.vectors_off == model_start.STILL_DOWNLOADING


async def test_without_a_fetch_the_configuration_decides() -> None:
    parts = await retrieval_at_open(Settings(embeddings="none"), None)
    assert parts.embedder is None and parts.vectors_off is None


def test_embeddings_off_fetch_nothing() -> None:
    assert model_start.start_model_fetch(Settings(embeddings="none")) is None


def test_the_fetch_waits_for_the_neo4j_jars(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(model_start, "JARS_WAIT", 0.3)
    settings = Settings(cache_dir=tmp_path)  # no jars assembled there
    began = time.monotonic()
    model_start._wait_for_jars(settings)
    assert time.monotonic() - began >= 0.3
    remote = Settings(neo4j_uri="bolt://127.0.0.1:1", cache_dir=tmp_path)
    began = time.monotonic()
    model_start._wait_for_jars(remote)  # NEO4J_URI: no jars to wait for
    assert time.monotonic() - began < 0.1
