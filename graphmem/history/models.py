"""The append-only history: events and the verdict on their hash chain."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import AwareDatetime, Field

from graphmem.core.models import Name, OutputModel, StrictModel

CONTRACT_VERSION = "graphmem_history_v1"


class ReplayRequest(StrictModel):
    aggregate_id: Name | None = Field(default=None, description="Only events touching this id.")
    aggregate_kind: Name | None = Field(default=None, description="Only this entity kind.")
    limit: int = Field(default=100, ge=1, le=500, description="Max events.")
    since_ts: AwareDatetime | None = Field(
        default=None, description="Only events since this instant."
    )


class EventRecord(OutputModel):
    event_id: str
    revision: int = Field(description="The tenant's gap-free revision this event committed.")
    event_type: str = Field(description="The tool or maintenance step that wrote it.")
    aggregate_kind: str | None
    aggregate_id: str | None
    subject_ids: list[str] = Field(description="Every entity the write touched.")
    occurred_at: datetime
    actor: str | None
    session_id: str | None
    client: str | None
    payload: dict[str, object] = Field(
        description="What changed, as the write recorded it; empty once erased."
    )
    erased_by: int | None = Field(
        default=None, description="The revision of the erasure that removed this payload."
    )
    prev_hash: str
    hash: str


ChainStatus = Literal["verified", "tampered", "key_missing", "key_mismatch", "anchor_mismatch"]


class ChainVerdict(OutputModel):
    verified: bool = Field(
        description="True when every checked event recomputes to its stored hash "
        "and links to the one before, with no revision missing."
    )
    status: ChainStatus = Field(
        description="verified; tampered (an event, link or the head does not hold); "
        "key_missing or key_mismatch (keyed events this server cannot check: not tampering); "
        "anchor_mismatch (the chain differs from the anchor given)."
    )
    complete: bool = Field(
        description="True when every event up to the head was checked; false when the call's "
        "bound stopped earlier (reason says how far)."
    )
    checked_events: int
    checked_from_revision: int = Field(
        description="The check started after this revision: 0, or the last checkpoint a "
        "full check had verified (only later events were read)."
    )
    head_revision: int = Field(description="The tenant's latest revision.")
    keyed_from_revision: int | None = Field(
        description="The first event chained with the history key; events before it carry "
        "plain hashes (written before keying), null if none is keyed."
    )
    erased_payloads: int = Field(
        default=0,
        description="Checked events whose payload an erasure removed (each sealed by it).",
    )
    first_break_revision: int | None = Field(description="The first revision that fails.")
    reason: str | None = Field(
        description="Why the chain does not verify, or how much of it was checked."
    )


class ReplayResult(OutputModel):
    count: int
    events: list[EventRecord] = Field(description="Newest first.")
    contract_version: str = CONTRACT_VERSION
    chain: ChainVerdict
