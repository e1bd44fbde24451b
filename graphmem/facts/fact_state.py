"""current_state on the facts side: the read (now, or the graph as known at known_at) and its
resolution (resolution.py, where the time rules are). state.py adds the memories side. The
read takes the key and every key of its owner that names the same subject under the same
attribute (graphmem/subjects/spellings.py; the current state's statement finds them itself)."""

from __future__ import annotations

from graphmem.core.clock import utc_now
from graphmem.core.models import owner_of
from graphmem.facts.models import CurrentState, CurrentStateRequest
from graphmem.facts.resolution import resolve, slot_from_current, slot_from_states
from graphmem.facts.rows import CurrentSlotRow, StatesSlotRow
from graphmem.store import TenantStore, shaped
from graphmem.subjects.spellings import MAX_SPELLINGS, key_subject, spellings_of

MAX_OWNERS_PER_KEY = 50  # bounds an ambiguous answer's candidate list


async def current_state(db: TenantStore, request: CurrentStateRequest) -> CurrentState:
    now = utc_now()
    reference = request.known_at or now
    owner = _owner_filter(request)
    named = key_subject(request.state_key)
    attribute = named.attribute if named else None
    if request.as_of is None and request.known_at is None:
        rows = await db.read(  # the subject's spellings found in the statement: one trip
            "facts/get_current_state",
            key=request.state_key,
            subject=named.subject if named else None,
            attribute=attribute,
            spellings_limit=MAX_SPELLINGS,
            owner=owner,
            history_limit=request.history_limit,
            owner_limit=MAX_OWNERS_PER_KEY,
            now=now.isoformat(),
        )
        current = shaped(CurrentSlotRow, rows)
        slots = [slot_from_current(row) for row in current if row["has_facts"]]
        if any(row["current_erased"] for row in current):
            state = resolve(request, slots, reference)
            return state.model_copy(update={"current_erased": state.answer is None})
    else:
        spellings = (await spellings_of(db.read, [named.subject]))[named.subject] if named else []
        rows = await db.read(
            "facts/get_state_at",
            key=request.state_key,
            spellings=spellings,
            attribute=attribute,
            owner=owner,
            known_at=reference.isoformat(),
            owner_limit=MAX_OWNERS_PER_KEY,
        )
        slots = [slot_from_states(row) for row in shaped(StatesSlotRow, rows) if row["facts"]]
    return resolve(request, slots, reference)


def _owner_filter(request: CurrentStateRequest) -> str | None:
    if request.project is None and request.origin_id is None:
        return None
    return owner_of(request.project, request.origin_id)
