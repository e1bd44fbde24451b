"""The rows of the statements search runs, each read through its TypedDict (``shaped``): the
channels' hits and the pages' memories (graphmem/store/rows.py says how; the raw turns' rows
are archive's RawTurnRow)."""

from __future__ import annotations

from typing import TypedDict

from graphmem.memories.models.memories import MemoryStatus, MemoryType

# --- the channels ----------------------------------------------------------------------------


class FullTextHit(TypedDict):
    """One hit of a full-text row's list: a memory's type, null for a raw turn."""

    id: str
    type: str | None
    score: float


class FullTextRow(TypedDict):
    """search/search_memories_fulltext, search_turns_fulltext: the one row, the filtered hits
    and how many Lucene gave (``fetched`` = $fetch: it had more)."""

    fetched: int
    hits: list[FullTextHit]


class NearestRow(TypedDict):
    """search/scan_memories_vector, scan_turns_vector: one exact nearest (a memory's type,
    null for a raw turn)."""

    id: str
    type: str | None
    score: float


class IndexedNearestRow(NearestRow):
    """search/search_memories_vector, search_turns_vector: one nearest of the shared index and
    how many the index gave (fewer than $fetch: all it holds)."""

    seen: int


class NeighbourRow(TypedDict):
    """search/expand_memory_graph, expand_turn_graph: a neighbour of a seed, its distance in
    steps (a memory's type, null for a raw turn)."""

    seed: str
    id: str
    type: str | None
    distance: int


class SubjectSource(TypedDict):
    """A source of a subject row's lists: a memory's type (null for a raw turn) and when it was
    last written (a memory's updated_at, a turn's ts; ISO text)."""

    id: str
    type: str | None
    at: str


class SubjectGroupRow(TypedDict):
    """search/find_subject_memories, find_subject_turns: one subject group the query names (its
    root), how many mentions its members have in all, and the sources in scope that mention it:
    among the fusion so far (``found``) and the newest others."""

    root: str
    keys: list[str]  # the query's keys that found it (namesakes: one key, several groups)
    mentions: int
    found: list[SubjectSource]
    others: list[SubjectSource]


# --- the pages -------------------------------------------------------------------------------


class MemoryIdRow(TypedDict):
    """memories/list_memories: one memory of a project's page."""

    id: str


class HitMemory(TypedDict):
    """The memory of search/get_memory_hits: the properties its map projection names (an absent
    property is null)."""

    id: str
    project: str
    type: MemoryType
    title: str
    content: str
    topic_key: str | None
    topic_version: int | None
    branch: str | None
    tags: list[str] | None
    status: MemoryStatus
    version: int
    superseded_by: str | None
    quarantine_reasons: list[str] | None
    updated_at: str  # ISO text (toString); every memory has one


class HitFact(TypedDict):
    """The current fact of the key a memory's topic names (search/get_memory_hits)."""

    id: str
    key: str
    value_json: str
    status: str
    recorded_at: str  # ISO text (toString)


class MemoryHitRow(TypedDict):
    """search/get_memory_hits: one memory of a page and its topic's current fact, if any."""

    memory: HitMemory
    fact: HitFact | None
