"""Query rows to models: the history area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

import json
from typing import Any

from graphmem.history.models import EventRecord


def event_from_node(node: dict[str, Any]) -> EventRecord:
    body = json.loads(node["payload_json"])
    return EventRecord(
        event_id=node["id"],
        revision=node["revision"],
        event_type=node["op"],
        aggregate_kind=node.get("aggregate_kind"),
        aggregate_id=node.get("aggregate_id"),
        subject_ids=node.get("subject_ids") or [],
        occurred_at=node["at"],
        actor=node.get("actor"),
        session_id=node.get("session_id"),
        client=node.get("client"),
        payload=body.get("payload", body),
        prev_hash=node["prev_hash"],
        hash=node["hash"],
    )
