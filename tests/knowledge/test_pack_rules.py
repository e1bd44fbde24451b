"""The pure rules of context packs: token counting and the greedy selection under a budget
(graphmem/knowledge/pack_rules.py), text folding, relevance terms and scoring
(graphmem/knowledge/pack_scoring.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.knowledge.pack_rules import (
    HEADERS,
    SECTIONS,
    Item,
    body_tokens,
    caps_for,
    one_line,
    select,
    tokens,
)
from graphmem.knowledge.pack_scoring import freshness, relevance, score, terms

pytestmark = pytest.mark.pure

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def item(n: int, section: str = "facts", text: str | None = None, value: float = 0.5) -> Item:
    text = text or f"item {n}"
    return Item(
        section=section,  # type: ignore[arg-type]
        id=f"id-{n}",
        element_id=f"e-{n}",
        text=text,
        line=f"- [{section}] {one_line(text)}",
        base=value,
        trust=0.7,
        freshness=1.0,
        relevance=1.0,
        score=value,
        linked=False,
    )


def test_a_line_costs_its_characters_and_newline_over_four_rounded_up() -> None:
    assert [tokens("x" * n) for n in (0, 2, 3, 4, 7, 8)] == [1, 1, 1, 2, 2, 3]
    assert body_tokens("abc\nabcd\n") == 1 + 2
    assert body_tokens("") == 0


def test_text_is_folded_to_one_line_and_cut() -> None:
    assert one_line("a\nb\r\nc\u2028d\x0be  f") == "a b c d e f"
    cut = one_line("word " * 100, 20)
    assert len(cut) <= 20 and cut.endswith("…")
    assert "\n" not in one_line("x\u2029y\x1cz") and len(one_line("x\u2029y").splitlines()) == 1


def test_terms_are_whole_words_without_stop_words() -> None:
    assert terms("The prefix of the debug build") == {"prefix", "debug", "build"}
    assert "fix" not in terms("prefix") and "bug" not in terms("debug")
    assert terms("Dependencies and packs, class bus status") == {
        "dependency",
        "pack",
        "class",
        "bus",
        "status",
    }
    assert terms("Müller's Straße naïve") == {"müller", "straße", "naïve"}


def test_relevance_is_overlap_with_the_task_lifted_for_linked_items() -> None:
    task = terms("Billing export migration to Postgres")
    assert relevance(None, terms("anything"), False) == 1.0
    assert relevance(task, terms("lunch menu"), False) == 0.0
    assert relevance(task, terms("the billing job"), False) == 1 / 3
    assert relevance(task, terms("billing export on postgres"), False) == 1.0
    assert relevance(task, terms("lunch menu"), True) == 0.5
    assert relevance(frozenset({"billing"}), terms("billing"), False) == 1.0
    assert relevance(frozenset(), terms("billing"), False) == 0.0


def test_score_and_freshness() -> None:
    assert freshness(NOW, NOW) == 1.0
    assert abs(freshness(NOW - timedelta(days=21), NOW) - 0.5) < 1e-9
    assert freshness(None, NOW) == 0.0
    full = score(1.0, 1.0, 1.0, 1.0, 1.0)
    assert full == 1.0
    assert score(1.0, 0.01, 1.0, 1.0, 1.0) == 0.2  # base clamped at 0.2
    assert score(0.5, 1.0, 1.0, 0.0, 0.0) == 0.5 * 0.45 * 0.75


def test_caps_scale_with_the_budget() -> None:
    assert caps_for(4000) == {"facts": 12, "claims": 6, "questions": 4, "chunks": 6}
    assert caps_for(-5) == caps_for(1) == caps_for(4000)
    assert caps_for(4001)["facts"] == 24 and caps_for(100_000)["facts"] == 300


def test_selection_is_greedy_and_skips_what_does_not_fit() -> None:
    big = item(1, text="x" * 200, value=0.9)
    small = item(2, text="small", value=0.5)
    budget = tokens(HEADERS["facts"]) + tokens(small.line) + 5
    chosen = select([big, small], budget, caps_for(budget))
    assert [i.id for i in chosen.items] == ["id-2"]
    assert chosen.skipped["budget"] == 1
    assert chosen.token_usage == body_tokens(chosen.body) <= budget


def test_duplicates_caps_and_irrelevant_items_are_skipped() -> None:
    items = [
        item(n, text="Same  TEXT" if n < 2 else f"item {n}", value=1 - n / 100) for n in range(20)
    ]
    items.append(
        Item(**{**item(99).__dict__, "relevance": 0.1})  # below the threshold
    )
    chosen = select(items, 4000, caps_for(4000))
    assert chosen.skipped["duplicate"] == 1
    assert chosen.skipped["irrelevant"] == 1
    assert chosen.count("facts") == 12 and chosen.skipped["cap"] == 20 - 1 - 12


def test_the_body_orders_sections_and_means_are_score_weighted() -> None:
    chosen = select([item(1, "chunks", value=0.9), item(2, "facts", value=0.3)], 4000, caps_for(1))
    assert chosen.body.splitlines()[0] == HEADERS["facts"]
    assert [i.section for i in chosen.items] == ["chunks", "facts"]  # rank order
    assert chosen.mean("trust") == 0.7


@given(
    specs=st.lists(
        st.tuples(
            st.sampled_from(SECTIONS),
            st.text(min_size=0, max_size=400),
            st.floats(min_value=0.0, max_value=1.0),
        ),
        max_size=40,
    ),
    budget=st.integers(min_value=-100, max_value=3000),
)
def test_no_selection_exceeds_its_budget(specs: list[tuple[str, str, float]], budget: int) -> None:
    items = [item(n, section, text, value) for n, (section, text, value) in enumerate(specs)]
    chosen = select(items, budget, caps_for(budget))
    assert chosen.token_usage == body_tokens(chosen.body) <= max(budget, 0)
    if budget < 0:
        assert chosen.items == []
    caps = caps_for(budget)
    assert all(chosen.count(section) <= caps[section] for section in SECTIONS)
    keys = [i.dedupe_key for i in chosen.items]
    assert len(keys) == len(set(keys))
