"""The subject channel: what mentions a subject the query names, under any of its spellings.

- The query's names: the spans graphmem/subjects/extract.py finds (the extraction the subjects
  pass reads texts with), and its words and runs of up to three words of any case, none of
  them a word the extraction never starts a name with ("what", "did", "the"). A query is
  short and often lower-case ("acme renewal terms"), and a name is looked up only as a
  spelling the tenant's texts already gave a subject: a word that is no known spelling finds
  nothing. Each becomes its normal form (graphmem/subjects/names.py) and is looked up as an
  ``n:`` key (an index seek; an equal name, as ``about`` answers: never a first word,
  initials or a near spelling, which resolution would ask a person about).
- A subject found, its group (the root its merges end at and every subject merged into it),
  and the sources in the caller's scope that mention a member (search/find_subject_memories,
  find_subject_turns: the same status, project, type, branch and tag rules as full-text and
  vector; raw turns: not quarantined, the project): those among the fusion so far, and the
  newest others. Ranked by graphmem/search/ranking.py ``subject_ranking``: no constant.
- It expands (reads the fusion of full-text and vector; the graph then reads its fusion):
  among the hits of the other channels, those about the query's subjects rise, and what names
  them under another spelling is added. A query naming no known subject: no part. It runs
  only when a request names it (graphmem/search/service.py ``NAMED_ONLY``: held out on LoCoMo
  it lowered the raw turns' recall@10; docs/configuration.md).
- It reads what the subjects pass has recorded, never waits for it nor runs one: the pass
  follows a write within about a second (graphmem/subjects/reading.py), full-text and vector
  find a new text meanwhile, and a search takes no lock a merge or an erasure holds.
"""

from __future__ import annotations

import re

from graphmem.core.text import STOP_WORDS
from graphmem.search.channels.context import Hit, Reading
from graphmem.search.channels.names import ChannelName
from graphmem.search.ranking import SubjectGroup, subject_ranking
from graphmem.search.rows import SubjectGroupRow
from graphmem.store import shaped
from graphmem.subjects.extract import JOINERS, NOT_NAMES, mentions_in
from graphmem.subjects.names import name_of

MAX_KEYS = 64  # spellings a query is looked up by
PHRASE_WORDS = 3  # the longest run of a query's words tried as a spelling
PER_KEY = 16  # subjects one spelling finds at most (namesakes)
MAX_GROUPS = 8  # subject groups one query reads at most
SCAN_PER_POOL = 4  # a member's newest mentions read: 4 x the pool
_WORD = re.compile(r"[^\W_][\w'\u2019\-]*")


class Subject:
    name = ChannelName.SUBJECT
    expands = True

    async def ranked(self, reading: Reading) -> list[Hit] | None:
        keys = query_keys(reading.query)
        if not keys:
            return None
        fused = [entry.id for entry in reading.fused]
        rows = await subject_rows(reading, keys, fused)
        if not rows:
            return None
        groups, types = subject_groups(rows)
        ranked = subject_ranking(groups, fused)[: reading.context.pool]
        if not ranked:  # known names, nothing of them in the caller's scope: no part taken
            return None
        return [Hit(item, types.get(item)) for item in ranked]


async def subject_rows(reading: Reading, keys: list[str], ids: list[str]) -> list[SubjectGroupRow]:
    context, sources = reading.context, reading.sources
    rows = await context.db.read(
        sources.subjects,
        keys=keys,
        ids=ids,
        per_key=PER_KEY,
        groups=MAX_GROUPS,
        scan=SCAN_PER_POOL * context.pool,
        pool=context.pool,
        **sources.channel_params(),
    )
    return shaped(SubjectGroupRow, rows)


def subject_groups(rows: list[SubjectGroupRow]) -> tuple[list[SubjectGroup], dict[str, str | None]]:
    """The rows as the ranking reads them, and each source's type."""
    groups: list[SubjectGroup] = []
    types: dict[str, str | None] = {}
    for row in rows:
        sources = [*row["found"], *row["others"]]
        found = {s["id"]: s["at"] for s in sources}
        groups.append(SubjectGroup(frozenset(row["keys"]), row["mentions"], found))
        types.update((s["id"], s["type"]) for s in sources)
    return groups, types


def query_keys(query: str) -> list[str]:
    """The ``n:`` keys of what the query may name: extracted names first, then its words and
    runs of words, in the order they appear, at most MAX_KEYS."""
    names = [found.text for found in mentions_in(query)]
    names += _phrases(query)
    keys: dict[str, None] = {}
    for written in names:
        normal = name_of(written).normal
        if normal:
            keys.setdefault(f"n:{normal}")
    return list(keys)[:MAX_KEYS]


def _phrases(query: str) -> list[str]:
    """Runs of one to PHRASE_WORDS words, none of them a common word (one the extraction never
    starts a name with, a joiner, a full-text stop word) or a number."""
    words = [w.group(0) for w in _WORD.finditer(query)]
    runs: list[list[str]] = [[]]
    for word in words:
        folded = word.casefold()
        common = folded in NOT_NAMES or folded in JOINERS or folded in STOP_WORDS
        common = common or word.isdigit()
        if common:
            runs.append([])
        else:
            runs[-1].append(word)
    return [
        " ".join(run[start : start + size])
        for run in runs
        for size in range(1, PHRASE_WORDS + 1)
        for start in range(len(run) - size + 1)
    ]
