"""The repository stands alone: every file README.md and docs/ link to or name exists, and no
tracked file points outside the repository at the team's shared folder (background, not part
of the product)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
# a path of the repository named in backticks: graphmem/..., cypher/..., tests/... and so on
NAMED = re.compile(r"`((?:graphmem|cypher|tests|bench|docs|docker|scripts)/[\w./-]+)`")
OUTSIDE = "../" + "shared"  # spelled apart, so this file does not name it


def _linked(document: Path) -> list[str]:
    targets = []
    for target in LINK.findall(document.read_text()):
        if target.startswith(("http://", "https://", "mailto:", "#")):
            continue
        targets.append(target.split("#", 1)[0])
    return targets


@pytest.mark.parametrize("document", DOCS, ids=lambda path: path.name)
def test_every_link_and_named_path_exists(document: Path) -> None:
    text = document.read_text()
    missing = [t for t in _linked(document) if not (document.parent / t).exists()]
    missing += [
        named
        for named in NAMED.findall(text)
        if "." in named.rstrip(".").rsplit("/", 1)[-1]  # a file (`graphmem/neo4j` is an image)
        and "*" not in named
        and not (ROOT / named.rstrip(".")).exists()
    ]
    assert missing == [], f"{document.name} names what is not in the repository: {missing}"


def test_nothing_points_outside_the_repository() -> None:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    pointing = []
    for name in listed:
        path = ROOT / name
        if "node_modules" in path.parts or not path.is_file():
            continue
        try:
            if OUTSIDE in path.read_text():
                pointing.append(name)
        except UnicodeDecodeError:  # a binary file
            continue
    assert pointing == [], f"these name {OUTSIDE}: {pointing}"


# A source path named in code, comments, statements or docs: folder/.../file.ext
SOURCE_PATH = re.compile(
    r"(?<![\w./:-])((?:[a-z_][a-z0-9_]*/)+[a-z_][a-z0-9_]*\.(?:py|cypher|md|json|sh|toml))(?![\w/])"
)
TEXT_FILES = (".py", ".md", ".cypher", ".toml", ".sh", ".yml")
# Where a path written relative to its area may live.
BASES = ("", "graphmem", "cypher", "tests", "bench", "docs")


def test_every_source_path_named_anywhere_exists() -> None:
    """No comment, docstring, statement or document names a file that moved or went (a path
    may be written from the repository's root or from graphmem/, cypher/, tests/, bench/ or
    docs/, or beside the file that names it)."""
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    tracked = {ROOT / name for name in listed}
    tracked |= {folder for path in tracked for folder in path.parents}  # and their folders
    stale = []
    for name in listed:
        if not name.endswith(TEXT_FILES) or "node_modules" in name:
            continue
        if not (ROOT / name).is_file():  # deleted in the working tree, not yet committed
            continue
        here = (ROOT / name).parent
        for named in SOURCE_PATH.findall((ROOT / name).read_text(errors="replace")):
            places = [ROOT / base / named for base in BASES] + [here / named]
            if not any(place.resolve() in tracked for place in places):  # as a clone has it
                stale.append(f"{name} names {named}")
    assert stale == []
