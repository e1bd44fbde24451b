"""py-spy on a running server, summarised: where its CPU goes under a load.

``sampling(pid, out)`` records the process (``py-spy record --format raw``: one line per
distinct stack, its frames root first and the sample count last) while the block runs;
``summary(out)`` prints the functions that hold the most samples, inclusive (the function
or anything it called), counted once per stack, and by module family (the package a sample's
innermost frame is in). Idle samples (the event loop waiting in select/epoll) are left out.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import signal
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

IDLE = ("select (selectors.py", "poll (selectors.py", "run_once (uvloop", "_run_once (")
FRAME = re.compile(r"^(?P<function>[^ ]+) \((?P<file>[^:)]+)(?::\d+)?\)$")


@contextlib.contextmanager
def sampling(pid: int, out: Path, rate: int = 200) -> Iterator[bool]:
    """py-spy records ``pid`` while the block runs; yields whether it could (py-spy found)."""
    spy = shutil.which("py-spy")
    if spy is None:
        yield False
        return
    command = [spy, "record", "-p", str(pid), "-o", str(out), "--format", "raw"]
    command += ["-r", str(rate), "--nonblocking", "--full-filenames"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield True
    finally:
        process.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def family(path: str) -> str:
    """The package a frame's file belongs to: graphmem, fastmcp, mcp, neo4j, pydantic, ..."""
    parts = Path(path).parts
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1].split(".")[0]
    for root in ("graphmem", "asyncio", "json", "logging"):
        if root in parts:
            return root
    return "python"


def summary(out: Path, top: int = 12) -> list[str]:
    """The busiest functions (inclusive) and the module families (innermost frame)."""
    if not out.exists():
        return ["(no profile: py-spy wrote nothing)"]
    inclusive: Counter[str] = Counter()
    innermost: Counter[str] = Counter()
    total = 0
    for line in out.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit() or any(mark in stack for mark in IDLE):
            continue
        count, frames = int(count_text), stack.split(";")
        total += count
        for frame in set(frames):
            inclusive[_short(frame)] += count
        match = FRAME.match(frames[-1])
        innermost[family(match["file"]) if match else "?"] += count
    if not total:
        return ["(no busy samples)"]
    lines = [
        f"busy samples {total}; by package of the innermost frame: " + _shares(innermost, total)
    ]
    lines += [f"  {100 * n / total:5.1f}%  {frame}" for frame, n in _deepest(inclusive, top)]
    return lines


def _short(frame: str) -> str:
    match = FRAME.match(frame)
    if not match:
        return frame
    return f"{match['function']} ({family(match['file'])}/{Path(match['file']).name})"


def _deepest(inclusive: Counter[str], top: int) -> list[tuple[str, int]]:
    """The most inclusive frames, skipping the ones every busy sample passes (the loop)."""
    ranked = inclusive.most_common()
    ceiling = ranked[0][1] if ranked else 0
    return [(frame, n) for frame, n in ranked if n < 0.95 * ceiling][:top]


def _shares(counter: Counter[str], total: int) -> str:
    return ", ".join(f"{name} {100 * n / total:.0f}%" for name, n in counter.most_common(8))
