"""What an agent reads back: the answer size of each tool in a scripted agent session.

    python -m bench.agent_session --data DIR    # the LoCoMo folder (or GRAPHMEM_LOCOMO_DIR)

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder), in a scratch
tenant (purged afterwards), through an in-memory MCP client of the real server with the full
toolset and default arguments (what an agent sends when it does not ask for more). The session:
recall at start, three LoCoMo sessions archived, five facts recorded and read back (one
superseded), a decision with a reopen rule on one of them, two memories saved, the decisions
due for review, and ten searches with the conversation's own questions.

Prints, per tool, the calls and the median and largest answer (characters of text content, the
part a model reads), and the median over every call.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from fastmcp import Client

from bench.harness import bench_store, say, scratch_tenant
from bench.locomo import DATA_ENV, data_files, ingest
from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store

PROJECT = "agent-session"
SESSIONS_ARCHIVED = 3
SEARCHES = 10


class Recorder:
    """Calls tools and keeps the size of every answer's text content, per tool."""

    def __init__(self, client: Client[Any]) -> None:
        self.client = client
        self.sizes: dict[str, list[int]] = defaultdict(list)

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(tool, arguments)
        assert not result.is_error, (tool, result.content)
        text = sum(len(getattr(block, "text", "")) for block in result.content)
        self.sizes[tool].append(text)
        return result.structured_content or {}


async def script(agent: Recorder, conversation: Path) -> None:
    await agent.call(
        "recall_user_context", {"project": PROJECT, "query": "resume the release work"}
    )
    archive = _Archiving(agent)
    await ingest(archive, conversation)  # type: ignore[arg-type]  # the client's call_tool shape
    for n in range(5):
        fact = {"project": PROJECT, "key": f"service.{n}.p95_ms", "value": 100 + n}
        await agent.call("record_fact", fact)
    await agent.call("record_fact", {"project": PROJECT, "key": "service.0.p95_ms", "value": 180})
    for n in range(5):
        await agent.call("current_state", {"project": PROJECT, "state_key": f"service.{n}.p95_ms"})
    rule = {"key": "service.0.p95_ms", "operator": "greater_than", "value": 250, "unit": "ms"}
    await agent.call(
        "record_decision",
        {
            "project": PROJECT,
            "title": "Keep the synchronous API",
            "choice": "Serve requests synchronously",
            "rationale": "p95 is well under budget",
            "alternatives": [{"title": "Queue requests", "reopen_when": [rule]}],
            "depends_on": ["service.0.p95_ms"],
        },
    )
    for title in ("Release checklist", "Flaky test root cause"):
        await agent.call(
            "save_memory",
            {"project": PROJECT, "type": "lesson", "title": title, "content": f"{title}: notes."},
        )
    await agent.call("review_decisions", {"project": PROJECT})
    questions = json.loads(conversation.read_text())["qa"][:SEARCHES]  # noqa: ASYNC240
    project = f"locomo-{conversation.stem}"
    for qa in questions:
        await agent.call("search", {"query": qa["question"], "project": project})


class _Archiving:
    """The slice of a client ``bench.locomo.ingest`` uses, recording archive_turns answers and
    archiving only the first sessions."""

    def __init__(self, agent: Recorder) -> None:
        self.agent = agent

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> Any:
        if int(arguments["session_ref"].split("_")[1]) <= SESSIONS_ARCHIVED:
            await self.agent.call(tool, arguments)
        return _Ok()


class _Ok:
    is_error = False
    content: tuple[Any, ...] = ()


def report(sizes: dict[str, list[int]]) -> None:
    say(f"{'tool':<22} {'calls':>5} {'median':>7} {'largest':>8}  (characters of text content)")
    for tool, values in sizes.items():
        say(f"{tool:<22} {len(values):>5} {statistics.median(values):>7.0f} {max(values):>8}")
    every = [value for values in sizes.values() for value in values]
    say(f"{'every call':<22} {len(every):>5} {statistics.median(every):>7.0f} {max(every):>8}")
    say(f"total characters read back: {sum(every)}")


async def run(store: Store, conversation: Path) -> None:
    async with scratch_tenant(store, "session") as tenant:
        settings = Settings().model_copy(update={"tenant": tenant, "toolset": "full"})
        async with Client(create_server(store, settings)) as client:
            agent = Recorder(client)
            await script(agent, conversation)
    report(agent.sizes)


async def main() -> None:
    parser = argparse.ArgumentParser(description="Answer sizes in a scripted agent session")
    parser.add_argument("--data", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    parser.add_argument("--conversation", default="26")
    arguments = parser.parse_args()
    async with bench_store() as store:
        folder = data_files(arguments.data)[0].parent
        await run(store, folder / f"{arguments.conversation}.json")


if __name__ == "__main__":
    asyncio.run(main())
