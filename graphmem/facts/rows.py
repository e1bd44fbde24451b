"""Query rows to models: the facts area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

import json
from typing import Any

from graphmem.core.models import from_node
from graphmem.facts.models import Fact, Temporal, Verification, validity_policy


def fact_from_node(node: dict[str, Any], state: dict[str, Any] | None = None) -> Fact:
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
