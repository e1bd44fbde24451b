"""Deterministic text rules of the knowledge pipeline's assessment (no model, no network,
English only): word matching, signal markers, uncertainty, materiality and the state decision.
Claim extraction, scope detection and the promotion gate are graphmem/knowledge/claim_rules.py.

Word matching. Every keyword list below matches whole words or whole phrases, case-
insensitively: a hit may not touch a letter, digit, underscore, hyphen-joined word part on its
side (``prefix`` is no ``fix``, ``debug`` no ``bug``, ``checkout`` no ``check``, ``enrich_fix``
no ``fix``); inside a phrase any run of whitespace matches. Lists marked *inflected* also match
the plain endings -s, -es, -ed, -ing (``bugs``, ``exported``, ``syncing``).

Signal markers. Four markers in a chunk's body, ranked FREEZE_CONTEXT > NO_ENRICH > WAIT_HUMAN >
ENRICH_OK; only the highest present acts (``decide_state``).

Uncertainty, in [0, 1], over words = whitespace tokens (at least 1):
  ambiguity    a = min(1.0, 10 * AMBIGUITY_MARKERS hits / words)
  completeness c = min(0.5, 10 * COMPLETENESS_WORDS hits / words)
  brevity      b = 0.3 * max(0, (20 - words) / 20)      (very short text is uncertain)
  uncertainty  = clamp(a - c + b, 0, 1), rounded to 4 places.
"depends on" is *not* an ambiguity marker (it is a claim predicate, not doubt).

Materiality, in [0, 1]: the largest weight of the MATERIALITY_WEIGHTS keywords present
(inflected), DEFAULT_MATERIALITY (0.1) when none is.

Assessment (``decide_state``), from the chunk's current state, its markers, its uncertainty,
the enrich policy and its quarantine flag:
  1. marker step: the highest marker picks the target: FREEZE_CONTEXT → frozen, NO_ENRICH →
     no_enrich, WAIT_HUMAN → awaiting_human, ENRICH_OK → enrichable. With no marker a no_enrich
     chunk stays no_enrich under policy manual (the default: enrichment is opt-in) and is
     unlocked to enrichable under policy auto; every other state stays where it is.
  2. a target of enrichable becomes uncertain when uncertainty > 0.6 (UNCERTAIN_ABOVE).
  3. a quarantined chunk never becomes enrichable or uncertain (the states extraction accepts):
     such a target becomes no_enrich.
  4. the move must be legal (graphmem/knowledge/lifecycle.py). no_enrich → uncertain, which the
     table lacks, goes through enrichable (two legal steps). An illegal move changes nothing:
     there is no fall-through to a lower marker (a fresh no_enrich chunk with WAIT_HUMAN stays
     no_enrich).
  Notes: a FREEZE_CONTEXT that freezes records a "freeze" annotation; a WAIT_HUMAN or ENRICH_OK
  whose own target state was reached records a "signal" annotation. NO_ENRICH records none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.knowledge.lifecycle import can_move
from graphmem.knowledge.models.chunks import ChunkState
from graphmem.knowledge.models.pipeline import EnrichPolicy

# --- word matching -------------------------------------------------------------------------------
_EDGE = "\\w'\u2019-"  # characters a whole-word hit may not touch
_INFLECTIONS = r"(?:s|es|ed|ing)?"


def wordset(*lines: str) -> frozenset[str]:
    """A set of words written as space-separated text."""
    return frozenset(" ".join(lines).split())


def word_pattern(words: tuple[str, ...], *, inflected: bool = False) -> re.Pattern[str]:
    """Whole words or phrases, longest first; phrases match any whitespace run."""
    alternatives = sorted(words, key=len, reverse=True)
    body = "|".join(r"\s+".join(map(re.escape, word.split())) for word in alternatives)
    suffix = _INFLECTIONS if inflected else ""
    return re.compile(rf"(?<![{_EDGE}])(?:{body}){suffix}(?![{_EDGE}])", re.IGNORECASE)


def count_hits(pattern: re.Pattern[str], text: str) -> int:
    return sum(1 for _ in pattern.finditer(text))


# --- signal markers ------------------------------------------------------------------------------
MARKERS = ("FREEZE_CONTEXT", "NO_ENRICH", "WAIT_HUMAN", "ENRICH_OK")  # highest rank first
MARKER_PATTERN = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(MARKERS) + r")(?![A-Za-z0-9_])", re.I)
MARKER_TARGET: dict[str, ChunkState] = {
    "FREEZE_CONTEXT": "frozen",
    "NO_ENRICH": "no_enrich",
    "WAIT_HUMAN": "awaiting_human",
    "ENRICH_OK": "enrichable",
}
MARKER_ANNOTATION: dict[str, str] = {
    "FREEZE_CONTEXT": "freeze",
    "WAIT_HUMAN": "signal",
    "ENRICH_OK": "signal",
}


def markers(text: str) -> list[str]:
    """The markers present, highest rank first."""
    found = {match.upper() for match in MARKER_PATTERN.findall(text)}
    return [marker for marker in MARKERS if marker in found]


def initial_state(text: str, quarantined: bool = False) -> ChunkState:
    """A new chunk's state from its markers, highest rank first: frozen with FREEZE_CONTEXT,
    no_enrich with NO_ENRICH (an explicit opt-out outranks ENRICH_OK), enrichable with
    ENRICH_OK, else no_enrich (enrichment is opt-in). WAIT_HUMAN acts when the chunk is
    assessed (enrichable → awaiting_human). Quarantined text never starts enrichable."""
    found = markers(text)
    if "FREEZE_CONTEXT" in found:
        return "frozen"
    if "ENRICH_OK" in found and "NO_ENRICH" not in found and not quarantined:
        return "enrichable"
    return "no_enrich"


# --- uncertainty and materiality -----------------------------------------------------------------
AMBIGUITY_MARKERS: tuple[str, ...] = (
    "perhaps",
    "maybe",
    "unclear",
    "not clear",
    "unsure",
    "not sure",
    "possibly",
    "likely",
    "unlikely",
    "might",
    "unknown",
    "todo",
    "tbd",
    "fixme",
    "to be determined",
)
COMPLETENESS_WORDS: tuple[str, ...] = (
    "confirmed",
    "verified",
    "agreed",
    "approved",
    "decided",
    "final",
    "done",
    "complete",
    "completed",
    "accepted",
)
AMBIGUITY_DENSITY = 10.0  # hits per word are scaled by this
AMBIGUITY_CAP = 1.0
COMPLETENESS_CAP = 0.5
SHORT_TEXT_WORDS = 20  # below this many words a text is (partly) uncertain
SHORT_TEXT_WEIGHT = 0.3
UNCERTAIN_ABOVE = 0.6  # an enrichable target above this uncertainty becomes uncertain

MATERIALITY_WEIGHTS: dict[str, float] = {  # inflected
    "critical": 0.9,
    "accounting": 0.9,
    "gaap": 0.9,
    "ifrs": 0.9,
    "mapping": 0.8,
    "validation": 0.8,
    "balance": 0.8,
    "financial": 0.8,
    "audit": 0.8,
    "compliance": 0.8,
    "bridge": 0.7,
    "export": 0.7,
    "error": 0.6,
    "bug": 0.5,
    "fix": 0.4,
    "config": 0.4,
    "configuration": 0.4,
}
DEFAULT_MATERIALITY = 0.1

_AMBIGUITY = word_pattern(AMBIGUITY_MARKERS)
_COMPLETENESS = word_pattern(COMPLETENESS_WORDS)
_MATERIALITY = word_pattern(tuple(MATERIALITY_WEIGHTS), inflected=True)
_INFLECTION_TAIL = re.compile(r"(?:s|es|ed|ing)$")


def _clamp(value: float) -> float:
    return round(min(1.0, max(0.0, value)), 4)


def uncertainty(text: str) -> float:
    words = max(1, len(text.split()))
    ambiguity = min(AMBIGUITY_CAP, count_hits(_AMBIGUITY, text) / words * AMBIGUITY_DENSITY)
    complete = min(COMPLETENESS_CAP, count_hits(_COMPLETENESS, text) / words * AMBIGUITY_DENSITY)
    brevity = SHORT_TEXT_WEIGHT * max(0.0, (SHORT_TEXT_WORDS - words) / SHORT_TEXT_WORDS)
    return _clamp(ambiguity - complete + brevity)


def _keyword_of(hit: str, keywords: dict[str, float] | tuple[str, ...]) -> str | None:
    """The listed keyword an inflected hit stands for."""
    word = " ".join(hit.lower().split())
    if word in keywords:
        return word
    stem = _INFLECTION_TAIL.sub("", word)
    for candidate in (stem, word[:-1], word[:-2], word[:-3]):
        if candidate in keywords:
            return candidate
    return None


def materiality(text: str) -> float:
    weights = [
        MATERIALITY_WEIGHTS[keyword]
        for hit in _MATERIALITY.findall(text)
        if (keyword := _keyword_of(hit, MATERIALITY_WEIGHTS)) is not None
    ]
    return max(weights, default=DEFAULT_MATERIALITY)


# --- the assessment state decision ---------------------------------------------------------------
@dataclass(frozen=True)
class StateDecision:
    """What assess_context does to a chunk's state."""

    final: ChunkState
    path: tuple[ChunkState, ...]  # states moved through, empty when nothing moves
    marker: str | None  # the highest marker present (the one that acts), if any
    annotations: tuple[tuple[str, str], ...]  # (kind, marker) notes to record
    notes: tuple[str, ...]  # why: no_marker_manual_policy, high_uncertainty, quarantined, ...

    @property
    def changed(self) -> bool:
        return bool(self.path)


def route(current: ChunkState, target: ChunkState) -> tuple[ChunkState, ...] | None:
    """The legal path from current to target: () when equal, one step when the table allows
    it; an uncertain target may also be reached through enrichable (the uncertainty step
    turns an enrichable target into uncertain, and no_enrich → uncertain is not in the table).
    None when there is no legal path."""
    if target == current:
        return ()
    if can_move(current, target):
        return (target,)
    if target == "uncertain" and can_move(current, "enrichable"):
        return ("enrichable", "uncertain")
    return None


def decide_state(
    current: ChunkState,
    found_markers: list[str],
    uncertainty_score: float,
    policy: EnrichPolicy,
    quarantined: bool,
) -> StateDecision:
    marker = found_markers[0] if found_markers else None
    notes: list[str] = []
    if marker is not None:
        target = MARKER_TARGET[marker]
    elif current == "no_enrich" and policy == "auto":
        target = "enrichable"
        notes.append("no_marker_auto_policy")
    else:
        target = current
        if current == "no_enrich":
            notes.append("no_marker_manual_policy")
    marker_target = target
    if target == "enrichable" and uncertainty_score > UNCERTAIN_ABOVE:
        target = "uncertain"
        notes.append("high_uncertainty")
    if quarantined and target in ("enrichable", "uncertain"):
        target = "no_enrich"
        notes.append("quarantined")
    path = route(current, target)
    if path is None:
        notes.append(f"illegal_transition:{current}->{target}")
        path = ()
    annotations: tuple[tuple[str, str], ...] = ()
    if marker in MARKER_ANNOTATION and marker_target in path:
        annotations = ((MARKER_ANNOTATION[marker], marker),)
    final = path[-1] if path else current
    return StateDecision(final, path, marker, annotations, tuple(notes))
