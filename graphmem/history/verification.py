"""Verifying a tenant's hash chain: from its checkpoint, against an anchor, or in full.

Every event's hash covers its content and the hash before it; keyed events (HMAC under the
history key, see keys.py) cannot be recomputed by whoever writes the database, and once the
chain is keyed a plain event after that point is tampering. An ordinary check starts after the
tenant's checkpoint (a head a check found whole, MAC'd with the key) and reads only the
events since; ``full`` (the CLI) reads them all, in pages. Only a full check sees an event
before the checkpoint edited after it was set.

Neo4j reads committed data without a snapshot, so a write committing while the check runs can
show its new head before its event is visible. A chain whose only fault is events missing at
the top is therefore read again, briefly, before it is reported: a write in flight lands
within milliseconds, events really removed stay missing.
"""

from __future__ import annotations

import asyncio
import hmac
from dataclasses import dataclass
from typing import Any

from graphmem.core.models import canonical_json
from graphmem.history.chain import GENESIS_HASH, event_hash, list_events
from graphmem.history.keys import SCHEME, ChainKey
from graphmem.history.models import ChainStatus, ChainVerdict, ReplayRequest, ReplayResult
from graphmem.history.write_path import bookkeeping
from graphmem.store import Store

MAX_CHAIN_CHECK = 1_000_000  # events verified per call; beyond it the verdict says so
PAGE = 20_000  # events read per statement
CHECKPOINT_EVERY = 1_000  # an ordinary check that read this many moves the checkpoint
TOP_MISSING = "events up to the head are missing"
IN_FLIGHT_REREADS = 5
IN_FLIGHT_PAUSE_SECONDS = 0.05


@dataclass(frozen=True)
class Anchor:
    """A head kept outside the database (``graphmem history anchor``)."""

    revision: int
    hash: str


async def replay(store: Store, tenant: str, request: ReplayRequest) -> ReplayResult:
    """Events newest first, plus a verdict on the tenant's chain (from its checkpoint)."""
    events = await list_events(store, tenant, request)
    return ReplayResult(count=len(events), events=events, chain=await verify_chain(store, tenant))


async def verify_chain(
    store: Store,
    tenant: str,
    *,
    limit: int = MAX_CHAIN_CHECK,
    full: bool = False,
    anchor: Anchor | None = None,
) -> ChainVerdict:
    """The verdict on the chain up to the head. ``full`` checks from the first event; an
    ``anchor`` implies ``full``. A check that found the chain whole moves the checkpoint to the
    head when it was full or read at least CHECKPOINT_EVERY events (bookkeeping on the head,
    no event), so an ordinary check costs the events since, about a thousand at most."""
    full = full or anchor is not None
    for _ in range(IN_FLIGHT_REREADS):
        verdict, last_hash = await _check(store, tenant, limit, full, anchor)
        if verdict.reason != TOP_MISSING:
            break
        await asyncio.sleep(IN_FLIGHT_PAUSE_SECONDS)
    else:
        verdict, last_hash = await _check(store, tenant, limit, full, anchor)
    worth_it = full or verdict.checked_events >= CHECKPOINT_EVERY
    if worth_it and verdict.verified and verdict.complete and store.chain_key is not None:
        await _save_checkpoint(store, tenant, store.chain_key, verdict, last_hash)
    return verdict


class _Broken(Exception):
    def __init__(self, status: ChainStatus, revision: int, reason: str) -> None:
        super().__init__(reason)
        self.status: ChainStatus = status
        self.revision, self.reason = revision, reason


class _Walk:
    """The chain read forward from a verified point."""

    def __init__(
        self, tenant: str, key: ChainKey | None, after: int, prev: str, keyed_from: int | None
    ) -> None:
        self.tenant, self.key = tenant, key
        self.start = self.after = after
        self.prev, self.keyed_from = prev, keyed_from
        self.checked = 0
        self.hashes: dict[int, str] = {}  # of the anchor's revision, when it is passed

    def step(self, event: dict[str, Any], watch: int | None) -> None:
        revision = self.after + 1
        if event["revision"] != revision:
            raise _Broken("tampered", revision, f"revision {revision} is missing")
        if event["prev_hash"] != self.prev:
            raise _Broken("tampered", revision, "does not link to the event before it")
        key = self._key_of(event, revision)
        fields = (event["op"], event["at_text"], event["payload_json"], self.prev)
        if event["hash"] != event_hash(self.tenant, revision, *fields, key):
            raise _Broken("tampered", revision, "its content does not match its hash")
        self.after, self.prev, self.checked = revision, event["hash"], self.checked + 1
        if revision == watch:
            self.hashes[revision] = event["hash"]

    def _key_of(self, event: dict[str, Any], revision: int) -> ChainKey | None:
        scheme = event.get("hash_scheme")
        if scheme is None:
            if self.keyed_from is not None:
                raise _Broken(
                    "tampered",
                    revision,
                    f"not keyed, though the chain is keyed from revision {self.keyed_from}",
                )
            return None
        if scheme != SCHEME:
            raise _Broken("tampered", revision, "an unknown hash scheme")
        if self.key is None:
            raise _Broken(
                "key_missing",
                revision,
                f"events from revision {revision} are keyed and this server has no history key",
            )
        if event.get("key_id") != self.key.key_id:
            if self.keyed_from is None:
                raise _Broken(
                    "key_mismatch",
                    revision,
                    f"events from revision {revision} were written with another history key "
                    f"(id {event.get('key_id')}; this server's is {self.key.key_id})",
                )
            raise _Broken("tampered", revision, "its key differs from the events before it")
        if self.keyed_from is None:
            self.keyed_from = revision
        return self.key


async def _check(
    store: Store, tenant: str, limit: int, full: bool, anchor: Anchor | None
) -> tuple[ChainVerdict, str]:
    """The verdict, and the last hash the walk verified."""
    [head] = await store.read("history/get_head", tenant)
    walk = _start(tenant, store.chain_key, head, full)
    head_revision = head["revision"]
    watch = anchor.revision if anchor else None

    def verdict(
        status: ChainStatus = "verified", revision: int | None = None, reason: str | None = None
    ) -> tuple[ChainVerdict, str]:
        return ChainVerdict(
            verified=status == "verified",
            status=status,
            complete=walk.after == head_revision,
            checked_events=walk.checked,
            checked_from_revision=walk.start,
            head_revision=head_revision,
            keyed_from_revision=walk.keyed_from,
            first_break_revision=revision,
            reason=reason,
        ), walk.prev

    try:
        while walk.after < head_revision and walk.checked < limit:
            events = await _page(store, tenant, walk.after, head_revision, limit - walk.checked)
            if not events:
                raise _Broken("tampered", walk.after + 1, TOP_MISSING)
            for event in events:
                walk.step(event, watch)
    except _Broken as broken:
        return verdict(broken.status, broken.revision, broken.reason)
    if walk.after < head_revision:
        return verdict(
            reason=f"only the first {walk.checked} of {head_revision - walk.start} events"
            + (f" after revision {walk.start}" if walk.start else "")
            + " were checked (this call's bound); no break among them"
        )
    if head_revision and head["last_hash"] != walk.prev:
        return verdict("tampered", head_revision, "the head does not match the last event")
    if anchor is not None and walk.hashes.get(anchor.revision) != anchor.hash:
        return verdict(
            "anchor_mismatch",
            anchor.revision,
            f"revision {anchor.revision} differs from the anchor"
            if anchor.revision <= head_revision
            else f"the anchor's revision {anchor.revision} is beyond the head",
        )
    return verdict()


def _start(tenant: str, key: ChainKey | None, head: dict[str, Any], full: bool) -> _Walk:
    """From the checkpoint when it holds (its MAC checks under this key, within the head),
    else from the genesis."""
    point: int | None = head["checkpoint_revision"]
    if not full and key is not None and point is not None and point <= head["revision"]:
        mac = _checkpoint_mac(key, tenant, point, head["checkpoint_hash"], head["keyed_from"])
        if hmac.compare_digest(mac, head["checkpoint_mac"] or ""):
            return _Walk(tenant, key, point, head["checkpoint_hash"], head["keyed_from"])
    return _Walk(tenant, key, 0, GENESIS_HASH, None)


async def _page(
    store: Store, tenant: str, after: int, head: int, budget: int
) -> list[dict[str, Any]]:
    [row] = await store.read(
        "history/list_chain", tenant, after=after, head=head, limit=min(PAGE, budget)
    )
    return row["events"]


def _checkpoint_mac(
    key: ChainKey, tenant: str, revision: int, digest: str, keyed_from: int | None
) -> str:
    material = {"checkpoint": revision, "tenant": tenant, "hash": digest, "keyed_from": keyed_from}
    return key.mac(canonical_json(material).encode())


async def _save_checkpoint(
    store: Store, tenant: str, key: ChainKey, verdict: ChainVerdict, digest: str
) -> None:
    """Bookkeeping, not history: the next ordinary check starts here."""
    if verdict.head_revision == 0:
        return
    keyed_from = verdict.keyed_from_revision
    await bookkeeping(
        store,
        tenant,
        "history/save_checkpoint",
        revision=verdict.head_revision,
        hash=digest,
        keyed_from=keyed_from,
        mac=_checkpoint_mac(key, tenant, verdict.head_revision, digest, keyed_from),
    )
