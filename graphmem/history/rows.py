"""Query rows to models: the history area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

import json
from typing import Any

from graphmem.core.models import from_node
from graphmem.history.models import EventRecord


def event_from_node(node: dict[str, Any]) -> EventRecord:
    body = json.loads(node["payload_json"])
    return from_node(
        EventRecord,
        node,
        event_id=node["id"],
        event_type=node["op"],
        occurred_at=node["at"],
        payload=body.get("payload", body),
    )
