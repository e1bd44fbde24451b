"""govern_fact: supersede, contradict, invalidate or revalidate a fact, in one write.

The write snapshots the changed facts' transaction-time states, refreshes their contradiction
counts, pushes review signals and appends one history event. An action the facts' current
state does not allow (superseding a fact that is no longer active, contradicting a fact it
already contradicts, ...) is refused with invalid_state naming that state.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict, Unpack

from graphmem.core.clock import iso
from graphmem.core.errors import InvalidArgument, InvalidState, NotFound
from graphmem.decisions import evaluation as decisions
from graphmem.facts.models import (
    Fact,
    FactStatus,
    GovernFactRequest,
    GovernFactResult,
    VerificationStatus,
)
from graphmem.facts.rows import ContradictionsRow, DisplacedRow, FactByIdRow, fact_from_node
from graphmem.facts.validity import boundary
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, write
from graphmem.store import TenantStore, shaped


async def govern_fact(db: TenantStore, request: GovernFactRequest) -> GovernFactResult:
    async def work(w: Write) -> GovernFactResult:
        effective_at = request.effective_at or w.now
        fact, target = await _load_pair(w, request)
        governance = _Governance(w, fact, target, effective_at, request.rationale)
        changed = await _GOVERNORS[request.action](governance)
        await w.run("facts/snapshot_fact_states", ids=changed)
        await w.run("facts/refresh_contradiction_counts", ids=changed)
        pushed = await decisions.push_signals(w, changed)
        revision = await w.record(
            "fact",
            request.fact_id,
            changed,
            {
                "action": request.action,
                "target_fact_id": request.target_fact_id,
                "effective_at": effective_at.isoformat(),
                "rationale": request.rationale,
                "before": {"status": fact.status},
                **decisions.signal_change(pushed),
            },
        )
        rows = shaped(FactByIdRow, await w.run("facts/get_facts", ids=[request.fact_id]))
        return GovernFactResult(
            fact_id=request.fact_id,
            action=request.action,
            target_fact_id=request.target_fact_id,
            effective_at=effective_at,
            changed=True,
            revision=revision,
            fact=fact_from_node(rows[0]["fact"]),
            review_signals=pushed.opened,
        )

    return await write(db, "govern_fact", work, audit=Audit.of(request))


async def _load_pair(w: Write, request: GovernFactRequest) -> tuple[Fact, Fact | None]:
    ids = [request.fact_id, *([request.target_fact_id] if request.target_fact_id else [])]
    rows = shaped(FactByIdRow, await w.run("facts/get_facts", ids=ids))
    found = {row["fact"]["id"]: fact_from_node(row["fact"]) for row in rows}
    if request.fact_id not in found:
        raise NotFound("fact", request.fact_id)
    if request.target_fact_id is not None and request.target_fact_id not in found:
        raise NotFound("fact", request.target_fact_id)
    target = found.get(request.target_fact_id) if request.target_fact_id else None
    return found[request.fact_id], target


@dataclass(frozen=True)
class _Governance:
    """One govern_fact call inside its transaction."""

    w: Write
    fact: Fact
    target: Fact | None
    effective_at: datetime
    rationale: str | None


def _ending_window(fact: Fact, effective_at: datetime) -> datetime:
    """The valid_to an action ending validity at effective_at gives (never later than now's)."""
    if effective_at <= fact.temporal.valid_from:
        raise InvalidArgument(
            "effective_at",
            f"must be later than the fact's valid_from ({fact.temporal.valid_from.isoformat()})",
        )
    current = fact.temporal.valid_to
    return effective_at if current is None or effective_at < current else current


class _Changed(TypedDict, total=False):
    """The lifecycle fields an action changes (facts/update_fact sets them, and effective_until,
    which follows from them); the others stay as the fact has them."""

    status: FactStatus
    valid_to: datetime | None
    expires_at: datetime | None
    invalidated_at: datetime | None
    superseded_at: datetime | None  # None, unless the action sets it
    verification_status: VerificationStatus


async def _update(w: Write, fact: Fact, **fields: Unpack[_Changed]) -> None:
    valid_to = fields.get("valid_to", fact.temporal.valid_to)
    expires_at = fields.get("expires_at", fact.expires_at)
    await w.run(
        "facts/update_fact",
        id=fact.id,
        status=fields.get("status", fact.status),
        valid_to=iso(valid_to),
        expires_at=iso(expires_at),
        invalidated_at=iso(fields.get("invalidated_at", fact.temporal.invalidated_at)),
        superseded_at=iso(fields.get("superseded_at")),
        set_superseded_at="superseded_at" in fields,
        effective_until=iso(boundary(valid_to, expires_at)),
        verification_status=fields.get("verification_status", fact.verification_status),
    )


async def _supersede(g: _Governance) -> list[str]:
    w, fact, target, effective_at = g.w, g.fact, g.target, g.effective_at
    assert target is not None
    if fact.status != "active":
        raise InvalidState("fact", fact.id, fact.status, "only an active fact can be superseded")
    if target.status != "active":
        raise InvalidState("target fact", target.id, target.status, "a successor must be active")
    valid_to = _ending_window(fact, effective_at)
    await _update(w, fact, status="superseded", valid_to=valid_to, superseded_at=w.now)
    await w.run("facts/release_current", id=fact.id)
    await _link(g, "facts/link_supersedes", newer_id=target.id, older_id=fact.id)
    return [fact.id, target.id]


async def _contradict(g: _Governance) -> list[str]:
    w, fact, target = g.w, g.fact, g.target
    assert target is not None
    rows = shaped(
        ContradictionsRow,
        await w.run("facts/count_contradictions_between", fact_id=fact.id, target_id=target.id),
    )
    if rows and rows[0]["existing"]:
        raise InvalidState(
            "fact", fact.id, "contradicting", f"already linked as contradicting fact {target.id!r}"
        )
    await _update(w, fact, verification_status="contradicted")
    await _link(g, "facts/link_contradicts", fact_id=fact.id, target_id=target.id)
    return [fact.id, target.id]


async def _link(g: _Governance, statement: str, **ends: str) -> None:
    """Link two facts as the governance says, from its effective instant, with its reason."""
    await g.w.run(statement, effective_at=g.effective_at.isoformat(), rationale=g.rationale, **ends)


async def _invalidate(g: _Governance) -> list[str]:
    w, fact, effective_at = g.w, g.fact, g.effective_at
    if fact.status == "invalidated":
        raise InvalidState("fact", fact.id, fact.status, "already invalidated")
    valid_to = _ending_window(fact, effective_at)
    await _update(w, fact, status="invalidated", valid_to=valid_to, invalidated_at=w.now)
    await w.run("facts/release_current", id=fact.id)
    return [fact.id]


async def _revalidate(g: _Governance) -> list[str]:
    """Clear the validity end and successor links; the fact becomes its key's current fact,
    and the fact that was current there is superseded by it."""
    w, fact = g.w, g.fact
    if fact.status == "active":
        raise InvalidState("fact", fact.id, fact.status, "already active: nothing to revalidate")
    verification = (
        "unverified" if fact.verification_status == "expired" else fact.verification_status
    )
    await _update(
        w,
        fact,
        status="active",
        valid_to=None,
        expires_at=None,
        invalidated_at=None,
        superseded_at=None,
        verification_status=verification,
    )
    await w.run("facts/clear_successor_links", id=fact.id)
    rows = shaped(DisplacedRow, await w.run("facts/make_current", id=fact.id))
    displaced_id = rows[0]["displaced_id"] if rows else None
    if displaced_id is None:
        return [fact.id]
    displaced = shaped(FactByIdRow, await w.run("facts/get_facts", ids=[displaced_id]))[0]["fact"]
    await _update(w, fact_from_node(displaced), status="superseded", superseded_at=w.now)
    await _link(g, "facts/link_supersedes", newer_id=fact.id, older_id=displaced_id)
    return [fact.id, displaced_id]


_GOVERNORS = {
    "supersede": _supersede,
    "contradict": _contradict,
    "invalidate": _invalidate,
    "revalidate": _revalidate,
}
