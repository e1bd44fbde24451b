"""Facts domain: record, resolve, govern and expire observed facts.

Every write is one transaction that first takes the tenant's history lock (so revisions are
gap-free and the reads below see a stable graph), changes the graph through named queries,
snapshots the changed facts' transaction-time states, and appends one history event.

Time rules (the reference model in tests/integration/test_facts_properties.py mirrors them):
- A fact's *boundary* is the earlier of valid_to and expires_at; at the boundary instant it
  has lapsed. maintain turns lapsed active facts into 'expired'; reads do not wait for it.
- Without as_of, the answer is the key's current (active) fact unless it has lapsed at the
  reference time (known_at, else now).
- With as_of T, the answer is the fact whose valid window [valid_from, boundary) holds T, the
  newest valid_from winning (then the newest recorded_at, then the larger id), whatever its
  status: a superseded fact still says what was true in its window.
- known_at K reads the graph as it was at K: facts recorded by then, each with the status and
  window it had then (FactState), and the SUPERSEDES / CONTRADICTS links that existed then.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.core.attestation import Attestation, TrustedVerifiers, check_attestation
from graphmem.core.clock import iso, utc_now
from graphmem.core.errors import Conflict, InvalidArgument, NotFound, first_row
from graphmem.core.ids import new_id
from graphmem.core.models import canonical_json, owner_of, pick
from graphmem.decisions import service as decisions
from graphmem.decisions.reopen_rules import value_projection
from graphmem.facts.models import (
    SCHEMA_VERSION,
    CurrentState,
    CurrentStateRequest,
    Fact,
    FactStatus,
    GovernFactRequest,
    GovernFactResult,
    HistoryEntry,
    RecordFactRequest,
    RecordFactResult,
    VerifyFactResult,
    WhyEdge,
)
from graphmem.facts.rows import fact_from_node
from graphmem.history.chain import Audit
from graphmem.history.write_path import Idempotency, IdempotencyRecord, Write, write
from graphmem.store import TenantStore

MAX_OWNERS_PER_KEY = 50  # bounds an ambiguous answer's candidate list


def boundary(valid_to: datetime | None, expires_at: datetime | None) -> datetime | None:
    present = [t for t in (valid_to, expires_at) if t is not None]
    return min(present) if present else None


def lapsed(valid_to: datetime | None, expires_at: datetime | None, at: datetime) -> bool:
    until = boundary(valid_to, expires_at)
    return until is not None and until <= at


# --- record_fact ---------------------------------------------------------------------------------
async def record_fact(db: TenantStore, request: RecordFactRequest) -> RecordFactResult:
    fact_id = new_id()

    async def work(w: Write) -> RecordFactResult:
        recorded = await record_in_transaction(w, request, fact_id)
        superseded_id, pushed = recorded.superseded_id, recorded.signals
        revision = await w.record(
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
        return RecordFactResult(
            **recorded.fact.model_dump(),
            superseded_id=superseded_id,
            revision=revision,
            idempotent_replay=False,
            review_signals=pushed.opened,
        )

    keyed = Idempotency.of(request.owner, request, _remembered_fact, _replayed_fact)
    return await write(db, "record_fact", work, audit=Audit.of(request), idempotency=keyed)


def _remembered_fact(result: RecordFactResult) -> IdempotencyRecord:
    return IdempotencyRecord(result.id, result.revision, {"superseded_id": result.superseded_id})


async def _replayed_fact(w: Write, earlier: IdempotencyRecord) -> RecordFactResult:
    """The first write's result, with the fact as it is stored now."""
    rows = await w.run("facts/get_facts", ids=[earlier.entity_id])
    return RecordFactResult(
        **fact_from_node(rows[0]["fact"]).model_dump(),
        superseded_id=earlier.details.get("superseded_id"),
        revision=earlier.revision,
        idempotent_replay=True,
    )


@dataclass(frozen=True)
class Recorded:
    fact: Fact
    superseded_id: str | None
    signals: decisions.Evaluation  # review signals the write pushed


async def record_in_transaction(w: Write, request: RecordFactRequest, fact_id: str) -> Recorded:
    """Write one fact (superseding its key's current fact) and push review signals, inside a
    caller's locked transaction; the caller appends the history event. Used by record_fact
    and by the areas that create facts from other things (promoted claims)."""
    rows = await w.run("facts/record_fact", **_record_params(request, fact_id, w.now))
    superseded_id = rows[0]["superseded_id"]
    pushed = await decisions.evaluate(w, sorted(rows[0]["watching"]))  # push_signals' work
    return Recorded(fact_from_node(rows[0]["fact"]), superseded_id, pushed)


def _record_params(request: RecordFactRequest, fact_id: str, now: datetime) -> dict[str, Any]:
    source_class, source_raw = request.provenance
    observed_at = request.observed_at or now
    return {
        "id": fact_id,
        "key_id": new_id(),
        "owner": request.owner,
        "project": request.project,
        "origin_id": request.origin_id,
        "key": request.key,
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
        "now": now.isoformat(),
        "session_id": request.session_id,
        "actor": request.actor,
        "client": request.client,
        "schema_version": SCHEMA_VERSION,
    }


def _value_projection(value: Any) -> dict[str, Any]:
    """Typed views of the value that reopen rules compare (graphmem/decisions/reopen_rules.py)."""
    projection = value_projection(value)
    instant = projection.pop("value_instant")
    return {"value_projection": projection, "value_instant": instant}


# --- current_state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class _View:
    """One fact as known at the reference time: its lifecycle fields and links, plus the
    whole node when it may become the answer (history-only views carry a projection)."""

    id: str
    status: FactStatus
    value: Any
    valid_from: datetime
    valid_to: datetime | None
    expires_at: datetime | None
    recorded_at: datetime
    edges: list[dict[str, Any]]
    node: dict[str, Any]
    state: dict[str, Any] | None = None

    @classmethod
    def of(
        cls, node: dict[str, Any], edges: list[dict[str, Any]], state: dict[str, Any] | None = None
    ) -> _View:
        lifecycle = state or node
        return cls(
            id=node["id"],
            status=lifecycle["status"],
            value=json.loads(node["value_json"]),
            valid_from=node["valid_from"],
            valid_to=lifecycle.get("valid_to"),
            expires_at=lifecycle.get("expires_at"),
            recorded_at=node["recorded_at"],
            edges=edges,
            node=node,
            state=state,
        )

    @property
    def whole(self) -> bool:
        """A whole Fact node (not a history projection): it can be an answer."""
        return "key" in self.node

    def fact(self) -> Fact:
        return fact_from_node(self.node, self.state)

    def lapsed_at(self, at: datetime) -> bool:
        return lapsed(self.valid_to, self.expires_at, at)

    def live_at(self, at: datetime) -> bool:
        return self.status == "active" and not self.lapsed_at(at)

    def holds(self, instant: datetime) -> bool:
        until = boundary(self.valid_to, self.expires_at)
        return self.valid_from <= instant and (until is None or instant < until)


async def current_state(db: TenantStore, request: CurrentStateRequest) -> CurrentState:
    now = utc_now()
    reference = request.known_at or now
    owner = _owner_filter(request)
    if request.as_of is None and request.known_at is None:
        rows = await db.read(
            "facts/get_current_state",
            key=request.state_key,
            owner=owner,
            history_limit=request.history_limit,
            owner_limit=MAX_OWNERS_PER_KEY,
            now=now.isoformat(),
        )
        slots = [_slot_from_current(row) for row in rows if row["has_facts"]]
    else:
        rows = await db.read(
            "facts/get_state_at",
            key=request.state_key,
            owner=owner,
            known_at=reference.isoformat(),
            owner_limit=MAX_OWNERS_PER_KEY,
        )
        slots = [_slot_from_states(row) for row in rows if row["facts"]]
    return _resolve(request, slots, reference)


def _owner_filter(request: CurrentStateRequest) -> str | None:
    if request.project is None and request.origin_id is None:
        return None
    return owner_of(request.project, request.origin_id)


@dataclass(frozen=True)
class _Slot:
    project: str | None
    origin_id: str | None
    owner: str
    views: list[_View]  # newest recorded first


def _slot_from_current(row: dict[str, Any]) -> _Slot:
    views = [_View.of(old, old["edges"]) for old in row["history"]]
    if row["answer"] is not None:
        views.append(_View.of(row["answer"], row["answer_edges"]))
    return _slot(row, views)


def _slot_from_states(row: dict[str, Any]) -> _Slot:
    views = [_View.of(item["fact"], item["edges"], item["state"]) for item in row["facts"]]
    return _slot(row, views)


def _slot(row: dict[str, Any], views: list[_View]) -> _Slot:
    views.sort(key=lambda v: (v.recorded_at, v.id), reverse=True)
    return _Slot(row["project"], row["origin_id"], row["owner"], views)


def _answer(slot: _Slot, as_of: datetime | None, reference: datetime) -> _View | None:
    if as_of is not None:
        holding = [view for view in slot.views if view.holds(as_of)]
        return max(holding, key=lambda v: (v.valid_from, v.recorded_at, v.id), default=None)
    # At most one fact of a key is active at any time: the one its CURRENT edge names (the
    # only whole node of a now-read; an active fact without it is drift that audit repairs).
    return next((v for v in slot.views if v.whole and v.live_at(reference)), None)


def _resolve(request: CurrentStateRequest, slots: list[_Slot], reference: datetime) -> CurrentState:
    base = CurrentState(
        state_key=request.state_key,
        status="not_found",
        project=request.project,
        origin_id=request.origin_id,
        answer=None,
        history=[],
        why=[],
        as_of=request.as_of,
        known_at=request.known_at,
    )
    if not slots:
        return base
    answered = [(slot, _answer(slot, request.as_of, reference)) for slot in slots]
    with_answer = [(slot, view) for slot, view in answered if view is not None]
    if len(with_answer) > 1:
        return base.model_copy(
            update={"status": "ambiguous", "candidates": [slot.owner for slot, _ in with_answer]}
        )
    if with_answer:
        slot, answer = with_answer[0]
    elif len(slots) == 1:
        slot, answer = slots[0], None
    else:
        return base.model_copy(update={"status": "no_current"})
    return _state_of_slot(base, slot, answer, request.history_limit, reference)


def _state_of_slot(
    base: CurrentState, slot: _Slot, answer: _View | None, limit: int, reference: datetime
) -> CurrentState:
    others = [view for view in slot.views if answer is None or view.id != answer.id]
    history = [_history_entry(view, reference) for view in others[:limit]]
    edges = {
        (edge["type"], edge["from_id"], edge["to_id"]): edge
        for view in ([answer] if answer else []) + others[:limit]
        for edge in view.edges
    }
    why = [
        WhyEdge(
            type=kind.lower(),
            from_id=source,
            to_id=target,
            at=edge.get("at"),  # type: ignore[arg-type]
            rationale=edge.get("rationale"),
        )
        for (kind, source, target), edge in sorted(edges.items())
    ]
    status = "no_current"
    if answer is not None:
        conflicted = any(
            edge["type"] == "CONTRADICTS" and edge.get("other_live", False) for edge in answer.edges
        )
        status = "unresolved_conflict" if conflicted else "current"
    return base.model_copy(
        update={
            "status": status,
            "project": slot.project,
            "origin_id": slot.origin_id,
            "answer": answer.fact() if answer else None,
            "history": history,
            "why": why,
        }
    )


def _history_entry(view: _View, reference: datetime) -> HistoryEntry:
    superseded_by = next(
        (e["from_id"] for e in view.edges if e["type"] == "SUPERSEDES" and e["to_id"] == view.id),
        None,
    )
    lapsed_now = view.status == "active" and view.lapsed_at(reference)
    return HistoryEntry(
        id=view.id,
        status="expired" if lapsed_now else view.status,
        **pick(view, "value valid_from valid_to expires_at recorded_at"),
        superseded_by=superseded_by,
    )


# --- govern_fact ---------------------------------------------------------------------------------
async def govern_fact(db: TenantStore, request: GovernFactRequest) -> GovernFactResult:
    async def work(w: Write) -> GovernFactResult:
        effective_at = request.effective_at or w.now
        fact, target = await _load_pair(w, request)
        governance = _Governance(w, fact, target, effective_at, request.rationale)
        changed = await _GOVERNORS[request.action](governance)
        now = w.now_iso
        await w.run("facts/snapshot_fact_states", ids=changed, now=now)
        await w.run("facts/refresh_contradiction_counts", ids=changed, now=now)
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
        rows = await w.run("facts/get_facts", ids=[request.fact_id])
        return GovernFactResult(
            **pick(request, "fact_id action target_fact_id"),
            effective_at=effective_at,
            changed=True,
            revision=revision,
            fact=fact_from_node(rows[0]["fact"]),
            review_signals=pushed.opened,
        )

    return await write(db, "govern_fact", work, audit=Audit.of(request))


async def _load_pair(w: Write, request: GovernFactRequest) -> tuple[Fact, Fact | None]:
    ids = [request.fact_id, *([request.target_fact_id] if request.target_fact_id else [])]
    rows = await w.run("facts/get_facts", ids=ids)
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


async def _update(w: Write, fact: Fact, **fields: Any) -> None:
    merged: dict[str, Any] = {
        "status": fact.status,
        "valid_to": fact.temporal.valid_to,
        "expires_at": fact.expires_at,
        "invalidated_at": fact.temporal.invalidated_at,
        "superseded_at": None,
        "verification_status": fact.verification_status,
    }
    merged.update(fields)
    merged["set_superseded_at"] = "superseded_at" in fields
    merged["effective_until"] = boundary(merged["valid_to"], merged["expires_at"])
    await w.run(
        "facts/update_fact",
        id=fact.id,
        **{
            name: iso(value) if isinstance(value, datetime) else value
            for name, value in merged.items()
        },
    )


async def _supersede(g: _Governance) -> list[str]:
    w, fact, target, effective_at = g.w, g.fact, g.target, g.effective_at
    assert target is not None
    if fact.status != "active":
        raise Conflict(f"fact {fact.id!r} is {fact.status}; only an active fact can be superseded")
    if target.status != "active":
        raise Conflict(f"target fact {target.id!r} is {target.status}; a successor must be active")
    valid_to = _ending_window(fact, effective_at)
    await _update(w, fact, status="superseded", valid_to=valid_to, superseded_at=w.now)
    await w.run("facts/release_current", id=fact.id)
    await _link(g, "facts/link_supersedes", newer_id=target.id, older_id=fact.id)
    return [fact.id, target.id]


async def _contradict(g: _Governance) -> list[str]:
    w, fact, target = g.w, g.fact, g.target
    assert target is not None
    rows = await w.run("facts/count_contradictions_between", fact_id=fact.id, target_id=target.id)
    if rows and rows[0]["existing"]:
        raise Conflict(f"facts {fact.id!r} and {target.id!r} are already linked as contradicting")
    await _update(w, fact, verification_status="contradicted")
    await _link(g, "facts/link_contradicts", fact_id=fact.id, target_id=target.id)
    return [fact.id, target.id]


async def _link(g: _Governance, statement: str, **ends: str) -> None:
    """Link two facts as the governance says, from its effective instant, with its reason."""
    await g.w.run(statement, effective_at=g.effective_at.isoformat(), rationale=g.rationale, **ends)


async def _invalidate(g: _Governance) -> list[str]:
    w, fact, effective_at = g.w, g.fact, g.effective_at
    if fact.status == "invalidated":
        raise Conflict(f"fact {fact.id!r} is already invalidated")
    valid_to = _ending_window(fact, effective_at)
    await _update(w, fact, status="invalidated", valid_to=valid_to, invalidated_at=w.now)
    await w.run("facts/release_current", id=fact.id)
    return [fact.id]


async def _revalidate(g: _Governance) -> list[str]:
    """Clear the validity end and successor links; the fact becomes its key's current fact,
    and the fact that was current there is superseded by it."""
    w, fact, effective_at = g.w, g.fact, g.effective_at
    if fact.status == "active":
        raise Conflict(f"fact {fact.id!r} is already active")
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
    now = w.now_iso
    await w.run("facts/clear_successor_links", id=fact.id, now=now)
    rows = await w.run("facts/make_current", id=fact.id, now=now)
    displaced_id = rows[0]["displaced_id"] if rows else None
    if displaced_id is None:
        return [fact.id]
    displaced = (await w.run("facts/get_facts", ids=[displaced_id]))[0]["fact"]
    await _update(w, fact_from_node(displaced), status="superseded", superseded_at=w.now)
    await w.run(
        "facts/link_supersedes",
        newer_id=fact.id,
        older_id=displaced_id,
        now=now,
        effective_at=effective_at.isoformat(),
        rationale=g.rationale,
    )
    return [fact.id, displaced_id]


_GOVERNORS = {
    "supersede": _supersede,
    "contradict": _contradict,
    "invalidate": _invalidate,
    "revalidate": _revalidate,
}


# --- verification --------------------------------------------------------------------------------
async def verify_fact(
    db: TenantStore, fact_id: str, attestation: Attestation, trusted: TrustedVerifiers
) -> VerifyFactResult:
    """Check the attestation against the fact as stored, under the tenant's write lock, and
    store it; a refusal rolls the transaction back, so nothing is written."""

    async def work(w: Write) -> VerifyFactResult:
        rows = await w.run("facts/get_facts", ids=[fact_id])
        fact = fact_from_node(first_row(rows, "fact", fact_id)["fact"])
        check_attestation(fact.model_dump(mode="json"), attestation, trusted)
        record = attestation.model_dump(
            mode="json", exclude={"signature", "schema_version", "fact_id"}
        )
        updated = await w.run(
            "facts/mark_fact_verified", id=fact_id, verification_json=json.dumps(record)
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
