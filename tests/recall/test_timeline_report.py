"""timeline_report's pure part: folding the aggregate rows into stats, and the Markdown."""

from __future__ import annotations

import pytest

from graphmem.memories.models.memories import MemoryStatus, MemoryType
from graphmem.recall.report import render_report, report_stats
from graphmem.recall.rows import MemoryGroupRow, RecentMemoryRow, TurnActivityRow

pytestmark = pytest.mark.pure


def group(
    status: MemoryStatus, type: MemoryType, month: int, memories: int, tokens: int, **extra: int
) -> MemoryGroupRow:
    instant = f"2024-{month:02d}-10T08:00:00Z"
    return {
        "year": 2024,
        "month": month,
        "status": status,
        "type": type,
        "memories": memories,
        "tokens": tokens,
        "served": extra.get("served", 0),
        "reads": extra.get("reads", 0),
        "first": instant,
        "last": instant,
    }


def turns(session: str, month: int, count: int, tokens: int, day: int = 1) -> TurnActivityRow:
    instant = f"2024-{month:02d}-{day:02d}T00:00:00Z"
    return {
        "session_id": session,
        "year": 2024,
        "month": month,
        "turns": count,
        "tokens": tokens,
        "quarantined": 0,
        "first": instant,
        "last": instant,
    }


def test_a_session_starts_in_the_month_of_its_earliest_turn() -> None:
    rows = [turns("s", 3, 2, 10), turns("s", 1, 1, 5), turns("t", 3, 1, 1, day=20)]
    stats = report_stats([], rows, full=True)
    by_month = {m.month: (m.turns, m.sessions) for m in stats.months}
    assert by_month == {"2024-03": (3, 1), "2024-01": (1, 1)}
    assert (stats.sessions, stats.turns, stats.tokens.raw_tokens) == (2, 4, 16)
    assert (str(stats.first_activity), str(stats.last_activity), stats.span_days) == (
        "2024-01-01",
        "2024-03-20",
        80,
    )


def test_ratios_and_their_absence() -> None:
    groups = [
        group("active", "decision", 1, 2, 30, served=60, reads=2),
        group("stale", "decision", 1, 1, 10),
        group("deleted", "note", 2, 1, 20, served=20, reads=1),
    ]
    stats = report_stats(groups, [turns("s", 1, 3, 90)], full=False)
    tokens = stats.tokens
    assert (tokens.investment_tokens, tokens.return_tokens, tokens.memory_reads) == (60, 80, 3)
    assert (tokens.roi, tokens.active_memory_tokens, tokens.compression) == (1.3333, 30, 3.0)
    assert [(t.type, t.memories, t.percent) for t in stats.by_type] == [("decision", 3, 100.0)]
    empty = report_stats([], [turns("s", 1, 1, 4)], full=False).tokens
    assert (empty.roi, empty.compression) == (None, None)
    only_stale = report_stats([group("stale", "note", 1, 1, 8)], [], full=False).tokens
    assert (only_stale.roi, only_stale.compression) == (0.0, None)


def test_compact_shows_six_months_and_counts_the_rest() -> None:
    groups = [group("active", "note", m, 1, 1) for m in range(1, 10)]
    compact = report_stats(groups, [], full=False)
    assert [m.month for m in compact.months] == [f"2024-{m:02d}" for m in range(9, 3, -1)]
    assert compact.months_omitted == 3
    full = report_stats(groups, [], full=True)
    assert (len(full.months), full.months_omitted) == (9, 0)


def test_capped_when_a_scan_reaches_its_bound() -> None:
    assert report_stats([group("active", "note", 1, 5, 1)], [], False, max_rows=5).capped
    assert not report_stats([group("active", "note", 1, 4, 1)], [], False, max_rows=5).capped


def test_markdown_sections_and_withheld_titles() -> None:
    stats = report_stats(
        [group("active", "note", 1, 1, 4), group("rejected", "note", 1, 1, 4)], [], True
    )
    recent: list[RecentMemoryRow] = [
        {
            "id": "m2",
            "type": "note",
            "title": "bad\ntitle",
            "status": "rejected",
            "created_at": "2024-01-10T08:00:00Z",
        },
        {
            "id": "m1",
            "type": "note",
            "title": "two\n lines",
            "status": "active",
            "created_at": "2024-01-09T08:00:00Z",
        },
    ]
    text = render_report("p", stats, recent, full=True)
    assert "- m1 [note] two lines (active)" in text
    assert "- m2 [note] (title withheld) (rejected)" in text and "bad" not in text
    assert text.index("### 2024-01-10") < text.index("### 2024-01-09")
    assert "Memory versions by day (UTC): all 2." in text
    compact = render_report("p", stats, [], full=False)
    assert "## Timeline" not in compact and "## Activity history" in compact
    empty = render_report("p", report_stats([], [], False), [], full=False)
    assert empty == "# Journey into p\n\nNo memories and no archived turns for this project yet.\n"
