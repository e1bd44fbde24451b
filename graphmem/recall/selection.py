"""recall_user_context's selection, pure: the order of the source groups by task intent, and
the walk that includes a candidate or drops it with its reason (graphmem/recall/recall.py gives
the rules). No database."""

from __future__ import annotations

from dataclasses import dataclass, field

from graphmem.recall.models.recall import (
    RecallDropped,
    RecallDropReason,
    RecallItem,
    RecallRequest,
    RecallSource,
)
from graphmem.recall.texts import clip
from graphmem.screening.gate import screen

TEXT_CHARS = 500
TITLE_CHARS = 120


@dataclass
class Candidate:
    source_type: RecallSource
    source_id: str
    title: str
    text: str
    reasons: list[str]
    identity: str  # what makes two candidates the same thing: memory:<id>, fact:<key>, ...
    drop: RecallDropReason | None = None  # decided before selection (quarantined, ...)
    redacted: bool = False  # saved with redactions
    group: str = field(default="")  # the source group the intent orders


DEFAULT_ORDER = (
    "current_state",
    "safe_claim",
    "preference",
    "failure_memory",
    "memory",
    "workstream",
    "session",
)
INTENT_LEADS = {"apply_preference": "preference", "debug_failure": "failure_memory"}


def group_order(intent: str | None) -> list[str]:
    """The default order, with the intent's source group moved to the front."""
    lead = INTENT_LEADS.get(intent or "")
    return ([lead] if lead else []) + [group for group in DEFAULT_ORDER if group != lead]


def line(item: RecallItem) -> str:
    return f"[{item.source_type}] {item.title}: {item.text}"


def select(
    candidates: list[Candidate], request: RecallRequest
) -> tuple[list[RecallItem], list[RecallDropped]]:
    included: list[RecallItem] = []
    dropped: list[RecallDropped] = []
    seen: set[str] = set()
    used = 0
    for candidate in candidates:
        item, reason = _screened(candidate, request.include_sensitive)
        if candidate.identity in seen or (item and _text_key(item) in seen):
            reason = "duplicate"
        seen.add(candidate.identity)
        if reason is None and item is not None:
            cost = len(line(item)) + (1 if included else 0)  # the newline before it
            if len(included) >= request.limit:
                reason = "limit_reached"
            elif used + cost > request.budget_chars:
                reason = "budget_exhausted"
            else:
                included.append(item)
                seen.add(_text_key(item))
                used += cost
                continue
        assert reason is not None  # _screened gives the item or the reason it may not be shown
        dropped.append(
            RecallDropped(
                source_type=candidate.source_type,
                source_id=candidate.source_id,
                label=clip(candidate.title, TITLE_CHARS),
                reason_code=reason,
            )
        )
    return included, dropped


def _text_key(item: RecallItem) -> str:
    return "text:" + " ".join(f"{item.title} {item.text}".split()).casefold()


def _screened(
    candidate: Candidate, include_sensitive: bool
) -> tuple[RecallItem | None, RecallDropReason | None]:
    """The item as it may be shown, or the reason it may not."""
    if candidate.drop is not None:
        return None, candidate.drop
    title, text = screen(candidate.title), screen(candidate.text)
    if title.quarantine_reasons or text.quarantine_reasons:
        return None, "poisoning_gate"
    sensitive = candidate.redacted or bool(title.redactions or text.redactions)
    if sensitive and not include_sensitive:
        return None, "sensitive_excluded"
    reasons = [*candidate.reasons, *(["redacted"] if sensitive else [])]
    return RecallItem(
        source_type=candidate.source_type,
        source_id=candidate.source_id,
        title=clip(title.text, TITLE_CHARS),
        text=clip(text.text, TEXT_CHARS),
        reason_codes=reasons,
    ), None
