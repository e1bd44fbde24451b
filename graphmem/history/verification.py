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
import logging
from dataclasses import dataclass

from graphmem.core.errors import GraphmemError
from graphmem.core.keys import SCHEME, ChainKey
from graphmem.core.models import canonical_json
from graphmem.history.chain import (
    ERASE_OP,
    GENESIS_HASH,
    erasure_seal,
    event_hash,
    list_events,
    payload_digest,
)
from graphmem.history.models import ChainStatus, ChainVerdict, ReplayRequest, ReplayResult
from graphmem.history.rows import ChainEvent, ChainPage, HeadRow
from graphmem.history.write_path import bookkeeping
from graphmem.store import TenantStore, shaped

log = logging.getLogger("graphmem")

MAX_CHAIN_CHECK = 1_000_000  # events verified per call; beyond it the verdict says so
REPLAY_CHECK = 20_000  # events replay_memory verifies per call (about a second and a half)
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


async def replay(db: TenantStore, request: ReplayRequest) -> ReplayResult:
    """Events newest first, plus a verdict on the tenant's chain (from its checkpoint)."""
    events, chain = await asyncio.gather(
        list_events(db, request), verify_chain(db, limit=REPLAY_CHECK)
    )  # two independent reads
    return ReplayResult(count=len(events), events=events, chain=chain)


async def verify_chain(
    db: TenantStore,
    *,
    limit: int = MAX_CHAIN_CHECK,
    full: bool = False,
    anchor: Anchor | None = None,
) -> ChainVerdict:
    """The verdict on the chain up to the head. ``full`` checks from the first event (held to
    the checkpoint where one holds); an ``anchor`` implies ``full``. A check that found the
    chain whole moves the checkpoint to the head when it was full or read at least
    CHECKPOINT_EVERY events (bookkeeping on the head, no event), so an ordinary check costs
    the events since, about a thousand at most. An ordinary check that ``limit`` stopped
    short moves it as far as it verified, so the next one goes on from there."""
    verdict, _ = await verify_and_checkpoint(db, limit=limit, full=full, anchor=anchor)
    return verdict


async def verify_and_checkpoint(
    db: TenantStore,
    *,
    limit: int = MAX_CHAIN_CHECK,
    full: bool = False,
    anchor: Anchor | None = None,
) -> tuple[ChainVerdict, str]:
    """``verify_chain``, with the last hash it verified (the head's, when complete)."""
    full = full or anchor is not None
    for _ in range(IN_FLIGHT_REREADS):
        verdict, last_hash = await _check_chain(db, limit, full, anchor)
        if verdict.reason != TOP_MISSING:
            break
        await asyncio.sleep(IN_FLIGHT_PAUSE_SECONDS)
    else:
        verdict, last_hash = await _check_chain(db, limit, full, anchor)
    worth_it = full or verdict.checked_events >= CHECKPOINT_EVERY
    verified_prefix = verdict.verified and (verdict.complete or not full)
    if worth_it and verified_prefix and db.store.chain_key is not None:
        try:
            await _save_checkpoint(db, db.store.chain_key, verdict, last_hash)
        except GraphmemError as error:  # the verdict stands; the next check reads more
            log.warning("history checkpoint not saved: %s", error.message)
    return verdict, last_hash


class _Broken(Exception):
    def __init__(self, status: ChainStatus, revision: int | None, reason: str) -> None:
        super().__init__(reason)
        self.status: ChainStatus = status
        self.revision, self.reason = revision, reason


@dataclass(frozen=True)
class _Checkpoint:
    """A head a check found whole, its MAC verified under this server's key."""

    revision: int
    hash: str
    keyed_from: int | None


class _Walk:
    """The chain read forward from a verified point, held to the checkpoint when one holds:
    from the checkpoint's ``keyed_from`` every event must be keyed, and the event at its
    revision must still have its hash."""

    def __init__(
        self, tenant: str, key: ChainKey | None, start: _Checkpoint | None, pin: _Checkpoint | None
    ) -> None:
        self.tenant, self.key, self.pin = tenant, key, pin
        self.erased = 0
        # erased_by -> (the first event it erased, whether its seals are keyed): the revision
        # must be an erasure's event, keyed alike, or the marks were not made by an erasure
        self.erasures: dict[int, tuple[int, bool]] = {}
        self.start = self.after = start.revision if start else 0
        self.prev: str = start.hash if start else GENESIS_HASH
        self.keyed_from = start.keyed_from if start else None
        self.must_key_from = pin.keyed_from if pin else self.keyed_from
        self.foreign_from: int | None = None  # the first event keyed with another key
        self.checked = 0
        self.hashes: dict[int, str] = {0: GENESIS_HASH}  # the anchor's revision, when passed

    def step(self, event: ChainEvent, watch: int | None) -> None:
        revision = self.after + 1
        if event["revision"] != revision:
            raise _Broken("tampered", revision, f"revision {revision} is missing")
        if event["prev_hash"] != self.prev:
            raise _Broken("tampered", revision, "does not link to the event before it")
        checkable, key = self._key_of(event, revision)
        body, sealed = self._body(event, revision)
        if checkable and body is not None:
            fields = (event["op"], event["at_text"], body, self.prev)
            digest = event_hash(self.tenant, revision, *fields, key, sealed=sealed)
            if not hmac.compare_digest(str(event["hash"]), digest):
                raise _Broken("tampered", revision, "its content does not match its hash")
        self._settle_erasure(event, revision)
        if self.pin and revision == self.pin.revision and event["hash"] != self.pin.hash:
            raise _Broken("tampered", revision, "it differs from the verified checkpoint")
        self.after, self.prev, self.checked = revision, event["hash"], self.checked + 1
        if revision == watch:
            self.hashes[revision] = event["hash"]

    def _body(self, event: ChainEvent, revision: int) -> tuple[str | None, bool]:
        """What the event's hash covers (its payload's digest when sealed, else the payload),
        and whether it is sealed; None for an erased event written before sealing (its seal
        vouches for it). An erased payload must carry its erasure's seal; a present one must
        match its digest."""
        digest, payload = event.get("payload_digest"), event.get("payload_json")
        if event.get("erased_by") is not None:
            self._check_seal(event, revision)
            self.erased += 1
            return digest, digest is not None
        if payload is None:
            raise _Broken("tampered", revision, "its payload was removed without an erasure")
        if digest is None:
            return payload, False
        salt = event.get("payload_salt")
        if not isinstance(salt, str) or payload_digest(salt, payload) != digest:
            raise _Broken("tampered", revision, "its payload does not match its digest")
        return digest, True

    def _check_seal(self, event: ChainEvent, revision: int) -> None:
        erased_by, seal = event.get("erased_by"), event.get("erasure_seal")
        if not isinstance(erased_by, int) or erased_by <= revision or not isinstance(seal, str):
            raise _Broken("tampered", revision, "its erasure mark does not hold")
        if event.get("payload_json") is not None or event.get("payload_salt") is not None:
            raise _Broken("tampered", revision, "an erased event holds a payload")
        key_id = event.get("seal_key_id")
        if key_id is None and event.get("hash_scheme") is not None:
            raise _Broken("tampered", revision, "its erasure is not sealed with the chain's key")
        if key_id is not None and (self.key is None or self.key.key_id != key_id):
            raise _Broken(
                "key_missing", revision, "its erasure is sealed with a key this server lacks"
            )
        expected = erasure_seal(self.tenant, event, erased_by, self.key if key_id else None)
        if not hmac.compare_digest(seal, expected):
            raise _Broken("tampered", revision, "its erasure seal does not hold")
        first, keyed = self.erasures.setdefault(erased_by, (revision, key_id is not None))
        if keyed != (key_id is not None):  # one erasure seals alike: the first was forged
            raise _Broken("tampered", first, "its erasure mark names no erasure of this chain")

    def _settle_erasure(self, event: ChainEvent, revision: int) -> None:
        """The events an erasure at ``revision`` marked: this event must be that erasure's,
        keyed as its seals are (a plain seal on a keyed chain is anyone's forgery)."""
        marked = self.erasures.pop(revision, None)
        if marked is None:
            return
        first, keyed = marked
        if event["op"] != ERASE_OP or (event.get("hash_scheme") is not None) != keyed:
            raise _Broken("tampered", first, "its erasure mark names no erasure of this chain")

    def settle(self) -> None:
        """At the head: every erasure mark must have met its erasure on the way."""
        passed = [first for by, (first, _) in self.erasures.items() if by <= self.after]
        if passed:
            raise _Broken(
                "tampered", min(passed), "its erasure mark names no erasure of this chain"
            )

    def _key_of(self, event: ChainEvent, revision: int) -> tuple[bool, ChainKey | None]:
        """Whether this server can check the event's hash, and with which key."""
        scheme = event.get("hash_scheme")
        if scheme is None:
            keyed = self.keyed_from or self.foreign_from
            if keyed is None and self.must_key_from is not None and revision >= self.must_key_from:
                keyed = self.must_key_from
            if keyed is not None:
                raise _Broken(
                    "tampered", revision, f"not keyed, though the chain is keyed from {keyed}"
                )
            return True, None
        if scheme != SCHEME:
            raise _Broken("tampered", revision, "an unknown hash scheme")
        if self.key is None:
            raise _Broken(
                "key_missing",
                revision,
                f"events from revision {revision} are keyed and this server has no history key",
            )
        if event.get("key_id") != self.key.key_id:
            if self.keyed_from is not None:  # graphmem never writes a tenant with two keys
                raise _Broken("tampered", revision, "its key differs from the events before it")
            self.foreign_from = self.foreign_from or revision
            return False, None
        if self.foreign_from is not None:
            raise _Broken(
                "tampered", self.foreign_from, "another key's events among this key's events"
            )
        self.keyed_from = self.keyed_from or revision
        return True, self.key


async def _check_chain(
    db: TenantStore, limit: int, full: bool, anchor: Anchor | None
) -> tuple[ChainVerdict, str]:
    """The verdict, and the last hash the walk verified (the head's, when complete)."""
    [head] = shaped(HeadRow, await db.read("history/get_head"))
    head_revision = head["revision"]
    walk = _Walk(db.tenant, db.store.chain_key, None, None)

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
            erased_payloads=walk.erased,
            first_break_revision=revision,
            reason=reason,
        ), walk.prev

    try:
        checkpoint = _checkpoint(db.tenant, db.store.chain_key, head)
        start = None if full else checkpoint
        walk = _Walk(db.tenant, db.store.chain_key, start, checkpoint)
        while walk.after < head_revision and walk.checked < limit:
            events = await _page(db, walk.after, head_revision, limit - walk.checked)
            if not events:
                raise _Broken("tampered", walk.after + 1, TOP_MISSING)
            for event in events:
                walk.step(event, anchor.revision if anchor else None)
        if walk.after == head_revision:
            walk.settle()
    except _Broken as broken:
        return verdict(broken.status, broken.revision, broken.reason)
    if walk.after < head_revision:
        return verdict(reason=_bounded(walk, head_revision))
    if head_revision and head["last_hash"] != walk.prev:
        return verdict("tampered", head_revision, "the head does not match the last event")
    if walk.foreign_from is not None:
        return verdict(
            "key_mismatch",
            walk.foreign_from,
            f"events from revision {walk.foreign_from} were keyed with another history key "
            "than this server's: they cannot be checked here (restore the key file)",
        )
    if anchor is not None and walk.hashes.get(anchor.revision) != anchor.hash:
        return verdict(
            "anchor_mismatch",
            anchor.revision,
            f"revision {anchor.revision} differs from the anchor"
            if anchor.revision <= head_revision
            else f"the anchor's revision {anchor.revision} is beyond the head",
        )
    return verdict()


def _bounded(walk: _Walk, head_revision: int) -> str:
    return (
        f"only the first {walk.checked} of {head_revision - walk.start} events"
        + (f" after revision {walk.start}" if walk.start else "")
        + " were checked (this call's bound); no break among them"
    )


def _checkpoint(tenant: str, key: ChainKey | None, head: HeadRow) -> _Checkpoint | None:
    """The tenant's checkpoint when this server can check it (its key wrote it), else None;
    a checkpoint whose MAC does not hold, or that the head is behind, is tampering."""
    point = head["checkpoint_revision"]
    if point is None or key is None or head["checkpoint_key_id"] != key.key_id:
        return None
    digest, keyed_from, mac = head["checkpoint_hash"], head["keyed_from"], head["checkpoint_mac"]
    broken = _Broken("tampered", None, "the checkpoint's MAC does not hold")
    if not (isinstance(point, int) and isinstance(digest, str) and isinstance(mac, str)):
        raise broken
    if not (keyed_from is None or isinstance(keyed_from, int)):
        raise broken
    if not hmac.compare_digest(_checkpoint_mac(key, tenant, point, digest, keyed_from), mac):
        raise broken
    if point > head["revision"]:
        raise _Broken(
            "tampered",
            head["revision"] + 1,
            f"the head is behind the verified checkpoint at revision {point}: events were removed",
        )
    return _Checkpoint(point, digest, keyed_from)


async def _page(db: TenantStore, after: int, head: int, budget: int) -> list[ChainEvent]:
    rows = await db.read("history/list_chain", after=after, head=head, limit=min(PAGE, budget))
    [page] = shaped(ChainPage, rows)
    return page["events"]


def _checkpoint_mac(
    key: ChainKey, tenant: str, revision: int, digest: str, keyed_from: int | None
) -> str:
    material = {"checkpoint": revision, "tenant": tenant, "hash": digest, "keyed_from": keyed_from}
    return key.mac(canonical_json(material).encode())


async def _save_checkpoint(
    db: TenantStore, key: ChainKey, verdict: ChainVerdict, digest: str
) -> None:
    """Bookkeeping, not history: the next ordinary check starts here (the last revision the
    check verified: the head, unless a limit stopped it)."""
    reached = verdict.checked_from_revision + verdict.checked_events
    if reached == 0:
        return
    keyed_from = verdict.keyed_from_revision
    await bookkeeping(
        db,
        "history/save_checkpoint",
        revision=reached,
        hash=digest,
        keyed_from=keyed_from,
        mac=_checkpoint_mac(key, db.tenant, reached, digest, keyed_from),
        key_id=key.key_id,
    )
