"""Start, stop and inspect the managed local Neo4j.

Layout of a data folder (persistent for users, temporary for tests):

    <data_dir>/conf/neo4j.conf     written on every start (ports may change)
    <data_dir>/data, logs, run     Neo4j's own folders
    <data_dir>/state.json          pid and ports of the running server
    <data_dir>/auth.secret         generated password (mode 0600) unless NEO4J_PASSWORD is set
                                   (auth_secret.py)

The jars live once per machine in the cache folder (see ``assemble``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from graphmem.browser.served import browser_settings, write_browser_jar
from graphmem.core.errors import DatabaseStartFailed, GraphmemError
from graphmem.core.settings import Settings
from graphmem.localdb.assemble import assemble, install_dir, is_assembled
from graphmem.localdb.auth_secret import drop_unusable, random_password, stored_password
from graphmem.localdb.initial_password import write_initial_password
from graphmem.localdb.java import find_java
from graphmem.localdb.jvm import (
    JVM_FLAGS,
    ClassSharing,
    class_path,
    class_sharing,
    drop_archive,
    keep_archive,
    refused_archive,
)
from graphmem.localdb.lockfile import LockFile, load_lock
from graphmem.localdb.ports import kept_ports, ports_for_start
from graphmem.localdb.processes import is_our_process, pid_alive, port_answers
from graphmem.localdb.start_report import StartReport, Stopwatch, add_neo4j_phases

PASSWORD_MARKER = ".graphmem-password-set"  # noqa: S105  (in data/: auth.ini is written)
READY_POLL = 0.1  # seconds between checks whether Bolt answers: each wait is a start slower
EXIT_CODES = {1: "the web server failed", 2: "the database failed", 3: "invalid configuration"}
REPLAN_AT_MOST_EVERY = "5m"  # a plan follows a growing graph within minutes, not every 10 s
_random_password = random_password  # tests/app/test_settings.py reads it here


class _State(BaseModel):
    pid: int
    bolt_port: int
    http_port: int
    version: str
    home: str
    started_at: float
    cds_dump: str | None = None  # the class archive this run writes when it stops (jvm.py)


@dataclass(frozen=True)
class LocalStatus:
    running: bool
    version: str
    data_dir: Path
    bolt_uri: str
    browser_url: str
    pid: int | None = None
    home: Path | None = None
    password_source: str = "from NEO4J_PASSWORD"  # noqa: S105  (a description, no secret)
    ports_note: str | None = None  # the ports graphmem chose for the folder (ports.py)

    def describe(self) -> str:
        ports = f"\n  ports:    {self.ports_note}" if self.ports_note else ""
        if not self.running:
            return f"Neo4j {self.version}: not running (data folder {self.data_dir}){ports}"
        return (
            f"Neo4j {self.version} Community: running, pid {self.pid}\n"
            f"  bolt:     {self.bolt_uri}\n"
            f"  browser:  {self.browser_url}\n"
            f"  data:     {self.data_dir}\n"
            f"  install:  {self.home}\n"
            f"  login:    user neo4j, password {self.password_source}{ports}"
        )


ReadyCheck = Callable[[str, str, str], None]


class LocalNeo4j:
    """One managed Neo4j server per data folder."""

    def __init__(
        self,
        settings: Settings,
        *,
        lock: LockFile | None = None,
        progress: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.settings = settings
        self.lock = lock or load_lock()
        self.progress = progress
        self.data_dir = settings.data_dir.expanduser().resolve()
        self.ports = kept_ports(settings, self.data_dir)  # a start may choose others (ports.py)

    # --- paths and credentials ---------------------------------------------------------------
    @property
    def state_path(self) -> Path:
        return self.data_dir / "state.json"

    @property
    def user(self) -> str:
        return "neo4j"  # the initial admin user of a fresh Neo4j

    def password(self) -> str:
        if self.settings.neo4j_password is not None:
            return self.settings.neo4j_password.get_secret_value()
        return stored_password(self.data_dir)

    # --- status ----------------------------------------------------------------------------
    def _read_state(self) -> _State | None:
        try:
            return _State.model_validate_json(self.state_path.read_text())
        except (OSError, ValueError):
            return None

    def status(self) -> LocalStatus:
        state = self._read_state()
        running = state is not None and is_our_process(state.pid, state.home)
        kept = kept_ports(self.settings, self.data_dir)
        bolt = state.bolt_port if state and running else kept.bolt
        http = state.http_port if state and running else kept.http
        return LocalStatus(
            running=running,
            version=self.lock.neo4j_version,
            data_dir=self.data_dir,
            bolt_uri=f"bolt://127.0.0.1:{bolt}",
            browser_url=f"http://127.0.0.1:{http}/browser/",
            pid=state.pid if state and running else None,
            ports_note=kept.note(),
            home=Path(state.home) if state and running else None,
            password_source=(
                "from NEO4J_PASSWORD"
                if self.settings.neo4j_password is not None
                else f"in {self.data_dir / 'auth.secret'}"
            ),
        )

    # --- start -------------------------------------------------------------------------------
    def start(
        self, ready_check: ReadyCheck, before_spawn: Callable[[], None] = lambda: None
    ) -> tuple[LocalStatus, bool]:
        """Start the server unless it runs already; returns (status, started_now). A start
        times its phases (start_report.py): in the log, and in last-start.json.
        ``before_spawn`` runs just before the JVM is launched and may raise to call the start
        off (connect.py: the early start of a serve that refused)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.start_lock():
            current = self.status()
            if current.running:
                return current, False
            self.state_path.unlink(missing_ok=True)
            self._check_password()  # before anything runs: a refusal costs nothing
            fresh = not (self.data_dir / "data" / "databases").exists()
            watch = Stopwatch(StartReport(started_at=time.time(), fresh=fresh))
            java = find_java(self.settings.java_home)
            self.ports = ports_for_start(self.settings, self.data_dir, self.progress)
            watch.lap("java")
            cache = self.settings.cache_dir.expanduser()
            downloaded = not is_assembled(install_dir(cache, self.lock))
            home = assemble(
                self.lock,
                self.settings.cache_dir.expanduser(),
                self.settings.maven_repository,
                self.progress,
                self.settings.ca_file,
            )
            watch.lap("jars")
            conf_dir = self.write_config()
            write_browser_jar(home, conf_dir, self.settings.tenant)
            self._set_initial_password()
            watch.lap("config")
            record = not downloaded  # the first start is the newcomer's: no archive recorded
            self._run(
                java.executable, home, conf_dir, watch.report, ready_check, before_spawn, record
            )
            watch.report.save(self.data_dir)
            self.progress(f"start phases: {watch.report.line()}")
            return self.status(), True

    def _run(
        self,
        java: Path,
        home: Path,
        conf_dir: Path,
        report: StartReport,
        ready_check: ReadyCheck,
        before_spawn: Callable[[], None],
        record: bool = True,
    ) -> None:
        """Spawn Neo4j and wait until Bolt answers; its phases into ``report``. The class
        archive only ever costs its speed-up: a JVM that refuses it is started once more
        without it, the archive dropped (jvm.py); ``record`` False records none."""
        cache = self.settings.cache_dir.expanduser()
        sharing = class_sharing(java, self.lock.neo4j_version, cache, home, record)
        before_spawn()
        if self._launch(java, home, conf_dir, sharing, report, ready_check):
            return
        self.progress("the JVM refused the class archive: dropped, starting without it")
        drop_archive(sharing)
        before_spawn()
        self._launch(java, home, conf_dir, ClassSharing(), report, ready_check)

    def _launch(
        self,
        java: Path,
        home: Path,
        conf_dir: Path,
        sharing: ClassSharing,
        report: StartReport,
        ready_check: ReadyCheck,
    ) -> bool:
        """One JVM, waited for until Bolt answers: True; False if it exited refusing the
        class archive ``sharing`` gave it."""
        console = self._console_log()
        offset = console.stat().st_size if console.exists() else 0
        jars = ":".join(map(str, class_path(home, conf_dir)))
        spawned_at = time.time()
        process = self._spawn(java, home, conf_dir, [*sharing.flags, "-cp", jars])
        state = _State(
            pid=process.pid,
            bolt_port=self.ports.bolt,
            http_port=self.ports.http,
            version=self.lock.neo4j_version,
            home=str(home),
            started_at=spawned_at,
            cds_dump=str(sharing.dumping) if sharing.dumping else None,
        )
        self.state_path.write_text(state.model_dump_json())
        try:
            self._wait_until_ready(process, ready_check)
        except DatabaseStartFailed:
            if sharing.flags and refused_archive(console, offset):
                return False
            raise
        add_neo4j_phases(report, console, offset, spawned_at, time.time())
        return True

    @contextlib.contextmanager
    def start_lock(self) -> Generator[None]:
        with (self.data_dir / ".start.lock").open("w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def write_config(self) -> Path:
        conf_dir = self.data_dir / "conf"
        conf_dir.mkdir(parents=True, exist_ok=True)
        for sub in ("data", "logs", "run", "import"):
            (self.data_dir / sub).mkdir(exist_ok=True)
        s = self.settings
        lines = {
            "server.default_listen_address": "127.0.0.1",
            "server.default_advertised_address": "127.0.0.1",
            "server.bolt.listen_address": f"127.0.0.1:{self.ports.bolt}",
            "server.bolt.advertised_address": f"127.0.0.1:{self.ports.bolt}",
            "server.http.listen_address": f"127.0.0.1:{self.ports.http}",
            "server.http.advertised_address": f"127.0.0.1:{self.ports.http}",
            "server.https.enabled": "false",
            "server.memory.heap.initial_size": s.local_heap,
            "server.memory.heap.max_size": s.local_heap,
            "server.memory.pagecache.size": s.local_pagecache,
            "dbms.usage_report.enabled": "false",
            "dbms.security.auth_enabled": "true",
            # as few log files as Neo4j allows, small and pruned often: what an erasure
            # took leaves the log soon after (localdb/log_push.py)
            "db.tx_log.rotation.retention_policy": s.local_tx_log_retention,
            "db.tx_log.rotation.size": s.local_tx_log_rotation,
            "db.checkpoint.interval.time": s.local_checkpoint_interval,
            # not each 10 s: inside a write batch, on a young graph (docs/operations.md)
            "dbms.cypher.min_replan_interval": REPLAN_AT_MOST_EVERY,
            # Bolt waits 5 s twice on shutdown for connections that are already gone.
            "internal.server.bolt.connection_shutdown_wait_time": "1s",
            "internal.server.bolt.thread_pool_shutdown_wait_time": "1s",
            "server.directories.data": str(self.data_dir / "data"),
            "server.directories.logs": str(self.data_dir / "logs"),
            "server.directories.run": str(self.data_dir / "run"),
            "server.directories.import": str(self.data_dir / "import"),
            **browser_settings(self.ports.http),
        }
        text = "# Written by graphmem on every start; edit graphmem settings instead.\n"
        text += "".join(f"{key}={value}\n" for key, value in lines.items())
        (conf_dir / "neo4j.conf").write_text(text)
        return conf_dir

    def _check_password(self) -> None:
        """An unusable auth.secret (an interrupted first start): replaced while no database
        was created with it, auth.ini too; refused once one was (auth_secret.py)."""
        if self.settings.neo4j_password is None and drop_unusable(self.data_dir):
            self.progress(f"{self.data_dir / 'auth.secret'} held no password: a new one")
            (self.data_dir / "data" / PASSWORD_MARKER).unlink(missing_ok=True)

    def _set_initial_password(self) -> None:
        """On a fresh folder only: the system database reads it when it is created."""
        marker = self.data_dir / "data" / PASSWORD_MARKER
        if not marker.exists():
            write_initial_password(self.data_dir / "data", self.password())  # on disk first
            marker.write_text("")

    def _spawn(
        self, java: Path, home: Path, conf_dir: Path, class_flags: list[str]
    ) -> subprocess.Popen[bytes]:
        heap = self.settings.local_heap
        command = [
            str(java),
            f"-Xms{heap}",
            f"-Xmx{heap}",
            *JVM_FLAGS,
            *class_flags,  # the class path (jvm.class_path) and its archive
            self.lock.entry_class,
            f"--home-dir={home}",
            f"--config-dir={conf_dir}",
            "--console-mode",
        ]
        log = (self.data_dir / "logs" / "console.log").open("ab")
        with log:
            return subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                cwd=self.data_dir,
                start_new_session=True,  # survives the starting process
            )

    def _wait_until_ready(self, process: subprocess.Popen[bytes], ready: ReadyCheck) -> None:
        # Not self.status(): its liveness check reaps an exited child with waitpid, and then
        # process.poll() can only report exit code 0 instead of the server's own code.
        bolt_uri = f"bolt://127.0.0.1:{self.ports.bolt}"
        deadline = time.monotonic() + self.settings.local_start_timeout
        last_error = "no answer yet"
        while time.monotonic() < deadline:
            code = process.poll()
            if code is not None:
                self.state_path.unlink(missing_ok=True)
                reason = EXIT_CODES.get(code, f"exit code {code}")
                raise DatabaseStartFailed(
                    f"Neo4j stopped during start ({reason}). Last lines of "
                    f"{self._console_log()}:\n{self._log_tail()}"
                )
            if port_answers(self.ports.bolt):
                try:
                    ready(bolt_uri, self.user, self.password())
                    return
                except GraphmemError as error:
                    last_error = error.message
            time.sleep(READY_POLL)
        self.stop()
        raise DatabaseStartFailed(
            f"Neo4j did not answer on {bolt_uri} within "
            f"{self.settings.local_start_timeout:.0f} s ({last_error}); it was stopped. "
            f"See {self._console_log()}; raise GRAPHMEM_LOCAL_START_TIMEOUT on slow machines."
        )

    def _console_log(self) -> Path:
        return self.data_dir / "logs" / "console.log"

    def _log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self._console_log().read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    # --- stop --------------------------------------------------------------------------------
    def stop(self, timeout: float = 60.0, keep_class_archive: bool = True) -> bool:
        """Stop the server (SIGTERM, then SIGKILL after ``timeout``); False if none ran. A
        server stopped mid-start dumps only the classes loaded so far: ``keep_class_archive``
        False drops them."""
        state = self._read_state()
        if state is None or not is_our_process(state.pid, state.home):
            self.state_path.unlink(missing_ok=True)
            return False
        os.kill(state.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and pid_alive(state.pid):
            time.sleep(0.2)
        if pid_alive(state.pid):
            os.kill(state.pid, signal.SIGKILL)
        elif state.cds_dump:  # a clean exit wrote it whole
            keep_archive(Path(state.cds_dump), keep=keep_class_archive)
        self.state_path.unlink(missing_ok=True)
        return True
