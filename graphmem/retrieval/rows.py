"""The rows of the statements retrieval runs, each read through its TypedDict (``shaped``), and
the memory fields its search texts are made of (graphmem/store/rows.py says how)."""

from __future__ import annotations

from datetime import datetime
from typing import Generic, TypedDict, TypeVar


class MemoryEmbeddingText(TypedDict):
    """What a memory's vector encodes (``memory_embedding_text``)."""

    type: str
    title: str
    content: str


class MemoryToEmbed(MemoryEmbeddingText):
    """The item of retrieval/list_memories_to_embed: a memory to give a vector."""

    id: str


class MemorySearchFields(MemoryToEmbed):
    """What a memory's search fields are made of (``Pending.of``): a saved memory's fields, or
    the memory of retrieval/list_unindexed_memories (an absent property is null)."""

    topic_key: str | None
    tags: list[str] | None


class TurnText(TypedDict):
    """What a turn's vector encodes, with the turn said just before it in its session (unless
    quarantined): retrieval/read_turn_vector_texts, and the item of list_turns_to_embed."""

    id: str
    ts: datetime
    content: str
    previous: str | None
    previous_id: str | None


Item = TypeVar("Item", MemoryToEmbed, TurnText)


class ItemRow(TypedDict, Generic[Item]):
    """retrieval/list_memories_to_embed (``MemoryToEmbed``), list_turns_to_embed (``TurnText``):
    one item without a vector of the model."""

    item: Item


class ItemsToEmbedRow(TypedDict):
    """retrieval/count_items_to_embed: how many memories and turns lack a vector."""

    memories: int
    turns: int


class EmbeddedRow(TypedDict):
    """retrieval/set_memory_embeddings, set_turn_vectors: how many got their vector."""

    embedded: int


class UnindexedMemoryRow(TypedDict):
    """retrieval/list_unindexed_memories: a memory whose search fields were never set."""

    memory: MemorySearchFields


class UnembeddedTurnRow(TypedDict):
    """retrieval/list_unembedded_turns: a turn still waiting for its vector."""

    id: str
