"""The pure rules of context packs: the sections, caps, the token count of a line and the
greedy selection under a budget (graphmem/knowledge/packs.py builds and stores a pack with
them; graphmem/knowledge/pack_scoring.py scores its candidates). No driver, no model.

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
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from graphmem.knowledge.models.packs import PackType, Section

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
TEXT_CHARS = 300  # of an item's text placed in its line
RELEVANCE_THRESHOLD = 0.2
SCORE_DIGITS = 4


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


def caps_for(budget: int) -> dict[Section, int]:
    factor = max(1, math.ceil(budget / CAP_BUDGET_STEP))
    return {section: cap * factor for section, cap in BASE_CAPS.items()}


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
    items: list[Item] = field(default_factory=list[Item])  # in rank order
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
