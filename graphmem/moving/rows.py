"""The rows of the moving area's statements: three read the PEER's database
(cypher/moving/list_peer_*, count_peer_graph), one graphmem's (list_imported_topics).

The peer's values are as it stored them: ``shaped`` declares, it does not check, so the
mapping (graphmem/moving/mapping.py) checks every value's type before it uses it."""

from __future__ import annotations

from typing import TypedDict


class PeerEntityRow(TypedDict):
    """moving/list_peer_entities."""

    id: str
    name: str
    type: object  # the peer writes a string; another writer may have left anything
    observations: object  # a list of strings, as the peer writes them


class PeerRelationRow(TypedDict):
    """moving/list_peer_relations."""

    id: str
    source: str | None  # null: an end without a string name
    type: str
    target: str | None


class PeerCountRow(TypedDict):
    """moving/count_peer_graph."""

    entities: int
    named: int
    relations: int
    graphmem: bool  # the database is graphmem's own (by whatever address): refused


class ImportedTopicRow(TypedDict):
    """moving/list_imported_topics."""

    topic_key: str
