"""Query rows to models: the history area's mappers from nodes as Cypher returns them, and the
shapes of the rows the history floor itself reads (see graphmem/store/store.py)."""

from __future__ import annotations

import json
from typing import Any, TypedDict

from graphmem.core.models import from_node
from graphmem.history.models import EventRecord


class LockedHead(TypedDict):
    """The chain head as the write path's lock statement returns it, the lock taken."""

    revision: int
    last_hash: str
    last_at: str | None  # the time of the tenant's last event, as ISO text
    key_id: str | None  # the history key the chain is keyed with


class HeadRow(TypedDict):
    """history/get_head: the head (revision 0 before the first write) and its checkpoint.

    The checkpoint fields are whatever the database holds: verification checks their types
    before it trusts them (only a database writer could put anything else there)."""

    revision: int
    last_hash: str | None
    checkpoint_revision: object
    checkpoint_hash: object
    keyed_from: object
    checkpoint_mac: object
    checkpoint_key_id: str | None


class ChainEvent(TypedDict):
    """One event of history/list_chain: the fields its hash covers, and its seals."""

    revision: int
    op: str
    at_text: str
    payload_json: str | None  # None once erased
    prev_hash: str
    hash: str
    hash_scheme: str | None
    key_id: str | None
    payload_salt: str | None  # sealed events (None once erased)
    payload_digest: str | None  # sealed events: what the hash covers instead of the payload
    erased_by: int | None  # the revision of the erasure that removed the payload
    erasure_seal: str | None
    seal_key_id: str | None


class ChainPage(TypedDict):
    """history/list_chain: one page of events in revision order."""

    events: list[ChainEvent]


class EventRow(TypedDict):
    """history/list_events and list_subject_events: one Event node's properties."""

    event: dict[str, Any]


class IdempotencyRow(TypedDict):
    """history/find_idempotency_record: what an earlier keyed write left for its retries."""

    fingerprint: str
    entity_id: str
    revision: int
    details_json: str | None
    superseded_id: str | None  # records written before the one write path


def event_from_node(node: dict[str, Any]) -> EventRecord:
    text = None if node.get("erased_by") is not None else node.get("payload_json")
    body: dict[str, Any] = json.loads(text) if text is not None else {}  # {} once erased
    return from_node(
        EventRecord,
        node,
        event_id=node["id"],
        event_type=node["op"],
        occurred_at=node["at"],
        payload=body.get("payload", body),
        erased_by=node.get("erased_by"),
    )
