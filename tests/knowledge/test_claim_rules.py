"""The claim rules (pure): claim extraction, scope detection and the promotion gate
(graphmem/knowledge/claim_rules.py)."""

from __future__ import annotations

import pytest

from graphmem.knowledge import claim_rules as rules
from graphmem.knowledge.claim_rules import (
    detect_scope,
    extract_triples,
    fact_key,
    promotion_block,
    scope_counts,
)

pytestmark = pytest.mark.pure


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
