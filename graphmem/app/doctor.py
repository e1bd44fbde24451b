"""``graphmem doctor``: one line per check of the setup, ok / warn / fail and what to do.

The checks only look: doctor starts no server, creates no file and applies no schema. A check
that needs one that failed (credentials need Bolt) says ``skip``. Independent checks run side
by side, so the whole run takes about as long as its slowest part (loading the embedding
model, or signing in to Neo4j).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from graphmem.app.checks import Check, fail, first_line, ok, warn
from graphmem.app.doctor_database import database_checks
from graphmem.app.tracing_setup import missing_sdk, plan
from graphmem.core.errors import ConfigurationError, GraphmemError
from graphmem.core.settings import Settings

if TYPE_CHECKING:
    from graphmem.localdb.lockfile import LockedArtifact


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


def run_doctor(settings: Settings) -> DoctorReport:
    """Every check, in a fixed order; the independent groups run in parallel threads."""
    began = time.perf_counter()
    groups: list[Callable[[], list[Check]]] = [
        lambda: [check_java(settings)],
        lambda: [check_jars(settings)],
        lambda: [check_ports(settings)],
        lambda: database_checks(settings),
        lambda: [check_embeddings(settings)],
        lambda: [check_tokens_file(settings)],
        lambda: [check_history_key(settings)],
        lambda: [check_http_bind(settings)],
        lambda: [check_tracing(os.environ)],
        lambda: [check_last_start(settings)],
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
    return ok("java", java.describe())


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

    def verdict(a: LockedArtifact) -> tuple[str, bool]:
        return (a.file_name, whole(home / "lib" / a.file_name, a.sha256))

    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = pool.map(verdict, lock.artifacts)
        bad = [name for name, good in verdicts if not good]
    if bad:
        return fail(
            "jars",
            f"{len(bad)} of {len(lock.artifacts)} jars in {home} are missing or altered "
            f"(e.g. {bad[0]})",
            f"delete {home} and run `graphmem neo4j fetch`",
        )
    return ok("jars", f"{len(lock.artifacts)} jars match the lock's SHA-256 ({home})")


def check_ports(settings: Settings) -> Check:
    from graphmem.localdb.ports import kept_ports

    if not settings.uses_local_database:
        return ok("ports", NOT_NEEDED)
    ports = kept_ports(settings, settings.data_dir.expanduser().resolve())
    return ok("ports", ports.note() or f"bolt {ports.bolt}, http {ports.http} on 127.0.0.1")


# --- the server's own files and settings -------------------------------------------------------
def check_embeddings(settings: Settings) -> Check:
    if settings.embeddings == "none":
        return ok(
            "embeddings",
            "off (GRAPHMEM_EMBEDDINGS=none): search runs on full-text and graph, no vectors",
        )
    from graphmem.embeddings.embedder import FETCH_COMMAND, load_embedder

    try:
        embedder = load_embedder(settings)
        assert embedder is not None  # embeddings are on
        vector = embedder.embed(["graphmem doctor"])[0]
    except GraphmemError as error:
        detail = f"{error.message}; search runs on full-text and graph without vectors"
        fetch = FETCH_COMMAND if settings.embeddings == "e5-small" else ""
        return fail("embeddings", detail, fetch)
    except Exception as error:  # numerical failure of a damaged model
        return fail("embeddings", f"the model does not embed: {first_line(error)}")
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


def check_tracing(env: Mapping[str, str]) -> Check:
    asked = plan(env)
    if asked.problem is not None:
        return warn("traces", asked.problem, "see docs/operations.md#traces")
    sdk_problem = missing_sdk() if asked.on else None
    if sdk_problem is not None:
        return warn("traces", f"asked for by OTEL_* variables, but {sdk_problem}")
    return ok("traces", asked.describe)


def check_last_start(settings: Settings) -> Check:
    """The phases of the last start this data folder saw (localdb/start_report.py)."""
    from graphmem.localdb.start_report import StartReport

    report = StartReport.load(settings.data_dir.expanduser())
    if report is None:
        return ok("last start", "none recorded in this data folder yet")
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(report.started_at))
    return ok("last start", f"{when}, {report.total:.1f} s: {report.line()}")
