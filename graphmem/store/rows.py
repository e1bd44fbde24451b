"""Rows as the store returns them, and the shapes of the rows the store itself reads.

A row is one record of a statement: its RETURN columns by name, the driver's values turned into
plain Python (``plain``). store.py says how rows are typed across the seam.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias, TypedDict, TypeVar, cast

import neo4j
from neo4j.graph import Node, Relationship
from neo4j.time import Date, DateTime, Duration, Time

Row: TypeAlias = dict[str, object]
"""One record of any statement: column name to plain value (str, int, float, bool, None,
datetime, date, time, ISO duration text, and lists and dicts of these; a node or relationship
as the dict of its properties). What the columns are, only the statement's file says: a row is
read through the TypedDict of its statement's RETURN columns (``shaped``), never by guessing."""

Params: TypeAlias = dict[str, object]
"""A statement's parameters by name: any value the driver takes (its file says which)."""

Shape = TypeVar("Shape", bound=Mapping[str, object])

_PLAIN = frozenset({str, int, float, bool, type(None)})


def plain(value: object) -> object:
    """Driver values to plain Python: temporal types to datetime/date, nodes to dicts."""
    kind = type(value)
    if kind in _PLAIN:  # most values; exact type checks are far cheaper than isinstance
        return value
    # The driver's lists and maps hold untyped values: each one is made plain in turn.
    if kind is list:
        return [plain(item) for item in cast("list[object]", value)]
    if kind is dict:
        return {key: plain(item) for key, item in cast("dict[str, object]", value).items()}
    if isinstance(value, DateTime | Date | Time):
        return value.to_native()
    if isinstance(value, Duration):
        return value.iso_format()
    if isinstance(value, Node | Relationship):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in cast("list[object]", value)]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in cast("dict[str, object]", value).items()}
    return value


def row_of(record: neo4j.Record) -> Row:
    return {key: plain(value) for key, value in zip(record.keys(), record.values(), strict=True)}


def shaped(shape: type[Shape], rows: list[Row]) -> list[Shape]:
    """``rows`` as ``shape``, the TypedDict of their statement's RETURN columns.

    Declared, not checked at run time (rows are on the hot path): the shape sits beside the
    code that runs the statement and must name the columns its file returns."""
    del shape  # only the type checker reads it
    return cast("list[Shape]", rows)


# --- the rows of the store's own statements ---------------------------------------------------


class IndexRow(TypedDict):
    """store/list_schema: one index (or a constraint's) and its state."""

    name: str
    type: str
    state: str  # ONLINE, POPULATING, FAILED
    labelsOrTypes: list[str] | None
    properties: list[str] | None


class SchemaStampRow(TypedDict):
    """store/get_schema_stamp: the digest of the schema last applied in full."""

    digest: str


class VectorSpaceRow(TypedDict):
    """store/get_vector_space: the embedding model whose vectors the database holds."""

    model: str
    dimensions: int


class TenantRow(TypedDict):
    """store/list_tenants."""

    tenant: str


class FactCountRow(TypedDict):
    owner: str
    status: str
    n: int


class TenantGraphRow(TypedDict):
    """store/count_tenant_graph: facts per owner and status, key slots, the history head."""

    facts: list[FactCountRow]
    fact_keys: int
    revision: int
    last_hash: str | None
    last_at: str | None


class LabelCountRow(TypedDict):
    """store/count_tenant_labels: nodes of one label (and project, where its nodes name one)."""

    label: str
    project: str | None
    count: int


class PlanStep(TypedDict, total=False):
    """One operator of a plan as the driver gives it (the keys explain reads)."""

    operatorType: str
    children: list[PlanStep]
