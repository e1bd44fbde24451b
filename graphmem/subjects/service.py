"""The subjects a caller reads and governs: ``about`` (what is known under a name, every
spelling and merge included), ``merge_subjects`` and ``split_subject``.

A merge and a split are writes of the one write path, each one event in the tenant's chain
(who, why, the two subjects; never a name): a merge links the subject's root to the other's
root (``MERGED_INTO``), nothing moves, so a split (the link removed) restores exactly what the
merge joined. Both lock the subjects ledger first, so a pass resolving new mentions waits for
them (or they for it): nothing is ever half-merged.
"""

from __future__ import annotations

import json
import logging
from typing import TypedDict

from graphmem.core.errors import InvalidState, NotFound
from graphmem.core.models import from_node
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, write
from graphmem.store import TenantStore, shaped
from graphmem.subjects.merging import MergeEndRow, merge_in
from graphmem.subjects.models import (
    AboutRequest,
    AboutResult,
    FactAbout,
    MergeSubjectsRequest,
    MergeSubjectsResult,
    SplitSubjectRequest,
    SplitSubjectResult,
    SubjectView,
)
from graphmem.subjects.names import lookup_keys, name_of
from graphmem.subjects.reading import PER_KEY, CandidateRow, reader_of
from graphmem.subjects.resolve import Candidate, Mention, match

log = logging.getLogger("graphmem")
MAX_GROUPS = 5  # subjects one name may answer with


class GroupRow(TypedDict):
    """subjects/get_subject_group."""

    id: str
    kind: str | None
    name: str
    members: list[dict[str, object]]
    aliases: list[str]
    mentions: int
    memories: list[dict[str, object]]
    turns: list[dict[str, object]]
    chunks: list[dict[str, object]]
    claims: list[dict[str, object]]
    facts: list[FactItem]
    decisions: list[dict[str, object]]
    questions: list[dict[str, object]]


class FactItem(TypedDict):
    id: str
    key: str
    owner: str
    value_json: str
    status: str
    recorded_at: object


async def about(db: TenantStore, request: AboutRequest, read_first: bool = True) -> AboutResult:
    if read_first:  # what was written before this call is read (GRAPHMEM_SUBJECTS on)
        try:
            await reader_of(db.store).settle(db.tenant)
        except Exception:  # best effort: what is recorded still answers
            log.warning("about: the subjects pass before it failed", exc_info=True)
    name = name_of(request.name)
    rows = shaped(
        CandidateRow,
        await db.read(
            "subjects/find_subject_candidates",
            probes=[{"key": key, "sources": list[str]()} for key in lookup_keys(name)],
            per_key=PER_KEY,
        ),
    )
    mention = Mention(name, None, "")
    equal: list[str] = []
    similar: list[str] = []
    for row in rows:
        found = match(mention, _candidate(row))
        if found is not None and found.evidence == "alias":
            equal.append(row["id"])
        elif found is not None:
            similar.append(row["aliases"][0]["written"] if row["aliases"] else row["id"])
    views: dict[str, SubjectView] = {}
    for subject_id in equal[:MAX_GROUPS]:
        view = await _group(db, subject_id, request)
        if view is not None:  # None: erased since it was found
            views.setdefault(view.id, view)  # two members of one group answer once
    shown = {alias for view in views.values() for alias in view.aliases}
    return AboutResult(
        subjects=list(views.values()),
        similar=sorted({s for s in similar if s not in shown})[: request.limit],
        next_offset=_next_offset(list(views.values()), request),
    )


def _next_offset(views: list[SubjectView], request: AboutRequest) -> int | None:
    """The next page's offset when any paged list of any subject came back full."""
    full = any(
        len(items) == request.limit
        for view in views
        for items in (view.memories, view.turns, view.chunks, view.claims, view.facts)
    ) or any(len(view.decisions) == request.limit for view in views)
    return request.offset + request.limit if full else None


def _candidate(row: CandidateRow) -> Candidate:
    names = tuple(name_of(alias["written"]) for alias in row["aliases"])
    return Candidate(row["id"], row["kind"], names, frozenset(), row["root"])


async def _group(db: TenantStore, subject_id: str, request: AboutRequest) -> SubjectView | None:
    rows = await db.read(
        "subjects/get_subject_group", id=subject_id, limit=request.limit, offset=request.offset
    )
    row = next(iter(shaped(GroupRow, rows)), None)
    if row is None:
        return None
    facts = [
        from_node(FactAbout, fact, value=json.loads(fact["value_json"])) for fact in row["facts"]
    ]
    return from_node(SubjectView, row, facts=facts)


async def merge_subjects(db: TenantStore, request: MergeSubjectsRequest) -> MergeSubjectsResult:
    async def work(w: Write) -> MergeSubjectsResult:
        await w.run("subjects/lock_subject_ledger", now=w.now.isoformat())
        merged = await merge_in(
            w, request.subject_id, request.into_id, request.reason, request.actor
        )
        return MergeSubjectsResult(
            subject_id=merged.subject_id,
            into_id=merged.into_id,
            settled_questions=merged.settled,
            revision=merged.revision,
        )

    return await write(db, "merge_subjects", work, audit=Audit.of(request))


async def split_subject(db: TenantStore, request: SplitSubjectRequest) -> SplitSubjectResult:
    async def work(w: Write) -> SplitSubjectResult:
        await w.run("subjects/lock_subject_ledger", now=w.now.isoformat())
        rows = await w.run(
            "subjects/split_subject", subject_id=request.subject_id, now=w.now.isoformat()
        )
        if not rows:
            ends = await w.run("subjects/get_merge_ends", subject_id=request.subject_id, into_id="")
            if not any(row["found"] for row in shaped(MergeEndRow, ends)):
                raise NotFound("subject", request.subject_id)
            raise InvalidState("subject", request.subject_id, "unmerged", "nothing to split")
        into = str(rows[0]["into_id"])
        revision = await w.record(
            "subject",
            request.subject_id,
            [request.subject_id, into],
            {"split": request.subject_id, "from": into, "reason": request.reason},
        )
        return SplitSubjectResult(
            subject_id=request.subject_id, was_merged_into=into, revision=revision
        )

    return await write(db, "split_subject", work, audit=Audit.of(request))
