"""Fusion constants chosen honestly: leave one LoCoMo conversation out, fit on the other six.

    GRAPHMEM_EMBEDDINGS=e5-small python -m bench.locomo_folds --data DIR \\
        --cache /tmp/locomo-e5.json            # rankings through search, then the folds
    python -m bench.locomo_folds --cache /tmp/locomo-e5.json   # the folds from the cache

DIR holds the LoCoMo conversations (``*.json``, read in place); without --data,
GRAPHMEM_LOCOMO_DIR names it (needed only to ask, not to read a cache).

1. **Rankings** (once; cached as JSON). As bench.locomo does: each conversation archived as
   its own project through the real server (in-memory client, scratch tenant, purged), then
   every question with evidence asked through ``search`` once per channel alone (full-text;
   vector when embeddings are on), limit 100: the ranked turns each channel gives the fusion.
   Then once more with search's default channels (every one available, the product's
   constants), limit 50, with timers around the product's calls (bench/locomo_stages.py):
   its ranking is the through-search check, its timings the per-stage latency (p50 / p95).
2. **Offline fusion** with the product's own functions (graphmem.search.ranking ``fuse`` and
   ``graph_ranking``), as search ranks raw turns: the channels fused, the best GRAPH_SEEDS
   seeding the graph channel (the turns up to TURN_GRAPH_DEPTH steps before and after in the
   same session, which is what search/expand_turn_graph reads), everything fused again.
   A grid over the constants the product fixes: RRF k, the vector and graph weights (full-text
   is 1.0) and the graph's decay per step.
3. **Folds.** For each conversation, the grid point with the best mean recall@10 on the other
   six (ties: nearest the product's constants) is measured on it. Printed: every fold's
   constants and its held-out recall@1/5/10/25/50; the held-out figures overall, per category
   and per conversation (the estimate); the product's constants for turns on the same
   questions (graphmem.search.ranking.turn_fusion of the model, the median of the folds'
   choices: in-sample, so optimistic); the same through search itself; the median of the
   folds' constants (what ships); and search's latency per stage.
   Only the constants are fitted: the rankings do not change between folds.

**Metrics**, per question, averaged over questions, overall and per LoCoMo category (in the
paper's order: single-hop, multi-hop, temporal, open-domain, adversarial; ids in bench.locomo):
- turn recall@k (k = 1, 5, 10, 25, 50): the share of the question's evidence turns among the
  top k turns (the LoCoMo paper's metric);
- session recall@5 (``S@5``): 1 when the sessions of the top 5 turns hold at least one of the
  question's evidence sessions (the sessions its evidence turns were said in), else 0. This is
  "recall_any" of LongMemEval's session retrieval and what the LoCoMo session-recall figures
  of Hebb Mind and MemPalace count ("did the retrieved set surface any evidence session");
- ``S@5 all``: the stricter "recall_all", 1 only when they hold every evidence session (differs
  from S@5 on questions whose evidence spans sessions, mostly multi-hop).

Each channel's list holds its best 100 turns, the fusion's pool in the product holds at least
that many, so fused ranks within the top 50 match the product's up to an item a channel ranked
below 100 (bench.locomo, through the product, gives the constants' line within rounding).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import time
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

from fastmcp import Client

from bench.harness import bench_store, say, scratch_tenant
from bench.locomo import KS, data_files, evidence_ids, ingest, sessions
from bench.locomo_metrics import mean_at, recalls, report, table_row
from bench.locomo_stages import StageClock, latency_report, stage_timers
from bench.locomo_subjects import (
    Groups,
    question_groups,
    settle_subjects,
    subject_list,
    subject_report,
)
from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.embeddings.e5_small import E5Small
from graphmem.embeddings.minilm import MiniLM
from graphmem.search.channels.graph import GRAPH_SEEDS, TURN_GRAPH_DEPTH
from graphmem.search.ranking import fuse, graph_ranking, turn_fusion
from graphmem.store import TenantStore

DEPTH = 100  # each channel's list: search's largest page
TARGET_K = 10  # what the folds maximise: recall@10
GRID_K = (1, 2, 3, 5, 10)
GRID_VECTOR = (0.5, 0.75, 1.0, 1.5, 2.0)
GRID_GRAPH = (0.0, 0.7, 1.5, 2.0, 3.0, 4.0)
GRID_DECAY = (0.5, 0.75, 1.0)


@dataclass(frozen=True)
class Constants:
    k: int
    vector: float
    graph: float
    decay: float
    subject: float = 0.0  # the subject channel's weight (bench/locomo_subjects.py; 0: off)

    def __str__(self) -> str:
        return f"k={self.k} vector={self.vector} graph={self.graph} decay={self.decay}"

    def distance(self, other: Constants) -> float:
        return sum(
            abs(a - b) / (abs(b) or 1) for a, b in zip(astuple(self), astuple(other), strict=True)
        )


MODELS = {"none": None, "minilm": MiniLM.name, "e5-small": E5Small.name}  # setting -> model


def product_constants(embeddings: str) -> Constants:
    """The product's constants for raw turns with the GRAPHMEM_EMBEDDINGS model (the subject
    channel's weight apart: bench/locomo_subjects.py measures it on top)."""
    fusion = turn_fusion(MODELS[embeddings])
    weights = fusion.weights or {}
    c = Constants(fusion.k, weights["vector"], weights["graph"], fusion.decay)
    return c if embeddings != "none" else without_vectors(c)


@dataclass(frozen=True)
class Question:
    conversation: str
    category: int
    evidence: list[str]
    rankings: dict[str, list[str]]  # channel -> dia ids, best first
    searched: list[str] | None = None  # search's own ranking, default channels (newer caches)
    groups: Groups | None = None  # the subject groups it names (bench/locomo_subjects.py)


def without_vectors(c: Constants) -> Constants:
    return Constants(c.k, 0.0, c.graph, c.decay)


# --- 1. rankings through search ----------------------------------------------------------------
async def collect(files: list[Path]) -> dict[str, Any]:
    """Sessions (dia ids in order), per question each channel's ranking alone and search's
    own, and search's time per stage."""
    cache: dict[str, Any] = {"embeddings": Settings().embeddings, "conversations": {}}
    channels = ["fulltext"] + (["vector"] if cache["embeddings"] != "none" else [])
    clock = StageClock()
    async with bench_store() as store, scratch_tenant(store, "folds") as tenant:
        settings = Settings().model_copy(update={"tenant": tenant, "toolset": "full"})
        async with Client(create_server(store, settings)) as client:
            for path in files:
                say(f"{path.stem}: archiving and asking ({', '.join(channels)}; default)")
                found = await conversation(client, path, channels, clock, store.of(tenant))
                cache["conversations"][path.stem] = found
    cache["latency"] = clock.samples
    return cache


async def conversation(
    client: Client[Any], path: Path, channels: list[str], clock: StageClock, db: TenantStore
) -> dict[str, Any]:
    project, dia_of = await ingest(client, path)
    await settle_subjects(db.store, db.tenant)
    turn_dia: dict[str, str] = {}  # turn id -> dia id
    data = json.loads(path.read_text())  # noqa: ASYNC240 - a benchmark reads its data up front
    known = set(dia_of.values())
    questions = []
    for qa in data["qa"]:
        evidence, _ = evidence_ids(qa.get("evidence", []), known)
        if not evidence:
            continue
        ask = qa["question"][:1000]
        rankings = {
            c: await ranking(client, project, ask, dia_of, [c], DEPTH, turn_dia) for c in channels
        }
        listed = {dia for ranked in rankings.values() for dia in ranked}
        ids = {turn: dia for turn, dia in turn_dia.items() if dia in listed}
        groups = await question_groups(db, project, ask, ids, dia_of)
        with stage_timers(clock):
            clock.begin()
            began = time.perf_counter()
            searched = await ranking(client, project, ask, dia_of, None, max(KS))
            clock.end(time.perf_counter() - began)
        questions.append(
            {
                "category": qa["category"],
                "evidence": evidence,
                "rankings": rankings,
                "searched": searched,
                "subjects": groups,
            }
        )
    turns = [[item["dia_id"] for item in items] for _, _, items in sessions(data)]
    return {"sessions": turns, "questions": questions}


async def ranking(
    client: Client[Any],
    project: str,
    question: str,
    dia_of: dict[Any, str],
    channels: list[str] | None,
    limit: int,
    turns: dict[str, str] | None = None,
) -> list[str]:
    """search's raw turns for ``question`` (``channels`` None: search's default ones); each
    hit's turn id -> dia id into ``turns``."""
    arguments: dict[str, Any] = {"query": question, "project": project, "limit": limit}
    if channels is not None:
        arguments["channels"] = channels
    result = await client.call_tool("search", arguments)
    assert not result.is_error, result.content
    content = result.structured_content or {}
    if content.get("raw_hits_error"):  # a failing read must not pass for an empty ranking
        raise SystemExit(f"search failed for {question!r}: {content['raw_hits_error']}")
    hits = content.get("raw_hits", [])
    found = {hit["turn_id"]: dia_of[(hit["session_ref"], hit["seq"])] for hit in hits}
    if turns is not None:
        turns.update(found)
    return list(found.values())


# --- 2. offline fusion ---------------------------------------------------------------------------
def neighbourhood(turns: list[list[str]]) -> dict[str, list[tuple[str, int]]]:
    """Per turn, the turns up to TURN_GRAPH_DEPTH steps before and after it in its session."""
    near: dict[str, list[tuple[str, int]]] = {}
    for session in turns:
        for i, turn in enumerate(session):
            near[turn] = [
                (session[j], abs(j - i))
                for j in range(
                    max(0, i - TURN_GRAPH_DEPTH), min(len(session), i + TURN_GRAPH_DEPTH + 1)
                )
                if j != i
            ]
    return near


def fused(q: Question, c: Constants, near: dict[str, list[tuple[str, int]]]) -> list[str]:
    """The product's ranking of raw turns under constants ``c``."""
    weights = {"fulltext": 1.0, "vector": c.vector, "graph": c.graph, "subject": c.subject}
    lists = dict(q.rankings)
    ranked = fuse(lists, weights, k=c.k)
    if c.subject > 0 and q.groups:  # search's rank: the subject channel expands, then the graph
        lists["subject"] = subject_list(q.groups, [entry.id for entry in ranked])
        ranked = fuse(lists, weights, k=c.k)
    if c.graph > 0 and ranked:
        seeds = ranked[:GRAPH_SEEDS]
        rows = [(seed.id, n, d) for seed in seeds for n, d in near.get(seed.id, [])]
        lists["graph"] = graph_ranking(seeds, rows, c.decay)
        ranked = fuse(lists, weights, k=c.k)
    return [entry.id for entry in ranked[: max(KS)]]


def grid(defaults: Constants) -> list[Constants]:
    vector = defaults.vector > 0
    points = set()
    for k, graph in itertools.product(GRID_K, GRID_GRAPH):
        for v in GRID_VECTOR if vector else (0.0,):
            for decay in GRID_DECAY if graph > 0 else (defaults.decay,):
                points.add(Constants(k, v, graph, decay))
    points.add(defaults)
    return sorted(points, key=astuple)


def score_grid(
    questions: list[Question],
    near: dict[str, dict[str, list[tuple[str, int]]]],
    defaults: Constants,
) -> dict[Constants, list[tuple[float, ...]]]:
    """Per grid point, every question's recall@KS (in the questions' order)."""
    return {
        c: [recalls(fused(q, c, near[q.conversation]), q.evidence) for q in questions]
        for c in grid(defaults)
    }


# --- 3. folds -----------------------------------------------------------------------------------
def best(
    scores: dict[Constants, list[tuple[float, ...]]], train: list[int], defaults: Constants
) -> Constants:
    def value(c: Constants) -> tuple[float, float]:
        return (mean_at([scores[c][i] for i in train], TARGET_K), -c.distance(defaults))

    return max(scores, key=value)


def folds(cache: dict[str, Any]) -> None:
    questions = [
        Question(
            name, q["category"], q["evidence"], q["rankings"], q.get("searched"), q.get("subjects")
        )
        for name, conv in cache["conversations"].items()
        for q in conv["questions"]
    ]
    near = {name: neighbourhood(c["sessions"]) for name, c in cache["conversations"].items()}
    vector = cache["embeddings"] != "none"
    defaults = product_constants(cache["embeddings"])
    say(
        f"embeddings {cache['embeddings']}; {len(questions)} questions in {len(near)} conversations"
    )
    scores = score_grid(questions, near, defaults)
    say(
        f"grid: {len(scores)} points (k {GRID_K}, vector {GRID_VECTOR if vector else '-'}, "
        f"graph {GRID_GRAPH}, decay {GRID_DECAY}), chosen by mean recall@{TARGET_K}"
    )
    held_out, chosen = leave_one_out(questions, scores, defaults, list(near))
    report("held out (the estimate)", questions, held_out)
    subject_report(
        questions,
        dict(zip(near, chosen, strict=True)),
        lambda q, c: recalls(fused(q, c, near[q.conversation]), q.evidence),
        report,
        lambda rows: mean_at(rows, TARGET_K),
    )
    title = f"the product's constants for turns ({defaults}; the folds' median: in-sample)"
    report(title, questions, scores[defaults])
    if all(q.searched is not None for q in questions):
        title = "through search itself (default channels, limit 50; in-sample constants)"
        report(title, questions, [recalls(q.searched or [], q.evidence) for q in questions])
    median = Constants(
        int(statistics.median(c.k for c in chosen)),
        statistics.median(c.vector for c in chosen),
        statistics.median(c.graph for c in chosen),
        statistics.median(c.decay for c in chosen),
    )
    say(f"\nmedian of the folds' constants (what would ship): {median}")
    latency_report(cache.get("latency", {}))


def leave_one_out(
    questions: list[Question],
    scores: dict[Constants, list[tuple[float, ...]]],
    defaults: Constants,
    names: list[str],
) -> tuple[list[tuple[float, ...]], list[Constants]]:
    """Each conversation's rows under the constants best on the other six, and those."""
    held_out: list[tuple[float, ...]] = [()] * len(questions)
    chosen = []
    for name in names:
        test = [i for i, q in enumerate(questions) if q.conversation == name]
        train = [i for i, q in enumerate(questions) if q.conversation != name]
        c = best(scores, train, defaults)
        chosen.append(c)
        for i in test:
            held_out[i] = scores[c][i]
        say(f"fold {name}: {c}; held out " + table_row("", [scores[c][i] for i in test]).strip())
    return held_out, chosen


def main(arguments: argparse.Namespace) -> None:
    cache_file = Path(arguments.cache) if arguments.cache else None
    if cache_file is not None and cache_file.is_file() and not arguments.refresh:
        cache = json.loads(cache_file.read_text())
        say(f"rankings from {cache_file}")
    else:
        cache = asyncio.run(collect(data_files(arguments.data)))
        if cache_file is not None:
            cache_file.write_text(json.dumps(cache))
    folds(cache)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="LoCoMo recall with leave-one-out constants.")
    parser.add_argument("--data", help="the conversations' folder (default: $GRAPHMEM_LOCOMO_DIR)")
    parser.add_argument(
        "--cache", help="a JSON file of the rankings: read if present, else written"
    )
    parser.add_argument("--refresh", action="store_true", help="ask again even if --cache exists")
    main(parser.parse_args())
