"""graphmem export: a tenant, whole, as JSON Lines (transfer/format.py).

Consistency: the head is read before and after; the export is taken again (into a fresh
temporary file) while the head moved meanwhile, up to ATTEMPTS times. A head that does not
move means no write committed in between (every write of the tenant appends an event), so
the file is the tenant at that revision. Events are bounded by the head read first.
Memory: rows stream from the database and lines go straight to the file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from graphmem import __version__
from graphmem.app.terminal import Bar
from graphmem.core.errors import Conflict
from graphmem.store import Store
from graphmem.transfer.format import Head, Header, Trailer, properties_of

ATTEMPTS = 3


class _Writer:
    """Lines to a file, counted and digested as written."""

    def __init__(self, out: IO[bytes], bar: Bar) -> None:
        self.out, self.bar = out, bar
        self.digest = hashlib.sha256()
        self.counts = {"node": 0, "event": 0, "relationship": 0}

    def line(self, document: dict[str, Any]) -> None:
        data = (json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        self.out.write(data)
        self.digest.update(data)
        if document["line"] in self.counts:
            self.counts[document["line"]] += 1
            self.bar.advance()


async def export_tenant(store: Store, tenant: str, path: Path, bar: Bar) -> Trailer:
    """Write ``tenant`` to ``path`` (replaced only when the export is whole)."""
    for _ in range(ATTEMPTS):
        head = await _head(store, tenant)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        temporary = Path(name)
        try:
            with os.fdopen(handle, "wb") as out:
                trailer = await _write(store, tenant, head, _Writer(out, bar))
            if await _head(store, tenant) == head:
                os.replace(temporary, path)
                return trailer
        finally:
            temporary.unlink(missing_ok=True)  # noqa: ASYNC240 (a local file, once)
    raise Conflict(f"the tenant kept changing during {ATTEMPTS} exports; export at a quieter time")


async def total_nodes(store: Store, tenant: str) -> int:
    """For the progress bar: how many nodes the tenant holds now."""
    [row] = await store.read("transfer/count_tenant_nodes", tenant)
    return row["count"]


async def _head(store: Store, tenant: str) -> Head:
    [row] = await store.read("transfer/get_transfer_head", tenant)
    return Head(revision=row["revision"], hash=row["hash"], key_id=row["key_id"])


async def _write(store: Store, tenant: str, head: Head, writer: _Writer) -> Trailer:
    digest = hashlib.sha256(tenant.encode()).hexdigest()
    now = datetime.now(UTC)
    header = Header(
        graphmem_version=__version__, source_tenant_digest=digest, exported_at=now, head=head
    )
    writer.line(header.model_dump(mode="json"))
    labels = [row["label"] for row in await store.read("transfer/list_tenant_labels", tenant)]
    revision = head.revision or 0
    for label in labels:
        async for row in store.stream("transfer/list_tenant_nodes", tenant, label=label):
            writer.line({"line": "node", **row, "properties": properties_of(row["properties"])})
    async for row in store.stream("transfer/list_tenant_events", tenant, revision=revision):
        writer.line({"line": "event", **row, "properties": properties_of(row["properties"])})
    for label in labels:
        rows = store.stream(
            "transfer/list_tenant_relationships", tenant, label=label, revision=revision
        )
        async for row in rows:
            properties = properties_of(row["properties"])
            writer.line({"line": "relationship", **row, "properties": properties})
    counts = writer.counts
    trailer = Trailer(
        nodes=counts["node"],
        events=counts["event"],
        relationships=counts["relationship"],
        sha256=writer.digest.hexdigest(),
    )
    writer.line(trailer.model_dump(mode="json"))
    return trailer
