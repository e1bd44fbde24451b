"""The audit's pure rules (graphmem/knowledge/audit_rules.py): which issue types each scan
re-checks, and the fair share of open issues a scan re-checks within its batch."""

from __future__ import annotations

from typing import get_args

import pytest

from graphmem.knowledge.audit_rules import ISSUES, SCANS, fair_share, issue_types_of
from graphmem.knowledge.models.audit import IssueType

pytestmark = pytest.mark.pure


def test_every_issue_type_has_a_row_and_every_scan_its_types() -> None:
    assert set(ISSUES) == set(get_args(IssueType))
    assert all(issue_types_of(scan) for scan in SCANS)
    assert issue_types_of("quarantine") == ["quarantined_content"]
    # opened and resolved by the memory tools: no scan reads it, so it crowds out nothing
    assert not any("quarantined_memory" in issue_types_of(scan) for scan in SCANS)


def test_the_batch_is_shared_in_turn_so_no_type_crowds_out_another() -> None:
    backlog: dict[IssueType, list[str]] = {
        "claim_missing_evidence": ["c1", "c2", "c3"],
        "promoted_claim_missing_fact": ["p1"],
    }
    types: list[IssueType] = ["claim_missing_evidence", "promoted_claim_missing_fact"]
    assert fair_share(backlog, types, 2) == [
        ("claim_missing_evidence", "c1"),
        ("promoted_claim_missing_fact", "p1"),
    ]
    assert [ref for _, ref in fair_share(backlog, types, 10)] == ["c1", "p1", "c2", "c3"]
    assert fair_share(backlog, ["fact_missing_provenance"], 10) == []
