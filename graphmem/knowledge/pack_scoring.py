"""Scoring the candidates of a context pack: relevance to the task, trust and freshness, each
candidate row made into an ``Item`` with the line it would place in the body. Pure: rules and
arithmetic (graphmem/knowledge/pack_rules.py selects among the items).

Relevance (task-scoped; unscoped packs use 1.0). Terms of a text: its lowercase words of
letters and digits (whole words, never substrings), at least 3 characters, not a stop word,
with a light plural fold (``dependencies`` → ``dependency``, ``packs`` → ``pack``). Task terms
come from the workstream's title and next_action. ``overlap = min(1, |task ∩ item| /
min(|task|, 3))``: three shared words (or all of a shorter task's) is full relevance. A linked
item gets ``min(1, 0.5 + overlap)``. Items below 0.2 are dropped.

Score of an item:
    score = role_weight[section] x clamp(base, 0.2, 1) x relevance
            x (0.45 + 0.55 x trust) x (0.75 + 0.25 x freshness)
- base: confidence (facts, claims), priority (questions), materiality (chunks; 0.1 when
  not assessed yet);
- trust: facts by source_class (production_verified 1.0, human_confirmed 0.9, tool_observed
  0.8, agent_claimed 0.7; verified 1.0), halved when contradicted (verification_status or an
  open contradiction count); claims min(0.7, 0.2 + 0.5 x confidence); questions 0.55; chunks
  0.35 enrichable, 0.22 uncertain, 0.16 awaiting_human;
- freshness = 2^(-age_days / 21), age since recorded_at (facts), created_at (claims,
  questions) or updated_at (chunks).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from graphmem.core.clock import parse_iso_or_none
from graphmem.core.text import TERM_STOP_WORDS, fold, raw_words
from graphmem.knowledge.models.packs import PackCandidates, Section
from graphmem.knowledge.pack_rules import SCORE_DIGITS, Item, one_line
from graphmem.knowledge.rows import (
    Candidate,
    ChunkCandidate,
    ClaimCandidate,
    FactCandidate,
    PackCandidatesRow,
    QuestionCandidate,
)

LINKED_RELEVANCE = 0.5
FULL_OVERLAP_TERMS = 3
FRESHNESS_HALF_LIFE_DAYS = 21.0

FACT_TRUST = {
    "production_verified": 1.0,
    "human_confirmed": 0.9,
    "tool_observed": 0.8,
    "agent_claimed": 0.7,
}
CHUNK_TRUST = {"enrichable": 0.35, "uncertain": 0.22, "awaiting_human": 0.16}
QUESTION_TRUST = 0.55
UNASSESSED_MATERIALITY = 0.1


def terms(text: str) -> frozenset[str]:
    """The whole words of a text that carry meaning (see the module docstring)."""
    return frozenset(
        fold(word) for word in raw_words(text) if len(word) >= 3 and word not in TERM_STOP_WORDS
    )


def relevance(task_terms: frozenset[str] | None, item_terms: frozenset[str], linked: bool) -> float:
    """1.0 unscoped; else the word overlap with the task, lifted for linked items."""
    if task_terms is None:
        return 1.0
    overlap = 0.0
    if task_terms:
        shared = len(task_terms & item_terms)
        overlap = min(1.0, shared / min(len(task_terms), FULL_OVERLAP_TERMS))
    return min(1.0, LINKED_RELEVANCE + overlap) if linked else overlap


def freshness(at: datetime | None, now: datetime) -> float:
    if at is None:
        return 0.0
    age_days = max(0.0, (now - at).total_seconds() / 86_400)
    return 0.5 ** (age_days / FRESHNESS_HALF_LIFE_DAYS)


def score(weight: float, base: float, relevance_: float, trust: float, fresh: float) -> float:
    clamped = min(1.0, max(0.2, base))
    return weight * clamped * relevance_ * (0.45 + 0.55 * trust) * (0.75 + 0.25 * fresh)


def contradicted(node: FactCandidate) -> bool:
    return node.get("verification_status") == "contradicted" or bool(
        node.get("contradiction_count")
    )


def fact_trust(node: FactCandidate) -> float:
    trust = FACT_TRUST.get(node.get("source_class") or "", 0.7)
    if node.get("verification_status") == "verified":
        trust = 1.0
    return trust / 2 if contradicted(node) else trust


def claim_trust(confidence: float) -> float:
    return min(0.7, 0.2 + 0.5 * confidence)


# --- candidates to items -------------------------------------------------------------------------
def _predicate(predicate: str | None) -> str:
    return (predicate or "").replace("_", " ")


def _value_text(value_json: str | None) -> str:
    if value_json is None:
        return ""
    value = json.loads(value_json)
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class Scoring:
    weights: dict[Section, float]
    task_terms: frozenset[str] | None
    now: datetime

    def item(
        self,
        section: Section,
        row: Candidate,
        text: str,
        label: str,
        base: float,
        trust: float,
        at: datetime | None,
    ) -> Item:
        linked = bool(row.get("linked"))
        fresh = freshness(at, self.now)
        relevant = relevance(self.task_terms, terms(text), linked)
        return Item(
            section=section,
            id=row["id"],
            element_id=row["element_id"],
            text=text,
            line=f"- [{label}] {one_line(text)}",
            base=base,
            trust=trust,
            freshness=round(fresh, SCORE_DIGITS),
            relevance=round(relevant, SCORE_DIGITS),
            score=round(score(self.weights[section], base, relevant, trust, fresh), 6),
            linked=linked,
        )

    def fact(self, row: FactCandidate) -> Item:
        if row.get("subject") and row.get("object"):
            text = f"{row['subject']} {_predicate(row.get('predicate'))} {row['object']}"
        else:
            text = f"{row['key']} = {_value_text(row.get('value_json'))}"
        recorded = parse_iso_or_none(row.get("recorded_at"))
        day = f", {recorded.date().isoformat()}" if recorded else ""
        flag = ", contradicted" if contradicted(row) else ""
        confidence = float(row.get("confidence") or 0.0)
        label = f"fact {confidence:.2f}{day}{flag}"
        return self.item("facts", row, text, label, confidence, fact_trust(row), recorded)

    def claim(self, row: ClaimCandidate) -> Item:
        subject, obj = row.get("subject") or "", row.get("object") or ""
        text = f"{subject} {_predicate(row.get('predicate'))} {obj}"
        confidence = float(row.get("confidence") or 0.0)
        scope = row.get("scope") or "memory"
        review = ", needs human review" if row.get("requires_human") else ""
        return self.item(
            "claims",
            row,
            text.strip(),
            f"claim {confidence:.2f}, {scope}{review}",
            confidence,
            claim_trust(confidence),
            parse_iso_or_none(row.get("created_at")),
        )

    def question(self, row: QuestionCandidate) -> Item:
        priority = float(row.get("priority") or 0.0)
        kind = row.get("type") or "question"
        return self.item(
            "questions",
            row,
            row.get("text") or "",
            f"question {kind} {priority:.2f}",
            priority,
            QUESTION_TRUST,
            parse_iso_or_none(row.get("created_at")),
        )

    def chunk(self, row: ChunkCandidate) -> Item:
        title = row.get("title")
        body = row.get("body") or ""
        text = f"{title}: {body}" if title else body
        state = row["state"]
        materiality = row.get("materiality")
        base = UNASSESSED_MATERIALITY if materiality is None else float(materiality)
        return self.item(
            "chunks",
            row,
            text,
            f"chunk {state} {base:.2f}",
            base,
            CHUNK_TRUST.get(state, 0.16),
            parse_iso_or_none(row.get("updated_at")),
        )


C = TypeVar("C", bound=Candidate)


def _distinct(rows: list[C]) -> list[C]:
    """One row per node; a row reached as linked wins over the same node unlinked."""
    by_element: dict[str, C] = {}
    for row in rows:
        held = by_element.get(row["element_id"])
        if held is None or (row.get("linked") and not held.get("linked")):
            by_element[row["element_id"]] = row
    return list(by_element.values())


def candidate_items(row: PackCandidatesRow, scoring: Scoring) -> tuple[list[Item], PackCandidates]:
    """The pools' items, in section order (facts, claims, questions, chunks), and their sizes."""
    facts, claims = _distinct(row["facts"]), _distinct(row["claims"])
    questions, chunks = _distinct(row["questions"]), _distinct(row["chunks"])
    items = [
        *(scoring.fact(node) for node in facts),
        *(scoring.claim(node) for node in claims),
        *(scoring.question(node) for node in questions),
        *(scoring.chunk(node) for node in chunks),
    ]
    counts = PackCandidates(
        facts=len(facts), claims=len(claims), questions=len(questions), chunks=len(chunks)
    )
    return items, counts
