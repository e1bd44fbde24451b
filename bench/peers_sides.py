"""bench.peers' data and sides: the LoCoMo turns and questions each side is given, and each
side's calls (what its write and its search send, how its answer names the turns) and tally
(latencies, recall, answer sizes, failures); the transport and write floors as sides too.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastmcp import Client
from fastmcp.client.client import CallToolResult
from mcp.types import TextContent

from bench.locomo import evidence_ids, sessions, turn_text

K = 10


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
