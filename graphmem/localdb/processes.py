"""Is a managed Neo4j alive, ours, and are its ports free or answering (server.py's checks)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from graphmem.core.errors import PortInUse


def pid_alive(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)  # reap it if it is our child
        if waited == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _is_zombie(pid)


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except (OSError, IndexError):
        return False


def is_our_process(pid: int, home: str) -> bool:
    """Alive and still the Neo4j we started (a reused pid is not)."""
    if not pid_alive(pid):
        return False
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not cmdline.exists():  # no procfs (macOS): trust the pid
        return True
    try:
        return f"--home-dir={home}".encode() in cmdline.read_bytes()
    except OSError:
        return False


def port_answers(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def require_free_port(name: str, port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # As a server would: connections lingering in TIME_WAIT do not make a port busy.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            setting = "GRAPHMEM_LOCAL_BOLT_PORT" if name == "bolt" else "GRAPHMEM_LOCAL_HTTP_PORT"
            raise PortInUse(
                f"port {port} ({name}) is already in use by another program; "
                f"free it or choose another port with {setting}."
            ) from error
