"""The one write path: nothing else takes the lock, appends events or opens a write
transaction; and what it owns (revisions, atomicity, idempotency) holds on a real Neo4j."""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path

import pytest

from graphmem.core.errors import Conflict
from graphmem.history.chain import Audit, Change
from graphmem.history.rows import EventRow, HeadRow
from graphmem.history.verification import verify_chain
from graphmem.history.write_path import Idempotency, IdempotencyRecord, Write, write
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.store import Store, TenantStore, shaped
from graphmem.store.catalog import default_catalog
from tests.neo4j_endpoint import Endpoint

ROOT = Path(__file__).resolve().parents[2]
WRITE_PATH = ROOT / "graphmem" / "history" / "write_path.py"
GROUP_COMMIT = ROOT / "graphmem" / "history" / "group_commit.py"  # its one transaction per batch
# Where the primitives are defined (and the store's own transaction helper).
DEFINITIONS = {
    ROOT / "graphmem" / "history" / "chain.py",
    ROOT / "graphmem" / "store" / "store.py",
    ROOT / "graphmem" / "store" / "tenant_store.py",  # the same primitives, bound to a tenant
}
PRIMITIVES = {"lock_head", "append_event", "write_transaction", "write_statement"}
RAW_HISTORY_QUERIES = re.compile(r"history/(lock_head|append_event|create_head)")
# Store.write: one auto-commit statement, no lock, no event (tests' fixtures only).
UNLOCKED_WRITE = re.compile(r"\bstore\.write\(")


def _python_files() -> list[Path]:
    """The product's modules (bench/facts.py times the bare lock statement on purpose)."""
    return [
        path
        for path in sorted((ROOT / "graphmem").rglob("*.py"))
        if path not in (WRITE_PATH, GROUP_COMMIT) and path not in DEFINITIONS
    ]


def _called_names(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            if isinstance(function, ast.Name):
                names.add(function.id)
            elif isinstance(function, ast.Attribute):
                names.add(function.attr)
    return names


def test_only_the_write_path_locks_appends_and_opens_write_transactions() -> None:
    offenders = []
    for path in _python_files():
        text = path.read_text()
        used = _called_names(ast.parse(text)) & PRIMITIVES
        if RAW_HISTORY_QUERIES.search(text):
            used.add("a history/ lock or append query")
        if UNLOCKED_WRITE.search(text):
            used.add("store.write")
        if used:
            offenders.append(f"{path.relative_to(ROOT)}: {sorted(used)}")
    assert not offenders, "outside the write path:\n" + "\n".join(offenders)


def test_only_import_loads_in_bulk() -> None:
    """store.bulk_write writes without the lock or events: only graphmem import, which loads a
    tenant that must be empty and re-chains its history itself, may use it."""
    users = [
        str(path.relative_to(ROOT)) for path in _python_files() if "bulk_write(" in path.read_text()
    ]
    assert users == ["graphmem/transfer/load.py"]


def test_no_domain_module_computes_a_revision() -> None:
    arithmetic = re.compile(r"revision\s*[+-]\s*1\b")
    offenders = [
        str(path.relative_to(ROOT))
        for path in _python_files()
        if arithmetic.search(path.read_text())
    ]
    assert not offenders


async def _revision(store: Store, tenant: str) -> int:
    [row] = shaped(HeadRow, await store.read("history/get_head", tenant))
    return row["revision"]


def _change(n: int) -> Change:
    return Change("test_write", "test", f"subject-{n}", [f"subject-{n}"], {"n": n})


async def test_events_of_one_write_chain_with_consecutive_revisions(
    store: Store, tenant: str
) -> None:
    async def work(w: Write) -> list[int]:
        assert w.next_revision == 1 and w.last_revision is None
        return [await w.event(_change(1)), await w.event(_change(2))]

    revisions = await write(store.of(tenant), "test", work, audit=Audit("s-1", "bot", "cli"))
    assert revisions == [1, 2]
    rows = await store.read(
        "history/list_events", tenant, aggregate_id=None, aggregate_kind=None, since=None, limit=10
    )
    events = shaped(EventRow, rows)
    assert [(e["event"]["revision"], e["event"].get("actor")) for e in events] == [
        (2, "bot"),
        (1, "bot"),
    ]


async def test_a_failed_write_leaves_no_event(store: Store, tenant: str) -> None:
    async def fails(w: Write) -> None:
        await w.event(_change(1))
        raise Conflict("refused after the event")

    with pytest.raises(Conflict):
        await write(store.of(tenant), "test", fails)
    assert await _revision(store, tenant) == 0


async def test_a_keyed_retry_replays_and_other_arguments_conflict(
    store: Store, tenant: str
) -> None:
    calls: list[int] = []

    async def work(w: Write) -> int:
        calls.append(1)
        return await w.event(_change(len(calls)))

    async def replay(w: Write, earlier: IdempotencyRecord) -> int:
        return -earlier.revision  # marks a replay

    def keyed(fingerprint: str) -> Idempotency[int]:
        return Idempotency(
            owner="scope",  # with the write label "test": scope test:scope
            key="retry-1",
            fingerprint=fingerprint,
            remember=lambda revision: IdempotencyRecord(f"entity-{revision}", revision),
            replay=replay,
        )

    assert await write(store.of(tenant), "test", work, idempotency=keyed("a")) == 1
    assert await write(store.of(tenant), "test", work, idempotency=keyed("a")) == -1
    with pytest.raises(Conflict):
        await write(store.of(tenant), "test", work, idempotency=keyed("b"))
    assert len(calls) == 1 and await _revision(store, tenant) == 1


def test_one_statement_writes_run_only_through_write_at_head() -> None:
    """A statement that moves the chain head is the path's own append, import's (which
    re-chains a loaded tenant), or a one-statement write (named ``*_at_head``) that only
    write_at_head runs: it claims the expected head."""
    catalog = default_catalog()
    movers = [name for name in catalog.names() if "h.revision = $revision" in catalog[name].text]
    owners = {"history/append_events", "transfer/set_imported_head", "transfer/set_merged_head"}
    assert all(n in owners or n.endswith("_at_head") for n in movers), movers
    for name in movers:
        if name.endswith("_at_head"):
            text = catalog[name].text
            assert "WHERE h.revision = $revision - 1 AND h.last_hash = $expected_hash" in text
            # the head's history key is this server's, as lock_head requires (else it refuses)
            assert "AND (h.key_id IS NULL OR h.key_id = $key_id)" in text, name
    called = re.compile(r'write_at_head\(\s*\w+,\s*"[^"]+",\s*"([^"]+)"')
    sources = "".join(path.read_text() for path in _python_files())
    named = re.findall(r'"(\w+/\w+_at_head)"', sources)
    assert sorted(set(named)) == sorted(set(called.findall(sources))) != []


async def _save(db: TenantStore, title: str) -> int:
    request = SaveMemoryRequest(project="p", type="note", title=title, content=f"{title} text")
    result = await save_memory(db, request)
    assert result.revision is not None
    return result.revision


async def test_one_statement_saves_chain_with_other_writers(
    neo4j_endpoint: Endpoint, store: Store, tenant: str
) -> None:
    """Saves that expect the head their process saw last, between writes of another process
    (which move it) and many at once: every save lands, revisions stay gap-free and the chain
    verifies."""
    other = await Store.connect(neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password)
    other.chain_key = store.chain_key
    try:
        revisions = [await _save(store.of(tenant), "first"), await _save(store.of(tenant), "2")]
        revisions.append(await _save(other.of(tenant), "moved by another process"))
        revisions.append(await _save(store.of(tenant), "after the move"))
        revisions += await asyncio.gather(*(_save(store.of(tenant), f"m{n}") for n in range(12)))
    finally:
        await other.close()
    assert sorted(revisions) == list(range(1, 17))
    verdict = await verify_chain(store.of(tenant), full=True)
    assert verdict.verified and verdict.complete
    rows = await store.read(
        "history/list_events", tenant, aggregate_id=None, aggregate_kind=None, since=None, limit=20
    )
    events = shaped(EventRow, rows)
    assert {e["event"]["op"] for e in events} == {"save_memory"} and len(events) == 16
