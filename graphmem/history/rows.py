"""Query rows to models: the history area's mappers from nodes as Cypher returns them, and the
shapes of the rows the history floor itself reads (see graphmem/store/store.py)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import NotRequired, TypedDict

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


class EventNode(TypedDict):
    """An ``:Event`` node's properties, as the write path appended it (chain.py's
    ``event_params``) and an erasure changed it (erase_event_payloads, forget_event_authors).
    Neo4j keeps no nulls: a property never set, or set to null, is absent."""

    id: str
    tenant: str
    revision: int
    op: str
    at: datetime
    at_text: str  # ``at`` as the hash covers it
    aggregate_kind: str
    aggregate_id: str
    subject_ids: list[str]
    payload_json: NotRequired[str]  # gone once erased
    payload_salt: NotRequired[str]  # sealed events, until erased
    payload_digest: NotRequired[str]  # sealed events
    session_id: NotRequired[str]  # who wrote, as they said (gone once forgotten)
    actor: NotRequired[str]
    client: NotRequired[str]
    prev_hash: str
    hash: str
    hash_scheme: NotRequired[str]  # keyed events
    key_id: NotRequired[str]
    erased_by: NotRequired[int]  # the revision of the erasure that removed its payload
    erasure_seal: NotRequired[str]
    seal_key_id: NotRequired[str]


class EventRow(TypedDict):
    """history/list_events and list_subject_events: one Event node's properties."""

    event: EventNode


class IdempotencyRow(TypedDict):
    """history/find_idempotency_record: what an earlier keyed write left for its retries."""

    fingerprint: str
    entity_id: str
    revision: int
    details_json: str | None
    superseded_id: str | None  # records written before the one write path


def event_from_node(node: EventNode) -> EventRecord:
    text = None if node.get("erased_by") is not None else node.get("payload_json")
    # The payload wrapped with the aggregate and subjects (history/chain.py; older events: the
    # payload alone), {} once erased. A payload is open JSON: its shape is the writing tool's.
    body: dict[str, object] = json.loads(text) if text is not None else {}
    return from_node(
        EventRecord,
        node,
        event_id=node["id"],
        event_type=node["op"],
        occurred_at=node["at"],
        payload=body.get("payload", body),
        erased_by=node.get("erased_by"),
    )
