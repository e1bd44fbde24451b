"""The subject channel in bench.locomo_folds: what it reads per question (cached) and its held-out
effect on the raw turns' recall.

1. **Read.** After a conversation is archived, its subjects pass is settled (every turn read for
   names, as the product's pass reads them); then, per question, the product's own read
   (graphmem/search/channels/subject.py ``query_keys`` and ``subject_rows`` over
   search/find_subject_turns, with the pool search uses for a page of 50) is asked for the
   question's subject groups, ``ids`` being every turn the full-text and vector lists hold (a
   superset of any fusion of them). Cached per question: each group's mentions in all and its
   turns (dia id, when said).
2. **Offline.** The channel's list is the product's ``subject_ranking`` of those groups over the
   fusion of full-text and vector; it fuses in before the graph, as search's ``rank`` does.
3. **Held out.** Each fold's base constants are the ones bench.locomo_folds chose without the
   channel (on the other six); the channel enters at weight 1.0, full-text's (no constant
   fitted: the estimate of what ships), and at the weight in SUBJECT_GRID best on the other
   six (0 is off; ties go to the lower weight). Printed: held-out recall overall, per category
   and per conversation, without the channel, with it at 1.0, and with the fold-chosen weight.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bench.harness import say
from graphmem.archive.rows import RawTurnRow
from graphmem.search.channels.context import Context, Reading
from graphmem.search.channels.fusion import MAX_POOL, MIN_POOL, turn_sources
from graphmem.search.channels.names import ChannelName
from graphmem.search.channels.subject import query_keys, subject_rows
from graphmem.search.models import SearchRequest
from graphmem.search.ranking import SubjectGroup, subject_ranking
from graphmem.store import Store, TenantStore, shaped
from graphmem.subjects.reading import reader_of

SEARCHED_LIMIT = 50  # the page search is asked for (bench.locomo_folds: max(KS))
POOL = min(max(3 * (SEARCHED_LIMIT + 1), MIN_POOL), MAX_POOL)
SUBJECT_GRID = (0.0, 0.25, 0.5, 1.0, 2.0)
UNFITTED = 1.0  # full-text's weight: what the product uses without fitting
Groups = list[dict[str, Any]]  # cached: [{"keys", "mentions", "sources": [[dia, at], ...]}]


async def settle_subjects(store: Store, tenant: str) -> None:
    """Every archived turn read for names (the pass's backlog finished)."""
    while await reader_of(store).settle(tenant, budget=64):
        pass


async def question_groups(
    db: TenantStore, project: str, question: str, turns: dict[str, str], dia_of: dict[Any, str]
) -> Groups:
    """The subject groups the product's channel reads for ``question``; ``turns`` maps turn id
    -> dia id (every turn the channels' lists hold; grown with the turns read here)."""
    keys = query_keys(question)
    if not keys:
        return []
    request = SearchRequest(query=question, project=project, limit=SEARCHED_LIMIT)
    context = Context(db, request, [ChannelName.SUBJECT], {}, POOL, None)
    reading = Reading(context, turn_sources(context), question, None)
    rows = await subject_rows(reading, keys, list(turns))
    unknown = {s["id"] for r in rows for s in [*r["found"], *r["others"]]} - set(turns)
    if unknown:
        read = shaped(RawTurnRow, await db.read("archive/get_raw_turns", ids=sorted(unknown)))
        turns.update({row["id"]: dia_of[(row["session_ref"], row["seq"])] for row in read})
    return [
        {
            "keys": row["keys"],
            "mentions": row["mentions"],
            "sources": [[turns[s["id"]], s["at"]] for s in [*row["found"], *row["others"]]],
        }
        for row in rows
    ]


def subject_list(groups: Groups, fused: Sequence[str]) -> list[str]:
    """The channel's ranking of a question's cached groups over the fusion so far."""
    read = [
        SubjectGroup(frozenset(g["keys"]), g["mentions"], {dia: at for dia, at in g["sources"]})
        for g in groups
    ]
    return subject_ranking(read, fused)[:POOL]


def subject_report(
    questions: Sequence[Any],
    chosen: dict[str, Any],
    score: Callable[[Any, Any], tuple[float, ...]],
    report: Callable[[str, Sequence[Any], Sequence[tuple[float, ...]]], None],
    target: Callable[[Sequence[tuple[float, ...]]], float],
) -> None:
    """Held-out recall with the channel: ``chosen`` maps a conversation to its fold's base
    constants, ``score`` a question and constants to its row, ``target`` rows to the figure a
    fold maximises."""
    if not any(q.groups for q in questions):
        say("\nsubject channel: no question names a known subject (GRAPHMEM_SUBJECTS off?)")
        return
    named = sum(1 for q in questions if q.groups)
    say(f"\nsubject channel: {named} of {len(questions)} questions name a known subject")
    cache: dict[Any, list[tuple[float, ...]]] = {}

    def rows(c: Any) -> list[tuple[float, ...]]:
        if c not in cache:
            cache[c] = [score(q, c) for q in questions]
        return cache[c]

    fixed: list[tuple[float, ...]] = [()] * len(questions)
    fitted: list[tuple[float, ...]] = [()] * len(questions)
    for name, base in chosen.items():
        test = [i for i, q in enumerate(questions) if q.conversation == name]
        train = [i for i, q in enumerate(questions) if q.conversation != name]
        best = max(
            SUBJECT_GRID,
            key=lambda w: (target([rows(replace(base, subject=w))[i] for i in train]), -w),
        )
        say(f"fold {name}: subject weight {best} (base {base})")
        for i in test:
            fixed[i] = rows(replace(base, subject=UNFITTED))[i]
            fitted[i] = rows(replace(base, subject=best))[i]
    report(f"held out, subject channel at {UNFITTED} (no constant fitted)", questions, fixed)
    report("held out, subject weight chosen on the other six", questions, fitted)
