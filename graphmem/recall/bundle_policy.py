"""context_bundle's policy, pure: the sections and their shares, the role orders, the plan
hash, a memory row made a candidate, and the selection walk under the token budget
(graphmem/recall/bundles.py gives the rules and reads the candidates). No database."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from graphmem.core.models import canonical_json
from graphmem.core.text import STOP_WORDS, stem, words
from graphmem.recall.models.recall import (
    BUNDLE_SCHEMA_VERSION,
    AuditEntry,
    AuditReason,
    BundleItem,
    BundleRequest,
    Channel,
    SourceKind,
    Trust,
    Validity,
)
from graphmem.recall.rows import BundleMemoryRow
from graphmem.recall.texts import clip
from graphmem.screening.gate import screen

POLICY_VERSION = "graphmem_bundle_v1"


@dataclass(frozen=True)
class Section:
    name: str
    channel: Channel
    share: float
    limit: int
    text_chars: int


SECTIONS = {
    s.channel: s
    for s in (
        Section("preferences", "preferences", 0.09, 20, 400),
        Section("failure_lessons", "lessons", 0.075, 4, 600),
        Section("current_truth", "core", 0.19, 6, 300),
        Section("workstreams", "workstreams", 0.075, 5, 300),
        Section("memory_index", "memory_index", 0.25, 50, 160),
        Section("recent_sessions", "sessions", 0.14, 5, 300),
    )
}
ROLE_ORDER: dict[str, tuple[Channel, ...]] = {
    "coder": ("core", "lessons", "preferences", "workstreams", "memory_index", "sessions"),
    "reviewer": ("lessons", "core", "memory_index", "preferences", "workstreams", "sessions"),
    "planner": ("workstreams", "core", "memory_index", "preferences", "lessons", "sessions"),
    "researcher": ("memory_index", "core", "sessions", "lessons", "preferences", "workstreams"),
}
TITLE_CHARS = 120


@dataclass
class Candidate:
    stable_key: str
    channel: Channel
    title: str
    text: str
    canonical_ref: str
    source_kind: SourceKind = "canonical"
    validity: Validity = "current"
    trust: Trust = "standard"
    branch: str | None = None
    relevant: bool = False
    drop: AuditReason | None = None  # decided before the budget walk


def token_estimate(title: str, text: str) -> int:
    return math.ceil((len(title) + len(text) + 1) / 4)


def section_budgets(token_budget: int) -> dict[str, int]:
    return {s.name: math.floor(token_budget * s.share) for s in SECTIONS.values()}


def plan_hash(request: BundleRequest, as_of: str | None) -> str:
    body = {
        "schema_version": BUNDLE_SCHEMA_VERSION,
        "policy_version": POLICY_VERSION,
        "task": request.task,
        "project": request.project,
        "branch": request.branch,
        "role": request.role,
        "risk": request.risk,
        "token_budget": request.token_budget,
        "as_of": as_of,
        "include_superseded": request.include_superseded,
        "sections": [[s.name, s.channel, s.share, s.limit] for s in SECTIONS.values()],
        "order": list(ROLE_ORDER[request.role]),
    }
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def memory_channel(memory_type: str) -> Channel:
    if memory_type == "preference":
        return "preferences"
    return "lessons" if memory_type in ("bugfix", "lesson") else "memory_index"


def memory_candidate(
    row: BundleMemoryRow, request: BundleRequest, ranks: dict[str, int]
) -> Candidate:
    channel = memory_channel(row["type"])
    candidate = Candidate(
        stable_key=f"memory:{row['id']}",
        channel=channel,
        title=row["title"],
        text=clip(row["text"], SECTIONS[channel].text_chars),
        canonical_ref=row["id"],
        branch=row["branch"],
        relevant=channel != "preferences" and row["id"] in ranks,
    )
    if row["quarantined"]:
        candidate.trust, candidate.drop = "quarantined", "quarantined_trust"
    elif row["superseded"]:
        candidate.validity = "superseded"
        candidate.drop = None if request.include_superseded else "superseded_excluded"
    elif not row["live"]:
        candidate.validity, candidate.drop = "stale", "stale_excluded"
    if candidate.drop is None and _other_branch(request.branch, row["branch"]):
        candidate.drop = "branch_scope_mismatch"
    return candidate


def _other_branch(wanted: str | None, branch: str | None) -> bool:
    return wanted is not None and branch is not None and branch != wanted


def unknown_entry(stable_key: str, channel: Channel) -> AuditEntry:
    return AuditEntry(
        stable_key=stable_key,
        channel=channel,
        selected=False,
        reason="not_yet_known",
        token_estimate=0,
    )


def task_terms(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in STOP_WORDS and len(w) > 1}


def bundle_item(c: Candidate, project: str) -> BundleItem:
    return BundleItem(
        stable_key=c.stable_key,
        channel=c.channel,
        title=c.title,
        text=c.text,
        source_kind=c.source_kind,
        canonical_ref=c.canonical_ref,
        validity=c.validity,
        trust=c.trust,
        project=project,
        branch=c.branch,
    )


# --- selection -------------------------------------------------------------------------------
@dataclass
class _Budget:
    sections: dict[str, int]
    reserve: int
    total_left: int


def select(
    candidates: list[Candidate], request: BundleRequest
) -> tuple[list[Candidate], list[AuditEntry]]:
    shares = section_budgets(request.token_budget)
    budget = _Budget(
        {s.channel: shares[s.name] for s in SECTIONS.values()},
        request.token_budget - sum(shares.values()),
        request.token_budget,
    )
    counts = dict.fromkeys(SECTIONS, 0)
    selected: list[Candidate] = []
    entries: list[AuditEntry] = []
    for channel in ROLE_ORDER[request.role]:
        for candidate in (c for c in candidates if c.channel == channel):
            _screen(candidate)
            cost = token_estimate(candidate.title, candidate.text)
            reason = candidate.drop or _fit(candidate, cost, counts, budget)
            chosen = reason in ("relevance_selected", "channel_default_selected")
            if chosen:
                selected.append(candidate)
                counts[channel] += 1
            entries.append(
                AuditEntry(
                    stable_key=candidate.stable_key,
                    channel=channel,
                    selected=chosen,
                    reason=reason,
                    token_estimate=cost,
                )
            )
    return selected, entries


def _screen(candidate: Candidate) -> None:
    """Re-screen at read time: instructions drop the item, secrets are shown redacted."""
    if candidate.drop is not None:
        return
    title, text = screen(candidate.title), screen(candidate.text)
    if title.quarantine_reasons or text.quarantine_reasons:
        candidate.drop = "poisoning_gate"
        return
    candidate.title = clip(title.text, TITLE_CHARS)
    candidate.text = text.text


def _fit(candidate: Candidate, cost: int, counts: dict[str, int], budget: _Budget) -> AuditReason:
    channel = candidate.channel
    if counts[channel] >= SECTIONS[channel].limit:
        return "channel_item_limit"
    if cost <= budget.sections[channel]:
        budget.sections[channel] -= cost
    elif cost <= budget.reserve:
        budget.reserve -= cost
    elif cost > budget.total_left:
        return "total_token_budget"
    else:
        return "channel_token_budget"
    budget.total_left -= cost
    return "relevance_selected" if candidate.relevant else "channel_default_selected"
