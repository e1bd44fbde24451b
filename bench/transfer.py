"""Export and import figures: one tenant of N facts with their history, at 10^4 and 10^5.

    python -m bench.transfer                 # 10^4 and 10^5
    python -m bench.transfer --sizes 4       # 10^4 only

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder). The tenant is
bulk-loaded by bench.scale's loader (N facts, each the current fact of its own key with its
transaction-time state, and N keyed history events). Then ``graphmem export`` and ``graphmem
import`` run as the commands a person runs (their own processes): wall time, lines per second,
the file's size and each process's peak RSS (from wait4). The import's time includes its full
verification of the re-chained history. Not part of CI.
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

from bench.harness import say, scratch_tenant
from bench.scale_loader import Loader
from graphmem.core.keys import ChainKey
from graphmem.store import Store
from tests.neo4j_endpoint import Endpoint, find_endpoint


def run_command(arguments: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Seconds, peak RSS in MB, and stderr of one graphmem command (failing loudly)."""
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem", *arguments],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"graphmem {arguments[0]} failed: {errors.strip()}")
    return seconds, usage.ru_maxrss / 1024, errors.strip().splitlines()[-1]


async def main(endpoint: Endpoint, scratch: Path, exponents: list[int]) -> None:
    key = ChainKey(b"\x07" * 32)
    key_file = scratch / "history.key"
    key_file.write_text(key.secret.hex())
    key_file.chmod(0o600)
    env = {**os.environ, **endpoint.env(), "GRAPHMEM_HISTORY_KEY_FILE": str(key_file)}
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    store.chain_key = key
    try:
        await store.apply_schema()
        async with scratch_tenant(store, "export") as source:
            loader = Loader(store, source, key)
            for exponent in exponents:
                await loader.grow(10**exponent, 0, 0)
                async with scratch_tenant(store, "import") as target:
                    await asyncio.to_thread(measure, source, target, scratch, env, exponent)
    finally:
        await store.close()


def measure(source: str, target: str, scratch: Path, env: dict[str, str], exponent: int) -> None:
    path = scratch / f"export-{exponent}.jsonl"
    seconds, rss, said = run_command(["export", "--tenant", source, "--out", str(path)], env)
    lines = sum(1 for _ in path.open("rb")) - 2
    size = path.stat().st_size / 1e6
    say(f"\n== 10^{exponent} facts with their history: {lines:,} lines, {size:.1f} MB")
    say(f"export  {seconds:6.1f} s  {lines / seconds:8,.0f} lines/s  peak RSS {rss:5.0f} MB")
    seconds, rss, said = run_command(["import", "--tenant", target, str(path)], env)
    say(f"import  {seconds:6.1f} s  {lines / seconds:8,.0f} lines/s  peak RSS {rss:5.0f} MB")
    say(f"        ({said})")


def cli() -> None:
    parser = argparse.ArgumentParser(description="Export and import figures.")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5], help="powers of ten")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        say(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, Neo4j: {endpoint.origin}")
        asyncio.run(main(endpoint, Path(scratch), sorted(args.sizes)))


if __name__ == "__main__":
    cli()
