"""The TypedDicts the knowledge area reads rows through (``shaped``) name exactly the columns
their statement returns, and the keys of the maps those columns hold: ``shaped`` declares, it
does not check, so this test does.

Not checked: ChunkNode and QuestionNode, nodes returned whole (``RETURN c AS chunk``), whose
properties are no column of the statement."""

from __future__ import annotations

import re

import pytest

from graphmem.knowledge.audit_rows import (
    AuditedPack,
    AuditStateRow,
    ClaimsRow,
    ClaimWithoutEvidence,
    ClaimWithoutFact,
    ContradictionsRow,
    CountedFact,
    DriftedSlot,
    FactProvenanceRow,
    FactWithoutClaim,
    KeySlotsRow,
    LinkedPairRow,
    MemoryIssuesRow,
    OpenIssuesRow,
    OpenIssueSubjectRow,
    PacksRow,
    QuarantinedChunk,
    QuarantineRow,
    ReconciledPackRow,
    RefreshedCountRow,
    RepairedSlotRow,
    ResolvedIssueRow,
    StoredIssue,
    UpsertedIssueRow,
)
from graphmem.knowledge.rows import (
    AnsweredRow,
    ChunkCandidate,
    ChunkRow,
    ClaimCandidate,
    ClaimToPromote,
    ClaimToPromoteRow,
    ContradictionCountRow,
    EnrichChunksRow,
    FactCandidate,
    IdRow,
    LiveFactRow,
    MergedChunkRow,
    MergedClaim,
    MergedClaimRow,
    PackCandidatesRow,
    QuestionCandidate,
    QuestionRow,
    RetiredPacksRow,
    UncertainChunkRow,
    WorkstreamFocusRow,
)
from tests.row_shapes import column_test, fields, keys_of_map, map_test, opening_test, returned

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    # chunks, assessment, clarification
    "knowledge/get_chunk": ChunkRow,
    "knowledge/set_chunk_awaiting_human": ChunkRow,
    "knowledge/update_chunk_assessment": ChunkRow,
    "knowledge/merge_chunk": MergedChunkRow,
    "knowledge/get_chunk_question": QuestionRow,
    "knowledge/list_chunk_open_questions": QuestionRow,
    "knowledge/create_clarification_questions": QuestionRow,
    "knowledge/record_human_answer": AnsweredRow,
    # claims and promotion
    "knowledge/merge_extracted_claims": MergedClaimRow,
    "knowledge/get_claim_for_promotion": ClaimToPromoteRow,
    "knowledge/find_live_fact_of_key": LiveFactRow,
    "knowledge/link_promoted_contradictions": ContradictionCountRow,
    # context packs and enrich_context
    "knowledge/get_workstream_focus": WorkstreamFocusRow,
    "knowledge/list_pack_candidates": PackCandidatesRow,
    "knowledge/retire_current_packs": RetiredPacksRow,
    "knowledge/list_active_workstreams": IdRow,
    "knowledge/list_recent_facts": IdRow,
    "knowledge/list_enrich_chunks": EnrichChunksRow,
    "knowledge/list_uncertain_chunks": UncertainChunkRow,
    # the audit
    "knowledge/merge_audit_state": AuditStateRow,
    "knowledge/list_open_issue_subjects": OpenIssueSubjectRow,
    "knowledge/upsert_issues": UpsertedIssueRow,
    "knowledge/resolve_issues": ResolvedIssueRow,
    "knowledge/count_open_issues": OpenIssuesRow,
    "knowledge/list_memory_issues": MemoryIssuesRow,
    "knowledge/audit_fact_key_slots": KeySlotsRow,
    "knowledge/audit_claims": ClaimsRow,
    "knowledge/audit_fact_provenance": FactProvenanceRow,
    "knowledge/audit_contradictions": ContradictionsRow,
    "knowledge/audit_packs": PacksRow,
    "knowledge/audit_quarantined_chunks": QuarantineRow,
    "knowledge/repair_fact_key_slots": RepairedSlotRow,
    "knowledge/link_claims_to_facts": LinkedPairRow,
    "facts/refresh_contradiction_counts": RefreshedCountRow,  # the audit's repair runs it
    "knowledge/reconcile_packs": ReconciledPackRow,
}

# A column that holds a map (or a list of maps) written in the column itself: its keys' shape.
MAPS: dict[tuple[str, str], type] = {
    ("knowledge/merge_extracted_claims", "claim"): MergedClaim,
    ("knowledge/get_claim_for_promotion", "claim"): ClaimToPromote,
    ("knowledge/audit_fact_key_slots", "drifted"): DriftedSlot,
    ("knowledge/audit_claims", "missing_evidence"): ClaimWithoutEvidence,
    ("knowledge/audit_claims", "missing_fact"): ClaimWithoutFact,
    ("knowledge/audit_fact_provenance", "missing"): FactWithoutClaim,
    ("knowledge/audit_quarantined_chunks", "quarantined"): QuarantinedChunk,
}

# A map built earlier in the statement (a subquery, a WITH) that a column returns: where it
# opens (the statement's text up to its brace, and which occurrence), and its keys' shape.
OPENINGS: dict[tuple[str, str, int], type] = {
    ("knowledge/list_memory_issues", "collect(i {", 0): StoredIssue,  # issues
    ("knowledge/audit_contradictions", "collect({", 0): CountedFact,  # facts
    ("knowledge/audit_packs", "WITH p, scanned, {", 0): AuditedPack,  # packs
}

# list_pack_candidates: each pool a COLLECT of UNIONed reads, each branch its own projection.
CANDIDATES: dict[str, type] = {
    "facts": FactCandidate,
    "claims": ClaimCandidate,
    "questions": QuestionCandidate,
    "chunks": ChunkCandidate,
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)


test_a_map_shape_names_the_keys_its_column_holds = map_test(MAPS)


test_a_map_shape_names_the_keys_of_the_map_returned = opening_test(OPENINGS)


@pytest.mark.parametrize("pool", sorted(CANDIDATES))
def test_every_read_of_a_candidate_pool_projects_its_shape(pool: str) -> None:
    expression = returned("knowledge/list_pack_candidates")[pool]
    branches = re.split(r"\bRETURN\b", expression)[1:]
    assert branches, pool
    for branch in branches:
        assert sorted(keys_of_map(branch)) == fields(CANDIDATES[pool])
