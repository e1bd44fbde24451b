"""What an erasure selects: its roots (by the request's one selector), everything that copies
or derives from their content (expanded until nothing new comes), the fact keys it empties,
and the history events whose payloads go with them; and the fingerprint of all of it, which
a confirmed run must match (the data did not change since the dry run)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypedDict

from graphmem.core.errors import Conflict
from graphmem.core.models import canonical_json
from graphmem.erasure.models import EraseRequest
from graphmem.history.erasure import EventToErase
from graphmem.store import Params, Row, TenantStore, shaped

Reader = Callable[..., Awaitable[list[Row]]]
MAX_EXPANSIONS = 64  # steps of derivation (chunk > claim > fact > key > facts is four)
# What a write created, by its op: the subject its event names at this position.
CREATED_BY_OP = {
    "record_fact": 0,
    "save_memory": 0,
    "record_decision": 0,
    "record_attempt": 0,
    "create_workstream": 0,
    "add_context_chunk": 0,
    "record_outcome": 1,
    "record_human_answer": 1,
}


class WrittenRow(TypedDict):
    """erasure/list_events_written_by: an event the actor or session wrote."""

    revision: int
    op: str
    aggregate_id: str | None
    subject_ids: list[str] | None
    erased: bool
    payload_json: str | None  # archive_turns' and record_commit's, until erased


class SelectedRow(TypedDict):
    """A node an erasure selected: erasure/select_by_ids, select_project, select_raw_session,
    select_topic, select_archived_turns, expand_dependents, list_emptied_fact_keys and
    list_past_retention."""

    ref: str  # the node's element id, for this call's statements only
    kind: str
    id: str


@dataclass
class Plan:
    nodes: list[SelectedRow] = field(default_factory=list[SelectedRow])
    written_events: list[int] = field(default_factory=list[int])  # by actor or session
    authored_events: list[int] = field(default_factory=list[int])  # theirs, erased ones too
    naming_events: list[int] = field(default_factory=list[int])  # naming a selected node

    @property
    def event_payloads(self) -> int:
        """The history payloads the erasure would erase (each once)."""
        return len(set(self.written_events) | set(self.naming_events))

    @property
    def ids(self) -> list[str]:
        return [node["id"] for node in self.nodes]

    def counts(self) -> dict[str, int]:
        return counts_by_kind(self.nodes)

    @property
    def fingerprint(self) -> str:
        body = {
            "nodes": sorted(f"{node['kind']}:{node['id']}" for node in self.nodes),
            "written_events": self.written_events,
            "authored_events": self.authored_events,
            "naming_events": self.naming_events,
        }
        return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def counts_by_kind(nodes: list[SelectedRow]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for node in nodes:
        counts[node["kind"]] = counts.get(node["kind"], 0) + 1
    return dict(sorted(counts.items()))


async def plan(db: TenantStore, request: EraseRequest) -> Plan:
    """Everything the request's selector reaches in the tenant now."""
    roots, selected = await _roots(db, request), Plan()
    if request.by_authorship:
        rows = shaped(
            WrittenRow, await db.read("erasure/list_events_written_by", **_authorship(request))
        )
        selected.authored_events = [row["revision"] for row in rows]
        selected.written_events = [row["revision"] for row in rows if not row["erased"]]
        made = sorted({created for row in rows if (created := _created(row)) is not None})
        roots += shaped(SelectedRow, await db.read("erasure/select_by_ids", ids=made))
        roots += await _archived(db, rows)
    selected.nodes = await expanded(db.read, roots)
    if selected.nodes:
        rows = await db.read("history/list_events_naming", ids=selected.ids)
        selected.naming_events = [row["revision"] for row in shaped(EventToErase, rows)]
    return selected


def _created(row: WrittenRow) -> str | None:
    """The node a write created (changes to others' nodes select nothing; linking a session to
    a commit another recorded creates nothing)."""
    subjects = row["subject_ids"] or []
    if row["op"] == "record_commit":
        return subjects[0] if _payload(row).get("created") and subjects else None
    position = CREATED_BY_OP.get(row["op"])
    return subjects[position] if position is not None and position < len(subjects) else None


def _payload(row: WrittenRow) -> dict[str, object]:
    """The write's own payload, as its event seals it ({} once erased): open JSON, its shape
    the writing tool's."""
    if row["payload_json"] is None:
        return {}
    return json.loads(row["payload_json"])["payload"]


async def _archived(db: TenantStore, rows: list[WrittenRow]) -> list[SelectedRow]:
    """The raw turns the actor's archive_turns calls stored (each names its call's event; turns
    stored before they did, by the seq range the event names), and the sessions left holding
    only those: appending to another's session takes the appended turns alone."""
    archived = [row for row in rows if row["op"] == "archive_turns"]
    if not archived:
        return []
    ranges: list[dict[str, object]] = []
    for row in archived:
        if payload := _payload(row):
            first, stored = _count(payload, "first_seq"), _count(payload, "stored")
            ranges.append({"session": row["aggregate_id"], "from": first, "to": first + stored})
    found = await db.read(
        "erasure/select_archived_turns",
        sessions=sorted({row["aggregate_id"] or "" for row in archived}),
        revisions=[row["revision"] for row in archived],
        ranges=ranges,
    )
    return shaped(SelectedRow, found)


def _count(payload: dict[str, object], name: str) -> int:
    """A number archive_turns' payload holds (graphmem/archive/service.py writes ints)."""
    value = payload[name]
    if not isinstance(value, int):
        raise TypeError(f"archive_turns' {name} is not a number")
    return value


async def _roots(db: TenantStore, request: EraseRequest) -> list[SelectedRow]:
    """The nodes the selector names (what an actor or session wrote: by its events)."""
    chosen = _root_statement(request)
    if chosen is None:
        return []
    statement, params = chosen
    return shaped(SelectedRow, await db.read(statement, **params))


def _root_statement(request: EraseRequest) -> tuple[str, Params] | None:
    if request.ids is not None:
        return "erasure/select_by_ids", {"ids": request.ids}
    if request.project is not None:
        return "erasure/select_project", {"project": request.project}
    if request.raw_session_id is not None:
        return "erasure/select_raw_session", {"session": request.raw_session_id}
    if request.topic_key is not None:
        return "erasure/select_topic", {"topic": request.topic_key}
    return None


def _authorship(request: EraseRequest) -> Params:
    return {"actor": request.written_by, "session_id": request.written_in_session}


async def expanded(read: Reader, roots: list[SelectedRow]) -> list[SelectedRow]:
    """The roots and what derives from them, to a fixed point (``read`` runs a statement:
    the tenant's read, or a write's own for the nodes it erases), in erasure order: what was
    found last first, the roots last, so an erasure interrupted between batches still has
    the roots its selector finds the rest from."""
    levels = [_distinct(roots)]
    seen = {row["ref"] for row in levels[0]}
    while True:
        fresh = [row["ref"] for row in levels[-1]]
        found = shaped(SelectedRow, await read("erasure/expand_dependents", refs=fresh))
        emptied = await _emptied(read, levels)
        level = [row for row in _distinct([*found, *emptied]) if row["ref"] not in seen]
        if not level:
            return [row for level in reversed(levels) for row in level]
        if len(levels) == MAX_EXPANSIONS:
            raise Conflict(
                f"what the selection derives did not settle in {MAX_EXPANSIONS} steps: erase "
                "it in parts (by ids)"
            )
        seen.update(row["ref"] for row in level)
        levels.append(level)


async def _emptied(read: Reader, levels: list[list[SelectedRow]]) -> list[SelectedRow]:
    """What the selection empties of content kept for others: fact keys no fact is left in,
    names (subjects' spellings) no mention is left for."""
    selected = [row for level in levels for row in level]
    facts = [row["ref"] for row in selected if row["kind"] == "Fact"]
    mentions = [row["ref"] for row in selected if row["kind"] == "Mention"]
    keys = await read("erasure/list_emptied_fact_keys", refs=facts) if facts else []
    names = await read("erasure/list_emptied_subjects", refs=mentions) if mentions else []
    return shaped(SelectedRow, [*keys, *names])


def _distinct(rows: list[SelectedRow]) -> list[SelectedRow]:
    unique = {row["ref"]: row for row in rows}
    return sorted(unique.values(), key=lambda row: (row["kind"], row["id"]))
