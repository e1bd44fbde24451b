"""recall_user_context: a bounded, source-attributed context for one query in one project.

Rules:
- Scope: a non-blank query and an explicit project (there is no cwd mapping); read-only.
- Sources (each candidate is an item {source_type, source_id, title, text, reason_codes}):
  ``current_state``: each requested state key resolved in the project by the current_state
  domain (graphmem/facts/fact_state.py), text ``key = value``; a key whose status is not ``current``
  (no_current, not_found, unresolved_conflict) is dropped with that status as its reason.
  ``safe_claim``: the project's current facts whose claimed source is human_confirmed or
  production_verified (not lapsed; an open contradiction drops one as unresolved_conflict),
  newest first, at most 50 (keys read from the key-slot index, at most 2,000).
  ``preference``: the project's preference memories, newest update first (the profile).
  ``memory``: search's hybrid ranking (graphmem/search/service.py) of the query in the project,
  the task intent's retrieval plan applied, 3 x limit hits, no raw-archive fallback.
  ``workstream``: the project's active, then paused, workstreams, newest update first.
  ``session``: the project's 5 newest raw-archive sessions with their first user turn.
- Order of sources by task_intent: apply_preference puts preferences first; debug_failure puts
  bug-fix and lesson memories first; otherwise current state, safe claims, preferences,
  memories, workstreams, sessions.
- Selection walks that order. A candidate is dropped as ``duplicate`` (the same memory, fact
  key or text seen before), ``quarantined`` (a quarantined memory), ``poisoning_gate`` (its
  text, re-screened now by graphmem/screening/gate.py, reads as instructions to the agent),
  ``sensitive_excluded`` (include_sensitive=false and its text holds a secret the gate
  redacts, or the memory was saved with redactions; with include_sensitive the redacted text
  is used: a secret is never shown in clear), ``limit_reached`` (limit items already) or
  ``budget_exhausted`` (its line would take the context over budget_chars; later, shorter
  items may still fit). Everything else is included.
- Texts are cut to 500 characters and titles to 120. The context is one line per included
  item, ``[source_type] title: text``; used_chars is its length, never above budget_chars.
- The gate runs at read time and never writes: this is a read tool, so an unsafe text is only
  dropped (and listed), never quarantined in the graph.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from graphmem.archive.models import ListRawSessionsRequest
from graphmem.archive.service import list_raw_sessions
from graphmem.core.clock import utc_now_iso
from graphmem.core.models import canonical_json, owner_of
from graphmem.facts.fact_state import current_state
from graphmem.facts.models import CurrentStateRequest
from graphmem.recall.models.recall import (
    CandidateCounts,
    RecallDiagnostics,
    RecallRequest,
    RecallResult,
)
from graphmem.recall.rows import RecallMemoryRow, SafeClaimRow
from graphmem.recall.selection import TEXT_CHARS, Candidate, group_order, line, select
from graphmem.recall.texts import session_text, workstream_text
from graphmem.search.models import MAX_LIMIT, MAX_TOKEN_BUDGET, SearchRequest
from graphmem.search.service import search, search_memories_for
from graphmem.store import TenantStore, shaped
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval
from graphmem.workstreams.models import ListWorkstreamsRequest
from graphmem.workstreams.service import list_workstreams

SAFE_CLASSES = ["human_confirmed", "production_verified"]
SAFE_CLAIMS_LIMIT = 50
FACT_KEY_CAP = 2_000
WORKSTREAMS_PER_STATUS = 10
RECENT_SESSIONS = 5
FAILURE_TYPES = frozenset({"bugfix", "lesson"})


async def recall_user_context(
    db: TenantStore, request: RecallRequest, retrieval: Retrieval = WITHOUT_MODELS
) -> RecallResult:
    groups = await _gather(db, request, retrieval)
    ordered = [c for name in group_order(request.task_intent) for c in groups.get(name, [])]
    included, dropped = select(ordered, request)
    context = "\n".join(line(item) for item in included)
    counts = CandidateCounts(
        current_state=len(groups["current_state"]),
        safe_claims=len(groups["safe_claim"]),
        preferences=len(groups["preference"]),
        memories=len(groups["failure_memory"]) + len(groups["memory"]),
        workstreams=len(groups["workstream"]),
        sessions=len(groups["session"]),
        dropped=len(dropped),
    )
    return RecallResult(
        query=request.query,
        project=request.project,
        task_intent=request.task_intent,
        empty=not included,
        context=context,
        included=included,
        dropped=dropped,
        diagnostics=RecallDiagnostics(
            limit=request.limit,
            budget_chars=request.budget_chars,
            used_chars=len(context),
            candidate_counts=counts,
        ),
    )


# --- sources ---------------------------------------------------------------------------------
async def _gather(
    db: TenantStore, request: RecallRequest, retrieval: Retrieval
) -> dict[str, list[Candidate]]:
    states, claims, memories, workstreams, sessions = await asyncio.gather(
        _current_states(db, request),
        _safe_claims(db, request.project),
        _memories(db, request, retrieval),
        _workstreams(db, request.project),
        _sessions(db, request.project),
    )
    preferences, matches = memories
    return {
        "current_state": states,
        "safe_claim": claims,
        "preference": preferences,
        "failure_memory": [c for c in matches if c.group == "failure_memory"],
        "memory": [c for c in matches if c.group == "memory"],
        "workstream": workstreams,
        "session": sessions,
    }


async def _current_states(db: TenantStore, request: RecallRequest) -> list[Candidate]:
    keys = list(dict.fromkeys(request.state_keys))
    states = await asyncio.gather(
        *(
            current_state(
                db, CurrentStateRequest(state_key=key, project=request.project, history_limit=0)
            )
            for key in keys
        )
    )
    candidates: list[Candidate] = []
    for key, state in zip(keys, states, strict=True):
        answer = state.answer
        if state.status == "current" and answer is not None:
            candidates.append(
                Candidate(
                    "current_state",
                    answer.id,
                    key,
                    f"{key} = {canonical_json(answer.value)}",
                    ["requested_state_key", f"source_class:{answer.source_class}"],
                    f"fact:{key}",
                )
            )
        else:  # "current" without an answer cannot be: the statement gives both or neither
            drop = "no_current" if state.status == "current" else state.status
            candidates.append(
                Candidate("current_state", key, key, "", [], f"fact:{key}", drop=drop)
            )
    return candidates


async def _safe_claims(db: TenantStore, project: str) -> list[Candidate]:
    rows = shaped(
        SafeClaimRow,
        await db.read(
            "recall/list_recall_safe_claims",
            owner=owner_of(project, None),
            classes=SAFE_CLASSES,
            now=utc_now_iso(),
            key_cap=FACT_KEY_CAP,
            limit=SAFE_CLAIMS_LIMIT,
        ),
    )
    return [
        Candidate(
            "safe_claim",
            row["id"],
            row["key"],
            f"{row['key']} = {row['value_json']}",
            ["safe_claim", f"source_class:{row['source_class']}"],
            f"fact:{row['key']}",
            drop="unresolved_conflict" if row["contradiction_count"] > 0 else None,
        )
        for row in rows
    ]


async def _memories(
    db: TenantStore, request: RecallRequest, retrieval: Retrieval
) -> tuple[list[Candidate], list[Candidate]]:
    profile = await search(
        db,
        SearchRequest(
            project=request.project,
            type="preference",
            include_quarantined=True,
            limit=request.limit,
        ),
    )
    ranked = await search_memories_for(
        db,
        request.query,
        retrieval,
        project=request.project,
        include_quarantined=True,
        limit=min(3 * request.limit, MAX_LIMIT),
        task_intent=request.task_intent,
        token_budget=MAX_TOKEN_BUDGET,  # recall applies its own budget
        include_superseded=False,
    )
    preference_ids = [hit.id for hit in profile.results]
    match_ids = [hit.id for hit in ranked.results]
    ids = list(dict.fromkeys(preference_ids + match_ids))
    rows = shaped(
        RecallMemoryRow, await db.read("recall/get_recall_memories", ids=ids, text_chars=TEXT_CHARS)
    )
    found = {row["id"]: row for row in rows}
    preferences = [
        _memory(found[i], "preference", ["profile_preference"])
        for i in preference_ids
        if i in found
    ]
    matches = [
        _memory(found[i], "memory", ["query_match", f"rank:{rank}", f"type:{found[i]['type']}"])
        for rank, i in enumerate(match_ids, start=1)
        if i in found
    ]
    return preferences, matches


def _memory(
    row: RecallMemoryRow, source_type: Literal["preference", "memory"], reasons: list[str]
) -> Candidate:
    failure = source_type == "memory" and row["type"] in FAILURE_TYPES
    return Candidate(
        source_type,
        row["id"],
        row["title"],
        row["text"],
        reasons,
        f"memory:{row['id']}",
        drop="quarantined" if row["status"] == "quarantined" else None,
        redacted=bool(row["redactions"]),
        group="failure_memory" if failure else source_type,
    )


async def _workstreams(db: TenantStore, project: str) -> list[Candidate]:
    pages = await asyncio.gather(
        *(
            list_workstreams(
                db,
                ListWorkstreamsRequest(
                    project=project, status=status, limit=WORKSTREAMS_PER_STATUS
                ),
            )
            for status in ("active", "paused")
        )
    )
    return [
        Candidate(
            "workstream",
            w.id,
            w.title,
            workstream_text(w),
            [f"{w.status}_workstream"],
            f"workstream:{w.id}",
        )
        for page in pages
        for w in page.workstreams
    ]


async def _sessions(db: TenantStore, project: str) -> list[Candidate]:
    listed = await list_raw_sessions(
        db,
        ListRawSessionsRequest(
            project=project, latest=RECENT_SESSIONS, samples=1, sample_chars=TEXT_CHARS
        ),
    )
    return [
        Candidate(
            "session",
            s.session_id,
            s.session_ref,
            session_text(
                s.host,
                s.first_ts.isoformat(),
                s.last_ts.isoformat(),
                s.message_count,
                s.user_message_samples,
            ),
            ["recent_session"],
            f"session:{s.session_id}",
        )
        for s in listed.sessions
    ]
