"""The TypedDicts search and retrieval read rows through (``shaped``) name exactly the columns
their statement returns, and the keys of the maps those columns hold: ``shaped`` declares, it
does not check, so this test does."""

from __future__ import annotations

import pytest

from graphmem.retrieval.rows import (
    EmbeddedRow,
    ItemRow,
    ItemsToEmbedRow,
    MemorySearchFields,
    MemoryToEmbed,
    TurnText,
    UnembeddedTurnRow,
    UnindexedMemoryRow,
)
from graphmem.search.rows import (
    FullTextHit,
    FullTextRow,
    HitFact,
    HitMemory,
    IndexedNearestRow,
    MemoryHitRow,
    MemoryIdRow,
    NearestRow,
    NeighbourRow,
    SubjectGroupRow,
    SubjectSource,
)
from tests.row_shapes import column_test, map_test, opening_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "search/search_memories_fulltext": FullTextRow,
    "search/search_turns_fulltext": FullTextRow,
    "search/search_memories_vector": IndexedNearestRow,
    "search/search_turns_vector": IndexedNearestRow,
    "search/scan_memories_vector": NearestRow,
    "search/scan_turns_vector": NearestRow,
    "search/expand_memory_graph": NeighbourRow,
    "search/expand_turn_graph": NeighbourRow,
    "search/get_memory_hits": MemoryHitRow,
    "search/find_subject_memories": SubjectGroupRow,
    "search/find_subject_turns": SubjectGroupRow,
    "memories/list_memories": MemoryIdRow,
    "retrieval/count_items_to_embed": ItemsToEmbedRow,
    "retrieval/list_memories_to_embed": ItemRow,
    "retrieval/list_turns_to_embed": ItemRow,
    "retrieval/read_turn_vector_texts": TurnText,
    "retrieval/set_memory_embeddings": EmbeddedRow,
    "retrieval/set_turn_vectors": EmbeddedRow,
    "retrieval/list_unindexed_memories": UnindexedMemoryRow,
    "retrieval/list_unembedded_turns": UnembeddedTurnRow,
}

# A column that holds a map (or a list of maps): the TypedDict of its keys.
MAPS: dict[tuple[str, str], type] = {
    ("search/search_memories_fulltext", "hits"): FullTextHit,
    ("search/search_turns_fulltext", "hits"): FullTextHit,
    ("search/get_memory_hits", "memory"): HitMemory,
    ("search/get_memory_hits", "fact"): HitFact,
    ("retrieval/list_memories_to_embed", "item"): MemoryToEmbed,
    ("retrieval/list_turns_to_embed", "item"): TurnText,
    ("retrieval/list_unindexed_memories", "memory"): MemorySearchFields,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)


test_a_map_shape_names_the_keys_its_column_holds = map_test(MAPS)

# A map built inside a subquery (the statement, its opening, which occurrence): the subject
# rows' found (0) and others (1).
OPENINGS: dict[tuple[str, str, int], type] = {
    (name, "collect({", occurrence): SubjectSource
    for name in ("search/find_subject_memories", "search/find_subject_turns")
    for occurrence in (0, 1)
}


test_a_map_shape_names_the_keys_of_the_map_returned = opening_test(OPENINGS)
