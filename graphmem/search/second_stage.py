"""A second stage (toolkit/retrieval.py's ``SecondStage``, a reranker) over the fused top of a
ranking, bounded by its time budget per call.

- It orders the first ``SECOND_STAGE_DEPTH`` fused hits that have a text; the ids it names
  come first in its order (unknown, repeated and not given ids ignored), then the rest of
  that top, then the rest of the ranking, each in fused order. Scores stay the fused ones.
- An answer later than the budget is dropped (the call is cancelled; a stage that runs its
  model in a thread should stop by the budget it is given), and so is a failure: the fused
  order stands, and the notice says so in one line. None from the stage: no opinion, no notice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Mapping, Sequence

from graphmem.search.ranking import Fused
from graphmem.toolkit.retrieval import Candidate, Retrieval

log = logging.getLogger(__name__)

SECOND_STAGE_DEPTH = 50  # the fused hits a second stage reorders


def second_stage_top(fused: Sequence[Fused]) -> list[str]:
    """The ids whose texts a second stage judges."""
    return [entry.id for entry in fused[:SECOND_STAGE_DEPTH]]


async def reordered(
    retrieval: Retrieval, query: str, fused: list[Fused], texts: Mapping[str, str]
) -> tuple[list[Fused], str | None]:
    """``fused`` in the second stage's order, and the notice when its answer was dropped."""
    stage, budget = retrieval.second_stage, retrieval.second_stage_budget
    candidates = [Candidate(i, texts[i]) for i in second_stage_top(fused) if i in texts]
    if stage is None or not candidates:
        return fused, None
    try:
        order = await asyncio.wait_for(stage.rerank(query, candidates, budget), budget)
    except TimeoutError:
        late = f"ran over its {budget * 1000:.0f} ms budget"
        return fused, f"second stage {stage.name} {late}: the fused order stands"
    except Exception as error:  # a failing reranker must not fail the search
        log.warning("second stage %s failed: %s", stage.name, error)
        failed = f"failed ({type(error).__name__})"
        return fused, f"second stage {stage.name} {failed}: the fused order stands"
    judged = {candidate.id for candidate in candidates}
    return (fused if order is None else in_order(fused, order, judged)), None


def in_order(
    fused: list[Fused], order: Sequence[str], judged: Collection[str] | None = None
) -> list[Fused]:
    """The fused list with its top led by the ids ``order`` names, in that order; only ids
    the stage was given (``judged``; None: the whole top) can be moved."""
    top = {entry.id: entry for entry in fused[:SECOND_STAGE_DEPTH]}
    movable = top.keys() if judged is None else top.keys() & set(judged)
    named = [top[i] for i in dict.fromkeys(order) if i in movable]
    first = {entry.id for entry in named}
    rest = [entry for entry in top.values() if entry.id not in first]
    return [*named, *rest, *fused[SECOND_STAGE_DEPTH:]]
