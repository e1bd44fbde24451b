"""timeline: chronological context around one memory or turn; timeline_report: a project's
Markdown report with activity, type distribution and token ROI. Both read-only.

Rules of timeline:
- The centre is ``anchor`` (an id) when given, even with a query; else the best hit of a
  non-blank ``query``; neither is invalid_argument (field anchor). ``project``, when given,
  limits the anchor lookup; the neighbours always share the anchor's project.
- source ``memory`` (default): the anchor is a Memory id; a query takes the top hit of search
  (limit 1, stale included when include_stale, no raw fallback). Neighbours: the project's
  memories just before and after the anchor by (created_at, id). ``include_stale`` (default
  true: a timeline shows history) keeps stale versions; quarantined, rejected and deleted
  memories never appear, and an anchor in such a status (or stale with include_stale false) is
  invalid_state.
- source ``raw``: the anchor is a Turn id; a query takes the top hit of search_raw.
  Neighbours: turns of the SAME session just before and after by (ts, seq). Quarantined
  turns are included and flagged (literal recall, as in search_raw).
- depth_before / depth_after: 0-50 (default 5). ``before`` and ``after`` are oldest first;
  more_before / more_after say whether the timeline goes on.
- An unknown id, another tenant's, or one outside ``project`` is not_found, the same message
  for each; a query without a hit is not_found naming the query.

Rules of timeline_report (project required; an empty project gives a report saying so):
- Read by two aggregate queries over index range seeks of the project's memories and turns,
  newest first, at most 1,000,000 rows each (``capped`` says a scan reached it).
- Overview: first and last activity day (memories and turns, UTC), span in calendar days
  (inclusive), memory versions by status, sessions and turns of the raw archive.
- Activity by type: active and stale memories per type, with percentages (one decimal);
  quarantined ones are listed apart.
- Activity per UTC month with activity (memory versions saved, turns archived, sessions whose
  first turn fell in it): the compact report shows the last 6, the full one every month (up to
  240) as the monthly breakdown.
- Token ROI: tokens are estimated as ceil(characters / 4). Investment = tokens of title +
  content of every saved memory version, whatever its status now. Return = Σ access_count *
  that memory's tokens (what get_observations served back). ROI = return ÷ investment.
  Compression = raw-archive tokens (Σ over turns' contents) ÷ tokens of active memories: what
  the curated layer saves a reader compared with rereading the conversation. A zero
  denominator gives n/a (null in stats), never a division.
- full=true adds the timeline: the 200 newest memory versions by UTC day, each
  ``- <id> [type] title (status)``; titles of quarantined, rejected and deleted memories are
  withheld.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from graphmem.archive import service as archive
from graphmem.archive.models import SearchRawRequest
from graphmem.core.errors import InvalidArgument, InvalidState, NotFound, first_row
from graphmem.core.models import from_node, pick
from graphmem.memories.models.memories import PREVIEW_CHARS
from graphmem.memories.rules import preview
from graphmem.recall.models.timeline import (
    MAX_REPORT_ROWS,
    REPORT_RECENT,
    TimelineItem,
    TimelineMemory,
    TimelineReportRequest,
    TimelineReportResult,
    TimelineRequest,
    TimelineResult,
    TimelineTurn,
)
from graphmem.recall.report import SHOWN_STATUSES, render_report, report_stats
from graphmem.recall.rows import (
    MemoryActivityRow,
    MemoryTimelineRow,
    TimelineMemoryMap,
    TimelineTurnMap,
    TurnActivityRow,
    TurnTimelineRow,
)
from graphmem.search import service as search
from graphmem.search.models import SearchRequest
from graphmem.store import TenantStore, shaped
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval

AnchoredBy = Literal["anchor", "query"]


# --- timeline --------------------------------------------------------------------------------
async def timeline(
    db: TenantStore, request: TimelineRequest, retrieval: Retrieval = WITHOUT_MODELS
) -> TimelineResult:
    anchored_by: AnchoredBy = "anchor" if request.anchor is not None else "query"
    if request.anchor is None and not (request.query or "").strip():
        raise InvalidArgument("anchor", "give an anchor id or a non-blank query")
    if request.source == "raw":
        anchor = request.anchor or await _top_turn(db, request)
        return await _turn_timeline(db, request, anchor, anchored_by)
    anchor = request.anchor or await _top_memory(db, request, retrieval)
    return await _memory_timeline(db, request, anchor, anchored_by)


def _no_match(query: str) -> NotFound:
    shown = query if len(query) <= 200 else query[:199] + "…"
    return NotFound("match for query", shown)


async def _top_memory(db: TenantStore, request: TimelineRequest, retrieval: Retrieval) -> str:
    query = request.query or ""
    found = await search.search(
        db,
        SearchRequest(
            query=query,
            project=request.project,
            include_stale=request.include_stale,
            limit=1,
            raw_fallback=False,
        ),
        retrieval,
    )
    if not found.results:
        raise _no_match(query)
    return found.results[0].id


async def _top_turn(db: TenantStore, request: TimelineRequest) -> str:
    query = request.query or ""
    found = await archive.search_raw(
        db, SearchRawRequest(query=query, project=request.project, limit=1)
    )
    if not found.results:
        raise _no_match(query)
    return found.results[0].turn_id


def _statuses(include_stale: bool) -> list[str]:
    return list(SHOWN_STATUSES) if include_stale else ["active"]


async def _memory_timeline(
    db: TenantStore, request: TimelineRequest, anchor: str, anchored_by: AnchoredBy
) -> TimelineResult:
    statuses = _statuses(request.include_stale)
    rows = await db.read(
        "recall/get_memory_timeline",
        anchor=anchor,
        statuses=statuses,
        preview_chars=PREVIEW_CHARS,
        **pick(request, "project depth_before depth_after"),
    )
    row = first_row(shaped(MemoryTimelineRow, rows), "memory", anchor)
    centre = row["anchor"]
    if centre["status"] not in statuses:
        raise InvalidState(
            "memory",
            anchor,
            centre["status"],
            "a timeline shows active memories, and stale ones with include_stale=true; "
            "quarantined, rejected and deleted memories never appear",
        )
    return _result(
        request,
        anchored_by,
        centre["project"],
        _memory_item(centre),
        [_memory_item(m) for m in row["before"]],
        [_memory_item(m) for m in row["after"]],
    )


async def _turn_timeline(
    db: TenantStore, request: TimelineRequest, anchor: str, anchored_by: AnchoredBy
) -> TimelineResult:
    rows = await db.read(
        "recall/get_turn_timeline",
        anchor=anchor,
        **pick(request, "project depth_before depth_after"),
        preview_chars=PREVIEW_CHARS,
    )
    row = first_row(shaped(TurnTimelineRow, rows), "turn", anchor)
    session = (row["session_id"], row["session_ref"])
    return _result(
        request,
        anchored_by,
        row["anchor"]["project"],
        _turn_item(row["anchor"], *session),
        [_turn_item(t, *session) for t in row["before"]],
        [_turn_item(t, *session) for t in row["after"]],
    )


def _result(
    request: TimelineRequest,
    anchored_by: AnchoredBy,
    project: str,
    anchor: TimelineItem,
    before: Sequence[TimelineItem],
    after: Sequence[TimelineItem],
) -> TimelineResult:
    """The query returns each side nearest first with one extra row (it says more exist)."""
    return TimelineResult(
        source=request.source,
        anchored_by=anchored_by,
        project=project,
        anchor=anchor,
        before=list(reversed(before[: request.depth_before])),
        after=list(after[: request.depth_after]),
        more_before=len(before) > request.depth_before,
        more_after=len(after) > request.depth_after,
    )


# The model reads the rest of the row's fields (and parses its ISO instant).
def _memory_item(memory: TimelineMemoryMap) -> TimelineMemory:
    return from_node(
        TimelineMemory,
        memory,
        preview=preview(memory["content"]),
        topic_version=memory.get("topic_version") or 1,
    )


def _turn_item(turn: TimelineTurnMap, session_id: str, session_ref: str) -> TimelineTurn:
    return from_node(
        TimelineTurn,
        turn,
        session_id=session_id,
        session_ref=session_ref,
        preview=preview(turn["content"]),
        quarantined=bool(turn.get("quarantined")),
    )


# --- timeline_report (numbers and Markdown: graphmem/recall/report.py) -----------------------
async def timeline_report(db: TenantStore, request: TimelineReportRequest) -> TimelineReportResult:
    [memories] = shaped(
        MemoryActivityRow,
        await db.read(
            "recall/get_report_memory_activity",
            project=request.project,
            max_rows=MAX_REPORT_ROWS,
            recent=REPORT_RECENT if request.full else 0,
        ),
    )
    turns = shaped(
        TurnActivityRow,
        await db.read(
            "recall/get_report_turn_activity", project=request.project, max_rows=MAX_REPORT_ROWS
        ),
    )
    stats = report_stats(memories["groups"], turns, request.full, MAX_REPORT_ROWS)
    markdown = render_report(
        request.project, stats, memories["recent"], request.full, MAX_REPORT_ROWS
    )
    return TimelineReportResult(
        project=request.project, full=request.full, markdown=markdown, stats=stats
    )
