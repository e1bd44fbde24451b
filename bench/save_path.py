"""A save beside the least durable write, in one process, no MCP: where a save's time goes.

    python -m bench.save_path --data DIR     # the LoCoMo folder (or GRAPHMEM_LOCOMO_DIR)
    python -m bench.save_path --conversations conv-26     # 419 turns: a colder JVM

On NEO4J_URI if set, else a fresh managed local Neo4j (bench.harness.bench_store), in two
scratch tenants. Every LoCoMo turn (bench.peers' corpus) is written twice, one after the
other: once as bench.peers' write floor does it (one auto-commit CREATE of the turn on no
index, bench/cypher/peers/create_bench_turn, through graphmem's store), once through
graphmem's domain ``save_memory`` as the server calls it. The save's statement round trip is
timed inside the store (``write_statement``, where ``write_at_head`` runs the save as one
auto-commit statement), so a save splits into its statement and the rest of the domain
(screening, the event's HMAC, the answer model; the write-behind indexer's batches run in the
same process, as in the server; a tenant's first save, with no head seen yet, runs as the
managed write, untimed inside). Printed: p50 per quarter of the turns and over all, and each
figure above the bare CREATE.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bench.harness import BENCH_CATALOG, bench_store, quantile_ms, say, scratch_tenant
from bench.locomo import DATA_ENV, data_files
from bench.peers import quarters
from bench.peers_sides import chosen, load
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.store import Store
from graphmem.store.catalog import QueryCatalog


class TimedStore(Store):
    """A store adding each one-statement write's wall time to ``spent``."""

    spent = 0.0

    async def write_statement(
        self, label: str, tenant: str, name: str, **params: Any
    ) -> list[dict[str, Any]] | None:
        began = time.perf_counter()
        try:
            return await super().write_statement(label, tenant, name, **params)
        finally:
            self.spent += time.perf_counter() - began


S = TypeVar("S", bound=Store)


def beside(store: Store, kind: type[S], catalog: QueryCatalog | None = None) -> S:
    """A store of ``kind`` on ``store``'s driver (the same connection pool), not closing it."""
    other = kind(
        store._driver,
        uri=store.uri,
        user=store.user,
        database=store.database,
        catalog=catalog,
        owns_driver=False,
    )
    other.chain_key = store.chain_key
    return other


async def main(data: Path, wanted: list[str] | None) -> None:
    corpus = load(chosen(data, wanted))
    say(f"{len(corpus.turns)} turns of {', '.join(corpus.conversations)}; each written twice")
    bare: list[float] = []
    saves: list[float] = []
    statements: list[float] = []
    async with (
        bench_store() as store,
        scratch_tenant(store, "save-path") as tenant,
        scratch_tenant(store, "bare-write") as bare_tenant,
    ):
        timed = beside(store, TimedStore)
        db = timed.of(tenant)
        floor = beside(store, Store, QueryCatalog(BENCH_CATALOG)).of(bare_tenant)
        for turn in corpus.turns:
            began = time.perf_counter()
            rows = await floor.write_statement(
                "write", "peers/create_bench_turn", turn=turn.name, text=turn.text
            )
            bare.append(time.perf_counter() - began)
            if not rows:
                raise RuntimeError("Neo4j refused a bare write")
            request = SaveMemoryRequest(
                project=turn.project, type="note", title=turn.name, content=turn.text
            )
            timed.spent, began = 0.0, time.perf_counter()
            await save_memory(db, request)
            saves.append(time.perf_counter() - began)
            statements.append(timed.spent)
        await timed.close()  # its write-behind batches, before the tenants are purged
    report(bare, saves, statements)


def report(bare: list[float], saves: list[float], statements: list[float]) -> None:
    rest = [save - statement for save, statement in zip(saves, statements, strict=True)]
    floor = quantile_ms(bare, 50)
    figures: list[tuple[str, list[float], Callable[[float], str]]] = [
        ("bare CREATE (the write floor)", bare, lambda _: ""),
        ("save_memory (domain)", saves, lambda p50: f"  {p50 - floor:+.2f} ms over the floor"),
        ("  its statement", statements, lambda p50: f"  {p50 - floor:+.2f} ms over the floor"),
        ("  the rest of the domain", rest, lambda _: ""),
    ]
    say("p50 ms per quarter of the turns, in order; then over all:")
    for name, seconds, beside in figures:
        per_quarter = " / ".join(f"{q:.2f}" for q in quarters(seconds))
        p50 = quantile_ms(seconds, 50)
        say(f"  {name:<32}{per_quarter}; all {p50:.2f}{beside(p50)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    parser.add_argument("--conversations", nargs="*", help="e.g. conv-26 30 (default: all)")
    arguments = parser.parse_args()
    asyncio.run(main(data_files(arguments.data)[0].parent, arguments.conversations))
