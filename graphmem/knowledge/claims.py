"""extract_candidate_claims: typed claims mined from a chunk (promote_candidate, the gate that
turns one into a canonical fact, is graphmem/knowledge/promote.py).

Extraction (text rules: graphmem/knowledge/claim_rules.py):
- Unknown chunk: not_found, nothing recorded. Only enrichable or uncertain chunks that are not
  quarantined are mined; any other chunk is refused with invalid_state naming its state
  ("quarantined" for a quarantined one). The refusal is an error, so the extraction's
  transaction rolls back; the "blocked" run entry (reason invalid_state:<state> or quarantined)
  is then recorded by a separate small transaction, before the error is returned.
- Scope: scope_hint, else detected from the chunk; every claim of the chunk gets it, and claims
  of sensitive scopes require a human.
- One claim per normalised triple (subject|predicate|object, lowercase, whitespace collapsed)
  and project, unique by constraint: a new triple becomes a candidate claim; the same triple
  found in another chunk of the project links that chunk as further evidence of the existing
  claim (whatever its status: a promoted claim keeps collecting evidence) instead of making a
  duplicate, which is what makes multi_evidence reachable; extracting the same chunk again adds
  nothing. A claim's scope, confidence and requires_human are those of its first extraction.
- Evidence: ``(claim)-[:EVIDENCED_BY {type: 'source_chunk', weight: 1.0, excerpt, start, end,
  at}]->(chunk)``. One history event per claim created or evidence link added, then one run
  entry ("success", counters). All-or-nothing.
"""

from __future__ import annotations

from graphmem.core.errors import InvalidState
from graphmem.core.ids import new_id
from graphmem.core.models import from_node
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.knowledge.chunks import load_chunk
from graphmem.knowledge.claim_rules import Triple, detect_scope, extract_triples, requires_human
from graphmem.knowledge.models.chunks import Scope
from graphmem.knowledge.models.pipeline import ClaimItem, ExtractClaimsRequest, ExtractResult
from graphmem.knowledge.rows import ChunkNode, MergedClaimRow
from graphmem.knowledge.runs import record_run
from graphmem.store import TenantStore, shaped

EXTRACT = "extract_candidate_claims"
EXTRACTABLE = frozenset({"enrichable", "uncertain"})


class ExtractRefused(InvalidState):
    """A chunk extraction does not accept (its state, or quarantine). The store wrapper records
    the blocked run in its own transaction; a caller of ``extract_in_tx`` decides itself."""

    def __init__(self, chunk_id: str, state: str, message: str, reason: str) -> None:
        super().__init__("chunk", chunk_id, state, message)
        self.chunk_id = chunk_id
        self.reason = reason


# --- extraction ----------------------------------------------------------------------------------
async def extract_in_tx(
    w: Write, chunk_id: str, scope_hint: Scope | None, *, tool: str = EXTRACT
) -> ExtractResult:
    """Extract and persist the chunk's candidate claims inside the caller's locked transaction.

    Raises NotFound, or ExtractRefused (an InvalidState) for a chunk that is not enrichable or
    uncertain or is quarantined; records nothing then. History events are chained with
    ``append_event`` (which advances the head).
    """
    node = await load_chunk(w, chunk_id)
    _refuse_unless_extractable(chunk_id, node)
    scope = detect_scope(node["body"], scope_hint)
    triples = extract_triples(node["body"])
    # a scope_hint may narrow the scope, never lift the human requirement of what was read
    needs_human = requires_human(scope) or requires_human(detect_scope(node["body"]))
    rows = await _merge_claims(w, chunk_id, triples, scope, needs_human)
    by_key = {row["triple_key"]: row for row in rows}
    items = [_claim_item(by_key[triple.key]) for triple in triples]
    revision = await _record_claim_events(w, tool, chunk_id, items)
    created = sum(item.created for item in items)
    added = sum(item.evidence_added and not item.created for item in items)
    await record_run(
        w,
        tool,
        "chunk",
        chunk_id,
        "success",
        None,
        {"claims_extracted": len(items), "claims_created": created, "evidence_added": added},
    )
    return ExtractResult(
        chunk_id=chunk_id,
        claims_extracted=len(items),
        scope=scope,
        claims=items,
        claims_created=created,
        evidence_added=added,
        revision=revision,
    )


def _refuse_unless_extractable(chunk_id: str, node: ChunkNode) -> None:
    """Raise ExtractRefused for a quarantined chunk or one neither enrichable nor uncertain."""
    state = node["state"]
    if node.get("quarantined", False):
        raise ExtractRefused(
            chunk_id,
            "quarantined",
            "quarantined chunks are never mined into claims (release it through govern_memory)",
            "quarantined",
        )
    if state not in EXTRACTABLE:
        raise ExtractRefused(
            chunk_id,
            state,
            "only enrichable or uncertain chunks are mined into claims (assess_context makes a "
            "chunk enrichable: an ENRICH_OK marker, or enrich_policy auto)",
            f"invalid_state:{state}",
        )


async def _merge_claims(
    w: Write, chunk_id: str, triples: list[Triple], scope: Scope, needs_human: bool
) -> list[MergedClaimRow]:
    """Create each new triple's claim or link the chunk as further evidence (one row a triple;
    no query without triples)."""
    if not triples:
        return []
    rows = await w.run(
        "knowledge/merge_extracted_claims",
        chunk_id=chunk_id,
        claims=[
            {
                "id": new_id(),
                "triple_key": triple.key,
                "subject": triple.subject,
                "predicate": triple.predicate,
                "object": triple.object,
                "subject_norm": triple.subject_norm,
                "object_norm": triple.object_norm,
                "scope": scope,
                "confidence": triple.confidence,
                "requires_human": needs_human,
                "excerpt": triple.excerpt,
                "start": triple.start,
                "end": triple.end,
            }
            for triple in triples
        ],
    )
    return shaped(MergedClaimRow, rows)


async def _record_claim_events(
    w: Write, tool: str, chunk_id: str, items: list[ClaimItem]
) -> int | None:
    """One history event per claim created or evidence link added; the last one's revision."""
    revision = None
    for item in items:
        if item.created or item.evidence_added:
            revision = await w.event(
                Change(
                    tool,
                    "claim",
                    item.claim_id,
                    [item.claim_id, chunk_id],
                    {
                        "chunk_id": chunk_id,
                        "created": item.created,
                        "subject": item.subject,
                        "predicate": item.predicate,
                        "object": item.object,
                        "scope": item.scope,
                        "confidence": item.confidence,
                        "status": item.status,
                        "evidence_count": item.evidence_count,
                    },
                )
            )
    return revision


def _claim_item(row: MergedClaimRow) -> ClaimItem:
    claim = row["claim"]
    return from_node(ClaimItem, {**claim, **row}, claim_id=claim["id"])


async def extract_candidate_claims(db: TenantStore, request: ExtractClaimsRequest) -> ExtractResult:

    async def work(w: Write) -> ExtractResult:
        return await extract_in_tx(w, request.chunk_ref, request.scope_hint)

    try:
        return await write(db, EXTRACT, work, audit=Audit.of(request))
    except ExtractRefused as refused:
        await _record_blocked(db, refused)
        raise


async def _record_blocked(db: TenantStore, refused: ExtractRefused) -> None:
    """The blocked run of a refused extraction, in its own transaction (the extraction's own
    rolled back with the error)."""

    async def work(w: Write) -> None:
        await record_run(w, EXTRACT, "chunk", refused.chunk_id, "blocked", refused.reason)

    await write(db, EXTRACT, work)
