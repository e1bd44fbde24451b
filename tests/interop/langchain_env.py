"""The LangChain test's own virtual environment: langchain-mcp-adapters (0.3.2 pins mcp<2)
cannot live beside the project's mcp 2, so the test installs langchain-requirements.txt into
an environment of its own, once, cached in ~/.cache/graphmem-tests (or $XDG_CACHE_HOME) under a
name that carries the pin, the Python version and the requirements file's digest. It is built
in a temporary folder and renamed into place only when pip succeeded: an interrupted or failed
install is never reused."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REQUIREMENTS = Path(__file__).with_name("langchain-requirements.txt")
INSTALL_TIMEOUT = 600.0


class EnvironmentUnavailable(Exception):
    """The environment could not be made; the message names the step and pip's last words."""


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "graphmem-tests"


def environment_name() -> str:
    text = REQUIREMENTS.read_text()
    pin = re.search(r"^langchain-mcp-adapters==(\S+)", text, re.MULTILINE)
    assert pin, f"{REQUIREMENTS.name} pins no langchain-mcp-adapters"
    python = f"py{sys.version_info.major}{sys.version_info.minor}"
    digest = hashlib.sha256(f"{python}\n{text}".encode()).hexdigest()[:10]
    return f"langchain-mcp-adapters-{pin.group(1)}-{python}-{digest}"


def _python(environment: Path) -> Path:
    return environment / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _run(command: list[str], step: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise EnvironmentUnavailable(f"{step}: {error}") from error
    if done.returncode != 0:
        said = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        raise EnvironmentUnavailable(f"{step} failed: {' | '.join(said[-3:])}")


def langchain_python() -> Path:
    """The environment's python, made first if it is not there yet."""
    final = cache_root() / environment_name()
    if _python(final).exists():
        return _python(final)
    cache_root().mkdir(parents=True, exist_ok=True)
    for stale in cache_root().glob(f".{final.name}-*"):  # left by a killed run
        if time.time() - stale.stat().st_mtime > 2 * INSTALL_TIMEOUT:
            shutil.rmtree(stale, ignore_errors=True)
    building = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=cache_root()))
    try:
        _run([sys.executable, "-m", "venv", str(building)], "python -m venv")
        install = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        _run([str(_python(building)), *install, "-r", str(REQUIREMENTS)], "pip install")
        building.chmod(0o755)  # mkdtemp made it private
        try:
            building.rename(final)  # atomic; a concurrent run may have put one there first
        except OSError:
            if not _python(final).exists():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return _python(final)
