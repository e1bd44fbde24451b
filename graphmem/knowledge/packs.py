"""Context packs: role-specific context compiled from facts, claims, questions and chunks under
a token budget. Deterministic: rules and arithmetic, no model.

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
Role weights (facts / claims / questions / chunks): planner 1 / .7 / .9 / .3, reviewer 1 / .8 /
.5 / .4, executor 1 / .5 / .3 / .6, bridge_checker .8 / .9 / .7 / .5, handoff 1 / .8 / 1 / .2.
Every section is considered for every role (the weights order them; none is cut off).

Greedy selection under the budget. Items are walked best score first (ties: section order,
then id); an item is skipped, and the walk goes on, when its section is at its cap, when the
same text (whitespace-folded, case-folded) was already taken, or when its line (plus its
section's header line if it is the section's first item) would exceed the remaining budget.
Caps per section at the default budget: facts 12, claims 6, questions 4, chunks 6; they scale
with the budget: ``cap x ceil(budget / 4000)`` (at least x1). A negative budget selects
nothing.

Tokens. The body is lines, each ending in a newline: a section header (``## Canonical
Facts``, ``## Provisional Claims (unverified)``, ``## Open Questions``, ``## Context
Fragments``) then one line per item, such as ``- [fact 0.90, 2026-01-05] key = value``. A
line of n characters costs ``ceil((n + 1) / 4)`` tokens (its newline counted); item texts
are folded to one line and cut at 300 characters (``…``). ``token_usage`` is the sum over
every line of the body, headers included, and never exceeds the budget.

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

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.core.clock import parse_iso_or_none
from graphmem.core.errors import NotFound
from graphmem.core.ids import new_id
from graphmem.core.models import pick
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.knowledge.lifecycle import record_run
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
from graphmem.store import TenantStore

SECTIONS: tuple[Section, ...] = ("facts", "claims", "questions", "chunks")
HEADERS: dict[Section, str] = {
    "facts": "## Canonical Facts",
    "claims": "## Provisional Claims (unverified)",
    "questions": "## Open Questions",
    "chunks": "## Context Fragments",
}
ROLE_WEIGHTS: dict[PackType, dict[Section, float]] = {
    "planner": {"facts": 1.0, "claims": 0.7, "questions": 0.9, "chunks": 0.3},
    "reviewer": {"facts": 1.0, "claims": 0.8, "questions": 0.5, "chunks": 0.4},
    "executor": {"facts": 1.0, "claims": 0.5, "questions": 0.3, "chunks": 0.6},
    "bridge_checker": {"facts": 0.8, "claims": 0.9, "questions": 0.7, "chunks": 0.5},
    "handoff": {"facts": 1.0, "claims": 0.8, "questions": 1.0, "chunks": 0.2},
}
BASE_CAPS: dict[Section, int] = {"facts": 12, "claims": 6, "questions": 4, "chunks": 6}
CAP_BUDGET_STEP = 4000
MAX_POOL = 500
MAX_CHUNK_POOL = 200
LINKED_CHUNKS = 100
BODY_CHARS = 2000  # of a chunk's body read for relevance and preview
TEXT_CHARS = 300  # of an item's text placed in its line
RELEVANCE_THRESHOLD = 0.2
LINKED_RELEVANCE = 0.5
FULL_OVERLAP_TERMS = 3
FRESHNESS_HALF_LIFE_DAYS = 21.0
PREVIEW_ITEMS = 5
PREVIEWABLE_QUALITY = 0.5
SCORE_DIGITS = 4
SELECTION_POLICY = "graphmem_greedy_v1"

FACT_TRUST = {
    "production_verified": 1.0,
    "human_confirmed": 0.9,
    "tool_observed": 0.8,
    "agent_claimed": 0.7,
}
CHUNK_TRUST = {"enrichable": 0.35, "uncertain": 0.22, "awaiting_human": 0.16}
QUESTION_TRUST = 0.55
UNASSESSED_MATERIALITY = 0.1

_STOP_TEXT = """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each few for
    from further had has have having he her here hers herself him himself his how i if in into
    is it its itself just me more most my myself no nor not now of off on once only or other
    our ours ourselves out over own same she should so some such than that the their theirs
    them themselves then there these they this those through to too under until up very was
    we were what when where which while who whom why will with would you your yours yourself
    yourselves get got make need needs next via per use uses used using one two
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[^\W_]+")


# --- pure rules ----------------------------------------------------------------------------------
def tokens(line: str) -> int:
    """Tokens of one body line: ceil((characters + 1) / 4), its newline counted."""
    return -(-(len(line) + 1) // 4)


def body_tokens(body: str) -> int:
    """Tokens of a whole body (what token_usage reports): the sum over its lines."""
    return sum(tokens(line) for line in body.splitlines())


def one_line(text: str, limit: int = TEXT_CHARS) -> str:
    """Whitespace (line breaks included) folded to single spaces, cut at ``limit`` characters."""
    folded = " ".join(text.split())
    return folded if len(folded) <= limit else folded[: limit - 1].rstrip() + "…"


def fold(word: str) -> str:
    """A light plural fold: dependencies → dependency, packs → pack (not class, bus)."""
    if len(word) > 5 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def terms(text: str) -> frozenset[str]:
    """The whole words of a text that carry meaning (see the module docstring)."""
    return frozenset(
        fold(word)
        for word in _WORD.findall(text.lower())
        if len(word) >= 3 and word not in STOP_WORDS
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


def caps_for(budget: int) -> dict[Section, int]:
    factor = max(1, math.ceil(budget / CAP_BUDGET_STEP))
    return {section: cap * factor for section, cap in BASE_CAPS.items()}


def contradicted(node: dict[str, Any]) -> bool:
    return node.get("verification_status") == "contradicted" or bool(
        node.get("contradiction_count")
    )


def fact_trust(node: dict[str, Any]) -> float:
    trust = FACT_TRUST.get(node.get("source_class") or "", 0.7)
    if node.get("verification_status") == "verified":
        trust = 1.0
    return trust / 2 if contradicted(node) else trust


def claim_trust(confidence: float) -> float:
    return min(0.7, 0.2 + 0.5 * confidence)


@dataclass(frozen=True)
class Item:
    """One candidate, scored, with the exact line it would place in the body."""

    section: Section
    id: str
    element_id: str
    text: str  # what is deduplicated on, before cutting
    line: str
    base: float
    trust: float
    freshness: float
    relevance: float
    score: float
    linked: bool

    @property
    def dedupe_key(self) -> str:
        return " ".join(self.text.lower().split())


@dataclass
class Selection:
    items: list[Item] = field(default_factory=list)  # in rank order
    token_usage: int = 0
    skipped: dict[str, int] = field(
        default_factory=lambda: {"irrelevant": 0, "budget": 0, "cap": 0, "duplicate": 0}
    )

    def count(self, section: Section) -> int:
        return sum(1 for item in self.items if item.section == section)

    @property
    def body(self) -> str:
        lines: list[str] = []
        for section in SECTIONS:
            chosen = [item for item in self.items if item.section == section]
            if chosen:
                lines.append(HEADERS[section])
                lines.extend(item.line for item in chosen)
        return "".join(line + "\n" for line in lines)

    def mean(self, attribute: str) -> float:
        total = sum(item.score for item in self.items)
        if not self.items or total <= 0:
            return 0.0
        weighted = sum(item.score * getattr(item, attribute) for item in self.items)
        return round(weighted / total, SCORE_DIGITS)


def select(candidates: list[Item], budget: int, caps: dict[Section, int]) -> Selection:
    """Greedy, best score first, skipping what does not fit (see the module docstring)."""
    selection = Selection()
    ranked = sorted(candidates, key=lambda i: (-i.score, SECTIONS.index(i.section), i.id))
    counts: dict[Section, int] = dict.fromkeys(SECTIONS, 0)
    seen: set[str] = set()
    remaining = budget
    for item in ranked:
        if item.relevance < RELEVANCE_THRESHOLD:
            selection.skipped["irrelevant"] += 1
            continue
        if counts[item.section] >= caps[item.section]:
            selection.skipped["cap"] += 1
            continue
        if item.dedupe_key in seen:
            selection.skipped["duplicate"] += 1
            continue
        cost = tokens(item.line) + (
            tokens(HEADERS[item.section]) if not counts[item.section] else 0
        )
        if cost > remaining:
            selection.skipped["budget"] += 1
            continue
        remaining -= cost
        selection.token_usage += cost
        counts[item.section] += 1
        seen.add(item.dedupe_key)
        selection.items.append(item)
    return selection


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
        row: dict[str, Any],
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

    def fact(self, row: dict[str, Any]) -> Item:
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

    def claim(self, row: dict[str, Any]) -> Item:
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

    def question(self, row: dict[str, Any]) -> Item:
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

    def chunk(self, row: dict[str, Any]) -> Item:
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


def _distinct(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per node; a row reached as linked wins over the same node unlinked."""
    by_element: dict[str, dict[str, Any]] = {}
    for row in rows:
        held = by_element.get(row["element_id"])
        if held is None or (row.get("linked") and not held.get("linked")):
            by_element[row["element_id"]] = row
    return list(by_element.values())


def candidate_items(row: dict[str, Any], scoring: Scoring) -> tuple[list[Item], PackCandidates]:
    pools = {section: _distinct(row[section]) for section in SECTIONS}
    make = {
        "facts": scoring.fact,
        "claims": scoring.claim,
        "questions": scoring.question,
        "chunks": scoring.chunk,
    }
    items = [make[section](node) for section in SECTIONS for node in pools[section]]
    counts = PackCandidates(**{section: len(pools[section]) for section in SECTIONS})
    return items, counts


# --- building a pack inside a transaction --------------------------------------------------------
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
    found = await w.run("knowledge/get_workstream_focus", id=spec.target_ref)
    if not found:
        raise NotFound("workstream", spec.target_ref)
    focus = found[0]
    task_terms = terms(f"{focus.get('title') or ''} {focus.get('next_action') or ''}")
    title = f"{spec.pack_type} pack for {one_line(focus.get('title') or spec.target_ref, 100)}"
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
    return candidate_items(rows[0], scoring)


async def _retire_current(w: Write, spec: _PackSpec, pack_id: str) -> list[str]:
    """Retire the current packs of the same kind and target in favour of ``pack_id``."""
    rows = await w.run(
        "knowledge/retire_current_packs",
        pack_type=spec.pack_type,
        scope_key=spec.scope_key,
        pack_id=pack_id,
    )
    return rows[0]["retired_ids"]


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
