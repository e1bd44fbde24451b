"""Query rows to models: the facts area's mappers from nodes as Cypher returns them, and
the shapes of the rows of its statements (cypher/facts/)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Literal, NotRequired, TypedDict

from graphmem.core.models import from_node
from graphmem.facts.models import (
    Fact,
    FactStatus,
    SourceClass,
    Temporal,
    Verification,
    VerificationStatus,
    validity_policy,
)


class FactNode(TypedDict):
    """A ``:Fact`` node's properties, as facts/record_fact wrote them and later statements
    changed them (update_fact, expire_facts, mark_fact_verified, the contradiction counts).
    Neo4j keeps no nulls: a property never set, or set to null, is absent. (A fact also holds
    its value's projections, value_kind and the rest: graphmem/decisions/reopen_rules.py; no
    reader here reads them.)"""

    id: str
    tenant: str
    slot_id: str  # its FactKey's id
    owner: str
    project: NotRequired[str]
    origin_id: NotRequired[str]
    key: str
    value_json: str
    status: FactStatus
    source_class: SourceClass
    source_raw: NotRequired[str]
    confidence: float
    verification_status: VerificationStatus
    verification_json: NotRequired[str]  # the checked attestation, once verified
    contradiction_count: NotRequired[int]
    observed_at: datetime
    valid_from: datetime
    valid_to: NotRequired[datetime]
    expires_at: NotRequired[datetime]
    effective_until: NotRequired[datetime]  # the earlier of valid_to and expires_at
    recorded_at: datetime
    superseded_at: NotRequired[datetime]
    invalidated_at: NotRequired[datetime]
    created_at: datetime
    updated_at: datetime
    session_id: NotRequired[str]
    actor: NotRequired[str]
    client: NotRequired[str]
    schema_version: int
    # A fact promoted from a claim carries the claim's triple (knowledge/mark_claim_promoted
    # sets each once: a fact reinforced by a later claim keeps the first one's). facts stands
    # under knowledge, so its Literals are text here: predicate is a Predicate, scope a Scope,
    # validation_mode a PromotionMode (graphmem/knowledge/models/).
    claim_id: NotRequired[str]
    subject: NotRequired[str]
    predicate: NotRequired[str]
    object: NotRequired[str]
    subject_norm: NotRequired[str]
    object_norm: NotRequired[str]
    scope: NotRequired[str]
    validation_mode: NotRequired[str]


class FactStateNode(TypedDict):
    """A ``:FactState`` node: a fact's lifecycle fields over one stretch of transaction time
    [tx_from, tx_to) (record_fact, expire_facts and snapshot_fact_states open them)."""

    tenant: str
    fact_id: str
    tx_from: datetime
    tx_to: NotRequired[datetime]  # absent while it is the fact's open state
    status: FactStatus
    valid_to: NotRequired[datetime]
    expires_at: NotRequired[datetime]


class FactRow(TypedDict):
    """facts/mark_fact_verified: the fact as it is now."""

    fact: FactNode


class FactByIdRow(TypedDict):
    """facts/get_facts: one fact, and whether it is its key's current fact."""

    fact: FactNode
    is_current: bool


class RecordedFactRow(TypedDict):
    """facts/record_fact: the new fact, the one it superseded as current, and the live
    decisions whose reopen rules watch its key."""

    fact: FactNode
    superseded_id: str | None
    watching: list[str]


class RecordedAtHeadRow(TypedDict):
    """facts/record_fact_at_head: the new fact, the one it superseded (the one expected) and
    the revision of its event."""

    fact: FactNode
    superseded_id: str
    revision: int


class ExpiredRow(TypedDict):
    """facts/expire_facts: one fact it expired."""

    id: str


class ContradictionsRow(TypedDict):
    """facts/count_contradictions_between."""

    existing: int


class DisplacedRow(TypedDict):
    """facts/make_current: the fact that was current before, if any."""

    displaced_id: str | None


EdgeType = Literal["SUPERSEDES", "CONTRADICTS"]


class FactEdge(TypedDict):
    """A SUPERSEDES or CONTRADICTS link of a fact, as current_state's statements return it.
    ``other_live`` (whether the other end is active and not lapsed) comes with the current
    fact's links (get_current_state's answer_edges, a bool) and with get_state_at's (null when
    the other end had no state then); a former fact's link to its successor has none."""

    type: EdgeType
    from_id: str
    to_id: str
    at: datetime
    rationale: str | None
    other_live: NotRequired[bool | None]


class FormerFact(TypedDict):
    """facts/get_current_state: a former fact of the key as a projection (not a whole node),
    with the live SUPERSEDES link to its successor."""

    id: str
    status: FactStatus
    value_json: str
    valid_from: datetime
    valid_to: datetime | None
    expires_at: datetime | None
    recorded_at: datetime
    edges: list[FactEdge]


class CurrentSlotRow(TypedDict):
    """facts/get_current_state: one owner's slot of the key (or of a key naming the same
    subject), its current fact (whole) with its links, and its newest former facts."""

    owner: str
    key: str
    project: str | None
    origin_id: str | None
    answer: FactNode | None
    has_facts: bool
    current_erased: bool
    answer_edges: list[FactEdge]  # empty without an answer
    history: list[FormerFact]


class FactThen(TypedDict):
    """One fact of facts/get_state_at: the node, its state then and its links then."""

    fact: FactNode
    state: FactStateNode
    edges: list[FactEdge]


class StatesSlotRow(TypedDict):
    """facts/get_state_at: one owner's slot of the key (or of a key naming the same subject)
    as known at $known_at."""

    owner: str
    key: str
    project: str | None
    origin_id: str | None
    facts: list[FactThen]


def fact_from_node(node: FactNode, state: FactStateNode | None = None) -> Fact:
    """A Fact node as a model; ``state`` overrides the lifecycle fields (a past FactState)."""
    lifecycle = state or node
    valid_to = lifecycle.get("valid_to")
    expires_at = lifecycle.get("expires_at")
    verification = node.get("verification_json")
    return from_node(
        Fact,
        node,
        value=json.loads(node["value_json"]),
        status=lifecycle["status"],
        source=node["source_class"],
        verification=Verification.model_validate_json(verification) if verification else None,
        expires_at=expires_at,
        temporal=from_node(Temporal, node, valid_to=valid_to),
        validity_policy=validity_policy(valid_to, expires_at),
        contradiction_count=node.get("contradiction_count", 0),
    )
