"""context_bundle: a policy-bounded, source-attributed context bundle with a complete audit,
optionally as the graph knew it at a past instant. Read-only and deterministic: the same graph
and inputs give the same bundle and the same plan_hash.

Time:
- Without as_of_epoch the bundle reflects now: memories by their status (active: current;
  stale with a successor: superseded; quarantined).
- With as_of_epoch T (seconds, fractions allowed, never in the future) it reflects what the
  graph knew and held true at T (transaction time): a memory counts when it was created by T
  and active at T (active_from ≤ T, retired_at unset or after T); it is ``superseded`` at T
  when it was retired by T by a successor created by T; it is quarantined at T when it was
  created by T but not yet active (active_from unset or after T). Memories created after T
  are audited ``not_yet_known``. Facts: each project key's fact that was active at T and not
  lapsed at T (its transaction-time FactState). Workstreams and sessions: those created by T,
  with their *current* fields (status, progress, next action, message counts); session
  samples only from turns archived by T.
- Rejected and deleted memories never appear, whatever T: governance removed them from every
  bundle.

Sections (channel, share of token_budget, item limit):
  preferences (preferences, 9%, 20): preference memories, newest first;
  failure_lessons (lessons, 7.5%, 4): bug-fix and lesson memories, by relevance;
  current_truth (core, 19%, 6): the project's current facts, by relevance;
  workstreams (workstreams, 7.5%, 5): active then paused, newest update first;
  memory_index (memory_index, 25%, 50): every other memory, by relevance;
  recent_sessions (sessions, 14%, 5): raw-archive sessions, newest first.
The remaining 18% is a shared reserve. Relevance of memories is search's full-text (BM25)
rank of the task in the project (graphmem/search/service.py, channel fulltext only, so it is
deterministic); of facts, the number of task terms their key and value share. Relevant items
come first (``relevance_selected``), then the rest newest first (``channel_default_selected``);
superseded versions (include_superseded) come after the current ones of their section.

Selection: sections are walked in the role's order (coder: core, lessons, preferences,
workstreams, memory_index, sessions; reviewer: lessons, core, memory_index, preferences,
workstreams, sessions; planner: workstreams, core, memory_index, preferences, lessons,
sessions; researcher: memory_index, core, sessions, lessons, preferences, workstreams), items
in section order. An item costs ceil((title + text characters + 1) / 4) tokens. It is dropped
as quarantined_trust (quarantined then), superseded_excluded (superseded then, without
include_superseded), stale_excluded (retired without a successor), branch_scope_mismatch (a
branch was given and the memory names another), poisoning_gate (its text, re-screened now,
reads as instructions to the agent), below_trust_floor (risk high: sessions, unreviewed raw
conversation), channel_item_limit, channel_token_budget (neither its section's share nor the
reserve holds it) or total_token_budget (the bundle's remaining tokens do not). The total
never exceeds token_budget. Secrets the gate finds in a text are shown redacted.

The plan_hash is the sha256 of the canonical JSON of the inputs (as_of normalised) and the
policy (version, shares, limits, role order). No writes: the gate only drops.
"""

from __future__ import annotations

import asyncio
import time
from datetime import datetime

from graphmem.core.clock import from_epoch, parse_iso, utc_now_iso
from graphmem.core.errors import InvalidArgument
from graphmem.core.models import owner_of
from graphmem.recall.bundle_policy import (
    POLICY_VERSION,
    SECTIONS,
    Candidate,
    bundle_item,
    memory_candidate,
    memory_channel,
    plan_hash,
    section_budgets,
    select,
    task_terms,
    unknown_entry,
)
from graphmem.recall.models.recall import (
    BUNDLE_SCHEMA_VERSION,
    AuditEntry,
    BundleAudit,
    BundleItem,
    BundleRequest,
    ContextBundle,
)
from graphmem.recall.rows import (
    BundleFactRow,
    BundleMemoryAfterRow,
    BundleMemoryRow,
    BundleSessionRow,
)
from graphmem.recall.texts import clip, session_text, workstream_text
from graphmem.search.channels.names import ChannelName
from graphmem.search.models import MAX_LIMIT
from graphmem.search.service import search_memories_for
from graphmem.store import Params, TenantStore, shaped
from graphmem.workstreams.models import ListWorkstreamsRequest
from graphmem.workstreams.service import list_workstreams

MEMORY_CAP = 1_000
NOT_YET_KNOWN_CAP = 20
FACT_KEY_CAP = 2_000
SESSION_FETCH = 10
WORKSTREAM_FETCH = 20
FAR_FUTURE = "9999-12-31T23:59:59Z"
TRUSTED_SOURCES = frozenset({"human_confirmed", "production_verified"})


def _instant(epoch: float | None) -> datetime | None:
    if epoch is None:
        return None
    if epoch > time.time():
        raise InvalidArgument("as_of_epoch", "must not be in the future")
    return from_epoch(epoch)


async def context_bundle(db: TenantStore, request: BundleRequest) -> ContextBundle:
    at = _instant(request.as_of_epoch)
    as_of = at.isoformat() if at else None
    memories, unknown, facts, workstreams, sessions = await asyncio.gather(
        _memories(db, request, as_of),
        _not_yet_known(db, request.project, as_of),
        _facts(db, request, as_of),
        _workstreams(db, request.project, at),
        _sessions(db, request, as_of),
    )
    candidates = [*memories, *facts, *workstreams[0], *sessions]
    selected, entries = select(candidates, request)
    entries += [*unknown, *workstreams[1]]
    sections: dict[str, list[BundleItem]] = {s.name: [] for s in SECTIONS.values()}
    for candidate in selected:
        sections[SECTIONS[candidate.channel].name].append(bundle_item(candidate, request.project))
    digest = plan_hash(request, as_of)
    chosen = sum(e.token_estimate for e in entries if e.selected)
    return ContextBundle(
        schema_version=BUNDLE_SCHEMA_VERSION,
        plan_hash=digest,
        task=request.task,
        project=request.project,
        branch=request.branch,
        role=request.role,
        risk=request.risk,
        as_of=as_of,
        include_superseded=request.include_superseded,
        **sections,
        audit=BundleAudit(
            schema_version=BUNDLE_SCHEMA_VERSION,
            policy_version=POLICY_VERSION,
            plan_hash=digest,
            as_of=as_of,
            candidates_considered=len(entries),
            selected_count=len(selected),
            dropped_count=len(entries) - len(selected),
            token_estimate=chosen,
            token_budget=request.token_budget,
            section_budgets=section_budgets(request.token_budget),
            entries=entries,
        ),
    )


# --- memories --------------------------------------------------------------------------------
async def _relevance(db: TenantStore, request: BundleRequest) -> dict[str, int]:
    """Memory id -> full-text rank of the task in the project (current and stale versions)."""
    ranked = await search_memories_for(
        db,
        request.task,
        project=request.project,
        include_stale=True,
        limit=MAX_LIMIT,
        channels=[ChannelName.FULLTEXT],
    )
    return {hit.id: rank for rank, hit in enumerate(ranked.results, start=1)}


async def _memories(db: TenantStore, request: BundleRequest, as_of: str | None) -> list[Candidate]:
    read, ranks = await asyncio.gather(
        db.read(
            "recall/list_bundle_memories",
            project=request.project,
            known_until=as_of or FAR_FUTURE,
            at=as_of,
            cap=MEMORY_CAP,
            text_chars=max(s.text_chars for s in SECTIONS.values()),
        ),
        _relevance(db, request),
    )
    rows = shaped(BundleMemoryRow, read)
    candidates = [memory_candidate(row, request, ranks) for row in rows]
    # Section order: relevant first by rank, then newest first; superseded after current.
    position = {row["id"]: i for i, row in enumerate(rows)}  # rows are newest first

    def order(c: Candidate) -> tuple[bool, bool, int]:
        place = ranks[c.canonical_ref] if c.relevant else position[c.canonical_ref]
        return (c.validity == "superseded", not c.relevant, place)

    return sorted(candidates, key=order)


async def _not_yet_known(db: TenantStore, project: str, as_of: str | None) -> list[AuditEntry]:
    if as_of is None:
        return []
    rows = shaped(
        BundleMemoryAfterRow,
        await db.read(
            "recall/list_bundle_memories_after", project=project, at=as_of, cap=NOT_YET_KNOWN_CAP
        ),
    )
    return [unknown_entry(f"memory:{row['id']}", memory_channel(row["type"])) for row in rows]


# --- facts, workstreams, sessions ------------------------------------------------------------
async def _facts(db: TenantStore, request: BundleRequest, as_of: str | None) -> list[Candidate]:
    common: Params = {"owner": owner_of(request.project, None), "key_cap": FACT_KEY_CAP}
    if as_of is None:
        now = utc_now_iso()
        read = await db.read("recall/list_bundle_current_facts", now=now, **common)
    else:
        read = await db.read("recall/list_bundle_facts_at", at=as_of, **common)
    rows = shaped(BundleFactRow, read)
    wanted = task_terms(request.task)

    def candidate(row: BundleFactRow) -> Candidate:
        trusted = (
            row["source_class"] in TRUSTED_SOURCES or row["verification_status"] == "verified"
        ) and row["contradiction_count"] == 0
        text = f"{row['key']} = {row['value_json']}"
        return Candidate(
            stable_key=f"fact:{row['key']}",
            channel="core",
            title=row["key"],
            text=clip(text, SECTIONS["core"].text_chars),
            canonical_ref=row["id"],
            trust="trusted" if trusted else "standard",
            relevant=bool(wanted & task_terms(text)),
        )

    scored = [(len(wanted & task_terms(f"{r['key']} {r['value_json']}")), r) for r in rows]
    scored.sort(key=lambda pair: (-pair[0], _descending(pair[1]["recorded_at"]), pair[1]["key"]))
    return [candidate(row) for _, row in scored]


def _descending(instant: str) -> tuple[float, str]:
    return (-parse_iso(instant).timestamp(), instant)


async def _workstreams(
    db: TenantStore, project: str, at: datetime | None
) -> tuple[list[Candidate], list[AuditEntry]]:
    pages = await asyncio.gather(
        *(
            list_workstreams(
                db, ListWorkstreamsRequest(project=project, status=status, limit=WORKSTREAM_FETCH)
            )
            for status in ("active", "paused")
        )
    )
    known: list[Candidate] = []
    unknown: list[AuditEntry] = []
    for w in (w for page in pages for w in page.workstreams):
        key = f"workstream:{w.id}"
        if at is not None and (w.created_at is None or w.created_at > at):
            unknown.append(unknown_entry(key, "workstreams"))
            continue
        text = clip(workstream_text(w), SECTIONS["workstreams"].text_chars)
        known.append(Candidate(key, "workstreams", w.title, text, w.id))
    return known, unknown


async def _sessions(db: TenantStore, request: BundleRequest, as_of: str | None) -> list[Candidate]:
    rows = shaped(
        BundleSessionRow,
        await db.read(
            "recall/list_bundle_sessions",
            project=request.project,
            known_until=as_of or FAR_FUTURE,
            limit=SESSION_FETCH,
            sample_chars=SECTIONS["sessions"].text_chars,
        ),
    )
    return [
        Candidate(
            stable_key=f"session:{row['id']}",
            channel="sessions",
            title=row["session_ref"],
            text=clip(
                session_text(
                    row["host"],
                    row["first_ts"],
                    row["last_ts"],
                    row["message_count"],
                    row["samples"],
                ),
                SECTIONS["sessions"].text_chars,
            ),
            canonical_ref=row["id"],
            source_kind="graph_derived",
            drop="below_trust_floor" if request.risk == "high" else None,
        )
        for row in rows
    ]
