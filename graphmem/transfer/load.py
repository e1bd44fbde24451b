"""graphmem import: an export file into an empty tenant, with its history re-chained.

Two passes over the file. The first checks all of it and writes nothing: the header, every
line's shape and values, events in revision order each linked to the one before, the
trailer's counts and digest (a file cut short, changed or foreign is refused with its line
number). The second loads it in batches: nodes (marked ImportPending with the file's
reference), events re-hashed under the target tenant and its history key, relationships
linked by reference, the head set to the re-chained last event with the source's anchor
kept, then the marks removed. Ids are kept as they are (they are unique per tenant), so the
copy answers every read as the source did. Any failure after the first write purges the
tenant, which was empty: nothing is left half-written.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TypeVar, cast

from pydantic import ValidationError

from graphmem.console.terminal import Bar
from graphmem.core.errors import Conflict, GraphmemError
from graphmem.core.text import tenant_prefix
from graphmem.history.chain import GENESIS_HASH, SCHEME, erasure_seal, event_hash
from graphmem.store import Params, Store, shaped
from graphmem.transfer.format import (
    BODY,
    FORMAT,
    FORMAT_VERSION,
    MAX_LINE,
    Chained,
    Header,
    NodeLine,
    RelationshipLine,
    Trailer,
    split_properties,
)
from graphmem.transfer.rows import CreatedRow, FoundRow, TransferHeadRow

BATCH = 1000
Document = dict[str, object]  # one line's JSON object


class BadExportFile(GraphmemError):
    code = "invalid_file"

    def __init__(self, number: int, problem: str) -> None:
        super().__init__(f"line {number}: {problem}; nothing was imported")


@dataclass(frozen=True)
class Checked:
    header: Header
    trailer: Trailer


@dataclass(frozen=True)
class Imported:
    nodes: int
    events: int
    relationships: int
    revision: int | None
    head_hash: str | None


# --- pass 1: check ---------------------------------------------------------------------------
def check_file(path: Path, bar: Bar | None = None) -> Checked:
    """The whole file checked (``bar`` advances by the bytes read); nothing is written."""
    with path.open("rb") as source:
        lines = _numbered(source)
        header = _header(lines)
        digest = hashlib.sha256(header.raw)
        counts = {"node": 0, "event": 0, "relationship": 0}
        previous: tuple[int, str] = (0, GENESIS_HASH)
        number = 1
        for number, raw, document in lines:
            if bar is not None:
                bar.advance(len(raw))
            if document.get("line") == "trailer":
                trailer = _parsed(Trailer, number, document)
                _expect_end(lines, number)
                _expect_totals(number, trailer, counts, digest.hexdigest())
                return Checked(header.document, trailer)
            line = _body(number, document)
            digest.update(raw)
            counts[line.line] += 1
            if isinstance(line, NodeLine) and line.line == "event":
                previous = _linked(number, line, previous)
    raise BadExportFile(number, "the file ends without its trailer (cut short?)")


@dataclass(frozen=True)
class _HeaderLine:
    raw: bytes  # as read: the trailer's digest covers it
    document: Header


def _numbered(source: IO[bytes]) -> Iterator[tuple[int, bytes, Document]]:
    for number, raw in enumerate(iter(lambda: source.readline(MAX_LINE + 1), b""), start=1):
        if len(raw) > MAX_LINE:
            raise BadExportFile(number, f"longer than {MAX_LINE} bytes")
        try:
            document = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BadExportFile(number, "not a JSON object") from None
        if not isinstance(document, dict):
            raise BadExportFile(number, "not a JSON object")
        yield number, raw, document


def _header(lines: Iterator[tuple[int, bytes, Document]]) -> _HeaderLine:
    first = next(lines, None)
    if first is None:
        raise BadExportFile(1, "the file is empty")
    number, raw, document = first
    if document.get("format") != FORMAT or document.get("line") != "header":
        raise BadExportFile(number, "not a graphmem export (no graphmem-export header)")
    version = document.get("format_version")
    if isinstance(version, int) and version > FORMAT_VERSION:
        raise BadExportFile(number, f"format version {version} is newer than this graphmem reads")
    return _HeaderLine(raw, _parsed(Header, number, document))


M = TypeVar("M", Header, Trailer)


def _parsed(model: type[M], number: int, document: Document) -> M:
    try:
        return model.model_validate(document)
    except ValidationError as error:
        raise BadExportFile(number, _first_problem(error)) from None


def _body(number: int, document: Document) -> NodeLine | RelationshipLine:
    try:
        line = BODY.validate_python(document)
        split_properties(line.properties)
    except ValidationError as error:
        raise BadExportFile(number, _first_problem(error)) from None
    except (ValueError, TypeError) as error:
        raise BadExportFile(number, f"a property value is malformed ({error})") from None
    return line


def _first_problem(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "the line"
    return f"{where}: {first['msg']}"


def _linked(number: int, line: NodeLine, previous: tuple[int, str]) -> tuple[int, str]:
    revision, prev_hash = line.properties.get("revision"), line.properties.get("prev_hash")
    if not isinstance(revision, int) or revision != previous[0] + 1:
        raise BadExportFile(number, f"event revision {revision} where {previous[0] + 1} belongs")
    if prev_hash != previous[1]:
        raise BadExportFile(number, f"event {revision} does not follow the one before it")
    try:
        return revision, Chained.of(line.properties).hash
    except ValueError as error:
        raise BadExportFile(number, str(error)) from None


def _expect_end(lines: Iterator[tuple[int, bytes, Document]], number: int) -> None:
    if next(lines, None) is not None:
        raise BadExportFile(number + 1, "lines after the trailer")


def _expect_totals(number: int, trailer: Trailer, counts: dict[str, int], digest: str) -> None:
    found = (counts["node"], counts["event"], counts["relationship"])
    if found != (trailer.nodes, trailer.events, trailer.relationships):
        raise BadExportFile(number, f"the trailer counts {trailer} but the file holds {found}")
    if digest != trailer.sha256:
        raise BadExportFile(number, "the file's digest does not match its trailer (changed)")


# --- pass 2: load ----------------------------------------------------------------------------
async def import_file(
    store: Store, tenant: str, path: Path, checked: Checked, bar: Bar, *, merge: bool = False
) -> Imported:
    """Load a checked file into ``tenant``: an empty one, or with ``merge`` one holding data
    (the file's history is then appended after the tenant's own)."""
    [found] = shaped(FoundRow, await store.read("transfer/find_any_tenant_node", tenant))
    [head] = shaped(TransferHeadRow, await store.read("transfer/get_transfer_head", tenant))
    if found["found"] and not merge:
        raise Conflict(
            f"tenant {tenant!r} already holds data: import into an empty tenant "
            "(or merge with --merge)"
        )
    base = (head["revision"] or 0, head["hash"] or GENESIS_HASH) if found["found"] else None
    loader = _Loader(store, tenant, checked.header.source_tenant_digest, bar, base)
    try:
        with path.open("rb") as source:
            for _, _, document in _numbered(source):
                if document.get("line") not in ("header", "trailer"):
                    await loader.add(BODY.validate_python(document))
        await loader.finish(checked)
    except BaseException:
        await store.bulk_write("transfer/delete_pending_import", tenant)  # only what it wrote
        raise
    return loader.imported(checked)


# A merge keeps the target's own chain head, audit cursors and subjects ledger; the file's are
# not loaded.
HEAD_LABELS = frozenset({"History", "AuditState", "SubjectLedger"})
# What records a revision besides events: shifted by the target's head in a merge.
REVISIONED = frozenset({"Event", "EventSubject", "IdempotencyRecord"})


class _Loader:
    def __init__(
        self, store: Store, tenant: str, source_digest: str, bar: Bar, base: tuple[int, str] | None
    ) -> None:
        self.store, self.tenant, self.bar = store, tenant, bar
        self.merging = base is not None
        self.offset = base[0] if base else 0  # the file's revision r becomes offset + r
        self.skipped: set[str] = set()  # refs of the file's head nodes, in a merge
        self.source_prefix = "t" + source_digest[:12] + "_"
        self.target_prefix = tenant_prefix(tenant)
        self.tokens = re.compile(r"(?<!\S)" + re.escape(self.source_prefix))
        self.key = store.chain_key
        self.nodes: list[Params] = []
        self.relationships: list[Params] = []
        self.created = {"nodes": 0, "relationships": 0}
        self.last: tuple[int | None, str] = base or (None, GENESIS_HASH)
        self.last_at: str | None = None

    async def add(self, line: NodeLine | RelationshipLine) -> None:
        properties, temporal = split_properties(line.properties)
        if isinstance(line, RelationshipLine):
            await self._flush_nodes()  # relationships follow every node in the file
            if {line.from_ref, line.to_ref} & self.skipped:
                return
            row = {"from_ref": line.from_ref, "to_ref": line.to_ref, "type": line.type}
            self.relationships.append({**row, "properties": properties, "temporal": temporal})
            if len(self.relationships) >= BATCH:
                await self._flush_relationships()
            return
        if self.merging and HEAD_LABELS & set(line.labels):
            self.skipped.add(line.ref)
            return
        if REVISIONED & set(line.labels):
            self._shift(properties, "revision")
        if "Erased" in line.labels:
            self._shift(properties, "erased_by")  # the erasure's event, moved as events are
        if "Turn" in line.labels:
            self._shift(properties, "archived_revision")  # the event that stored it, likewise
        if line.line == "event":
            properties = self._rechained(properties)
        # the target tenant before the node exists: Neo4j checks a uniqueness constraint at
        # each SET, and the source's own node holds the same (tenant, id) in this database
        properties = {name: self._retokened(value) for name, value in properties.items()}
        properties["tenant"] = self.tenant
        row = {"ref": line.ref, "labels": line.labels, "properties": properties}
        self.nodes.append({**row, "temporal": temporal})
        if len(self.nodes) >= BATCH:
            await self._flush_nodes()

    def _shift(self, properties: Params, name: str) -> None:
        """A revision the node records (when it records one), moved as the events are."""
        revision = properties.get(name)
        if isinstance(revision, int):
            properties[name] = revision + self.offset

    def _retokened(self, value: object) -> object:
        """Full-text tokens carry the tenant's prefix (retrieval/lexical.py): the source's become
        the target's, so the copy's search finds what the source's did."""
        if isinstance(value, str) and self.source_prefix in value:
            return self.tokens.sub(self.target_prefix, value)
        if isinstance(value, list):
            return [self._retokened(item) for item in cast("list[object]", value)]
        return value

    def _rechained(self, event: Params) -> Params:
        """The event chained into the target: its hash over its sealed digest (or, written
        before sealing, its payload) and the target's previous hash, under the target's key.
        An erased event written before sealing has only its source hash left to commit to
        what was erased: that becomes its digest. An erased event's seal is made again."""
        fields = Chained.of(event)  # the check read every event's
        revision, prev = fields.revision, self.last[1]
        at = self.last_at = fields.at_text
        sealed = fields.payload_digest
        if sealed is not None:
            body = sealed
        elif fields.payload_json is not None:
            body = fields.payload_json
        else:
            sealed = body = fields.hash
        digest = event_hash(
            self.tenant, revision, fields.op, at, body, prev, self.key, sealed=sealed is not None
        )
        self.last = (revision, digest)
        key_id = self.key.key_id if self.key else None
        scheme = SCHEME if self.key else None
        chained = {**event, "prev_hash": prev, "hash": digest, "hash_scheme": scheme}
        chained["key_id"] = key_id
        if sealed is not None:
            chained["payload_digest"] = sealed
        if isinstance(erased_by := event.get("erased_by"), int):
            erased_by += self.offset
            seal = erasure_seal(self.tenant, chained, erased_by, self.key)
            chained |= {"erased_by": erased_by, "erasure_seal": seal, "seal_key_id": key_id}
        return chained

    async def _flush_nodes(self) -> None:
        if self.nodes:
            try:
                rows = await self.store.bulk_write(
                    "transfer/create_imported_nodes", self.tenant, nodes=self.nodes
                )
            except Conflict:  # a uniqueness constraint: only a merge can meet one
                raise Conflict(
                    "the file holds ids or keys the tenant already has: nothing was imported"
                ) from None
            self._count("nodes", shaped(CreatedRow, rows)[0]["created"], len(self.nodes))
            self.nodes = []

    async def _flush_relationships(self) -> None:
        if self.relationships:
            batch = self.relationships
            rows = await self.store.bulk_write(
                "transfer/create_imported_relationships", self.tenant, relationships=batch
            )
            self._count("relationships", shaped(CreatedRow, rows)[0]["created"], len(batch))
            self.relationships = []

    def _count(self, kind: str, created: int, expected: int) -> None:
        if created != expected:  # a relationship whose ends the file does not hold
            raise Conflict(
                f"the file's {kind} do not link up ({created} of {expected}); nothing was imported"
            )
        self.created[kind] += created
        self.bar.advance(created)

    async def finish(self, checked: Checked) -> None:
        await self._flush_nodes()
        await self._flush_relationships()
        revision, digest = self.last
        if revision is not None and self.last_at is not None:
            source = checked.header.head
            await self.store.bulk_write(
                "transfer/set_merged_head" if self.merging else "transfer/set_imported_head",
                self.tenant,
                revision=revision,
                hash=digest,
                last_at=self.last_at,
                key_id=self.key.key_id if self.key else None,
                source_revision=source.revision,
                source_hash=source.hash,
                now=datetime.now(UTC).isoformat(),
            )
        # the key walk reopened first: a failure here still leaves the import pending (undone)
        await self.store.bulk_write("transfer/reopen_key_walk", self.tenant)
        await self.store.bulk_write("transfer/finish_import", self.tenant)

    def imported(self, checked: Checked) -> Imported:
        revision, digest = self.last
        return Imported(
            nodes=self.created["nodes"] - checked.trailer.events,
            events=checked.trailer.events,
            relationships=self.created["relationships"],
            revision=revision,
            head_hash=digest if revision is not None else None,
        )
