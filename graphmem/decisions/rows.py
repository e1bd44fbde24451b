"""Query rows to models: the decisions area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

import json
from typing import Any

from graphmem.core.models import from_node
from graphmem.decisions.models import (
    Alternative,
    Attempt,
    Decision,
    Dependency,
    Evidence,
    RuleVerdict,
)


def verdict_of(row: dict[str, Any]) -> str:
    if row["reason"] is not None:
        return "unknown"
    return "true" if row["verdict"] else "false"


def _evidence(check: dict[str, Any] | None, with_verdict: bool = False) -> Evidence | None:
    if check is None:
        return None
    verdict = check["verdict"]
    return from_node(
        Evidence,
        check,
        value=json.loads(check["value_json"]),
        verdict=(None if verdict is None else str(verdict).lower()) if with_verdict else None,
    )


def rule_verdict(row: dict[str, Any]) -> RuleVerdict:
    return from_node(
        RuleVerdict,
        row,
        value=json.loads(row["operand_json"]),
        verdict=verdict_of(row),
        evidence=_evidence(row["evidence"]),
        conflicting_evidence=[
            e for e in (_evidence(c, with_verdict=True) for c in row["conflicting"]) if e
        ],
    )


def decision_from_row(row: dict[str, Any], verdicts: dict[str, RuleVerdict]) -> Decision:
    alternatives = [
        from_node(
            Alternative,
            alternative,
            rules=[
                verdicts[rule["rule_id"]]
                for rule in sorted(alternative["rules"], key=lambda r: r["position"])
            ],
        )
        for alternative in row["alternatives"]
    ]
    return from_node(
        Decision,
        row["decision"],
        supersedes_decision_id=row["supersedes_decision_id"],
        superseded_by_decision_id=row["superseded_by_decision_id"],
        alternatives=alternatives,
        depends_on=[Dependency(**dependency) for dependency in row["depends_on"]],
    )


def attempt_from_node(node: dict[str, Any]) -> Attempt:
    return from_node(Attempt, node)
