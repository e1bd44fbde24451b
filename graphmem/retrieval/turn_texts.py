"""What an archived turn's vector and full-text tokens read of its day (shared by the archive,
which writes a turn's tokens, and the indexer, which writes its vector behind it)."""

from __future__ import annotations

from datetime import datetime


def turn_embedding_text(ts: datetime, content: str, previous: str | None = None) -> str:
    """What the vector of a turn encodes: the day it was said, the turn said just before it
    in its session (a reply is understood with what it answers: "Yes, in May" means little
    alone) and what was said. On LoCoMo, held out, the vector channel alone finds 7 points
    more at @10 with the turn before than without it (bench.locomo_folds)."""
    said = content if previous is None else f"{previous}\n{content}"
    return f"({date_words(ts)}) {said}"


def date_words(ts: datetime) -> str:
    """A day as words ("2 March 2026")."""
    return f"{ts.day} {ts:%B %Y}"
