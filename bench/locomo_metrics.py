"""The metrics bench.locomo_folds reports (its docstring defines them): turn recall@k and
session recall@5 per question, averaged overall, per category and per conversation."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from bench.harness import say
from bench.locomo import CATEGORIES, DRAGON, KS, category_rank

SESSION_K = 5  # session recall@5
COLUMNS = (*(f"@{k}" for k in KS), f"S@{SESSION_K}", f"S@{SESSION_K} all")


def session_of(dia: str) -> str:
    """The session a turn was said in: ``D3:5`` -> ``D3``."""
    return dia.split(":", 1)[0]


def recalls(ranked: Sequence[str], evidence: Sequence[str]) -> tuple[float, ...]:
    """One question's COLUMNS: turn recall@KS, then session recall@5 (any, all)."""
    turns = tuple(len(set(ranked[:k]) & set(evidence)) / len(evidence) for k in KS)
    seen = {session_of(dia) for dia in ranked[:SESSION_K]}
    wanted = {session_of(dia) for dia in evidence}
    return (*turns, float(bool(seen & wanted)), float(wanted <= seen))


def mean_at(rows: Sequence[tuple[float, ...]], k: int) -> float:
    return mean_of(rows, KS.index(k))


def mean_of(rows: Sequence[tuple[float, ...]], column: int) -> float:
    return 100 * statistics.mean(row[column] for row in rows)


def table_row(label: str, rows: Sequence[tuple[float, ...]]) -> str:
    cells = " ".join(f"{mean_of(rows, i):>{len(c)}.1f}" for i, c in enumerate(WIDE))
    return f"{label:>16} {len(rows):>5} {cells}"


WIDE = tuple(f"{c:>6}" for c in COLUMNS)


def header() -> str:
    return f"{'':>16} {'n':>5} " + " ".join(WIDE)


def report(title: str, questions: Sequence[Any], rows: Sequence[tuple[float, ...]]) -> None:
    say(f"\n== {title}: recall@k, % ==\n{header()}")

    def by(key: Callable[[Any], Any]) -> dict[Any, list[tuple[float, ...]]]:
        grouped: dict[Any, list[tuple[float, ...]]] = defaultdict(list)
        for q, row in zip(questions, rows, strict=True):
            grouped[key(q)].append(row)
        return grouped

    for category, found in sorted(
        by(lambda q: q.category).items(), key=lambda c: category_rank(c[0])
    ):
        say(table_row(CATEGORIES.get(category, str(category)), found))
    for name, found in sorted(by(lambda q: q.conversation).items()):
        say(table_row(f"conv {name}", found))
    say(table_row("overall", rows))
    say(
        f"{'vs DRAGON':>16}       "
        + " ".join(f"@{k} {mean_at(rows, k) - DRAGON[k]:+.1f}" for k in DRAGON)
    )
