"""Retrieval quality on LoCoMo: recall@k of the evidence turns, through the MCP tools.

    python -m bench.locomo --data DIR                          # full-text only
    GRAPHMEM_EMBEDDINGS=minilm python -m bench.locomo --data DIR

DIR holds the LoCoMo conversations (``*.json``); without --data, GRAPHMEM_LOCOMO_DIR names it.

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder), in a scratch
tenant (purged afterwards), through an in-memory MCP client of the real server. The files are
read in place, never copied.

Ingest: each conversation is its own project (``locomo-<file>``); each session is one
archive_turns call (session_ref ``session_<N>``), turn k stamped at the session's date plus k
seconds, content in the paper's text form ``<speaker> said, "<text>"`` plus the image caption
(the turn's date is indexed by graphmem itself). A turn's dia_id is recovered from its
(session_ref, seq).

Questions: every question with evidence is asked through ``search`` scoped to its
conversation's project, limit 50; the project holds no curated memory, so the ranked turns come
back as ``raw_hits``. Recall@k is the share of the question's evidence ids among the top k,
averaged over questions (the paper's metric), per category and overall, for each channel set:
full-text only, vector only, hybrid (full-text + vector) and hybrid + graph. Evidence quirks
(the data README): ids split on ';' and spaces, zero padding dropped, junk and unknown ids
dropped and counted; questions left without evidence are skipped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fastmcp import Client

from bench.harness import bench_store, quantile_ms, say, scratch_tenant
from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store

KS = (1, 5, 10, 25, 50)
# The release's category ids do not follow the paper's order (Section 4.1): 1 multi-hop,
# 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial, as the evaluation script of
# snap-research/locomo scores them (task_eval, its issues #6 and #29). The seven files agree:
# a 2 asks "when", a 3 needs knowledge beyond the talk ("Would Caroline likely..."), a 1
# carries several evidence turns, a 5 an adversarial answer; 192 / 214 / 66 / 563 / 312
# questions.
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
CATEGORY_ORDER = (4, 1, 2, 3, 5)  # the paper's order: single-hop, multi-hop, temporal, ...
DATA_ENV = "GRAPHMEM_LOCOMO_DIR"
CONFIGS = {
    "full-text": ["fulltext"],
    "full-text+graph": ["fulltext", "graph"],
    "vector": ["vector"],
    "hybrid": ["fulltext", "vector"],
    "hybrid+graph": ["fulltext", "vector", "graph"],
}
# The LoCoMo paper's DRAGON retriever on dialog turns, ACL 2024 version (Table 3, all ten
# conversations; the arXiv v1 figures, 58.8 / 67.5 / 79.9 / 84.8, were on a pre-release set).
DRAGON = {5: 56.7, 10: 66.2, 25: 76.7, 50: 82.7}
_DIA = re.compile(r"^D(\d+):(\d+)$")


WHERE_FROM = (
    "DIR holds LoCoMo conversations, a JSON file each (data/locomo10.zip of "
    "github.com/snap-research/locomo, ACL 2024; CC BY-NC 4.0, for benchmarks only)"
)


def data_files(folder: str | None) -> list[Path]:
    """The conversations in ``folder`` (--data, else GRAPHMEM_LOCOMO_DIR); a one-line exit
    when neither names a folder of them."""
    folder = folder or os.environ.get(DATA_ENV)
    if not folder:
        raise SystemExit(f"no LoCoMo data: {WHERE_FROM}; pass --data DIR or set {DATA_ENV}")
    files = sorted(Path(folder).glob("*.json"))
    if not files:
        raise SystemExit(f"no LoCoMo conversations (*.json) in {folder}: {WHERE_FROM}")
    return files


def session_date(text: str) -> datetime:
    """``1:56 pm on 8 May, 2023`` as a UTC instant."""
    return datetime.strptime(text, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def sessions(data: dict[str, Any]) -> list[tuple[int, datetime, list[dict[str, Any]]]]:
    found = []
    for key in data:
        match = re.fullmatch(r"session_(\d+)", key)
        if match and data[key]:
            n = int(match.group(1))
            found.append((n, session_date(data[f"session_{n}_date_time"]), data[key]))
    return sorted(found, key=lambda s: s[0])


def turn_text(item: dict[str, Any]) -> str:
    text = f'{item["speaker"]} said, "{item["text"]}"'
    if item.get("blip_caption"):
        text += f" and shared {item['blip_caption']}."
    return text


def evidence_ids(raw: list[str], known: set[str]) -> tuple[list[str], int]:
    """Normalised evidence ids that exist, and how many entries were dropped."""
    ids, dropped = [], 0
    for entry in raw:
        for part in re.split(r"[;\s]+", entry.strip()):
            if not part:
                continue
            match = _DIA.match(part)
            dia = f"D{int(match.group(1))}:{int(match.group(2))}" if match else None
            if dia in known:
                ids.append(dia)
            else:
                dropped += 1
    return list(dict.fromkeys(ids)), dropped


async def ingest(
    client: Client[Any], path: Path, write: bool = True
) -> tuple[str, dict[tuple[str, int], str]]:
    data = json.loads(path.read_text())  # noqa: ASYNC240 - a benchmark reads its data up front
    project = f"locomo-{path.stem}"
    dia_of: dict[tuple[str, int], str] = {}
    for n, start, items in sessions(data):
        ref = f"session_{n}"
        turns = [
            {
                "role": "user" if item["speaker"] == data["speaker_a"] else "assistant",
                "content": turn_text(item),
                "ts": (start + timedelta(seconds=k)).isoformat(),
            }
            for k, item in enumerate(items)
        ]
        if write:
            result = await client.call_tool(
                "archive_turns",
                {
                    "project": project,
                    "session_ref": ref,
                    "host": "locomo",
                    "source_root": "bench",
                    "turns": turns,
                },
            )
            assert not result.is_error, result.content
        for k, item in enumerate(items):
            dia_of[(ref, k)] = item["dia_id"]
    return project, dia_of


async def ask(
    client: Client[Any], project: str, question: str, channels: list[str]
) -> list[tuple[str, int]]:
    result = await client.call_tool(
        "search",
        {"query": question[:1000], "project": project, "limit": max(KS), "channels": channels},
    )
    assert not result.is_error, result.content
    content = result.structured_content or {}
    return [(hit["session_ref"], hit["seq"]) for hit in content.get("raw_hits", [])]


def category_rank(category: int) -> int:
    return CATEGORY_ORDER.index(category) if category in CATEGORY_ORDER else len(CATEGORY_ORDER)


def recall_row(label: str, scores: dict[int, list[float]]) -> str:
    cells = " ".join(f"{100 * statistics.mean(scores[k]):6.1f}" for k in KS)
    return f"{label:>14} {len(scores[KS[0]]):>5} {cells}"


async def run(store: Store, files: list[Path], configs: list[str], keep: str | None = None) -> None:
    if keep is not None:  # a tenant kept from an earlier run: ingest once, ask many times
        await run_in(store, keep, files, configs)
        return
    async with scratch_tenant(store, "locomo") as tenant:
        await run_in(store, tenant, files, configs)


async def run_in(store: Store, tenant: str, files: list[Path], configs: list[str]) -> None:
    settings = Settings().model_copy(update={"tenant": tenant, "toolset": "full"})
    async with Client(create_server(store, settings)) as client:
        say(f"embeddings: {settings.embeddings}")
        listed = await client.call_tool("list_raw_sessions", {"latest": 1})
        write = not (listed.structured_content or {}).get("sessions")
        conversations = []
        began = time.perf_counter()
        for path in files:
            project, dia_of = await ingest(client, path, write)
            conversations.append((path, project, dia_of))
        turns = sum(len(c[2]) for c in conversations)
        kept = "" if write else " (kept from an earlier run)"
        say(f"ingest: {turns} turns in {time.perf_counter() - began:.1f} s{kept}")
        for config in configs:
            await evaluate(client, conversations, config)


async def evaluate(
    client: Client[Any],
    conversations: list[tuple[Path, str, dict[tuple[str, int], str]]],
    config: str,
) -> None:
    per_category: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    per_file: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    overall: dict[int, list[float]] = defaultdict(list)
    dropped, skipped, timings = 0, 0, []
    for path, project, dia_of in conversations:
        known = set(dia_of.values())
        for qa in json.loads(path.read_text())["qa"]:
            evidence, lost = evidence_ids(qa.get("evidence", []), known)
            dropped += lost
            if not evidence:
                skipped += 1
                continue
            began = time.perf_counter()
            hits = await ask(client, project, qa["question"], CONFIGS[config])
            timings.append(time.perf_counter() - began)
            ranked = [dia_of[hit] for hit in hits]
            for k in KS:
                share = len(set(ranked[:k]) & set(evidence)) / len(evidence)
                per_category[qa["category"]][k].append(share)
                per_file[path.stem][k].append(share)
                overall[k].append(share)
    say(f"\n== {config} (channels {CONFIGS[config]}): recall@k, % ==")
    say(f"{'':>14} {'n':>5} " + " ".join(f"{'@' + str(k):>6}" for k in KS))
    for category in sorted(per_category, key=category_rank):
        say(recall_row(CATEGORIES.get(category, str(category)), per_category[category]))
    for name in sorted(per_file):
        say(recall_row(f"conv {name}", per_file[name]))
    say(recall_row("overall", overall))
    dragon = " ".join(f"@{k} {100 * statistics.mean(overall[k]) - DRAGON[k]:+.1f}" for k in DRAGON)
    say(f"{'vs DRAGON':>14}       {dragon}")
    say(
        f"search p50 {quantile_ms(timings, 50):.1f} ms, p95 {quantile_ms(timings, 95):.1f} ms; "
        f"{skipped} questions without evidence skipped, {dropped} evidence entries dropped"
    )


async def main(arguments: argparse.Namespace) -> None:
    files = data_files(arguments.data)
    configs = arguments.configs or (
        list(CONFIGS) if Settings().embeddings != "none" else ["full-text"]
    )
    async with bench_store() as store:
        await run(store, files, configs, arguments.keep_tenant)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="LoCoMo recall@k through search.")
    parser.add_argument("--data", help=f"the conversations' folder (default: ${DATA_ENV})")
    parser.add_argument("--configs", nargs="*", choices=list(CONFIGS))
    parser.add_argument(
        "--keep-tenant", help="ingest into this tenant once and keep it (for repeated runs)"
    )
    asyncio.run(main(parser.parse_args()))
