"""bench.sizes' two axes: how each grows its tenant (bench/scale_loader.py's Loader, step by
step, each step timed) and the arguments of its measured tools, on random loaded keys, memories
and turns; each tool call timed alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any

import fastmcp

from bench.harness import say
from bench.scale import call_ok
from bench.scale_loader import (
    MEMORY_TYPES,
    PROJECT,
    Loader,
    key_name,
    memory_text,
    memory_title,
    topic_key,
)
from graphmem.store import Store

FACTS_PER_DECISION = 10
OBSERVED = 3  # memories per get_observations call
SEARCH_WORDS = 4

Timer = Callable[[], Awaitable[float]]  # one call; returns its seconds
Arguments = Callable[[], Awaitable[dict[str, Any]]]
Steps = Mapping[str, Callable[[], Awaitable[None]]]  # a load's steps, by name


# --- timing ----------------------------------------------------------------------------------
def tool_timer(client: fastmcp.Client[Any], tool: str, arguments: Arguments) -> Timer:
    """Times the tool call only: its arguments are made first (and may call other tools)."""

    async def run() -> float:
        given = await arguments()
        began = time.perf_counter()
        await call_ok(client, tool, given)
        return time.perf_counter() - began

    return run


async def load(store: Store, steps: Steps, what: str) -> None:
    began = time.perf_counter()
    parts = []
    for name, step in steps.items():
        started = time.perf_counter()
        await step()
        parts.append(f"{name} {time.perf_counter() - started:.0f} s")
    await store.write("store/await_indexes", "-")
    say(f"loaded {what} in {time.perf_counter() - began:.0f} s ({', '.join(parts)})")


# --- the facts axis --------------------------------------------------------------------------
async def current_fact(client: fastmcp.Client[Any], key: str) -> str | None:
    """The id of the key's current fact (None when it has none)."""
    state = await call_ok(client, "current_state", {"state_key": key, "project": PROJECT})
    answer = state.get("answer")
    return answer["id"] if answer else None


class FactPicks:
    """Arguments of the measured fact tools, on random loaded keys."""

    def __init__(self, client: fastmcp.Client[Any], loader: Loader) -> None:
        self.client, self.loader = client, loader
        self.rng = random.Random(3)
        self.governed: set[int] = set()

    def key(self) -> str:
        return key_name(self.rng.randrange(self.loader.facts))

    async def record(self) -> dict[str, Any]:
        return {"project": PROJECT, "key": self.key(), "value": self.rng.randrange(1000)}

    async def state(self) -> dict[str, Any]:
        return {"state_key": self.key(), "project": PROJECT}

    async def govern(self) -> dict[str, Any]:
        assert len(self.governed) < self.loader.facts, "every loaded key is governed already"
        while (i := self.rng.randrange(self.loader.facts)) in self.governed:
            pass
        self.governed.add(i)
        fact_id = await current_fact(self.client, key_name(i))
        assert fact_id is not None, key_name(i)
        return {"fact_id": fact_id, "action": "invalidate", "rationale": "bench.sizes"}

    async def impact(self) -> dict[str, Any]:
        fact_id = None
        while fact_id is None:  # a governed (invalidated) key has no current fact: another
            watched = self.rng.choice(self.loader.watched)
            fact_id = await current_fact(self.client, key_name(watched))
        return {"source_kind": "fact", "source_ref": fact_id}

    def timers(self) -> dict[str, Timer]:
        return {
            "record_fact": tool_timer(self.client, "record_fact", self.record),
            "current_state": tool_timer(self.client, "current_state", self.state),
            "govern_fact": tool_timer(self.client, "govern_fact", self.govern),
            "explain_impact": tool_timer(self.client, "explain_impact", self.impact),
        }


async def grow_facts(store: Store, loader: Loader, exponent: int, whose: str) -> None:
    size = 10**exponent
    steps = {
        "facts": partial(loader._facts, size),
        "events": partial(loader._events, size),
        "decisions": partial(loader._decisions, size // FACTS_PER_DECISION),
    }
    await load(store, steps, f"{whose} up to 10^{exponent} facts")


# --- the memories axis -----------------------------------------------------------------------
class MemoryPicks:
    """Arguments of the measured memory tools, on random loaded memories and turns."""

    def __init__(self, client: fastmcp.Client[Any], loader: Loader) -> None:
        self.client, self.loader = client, loader
        self.rng = random.Random(5)
        self.saves = 0

    def index(self) -> int:
        return self.rng.randrange(len(self.loader.memory_ids))

    async def save(self) -> dict[str, Any]:
        i, self.saves = self.index(), self.saves + 1
        return {
            "project": PROJECT,
            "type": MEMORY_TYPES[i % len(MEMORY_TYPES)],
            "title": memory_title(i),
            "content": f"{memory_text(i)} Revised {self.saves}.",
            "topic_key": topic_key(i),
        }

    async def observe(self) -> dict[str, Any]:
        return {"ids": self.rng.sample(self.loader.memory_ids, OBSERVED)}

    async def memory_timeline(self) -> dict[str, Any]:
        return {"anchor": self.loader.memory_ids[self.index()]}

    async def turn_timeline(self) -> dict[str, Any]:
        return {"anchor": self.rng.choice(self.loader.turn_ids), "source": "raw"}

    async def search(self) -> dict[str, Any]:
        words = memory_text(self.index()).rstrip(".").split()
        start = self.rng.randrange(len(words) - SEARCH_WORDS)
        return {"query": " ".join(words[start : start + SEARCH_WORDS]), "project": PROJECT}

    def timers(self) -> dict[str, Timer]:
        return {
            "save_memory": tool_timer(self.client, "save_memory", self.save),
            "get_observations": tool_timer(self.client, "get_observations", self.observe),
            "timeline (memory)": tool_timer(self.client, "timeline", self.memory_timeline),
            "timeline (raw)": tool_timer(self.client, "timeline", self.turn_timeline),
            "search": tool_timer(self.client, "search", self.search),
        }


async def grow_memories(store: Store, loader: Loader, exponent: int, whose: str) -> None:
    size = 10**exponent
    steps = {
        "turns": partial(loader._sessions, size),
        "memories": partial(loader._memories, size),
        "events": partial(loader._events, size),
    }
    await load(store, steps, f"{whose} up to 10^{exponent} memories and turns")
