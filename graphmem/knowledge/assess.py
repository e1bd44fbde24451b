"""assess_context: classify a chunk's markers, score its materiality and uncertainty, and move
its lifecycle state where the move is legal.

Rules (scores and the state decision: graphmem/knowledge/heuristics.py):
- Unknown chunk (or another tenant's): not_found; nothing is recorded.
- A frozen chunk without force: skip payload (should_skip, skip_reason "frozen", the stored
  scores), a "blocked" run entry, nothing else changes. With force it is assessed; it stays
  frozen while its body carries FREEZE_CONTEXT (and nothing in this tier unfreezes it).
- An awaiting_human chunk whose source_hash equals the awaiting_source_hash recorded when it
  was queued (by queue_clarification, or by this tool when WAIT_HUMAN moved it there), without
  force: skip payload "same_unresolved_source" and a "skipped" run entry.
- Otherwise: markers ranked FREEZE_CONTEXT > NO_ENRICH > WAIT_HUMAN > ENRICH_OK, only the
  highest acts and only through a legal transition; no marker leaves a no_enrich chunk
  no_enrich under enrich_policy manual (the default) and unlocks it under auto; an enrichable
  target above 0.6 uncertainty becomes uncertain; a quarantined chunk is scored but never
  becomes enrichable or uncertain (it stays, or returns to, no_enrich).
- Stored every time: state, materiality, uncertainty, signals, last_assessed_at. A freeze or
  signal note is an ``(:Annotation {kind, marker, source_hash, at})`` node linked by
  ``HAS_ANNOTATION`` (annotations_created counts them). One history event when the state
  changed; one "success" run entry always.

``assess_in_tx`` does it inside a caller's locked transaction (enrich_context runs it for many
chunks all-or-nothing); ``assess_context`` is the tool's one-transaction wrapper.
"""

from __future__ import annotations

from graphmem.core.ids import new_id
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.knowledge.chunks import load_chunk
from graphmem.knowledge.heuristics import (
    StateDecision,
    decide_state,
    markers,
    materiality,
    uncertainty,
)
from graphmem.knowledge.models.pipeline import (
    AssessContextRequest,
    AssessResult,
    EnrichPolicy,
    SkipReason,
)
from graphmem.knowledge.rows import ChunkNode
from graphmem.knowledge.runs import record_run
from graphmem.store import TenantStore

TOOL = "assess_context"


async def assess_in_tx(
    w: Write, chunk_id: str, force: bool, policy: EnrichPolicy, *, tool: str = TOOL
) -> AssessResult:
    """Assess one chunk inside the caller's locked transaction (see the module rules).

    Raises NotFound for an unknown chunk; skip paths return a result (should_skip true) and
    still record their run entry. History events chain: ``append_event`` advances ``head``.
    """
    node = await load_chunk(w, chunk_id)
    state = node["state"]
    found = markers(node["body"])
    quarantined = bool(node.get("quarantined", False))
    skip = _skip_reason(node, force)
    if skip is not None:
        status = "blocked" if skip == "frozen" else "skipped"
        await record_run(w, tool, "chunk", chunk_id, status, skip)
        return _skipped(chunk_id, node, policy, skip, found, quarantined)
    scores = {"materiality": materiality(node["body"]), "uncertainty": uncertainty(node["body"])}
    decision = decide_state(state, found, scores["uncertainty"], policy, quarantined)
    annotations = await _store_assessment(w, chunk_id, decision, found, scores)
    counters: dict[str, object] = {
        **scores,
        "annotations": len(annotations),
        "path": list(decision.path),
    }
    revision = None
    if decision.changed:
        kinds = [note["kind"] for note in annotations]
        change = _state_change(tool, chunk_id, state, decision, policy, force, kinds, scores)
        revision = await w.event(change)
    reason = ",".join(decision.notes) or None
    await record_run(w, tool, "chunk", chunk_id, "success", reason, counters)
    return AssessResult(
        chunk_id=chunk_id,
        state=decision.final,
        previous_state=state,
        policy=policy,
        should_skip=False,
        skip_reason=None,
        signals_detected=found,
        annotations_created=len(annotations),
        changed=decision.changed,
        path=list(decision.path),
        notes=list(decision.notes),
        quarantined=quarantined,
        revision=revision,
        **scores,
    )


def _skipped(
    chunk_id: str,
    node: ChunkNode,
    policy: EnrichPolicy,
    skip: SkipReason,
    found: list[str],
    quarantined: bool,
) -> AssessResult:
    """The skip payload: nothing assessed, the stored state and scores."""
    return AssessResult(
        chunk_id=chunk_id,
        state=node["state"],
        previous_state=node["state"],
        policy=policy,
        materiality=node.get("materiality"),
        uncertainty=node.get("uncertainty"),
        should_skip=True,
        skip_reason=skip,
        signals_detected=found,
        annotations_created=0,
        changed=False,
        path=[],
        notes=[],
        quarantined=quarantined,
        revision=None,
    )


async def _store_assessment(
    w: Write, chunk_id: str, decision: StateDecision, found: list[str], scores: dict[str, float]
) -> list[dict[str, str]]:
    """Store the state, scores and signals, with the decision's notes as annotation nodes;
    the annotations created."""
    annotations = [
        {"id": new_id(), "kind": kind, "marker": marker} for kind, marker in decision.annotations
    ]
    await w.run(
        "knowledge/update_chunk_assessment",
        id=chunk_id,
        state=decision.final,
        signals=found,
        entered_awaiting=decision.changed and decision.final == "awaiting_human",
        annotations=annotations,
        **scores,
    )
    return annotations


def _state_change(
    tool: str,
    chunk_id: str,
    state: str,
    decision: StateDecision,
    policy: EnrichPolicy,
    force: bool,
    annotation_kinds: list[str],
    scores: dict[str, float],
) -> Change:
    """The history event of a state the assessment changed."""
    return Change(
        tool,
        "chunk",
        chunk_id,
        [chunk_id],
        {
            "from": state,
            "to": decision.final,
            "path": list(decision.path),
            "marker": decision.marker,
            "policy": policy,
            "force": force,
            "notes": list(decision.notes),
            "annotations": annotation_kinds,
            **scores,
        },
    )


def _skip_reason(node: ChunkNode, force: bool) -> SkipReason | None:
    if force:
        return None
    if node["state"] == "frozen":
        return "frozen"
    waiting_on = node.get("awaiting_source_hash")
    if node["state"] == "awaiting_human" and waiting_on and waiting_on == node["source_hash"]:
        return "same_unresolved_source"
    return None


async def assess_context(
    db: TenantStore, request: AssessContextRequest, policy: EnrichPolicy
) -> AssessResult:
    async def work(w: Write) -> AssessResult:
        return await assess_in_tx(w, request.chunk_ref, request.force, policy)

    return await write(db, TOOL, work, audit=Audit.of(request))
