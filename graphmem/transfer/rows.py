"""The rows of the statements export and import run, each read through its TypedDict
(``shaped``; graphmem/store/rows.py says how)."""

from __future__ import annotations

from typing import TypeAlias, TypedDict

PropertyPair: TypeAlias = list[object]
"""One property as the export statements give it: [name, value], or a temporal value as
[name, Cypher's text (a list of texts for a list), Cypher type] (a Cypher list: a name, then a
value of any property type)."""

Link: TypeAlias = list[str | list[PropertyPair]]
"""One outgoing relationship of a node: [the other end's ref, type, its property pairs]."""


class ExportedEventRow(TypedDict):
    """transfer/list_tenant_events: one event node (its properties as pairs)."""

    ref: str  # the element id: meaningful only inside the file
    labels: list[str]
    properties: list[PropertyPair]


class ExportedNodeRow(ExportedEventRow):
    """transfer/list_tenant_nodes, list_project_nodes: one node and its outgoing relationships
    inside the tenant."""

    relationships: list[Link]


class TransferHeadRow(TypedDict):
    """transfer/get_transfer_head: the tenant's history head (all null before its first write)."""

    revision: int | None
    hash: str | None
    key_id: str | None


class FoundRow(TypedDict):
    """transfer/find_any_tenant_node: whether the tenant holds any node."""

    found: bool


class CreatedRow(TypedDict):
    """transfer/create_imported_nodes, create_imported_relationships: how many were created."""

    created: int
