"""Vectors know their model: the database records it, a server with another one is refused,
every vector is stamped and stored as float32, and the backfill embeds what lacks a vector."""

from __future__ import annotations

import asyncio
import struct
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from typing import Any

import neo4j
import pytest

from graphmem.app import serve
from graphmem.archive.models import ArchiveTurnsRequest
from graphmem.archive.service import archive_turns
from graphmem.core.errors import VectorSpaceMismatch
from graphmem.core.settings import Settings
from graphmem.embeddings.minilm import MiniLM
from graphmem.erasure.models import EraseRequest
from graphmem.erasure.service import erase
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.retrieval import backfill
from graphmem.retrieval.backfill import backfill_tenant, items_to_embed
from graphmem.retrieval.indexing import indexer_of
from graphmem.retrieval.vector_space import check_vector_space
from graphmem.search.channels.names import ChannelName
from graphmem.search.models import SearchRequest
from graphmem.search.service import search
from graphmem.store import Store
from graphmem.toolkit.retrieval import Retrieval
from graphmem.toolkit.startup import DatabaseNotStarted, StoreGate
from tests.neo4j_endpoint import Endpoint


class OtherWeights:
    """The same network under another model id, as a fine-tuned copy would be: its vectors
    must not mix with the original's."""

    def __init__(self, model: MiniLM) -> None:
        self._model = model
        self.name = model.name
        self.dimensions = model.dimensions
        self.model_id = model.model_id + "-tuned"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._model.embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self._model.embed_queries(texts)


@pytest.fixture
async def recorded_space(store: Store, raw_driver: neo4j.AsyncDriver) -> AsyncIterator[None]:
    """The database's record, emptied for the test and put back after it."""
    before = await store.vector_space()
    await raw_driver.execute_query("MATCH (s:VectorSpace) DELETE s")
    yield
    await raw_driver.execute_query("MATCH (s:VectorSpace) DELETE s")
    if before is not None:
        await store.record_vector_space(before["model"], before["dimensions"])


@pytest.mark.usefixtures("recorded_space")
async def test_the_first_model_is_recorded_and_another_refused(
    store: Store, minilm: MiniLM
) -> None:
    await check_vector_space(store, minilm)
    assert await store.vector_space() == {"model": minilm.model_id, "dimensions": 384}
    await check_vector_space(store, minilm)  # the same model starts
    with pytest.raises(VectorSpaceMismatch) as refused:
        await check_vector_space(store, OtherWeights(minilm))
    message = refused.value.message
    assert "\n" not in message and "graphmem embeddings backfill" in message
    assert minilm.model_id in message and f"{minilm.model_id}-tuned" in message
    reason = DatabaseNotStarted(refused.value).reason  # what a client is told instead
    assert reason == "its vectors were made by another embedding model than the server's"


def test_the_model_id_names_the_weights(minilm: MiniLM) -> None:
    name, digest = minilm.model_id.split("@sha256:")
    assert name == "all-MiniLM-L6-v2" and len(digest) == 16


async def _node(raw_driver: neo4j.AsyncDriver, label: str, tenant: str) -> dict[str, Any]:
    records, _, _ = await raw_driver.execute_query(
        "MATCH (n {tenant: $tenant}) WHERE $label IN labels(n) "
        "RETURN n.embedding_model AS model, n.embedding AS embedding",
        tenant=tenant,
        label=label,
    )
    [record] = records
    return dict(record)


def _is_float32(vector: list[float]) -> bool:
    return all(struct.unpack("f", struct.pack("f", x))[0] == x for x in vector)


async def _write_one_of_each(store: Store, tenant: str, embedder: MiniLM | None) -> str:
    db = store.of(tenant)
    saved = await save_memory(
        db,
        SaveMemoryRequest(project="p", type="note", title="Lighthouse", content="the lamp turns"),
        Retrieval(embedder),
    )
    turn = {"role": "user", "content": "we painted the lighthouse red", "ts": "2024-05-01T10:00Z"}
    request = ArchiveTurnsRequest.model_validate(
        {"project": "p", "session_ref": "s", "host": "h", "source_root": "r", "turns": [turn]}
    )
    await archive_turns(db, request, Retrieval(embedder))
    await indexer_of(store).flush()
    return saved.memory.id


async def test_vectors_are_stamped_and_stored_as_float32(
    store: Store, tenant: str, minilm: MiniLM, raw_driver: neo4j.AsyncDriver
) -> None:
    await _write_one_of_each(store, tenant, minilm)
    for label in ("Memory", "Turn"):
        node = await _node(raw_driver, label, tenant)
        assert node["model"] == minilm.model_id
        assert len(node["embedding"]) == 384 and _is_float32(node["embedding"])
    assert await items_to_embed(store, tenant, minilm) == {"memories": 0, "turns": 0}


async def test_backfill_embeds_what_was_written_without_a_model(
    store: Store, tenant: str, minilm: MiniLM, raw_driver: neo4j.AsyncDriver
) -> None:
    memory_id = await _write_one_of_each(store, tenant, None)
    assert (await _node(raw_driver, "Memory", tenant))["embedding"] is None
    assert await items_to_embed(store, tenant, minilm) == {"memories": 1, "turns": 1}
    vector_only = SearchRequest(
        query="a lamp that turns", channels=[ChannelName.VECTOR], raw_fallback=False
    )
    assert (await search(store.of(tenant), vector_only, Retrieval(minilm))).results == []

    advanced: list[int] = []
    done = await backfill_tenant(store, tenant, minilm, advanced.append)

    assert done == {"memories": 1, "turns": 1} and sum(advanced) == 2
    assert await items_to_embed(store, tenant, minilm) == {"memories": 0, "turns": 0}
    for label in ("Memory", "Turn"):
        node = await _node(raw_driver, label, tenant)
        assert node["model"] == minilm.model_id and _is_float32(node["embedding"])
    found = await search(store.of(tenant), vector_only, Retrieval(minilm))
    assert [hit.id for hit in found.results] == [memory_id]


async def test_backfill_replaces_another_models_vectors(
    store: Store, tenant: str, minilm: MiniLM
) -> None:
    await _write_one_of_each(store, tenant, minilm)
    other = OtherWeights(minilm)
    assert await items_to_embed(store, tenant, other) == {"memories": 1, "turns": 1}
    await backfill_tenant(store, tenant, other, lambda _: None)
    assert await items_to_embed(store, tenant, other) == {"memories": 0, "turns": 0}
    assert await items_to_embed(store, tenant, minilm) == {"memories": 1, "turns": 1}


def _backfill_command(neo4j_endpoint: Endpoint, tenant: str, embeddings: str) -> Any:
    env = {**neo4j_endpoint.env(), "GRAPHMEM_EMBEDDINGS": embeddings, "PATH": "/usr/bin"}
    env["GRAPHMEM_EMBEDDING_RUNTIME"] = "numpy"  # the fixture's model id
    command = [sys.executable, "-m", "graphmem", "embeddings", "backfill", "--tenant", tenant]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


async def test_the_backfill_command_embeds_a_tenant(
    store: Store, tenant: str, minilm: MiniLM, neo4j_endpoint: Endpoint
) -> None:
    await _write_one_of_each(store, tenant, None)
    refused = await asyncio.to_thread(_backfill_command, neo4j_endpoint, tenant, "none")
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        "graphmem: embeddings are off: set GRAPHMEM_EMBEDDINGS (e5-small or minilm) to backfill "
        "with that model"
    ]
    ran = await asyncio.to_thread(_backfill_command, neo4j_endpoint, tenant, "minilm")
    assert ran.returncode == 0, ran.stderr
    assert f"{minilm.model_id}: 2 items of 1 tenants to embed" in ran.stderr
    assert await items_to_embed(store, tenant, minilm) == {"memories": 0, "turns": 0}


@pytest.mark.usefixtures("recorded_space")
async def test_serve_refuses_a_database_of_another_model(
    store: Store,
    minilm: MiniLM,
    neo4j_endpoint: Endpoint,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await store.record_vector_space(OtherWeights(minilm).model_id, 384)
    for name, value in {**neo4j_endpoint.env(), "GRAPHMEM_EMBEDDINGS": "minilm"}.items():
        monkeypatch.setenv(name, value)
    assert store.chain_key is not None
    with pytest.raises(VectorSpaceMismatch):
        await serve.open_store(Settings(), StoreGate(), store.chain_key)
    [refusal] = [line for line in capsys.readouterr().err.splitlines() if "refusing" in line]
    assert refusal.startswith("graphmem: refusing to serve: the database's vectors are ")


@pytest.mark.usefixtures("recorded_space")
async def test_serve_starts_the_catch_up_of_what_was_written_without_the_model(
    store: Store, minilm: MiniLM, neo4j_endpoint: Endpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[str] = []  # the catch-up itself: tests/search/test_catch_up.py
    monkeypatch.setattr(serve, "start_catch_up", lambda _, model: started.append(model.model_id))
    for name, value in {**neo4j_endpoint.env(), "GRAPHMEM_EMBEDDINGS": "minilm"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("GRAPHMEM_EMBEDDING_RUNTIME", "numpy")  # the fixture's model id
    assert store.chain_key is not None
    opened = await serve.open_store(Settings(), StoreGate(), store.chain_key)
    await opened.close()
    assert started == [minilm.model_id]


async def test_backfill_counts_what_it_wrote_not_what_an_erasure_took_meanwhile(
    store: Store, tenant: str, minilm: MiniLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_id = await _write_one_of_each(store, tenant, None)
    real = backfill.embed_texts

    async def erased_meanwhile(embedder: Any, texts: Sequence[str]) -> Any:
        vectors = await real(embedder, texts)
        if any("lamp" in text for text in texts):  # the memory's batch: erased before its write
            listed = await erase(store.of(tenant), EraseRequest(ids=[memory_id], reason="asked"))
            confirmed = EraseRequest(
                ids=[memory_id],
                reason="asked",
                dry_run=False,
                confirm_destructive=True,
                expected_fingerprint=listed.fingerprint,
            )
            await erase(store.of(tenant), confirmed)
        return vectors

    monkeypatch.setattr(backfill, "embed_texts", erased_meanwhile)
    advanced: list[int] = []
    done = await backfill_tenant(store, tenant, minilm, advanced.append)
    assert done == {"memories": 0, "turns": 1} and sum(advanced) == 2
