"""The shapes of the rows of the recall area's statements (cypher/recall/): what
recall_user_context, context_bundle, timeline and timeline_report read. Instants the
statements turn into text (toString) are ISO text here."""

from __future__ import annotations

from typing import Literal, TypedDict

from graphmem.archive.models import Role
from graphmem.facts.models import SourceClass, VerificationStatus
from graphmem.memories.models.memories import MemoryStatus, MemoryType

# --- recall_user_context ---------------------------------------------------------------------


class SafeClaimRow(TypedDict):
    """recall/list_recall_safe_claims: a current fact of the project from a trusted source."""

    id: str
    key: str
    value_json: str
    source_class: SourceClass  # one of the classes asked for
    contradiction_count: int


class RecallMemoryRow(TypedDict):
    """recall/get_recall_memories: a memory search selected, its content cut."""

    id: str
    type: MemoryType
    title: str
    text: str
    status: MemoryStatus
    redactions: list[str]  # the kinds of secrets redacted when it was saved


# --- context_bundle --------------------------------------------------------------------------


class BundleMemoryRow(TypedDict):
    """recall/list_bundle_memories: a memory the graph knew then (never rejected or deleted),
    its content cut, and what it was at the bundle's instant."""

    id: str
    type: MemoryType
    title: str
    text: str
    branch: str | None
    status: Literal["active", "stale", "quarantined"]
    created_at: str
    live: bool
    superseded: bool
    quarantined: bool


class BundleMemoryAfterRow(TypedDict):
    """recall/list_bundle_memories_after: a memory created after the bundle's instant."""

    id: str
    type: MemoryType


class BundleFactRow(TypedDict):
    """recall/list_bundle_current_facts and list_bundle_facts_at: a key of the project and its
    fact (current now, or active at the instant)."""

    id: str
    key: str
    value_json: str
    source_class: SourceClass
    verification_status: VerificationStatus
    contradiction_count: int  # always 0 as of an instant
    recorded_at: str


class BundleSessionRow(TypedDict):
    """recall/list_bundle_sessions: a session the graph knew then, with its first user turn
    archived by then (none, or one, cut)."""

    id: str
    session_ref: str
    host: str
    first_ts: str
    last_ts: str
    message_count: int
    samples: list[str]


# --- timeline --------------------------------------------------------------------------------


class TimelineMemoryMap(TypedDict):
    """A memory of recall/get_memory_timeline (a map projection: an absent property is null),
    its content cut to one character more than the preview."""

    id: str
    type: MemoryType
    title: str
    topic_key: str | None
    topic_version: int
    status: MemoryStatus
    session_id: str | None
    content: str
    created_at: str


class TimelineAnchorMemory(TimelineMemoryMap):
    project: str


class MemoryTimelineRow(TypedDict):
    """recall/get_memory_timeline: the anchor and its neighbours, each side nearest first."""

    anchor: TimelineAnchorMemory
    before: list[TimelineMemoryMap]
    after: list[TimelineMemoryMap]


class TimelineTurnMap(TypedDict):
    """A turn of recall/get_turn_timeline (a map projection: an absent property is null), its
    content cut to one character more than the preview."""

    id: str
    role: Role
    seq: int
    quarantined: bool | None  # null on a turn without the property
    content: str
    ts: str


class TimelineAnchorTurn(TimelineTurnMap):
    project: str


class TurnTimelineRow(TypedDict):
    """recall/get_turn_timeline: the anchor turn, its session and the turns of that session
    around it, each side nearest first."""

    anchor: TimelineAnchorTurn
    session_id: str
    session_ref: str
    before: list[TimelineTurnMap]
    after: list[TimelineTurnMap]


# --- timeline_report -------------------------------------------------------------------------


class MemoryGroupRow(TypedDict):
    """One (UTC year, month, status, type) group of recall/get_report_memory_activity."""

    year: int
    month: int
    status: MemoryStatus
    type: MemoryType
    memories: int
    tokens: int
    served: int
    reads: int
    first: str
    last: str


class RecentMemoryRow(TypedDict):
    """One of the newest memory versions of recall/get_report_memory_activity."""

    id: str
    type: MemoryType
    title: str
    status: MemoryStatus
    created_at: str


class MemoryActivityRow(TypedDict):
    """recall/get_report_memory_activity: the project's memories by month, status and type, and
    the newest versions (none for the compact report)."""

    groups: list[MemoryGroupRow]
    recent: list[RecentMemoryRow]


class TurnActivityRow(TypedDict):
    """recall/get_report_turn_activity: a session's turns in one UTC month."""

    session_id: str
    year: int
    month: int
    turns: int
    tokens: int
    quarantined: int  # how many of them are quarantined
    first: str
    last: str
