"""Curated memories' pure rules (graphmem/memories/service.py documents them): a save's fields
after the gate, when a topic's new version changes nothing, and the statuses govern_memory may
move a memory between. No database."""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from graphmem.core.errors import InvalidArgument, InvalidState, NotFound
from graphmem.memories.models.memories import (
    PREVIEW_CHARS,
    GovernAction,
    MemoryStatus,
    SaveMemoryRequest,
    SaveRedaction,
)
from graphmem.memories.rows import MemoryFields, MemoryNode, MemoryRow
from graphmem.screening.gate import screen

# Allowed moves of govern_memory: action -> statuses it may start from, and where it leads.
GOVERN_MOVES: dict[GovernAction, tuple[frozenset[MemoryStatus], MemoryStatus]] = {
    "stale": (frozenset({"active", "quarantined"}), "stale"),
    "reject": (frozenset({"active", "stale", "quarantined", "rejected"}), "rejected"),
    "delete": (frozenset({"active", "stale", "quarantined", "rejected", "deleted"}), "deleted"),
    "release": (frozenset({"quarantined"}), "active"),
}


def preview(content: str, size: int = PREVIEW_CHARS) -> str:
    return content if len(content) <= size else content[: size - 1].rstrip() + "…"


def _normalised(text: str) -> str:
    return " ".join(text.split()).casefold()


def same_content(active: MemoryNode, new: MemoryFields) -> bool:
    return (
        active["type"] == new["type"]
        and _normalised(active["title"]) == _normalised(new["title"])
        and _normalised(active["content"]) == _normalised(new["content"])
        and active.get("branch") == new["branch"]
        and sorted(active.get("tags") or []) == sorted(new["tags"])
        and sorted(active.get("files") or []) == sorted(new["files"])
    )


@dataclass(frozen=True)
class Screened:
    title: str
    content: str
    redactions: list[SaveRedaction]
    quarantine_reasons: list[str]


def screen_memory(request: SaveMemoryRequest) -> Screened:
    """The gate's verdict on the title and content; a name in ``about`` that it would redact or
    flag is refused (a name is kept as given, so it must be one)."""
    for position, name in enumerate(request.about):
        screened = screen(name)
        if screened.redactions or screened.quarantine_reasons:  # never echoed: it may be a secret
            raise InvalidArgument(f"about[{position}]", "the poisoning gate refuses it as a name")
    title, content = screen(request.title), screen(request.content)
    redactions = [
        *(
            SaveRedaction(field="title", kind=r.kind, start=r.start, end=r.end)
            for r in title.redactions
        ),
        *(
            SaveRedaction(field="content", kind=r.kind, start=r.start, end=r.end)
            for r in content.redactions
        ),
    ]
    reasons = list(dict.fromkeys(title.quarantine_reasons + content.quarantine_reasons))
    return Screened(title.text, content.text, redactions, reasons)


def memory_fields(request: SaveMemoryRequest, screened: Screened) -> MemoryFields:
    """The new version's stored fields, as the gate left them (search fields follow)."""
    fields: MemoryFields = {
        "project": request.project,
        "type": request.type,
        "title": screened.title,
        "content": screened.content,
        "topic_key": request.topic_key,
        "branch": request.branch,
        "tags": list(dict.fromkeys(request.tags)),
        "files": list(dict.fromkeys(request.files)),
        "status": "quarantined" if screened.quarantine_reasons else "active",
        "session_id": request.session_id,
        "quarantine_reasons": screened.quarantine_reasons,
        "redactions": [r.kind for r in screened.redactions],
        "about": list(dict.fromkeys(request.about)),
    }
    return fields


def touched(memory_id: str, superseded_id: str | None) -> list[str]:
    """The entities a memory's event names: the memory, and the version it superseded."""
    return [memory_id, *([superseded_id] if superseded_id else [])]


def require_all(ids: list[str], found: Container[str], kind: str) -> None:
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(kind, ", ".join(missing))


def governable(
    ids: list[str], rows: list[MemoryRow], action: GovernAction
) -> dict[str, MemoryNode]:
    """The memories by id, each in a status the action applies to."""
    allowed_from, _ = GOVERN_MOVES[action]
    found = {row["memory"]["id"]: row["memory"] for row in rows}
    require_all(ids, found, "memory")
    for memory_id in ids:
        status = found[memory_id]["status"]
        if status not in allowed_from:
            raise InvalidState(
                "memory", memory_id, status, f"{action} needs {sorted(allowed_from)}"
            )
    return found
