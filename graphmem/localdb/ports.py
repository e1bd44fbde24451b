"""The loopback ports of a managed data folder: the defaults, or free ones chosen once.

Why: Neo4j Desktop or a container on 7687/7474 is common on exactly the machines graphmem is
installed on. A folder whose ports were not set explicitly and whose defaults are taken starts
on free loopback ports instead, says so, and keeps them in ``<data_dir>/ports.json`` (the next
start uses them again, so the Browser's address stays the same). Ports set explicitly
(``GRAPHMEM_LOCAL_BOLT_PORT`` / ``GRAPHMEM_LOCAL_HTTP_PORT``) are the operator's: taken, they
refuse with the line naming the setting.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from graphmem.core.errors import PortInUse
from graphmem.core.settings import Settings
from graphmem.localdb.processes import require_free_port

PORTS_FILE = "ports.json"
EXPLICIT = ("local_bolt_port", "local_http_port")


@dataclass(frozen=True)
class Ports:
    bolt: int
    http: int
    chosen: bool = False  # chosen by graphmem: the defaults were taken when the folder started

    def note(self) -> str | None:
        if not self.chosen:
            return None
        return (
            f"bolt {self.bolt}, http {self.http}: chosen because the default ports were taken "
            f"(kept in {PORTS_FILE}; set GRAPHMEM_LOCAL_BOLT_PORT / _HTTP_PORT to choose)"
        )


def kept_ports(settings: Settings, data_dir: Path) -> Ports:
    """The ports the folder uses: each set explicitly as set, else as chosen once, else the
    default."""
    configured = Ports(settings.local_bolt_port, settings.local_http_port)
    kept = _read_kept(data_dir)
    if kept is None:
        return configured
    explicit = settings.model_fields_set
    bolt = configured.bolt if "local_bolt_port" in explicit else kept.bolt
    http = configured.http if "local_http_port" in explicit else kept.http
    if bolt == http:  # an explicit port equal to a kept one: the settings stand
        return configured
    return Ports(bolt, http, chosen=(bolt, http) != (configured.bolt, configured.http))


def _read_kept(data_dir: Path) -> Ports | None:
    try:
        kept = json.loads((data_dir / PORTS_FILE).read_text())
        bolt, http = int(kept["bolt"]), int(kept["http"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if bolt == http or not (1 <= bolt <= 65535 and 1 <= http <= 65535):
        return None  # a hand-edited file: the defaults, then free ones if taken
    return Ports(bolt, http, chosen=True)


def ports_for_start(settings: Settings, data_dir: Path, say: Callable[[str], None]) -> Ports:
    """The ports a start binds: those the folder uses when free; a taken one set explicitly
    refuses, naming its setting; another taken one is replaced by a free loopback port,
    chosen now and kept."""
    ports = kept_ports(settings, data_dir)
    chosen = {"bolt": ports.bolt, "http": ports.http}
    taken = [(name, port) for name, port in chosen.items() if not is_free(port)]
    if not taken:
        return ports
    for name, port in taken:
        if f"local_{name}_port" in settings.model_fields_set:
            require_free_port(name, port)  # raises PortInUse naming the setting
    for name, port in taken:
        if is_free(port):  # freed meanwhile
            continue
        other = chosen["http" if name == "bolt" else "bolt"]
        chosen[name] = free_port(avoid=other)
    now = Ports(chosen["bolt"], chosen["http"], chosen=True)
    busy = ", ".join(f"{port} ({name})" for name, port in taken)
    say(f"port {busy} in use by another program: this data folder now uses {now.note()}")
    _keep(data_dir, chosen, say)  # a failure to keep them is said after, as its correction
    return now


def _keep(data_dir: Path, chosen: dict[str, int], say: Callable[[str], None]) -> None:
    """The chosen ports in ports.json, whole or not at all (a start killed mid-write leaves the
    previous file); a folder that cannot be written keeps none and starts anyway."""
    partial = data_dir / f"{PORTS_FILE}.{os.getpid()}.tmp"
    try:
        partial.write_text(json.dumps(chosen) + "\n")
        os.replace(partial, data_dir / PORTS_FILE)
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink()
        say(f"the chosen ports could not be kept ({error.strerror}): the next start chooses again")


def is_free(port: int) -> bool:
    try:
        require_free_port("bolt", port)
    except PortInUse:  # bound by another program
        return False
    return True


def free_port(avoid: int = 0) -> int:
    """A loopback port nothing listens on now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    return port if port != avoid else free_port()
