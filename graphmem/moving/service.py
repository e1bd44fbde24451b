"""The import of an mcp-neo4j-memory database (docs/import-mcp-neo4j-memory.md): the peer is read
a page at a time (its entities in name order, then its relations), each page mapped
(graphmem/moving/mapping.py) and written through ``save_memory``, the one write path, 16
saves in flight at once (this process's group commit, graphmem/history/group_commit.py, commits
them together and answers each on its own): a write that fails leaves nothing of its item and
the import goes on (a database that stops answering ends it). A dry run reads the peer and
graphmem and writes nothing. Before a page is written, one read finds the topics the project
already holds: an item imported before is skipped, so a second import adds nothing.

The peer is another database: its ``Store`` is the one the caller opened on the peer's URI
and runs only moving's ``list_peer_*`` and ``count_peer_graph`` reads (read sessions).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.core.errors import ConfigurationError, GraphmemError, StoreError
from graphmem.memories.service import save_memory
from graphmem.moving.mapping import (
    SOURCE,
    Item,
    Mapped,
    Planned,
    Refused,
    entity_items,
    kind_of,
    relation_item,
    shown,
)
from graphmem.moving.models import MAX_EXAMPLES, ImportReport, ItemCounts, RefusedItem
from graphmem.moving.rows import ImportedTopicRow, PeerCountRow, PeerEntityRow, PeerRelationRow
from graphmem.store import Store, TenantStore, shaped
from graphmem.subjects.reading import reader_of

ITEMS: tuple[Item, ...] = ("entity", "observation", "relation")
log = logging.getLogger("graphmem")
PAGE = 500  # peer entities (or relations) read at once
WRITERS = 16  # saves in flight at once: this process's group commit makes them one transaction
PEER = "-"  # the peer's database has no tenants: the store's database-wide marker

Progress = Callable[[int], None]  # peer entities and relations done since the last call


@dataclass
class Tally:
    counts: dict[Item, Counter[str]] = field(
        default_factory=lambda: {item: Counter[str]() for item in ITEMS}
    )
    kinds: Counter[str] = field(default_factory=Counter[str])
    refusals: Counter[str] = field(default_factory=Counter[str])
    examples: list[RefusedItem] = field(default_factory=list[RefusedItem])

    def refuse(self, item: Item, origin: str, reason: str, outcome: str = "refused") -> None:
        self.counts[item][outcome] += 1
        self.refusals[reason] += 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(RefusedItem(item=item, origin=shown(origin), reason=reason))

    def item_counts(self, item: Item) -> ItemCounts:
        c = self.counts[item]
        return ItemCounts(
            found=c["found"],
            maps=c["maps"],
            written=c["written"],
            already=c["already"],
            refused=c["refused"],
            failed=c["failed"],
            quarantined=c["quarantined"],
            redacted=c["redacted"],
        )


@dataclass(frozen=True)
class ImportOptions:
    project: str
    dry_run: bool
    peer_uri: str
    backup_dir: Path | None = None
    page: int = PAGE


async def import_peer(
    peer: Store, db: TenantStore, options: ImportOptions, progress: Progress = lambda _: None
) -> ImportReport:
    """Read the peer into ``db``'s tenant (or, in a dry run, say what that would do)."""
    [totals] = shaped(PeerCountRow, await peer.read("moving/count_peer_graph", tenant=PEER))
    if totals["graphmem"]:
        raise ConfigurationError(
            "--peer-uri names a graphmem database: name the mcp-neo4j-memory server's"
        )
    tally = Tally()
    async for entities in _entity_pages(peer, options.page):
        mapped: list[Mapped] = []
        for row in entities:
            tally.kinds[kind_of(row["type"])] += 1
            mapped.extend(entity_items(row, options.project))
        await _apply(db, mapped, options, tally)
        progress(len(entities))
    async for relations in _relation_pages(peer, options.page):
        await _apply(db, [relation_item(row, options.project) for row in relations], options, tally)
        progress(len(relations))
    names_read = options.dry_run or await _read_names(db)
    return ImportReport(
        source=SOURCE,
        peer=options.peer_uri,
        tenant=db.tenant,
        project=options.project,
        dry_run=options.dry_run,
        peer_entities=totals["entities"],
        peer_nameless=totals["entities"] - totals["named"],
        peer_relations=totals["relations"],
        entities=tally.item_counts("entity"),
        observations=tally.item_counts("observation"),
        relations=tally.item_counts("relation"),
        kinds=dict(tally.kinds.most_common()),
        refusals=dict(tally.refusals.most_common()),
        examples=tally.examples,
        names_read=names_read,
    )


async def _read_names(db: TenantStore) -> bool:
    """The subjects passes over what was written, now rather than behind the command (so
    ``about`` answers at once). False when a pass failed: its sources stay unread, for the
    next pass of any process (a server's, behind its next write or read of subjects)."""
    reader = reader_of(db.store)
    try:
        while await reader.settle(db.tenant):
            pass
    except GraphmemError:
        log.warning("import: a subjects pass failed; the names are read later", exc_info=True)
        return False
    return True


async def _entity_pages(peer: Store, size: int) -> AsyncIterator[list[PeerEntityRow]]:
    after_name: str | None = None
    after_id = ""
    while True:
        rows = shaped(
            PeerEntityRow,
            await peer.read(
                "moving/list_peer_entities",
                tenant=PEER,
                after_name=after_name,
                after_id=after_id,
                limit=size,
            ),
        )
        if rows:
            yield rows
        if len(rows) < size:
            return
        after_name, after_id = rows[-1]["name"], rows[-1]["id"]


async def _relation_pages(peer: Store, size: int) -> AsyncIterator[list[PeerRelationRow]]:
    after: str | None = None
    while True:
        rows = shaped(
            PeerRelationRow,
            await peer.read("moving/list_peer_relations", tenant=PEER, after=after, limit=size),
        )
        if rows:
            yield rows
        if len(rows) < size:
            return
        after = rows[-1]["id"]


async def _apply(
    db: TenantStore, mapped: Sequence[Mapped], options: ImportOptions, tally: Tally
) -> None:
    planned = [item for item in mapped if isinstance(item, Planned)]
    before = await _imported(db, options.project, [item.topic_key for item in planned])
    new: list[Planned] = []
    for item in mapped:
        counts = tally.counts[item.item]
        counts["found"] += 1
        if isinstance(item, Refused):
            tally.refuse(item.item, item.origin, item.reason)
        elif item.topic_key in before:
            counts["already"] += 1
        else:
            counts["maps"] += 1
            counts["quarantined"] += item.quarantined
            counts["redacted"] += item.redacted
            new.append(item)
    if options.dry_run:
        return
    for start in range(0, len(new), WRITERS):  # the group commit batches them
        async with asyncio.TaskGroup() as group:
            for item in new[start : start + WRITERS]:
                group.create_task(_write(db, item, options, tally))


async def _imported(db: TenantStore, project: str, keys: list[str]) -> set[str]:
    if not keys:
        return set()
    rows = shaped(
        ImportedTopicRow,
        await db.read("moving/list_imported_topics", project=project, topic_keys=keys),
    )
    return {row["topic_key"] for row in rows}


async def _write(db: TenantStore, item: Planned, options: ImportOptions, tally: Tally) -> None:
    """One item through save_memory: written, or counted as failed with graphmem's reason."""
    try:
        result = await save_memory(db, item.request, backup_dir=options.backup_dir)
    except StoreError:
        raise  # the database is gone: the import ends here (a re-run goes on from here)
    except GraphmemError as error:
        tally.refuse(item.item, item.origin, f"write failed: {error.message}", "failed")
        return
    if result.operation != "unchanged":  # unchanged: a concurrent import wrote it first
        tally.counts[item.item]["written"] += 1
