"""Time, in one place: the current instant and ISO 8601 text to and from instants.

Every stored instant is an aware ``datetime`` (UTC when graphmem makes it); Cypher receives
instants as ISO text (``datetime($now)``) and returns them as driver temporals the store turns
into ``datetime``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime


def utc_now() -> datetime:
    return datetime.now(UTC)


def utc_now_iso() -> str:
    return utc_now().isoformat()


def iso(value: datetime | None) -> str | None:
    """ISO 8601 text of an instant, None for None."""
    return value.isoformat() if value is not None else None


def parse_iso(text: str) -> datetime:
    """An instant from ISO 8601 text graphmem wrote (``Z`` accepted for UTC)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def parse_iso_or_none(text: str | None) -> datetime | None:
    return parse_iso(text) if text else None


def start_of_day(day: str) -> datetime:
    """Midnight UTC of an ISO 8601 date."""
    return datetime.combine(date.fromisoformat(day), datetime.min.time(), tzinfo=UTC)


def from_epoch(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def canonical_utc(moment: datetime) -> str:
    """ISO 8601 in UTC with a trailing ``Z``; microseconds only when nonzero (signed text)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"instant without a timezone: {moment!r}")
    moment = moment.astimezone(UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        text += f".{moment.microsecond:06d}"
    return text + "Z"


def utc_iso(moment: datetime) -> str:
    """ISO 8601 of an instant converted to UTC (``+00:00``): stored text that sorts in time."""
    return moment.astimezone(UTC).isoformat()
