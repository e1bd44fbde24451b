"""Fact keys written before a key's subject was stored on it are named once: each pass of the
subjects reader walks a step of them in id order (the ledger keeps where), so current_state,
reopen rules and about find them under every spelling of their subject afterwards."""

from __future__ import annotations

from typing import TypedDict

from graphmem.store import Tx, shaped
from graphmem.subjects.spellings import key_fields

STEP = 2000  # keys per pass


class UnnamedKeyRow(TypedDict):
    """subjects/list_unnamed_fact_keys."""

    id: str
    key: str
    unnamed: bool


async def name_fact_keys(tx: Tx) -> bool:
    """One step of the walk, in the pass's transaction (the ledger held); whether more remain."""
    rows = shaped(UnnamedKeyRow, await tx.run("subjects/list_unnamed_fact_keys", limit=STEP))
    if not rows:
        await tx.run("subjects/name_fact_keys", keys=[], last=None, done=True)
        return False
    keys = [{"id": row["id"], **key_fields(row["key"])} for row in rows if row["unnamed"]]
    done = len(rows) < STEP
    await tx.run("subjects/name_fact_keys", keys=keys, last=rows[-1]["id"], done=done)
    return not done
