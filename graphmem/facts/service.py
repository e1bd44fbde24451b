"""Facts domain: record and verify observed facts (govern.py governs them; fact_state.py and
resolution.py resolve a key's current state, under the time rules written there).

Every write is one transaction that first takes the tenant's history lock (so revisions are
gap-free and the reads below see a stable graph), changes the graph through named queries,
snapshots the changed facts' transaction-time states, and appends one history event.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from pydantic import JsonValue

from graphmem.core.clock import iso
from graphmem.core.errors import NotFound
from graphmem.core.ids import new_id
from graphmem.core.models import canonical_json
from graphmem.decisions import evaluation as decisions
from graphmem.decisions.reopen_rules import value_projection
from graphmem.facts.attestation import Attestation, TrustedVerifiers, check_attestation
from graphmem.facts.last_recorded import last_recorded
from graphmem.facts.models import (
    SCHEMA_VERSION,
    Fact,
    RecordFactRequest,
    RecordFactResult,
    VerifyFactResult,
)
from graphmem.facts.rows import (
    FactByIdRow,
    FactRow,
    RecordedAtHeadRow,
    RecordedFactRow,
    fact_from_node,
)
from graphmem.facts.validity import boundary
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Idempotency, IdempotencyRecord, Write, write, write_at_head
from graphmem.store import Params, TenantStore, shaped
from graphmem.subjects.spellings import MAX_SPELLINGS, key_fields


# --- record_fact ---------------------------------------------------------------------------------
async def record_fact(db: TenantStore, request: RecordFactRequest) -> RecordFactResult:
    fact_id = new_id()
    slot = (db.tenant, request.owner, request.key)
    if request.idempotency_key is None:  # a keyed write looks for its earlier result first
        result = await record_at_head(db, request, fact_id)
        if result is not None:
            last_recorded(db.store).remember(slot, result.id)
            return result
    result, watched = await _record_managed(db, request, fact_id)
    if result.idempotent_replay or watched:  # a watched key's write evaluates its decisions
        last_recorded(db.store).forget(slot)
    else:
        last_recorded(db.store).remember(slot, result.id)
    return result


async def _record_managed(
    db: TenantStore, request: RecordFactRequest, fact_id: str
) -> tuple[RecordFactResult, bool]:
    """The managed write, and whether a decision watched the key (its last run's say)."""
    watched = False

    async def work(w: Write) -> RecordFactResult:
        nonlocal watched
        recorded = await record_in_transaction(w, request, fact_id)
        superseded_id, pushed = recorded.superseded_id, recorded.signals
        watched = recorded.watched
        revision = await w.event(_fact_change(request, fact_id, superseded_id, pushed))
        return RecordFactResult(
            **recorded.fact.model_dump(),
            superseded_id=superseded_id,
            revision=revision,
            idempotent_replay=False,
            review_signals=pushed.opened,
        )

    keyed = Idempotency[RecordFactResult].of(
        request.owner, request, _remembered_fact, _replayed_fact
    )
    audit = Audit.of(request)
    result = await write(db, "record_fact", work, audit=audit, idempotency=keyed)
    return result, watched


async def record_at_head(
    db: TenantStore, request: RecordFactRequest, fact_id: str
) -> RecordFactResult | None:
    """The common record in one statement: a key whose current fact this process recorded
    last, that no decision watches. None when it was not written (run the managed write)."""
    previous = last_recorded(db.store).get((db.tenant, request.owner, request.key))
    if previous is None:
        return None
    quiet = decisions.Evaluation({}, {}, [], 0)  # no decision watches: nothing to evaluate
    row = await write_at_head(
        db,
        "record_fact",
        "facts/record_fact_at_head",
        _fact_change(request, fact_id, previous, quiet),
        audit=Audit.of(request),
        params=lambda now: {
            **_record_params(request, fact_id, now),
            "expected_previous": previous,
            "spellings_limit": MAX_SPELLINGS,
        },
    )
    if row is None:
        return None
    [written] = shaped(RecordedAtHeadRow, [row])
    return RecordFactResult(
        **fact_from_node(written["fact"]).model_dump(),
        superseded_id=written["superseded_id"],
        revision=written["revision"],
        idempotent_replay=False,
        review_signals=[],
    )


def _fact_change(
    request: RecordFactRequest,
    fact_id: str,
    superseded_id: str | None,
    pushed: decisions.Evaluation,
) -> Change:
    """record_fact's history event: the fact, the one it superseded, the signals it pushed."""
    return Change(
        "record_fact",
        "fact",
        fact_id,
        [fact_id, *([superseded_id] if superseded_id else [])],
        {
            "owner": request.owner,
            "key": request.key,
            "value_json": canonical_json(request.value),
            "superseded_id": superseded_id,
            **decisions.signal_change(pushed),
        },
    )


def _remembered_fact(result: RecordFactResult) -> IdempotencyRecord:
    return IdempotencyRecord(result.id, result.revision, {"superseded_id": result.superseded_id})


async def _replayed_fact(w: Write, earlier: IdempotencyRecord) -> RecordFactResult:
    """The first write's result, with the fact as it is stored now."""
    rows = shaped(FactByIdRow, await w.run("facts/get_facts", ids=[earlier.entity_id]))
    superseded_id = earlier.details.get("superseded_id")  # as _remembered_fact kept it
    return RecordFactResult(
        **fact_from_node(rows[0]["fact"]).model_dump(),
        superseded_id=superseded_id if isinstance(superseded_id, str) else None,
        revision=earlier.revision,
        idempotent_replay=True,
    )


@dataclass(frozen=True)
class Recorded:
    fact: Fact
    superseded_id: str | None
    signals: decisions.Evaluation  # review signals the write pushed
    watched: bool  # a live decision watches the key (its rules were evaluated)


async def record_in_transaction(w: Write, request: RecordFactRequest, fact_id: str) -> Recorded:
    """Write one fact (superseding its key's current fact) and push review signals, inside a
    caller's locked transaction; the caller appends the history event. Used by record_fact
    and by the areas that create facts from other things (promoted claims)."""
    params = _record_params(request, fact_id, w.now)
    statement = await w.run("facts/record_fact", **params, spellings_limit=MAX_SPELLINGS)
    rows = shaped(RecordedFactRow, statement)
    superseded_id = rows[0]["superseded_id"]
    pushed = await decisions.evaluate(w, sorted(rows[0]["watching"]))  # push_signals' work
    watched = bool(rows[0]["watching"])
    return Recorded(fact_from_node(rows[0]["fact"]), superseded_id, pushed, watched)


def _record_params(request: RecordFactRequest, fact_id: str, now: datetime) -> Params:
    """The statement's parameters; $now and the audit fields come from the write (Write.run)."""
    source_class, source_raw = request.provenance
    observed_at = request.observed_at or now
    return {
        "id": fact_id,
        "new_slot_id": new_id(),  # the key's slot, when this write creates it
        "owner": request.owner,
        "project": request.project,
        "origin_id": request.origin_id,
        "key": request.key,
        **key_fields(request.key),
        "value_json": canonical_json(request.value),
        **_value_projection(request.value),
        "source_class": source_class,
        "source_raw": source_raw,
        "confidence": request.confidence,
        "verification_status": request.verification_status,
        "observed_at": observed_at.isoformat(),
        "valid_from": (request.valid_from or observed_at).isoformat(),
        "valid_to": iso(request.valid_to),
        "expires_at": iso(request.expires_at),
        "effective_until": iso(boundary(request.valid_to, request.expires_at)),
        "schema_version": SCHEMA_VERSION,
    }


def _value_projection(value: JsonValue) -> Params:
    """Typed views of the value that reopen rules compare (graphmem/decisions/reopen_rules.py)."""
    projection = value_projection(value)
    instant = projection.pop("value_instant")
    return {"value_projection": projection, "value_instant": instant}


# --- verification --------------------------------------------------------------------------------
async def verify_fact(
    db: TenantStore, fact_id: str, attestation: Attestation, trusted: TrustedVerifiers
) -> VerifyFactResult:
    """Check the attestation against the fact as stored, under the tenant's write lock, and
    store it; a refusal rolls the transaction back, so nothing is written."""

    async def work(w: Write) -> VerifyFactResult:
        rows = shaped(FactByIdRow, await w.run("facts/get_facts", ids=[fact_id]))
        if not rows:
            raise NotFound("fact", fact_id)
        fact = fact_from_node(rows[0]["fact"])
        check_attestation(fact.model_dump(mode="json"), attestation, trusted)
        record = attestation.model_dump(
            mode="json", exclude={"signature", "schema_version", "fact_id"}
        )
        verified = json.dumps(record)
        updated = shaped(
            FactRow, await w.run("facts/mark_fact_verified", id=fact_id, verification_json=verified)
        )
        revision = await w.record(
            "fact",
            fact_id,
            [fact_id],
            {
                "verifier_identity": attestation.verifier_identity,
                "fact_digest": attestation.fact_digest,
            },
        )
        return VerifyFactResult(fact=fact_from_node(updated[0]["fact"]), revision=revision)

    return await write(db, "verify_fact", work)
