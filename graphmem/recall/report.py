"""timeline_report's numbers and Markdown, pure: the aggregate rows folded into stats, and the
report rendered from them (graphmem/recall/timeline.py gives the rules and reads the rows). No
database."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from graphmem.core.clock import parse_iso
from graphmem.recall.models.timeline import (
    COMPACT_MONTHS,
    MAX_REPORT_MONTHS,
    MAX_REPORT_ROWS,
    MonthActivity,
    ReportStats,
    StatusCounts,
    TokenRoi,
    TypeShare,
)
from graphmem.recall.rows import MemoryGroupRow, RecentMemoryRow, TurnActivityRow

SHOWN_STATUSES = ("active", "stale")
WITHHELD_STATUSES = frozenset({"quarantined", "rejected", "deleted"})


# --- numbers ---------------------------------------------------------
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
    instants: list[str] = field(default_factory=list[str])
    investment: int = 0
    served: int = 0
    reads: int = 0
    active_tokens: int = 0
    raw_tokens: int = 0
    turns: int = 0
    quarantined_turns: int = 0
    memory_rows: int = 0


def _month(row: MemoryGroupRow | TurnActivityRow) -> str:
    return f"{row['year']:04d}-{row['month']:02d}"


def _add_memories(totals: _Totals, groups: Sequence[MemoryGroupRow]) -> None:
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


def _add_turns(totals: _Totals, rows: Sequence[TurnActivityRow]) -> int:
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
    memory_groups: Sequence[MemoryGroupRow],
    turn_rows: Sequence[TurnActivityRow],
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


# --- Markdown --------------------------------------------------------
def render_report(
    project: str,
    stats: ReportStats,
    recent: Sequence[RecentMemoryRow],
    full: bool,
    max_rows: int = MAX_REPORT_ROWS,
) -> str:
    title = f"# Journey into {project}"
    if stats.memories == 0 and stats.turns == 0:
        return f"{title}\n\nNo memories and no archived turns for this project yet.\n"
    sections = [
        title,
        _overview(stats, max_rows),
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


def _overview(stats: ReportStats, max_rows: int) -> str:
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
            f"- Capped: a scan reached {_n(max_rows)} rows; older memories or turns "
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


def _timeline(recent: Sequence[RecentMemoryRow], total: int) -> str:
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


def _title(memory: RecentMemoryRow) -> str:
    if memory["status"] in WITHHELD_STATUSES:
        return "(title withheld)"
    return " ".join(memory["title"].split())  # one line, whatever the title holds
