"""How recall_user_context and context_bundle show an item's text, pure: cut to a size on one
line, a workstream's state and a session's summary. No database."""

from __future__ import annotations

from graphmem.workstreams.models import Workstream


def clip(text: str, size: int) -> str:
    folded = " ".join(text.split())
    return folded if len(folded) <= size else folded[: size - 1].rstrip() + "…"


def workstream_text(w: Workstream) -> str:
    parts = [w.status]
    if w.progress is not None:
        parts.append(f"progress {w.progress}%")
    if w.next_action:
        parts.append(f"next: {w.next_action}")
    if w.blockers:
        parts.append("blockers: " + ", ".join(w.blockers))
    return "; ".join(parts)


def session_text(
    host: str, first_ts: str, last_ts: str, message_count: int, samples: list[str]
) -> str:
    text = f"{message_count} messages on {host}, {first_ts[:16]} to {last_ts[:16]}"
    return text + (f"; first user turn: {samples[0]}" if samples else "")
