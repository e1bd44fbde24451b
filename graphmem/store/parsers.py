"""Named parsers from query rows (already plain Python) to models."""

from __future__ import annotations

import json
from typing import Any

from graphmem.models.facts import Fact, HistoryEntry, Temporal


def parse_fact(node: dict[str, Any]) -> Fact:
    return Fact(
        id=node["id"],
        project=node.get("project"),
        key=node["key"],
        value=json.loads(node["value_json"]),
        status=node["status"],
        source_class=node["source_class"],
        source=node["source_class"],
        source_raw=node.get("source_raw"),
        confidence=node["confidence"],
        verification_status=node["verification_status"],
        observed_at=node.get("observed_at"),
        temporal=Temporal(
            valid_from=node.get("valid_from"),
            valid_to=node.get("valid_to"),
            recorded_at=node["recorded_at"],
            invalidated_at=node.get("invalidated_at"),
        ),
        session_id=node.get("session_id"),
        actor=node.get("actor"),
        client=node.get("client"),
        created_at=node["created_at"],
        updated_at=node["updated_at"],
        schema_version=node["schema_version"],
    )


def parse_history_entry(entry: dict[str, Any]) -> HistoryEntry:
    fact = entry["fact"]
    return HistoryEntry(
        id=fact["id"],
        status=fact["status"],
        value=json.loads(fact["value_json"]),
        valid_from=fact.get("valid_from"),
        valid_to=fact.get("valid_to"),
        recorded_at=fact["recorded_at"],
        superseded_by=entry.get("superseded_by"),
    )
