"""Pure logic of search: lexical tokens, rank fusion, graph inheritance, retrieval plans,
multi-hop names. No database."""

from __future__ import annotations

import pytest

from graphmem.core.errors import InvalidArgument
from graphmem.retrieval.lexical import (
    MAX_FETCH,
    lexical_text,
    lucene_query,
    query_terms,
    stem,
    tenant_prefix,
    widening,
)
from graphmem.search import ranking
from graphmem.search.entities import discover_entities
from graphmem.search.models import SearchRequest
from graphmem.search.plans import compile_plan
from graphmem.search.ranking import Fused, fuse, graph_ranking

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("words", "root"),
    [
        (["paint", "paints", "painted", "painting"], "paint"),
        (["love", "loved", "loving", "loves"], "lov"),
        (["party", "parties"], "parti"),
        (["run", "runs", "running"], "run"),
        (["adopt", "adopted", "adopting"], "adopt"),
    ],
)
def test_inflections_meet(words: list[str], root: str) -> None:
    assert {stem(word) for word in words} == {root}


@pytest.mark.parametrize("word", ["is", "us", "bus", "class", "2023", "x1s", "ok", "focus"])
def test_short_numeric_and_s_ending_words_stay(word: str) -> None:
    assert stem(word) == word


def test_tokens_are_prefixed_per_tenant() -> None:
    a, b = lexical_text("acme", ["Painted walls"]), lexical_text("globex", ["Painted walls"])
    assert a.split() == [tenant_prefix("acme") + "paint", tenant_prefix("acme") + "wall"]
    assert set(a.split()).isdisjoint(b.split())
    assert tenant_prefix("acme") != tenant_prefix("acme ")


@pytest.mark.parametrize(
    "query", ['a:b (c OR d) AND NOT e -f +g "unclosed', "title:* ? ~ ^2 [x TO y] \\ / && || !", '"']
)
def test_lucene_query_holds_only_quoted_tenant_tokens(query: str) -> None:
    lucene = lucene_query("t", query, 64)
    prefix = tenant_prefix("t")
    clauses = [c for c in lucene.split(" OR ") if c]
    for clause in clauses:
        body = clause.removesuffix("^2")
        assert body.startswith('"') and body.endswith('"')
        assert all(token.startswith(prefix) for token in body.strip('"').split())


def test_stop_words_only_count_in_the_phrase() -> None:
    assert query_terms("When did Caroline go to the group?", 64) == ["carolin", "go", "group"]
    assert query_terms("what is it", 64) == ["what", "is", "it"]  # only stop words: keep them
    lucene = lucene_query("t", "the group", 64)
    assert lucene.startswith('"' + tenant_prefix("t") + "the ")
    assert lucene_query("t", "?!", 64) == ""


def test_fusion_is_weighted_reciprocal_rank() -> None:
    fused = fuse({"fulltext": ["a", "b"], "vector": ["b", "c"]}, {"fulltext": 1.0, "vector": 0.5})
    k = ranking.RRF_K
    scores = {entry.id: entry.score for entry in fused}
    assert scores["b"] == pytest.approx(1 / (k + 2) + 0.5 / (k + 1))
    assert scores["a"] == pytest.approx(1 / (k + 1))
    assert [entry.id for entry in fused] == ["b", "a", "c"]
    assert fused[0].ranks == {"fulltext": 2, "vector": 1}


def test_fusion_and_graph_take_their_constants_as_arguments() -> None:
    """bench/locomo_folds.py varies them; the defaults are the module's constants."""
    lists = {"fulltext": ["a", "b"], "vector": ["b", "c"]}
    steep = {e.id: e.score for e in fuse(lists, {"fulltext": 1.0, "vector": 0.5}, k=1)}
    assert steep["b"] == pytest.approx(1 / 3 + 0.5 / 2)
    seeds = [Fused("s", score=1.0)]
    assert graph_ranking(seeds, [("s", "n", 1), ("s", "m", 2)], decay=0.1) == ["s", "n", "m"]
    assert fuse(lists, {"fulltext": 1.0}) == fuse(lists, {"fulltext": 1.0}, k=ranking.RRF_K)


def test_fusion_boosts_ties_and_zero_weights() -> None:
    fused = fuse({"fulltext": ["a", "b"]}, {"fulltext": 1.0}, {"b": 2.0})
    assert [entry.id for entry in fused] == ["b", "a"] and fused[0].boost == 2.0
    tied = fuse({"x": ["b"], "y": ["a"]}, {"x": 1.0, "y": 1.0})
    assert [entry.id for entry in tied] == ["a", "b"]  # ties by id
    assert fuse({"x": ["a"]}, {"x": 0.0}) == []


def test_graph_inheritance_decays_and_adds_up() -> None:
    seeds = [Fused("s1", score=1.0), Fused("s2", score=0.5)]
    rows = [("s1", "n", 1), ("s2", "n", 1), ("s1", "far", 2), ("s2", "s1", 1), ("x", "y", 1)]
    ranked = graph_ranking(seeds, rows)
    decay = ranking.GRAPH_DECAY
    assert ranked[0] == "s1"  # 1.0 of its own + 0.5 x decay from s2
    assert ranked.index("n") < ranked.index("far")
    assert "y" not in ranked  # reached from no seed
    inherited_n = 1.0 * decay + 0.5 * decay
    assert inherited_n > 1.0 * decay**2


def _request(**arguments: object) -> SearchRequest:
    return SearchRequest.model_validate({"query": "q", "project": "p", **arguments})


def test_plans_are_deterministic_and_follow_intent_role_and_risk() -> None:
    plan = compile_plan(_request(task_intent="explain_decision", role="planner"))
    assert plan == compile_plan(_request(task_intent="explain_decision", role="planner"))
    assert plan.type_boosts["decision"] == pytest.approx(1.5 * 1.1)
    assert plan.raw_fallback and not plan.include_superseded
    high = compile_plan(_request(risk="high"))
    assert not high.raw_fallback and "raw_fallback:abstain_high_risk" in high.reason_codes
    history = compile_plan(_request(task_intent="explore_history"))
    assert history.include_superseded and history.channel_weights["graph"] > 0
    assert (
        compile_plan(_request(task_intent="explore_history", include_superseded=False)) != history
    )
    assert len({plan.plan_hash, high.plan_hash, history.plan_hash}) == 3


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"explain": True, "query": None}, "query"),
        ({"multi_hop": True, "query": " "}, "query"),
        ({"explain": True, "multi_hop": True}, "multi_hop"),
        ({"risk": "low", "project": None}, "project"),
        ({"token_budget": 10, "query": ""}, "query"),
    ],
)
def test_search_request_combinations(arguments: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidArgument) as refused:
        _request(**arguments)
    assert refused.value.field == field


def test_multi_hop_discovers_names_the_query_lacks() -> None:
    texts = ["Billing is owned by Priyanka.", "Priyanka moved to Lisbon", "The Billing team"]
    # Priyanka twice, Lisbon once; Billing is in the query, The is a stop word
    assert discover_entities("who owns billing", texts) == ["Priyanka", "Lisbon"]


async def test_widening_grows_the_fetch_until_enough_and_stops_at_the_cap() -> None:
    asked: list[int] = []

    async def read(fetch: int) -> int:
        asked.append(fetch)
        return fetch

    assert await widening(read, 10, lambda answer, fetch: answer >= 500) == 640
    assert asked == [10, 40, 160, 640]
    asked.clear()
    assert await widening(read, 5_000, lambda answer, fetch: False) == MAX_FETCH
    assert asked == [5_000, MAX_FETCH]
    asked.clear()
    assert await widening(read, 50_000, lambda answer, fetch: False) == MAX_FETCH
    assert asked == [MAX_FETCH]
