"""A fact key's subject, and the spellings of a subject: how one thing under two names becomes
one truth (current_state, reopen rules).

A key names a subject when it has a dot: the part before the first dot is read as a name
("acme_corp.ceo": the subject ``acme`` as names.py writes it, the attribute ``ceo``). Two keys
of one owner name one slot of one subject when their attributes are equal and their subjects
are spellings of one subject the memory knows (a subject group: its names' normal forms, those
of subjects merged into it too; merge_subjects joins, split_subject parts). Once "ACME
Corporation" is a subject, "ACME.ceo", "acme_corp.ceo" and "Acme-Corporation.ceo" are its
keys; before, and for a name borne by subjects of several groups, each key is its own: a
wrong join costs more than a missed one (``my.name`` and ``my_company.name`` never meet
unless "My" is somebody).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypedDict

from graphmem.store import Row, shaped
from graphmem.subjects.names import MAX_NAME_CHARS, name_of

MAX_SPELLINGS = 200  # of one group: bounds the keys a read or a rule looks at

Run = Callable[..., Awaitable[list[Row]]]  # a Write's run, a Tx's run or a TenantStore's read


@dataclass(frozen=True)
class KeySubject:
    subject: str  # the normal form of the key's subject part
    attribute: str  # the rest of the key, as written


def key_subject(key: str) -> KeySubject | None:
    """The subject and attribute a fact key names; None when it names no subject."""
    part, dot, attribute = key.partition(".")
    if not dot or not attribute or len(part) > MAX_NAME_CHARS:
        return None
    subject = name_of(part).normal
    return KeySubject(subject, attribute) if subject else None


def key_fields(key: str) -> dict[str, str | None]:
    """The FactKey properties a write stores: ``subject`` and ``attribute`` (null: none)."""
    named = key_subject(key)
    return {
        "subject": named.subject if named else None,
        "attribute": named.attribute if named else None,
    }


class SpellingsRow(TypedDict):
    """subjects/list_group_spellings."""

    name: str
    spellings: list[str]


async def spellings_of(run: Run, names: list[str]) -> dict[str, list[str]]:
    """Each name's spellings in its subject group, the name first; none for a name no subject
    (or several groups) bears."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    rows = await run("subjects/list_group_spellings", names=wanted, limit=MAX_SPELLINGS)
    return {row["name"]: row["spellings"] for row in shaped(SpellingsRow, rows)}
