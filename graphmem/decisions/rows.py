"""Query rows to models: the decisions area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

import json
from typing import Any

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
    return Evidence(
        fact_id=check["fact_id"],
        value=json.loads(check["value_json"]),
        observed_at=check["observed_at"],
        valid_from=check["valid_from"],
        source_class=check["source_class"],
        verification_status=check["verification_status"],
        verdict=(None if verdict is None else str(verdict).lower()) if with_verdict else None,  # type: ignore[arg-type]
    )


def rule_verdict(row: dict[str, Any]) -> RuleVerdict:
    return RuleVerdict(
        rule_id=row["rule_id"],
        alternative_id=row["alternative_id"],
        key=row["key"],
        operator=row["operator"],
        value=json.loads(row["operand_json"]),
        unit=row["unit"],
        verdict=verdict_of(row),  # type: ignore[arg-type]
        reason=row["reason"],
        evidence=_evidence(row["evidence"]),
        conflicting_evidence=[
            e for e in (_evidence(c, with_verdict=True) for c in row["conflicting"]) if e
        ],
    )


def decision_from_row(row: dict[str, Any], verdicts: dict[str, RuleVerdict]) -> Decision:
    node = row["decision"]
    return Decision(
        id=node["id"],
        project=node["project"],
        title=node["title"],
        choice=node["choice"],
        rationale=node.get("rationale"),
        status=node["status"],
        review_after=node.get("review_after"),
        supersedes_decision_id=row["supersedes_decision_id"],
        superseded_by_decision_id=row["superseded_by_decision_id"],
        alternatives=[
            Alternative(
                id=alternative["id"],
                title=alternative["title"],
                why_rejected=alternative.get("why_rejected"),
                rules=[
                    verdicts[rule["rule_id"]]
                    for rule in sorted(alternative["rules"], key=lambda r: r["position"])
                ],
            )
            for alternative in row["alternatives"]
        ],
        depends_on=[Dependency(**dependency) for dependency in row["depends_on"]],
        created_at=node["created_at"],
        updated_at=node["updated_at"],
        session_id=node.get("session_id"),
        actor=node.get("actor"),
        client=node.get("client"),
    )


def attempt_from_node(node: dict[str, Any]) -> Attempt:
    return Attempt(
        id=node["id"],
        decision_id=node.get("decision_id"),
        workstream_id=node.get("workstream_id"),
        title=node["title"],
        description=node.get("description"),
        evidence=node.get("evidence") or [],
        status=node["status"],
        result=node.get("result"),
        created_at=node["created_at"],
        session_id=node.get("session_id"),
        actor=node.get("actor"),
        client=node.get("client"),
    )
