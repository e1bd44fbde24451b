"""bench.scale's loader: one tenant grown by bulk UNWIND writes (bench/cypher ``scale/`` and
``history/``) shaped like the tools' own, and the reproducible Zipf texts it writes.

Facts (each the current fact of its own key), keyed history events, decisions with one reopen
rule each, enrichable chunks; for bench.sizes also archived sessions with their turns and
curated memories (``grow_memories``). Shared with bench.sizes, bench.tenants and bench.transfer.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.chain import load_events
from bench.harness import BENCH_CATALOG
from graphmem.archive.turns import EMPTY_HASH, fold_hash, sha256, turn_digest, turn_lexical
from graphmem.core.ids import new_id
from graphmem.core.keys import ChainKey
from graphmem.decisions.models import RecordDecisionRequest
from graphmem.decisions.service import _alternatives_and_rules
from graphmem.history.chain import GENESIS_HASH
from graphmem.history.rows import HeadRow
from graphmem.retrieval.indexing import memory_lexical
from graphmem.retrieval.rows import MemorySearchFields
from graphmem.store import QueryCatalog, Store, shaped

PROJECT = "scale"
BATCH = 5_000
MAX_DECISIONS = 10**5
MAX_CHUNKS = 10**4
TURNS_PER_SESSION = 20  # one archive_turns call's worth
SESSION_EVERY = 4  # every 4th memory was saved in an archived session (IN_SESSION)
MEMORY_TYPES = ("decision", "bugfix", "discovery", "preference", "procedure", "note")
BREACHING = 0.02  # share of rules whose watched value breaches
DEAD = 0.10  # share of rules that cannot fire (contains on a number: incomparable_types)


# --- the loader (shared with the speed issue) ------------------------------------------------
class Loader:
    """Grows one tenant by bulk UNWIND writes; remembers how much it holds."""

    def __init__(self, store: Store, tenant: str, key: ChainKey) -> None:
        self.store = store
        self.seeder = copy.copy(store)
        self.seeder.catalog = QueryCatalog(BENCH_CATALOG)
        self.tenant, self.key = tenant, key
        self.facts = self.decisions = self.chunks = self.events = 0
        self.rng = random.Random(7)
        self.watched: list[int] = []  # the key index each loaded reopen rule watches
        self.memory_ids: list[str] = []  # memory i is memory_ids[i]
        self.turn_ids: list[str] = []
        self.session_ids: list[str] = []

    async def grow(self, facts: int, decisions: int, chunks: int) -> None:
        await self._facts(facts)
        await self._events(facts)
        await self._decisions(decisions)
        await self._chunks(chunks)

    async def _facts(self, target: int) -> None:
        start = datetime(2026, 1, 1, tzinfo=UTC)
        for offset in range(self.facts, target, BATCH):
            rows = []
            for i in range(offset, min(offset + BATCH, target)):
                value = i % 1000
                rows.append(
                    {
                        "id": new_id(),
                        "key_id": new_id(),
                        "key": key_name(i),
                        "value": float(value),
                        "value_json": json.dumps(value),
                        "at": (start + timedelta(seconds=i)).isoformat(),
                    }
                )
            await self.seeder.write(
                "scale/create_scale_facts", self.tenant, facts=rows, project=PROJECT
            )
        self.facts = max(self.facts, target)

    async def _events(self, target: int) -> None:
        """Bulk events up to ``target`` of them, chained after the head (the measured calls
        append real events in between)."""
        if target > self.events:
            [head] = shaped(HeadRow, await self.store.read("history/get_head", self.tenant))
            first = (head["revision"] or 0) + 1
            prev = head["last_hash"] or GENESIS_HASH
            count = target - self.events
            last = await load_events(self.seeder, self.tenant, self.key, first, count, prev)
            await self.seeder.write(
                "scale/set_scale_head",
                self.tenant,
                revision=first + count - 1,
                hash=last,
                key_id=self.key.key_id,
            )
            self.events = target

    async def _decisions(self, target: int) -> None:
        now = datetime.now(UTC).isoformat()
        for offset in range(self.decisions, target, BATCH):
            rows = [self._decision(i) for i in range(offset, min(offset + BATCH, target))]
            await self.seeder.write(
                "scale/create_scale_decisions",
                self.tenant,
                decisions=rows,
                project=PROJECT,
                owner=f"project:{PROJECT}",
                now=now,
            )
        self.decisions = max(self.decisions, target)

    def _decision(self, i: int) -> dict[str, Any]:
        # values are i % 1000 on key i: "greater_than 980" breaches for ~2% of the keys
        key = self.rng.randrange(self.facts)
        self.watched.append(key)
        bound = 1000 * (1 - BREACHING)
        rule = {"key": key_name(key), "operator": "greater_than", "value": bound}
        if self.rng.random() < DEAD:  # review_decisions lists these from state
            rule = {"key": key_name(key), "operator": "contains", "value": "x"}
        request = RecordDecisionRequest(
            project=PROJECT,
            title=f"decision {i}",
            choice="keep",
            alternatives=[{"title": "change", "reopen_when": [rule]}],  # type: ignore[list-item]
        )
        alternatives, rules = _alternatives_and_rules(request)
        return {
            "id": new_id(),
            "title": request.title,
            "alternatives": alternatives,
            "rules": rules,
        }

    async def _chunks(self, target: int) -> None:
        start = datetime(2026, 1, 1, tzinfo=UTC)
        for offset in range(self.chunks, target, BATCH):
            rows = []
            for i in range(offset, min(offset + BATCH, target)):
                body = (
                    f"Service {i} depends on queue {i % 97}; its latency budget is "
                    f"{100 + i % 400} ms. ENRICH_OK"
                )
                rows.append(
                    {
                        "id": new_id(),
                        "body": body,
                        "hash": hashlib.sha256(body.encode()).hexdigest(),
                        "at": (start + timedelta(seconds=i)).isoformat(),
                    }
                )
            await self.seeder.write(
                "scale/create_scale_chunks", self.tenant, chunks=rows, project=PROJECT
            )
        self.chunks = max(self.chunks, target)

    # --- memories and the raw archive (what save_memory and archive_turns write) ---------
    async def grow_memories(self, target: int) -> None:
        """Grow to ``target`` archived turns (in sessions of TURNS_PER_SESSION), ``target``
        curated memories (each the first version of its own topic) and ``target`` events."""
        await self._sessions(target)
        await self._memories(target)
        await self._events(target)

    async def _sessions(self, target: int) -> None:
        assert target % TURNS_PER_SESSION == 0, "turns come in whole sessions"
        per_batch = BATCH // TURNS_PER_SESSION
        first, last = len(self.session_ids), target // TURNS_PER_SESSION
        for offset in range(first, last, per_batch):
            rows = [self._session(n) for n in range(offset, min(offset + per_batch, last))]
            await self.seeder.write(
                "scale/create_scale_sessions", self.tenant, sessions=rows, project=PROJECT
            )

    def _session(self, n: int) -> dict[str, Any]:
        """Session n and its turns, as archive_turns stores one call of them (turn i is
        said at SCALE_START + i seconds, the session's turns at seq 0, 1, ...)."""
        turns = [self._turn(n * TURNS_PER_SESSION + seq, seq) for seq in range(TURNS_PER_SESSION)]
        digests = [turn_digest(t["role"], t["ts"], t["content_hash"]) for t in turns]
        session_id = new_id()
        self.session_ids.append(session_id)
        return {
            "id": session_id,
            "session_ref": f"scale-session-{n}",
            "first_ts": turns[0]["ts"],
            "last_ts": turns[-1]["ts"],
            "content_hash": fold_hash(EMPTY_HASH, digests),
            "turns": turns,
        }

    def _turn(self, i: int, seq: int) -> dict[str, Any]:
        at = SCALE_START + timedelta(seconds=i)
        content = turn_text(i)
        turn_id = new_id()
        self.turn_ids.append(turn_id)
        return {
            "id": turn_id,
            "role": "user" if seq % 2 == 0 else "assistant",
            "content": content,
            "lexical": turn_lexical(self.tenant, at, content),
            "embedding": None,
            "ts": at.isoformat(),
            "seq": seq,
            "content_hash": sha256(content),
        }

    async def _memories(self, target: int) -> None:
        for offset in range(len(self.memory_ids), target, BATCH):
            rows = [self._memory(i) for i in range(offset, min(offset + BATCH, target))]
            await self.seeder.write(
                "scale/create_scale_memories", self.tenant, memories=rows, project=PROJECT
            )

    def _memory(self, i: int) -> dict[str, Any]:
        memory_id = new_id()
        fields: MemorySearchFields = {
            "id": memory_id,
            "type": MEMORY_TYPES[i % len(MEMORY_TYPES)],
            "title": memory_title(i),
            "content": memory_text(i),
            "topic_key": topic_key(i),
            "tags": [],
        }
        in_session = i % SESSION_EVERY == 0 and i // TURNS_PER_SESSION < len(self.session_ids)
        self.memory_ids.append(memory_id)
        return {
            **fields,
            "lexical": memory_lexical(self.tenant, fields),
            "embedding": None,
            "session_id": self.session_ids[i // TURNS_PER_SESSION] if in_session else None,
            "revision": i + 1,  # nominal: the bulk events are not the memories' own
            "at": (SCALE_START + timedelta(seconds=i)).isoformat(),
        }


def key_name(i: int) -> str:
    return f"svc{i:07d}.latency_ms"


# --- bulk text: words drawn from a fixed Zipf vocabulary, reproducible from the index ------
SCALE_START = datetime(2026, 1, 1, tzinfo=UTC)
_SYLLABLES = "ka lo mi ne ru ta vo shi zen bar tor qui pel dra gon fi".split()  # noqa: SIM905
_COMMON = "the a of to and in is for on with that it as was at by".split()  # noqa: SIM905
VOCABULARY = (
    _COMMON
    + [a + b for a in _SYLLABLES for b in _SYLLABLES]
    + [a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in _SYLLABLES]
)
_ZIPF = list(itertools.accumulate(1 / rank for rank in range(1, len(VOCABULARY) + 1)))


def words_of(seed: int, count: int) -> list[str]:
    return random.Random(seed).choices(VOCABULARY, cum_weights=_ZIPF, k=count)


def memory_title(i: int) -> str:
    return " ".join(words_of(2 * i, 5)).capitalize()


def memory_text(i: int) -> str:
    """Memory i's content: 40 words (its title is the first five, capitalised)."""
    return " ".join(words_of(2 * i, 40)) + "."


def topic_key(i: int) -> str:
    return f"topic/{i:07d}"


def turn_text(i: int) -> str:
    return " ".join(words_of(2 * i + 1, 30)) + "."
