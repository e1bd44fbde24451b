"""The query catalog: every Cypher statement graphmem runs, loaded from ``.cypher`` files.

Names are the file paths below the catalog root without the suffix (``facts/record_fact``).
An installed wheel carries the files as ``graphmem/_cypher``; an editable install or a source
checkout reads the project's ``cypher/`` folder. One statement per file; leading ``//`` lines
are its documentation.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import LiteralString, cast

import graphmem

# `CREATE [VECTOR|FULLTEXT|...] INDEX name`, `CREATE CONSTRAINT name`, and their DROPs
_SCHEMA_NAME = re.compile(r"^(CREATE|DROP) (?:CONSTRAINT|(?:[A-Z]+ )?INDEX) (\w+)", re.MULTILINE)


@dataclass(frozen=True)
class NamedQuery:
    name: str
    text: LiteralString
    path: Path


def catalog_root() -> Path:
    package = Path(graphmem.__file__).resolve().parent
    for candidate in (package / "_cypher", package.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no cypher/ catalog next to {package}")


def _statement(path: Path) -> str:
    text = path.read_text(encoding="utf-8").strip()
    if text.endswith(";"):
        text = text[:-1].rstrip()
    body = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    if not "".join(body).strip():
        raise ValueError(f"{path} holds no statement")
    return text


class QueryCatalog:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._queries = {
            path.relative_to(root).with_suffix("").as_posix(): NamedQuery(
                name=path.relative_to(root).with_suffix("").as_posix(),
                # The one cast of query text: it comes from our own files, never from input.
                text=cast(LiteralString, _statement(path)),
                path=path,
            )
            for path in sorted(root.rglob("*.cypher"))
        }

    def __getitem__(self, name: str) -> NamedQuery:
        try:
            return self._queries[name]
        except KeyError:
            raise KeyError(f"no query {name!r} in {self.root}") from None

    def names(self) -> list[str]:
        return list(self._queries)

    def under(self, folder: str) -> list[NamedQuery]:
        """Queries of one folder in file-name order (schema files apply in that order)."""
        prefix = folder.rstrip("/") + "/"
        return [q for name, q in self._queries.items() if name.startswith(prefix)]

    def created_names(self, folder: str) -> frozenset[str]:
        """The indexes and constraints a folder's statements leave behind, in order: what a
        CREATE names, less what a later DROP removes."""
        names: set[str] = set()
        for query in self.under(folder):
            for verb, name in _SCHEMA_NAME.findall(query.text):
                (names.add if verb == "CREATE" else names.discard)(name)
        return frozenset(names)

    def digest(self, folder: str) -> str:
        """One folder's statements (names and texts, in order) as a SHA-256: what the schema
        stamp compares, so any change to the schema applies it again."""
        hashed = hashlib.sha256()
        for query in self.under(folder):
            hashed.update(f"{query.name}\0{query.text}\0".encode())
        return hashed.hexdigest()


@cache
def default_catalog() -> QueryCatalog:
    return QueryCatalog(catalog_root())
