"""graphmem export: a tenant, whole, as JSON Lines (transfer/format.py).

Consistency: the head is read before and after; the export is taken again (into a fresh
temporary file) while the head moved meanwhile, up to ATTEMPTS times. A head that does not
move means no write committed in between (every write of the tenant appends an event), so
the file is the tenant at that revision. Events are bounded by the head read first.
Memory: rows stream from the database and lines go straight to the file; each node comes with
its outgoing relationships, whose lines wait in a side file until every node is written.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from graphmem import __version__
from graphmem.console.terminal import Bar
from graphmem.core.errors import Conflict
from graphmem.store import Store, shaped
from graphmem.store.rows import LabelCountRow, Row, Shape
from graphmem.transfer.format import Head, Header, Trailer, properties_of
from graphmem.transfer.rows import ExportedEventRow, ExportedNodeRow, Link, TransferHeadRow

ATTEMPTS = 3


def _encoded(document: dict[str, object]) -> bytes:
    return (json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _as(shape: type[Shape], row: Row) -> Shape:
    """A streamed row as its statement's shape (``shaped``, one row at a time)."""
    return shaped(shape, [row])[0]


def _relationship_line(from_ref: str, link: Link) -> bytes:
    match link:
        case [str() as to_ref, str() as type_, list() as pairs]:
            relationship = {"line": "relationship", "from_ref": from_ref, "to_ref": to_ref}
            return _encoded({**relationship, "type": type_, "properties": properties_of(pairs)})
        case _:
            raise ValueError(f"not a relationship: {link!r}")


class _Writer:
    """Lines to a file, counted and digested as written; relationship lines wait in a side
    file (``later``) until ``flush_later``, after every node."""

    def __init__(self, out: IO[bytes], later: IO[bytes], bar: Bar) -> None:
        self.out, self.later, self.bar = out, later, bar
        self.digest = hashlib.sha256()
        self.counts = {"node": 0, "event": 0, "relationship": 0}

    def line(self, document: dict[str, object]) -> None:
        self._write(_encoded(document))
        kind = document["line"]
        if isinstance(kind, str) and kind in self.counts:
            self.counts[kind] += 1
            self.bar.advance()

    def node(self, kind: str, row: ExportedEventRow, links: Sequence[Link] = ()) -> None:
        """A node line and, for later, its relationships' lines."""
        properties = properties_of(row["properties"])
        self.line(
            {"line": kind, "ref": row["ref"], "labels": row["labels"], "properties": properties}
        )
        for link in links:
            self.later.write(_relationship_line(row["ref"], link))

    def flush_later(self, keep: set[str] | None = None) -> None:
        """The waiting relationship lines (only those ending in ``keep``, if given)."""
        self.later.seek(0)
        for data in self.later:
            if keep is None or json.loads(data)["to_ref"] in keep:
                self._write(data)
                self.counts["relationship"] += 1

    def _write(self, data: bytes) -> None:
        self.out.write(data)
        self.digest.update(data)


async def export_tenant(
    store: Store, tenant: str, path: Path, bar: Bar, project: str | None = None
) -> Trailer:
    """Write ``tenant`` (or one ``project`` of it) to ``path``, replaced only when whole."""
    for _ in range(ATTEMPTS):
        head = await _head(store, tenant)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        temporary = Path(name)
        try:
            with os.fdopen(handle, "wb") as out, tempfile.TemporaryFile(dir=path.parent) as later:
                writer = _Writer(out, later, bar)
                trailer = await _write(store, tenant, head, project, writer)
            if await _head(store, tenant) == head:
                os.replace(temporary, path)
                return trailer
        finally:
            temporary.unlink(missing_ok=True)  # noqa: ASYNC240 (a local file, once)
    raise Conflict(f"the tenant kept changing during {ATTEMPTS} exports; export at a quieter time")


async def total_nodes(store: Store, tenant: str) -> int:
    """For the progress bar: how many nodes the tenant holds now."""
    rows = await store.read("store/count_tenant_labels", tenant)
    return sum(row["count"] for row in shaped(LabelCountRow, rows))


async def _head(store: Store, tenant: str) -> Head:
    [row] = shaped(TransferHeadRow, await store.read("transfer/get_transfer_head", tenant))
    return Head(revision=row["revision"], hash=row["hash"], key_id=row["key_id"])


async def _write(
    store: Store, tenant: str, head: Head, project: str | None, writer: _Writer
) -> Trailer:
    digest = hashlib.sha256(tenant.encode()).hexdigest()
    now = datetime.now(UTC)
    header = Header(
        graphmem_version=__version__,
        source_tenant_digest=digest,
        exported_at=now,
        head=head,
        project=project,
    )
    writer.line(header.model_dump(mode="json"))
    if project is None:
        await _tenant_lines(store, tenant, head.revision or 0, writer)
    else:
        await _project_lines(store, tenant, project, writer)
    counts = writer.counts
    trailer = Trailer(
        nodes=counts["node"],
        events=counts["event"],
        relationships=counts["relationship"],
        sha256=writer.digest.hexdigest(),
    )
    writer.line(trailer.model_dump(mode="json"))
    return trailer


async def _tenant_lines(store: Store, tenant: str, revision: int, writer: _Writer) -> None:
    """Every node, the events up to the head read first, every relationship."""
    async for row in store.stream("transfer/list_tenant_nodes", tenant):
        node = _as(ExportedNodeRow, row)
        writer.node("node", node, node["relationships"])
    async for row in store.stream("transfer/list_tenant_events", tenant, revision=revision):
        writer.node("event", _as(ExportedEventRow, row))
    writer.flush_later()


async def _project_lines(store: Store, tenant: str, project: str, writer: _Writer) -> None:
    """The project's slice (cypher/transfer/list_project_nodes) and the relationships inside
    it; no history. The slice's references are kept to drop relationships leaving it: memory
    grows with the project, one short string a node."""
    inside: set[str] = set()
    async for row in store.stream("transfer/list_project_nodes", tenant, project=project):
        node = _as(ExportedNodeRow, row)
        inside.add(node["ref"])
        writer.node("node", node, node["relationships"])
    writer.flush_later(keep=inside)
