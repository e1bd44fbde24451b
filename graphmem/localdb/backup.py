"""Back up and restore the managed local Neo4j with the admin tool's ``database dump`` and
``database load``, run as the managed install already runs it to set the password: the admin
class on the assembled classpath (there is no ``bin/neo4j-admin``).

Neo4j Community can neither dump nor load a database its server has mounted, nor stop one
database alone: the whole server must be stopped. A running server is refused unless
``--force`` is given, which stops it for the operation and starts it again afterwards
(``graphmem serve`` reports a retryable error meanwhile and reconnects by itself). Restoring
over a data folder that already holds the database is refused without ``--force`` too: it
replaces everything written since the backup.

A backup is a folder holding ``<database>.dump`` and ``backup.json`` (Neo4j version, size,
SHA-256 of the dump, the id of the history key), both mode 0600 in a 0700 folder: the dump
holds every tenant's data. The history key itself is not copied: it is kept apart from the
data on purpose (see ``graphmem.core.keys``), so the operator keeps it next to the backup.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Generator
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from graphmem.core import keys
from graphmem.core.clock import utc_now
from graphmem.core.errors import ConfigurationError, LocalDatabaseError
from graphmem.core.settings import Settings
from graphmem.localdb.assemble import assemble
from graphmem.localdb.java import find_java
from graphmem.localdb.lockfile import sha256_of
from graphmem.localdb.server import LocalNeo4j, ReadyCheck

MANIFEST = "backup.json"
ADMIN_OUTPUT_TAIL = 400  # characters of the admin tool's output a failure quotes
NOISE = ("at ", "...", "Files:", "Done:", "Run with '--verbose'")  # stack and progress lines


class BackupRefused(LocalDatabaseError):
    """The backup or restore would disturb a running server or replace data: not forced."""


class BackupFailed(LocalDatabaseError):
    """The admin tool failed, or the backup is incomplete or corrupt."""


class BackupManifest(BaseModel):
    """``backup.json``: what the dump next to it holds and how to check it is whole."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    neo4j_version: str
    database: str
    created_at: datetime
    size: int
    sha256: str
    history_key_id: str | None  # the id (a hash) of the key, never the key


class BackupReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    dump: Path
    manifest: BackupManifest
    seconds: float
    restarted: bool
    history_key: Path

    def describe(self) -> str:
        lines = [
            f"backed up database {self.manifest.database} ({self.manifest.size / 1e6:.1f} MB) "
            f"to {self.dump} in {self.seconds:.1f} s"
            + ("; the managed Neo4j was started again" if self.restarted else "")
        ]
        if self.manifest.history_key_id:
            lines.append(
                f"keep the history key {self.history_key} (id {self.manifest.history_key_id}) "
                "with it: the restored history verifies only with that key"
            )
        return "\n".join(lines)


class RestoreReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    dump: Path
    database: str
    data_dir: Path
    seconds: float
    restarted: bool
    notes: list[str]

    def describe(self) -> str:
        first = (
            f"restored database {self.database} from {self.dump} into {self.data_dir} "
            f"in {self.seconds:.1f} s"
            + ("; the managed Neo4j was started again" if self.restarted else "")
        )
        return "\n".join([first, *self.notes])


# --- the commands --------------------------------------------------------------------------
def backup(local: LocalNeo4j, to: Path, *, force: bool, ready_check: ReadyCheck) -> BackupReport:
    """Dump the managed database into the folder ``to`` (created 0700)."""
    database = local.settings.neo4j_database
    to = to.expanduser().resolve()
    dump = to / f"{database}.dump"
    if dump.exists() and not force:
        raise BackupRefused(
            f"{dump} exists already: choose another --to folder, or pass --force to replace it"
        )
    if not _holds_database(local, database):
        raise BackupRefused(
            f"the data folder {local.data_dir} holds no database {database!r} to back up: "
            "check GRAPHMEM_DATA_DIR"
        )
    began = time.monotonic()
    with _server_stopped(local, force=force, ready_check=ready_check, doing="dump") as was_running:
        to.mkdir(parents=True, exist_ok=True, mode=0o700)
        staging = Path(tempfile.mkdtemp(prefix=".partial-", dir=to))  # a failed dump leaves
        try:  # the earlier one untouched
            _admin(local, "database", "dump", database, f"--to-path={staging}")
            staged = staging / dump.name
            staged.chmod(0o600)
            staged.replace(dump)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    manifest = BackupManifest(
        neo4j_version=local.lock.neo4j_version,
        database=database,
        created_at=utc_now(),
        size=dump.stat().st_size,
        sha256=sha256_of(dump),
        history_key_id=_history_key_id(local.settings),
    )
    _write_private(to / MANIFEST, manifest.model_dump_json(indent=1) + "\n")
    return BackupReport(
        dump=dump,
        manifest=manifest,
        seconds=time.monotonic() - began,
        restarted=was_running,
        history_key=local.settings.history_key_path,
    )


def restore(
    local: LocalNeo4j, source: Path, *, force: bool, ready_check: ReadyCheck
) -> RestoreReport:
    """Load a backup (its folder or its ``.dump`` file) into the managed data folder."""
    database = local.settings.neo4j_database
    dump = _dump_in(source.expanduser().resolve(), database)
    manifest = _verified_manifest(dump)
    if _holds_database(local, database) and not force and not local.status().running:
        raise BackupRefused(
            f"the data folder {local.data_dir} already holds database {database!r}: restoring "
            "replaces it and everything written since the backup; pass --force to replace it, "
            "or restore into a fresh GRAPHMEM_DATA_DIR"
        )
    began = time.monotonic()
    local.data_dir.mkdir(parents=True, exist_ok=True)
    with (
        _server_stopped(local, force=force, ready_check=ready_check, doing="load") as was_running,
        _as_named_dump(dump, database) as folder,
        _kept_aside(local, database),
    ):
        _admin(local, "database", "load", database, f"--from-path={folder}")
    return RestoreReport(
        dump=dump,
        database=database,
        data_dir=local.data_dir,
        seconds=time.monotonic() - began,
        restarted=was_running,
        notes=_key_notes(local.settings, manifest),
    )


# --- the stopped server ------------------------------------------------------------------------
@contextlib.contextmanager
def _server_stopped(
    local: LocalNeo4j, *, force: bool, ready_check: ReadyCheck, doing: str
) -> Generator[bool]:
    """The server stopped for the block (yields whether it ran); started again afterwards,
    also when the block fails, so the server is left as it was found."""
    status = local.status()
    if status.running and not force:
        raise BackupRefused(
            f"the managed Neo4j is running (pid {status.pid}), and Neo4j Community can {doing} "
            "only a stopped database: stop it with `graphmem neo4j stop`, or pass --force to "
            "stop it for this and start it again"
        )
    if status.running:
        local.progress(f"stopping the managed Neo4j (pid {status.pid}) for the {doing}")
        local.stop()
    try:
        with local.start_lock():  # nothing starts the server while the admin tool works
            if local.status().running:
                raise BackupRefused(
                    "the managed Neo4j was started meanwhile; stop it and run this again"
                )
            yield status.running
    finally:
        if status.running:
            local.progress("starting the managed Neo4j again")
            local.start(ready_check=ready_check)


def _holds_database(local: LocalNeo4j, database: str) -> bool:
    folder = local.data_dir / "data" / "databases" / database
    return folder.is_dir() and any(folder.iterdir())


@contextlib.contextmanager
def _kept_aside(local: LocalNeo4j, database: str) -> Generator[None]:
    """The database being replaced, moved aside for the load and put back if the load fails
    (a truncated dump fails half-way): a failed restore leaves the database as it was."""
    aside = local.data_dir / "before-restore"
    if aside.exists():
        raise BackupRefused(
            f"{aside} holds the database an interrupted restore replaced: move its folders "
            f"back under {local.data_dir / 'data'} or delete it, then run this again"
        )
    moves = [
        (folder, aside / kind)
        for kind in ("databases", "transactions")
        if (folder := local.data_dir / "data" / kind / database).exists()
    ]
    for folder, kept in moves:
        kept.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        folder.rename(kept)
    try:
        yield
    except BaseException:
        for folder, kept in moves:
            shutil.rmtree(folder, ignore_errors=True)  # what the failed load left
            kept.rename(folder)
        shutil.rmtree(aside, ignore_errors=True)
        raise
    shutil.rmtree(aside, ignore_errors=True)


# --- the admin tool ------------------------------------------------------------------------
def _admin(local: LocalNeo4j, *arguments: str) -> None:
    """Run Neo4j's admin command line on the managed install and configuration."""
    settings = local.settings
    java = find_java(settings.java_home).executable
    home = assemble(
        local.lock,
        settings.cache_dir.expanduser(),
        settings.maven_repository,
        local.progress,
        settings.ca_file,
    )
    conf_dir = local.write_config()  # the folders and ports the server itself uses
    result = subprocess.run(
        [
            str(java),
            "-cp",
            f"{home}/lib/*",
            f"-Dbasedir={home}",
            local.lock.admin_class,
            *arguments,
        ],
        env={**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(conf_dir)},
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise BackupFailed(f"neo4j-admin {' '.join(arguments[:2])} failed: {_admin_error(result)}")


def _admin_error(result: subprocess.CompletedProcess[str]) -> str:
    """The admin tool's own reason, on one line (it prints a stack trace after it)."""
    lines: list[str] = []
    for line in (result.stderr + result.stdout).splitlines():
        line = line.strip()
        if line and not line.startswith(NOISE) and line not in lines:
            lines.append(line)
    reason = " ".join(lines)[-ADMIN_OUTPUT_TAIL:] or f"exit code {result.returncode}"
    if "recover" in reason.lower():
        reason += (
            " (the server was not stopped cleanly: start and stop it once, "
            "`graphmem neo4j start` then `graphmem neo4j stop`, and run this again)"
        )
    return reason


# --- the backup folder -----------------------------------------------------------------------
def _dump_in(source: Path, database: str) -> Path:
    dump = source / f"{database}.dump" if source.is_dir() else source
    if not dump.is_file():
        raise ConfigurationError(
            f"no backup at {source}: --from takes a folder `graphmem neo4j backup` wrote "
            f"(holding {database}.dump) or a .dump file"
        )
    return dump


def _verified_manifest(dump: Path) -> BackupManifest | None:
    """The manifest next to ``dump`` with the dump checked against it; None without one
    (a dump made by neo4j-admin itself)."""
    path = dump.parent / MANIFEST
    if not path.is_file():
        return None
    try:
        manifest = BackupManifest.model_validate_json(path.read_text())
    except ValueError as error:
        raise BackupFailed(f"{path} is not a graphmem backup manifest: {error}") from error
    if dump.stat().st_size != manifest.size or sha256_of(dump) != manifest.sha256:
        raise BackupFailed(
            f"{dump} does not match its {MANIFEST} (size or SHA-256): the backup is incomplete "
            "or damaged; restore another one"
        )
    return manifest


@contextlib.contextmanager
def _as_named_dump(dump: Path, database: str) -> Generator[Path]:
    """A folder holding the dump as ``<database>.dump``, as the admin tool looks for it."""
    if dump.name == f"{database}.dump":
        yield dump.parent
        return
    with tempfile.TemporaryDirectory(prefix="graphmem-restore-") as folder:
        os.symlink(dump, Path(folder) / f"{database}.dump")
        yield Path(folder)


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)


# --- the history key ---------------------------------------------------------------------------
def _history_key_id(settings: Settings) -> str | None:
    path = settings.history_key_path
    if not path.exists():
        return None
    try:
        return keys.load(path).key_id
    except ConfigurationError:  # unreadable or open to others: doctor says so
        return None


def _key_notes(settings: Settings, manifest: BackupManifest | None) -> list[str]:
    """What the operator must do about the history key for the restored history to verify."""
    if manifest is None or manifest.history_key_id is None:
        return []
    current = _history_key_id(settings)
    if current == manifest.history_key_id:
        return []
    have = f"holds key id {current}" if current else "holds no usable key"
    return [
        f"the backup's history was keyed with key id {manifest.history_key_id}, but "
        f"{settings.history_key_path} {have}: put that key back (GRAPHMEM_HISTORY_KEY_FILE) "
        "before graphmem serve writes, or its writes are refused"
    ]


# --- the command line ------------------------------------------------------------------------
def command(
    settings: Settings, action: str, path: Path | None, *, force: bool, say: Callable[[str], None]
) -> str:
    """``graphmem neo4j backup --to DIR`` / ``restore --from DIR``: what to print."""
    from graphmem.store import ping_sync  # the store is needed only to restart the server

    option = "--to" if action == "backup" else "--from"
    if path is None:
        raise ConfigurationError(f"graphmem neo4j {action} needs {option} FOLDER")
    local = LocalNeo4j(settings, progress=say)
    if settings.neo4j_uri:
        say(f"note: NEO4J_URI is set; this {action}s the managed Neo4j in {local.data_dir}")
    if action == "backup":
        return backup(local, path, force=force, ready_check=ping_sync).describe()
    return restore(local, path, force=force, ready_check=ping_sync).describe()
