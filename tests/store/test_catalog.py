"""Every .cypher file loads, holds one statement, and is used by some code path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import graphmem
from graphmem.store.catalog import QueryCatalog, catalog_root, default_catalog

pytestmark = pytest.mark.pure

PACKAGE = Path(graphmem.__file__).parent
PROJECT = PACKAGE.parent


def _python_sources() -> str:
    return "\n".join(path.read_text() for path in PACKAGE.rglob("*.py"))


def test_catalog_root_is_the_project_cypher_folder_in_a_checkout() -> None:
    assert catalog_root() == PROJECT / "cypher"


def test_every_file_loads_with_one_statement() -> None:
    catalog = default_catalog()
    assert catalog.names(), "empty catalog"
    for name in catalog.names():
        text = catalog[name].text
        assert text.strip()
        # One statement per file: no semicolon separating two statements.
        code = "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))
        assert ";" not in code, f"{name} holds more than one statement"


def test_file_names_are_verb_first_snake_case() -> None:
    for name in default_catalog().names():
        stem = name.rsplit("/", 1)[-1]
        assert re.fullmatch(r"(\d{3}_)?[a-z]+(_[a-z0-9]+)*", stem), name


def test_every_query_is_used_by_code() -> None:
    sources = _python_sources()
    catalog = default_catalog()
    unused = [
        name
        for name in catalog.names()
        if not name.startswith("schema/") and f'"{name}"' not in sources
    ]
    assert unused == [], f"queries no code path runs: {unused}"
    assert 'catalog.under("schema")' in sources  # schema files are applied as a folder


# graphmem import --from mcp-neo4j-memory reads the peer's database with these (never graphmem's)
PEER_STATEMENTS = {
    "moving/count_peer_graph",
    "moving/list_peer_entities",
    "moving/list_peer_relations",
}


def test_queries_are_tenant_scoped() -> None:
    exempt = {"store/ping", "store/await_indexes", "store/list_schema", "store/list_tenants"}
    # the database's embedding model: database-wide, like the schema (one shared vector index)
    exempt |= {"store/get_vector_space", "store/set_vector_space"}
    exempt |= {"store/claim_vector_catch_up", "store/release_vector_catch_up"}
    # which schema the database has: database-wide, like the schema itself
    exempt |= {"store/get_schema_stamp", "store/set_schema_stamp"}
    exempt |= PEER_STATEMENTS  # run on mcp-neo4j-memory's own database, which has no tenants
    for query in default_catalog().under("facts") + default_catalog().under("history"):
        assert "$tenant" in query.text, f"{query.name} does not scope by tenant"
    for name in default_catalog().names():
        if name.startswith("schema/") or name in exempt:
            continue
        assert "$tenant" in default_catalog()[name].text, name


def test_no_string_formatting_placeholders_in_queries() -> None:
    for name in default_catalog().names():
        text = default_catalog()[name].text
        assert "{}" not in text and "%s" not in text, name


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "nothing.cypher").write_text("// only a comment\n")
    with pytest.raises(ValueError, match="holds no statement"):
        QueryCatalog(tmp_path)


def test_unknown_query_names_the_catalog(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match="no query 'missing/query'"):
        QueryCatalog(tmp_path)["missing/query"]
