"""``graphmem doctor``'s database checks: the managed server (if used), Bolt, the credentials
and the schema, in that order (a check that needs a failed one says ``skip``)."""

from __future__ import annotations

import asyncio
import re
import socket
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from graphmem.app.checks import Check, fail, first_line, ok, skip, warn
from graphmem.core.errors import StoreAuthFailed
from graphmem.core.settings import Settings
from graphmem.store import QueryCatalog, Store

SCHEMA_STATEMENT = re.compile(
    r"^\s*(CREATE|DROP)\s+(?:[A-Z]+\s+)?(?:CONSTRAINT|INDEX)\s+(\w+)", re.MULTILINE
)
CONNECT_TIMEOUT = 5.0  # seconds: doctor reports a slow database rather than waiting for it


@dataclass(frozen=True)
class Target:
    """Where graphmem would connect, and with which credentials (never printed)."""

    uri: str
    user: str
    password: str | None = field(repr=False)
    managed: bool
    origin: str  # where the password comes from: NEO4J_PASSWORD or the auth.secret file


def database_checks(settings: Settings) -> list[Check]:
    """The managed server (if used), Bolt, the credentials and the schema, in that order."""
    server, target = (
        managed_target(settings) if settings.uses_local_database else external_target(settings)
    )
    bolt = check_bolt(target)
    if bolt.status != "ok":
        return [server, bolt, skip("credentials", "bolt"), skip("schema", "bolt")]
    return [server, bolt, *asyncio.run(_signed_in_checks(settings, target))]


def external_target(settings: Settings) -> tuple[Check, Target]:
    uri = settings.neo4j_uri or ""
    given = settings.neo4j_password
    target = Target(
        uri,
        settings.neo4j_user,
        given.get_secret_value() if given else "",
        managed=False,
        origin="NEO4J_PASSWORD",
    )
    return ok("neo4j", f"not managed: NEO4J_URI names the database ({_address(uri)})"), target


def managed_target(settings: Settings) -> tuple[Check, Target]:
    from graphmem.localdb import LocalNeo4j

    local = LocalNeo4j(settings)
    status = local.status()
    secret = local.data_dir / "auth.secret"
    if settings.neo4j_password is not None:
        password: str | None = settings.neo4j_password.get_secret_value()
        source = "NEO4J_PASSWORD"
    else:  # read, never created: doctor writes nothing
        password = _read_secret(secret)
        source = str(secret)
    target = Target(status.bolt_uri, local.user, password, managed=True, origin=source)
    if status.running:
        detail = f"managed Neo4j {status.version} running, pid {status.pid}, data {local.data_dir}"
        return ok("neo4j", detail), target
    stopped = fail(
        "neo4j",
        f"the managed Neo4j is not running (data folder {local.data_dir})",
        "start it: `graphmem neo4j start` (graphmem serve starts it too)",
    )
    return stopped, target


def _read_secret(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:  # missing or unreadable: the credentials check says so
        return None


def _address(uri: str) -> str:
    """host:port of a Bolt URI, without any user information in it."""
    parts = urlsplit(uri)
    return f"{parts.hostname}:{parts.port or 7687}" if parts.hostname else uri


def check_bolt(target: Target) -> Check:
    parts = urlsplit(target.uri)
    if not parts.hostname:
        return fail("bolt", f"{target.uri!r} is not a Bolt URI", "set NEO4J_URI=bolt://HOST:7687")
    address = _address(target.uri)
    try:
        with socket.create_connection((parts.hostname, parts.port or 7687), timeout=3):
            pass
    except OSError as error:
        fix = (
            "start it: `graphmem neo4j start`"
            if target.managed
            else "check NEO4J_URI and that the server runs"
        )
        reason = error.strerror or type(error).__name__
        return fail("bolt", f"nothing answers at {address} ({reason})", fix)
    return ok("bolt", f"{address} answers")


async def _signed_in_checks(settings: Settings, target: Target) -> list[Check]:

    if target.password is None:
        return [
            fail(
                "credentials",
                f"no password: NEO4J_PASSWORD is unset and {target.origin} is missing or "
                "unreadable",
                "set NEO4J_PASSWORD to the database's password",
            ),
            skip("schema", "credentials"),
        ]
    try:
        store = await Store.connect(
            target.uri,
            target.user,
            target.password,
            settings.neo4j_database,
            connect_timeout=CONNECT_TIMEOUT,
            query_timeout=CONNECT_TIMEOUT * 2,
        )
    except StoreAuthFailed:
        return [
            fail(
                "credentials",
                f"Neo4j refused user {target.user!r} with the password from {target.origin}",
                "set NEO4J_USER and NEO4J_PASSWORD to an account of this database",
            ),
            skip("schema", "credentials"),
        ]
    except Exception as error:  # a missing database, a refused TLS: the first line says which
        return [fail("credentials", first_line(error)), skip("schema", "credentials")]
    try:
        signed_in = ok(
            "credentials", f"signed in as {target.user!r} to database {settings.neo4j_database!r}"
        )
        return [signed_in, await check_schema(store)]
    finally:
        await store.close()


def expected_schema(catalog: QueryCatalog) -> list[str]:
    """The constraints and indexes ``cypher/schema`` leaves behind, in file order."""
    names: dict[str, None] = {}
    for query in catalog.under("schema"):
        for verb, name in SCHEMA_STATEMENT.findall(query.text):
            if verb == "CREATE":
                names[name] = None
            else:
                names.pop(name, None)
    return list(names)


async def check_schema(store: Store) -> Check:
    """Each of graphmem's constraints and indexes exists and is online (a uniqueness
    constraint is listed as the index of the same name that backs it)."""
    expected = expected_schema(store.catalog)
    try:
        states = {row["name"]: row["state"] for row in await store.schema_state()}
    except Exception as error:  # a user without the right to list indexes
        return fail("schema", f"cannot list the indexes: {first_line(error)}")
    missing = [name for name in expected if name not in states]
    failed = [name for name in expected if states.get(name) == "FAILED"]
    waiting = [name for name in expected if states.get(name) not in (None, "ONLINE", "FAILED")]
    if failed:
        return fail(
            "schema",
            f"{len(failed)} indexes FAILED: {', '.join(failed[:5])}",
            "the Neo4j log says why; drop them (DROP INDEX name) and start graphmem serve, "
            "which creates them again",
        )
    if missing:
        return warn(
            "schema",
            f"{len(missing)} of {len(expected)} constraints and indexes are missing "
            f"(e.g. {missing[0]})",
            "start graphmem serve once: it applies the schema at start",
        )
    if waiting:
        return warn(
            "schema",
            f"{len(waiting)} indexes are still populating (e.g. {waiting[0]})",
            "wait; graphmem serve waits for them at start",
        )
    return ok("schema", f"all {len(expected)} constraints and indexes online")
