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
                "value_kind",
                "value_canon",
                "value_number",
                "value_base",
                "value_dim",
                "value_instant",
                "value_text",
                "value_items",
                "value_keys",
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
            label="Decision",
            meaning="a choice, the alternatives it rejected and when to reconsider them",
            properties=[
                "id",
                "tenant",
                "project",
                "title",
                "choice",
                "rationale",
                "status",
                "status_reason",
                "review_after",
                "created_at",
                "updated_at",
                "session_id",
                "actor",
                "client",
            ],
        ),
        NodeKind(
            label="Alternative",
            meaning="a rejected option; its REOPEN_WHEN rules watch fact keys",
            properties=["id", "tenant", "decision_id", "title", "why_rejected", "position"],
        ),
        NodeKind(
            label="ReviewSignal",
            meaning="a decision's breach, identified by its sorted breached rule ids",
            properties=[
                "id",
                "tenant",
                "decision_id",
                "coverage",
                "breached_rule_ids",
                "status",
                "opened_at",
                "acknowledged_at",
                "note",
                "cleared_at",
            ],
        ),
        NodeKind(
            label="Attempt",
            meaning="something tried for a decision or workstream",
            properties=[
                "id",
                "tenant",
                "decision_id",
                "workstream_id",
                "title",
                "description",
                "evidence",
                "status",
                "result",
                "created_at",
            ],
        ),
        NodeKind(
            label="Outcome",
            meaning="how an attempt ended",
            properties=["id", "tenant", "attempt_id", "result", "summary", "lesson", "evidence"],
        ),
        NodeKind(
            label="ImpactTarget",
            meaning="an external thing a link_impact points at (session, snapshot, ...)",
            properties=["tenant", "kind", "ref"],
        ),
        NodeKind(
            label="Chunk",
            meaning="raw context for the knowledge pipeline, with its lifecycle state",
            properties=[
                "id",
                "tenant",
                "project",
                "title",
                "body",
                "body_hash",
                "source_hash",
                "origin",
                "session_id",
                "workstream_id",
                "state",
                "quarantined",
                "quarantine_reasons",
                "materiality",
                "uncertainty",
                "signals",
                "awaiting_source_hash",
                "created_at",
                "updated_at",
            ],
        ),
        NodeKind(
            label="Annotation",
            meaning="a marker note recorded when a chunk was assessed",
            properties=["id", "tenant", "chunk_id", "kind", "marker", "source_hash", "at"],
        ),
        NodeKind(
            label="Claim",
            meaning="a candidate subject-predicate-object triple mined from chunks",
            properties=[
                "id",
                "tenant",
                "project",
                "subject",
                "predicate",
                "object",
                "triple_key",
                "scope",
                "confidence",
                "requires_human",
                "status",
                "fact_id",
                "validation_mode",
            ],
        ),
        NodeKind(
            label="Question",
            meaning="a clarification question about a chunk",
            properties=["id", "tenant", "chunk_id", "text", "type", "priority", "status"],
        ),
        NodeKind(
            label="Answer",
            meaning="a human answer appended to a chunk",
            properties=["id", "tenant", "chunk_id", "text", "at"],
        ),
        NodeKind(
            label="Pack",
            meaning="a role-specific context pack under a token budget",
            properties=[
                "id",
                "tenant",
                "pack_type",
                "target_ref",
                "token_budget",
                "token_usage",
                "items_included",
                "body",
                "status",
                "freshness_score",
                "relevance_score",
                "quality_score",
                "contract_version",
                "created_at",
                "retired_at",
            ],
        ),
        NodeKind(
            label="Issue",
            meaning="an audit finding, unique per (type, subject)",
            properties=[
                "id",
                "tenant",
                "issue_type",
                "severity",
                "subject_kind",
                "subject_ref",
                "details_json",
                "status",
                "first_detected_at",
                "last_detected_at",
                "resolved_at",
            ],
        ),
        NodeKind(
            label="AuditState",
            meaning="the audit's scan cursors, hung off the tenant's History head",
            properties=["tenant"],
        ),
        NodeKind(
            label="Run",
            meaning="one pipeline call's run-history entry",
            properties=[
                "id",
                "tenant",
                "tool",
                "subject_kind",
                "subject_id",
                "status",
                "reason",
                "at",
            ],
        ),
        NodeKind(
            label="IdempotencyRecord",
            meaning="what a keyed write produced",
            properties=["tenant", "scope", "key", "fact_id", "decision_id", "revision"],
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
        EdgeKind(
            type="HAS_ALTERNATIVE",
            source="Decision",
            target="Alternative",
            meaning="an option the decision rejected",
        ),
        EdgeKind(
            type="REOPEN_WHEN",
            source="Alternative",
            target="FactKey",
            meaning="a reopen rule on the key's current fact",
            properties=["rule_id", "key", "operator", "operand_json", "unit", "position"],
        ),
        EdgeKind(
            type="DEPENDS_ON",
            source="Decision",
            target="Fact|FactKey",
            meaning="what the decision rests on",
            properties=["at"],
        ),
        EdgeKind(
            type="SUPERSEDES",
            source="Decision",
            target="Decision",
            meaning="newer decision replaces older",
            properties=["at", "reason"],
        ),
        EdgeKind(
            type="HAS_ATTEMPT",
            source="Decision|Workstream",
            target="Attempt",
            meaning="something tried for it",
        ),
        EdgeKind(type="HAS_OUTCOME", source="Attempt", target="Outcome", meaning="how it ended"),
        EdgeKind(
            type="IMPACTS",
            source="Fact|Claim|Chunk",
            target="Fact|Decision|ImpactTarget",
            meaning="a recorded impact link (link_impact)",
            properties=["id", "type", "score", "rationale", "created_at", "updated_at"],
        ),
        EdgeKind(
            type="HAS_ANNOTATION", source="Chunk", target="Annotation", meaning="marker notes"
        ),
        EdgeKind(
            type="EVIDENCED_BY",
            source="Claim",
            target="Chunk",
            meaning="a chunk the claim was extracted from",
            properties=["type", "weight", "excerpt", "start", "end", "at"],
        ),
        EdgeKind(
            type="PROMOTED_TO",
            source="Claim",
            target="Fact",
            meaning="the canonical fact the claim became (or reinforced)",
            properties=["at", "mode", "reused"],
        ),
        EdgeKind(type="HAS_QUESTION", source="Chunk", target="Question", meaning="asked"),
        EdgeKind(type="HAS_ANSWER", source="Chunk", target="Answer", meaning="answered"),
        EdgeKind(type="ANSWERED_BY", source="Question", target="Answer", meaning="resolution"),
        EdgeKind(
            type="INCLUDES",
            source="Pack",
            target="Fact|Claim|Question|Chunk",
            meaning="an item selected into the pack",
            properties=["rank", "tokens", "section", "score"],
        ),
        EdgeKind(type="FOR_WORKSTREAM", source="Pack", target="Workstream", meaning="task scope"),
        EdgeKind(type="HAS_AUDIT_STATE", source="History", target="AuditState", meaning="cursors"),
    ],
)
