"""Query rows to models: the archive area's mappers from nodes as Cypher returns them, and the
shapes of the rows of its statements (cypher/archive/)."""

from __future__ import annotations

from datetime import datetime
from typing import NotRequired, TypedDict

from graphmem.archive.models import RawSession, Role
from graphmem.core.models import from_node


class SessionNode(TypedDict):
    """A ``:Session`` node's properties, as archive/merge_raw_session made it and
    update_raw_session keeps it. Neo4j keeps no nulls: a property never set is absent."""

    tenant: str
    id: str
    project: str
    session_ref: str
    host: str
    source_root: str
    message_count: int
    next_seq: NotRequired[int]  # sessions from before it number on from message_count
    content_hash: str
    created_at: datetime
    first_ts: NotRequired[datetime]  # the window: set with the first stored turns
    last_ts: NotRequired[datetime]
    updated_at: NotRequired[datetime]


class SessionRow(TypedDict):
    """archive/get_raw_session and update_raw_session: the session as it stands."""

    session: SessionNode


class MergedSessionRow(TypedDict):
    """archive/merge_raw_session: the call's session, and whether this call made it."""

    id: str
    message_count: int
    content_hash: str
    next_seq: int
    created: bool


class ArchivedTurnRow(TypedDict):
    """archive/find_archived_turns: the caller's index of a turn the session already holds."""

    index: int


class ThreadedRow(TypedDict):
    """archive/link_raw_turn_sequence: turns re-threaded, and the later turns whose vector
    must be computed again (a late turn now sits before them)."""

    threaded: int
    stale: list[str]


class RawTurnRow(TypedDict):
    """archive/get_raw_turns: an archived turn by id, with its session (get_observations and
    search's raw hits read it). Its columns are property reads: a turn without the property
    (one imported from an older export) gives null."""

    id: str
    session_id: str
    session_ref: str
    project: str
    role: Role
    ts: str  # ISO text (toString)
    seq: int
    content: str
    quarantined: bool | None
    quarantine_reasons: list[str] | None


class RawHitRow(TypedDict):
    """One hit of archive/search_raw_turns' page: a turn, its session and its score."""

    turn_id: str
    session_id: str
    session_ref: str
    project: str
    host: str
    source_root: str
    role: Role
    ts: str  # ISO text (toString)
    seq: int
    content: str
    score: float
    quarantined: bool
    quarantine_reasons: list[str]


class RawSearchRow(TypedDict):
    """archive/search_raw_turns: how many hits Lucene gave ($fetch when it had more), and the
    page ($limit + 1 hits)."""

    fetched: int
    page: list[RawHitRow]


class RawSessionSummaryRow(TypedDict):
    """archive/list_raw_sessions: a session with turns in the window, its window's counts and
    samples. Instants are ISO text (toString)."""

    session_id: str
    session_ref: str
    project: str
    host: str
    source_root: str
    content_hash: str
    first_ts: str
    last_ts: str
    message_count: int
    window_count: int
    user_count: int
    assistant_count: int
    window_first_ts: str
    window_last_ts: str
    samples: list[str]


def session_from_node(node: SessionNode) -> RawSession:
    return from_node(RawSession, node)
