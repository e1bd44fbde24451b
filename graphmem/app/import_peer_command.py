"""``graphmem import --from mcp-neo4j-memory``: a running mcp-neo4j-memory database read into a
tenant's subjects, mentions and memories (graphmem/moving/, docs/import-mcp-neo4j-memory.md).

The transfer ``import`` (a graphmem export file) and this one share the command's name; the
CLI hands ``import --from ...`` here before the export's parser sees it, so each keeps its own
options and help (``graphmem import --from mcp-neo4j-memory --help``).

The peer's password is read from an environment variable (``--peer-password-env``, default
PEER_NEO4J_PASSWORD), never from the command line, where other users of the machine can read
it; graphmem's own database is the one every command uses (NEO4J_URI, else the managed one).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections.abc import Sequence

from graphmem.console.terminal import progress_bar, say
from graphmem.core.errors import ConfigurationError, StoreAuthFailed, StoreUnavailable
from graphmem.core.keys import load_or_create
from graphmem.core.settings import Settings
from graphmem.localdb.connect import resolve_connection
from graphmem.moving.mapping import SOURCE
from graphmem.moving.models import ImportReport, ItemCounts
from graphmem.moving.service import ImportOptions, import_peer
from graphmem.store import Store

PASSWORD_ENV = "PEER_NEO4J_PASSWORD"  # noqa: S105 (the variable's name, not a password)


def wanted(argv: Sequence[str]) -> bool:
    """An ``import`` naming a source (``--from``): this command's, not the export file's."""
    return bool(argv) and argv[0] == "import" and any(a.split("=")[0] == "--from" for a in argv)


def point_to_it(export_import: argparse.ArgumentParser) -> None:
    """The export file's ``import --help`` names this one."""
    export_import.epilog = (
        f"To read a running {SOURCE} database instead: graphmem import --from {SOURCE} --help"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="graphmem import",
        description="Read a running mcp-neo4j-memory database (its entities, observations and "
        "relations) into a tenant's subjects, mentions and memories.",
        allow_abbrev=False,
    )
    parser.add_argument("--from", dest="source", required=True, choices=[SOURCE])
    parser.add_argument("--peer-uri", required=True, help="the peer's Neo4j, e.g. bolt://host:7687")
    parser.add_argument("--peer-user", default="neo4j", help="default neo4j")
    parser.add_argument("--peer-database", default="neo4j", help="default neo4j")
    parser.add_argument(
        "--peer-password-env",
        default=PASSWORD_ENV,
        metavar="NAME",
        help=f"the environment variable holding the peer's password (default {PASSWORD_ENV})",
    )
    parser.add_argument("--tenant", help="default GRAPHMEM_TENANT")
    parser.add_argument("--project", required=True, help="the project of the imported memories")
    parser.add_argument("--dry-run", action="store_true", help="report only: write nothing")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def run(settings: Settings, argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv)[1:])
    password = os.environ.get(args.peer_password_env)
    if password is None:
        raise ConfigurationError(
            f"set {args.peer_password_env} to the peer's password (it is never an option)"
        )
    report = asyncio.run(_import(settings, args, password))
    print(report.model_dump_json(indent=1) if args.json else render(report))
    return 0


async def _import(settings: Settings, args: argparse.Namespace, password: str) -> ImportReport:
    tenant: str = args.tenant or settings.tenant
    peer = await _connect_peer(args, password)
    try:
        uri, user, own_password = resolve_connection(settings)
        if (uri, settings.neo4j_database) == (args.peer_uri, args.peer_database):
            raise ConfigurationError(
                f"--peer-uri {args.peer_uri} is graphmem's own database: name the "
                f"{SOURCE} server's (its --db-url)"
            )
        store = await Store.connect(uri, user, own_password, settings.neo4j_database)
        try:
            if not args.dry_run:  # a dry run writes nothing, the schema included
                await store.apply_schema()
                store.chain_key = load_or_create(settings.history_key_path)  # the server's key
            options = ImportOptions(
                args.project, args.dry_run, args.peer_uri, settings.memory_backup_dir
            )
            began = time.perf_counter()
            with progress_bar("reading mcp-neo4j-memory", None) as bar:
                report = await import_peer(peer, store.of(tenant), options, bar.advance)
            done = "checked" if args.dry_run else "imported"
            say(f"{done} in {time.perf_counter() - began:.1f} s")
        finally:
            await store.close()
    finally:
        await peer.close()
    return report


async def _connect_peer(args: argparse.Namespace, password: str) -> Store:
    """The peer's database, or one line saying which option to check (graphmem's own
    messages name NEO4J_URI and NEO4J_PASSWORD, which are not the peer's)."""
    where = f"the {SOURCE} database at {args.peer_uri}"
    try:
        return await Store.connect(
            args.peer_uri, args.peer_user, password, args.peer_database, connect_timeout=10.0
        )
    except StoreAuthFailed as error:
        raise ConfigurationError(
            f"{where} refused user {args.peer_user!r}: check --peer-user and "
            f"{args.peer_password_env}"
        ) from error
    except StoreUnavailable as error:
        if "not a valid Neo4j URI" in error.message:
            why = f"--peer-uri {args.peer_uri!r} is not a Neo4j URI (bolt://, neo4j://, ...)"
            raise ConfigurationError(why) from error
        raise ConfigurationError(
            f"cannot reach {where}: check --peer-uri and that its Neo4j runs"
        ) from error


def render(report: ImportReport) -> str:
    verb = "would write" if report.dry_run else "written"
    lines = [
        f"{report.source} at {report.peer} -> tenant {report.tenant!r}, project "
        f"{report.project!r}{' (dry run: nothing written)' if report.dry_run else ''}",
        f"peer: {report.peer_entities} entities ({report.peer_nameless} without a name), "
        f"{report.peer_relations} relations",
    ]
    for label, counts in (
        ("entities", report.entities),
        ("observations", report.observations),
        ("relations", report.relations),
    ):
        lines.append(f"{label:<13} {_counts(counts, verb)}")
    kinds = ", ".join(f"{kind} {n}" for kind, n in report.kinds.items()) or "none"
    lines.append(f"entity kinds: {kinds} (subjects take no kind from about)")
    if not report.names_read:
        lines.append("names: a subjects pass failed; the server's next pass reads them")
    for reason, n in report.refusals.items():
        lines.append(f"cannot map: {n} x {reason}")
    for example in report.examples:
        lines.append(f"  {example.item} of {example.origin}: {example.reason}")
    return "\n".join(lines)


def _counts(counts: ItemCounts, verb: str) -> str:
    written = counts.maps if verb == "would write" else counts.written
    parts = [
        f"{counts.found} found",
        f"{written} {verb}",
        f"{counts.already} imported before",
        f"{counts.refused} cannot map",
    ]
    if counts.failed:
        parts.append(f"{counts.failed} failed")
    if counts.quarantined or counts.redacted:
        parts.append(f"{counts.quarantined} quarantined, {counts.redacted} with secrets redacted")
    return ", ".join(parts)
