"""Context packs: role-specific context compiled from facts, claims, questions and chunks under
a token budget. Deterministic: rules and arithmetic, no model. This module reads the
candidates and stores the pack; the rules are pure modules beside it: scoring
(graphmem/knowledge/pack_scoring.py: relevance, trust, freshness) and selection
(graphmem/knowledge/pack_rules.py: caps, tokens, the greedy walk under the budget).

Candidates (cypher/knowledge/list_pack_candidates.cypher). Every pool is a top-k read in index
order with a LIMIT, so building a pack costs the same on 10^2 facts as on 10^5:
- facts: active and not lapsed (valid_to / expires_at not passed, even before maintain), the
  most confident and the newest, ``pool`` of each; never superseded, invalidated or expired;
- claims: status candidate, most confident first, none evidenced by a quarantined chunk
  (promoted claims are represented by their facts; rejected claims never appear);
- questions: open, highest priority first, none of a quarantined chunk;
- chunks: enrichable, uncertain or awaiting_human, never quarantined: per state the most
  material and the most recently changed (an unassessed chunk has no materiality);
- task-scoped (target_ref names a workstream): also the workstream's newest chunks
  (chunk.workstream_id), the candidate claims they evidence and the live facts those claims
  were promoted to. These are *linked* items.
Pools: per section ``pool = min(3 x cap + 10, 500)`` rows per ordered read (chunks: per state
and order ``min(2 x cap + 5, 200)``), doubled when task-scoped; the linked reads take the
workstream's 100 newest chunks.

Pack scores: freshness, relevance and quality (trust) are score-weighted means over the
selected items. The preview is the top-ranked items, at most 5; a pack is previewable when
it has items and a quality of at least 0.5.

Persistence. A pack with at least one item is stored as ``(:Pack {status: 'current', ...})``
with ``(pack)-[:INCLUDES {rank, tokens, section, score}]->(item)`` per item and
``(pack)-[:FOR_WORKSTREAM]->(workstream)`` when task-scoped; the current packs of the same
pack_type and target become ``retired`` (retired_at, retired_by), never deleted. An empty
pack is not stored (pack_id null) and retires nothing. Either way one run-history entry is
recorded (success, or skipped with reason ``empty_pack``).
"""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.core.errors import NotFound
from graphmem.core.ids import new_id
from graphmem.core.models import pick
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.knowledge.models.packs import (
    CONTRACT_VERSION,
    AdvancedContext,
    BuildContextPackRequest,
    BuildContextPackResult,
    PackCandidates,
    PackSections,
    PackSkips,
    PackType,
    Section,
)
from graphmem.knowledge.pack_rules import (
    ROLE_WEIGHTS,
    SECTIONS,
    Item,
    Selection,
    caps_for,
    one_line,
    select,
    tokens,
)
from graphmem.knowledge.pack_scoring import Scoring, candidate_items, terms
from graphmem.knowledge.rows import PackCandidatesRow, RetiredPacksRow, WorkstreamFocusRow
from graphmem.knowledge.runs import record_run
from graphmem.store import TenantStore, shaped

MAX_POOL = 500
MAX_CHUNK_POOL = 200
LINKED_CHUNKS = 100
BODY_CHARS = 2000  # of a chunk's body read for relevance and preview
PREVIEW_ITEMS = 5
PREVIEWABLE_QUALITY = 0.5
SELECTION_POLICY = "graphmem_greedy_v1"


@dataclass(frozen=True)
class BuiltPack:
    """What build_pack_in_tx did; the caller appends the history event."""

    result: BuildContextPackResult
    run_id: str
    retired_ids: list[str]


def pool_sizes(caps: dict[Section, int], scoped: bool) -> dict[str, int]:
    factor = 2 if scoped else 1
    return {
        "fact_limit": min(MAX_POOL, (3 * caps["facts"] + 10) * factor),
        "claim_limit": min(MAX_POOL, (3 * caps["claims"] + 10) * factor),
        "question_limit": min(MAX_POOL, (3 * caps["questions"] + 10) * factor),
        "chunk_limit": min(MAX_CHUNK_POOL, (2 * caps["chunks"] + 5) * factor),
    }


@dataclass(frozen=True)
class _PackSpec:
    """What the caller asked for: the pack's kind, target, budget and session."""

    pack_type: PackType
    target_ref: str | None
    token_budget: int
    session_id: str | None

    @property
    def scope_key(self) -> str:
        return self.target_ref or "*"


async def _task_focus(w: Write, spec: _PackSpec) -> tuple[frozenset[str] | None, str]:
    """The task terms (None unscoped) and the pack's title; an unknown workstream: not_found."""
    if spec.target_ref is None:
        return None, f"{spec.pack_type} pack"
    found = shaped(
        WorkstreamFocusRow, await w.run("knowledge/get_workstream_focus", id=spec.target_ref)
    )
    if not found:
        raise NotFound("workstream", spec.target_ref)
    focus = found[0]
    task_terms = terms(f"{focus['title'] or ''} {focus['next_action'] or ''}")
    title = f"{spec.pack_type} pack for {one_line(focus['title'] or spec.target_ref, 100)}"
    return task_terms, title


async def _candidates(
    w: Write, spec: _PackSpec, caps: dict[Section, int], task_terms: frozenset[str] | None
) -> tuple[list[Item], PackCandidates]:
    """The candidate pools read and scored for the pack's role and task."""
    rows = await w.run(
        "knowledge/list_pack_candidates",
        workstream_id=spec.target_ref,
        linked_limit=LINKED_CHUNKS,
        body_chars=BODY_CHARS,
        **pool_sizes(caps, spec.target_ref is not None),
    )
    scoring = Scoring(ROLE_WEIGHTS[spec.pack_type], task_terms, w.now)
    return candidate_items(shaped(PackCandidatesRow, rows)[0], scoring)


async def _retire_current(w: Write, spec: _PackSpec, pack_id: str) -> list[str]:
    """Retire the current packs of the same kind and target in favour of ``pack_id``."""
    rows = await w.run(
        "knowledge/retire_current_packs",
        pack_type=spec.pack_type,
        scope_key=spec.scope_key,
        pack_id=pack_id,
    )
    return shaped(RetiredPacksRow, rows)[0]["retired_ids"]


def _pack_result(
    spec: _PackSpec,
    caps: dict[Section, int],
    task_terms: frozenset[str] | None,
    candidates: PackCandidates,
    selection: Selection,
    pack_id: str | None,
    retired: list[str],
    revision: int,
) -> BuildContextPackResult:
    quality = selection.mean("trust")
    return BuildContextPackResult(
        pack_id=pack_id,
        pack_type=spec.pack_type,
        token_budget=spec.token_budget,
        token_usage=selection.token_usage,
        items_included=len(selection.items),
        preview_items_included=min(len(selection.items), PREVIEW_ITEMS),
        task_scoped=spec.target_ref is not None,
        persisted=pack_id is not None,
        freshness_score=selection.mean("freshness"),
        relevance_score=selection.mean("relevance"),
        quality_score=quality,
        previewable=bool(selection.items) and quality >= PREVIEWABLE_QUALITY,
        contract_version=CONTRACT_VERSION,
        selection_policy=SELECTION_POLICY,
        advanced_context=AdvancedContext(
            candidates=candidates,
            skipped=PackSkips(**selection.skipped),
            caps={str(k): v for k, v in caps.items()},
            role_weights={str(k): v for k, v in ROLE_WEIGHTS[spec.pack_type].items()},
            workstream_id=spec.target_ref,
            task_terms=sorted(task_terms or ()),
            retired_pack_ids=retired,
            session_id=spec.session_id,
        ),
        sections=PackSections(**{s: selection.count(s) for s in SECTIONS}),
        body=selection.body,
        revision=revision,
    )


async def _create_pack(
    w: Write, spec: _PackSpec, title: str, result: BuildContextPackResult, selection: Selection
) -> None:
    """Store the pack with an INCLUDES edge per item, in rank order."""
    await w.run(
        "knowledge/create_pack",
        id=result.pack_id,
        **pick(spec, "pack_type target_ref scope_key"),
        title=title,
        token_budget=spec.token_budget,
        **pick(
            result, "token_usage items_included body freshness_score relevance_score quality_score"
        ),
        contract_version=CONTRACT_VERSION,
        selection_policy=SELECTION_POLICY,
        sections_json=result.sections.model_dump_json(),
        session_id=spec.session_id,
        items=[
            {
                "element_id": item.element_id,
                "rank": rank,
                "tokens": tokens(item.line),
                "section": item.section,
                "score": item.score,
            }
            for rank, item in enumerate(selection.items, start=1)
        ],
    )


async def _record_pack_run(
    w: Write, tool: str, spec: _PackSpec, result: BuildContextPackResult, retired: list[str]
) -> str:
    """The run entry: success for a stored pack, skipped (empty_pack) for an empty one."""
    pack_id = result.pack_id
    return await record_run(
        w,
        tool,
        "pack",
        pack_id,
        "success" if pack_id else "skipped",
        None if pack_id else "empty_pack",
        {
            "pack_type": spec.pack_type,
            "target_ref": spec.target_ref,
            "items_included": result.items_included,
            "token_usage": result.token_usage,
            "token_budget": spec.token_budget,
            "retired": len(retired),
        },
    )


async def build_pack_in_tx(
    w: Write,
    pack_type: PackType,
    target_ref: str | None,
    token_budget: int,
    session_id: str | None = None,
    tool: str = "build_context_pack",
) -> BuiltPack:
    """Select, persist (when not empty) and record one pack inside a caller's locked write
    transaction; the caller appends the history event. Unknown workstream: not_found."""
    spec = _PackSpec(pack_type, target_ref, token_budget, session_id)
    task_terms, title = await _task_focus(w, spec)
    caps = caps_for(token_budget)
    items, candidates = await _candidates(w, spec, caps, task_terms)
    selection = select(items, token_budget, caps)
    pack_id = new_id() if selection.items else None
    retired = await _retire_current(w, spec, pack_id) if pack_id is not None else []
    result = _pack_result(
        spec, caps, task_terms, candidates, selection, pack_id, retired, w.next_revision
    )
    if pack_id is not None:
        await _create_pack(w, spec, title, result, selection)
    run_id = await _record_pack_run(w, tool, spec, result, retired)
    return BuiltPack(result, run_id, retired)


def pack_change(built: BuiltPack, op: str = "build_context_pack") -> Change:
    result = built.result
    return Change(
        op,
        "pack",
        result.pack_id or built.run_id,
        [*([result.pack_id] if result.pack_id else []), *built.retired_ids],
        {
            "pack_type": result.pack_type,
            "target_ref": result.advanced_context.workstream_id,
            "token_budget": result.token_budget,
            "token_usage": result.token_usage,
            "items_included": result.items_included,
            "persisted": result.persisted,
            "retired_pack_ids": built.retired_ids,
            "run_id": built.run_id,
        },
    )


async def build_context_pack(
    db: TenantStore, request: BuildContextPackRequest
) -> BuildContextPackResult:
    async def work(w: Write) -> BuildContextPackResult:
        if request.session_id is not None and not await w.run(
            "archive/find_session", session_id=request.session_id
        ):
            raise NotFound("session", request.session_id)
        built = await build_pack_in_tx(
            w, request.pack_type, request.target_ref, request.effective_budget, request.session_id
        )
        revision = await w.event(pack_change(built))
        return built.result.model_copy(update={"revision": revision})

    return await write(db, "build_context_pack", work, audit=Audit(request.session_id))
