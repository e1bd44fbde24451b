"""``graphmem doctor``: one line per check of the setup, ok / warn / fail and what to do.

The checks only look: doctor starts no server, creates no file and applies no schema. A check
that needs one that failed (credentials need Bolt) says ``skip``. Independent checks run side
by side, so the whole run takes about as long as its slowest part (loading the embedding
model, or signing in to Neo4j).
"""

from __future__ import annotations

import asyncio
import re
import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

from graphmem.core.errors import ConfigurationError, GraphmemError, StoreAuthFailed
from graphmem.core.settings import Settings

if TYPE_CHECKING:
    from graphmem.store import QueryCatalog, Store

Status = Literal["ok", "warn", "fail", "skip"]
SCHEMA_STATEMENT = re.compile(
    r"^\s*(CREATE|DROP)\s+(?:[A-Z]+\s+)?(?:CONSTRAINT|INDEX)\s+(\w+)", re.MULTILINE
)
CONNECT_TIMEOUT = 5.0  # seconds: doctor reports a slow database rather than waiting for it


class Check(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    status: Status
    detail: str
    fix: str = ""  # what to do; empty when ok or when the detail says it

    def line(self) -> str:
        said = self.detail + (f" -> {self.fix}" if self.fix else "")
        return f"{self.status:<4}  {self.name:<11}  {' '.join(said.split())}"  # one line


class DoctorReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    checks: list[Check]
    seconds: float

    @property
    def failed(self) -> bool:
        return any(check.status == "fail" for check in self.checks)

    def check(self, name: str) -> Check:
        return next(check for check in self.checks if check.name == name)

    def describe(self) -> str:
        counts = {s: sum(c.status == s for c in self.checks) for s in ("ok", "warn", "fail")}
        skipped = sum(c.status == "skip" for c in self.checks)
        summary = ", ".join(f"{n} {s}" for s, n in counts.items())
        summary += f", {skipped} skipped" if skipped else ""
        lines = [check.line() for check in self.checks]
        return "\n".join([*lines, f"doctor: {summary} in {self.seconds:.2f} s"])


def ok(name: str, detail: str) -> Check:
    return Check(name=name, status="ok", detail=detail)


def warn(name: str, detail: str, fix: str = "") -> Check:
    return Check(name=name, status="warn", detail=detail, fix=fix)


def fail(name: str, detail: str, fix: str = "") -> Check:
    return Check(name=name, status="fail", detail=detail, fix=fix)


def skip(name: str, needs: str) -> Check:
    return Check(name=name, status="skip", detail=f"not checked: needs {needs}")


def run_doctor(settings: Settings) -> DoctorReport:
    """Every check, in a fixed order; the independent groups run in parallel threads."""
    began = time.perf_counter()
    groups: list[Callable[[], list[Check]]] = [
        lambda: [check_java(settings)],
        lambda: [check_jars(settings)],
        lambda: database_checks(settings),
        lambda: [check_embeddings(settings)],
        lambda: [check_tokens_file(settings)],
        lambda: [check_history_key(settings)],
        lambda: [check_http_bind(settings)],
    ]
    with ThreadPoolExecutor(max_workers=len(groups)) as pool:
        results = [pool.submit(group) for group in groups]
        checks = [check for result in results for check in result.result()]
    return DoctorReport(checks=checks, seconds=time.perf_counter() - began)


# --- the managed Neo4j's machine -------------------------------------------------------------
NOT_NEEDED = "not needed: NEO4J_URI names the database"


def check_java(settings: Settings) -> Check:
    from graphmem.localdb.java import find_java

    if not settings.uses_local_database:
        return ok("java", NOT_NEEDED)
    try:
        java = find_java(settings.java_home)
    except ConfigurationError as error:
        return fail("java", error.message)
    return ok("java", f"Java {java.major} at {java.executable}")


def check_jars(settings: Settings) -> Check:
    from graphmem.localdb.assemble import install_dir, is_assembled
    from graphmem.localdb.lockfile import load_lock, sha256_of

    if not settings.uses_local_database:
        return ok("jars", NOT_NEEDED)
    lock = load_lock()
    home = install_dir(settings.cache_dir.expanduser(), lock)
    if not is_assembled(home):
        return warn(
            "jars",
            f"Neo4j {lock.neo4j_version} is not downloaded yet ({home})",
            f"`graphmem neo4j fetch` downloads and verifies it ({lock.total_size / 1e6:.0f} MB); "
            "the first start does too",
        )

    def whole(jar: Path, sha256: str) -> bool:
        return jar.is_file() and sha256_of(jar) == sha256

    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = pool.map(
            lambda a: (a.file_name, whole(home / "lib" / a.file_name, a.sha256)), lock.artifacts
        )
        bad = [name for name, good in verdicts if not good]
    if bad:
        return fail(
            "jars",
            f"{len(bad)} of {len(lock.artifacts)} jars in {home} are missing or altered "
            f"(e.g. {bad[0]})",
            f"delete {home} and run `graphmem neo4j fetch`",
        )
    return ok("jars", f"{len(lock.artifacts)} jars match the lock's SHA-256 ({home})")


# --- the database ------------------------------------------------------------------------------
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
    from graphmem.store import Store

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
        return [fail("credentials", _first_line(error)), skip("schema", "credentials")]
    try:
        signed_in = ok(
            "credentials", f"signed in as {target.user!r} to database {settings.neo4j_database!r}"
        )
        return [signed_in, await check_schema(store)]
    finally:
        await store.close()


def _first_line(error: BaseException) -> str:
    text = error.message if isinstance(error, GraphmemError) else str(error)
    lines = text.strip().splitlines()
    return lines[0] if lines else type(error).__name__


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
        return fail("schema", f"cannot list the indexes: {_first_line(error)}")
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


# --- the server's own files and settings -------------------------------------------------------
def check_embeddings(settings: Settings) -> Check:
    if settings.embeddings == "none":
        return ok(
            "embeddings", "off: search is full-text only (GRAPHMEM_EMBEDDINGS=minilm adds vectors)"
        )
    from graphmem.embeddings.embedder import load_embedder

    try:
        embedder = load_embedder(settings)
        assert embedder is not None  # embeddings are on
        vector = embedder.embed(["graphmem doctor"])[0]
    except GraphmemError as error:
        return fail("embeddings", error.message)
    except Exception as error:  # numerical failure of a damaged model
        return fail("embeddings", f"the model does not embed: {_first_line(error)}")
    return ok("embeddings", f"{embedder.name} loads and embeds ({len(vector)} dimensions)")


def _private_file(name: str, path: Path) -> Check | None:
    """A fail when ``path`` is open to others or unreadable; None when it is private."""
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        return fail(name, f"{path} is open to others (mode {mode:o})", f"chmod 600 {path}")
    try:
        with path.open("rb"):
            pass
    except OSError as error:
        return fail(
            name,
            f"cannot read {path} ({error.strerror})",
            "make it readable by the user graphmem runs as (mode 600)",
        )
    return None


def check_tokens_file(settings: Settings) -> Check:
    from graphmem.app.tokens import TokenFile

    path = settings.tokens_file
    if path is None:
        return ok("tokens", "no tokens file (GRAPHMEM_TOKENS_FILE unset)")
    if not path.exists():
        return warn(
            "tokens",
            f"{path} does not exist yet, so no token is accepted",
            "`graphmem token issue --tenant NAME` creates it",
        )
    if (unsafe := _private_file("tokens", path)) is not None:
        return unsafe
    try:
        records = TokenFile.load(path).tokens
    except ConfigurationError:  # its message would quote the file's contents
        return fail(
            "tokens",
            f"{path} is not a valid tokens file",
            "restore it from a copy, or issue new tokens into a new file",
        )
    active = sum(record.revoked_at is None for record in records)
    return ok("tokens", f"{path}: {active} active, {len(records) - active} revoked, mode 600")


def check_history_key(settings: Settings) -> Check:
    from graphmem.core import keys

    path = settings.history_key_path
    if not path.exists():
        return warn(
            "history key",
            f"{path} does not exist yet",
            "graphmem serve creates it at first start; if the database already holds "
            "history, put back the key it was written with first",
        )
    if (unsafe := _private_file("history key", path)) is not None:
        return unsafe
    try:
        key = keys.load(path)
    except ConfigurationError as error:
        return fail("history key", error.message)
    return ok("history key", f"{path}: key id {key.key_id}, mode 600")


def check_http_bind(settings: Settings) -> Check:
    bind = f"{settings.host}:{settings.port}"
    if settings.binds_loopback:
        return ok("http bind", f"{bind}: loopback only")
    if not settings.has_credentials:
        return fail(
            "http bind",
            f"{bind} is reachable from other machines and no credentials are configured "
            "(graphmem serve --transport http refuses to start)",
            "issue tokens (`graphmem token issue`, GRAPHMEM_TOKENS_FILE) or set "
            "GRAPHMEM_HTTP_TOKEN_SHA256, or bind 127.0.0.1",
        )
    if not (settings.public_url or "").startswith("https://"):
        return warn(
            "http bind",
            f"{bind} takes bearer credentials over plain HTTP from the network",
            "put a TLS proxy in front and set GRAPHMEM_PUBLIC_URL=https://...",
        )
    return ok("http bind", f"{bind} with bearer credentials, public at {settings.public_url}")
