"""The knowledge pipeline's text rules (pure): markers, uncertainty, materiality, the assessment
state decision, claim extraction, scope detection and the promotion gate."""

from __future__ import annotations

import pytest

from graphmem.knowledge import heuristics as rules
from graphmem.knowledge.heuristics import (
    decide_state,
    detect_scope,
    extract_triples,
    fact_key,
    materiality,
    promotion_block,
    scope_counts,
    uncertainty,
)
from graphmem.knowledge.lifecycle import TRANSITIONS, can_move
from graphmem.knowledge.models.chunks import ChunkState

LONG = (
    "The ledger service was reviewed by the platform team during the quarterly planning "
    "session and the outcome was written down for everyone."
)  # 22 words, no ambiguity or completeness word: uncertainty 0


# --- markers -------------------------------------------------------------------------------------
def test_markers_rank_highest_first_and_match_whole_words() -> None:
    assert rules.markers("enrich_ok then FREEZE_CONTEXT and wait_human") == [
        "FREEZE_CONTEXT",
        "WAIT_HUMAN",
        "ENRICH_OK",
    ]
    assert rules.markers("XENRICH_OK NO_ENRICHED ENRICH_OK2") == []


# --- uncertainty ---------------------------------------------------------------------------------
def test_uncertainty_follows_its_formula() -> None:
    assert uncertainty(LONG) == 0.0
    # 22 words, one ambiguity marker: 10 * 1/22 = 0.4545
    assert uncertainty(LONG + " maybe") == pytest.approx(10 / 23, abs=1e-4)
    # brevity: 4 words, nothing else: 0.3 * 16/20
    assert uncertainty("the cache is warm") == pytest.approx(0.24)
    # completeness cancels ambiguity, never below 0
    assert uncertainty(LONG + " confirmed verified approved") == 0.0
    assert uncertainty("maybe TBD, not sure") == 1.0
    assert uncertainty("") == pytest.approx(0.3 * 19 / 20 + 0.0)


def test_uncertainty_matches_whole_words_and_phrases_only() -> None:
    # substrings of markers are no hits: "maybeline", "tbds"? (inflections are not listed)
    assert uncertainty(LONG + " maybeline todoist") == 0.0
    assert uncertainty(LONG + " not\n  sure") > 0.4  # a phrase across whitespace
    # "depends on" is a predicate, not doubt
    assert uncertainty(LONG + " it depends on redis") == 0.0
    assert uncertainty(LONG + " unlikely") == uncertainty(LONG + " likely") > 0


def test_uncertainty_stays_in_range() -> None:
    for text in ("", "x", "maybe " * 50, "done " * 50, LONG * 20):
        assert 0.0 <= uncertainty(text) <= 1.0


# --- materiality ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nothing special here", 0.1),
        ("a critical outage", 0.9),
        ("a bug and a fix", 0.5),
        ("bugs were fixed", 0.5),
        ("the exported balances", 0.8),
        ("config drift", 0.4),
        # the peer's substring false hits are not hits
        ("the prefix changed", 0.1),
        ("turn on debug logging", 0.1),
        ("an errorless run", 0.1),
        ("bridgework and exporter", 0.1),
        ("enrich_fix", 0.1),
    ],
)
def test_materiality_is_the_largest_whole_word_weight(text: str, expected: float) -> None:
    assert materiality(text) == expected


def test_keyword_hits_name_the_keywords() -> None:
    assert rules.keyword_hits("Bugs in the GAAP mapping; prefix") == ["gaap", "mapping", "bug"]


# --- state decision ------------------------------------------------------------------------------
STATES: list[ChunkState] = list(TRANSITIONS)
MARKER_CASES = [["FREEZE_CONTEXT"], ["NO_ENRICH"], ["WAIT_HUMAN"], ["ENRICH_OK"], []]

# Expected final state per (current state, marker) with low uncertainty, policy manual.
EXPECTED: dict[ChunkState, list[ChunkState]] = {
    #                 FREEZE        NO_ENRICH     WAIT_HUMAN        ENRICH_OK     none
    "no_enrich": ["frozen", "no_enrich", "no_enrich", "enrichable", "no_enrich"],
    "enrichable": ["frozen", "no_enrich", "awaiting_human", "enrichable", "enrichable"],
    "uncertain": ["frozen", "no_enrich", "awaiting_human", "enrichable", "uncertain"],
    "awaiting_human": ["frozen", "no_enrich", "awaiting_human", "enrichable", "awaiting_human"],
    "frozen": ["frozen", "frozen", "frozen", "enrichable", "frozen"],
    "stale": ["stale", "stale", "stale", "enrichable", "stale"],
    "archived": ["archived"] * 5,
}


@pytest.mark.parametrize("current", STATES)
@pytest.mark.parametrize("index", range(len(MARKER_CASES)))
def test_only_the_highest_marker_acts_through_legal_moves(current: ChunkState, index: int) -> None:
    found = MARKER_CASES[index]
    decision = decide_state(current, found, 0.0, "manual", False)
    assert decision.final == EXPECTED[current][index]
    assert decision.changed == (decision.final != current)
    for before, after in zip((current, *decision.path), decision.path, strict=False):
        assert can_move(before, after)
    illegal = [note for note in decision.notes if note.startswith("illegal_transition")]
    target = rules.MARKER_TARGET[found[0]] if found else current
    assert bool(illegal) == (target != current and not can_move(current, target))


def test_a_lower_marker_never_acts_when_the_highest_is_illegal() -> None:
    decision = decide_state("no_enrich", ["WAIT_HUMAN", "ENRICH_OK"], 0.0, "manual", False)
    assert (decision.final, decision.annotations) == ("no_enrich", ())
    assert decision.notes == ("illegal_transition:no_enrich->awaiting_human",)


def test_without_a_marker_only_policy_auto_unlocks_no_enrich() -> None:
    manual = decide_state("no_enrich", [], 0.0, "manual", False)
    auto = decide_state("no_enrich", [], 0.0, "auto", False)
    assert (manual.final, manual.notes) == ("no_enrich", ("no_marker_manual_policy",))
    assert (auto.final, auto.path) == ("enrichable", ("enrichable",))
    assert decide_state("stale", [], 0.0, "auto", False).final == "stale"


def test_an_uncertain_enrichable_target_becomes_uncertain_through_enrichable() -> None:
    decision = decide_state("no_enrich", ["ENRICH_OK"], 0.61, "manual", False)
    assert decision.path == ("enrichable", "uncertain")
    assert decision.annotations == (("signal", "ENRICH_OK"),)
    assert decide_state("no_enrich", ["ENRICH_OK"], 0.6, "manual", False).final == "enrichable"
    assert decide_state("enrichable", [], 0.9, "manual", False).final == "uncertain"
    assert decide_state("uncertain", ["ENRICH_OK"], 0.9, "manual", False).changed is False


def test_quarantined_chunks_never_become_enrichable_or_uncertain() -> None:
    for current in ("no_enrich", "enrichable", "uncertain"):
        for marker in (["ENRICH_OK"], []):
            for score in (0.0, 0.9):
                decision = decide_state(current, marker, score, "auto", True)
                assert decision.final == "no_enrich", (current, marker, score)
                assert "quarantined" in decision.notes
    assert decide_state("enrichable", ["FREEZE_CONTEXT"], 0.0, "auto", True).final == "frozen"


def test_annotations_only_when_the_marker_moved_the_chunk() -> None:
    assert decide_state("enrichable", ["FREEZE_CONTEXT"], 0, "manual", False).annotations == (
        ("freeze", "FREEZE_CONTEXT"),
    )
    assert decide_state("enrichable", ["WAIT_HUMAN"], 0, "manual", False).annotations == (
        ("signal", "WAIT_HUMAN"),
    )
    assert decide_state("enrichable", ["NO_ENRICH"], 0, "manual", False).annotations == ()
    assert decide_state("enrichable", ["ENRICH_OK"], 0, "manual", False).annotations == ()
    assert decide_state("frozen", ["FREEZE_CONTEXT"], 0, "manual", False).annotations == ()


# --- claim extraction ----------------------------------------------------------------------------
def _triples(text: str) -> list[tuple[str, str, str]]:
    return [(t.subject, t.predicate, t.object) for t in extract_triples(text)]


def test_all_eight_predicates_with_their_confidence() -> None:
    text = (
        "The pack builder uses the fact index. The exporter depends on the bridge client. "
        "The ledger is the source of truth. Sync requires OAuth tokens. The audit job "
        "produces a daily report. The checker validates every mapping. The archive contains "
        "old invoices. The new importer replaces the legacy loader."
    )
    found = extract_triples(text)
    assert [(t.subject, t.predicate, t.object, t.confidence) for t in found] == [
        ("pack builder", "uses", "fact index", 0.6),
        ("exporter", "depends_on", "bridge client", 0.7),
        ("ledger", "is", "source of truth", 0.4),
        ("Sync", "requires", "OAuth tokens", 0.65),
        ("audit job", "produces", "daily report", 0.6),
        ("checker", "validates", "every mapping", 0.7),
        ("archive", "contains", "old invoices", 0.5),
        ("new importer", "replaces", "legacy loader", 0.55),
    ]
    for triple in found:
        assert text[triple.start : triple.end] == triple.excerpt
        assert triple.excerpt.startswith(triple.subject) and triple.excerpt.endswith(triple.object)


def test_claims_never_span_punctuation() -> None:
    assert _triples("The cache, uses redis") == []
    assert _triples("The builder uses (redis)") == []
    assert _triples("The cache\nuses redis") == []
    assert _triples("The cache uses redis; it is fast") == [("cache", "uses", "redis")]


def test_subjects_lose_leading_conjunctions_articles_and_trailing_auxiliaries() -> None:
    assert _triples("and the trip uses a car.") == [("trip", "uses", "car")]
    assert _triples("So then the builder must also use the template engine.") == [
        ("builder", "uses", "template engine")
    ]
    assert _triples("The exporter depends on the bridge client and the job uses a queue") == [
        ("exporter", "depends_on", "bridge client"),
        ("job", "uses", "queue"),
    ]


def test_filters_drop_short_pronoun_negated_reflexive_and_duplicate_triples() -> None:
    assert _triples("It is a tool. This is great. They use redis. We use X.") == []
    assert _triples("Foo is foo. Foo is FOO.") == []
    assert _triples("The cache does not use redis. The cache is not fast.") == []
    assert _triples("The cache never uses redis. The cache doesn't use disks.") == []
    assert _triples("The cache uses redis. the  CACHE uses Redis.") == [("cache", "uses", "redis")]
    assert _triples("The report is one two three four five six seven eight nine") == []


def test_verbs_are_whole_words() -> None:
    assert _triples("The misuses of reuse happen; the user-uses table reissues tokens.") == []
    assert _triples("The island contains palms") == [("island", "contains", "palms")]


def test_normalised_keys() -> None:
    [triple] = extract_triples("The  Pack   Builder uses the Fact Index")
    assert triple.key == "pack builder|uses|fact index"
    assert fact_key("pack builder", "uses", "fact index") == "kb:pack builder|uses|fact index"
    long_key = fact_key("a" * 150, "is", "b" * 150)
    assert len(long_key) == 200 and long_key.startswith("kb:" + "a" * 150)
    assert long_key != fact_key("a" * 150, "is", "b" * 151)


# --- scope detection -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "scope"),
    [
        ("nothing in particular", "memory"),
        ("knowledge about entities", "memory"),
        ("sync and push every night", "bridge"),
        ("the column template", "mapping"),
        ("validate and check it", "validation"),
        ("export the pdf report", "export"),
        ("sync once; map once", "bridge"),  # tie: bridge before mapping
        ("report, check, column, sync, memory", "memory"),  # five-way tie: memory first
        ("checkout the mappings and maps", "mapping"),  # checkout is no check
        ("pushover pullman reporter", "memory"),  # no substring hits
    ],
)
def test_scope_is_the_keyword_argmax_with_tie_order(text: str, scope: str) -> None:
    assert detect_scope(text) == scope


def test_scope_hint_overrides_and_counts_are_whole_word() -> None:
    assert detect_scope("sync sync sync", "export") == "export"
    assert scope_counts("mapping maps") == {
        "memory": 0,
        "bridge": 0,
        "mapping": 2,
        "validation": 0,
        "export": 0,
    }
    assert [rules.requires_human(s) for s in rules.SCOPE_ORDER] == [False, True, True, True, True]


# --- promotion gate ------------------------------------------------------------------------------
# (mode, scope, evidence, confidence, requires_human) -> reason or None (promoted)
GATE: list[tuple[str, str, int, float, bool, str | None]] = [
    ("human_confirmed", "memory", 1, 0.1, False, None),
    ("human_confirmed", "mapping", 1, 0.1, True, None),
    ("human_confirmed", "export", 0, 0.0, True, None),
    ("imported", "memory", 1, 0.1, False, None),
    ("imported", "bridge", 5, 0.9, True, "human_confirmation_required"),
    ("multi_evidence", "validation", 5, 0.9, True, "human_confirmation_required"),
    ("multi_evidence", "memory", 2, 0.9, False, "insufficient_evidence"),
    ("multi_evidence", "memory", 3, 0.69, False, "low_confidence"),
    ("multi_evidence", "memory", 3, 0.7, False, None),
    ("multi_evidence", "memory", 9, 1.0, False, None),
    ("multi_evidence", "memory", 1, 0.4, False, "insufficient_evidence"),
    ("auto_layer1", "memory", 1, 0.7, False, None),
    ("auto_layer1", "memory", 1, 0.65, False, "low_confidence"),
    ("auto_layer1", "memory", 1, 0.9, True, "human_confirmation_required"),
    ("auto_layer1", "export", 1, 0.9, True, "human_confirmation_required"),
]


@pytest.mark.parametrize(("mode", "scope", "evidence", "confidence", "human", "reason"), GATE)
def test_promotion_gate(
    mode: rules.PromotionMode,
    scope: str,
    evidence: int,
    confidence: float,
    human: bool,
    reason: str | None,
) -> None:
    block = promotion_block(mode, scope, evidence, confidence, human)
    assert (block.reason if block else None) == reason
    if block:
        assert block.detail


def test_wrong_scope_for_a_non_sensitive_non_memory_scope() -> None:
    """Every scope but memory is sensitive today; wrong_scope guards a future extra scope."""
    block = promotion_block("multi_evidence", "notes", 5, 0.9, False)
    assert block is not None and block.reason == "wrong_scope"


@pytest.mark.parametrize(
    ("text", "quarantined", "state"),
    [
        ("ENRICH_OK notes", False, "enrichable"),
        ("NO_ENRICH ENRICH_OK notes", False, "no_enrich"),  # the highest marker acts
        ("WAIT_HUMAN ENRICH_OK notes", False, "enrichable"),  # WAIT_HUMAN acts on assess
        ("FREEZE_CONTEXT ENRICH_OK notes", False, "frozen"),
        ("ENRICH_OK notes", True, "no_enrich"),  # quarantined text never starts enrichable
        ("plain notes", False, "no_enrich"),
    ],
)
def test_a_new_chunk_starts_in_the_state_of_its_highest_marker(
    text: str, quarantined: bool, state: str
) -> None:
    assert rules.initial_state(text, quarantined) == state
