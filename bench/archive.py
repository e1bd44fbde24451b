"""Raw-archive figures: archive_turns ingest rate and search_raw latency on LoCoMo.

    python -m bench.archive --locomo DIR          # 200 searches (DIR, or GRAPHMEM_LOCOMO_DIR)
    python -m bench.archive --locomo DIR --quick  # 50 searches

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder), in a scratch
tenant (purged afterwards). The LoCoMo files are read in place, never copied.

(a) Ingest: every session of every conversation is one archive_turns call (the domain
    function, gate included) with project = the file's stem, session_ref = ``session_<N>``,
    host ``locomo``, source_root ``bench``; turn k of a session is stamped at the session's
    date plus k seconds, role user for speaker_a and assistant for speaker_b, content the
    turn's text (plus the image caption). Reported per conversation and overall: turns, calls,
    wall time, turns/s. Then the whole ingest again: every turn is a duplicate (dedupe rate).
(b) search_raw: the conversations' QA questions (in file order, cycled), each searched in its
    own conversation's project, limit 10, one at a time; p50/p95 and the mean hit count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.harness import bench_store, quantile_ms, say, scratch_tenant
from bench.locomo import DATA_ENV, data_files, session_date
from graphmem.archive import service as archive
from graphmem.archive.models import ArchiveTurnsRequest, SearchRawRequest, TurnIn
from graphmem.store import Store


def conversation_requests(path: Path) -> list[ArchiveTurnsRequest]:
    data = json.loads(path.read_text())
    speaker_a = data["speaker_a"]
    requests = []
    n = 1
    while f"session_{n}_date_time" in data:
        turns_raw = data.get(f"session_{n}") or []
        start = session_date(data[f"session_{n}_date_time"])
        turns = []
        for k, item in enumerate(turns_raw):
            text = item["text"]
            if item.get("blip_caption"):
                text += f" [shares {item['blip_caption']}]"
            turns.append(
                TurnIn(
                    role="user" if item["speaker"] == speaker_a else "assistant",
                    content=text,
                    ts=start + timedelta(seconds=k),
                )
            )
        if turns:
            requests.append(
                ArchiveTurnsRequest(
                    project=path.stem,
                    session_ref=f"session_{n}",
                    host="locomo",
                    source_root="bench",
                    turns=turns,
                )
            )
        n += 1
    return requests


def questions(path: Path) -> list[str]:
    return [qa["question"] for qa in json.loads(path.read_text()).get("qa", [])]


async def run(store: Store, files: list[Path], searches: int) -> None:
    async with scratch_tenant(store, "archive") as tenant:
        say("(a) archive_turns ingest (one call per LoCoMo session)")
        say(f"{'conversation':>12} {'turns':>6} {'calls':>5} {'seconds':>8} {'turns/s':>8}")
        total_turns, total_seconds = 0, 0.0
        all_requests = []
        for path in files:
            requests = conversation_requests(path)
            all_requests.append(requests)
            turns = sum(len(r.turns) for r in requests)
            began = time.perf_counter()
            for request in requests:
                result = await archive.archive_turns(store.of(tenant), request)
                assert result.stored == len(request.turns) - result.duplicates
            seconds = time.perf_counter() - began
            total_turns += turns
            total_seconds += seconds
            say(
                f"{path.stem:>12} {turns:>6} {len(requests):>5} {seconds:>8.2f} "
                f"{turns / seconds:>8.0f}"
            )
        say(
            f"{'overall':>12} {total_turns:>6} {'':>5} {total_seconds:>8.2f} "
            f"{total_turns / total_seconds:>8.0f}"
        )

        began = time.perf_counter()
        duplicates = 0
        for requests in all_requests:
            for request in requests:
                duplicates += (await archive.archive_turns(store.of(tenant), request)).duplicates
        seconds = time.perf_counter() - began
        say(
            f"re-ingest: {duplicates} of {total_turns} turns duplicates, "
            f"{total_turns / seconds:.0f} turns/s"
        )

        say(f"(b) search_raw, {searches} QA questions, limit 10, in their conversation")
        pool = [(path.stem, q) for path in files for q in questions(path)]
        timings: list[float] = []
        hits: list[int] = []
        for i in range(searches):
            project, question = pool[i % len(pool)]
            request = SearchRawRequest(query=question[:1000], project=project, limit=10)
            began = time.perf_counter()
            result = await archive.search_raw(store.of(tenant), request)
            timings.append(time.perf_counter() - began)
            hits.append(result.count)
        say(
            f"search_raw p50 {quantile_ms(timings, 50):.1f} ms, p95 "
            f"{quantile_ms(timings, 95):.1f} ms, mean hits {statistics.mean(hits):.1f}"
        )


async def main(arguments: Any, files: list[Path]) -> None:
    searches = 50 if arguments.quick else 200
    async with bench_store() as store:
        await run(store, files, searches)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Raw-archive ingest and search figures.")
    parser.add_argument("--locomo", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    parser.add_argument("--quick", action="store_true")
    parsed = parser.parse_args()
    asyncio.run(main(parsed, data_files(parsed.locomo)))
