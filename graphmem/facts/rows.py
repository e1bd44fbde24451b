"""Query rows to models: the facts area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

import json
from typing import Any

from graphmem.facts.models import Fact, Temporal, Verification, validity_policy


def fact_from_node(node: dict[str, Any], state: dict[str, Any] | None = None) -> Fact:
    """A Fact node as a model; ``state`` overrides the lifecycle fields (a past FactState)."""
    lifecycle = state or node
    valid_to = lifecycle.get("valid_to")
    expires_at = lifecycle.get("expires_at")
    verification = node.get("verification_json")
    return Fact(
        id=node["id"],
        project=node.get("project"),
        origin_id=node.get("origin_id"),
        key=node["key"],
        value=json.loads(node["value_json"]),
        status=lifecycle["status"],
        source_class=node["source_class"],
        source=node["source_class"],
        source_raw=node.get("source_raw"),
        confidence=node["confidence"],
        verification_status=node["verification_status"],
        verification=Verification.model_validate_json(verification) if verification else None,
        observed_at=node["observed_at"],
        expires_at=expires_at,
        temporal=Temporal(
            valid_from=node["valid_from"],
            valid_to=valid_to,
            recorded_at=node["recorded_at"],
            invalidated_at=node.get("invalidated_at"),
        ),
        validity_policy=validity_policy(valid_to, expires_at),
        contradiction_count=node.get("contradiction_count", 0),
        session_id=node.get("session_id"),
        actor=node.get("actor"),
        client=node.get("client"),
        created_at=node["created_at"],
        updated_at=node["updated_at"],
        schema_version=node["schema_version"],
    )
