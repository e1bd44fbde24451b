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

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from graphmem.archive import service as archive
from graphmem.archive.models import SearchRawRequest
from graphmem.core.clock import parse_iso
from graphmem.core.errors import InvalidArgument, InvalidState, NotFound, first_row
from graphmem.core.models import pick
from graphmem.embeddings.embedder import Embedder
from graphmem.memories.models.memories import PREVIEW_CHARS
from graphmem.memories.service import preview
from graphmem.recall.models.timeline import (
    COMPACT_MONTHS,
    MAX_REPORT_MONTHS,
    MAX_REPORT_ROWS,
    REPORT_RECENT,
    MonthActivity,
    ReportStats,
    StatusCounts,
    TimelineItem,
    TimelineMemory,
    TimelineReportRequest,
    TimelineReportResult,
    TimelineRequest,
    TimelineResult,
    TimelineTurn,
    TokenRoi,
    TypeShare,
)
from graphmem.search import service as search
from graphmem.search.models import SearchRequest
from graphmem.store import TenantStore

SHOWN_STATUSES = ("active", "stale")
WITHHELD_STATUSES = frozenset({"quarantined", "rejected", "deleted"})


# --- timeline --------------------------------------------------------------------------------
async def timeline(
    db: TenantStore, request: TimelineRequest, embedder: Embedder | None = None
) -> TimelineResult:
    anchored_by = "anchor" if request.anchor is not None else "query"
    if request.anchor is None and not (request.query or "").strip():
        raise InvalidArgument("anchor", "give an anchor id or a non-blank query")
    if request.source == "raw":
        anchor = request.anchor or await _top_turn(db, request)
        return await _turn_timeline(db, request, anchor, anchored_by)
    anchor = request.anchor or await _top_memory(db, request, embedder)
    return await _memory_timeline(db, request, anchor, anchored_by)


def _no_match(query: str) -> NotFound:
    shown = query if len(query) <= 200 else query[:199] + "…"
    return NotFound("match for query", shown)


async def _top_memory(db: TenantStore, request: TimelineRequest, embedder: Embedder | None) -> str:
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
        embedder,
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
    db: TenantStore, request: TimelineRequest, anchor: str, anchored_by: str
) -> TimelineResult:
    statuses = _statuses(request.include_stale)
    rows = await db.read(
        "recall/get_memory_timeline",
        anchor=anchor,
        statuses=statuses,
        preview_chars=PREVIEW_CHARS,
        **pick(request, "project depth_before depth_after"),
    )
    row = first_row(rows, "memory", anchor)
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
    db: TenantStore, request: TimelineRequest, anchor: str, anchored_by: str
) -> TimelineResult:
    rows = await db.read(
        "recall/get_turn_timeline",
        anchor=anchor,
        **pick(request, "project depth_before depth_after"),
        preview_chars=PREVIEW_CHARS,
    )
    row = first_row(rows, "turn", anchor)
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
    anchored_by: str,
    project: str,
    anchor: TimelineItem,
    before: list[TimelineItem],
    after: list[TimelineItem],
) -> TimelineResult:
    """The query returns each side nearest first with one extra row (it says more exist)."""
    return TimelineResult(
        source=request.source,
        anchored_by=anchored_by,  # type: ignore[arg-type]
        project=project,
        anchor=anchor,
        before=list(reversed(before[: request.depth_before])),
        after=after[: request.depth_after],
        more_before=len(before) > request.depth_before,
        more_after=len(after) > request.depth_after,
    )


def _memory_item(memory: dict[str, Any]) -> TimelineMemory:
    return TimelineMemory(
        id=memory["id"],
        type=memory["type"],
        title=memory["title"],
        preview=preview(memory["content"]),
        topic_key=memory.get("topic_key"),
        topic_version=memory.get("topic_version") or 1,
        status=memory["status"],
        created_at=memory["created_at"],
        session_id=memory.get("session_id"),
    )


def _turn_item(turn: dict[str, Any], session_id: str, session_ref: str) -> TimelineTurn:
    return TimelineTurn(
        id=turn["id"],
        session_id=session_id,
        session_ref=session_ref,
        role=turn["role"],
        ts=turn["ts"],
        seq=turn["seq"],
        preview=preview(turn["content"]),
        quarantined=bool(turn.get("quarantined")),
    )


# --- timeline_report: reading ----------------------------------------------------------------
async def timeline_report(db: TenantStore, request: TimelineReportRequest) -> TimelineReportResult:
    [memories] = await db.read(
        "recall/get_report_memory_activity",
        project=request.project,
        max_rows=MAX_REPORT_ROWS,
        recent=REPORT_RECENT if request.full else 0,
    )
    turns = await db.read(
        "recall/get_report_turn_activity", project=request.project, max_rows=MAX_REPORT_ROWS
    )
    stats = report_stats(memories["groups"], turns, request.full, MAX_REPORT_ROWS)
    markdown = render_report(request.project, stats, memories["recent"], request.full)
    return TimelineReportResult(
        project=request.project, full=request.full, markdown=markdown, stats=stats
    )


# --- timeline_report: numbers (pure) ---------------------------------------------------------
@dataclass
class _Month:
    memories: int = 0
    turns: int = 0
    sessions: int = 0


@dataclass
class _Totals:
    statuses: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    types: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    months: dict[str, _Month] = field(default_factory=lambda: defaultdict(_Month))
    instants: list[str] = field(default_factory=list)
    investment: int = 0
    served: int = 0
    reads: int = 0
    active_tokens: int = 0
    raw_tokens: int = 0
    turns: int = 0
    quarantined_turns: int = 0
    memory_rows: int = 0


def _month(row: dict[str, Any]) -> str:
    return f"{row['year']:04d}-{row['month']:02d}"


def _add_memories(totals: _Totals, groups: Sequence[dict[str, Any]]) -> None:
    for group in groups:
        count, status = group["memories"], group["status"]
        totals.memory_rows += count
        totals.statuses[status] += count
        if status in SHOWN_STATUSES:
            totals.types[group["type"]] += count
        if status == "active":
            totals.active_tokens += group["tokens"]
        totals.months[_month(group)].memories += count
        totals.investment += group["tokens"]
        totals.served += group["served"]
        totals.reads += group["reads"]
        totals.instants += [group["first"], group["last"]]


def _add_turns(totals: _Totals, rows: Sequence[dict[str, Any]]) -> int:
    """Folds the (session, month) rows in; returns the number of sessions."""
    started: dict[str, tuple[str, str]] = {}  # session -> (first instant, its month)
    for row in rows:
        month = _month(row)
        totals.turns += row["turns"]
        totals.raw_tokens += row["tokens"]
        totals.quarantined_turns += row["quarantined"]
        totals.months[month].turns += row["turns"]
        totals.instants += [row["first"], row["last"]]
        known = started.get(row["session_id"])
        if known is None or parse_iso(row["first"]) < parse_iso(known[0]):
            started[row["session_id"]] = (row["first"], month)
    for _, month in started.values():
        totals.months[month].sessions += 1
    return len(started)


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


def _type_shares(types: dict[str, int]) -> list[TypeShare]:
    total = sum(types.values())
    ranked = sorted(types.items(), key=lambda kv: (-kv[1], kv[0]))
    return [
        TypeShare(type=name, memories=count, percent=round(100 * count / total, 1))
        for name, count in ranked
        if count
    ]


def report_stats(
    memory_groups: Sequence[dict[str, Any]],
    turn_rows: Sequence[dict[str, Any]],
    full: bool,
    max_rows: int = MAX_REPORT_ROWS,
) -> ReportStats:
    totals = _Totals()
    _add_memories(totals, memory_groups)
    sessions = _add_turns(totals, turn_rows)
    days = sorted(parse_iso(text).date() for text in totals.instants)
    first, last = (days[0], days[-1]) if days else (None, None)
    shown = MAX_REPORT_MONTHS if full else COMPACT_MONTHS
    months = sorted(totals.months.items(), reverse=True)
    return ReportStats(
        memories=totals.memory_rows,
        by_status=StatusCounts(
            **{k: v for k, v in totals.statuses.items() if k in StatusCounts.model_fields}
        ),
        by_type=_type_shares(totals.types),
        sessions=sessions,
        turns=totals.turns,
        quarantined_turns=totals.quarantined_turns,
        first_activity=first,
        last_activity=last,
        span_days=(last - first).days + 1 if first and last else 0,
        months=[
            MonthActivity(month=m, memories=a.memories, turns=a.turns, sessions=a.sessions)
            for m, a in months[:shown]
        ],
        months_omitted=max(0, len(months) - shown),
        tokens=TokenRoi(
            investment_tokens=totals.investment,
            return_tokens=totals.served,
            memory_reads=totals.reads,
            roi=_ratio(totals.served, totals.investment),
            raw_tokens=totals.raw_tokens,
            active_memory_tokens=totals.active_tokens,
            compression=_ratio(totals.raw_tokens, totals.active_tokens),
        ),
        capped=totals.memory_rows >= max_rows or totals.turns >= max_rows,
    )


# --- timeline_report: Markdown (pure) --------------------------------------------------------
def render_report(
    project: str, stats: ReportStats, recent: Sequence[dict[str, Any]], full: bool
) -> str:
    title = f"# Journey into {project}"
    if stats.memories == 0 and stats.turns == 0:
        return f"{title}\n\nNo memories and no archived turns for this project yet.\n"
    sections = [
        title,
        _overview(stats),
        _types(stats),
        _months(stats, full),
        _roi(stats.tokens, stats.memories, stats.turns),
    ]
    if full:
        sections.append(_timeline(recent, stats.memories))
    return "\n\n".join(sections) + "\n"


def _n(value: int) -> str:
    return f"{value:,}"


def _count(value: int, noun: str) -> str:
    return f"{value:,} {noun}{'' if value == 1 else 's'}"


def _overview(stats: ReportStats) -> str:
    s = stats.by_status
    lines = [
        "## Overview",
        f"- Activity: {stats.first_activity} → {stats.last_activity} "
        f"({_n(stats.span_days)} days, UTC)",
        f"- Memories: {_count(stats.memories, 'version')} (active {_n(s.active)}, stale "
        f"{_n(s.stale)}, quarantined {_n(s.quarantined)}, rejected {_n(s.rejected)}, "
        f"deleted {_n(s.deleted)})",
        f"- Raw archive: {_count(stats.sessions, 'session')}, {_count(stats.turns, 'turn')} "
        f"({_n(stats.quarantined_turns)} quarantined)",
    ]
    if stats.capped:
        lines.append(
            f"- Capped: a scan reached {_n(MAX_REPORT_ROWS)} rows; older memories or turns "
            "are not counted."
        )
    return "\n".join(lines)


def _types(stats: ReportStats) -> str:
    lines = ["## Activity by type"]
    if stats.by_type:
        lines += ["| Type | Memories | Share |", "|---|---:|---:|"]
        lines += [f"| {t.type} | {_n(t.memories)} | {t.percent:.1f}% |" for t in stats.by_type]
    else:
        lines.append("No active or stale memories.")
    lines.append(f"\nQuarantined memories (not counted above): {_n(stats.by_status.quarantined)}.")
    return "\n".join(lines)


def _months(stats: ReportStats, full: bool) -> str:
    heading = (
        "## Monthly breakdown (UTC)"
        if full
        else f"## Activity history (last {COMPACT_MONTHS} months with activity, UTC)"
    )
    lines = [
        heading,
        "| Month | Memories saved | Turns archived | Sessions started |",
        "|---|---:|---:|---:|",
        *(
            f"| {m.month} | {_n(m.memories)} | {_n(m.turns)} | {_n(m.sessions)} |"
            for m in stats.months
        ),
    ]
    if stats.months_omitted:
        hint = "" if full else " (full=true lists them)"
        lines.append(f"\n{_n(stats.months_omitted)} earlier months with activity not shown{hint}.")
    return "\n".join(lines)


def _roi(tokens: TokenRoi, memories: int, turns: int) -> str:
    roi = (
        f"{_n(tokens.return_tokens)} ÷ {_n(tokens.investment_tokens)} = {tokens.roi:.2f}"
        if tokens.roi is not None
        else "n/a (no memory saved yet)"
    )
    compression = (
        f"{_n(tokens.raw_tokens)} ÷ {_n(tokens.active_memory_tokens)} = {tokens.compression:.2f}x"
        if tokens.compression is not None
        else "n/a (no active memory)"
    )
    return "\n".join(
        [
            "## Token ROI",
            "Tokens are estimated as ceil(characters / 4).",
            f"- Investment: {_n(tokens.investment_tokens)} tokens written into curated memories "
            f"(title + content of {_count(memories, 'saved version')}).",
            f"- Return: {_n(tokens.return_tokens)} tokens served back to agents by "
            f"get_observations ({_count(tokens.memory_reads, 'read')}; Σ access_count * the "
            "memory's tokens).",
            f"- ROI = return ÷ investment = {roi}",
            f"- Raw archive: {_n(tokens.raw_tokens)} tokens in {_count(turns, 'turn')}.",
            f"- Compression = raw-archive tokens ÷ tokens of active memories = {compression}: "
            "what the curated layer saves a reader compared with rereading the conversation.",
        ]
    )


def _timeline(recent: Sequence[dict[str, Any]], total: int) -> str:
    shown = len(recent)
    scope = f"all {_n(total)}" if shown >= total else f"the {_n(shown)} newest of {_n(total)}"
    lines = ["## Timeline (recent first)", f"Memory versions by day (UTC): {scope}."]
    day: date | None = None
    for memory in recent:
        created = parse_iso(memory["created_at"]).date()
        if created != day:
            day = created
            lines += ["", f"### {created}"]
        lines.append(f"- {memory['id']} [{memory['type']}] {_title(memory)} ({memory['status']})")
    return "\n".join(lines)


def _title(memory: dict[str, Any]) -> str:
    if memory["status"] in WITHHELD_STATUSES:
        return "(title withheld)"
    return " ".join(memory["title"].split())  # one line, whatever the title holds
