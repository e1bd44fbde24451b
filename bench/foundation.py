"""Foundation figures: managed Neo4j start times and size, serve-to-first-call latency.

    python -m bench.foundation            # cold start downloads ~155 MB into a temp cache
    python -m bench.foundation --no-cold  # only warm figures

Prints one line per figure. Each run uses temporary folders and free ports.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mcp

from graphmem.localdb.assemble import install_dir
from graphmem.localdb.lockfile import load_lock
from tests.app.helpers import GRAPHMEM, clean_env, serving_http
from tests.neo4j_endpoint import free_port


def timed_cli(*args: str, env: dict[str, str]) -> float:
    began = time.perf_counter()
    subprocess.run([*GRAPHMEM, *args], env=env, check=True, capture_output=True, timeout=900)
    return time.perf_counter() - began


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


async def first_call_after_serve(env: dict[str, str]) -> float:
    """Seconds from launching `graphmem serve --transport http` to a tool call's answer."""
    began = time.perf_counter()
    with serving_http(env, stderr=subprocess.DEVNULL) as server:
        while True:
            try:
                async with mcp.Client(server.url) as client:
                    result = await client.call_tool("current_state", {"state_key": "bench"})
                    assert not result.is_error
                    return time.perf_counter() - began
            except Exception:  # listening but not answering yet
                await asyncio.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cold", action="store_true", help="skip the download figure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        env = clean_env(
            GRAPHMEM_DATA_DIR=str(root / "data"),
            GRAPHMEM_LOCAL_BOLT_PORT=str(free_port()),
            GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
        )
        if not args.no_cold:
            env.update(GRAPHMEM_CACHE_DIR=str(root / "cache"), M2_REPO=str(root / "m2"))
        cache = Path(env.get("GRAPHMEM_CACHE_DIR", Path.home() / ".cache" / "graphmem"))
        label = "first start (download + assemble + new database)"
        if args.no_cold:
            label = "first start of a new database (jars cached)"
        print(f"{label}: {timed_cli('neo4j', 'start', env=env):.1f} s")
        home = install_dir(cache, load_lock())
        print(
            f"assembled Neo4j: {folder_size(home / 'lib') / 1e6:.0f} MB in "
            f"{len(list((home / 'lib').iterdir()))} jars ({home})"
        )
        timed_cli("neo4j", "stop", env=env)
        print(f"warm start (existing database): {timed_cli('neo4j', 'start', env=env):.1f} s")
        seconds = asyncio.run(first_call_after_serve(env))
        print(
            f"serve --transport http -> first answered tool call (Neo4j running): {seconds:.2f} s"
        )
        print(f"stop: {timed_cli('neo4j', 'stop', env=env):.1f} s")
        seconds = asyncio.run(first_call_after_serve(env))
        print(
            f"serve --transport http -> first answered tool call (Neo4j stopped, "
            f"started by serve): {seconds:.2f} s"
        )
        timed_cli("neo4j", "stop", env=env)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
