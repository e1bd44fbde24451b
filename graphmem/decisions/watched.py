"""The spellings a reopen rule's evidence is read under: a rule watches its key and every key
of its owner that names the same subject under the same attribute (one subject under two
names is one truth; graphmem/subjects/spellings.py)."""

from __future__ import annotations

from graphmem.decisions.rows import SubjectsRow
from graphmem.store import shaped
from graphmem.subjects.spellings import Run, spellings_of


async def watched_spellings(run: Run, decision_ids: list[str]) -> dict[str, list[str]]:
    """Per subject the decisions' rules watch, its spellings."""
    rows = await run("decisions/list_watched_subjects", decision_ids=decision_ids)
    return await spellings_of(run, shaped(SubjectsRow, rows)[0]["subjects"])


async def changed_spellings(run: Run, fact_ids: list[str]) -> dict[str, list[str]]:
    """Per subject of these facts' keys (and of the facts they contradict), its spellings."""
    rows = await run("decisions/list_changed_subjects", fact_ids=fact_ids)
    return await spellings_of(run, shaped(SubjectsRow, rows)[0]["subjects"])
