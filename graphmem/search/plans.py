"""Retrieval plans: a task intent, role and risk compiled into channel weights, type boosts
and a fallback policy. Pure and deterministic: the same inputs give the same plan and hash.

- Weights: full-text 1.0, vector 0.5 (a small local model is the weaker witness), graph 0.7,
  chosen on the seven public LoCoMo conversations as a whole (bench/locomo.py);
  ``explore_history`` leans on the graph (versions, sessions) at 1.0.
- Type boosts multiply the fused score of memories of a type: decisions and architecture for
  ``explain_decision``, bug fixes and lessons for ``debug_failure``, preferences for
  ``apply_preference``, decisions, bug fixes and procedures for ``review_change``. A planner
  also favours decisions and architecture; a reviewer, bug fixes.
- Risk: ``high`` abstains from the raw archive (no fallback to unreviewed conversation);
  ``low`` and ``medium`` allow it.
- ``explore_history`` includes superseded versions unless include_superseded says otherwise.
- token_budget (default 4000) bounds the page: results are kept, best first, while their
  estimated tokens (ceil((title + preview characters + 1) / 4)) fit; the first always stays.
"""

from __future__ import annotations

import hashlib
from typing import TypedDict

from graphmem.core.models import canonical_json
from graphmem.search.channels.names import ChannelName
from graphmem.search.models import RetrievalPlan, Risk, Role, SearchRequest, TaskIntent

POLICY_VERSION = "graphmem_router_v1"
DEFAULT_WEIGHTS: dict[str, float] = {
    ChannelName.FULLTEXT: 1.0,
    ChannelName.VECTOR: 0.5,
    ChannelName.GRAPH: 0.7,
    ChannelName.SUBJECT: 1.0,
}
DEFAULT_TOKEN_BUDGET = 4000

INTENT_BOOSTS: dict[str, dict[str, float]] = {
    "resume_work": {},
    "explain_decision": {"decision": 1.5, "architecture": 1.3},
    "debug_failure": {"bugfix": 1.5, "lesson": 1.3},
    "apply_preference": {"preference": 1.6},
    "review_change": {"decision": 1.2, "bugfix": 1.2, "procedure": 1.2},
    "explore_history": {},
}
ROLE_BOOSTS: dict[str, dict[str, float]] = {
    "coder": {},
    "reviewer": {"bugfix": 1.1},
    "planner": {"decision": 1.1, "architecture": 1.1},
    "researcher": {},
}


class _PlanBody(TypedDict):
    """What a plan's hash covers: every field of RetrievalPlan but the hash and its schema."""

    policy_version: str
    intent: TaskIntent
    role: Role
    risk: Risk
    token_budget: int
    include_superseded: bool
    channel_weights: dict[str, float]
    type_boosts: dict[str, float]
    raw_fallback: bool
    reason_codes: list[str]


def compile_plan(request: SearchRequest) -> RetrievalPlan:
    intent = request.task_intent or "resume_work"
    role = request.role or "coder"
    risk = request.risk or "medium"
    reasons = [f"intent:{intent}", f"role:{role}", f"risk:{risk}"]
    weights = dict(DEFAULT_WEIGHTS)
    if intent == "explore_history":
        weights[ChannelName.GRAPH] = 1.0
    boosts = dict(INTENT_BOOSTS[intent])
    for memory_type, factor in ROLE_BOOSTS[role].items():
        boosts[memory_type] = round(boosts.get(memory_type, 1.0) * factor, 4)
    include_superseded = request.include_superseded
    if include_superseded is None:
        include_superseded = intent == "explore_history"
        reasons.append("include_superseded:intent_default")
    raw_fallback = request.raw_fallback and risk != "high"
    if risk == "high":
        reasons.append("raw_fallback:abstain_high_risk")
    body: _PlanBody = {
        "policy_version": POLICY_VERSION,
        "intent": intent,
        "role": role,
        "risk": risk,
        "token_budget": request.token_budget or DEFAULT_TOKEN_BUDGET,
        "include_superseded": include_superseded,
        "channel_weights": weights,
        "type_boosts": boosts,
        "raw_fallback": raw_fallback,
        "reason_codes": reasons,
    }
    digest = hashlib.sha256(canonical_json(body).encode()).hexdigest()
    return RetrievalPlan(plan_hash=digest, **body)
