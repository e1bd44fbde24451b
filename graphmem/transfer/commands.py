"""The ``graphmem export`` and ``graphmem import`` commands."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any, Protocol

from graphmem.console.terminal import progress_bar, say
from graphmem.core.errors import ConfigurationError
from graphmem.core.keys import load_or_create
from graphmem.core.settings import Settings
from graphmem.localdb.connect import connect_store


class Subcommands(Protocol):
    """What a command module needs of ``add_subparsers()``'s result (argparse's own class for
    it is private)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def add_commands(commands: Subcommands) -> None:
    export = commands.add_parser("export", help="write a tenant, history included, as JSON Lines")
    export.add_argument("--tenant", required=True)
    export.add_argument("--out", required=True, type=Path, help="the file to write")
    export.add_argument("--project", help="one project of the tenant (its history stays)")
    load = commands.add_parser("import", help="load an export into an empty tenant")
    load.add_argument("--tenant", required=True, help="the tenant to create (must be empty)")
    load.add_argument("file", type=Path)
    load.add_argument(
        "--merge",
        action="store_true",
        help="into a tenant holding data: the file's ids must be new there, its history is "
        "appended after the tenant's",
    )


def run(settings: Settings, args: argparse.Namespace) -> int:
    if args.command == "export":
        if not args.out.parent.is_dir():
            raise ConfigurationError(f"no folder {args.out.parent} to write the export into")
        asyncio.run(_export(settings, args))
        size = args.out.stat().st_size / 1e6
        say(f"wrote {args.out} ({size:.1f} MB)")
        return 0
    if not args.file.is_file():
        raise ConfigurationError(f"no file {args.file}")
    return asyncio.run(_import(settings, args))


async def _export(settings: Settings, args: argparse.Namespace) -> None:
    from graphmem.transfer.export import export_tenant, total_nodes

    out: Path = args.out
    store = await connect_store(settings)
    try:
        began = time.perf_counter()
        total = None if args.project else await total_nodes(store, args.tenant)
        with progress_bar("exporting", total) as bar:
            trailer = await export_tenant(store, args.tenant, out, bar, project=args.project)
    finally:
        await store.close()
    seconds = time.perf_counter() - began
    say(
        f"exported {trailer.nodes:,} nodes, {trailer.events:,} events and "
        f"{trailer.relationships:,} relationships in {seconds:.1f} s"
    )


async def _import(settings: Settings, args: argparse.Namespace) -> int:
    from graphmem.history.verification import verify_and_checkpoint
    from graphmem.transfer.load import check_file, import_file

    path: Path = args.file
    began = time.perf_counter()
    with progress_bar("checking", path.stat().st_size) as bar:  # noqa: ASYNC240 (one stat)
        checked = check_file(path, bar)  # the whole file, before anything is written
    store = await connect_store(settings)
    store.chain_key = load_or_create(settings.history_key_path)  # the server's key
    try:
        trailer = checked.trailer
        total = trailer.nodes + trailer.events + trailer.relationships
        with progress_bar("importing", total) as bar:
            imported = await import_file(store, args.tenant, path, checked, bar, merge=args.merge)
        verdict, _ = await verify_and_checkpoint(store.of(args.tenant), limit=10**12, full=True)
    finally:
        await store.close()
    say(
        f"imported {imported.nodes:,} nodes, {imported.events:,} events and "
        f"{imported.relationships:,} relationships into {args.tenant!r} in "
        f"{time.perf_counter() - began:.1f} s; history re-chained to revision "
        f"{imported.revision}: {'verified' if verdict.verified else 'NOT verified'}"
    )
    return 0 if verdict.verified else 1
