"""The graph model as data: what `graphmem://schema` publishes and the README describes."""

from __future__ import annotations

from pydantic import Field

from graphmem.models.common import OutputModel


class NodeKind(OutputModel):
    label: str
    meaning: str
    properties: list[str]


class EdgeKind(OutputModel):
    type: str
    source: str
    target: str
    meaning: str
    properties: list[str] = Field(default_factory=list)


class GraphModel(OutputModel):
    nodes: list[NodeKind]
    edges: list[EdgeKind]


GRAPH_MODEL = GraphModel(
    nodes=[
        NodeKind(
            label="FactKey",
            meaning="one slot per (tenant, owner, key)",
            properties=["id", "tenant", "owner", "project", "origin_id", "key"],
        ),
        NodeKind(
            label="Fact",
            meaning="an observed value with provenance and validity",
            properties=[
                "id",
                "tenant",
                "owner",
                "project",
                "origin_id",
                "key",
                "value_json",
                "status",
                "source_class",
                "source_raw",
                "confidence",
                "verification_status",
                "verification_json",
                "contradiction_count",
                "observed_at",
                "valid_from",
                "valid_to",
                "expires_at",
                "effective_until",
                "recorded_at",
                "invalidated_at",
                "superseded_at",
                "session_id",
                "actor",
                "client",
            ],
        ),
        NodeKind(
            label="FactState",
            meaning="a fact's lifecycle fields during [tx_from, tx_to)",
            properties=[
                "tenant",
                "fact_id",
                "tx_from",
                "tx_to",
                "status",
                "valid_to",
                "expires_at",
            ],
        ),
        NodeKind(
            label="IdempotencyRecord",
            meaning="what a keyed write produced",
            properties=["tenant", "scope", "key", "fact_id", "revision"],
        ),
        NodeKind(
            label="History",
            meaning="a tenant's chain head, locked by every write",
            properties=["tenant", "revision", "last_hash"],
        ),
        NodeKind(
            label="Event",
            meaning="one committed write, hash-chained",
            properties=[
                "id",
                "tenant",
                "revision",
                "op",
                "at",
                "aggregate_kind",
                "aggregate_id",
                "subject_ids",
                "payload_json",
                "session_id",
                "actor",
                "client",
                "prev_hash",
                "hash",
            ],
        ),
    ],
    edges=[
        EdgeKind(
            type="CURRENT",
            source="FactKey",
            target="Fact",
            meaning="the key's active fact",
            properties=["since"],
        ),
        EdgeKind(
            type="WAS_CURRENT",
            source="FactKey",
            target="Fact",
            meaning="a former stint as the active fact",
            properties=["since", "until"],
        ),
        EdgeKind(type="OF_KEY", source="Fact", target="FactKey", meaning="the fact's slot"),
        EdgeKind(
            type="SUPERSEDES",
            source="Fact",
            target="Fact",
            meaning="newer replaces older",
            properties=["at", "effective_at", "rationale", "cleared_at"],
        ),
        EdgeKind(
            type="CONTRADICTS",
            source="Fact",
            target="Fact",
            meaning="the two facts disagree",
            properties=["at", "effective_at", "rationale"],
        ),
        EdgeKind(
            type="HAS_STATE", source="Fact", target="FactState", meaning="transaction-time states"
        ),
    ],
)
