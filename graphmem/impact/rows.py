"""The shapes of the rows of the impact area's statements (cypher/impact/)."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from graphmem.impact.models import SourceKind, Via


class EndpointsRow(TypedDict):
    """impact/find_impact_endpoints: whether both ends of a new link exist."""

    source_found: bool
    target_found: bool


class LinkedRow(TypedDict):
    """impact/link_impact: the IMPACTS link as it is now."""

    edge_id: str
    created: bool
    score: float
    rationale: str | None
    created_at: datetime
    updated_at: datetime


class EdgeItem(TypedDict):
    """One outgoing edge of impact/list_impact_edges; fields another kind of edge lacks are
    None."""

    via: Via
    # A recorded link's type and score as stored; an IMPACTS link not written by link_impact
    # may hold anything, so the walk checks them (_is_impact_type, _is_score). EVIDENCED_BY:
    # the claim's confidence.
    impact_type: object
    score: object
    rationale: str | None
    key: str | None  # DEPENDS_ON_KEY, WATCHES_KEY
    rule_id: str | None  # WATCHES_KEY
    operator: str | None
    alternative: str | None  # the alternative's title
    kind: str | None  # the target's kind; None for an external target without one
    ref: str | None  # its id, or an external target's ref
    label: str | None
    valid: bool | None  # None when the target lacks the property its validity reads


class EdgesRow(TypedDict):
    """impact/list_impact_edges: one frontier node found, with its outgoing edges."""

    from_kind: SourceKind
    from_id: str
    edges: list[EdgeItem]
