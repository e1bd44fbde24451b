"""A merge inside a caller's locked write: the two subjects' groups joined at their roots
(``MERGED_INTO``), nothing moved, the open questions between them settled, one event. Used by
merge_subjects and by a person's "same" to a subject question (questions.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from graphmem.core.errors import InvalidState, NotFound
from graphmem.history.write_path import Write
from graphmem.store import shaped


class MergedRow(TypedDict):
    """subjects/merge_subjects: no row when the guard refused a circle."""

    merged: str
    settled: int


class MergeEndRow(TypedDict):
    """subjects/get_merge_ends."""

    id: str
    found: bool
    root: str | None
    name: str | None


@dataclass(frozen=True)
class Merged:
    subject_id: str  # the root that joined
    into_id: str  # the root it joined
    settled: int  # open questions between the two groups, answered "same"
    revision: int


async def merge_in(
    w: Write, subject_id: str, into_id: str, reason: str, actor: str | None
) -> Merged:
    """Join the subject's group to the other's; the caller holds the subjects ledger."""
    ends = shaped(
        MergeEndRow, await w.run("subjects/get_merge_ends", subject_id=subject_id, into_id=into_id)
    )
    roots = {row["id"]: row["root"] for row in ends if row["found"]}
    for wanted in (subject_id, into_id):
        if wanted not in roots:
            raise NotFound("subject", wanted)
    from_root, into_root = roots[subject_id], roots[into_id]
    if from_root is None or into_root is None or from_root == into_root:
        raise InvalidState("subject", subject_id, "merged", f"already one with {into_id!r}")
    rows = shaped(
        MergedRow,
        await w.run(
            "subjects/merge_subjects",
            from_id=from_root,
            into_id=into_root,
            revision=w.next_revision,
            reason=reason,
            actor=actor,
            now=w.now.isoformat(),
        ),
    )
    if not rows:  # the guard refused a circle (the roots were read under the same lock)
        raise InvalidState("subject", subject_id, "merged", "it would make a circle")
    recorded = await w.record(
        "subject",
        from_root,
        [from_root, into_root],
        {"merged": from_root, "into": into_root, "reason": reason},
    )
    return Merged(from_root, into_root, rows[0]["settled"], recorded)
