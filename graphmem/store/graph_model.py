"""The graph model as data: what `graphmem://schema` publishes and the README describes."""

from __future__ import annotations

from pydantic import Field

from graphmem.core.models import OutputModel


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


def node(label: str, meaning: str, properties: str) -> NodeKind:
    return NodeKind(label=label, meaning=meaning, properties=properties.split())


def edge(type: str, source: str, target: str, meaning: str, properties: str = "") -> EdgeKind:
    return EdgeKind(
        type=type, source=source, target=target, meaning=meaning, properties=properties.split()
    )


class GraphModel(OutputModel):
    nodes: list[NodeKind]
    edges: list[EdgeKind]


# Properties are listed space-separated: one declaration per kind, read like a table.
GRAPH_MODEL = GraphModel(
    nodes=[
        node(
            "FactKey",
            "one slot per (tenant, owner, key)",
            "id tenant owner project origin_id key subject attribute",
        ),
        node(
            "Fact",
            "an observed value with provenance and validity",
            (
                "id tenant owner project origin_id key value_json value_kind value_canon "
                "value_number value_base value_dim value_instant value_text value_items "
                "value_keys status source_class source_raw confidence verification_status "
                "verification_json contradiction_count observed_at valid_from valid_to expires_at "
                "effective_until recorded_at invalidated_at superseded_at session_id actor client"
            ),
        ),
        node(
            "FactState",
            "a fact's lifecycle fields during [tx_from, tx_to)",
            "tenant fact_id tx_from tx_to status valid_to expires_at",
        ),
        node(
            "Decision",
            "a choice, the alternatives it rejected and when to reconsider them",
            (
                "id tenant project title choice rationale status status_reason review_after "
                "created_at updated_at session_id actor client unknown_rules"
            ),
        ),
        node(
            "Alternative",
            "a rejected option; its REOPEN_WHEN rules watch fact keys",
            "id tenant decision_id title why_rejected position",
        ),
        node(
            "ReviewSignal",
            "a decision's breach, identified by its sorted breached rule ids",
            (
                "id tenant decision_id coverage breached_rule_ids status opened_at "
                "acknowledged_at note cleared_at"
            ),
        ),
        node(
            "Attempt",
            "something tried for a decision or workstream",
            (
                "id tenant decision_id workstream_id title description evidence status result "
                "created_at"
            ),
        ),
        node(
            "Outcome", "how an attempt ended", "id tenant attempt_id result summary lesson evidence"
        ),
        node(
            "ImpactTarget",
            "an external thing a link_impact points at (session, snapshot, ...)",
            "tenant kind ref",
        ),
        node(
            "Chunk",
            "raw context for the knowledge pipeline, with its lifecycle state",
            (
                "id tenant project title body body_hash source_hash origin session_id "
                "workstream_id state quarantined quarantine_reasons materiality uncertainty "
                "signals awaiting_source_hash created_at updated_at"
            ),
        ),
        node(
            "Annotation",
            "a marker note recorded when a chunk was assessed",
            "id tenant chunk_id kind marker source_hash at",
        ),
        node(
            "Claim",
            "a candidate subject-predicate-object triple mined from chunks",
            (
                "id tenant project subject predicate object triple_key scope confidence "
                "requires_human status fact_id validation_mode"
            ),
        ),
        node(
            "Question",
            "a clarification question about a chunk",
            "id tenant chunk_id text type priority status",
        ),
        node("Answer", "a human answer appended to a chunk", "id tenant chunk_id text at"),
        node(
            "Pack",
            "a role-specific context pack under a token budget",
            (
                "id tenant pack_type target_ref token_budget token_usage items_included body "
                "status freshness_score relevance_score quality_score contract_version created_at "
                "retired_at"
            ),
        ),
        node(
            "Issue",
            "an audit finding, unique per (type, subject)",
            (
                "id tenant issue_type severity subject_kind subject_ref details_json status "
                "first_detected_at last_detected_at resolved_at"
            ),
        ),
        node(
            "AuditState", "the audit's scan cursors, hung off the tenant's History head", "tenant"
        ),
        node(
            "Run",
            "one pipeline call's run-history entry",
            "id tenant tool subject_kind subject_id status reason at",
        ),
        node(
            "Workstream",
            "a project's high-level thread of work",
            (
                "id tenant project title status next_action blockers progress created_at "
                "updated_at completed_at"
            ),
        ),
        node(
            "Commit",
            "a git commit's metadata, unique per (project, sha)",
            "tenant project sha message message_quarantined author committed_at branch files",
        ),
        node(
            "Session",
            "a conversation session of the raw archive (or one a commit names)",
            (
                "id tenant project session_ref host source_root first_ts last_ts message_count "
                "next_seq content_hash"
            ),
        ),
        node(
            "Turn",
            (
                "one archived conversation turn, word for word (secrets redacted); labelled "
                "Unembedded until its vector, written behind it, is set, and Unread until the "
                "subjects it names are read"
            ),
            (
                "id tenant session_id project role content ts seq content_hash quarantined "
                "quarantine_reasons lexical embedding embedding_model archived_at archived_revision"
            ),
        ),
        node(
            "Memory",
            (
                "a curated memory (one version of its topic when it has a topic_key); "
                "labelled Unindexed until its lexical and embedding are set, just after its save, "
                "and Unread until the subjects it names are read"
            ),
            (
                "id tenant project type title content topic_key topic_version branch tags files "
                "status version created_at updated_at active_from retired_at superseded_by "
                "status_reason session_id quarantine_reasons redactions access_count "
                "last_accessed_at lexical embedding embedding_model"
            ),
        ),
        node(
            "Subject",
            "who or what the memory is about (a person, organisation, place, project, thing)",
            "id tenant kind name created_at updated_at",
        ),
        node(
            "Alias",
            "one spelling of a subject, kept while a mention carries it",
            "id tenant subject_id written normal created_at",
        ),
        node(
            "SubjectKey",
            "a key an alias is found by (its normal form, first and last word, initials)",
            "id tenant key subject_id",
        ),
        node(
            "Mention",
            "a subject named in a memory or turn, as written there",
            "id tenant subject_id alias_id source source_kind source_id written evidence at",
        ),
        node(
            "SubjectQuestion",
            "a question for a person: is the mentioned subject the same as the candidate?",
            "id tenant status evidence confidence asked_at",
        ),
        node(
            "SubjectLedger",
            "the node a tenant's subjects pass locks first (one pass at a time)",
            "tenant at",
        ),
        node(
            "IdempotencyRecord",
            "what a keyed write produced (older records name fact_id or decision_id)",
            "tenant scope key fingerprint entity_id revision details_json created_at",
        ),
        node(
            "History",
            "a tenant's chain head, locked by every write, with its verified checkpoint",
            (
                "tenant revision last_hash last_at key_id checkpoint_revision checkpoint_hash "
                "checkpoint_keyed_from checkpoint_mac checkpoint_key_id checkpoint_at "
                "subjects_indexed_from"
            ),
        ),
        node(
            "Event",
            "one committed write, hash-chained",
            (
                "id tenant revision op at at_text aggregate_kind aggregate_id subject_ids "
                "payload_json payload_salt payload_digest session_id actor client prev_hash hash "
                "hash_scheme key_id erased_by erasure_seal seal_key_id"
            ),
        ),
        node(
            "EventSubject",
            "an event's subject id, for looking up what touched a subject",
            "tenant subject_id revision",
        ),
        node(
            "Erased",
            "a tombstone: what an erasure left of a node (its content, labels and indexes gone)",
            "tenant id erased_kind erased_at erasure_id erased_by",
        ),
    ],
    edges=[
        edge("CURRENT", "FactKey", "Fact", "the key's active fact", "since"),
        edge("WAS_CURRENT", "FactKey", "Fact", "a former stint as the active fact", "since until"),
        edge("OF_KEY", "Fact", "FactKey", "the fact's slot"),
        edge(
            "SUPERSEDES",
            "Fact",
            "Fact",
            "newer replaces older",
            "at effective_at rationale cleared_at",
        ),
        edge("CONTRADICTS", "Fact", "Fact", "the two facts disagree", "at effective_at rationale"),
        edge("HAS_STATE", "Fact", "FactState", "transaction-time states"),
        edge("HAS_ALTERNATIVE", "Decision", "Alternative", "an option the decision rejected"),
        edge(
            "REOPEN_WHEN",
            "Alternative",
            "FactKey",
            "a reopen rule on the key's current fact (unknown_reason: why it cannot fire now)",
            "rule_id key operator operand_json unit position unknown_reason unknown_since",
        ),
        edge("DEPENDS_ON", "Decision", "Fact|FactKey", "what the decision rests on", "at"),
        edge("SUPERSEDES", "Decision", "Decision", "newer decision replaces older", "at reason"),
        edge("HAS_ATTEMPT", "Decision|Workstream", "Attempt", "something tried for it"),
        edge("HAS_OUTCOME", "Attempt", "Outcome", "how it ended"),
        edge(
            "IMPACTS",
            "Fact|Claim|Chunk",
            "Fact|Decision|ImpactTarget",
            "a recorded impact link (link_impact)",
            "id type score rationale created_at updated_at",
        ),
        edge("HAS_ANNOTATION", "Chunk", "Annotation", "marker notes"),
        edge(
            "EVIDENCED_BY",
            "Claim",
            "Chunk",
            "a chunk the claim was extracted from",
            "type weight excerpt start end at",
        ),
        edge(
            "PROMOTED_TO",
            "Claim",
            "Fact",
            "the canonical fact the claim became (or reinforced)",
            "at mode reused",
        ),
        edge("HAS_QUESTION", "Chunk", "Question", "asked"),
        edge("HAS_ANSWER", "Chunk", "Answer", "answered"),
        edge("ANSWERED_BY", "Question", "Answer", "resolution"),
        edge(
            "INCLUDES",
            "Pack",
            "Fact|Claim|Question|Chunk",
            "an item selected into the pack",
            "rank tokens section score",
        ),
        edge("FOR_WORKSTREAM", "Pack", "Workstream", "task scope"),
        edge("HAS_AUDIT_STATE", "History", "AuditState", "cursors"),
        edge(
            "IN_SESSION",
            "Commit",
            "Session",
            "a link given by record_commit, never inferred",
            "source linked_at revision",
        ),
        edge("HAS_TURN", "Session", "Turn", "archived turns"),
        edge(
            "SUPERSEDES",
            "Memory",
            "Memory",
            "a newer version of the topic replaced this one",
            "at revision",
        ),
        edge("IN_SESSION", "Memory", "Session", "saved in one of the caller's archived sessions"),
        edge("NEXT", "Turn", "Turn", "the following turn"),
        edge("OF", "Alias", "Subject", "a spelling of the subject"),
        edge("KEYS", "SubjectKey", "Alias", "how the spelling is found"),
        edge("HAS_MENTION", "Memory|Turn|Chunk|Claim", "Mention", "a name read in the source"),
        edge("NAMES", "Mention", "Subject", "the subject the mention resolved to"),
        edge("AS", "Mention", "Alias", "the spelling it was written in"),
        edge("ASKS_ABOUT", "SubjectQuestion", "Subject", "the two subjects asked about", "role"),
        edge(
            "MERGED_INTO",
            "Subject",
            "Subject",
            "a person said they are one (split_subject undoes it)",
            "at revision reason actor",
        ),
    ],
)
